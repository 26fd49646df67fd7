"""Leave room in each page of games_game for the next version of a row (PostgreSQL only).

Every write to a game rewrites its row (the engine's state, ~1.4 KB compressed). With full pages an
update cannot stay on the row's page, so it is not a HOT update: every index gets a new entry and the
row's lookups walk the dead versions until vacuum (under the load benchmark 47% of the game updates were
not HOT, and the foreign-key checks of a pick's inserts, which read the game row, took 0.25 ms each).
"""

from django.db import migrations


def fillfactor(percent: int):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE games_game SET (fillfactor = {percent})")
    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0003_game_version")]

    operations = [migrations.RunPython(fillfactor(50), fillfactor(100))]
