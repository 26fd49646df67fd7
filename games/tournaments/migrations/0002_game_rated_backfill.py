"""Tables of rated tournaments created before Game.rated existed become rated games.

Until then a tournament's rated setting was read at the finish; now the game carries it, and
games.ratings rates any finished game with rated set.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(tournament_table__round__tournament__rated=True, rated=False).update(rated=True)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_game_rated"),
        ("tournaments", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
