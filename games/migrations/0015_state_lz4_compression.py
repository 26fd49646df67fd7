"""The engine states (a game's, and the one a take-back point keeps) compressed with lz4 on PostgreSQL.

A 3 KB state is over PostgreSQL's TOAST threshold (~2 KB), so every pick's UPDATE of the game row and
INSERT of its take-back point compressed it, with pglz by default. lz4 compresses and decompresses it for
less of the database's CPU (~40 us less an UPDATE of a Faltisia state: pglz 194-238 us, lz4 155-177, over
12,000 UPDATEs each), at about the same size.

Only the column's setting changes: no table is rewritten, the statement is a catalogue change. Values
already stored stay as they are (PostgreSQL reads both), and a game's state is written again, with lz4, by
its next pick. A PostgreSQL built without lz4 keeps pglz; SQLite has nothing to change.
"""

from django.db import migrations

# (model, field): the columns that hold an engine state
STATE_COLUMNS = (("Game", "state"), ("TakeBack", "state"))


def _set_compression(apps, schema_editor, method: str) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    if method != "default":
        with connection.cursor() as cursor:
            cursor.execute("SELECT %s = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'",
                           [method])
            row = cursor.fetchone()
        if not (row and row[0]):
            return  # this PostgreSQL was built without it
    for model_name, field_name in STATE_COLUMNS:
        model = apps.get_model("games", model_name)
        column = model._meta.get_field(field_name).column
        schema_editor.execute(f"ALTER TABLE {schema_editor.quote_name(model._meta.db_table)}"
                              f" ALTER COLUMN {schema_editor.quote_name(column)} SET COMPRESSION {method}")


def compress_with_lz4(apps, schema_editor):
    _set_compression(apps, schema_editor, "lz4")


def compress_as_the_server_default(apps, schema_editor):
    _set_compression(apps, schema_editor, "default")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0014_prompt_seat_closed_index'),
    ]

    operations = [
        migrations.RunPython(compress_with_lz4, compress_as_the_server_default, elidable=False),
    ]
