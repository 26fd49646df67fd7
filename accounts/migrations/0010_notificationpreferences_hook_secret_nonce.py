"""A nonce in the derivation of a player's hook signing secret, so they can rotate it. Existing rows get
"" and "" derives the secret they had, so no receiver's check breaks on upgrade."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0009_prompt_mail_quiet_hours_webhook_presence'),
    ]

    operations = [
        migrations.AddField(
            model_name='notificationpreferences',
            name='hook_secret_nonce',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
    ]
