"""The outbox's channel made explicit, and its sweep indexed by when a row falls due.

- ``channel`` (mail, webhook): a player's webhook call was a row of kind "webhook" addressed "webhook:user<id>";
  it becomes a row of kind "prompt" (what it is about) on the webhook channel, with no address (its URL is read
  at send time), so the rules about prompts (the seat's holder, an open prompt, the task's priority) hold for
  it as for the prompt's email. Every other row is an email, the column's default: adding it rewrites no row
  on PostgreSQL.
- ``to_email`` is renamed ``address`` in the code only: the column keeps its name, and ``channel`` has a default in
  the database too, so a node still running the code before this migration goes on writing its emails while the
  others are upgraded.
- The sweep's index: the pending rows by the time they fall due (``COALESCE(not_before, created_at)``) instead
  of by creation, so a sweep reads the rows due by now and none held for later. It is built before the old one
  goes, so pending rows are never without an index, and on PostgreSQL without blocking writes (CONCURRENTLY:
  the migration is not atomic for that).
"""

import django.db.models.functions.comparison
from django.db import migrations, models


class AddIndexConcurrentlyOnPostgreSQL(migrations.AddIndex):
    """AddIndex, built CONCURRENTLY on PostgreSQL; as usual elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        model = to_state.apps.get_model(app_label, self.model_name)
        if self.allow_migrate_model(schema_editor.connection.alias, model):
            schema_editor.add_index(model, self.index, concurrently=True)


class RemoveIndexConcurrentlyOnPostgreSQL(migrations.RemoveIndex):
    """RemoveIndex, dropped CONCURRENTLY on PostgreSQL; as usual elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        model = from_state.apps.get_model(app_label, self.model_name)
        if self.allow_migrate_model(schema_editor.connection.alias, model):
            index = from_state.models[app_label, self.model_name_lower].get_index_by_name(self.name)
            schema_editor.remove_index(model, index, concurrently=True)


def webhook_rows_on_their_channel(apps, schema_editor):
    notification = apps.get_model("mail", "Notification")
    notification.objects.filter(kind="webhook").update(kind="prompt", channel="webhook", address="")


def webhook_rows_as_they_were(apps, schema_editor):
    notification = apps.get_model("mail", "Notification")
    for pk, user_id in notification.objects.filter(channel="webhook").values_list("pk", "user_id"):
        notification.objects.filter(pk=pk).update(kind="webhook", address=f"webhook:user{user_id}")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ('mail', '0007_notification_away_only_quiet_held'),
    ]

    operations = [
        migrations.AlterField(
            model_name='notification',
            name='to_email',
            field=models.CharField(blank=True, max_length=254, db_column='to_email'),
        ),
        migrations.RenameField(model_name='notification', old_name='to_email', new_name='address'),
        migrations.AddField(
            model_name='notification',
            name='channel',
            field=models.CharField(choices=[('mail', 'Mail'), ('webhook', 'Webhook')], db_default='mail',
                                   default='mail', max_length=10),
        ),
        migrations.RunPython(webhook_rows_on_their_channel, webhook_rows_as_they_were, elidable=False),
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('prompt', 'Prompt'), ('reminder', 'Reminder'), ('result', 'Result'), ('digest', 'Digest'), ('finished', 'Finished'), ('answer', 'Answer'), ('chat', 'Chat'), ('moderation', 'Moderation')], max_length=10),
        ),
        AddIndexConcurrentlyOnPostgreSQL(
            model_name='notification',
            index=models.Index(django.db.models.functions.comparison.Coalesce('not_before', 'created_at'), condition=models.Q(('status', 'pending')), name='mail_notification_due'),
        ),
        RemoveIndexConcurrentlyOnPostgreSQL(
            model_name='notification',
            name='mail_notification_pending',
        ),
    ]
