"""Each game's press setting (games.models.Press).

Every existing game gets "table", the default a game created by the running code has: its players could
not talk before, and table chat is what a new game offers unless its creator chooses otherwise. A constant
default is added without rewriting the table on PostgreSQL 11+ (the column's default is kept in the
catalogue), so this is quick however many games there are.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_backfill_prompt_mail_and_reminder_plan"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="press",
            field=models.CharField(choices=[("none", "No messages"), ("table", "Table chat"),
                                            ("full", "Table chat and private messages")],
                                   default="table", max_length=5),
        ),
    ]
