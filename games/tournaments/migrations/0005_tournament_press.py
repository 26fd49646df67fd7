"""The press setting a tournament gives its games.

Tournaments that exist already get "table": their games so far were created with it (games 0010), so the
rounds still to come match the rounds played. A new tournament defaults to "none", the usual competitive
setting: the column is added with "table" for the existing rows, then its default becomes "none".
"""

from django.db import migrations, models

PRESS_CHOICES = [("none", "No messages"), ("table", "Table chat"), ("full", "Table chat and private messages")]


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0004_tournament_proposals"),
        ("games", "0010_game_press"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="press",
            field=models.CharField(choices=PRESS_CHOICES, default="table", max_length=5),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="press",
            field=models.CharField(choices=PRESS_CHOICES, default="none", max_length=5),
        ),
    ]
