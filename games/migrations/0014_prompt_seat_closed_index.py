"""A seat's prompts indexed by (seat, closed_at) instead of by seat alone (games/models.py, Prompt).

The new index is built first, so that a seat's prompts are never without one, and on PostgreSQL without
blocking writes (CREATE INDEX CONCURRENTLY: a live database keeps taking picks while it is built). Then the
foreign key's own index goes (a catalogue change, quick), dropped by its name: Django's AlterField to
db_index=False would also drop every other index on the column alone, the partial unique index
prompt_one_open_per_seat among them. No data changes.
"""

import django.db.models.deletion
from django.db import migrations, models


class AddIndexConcurrentlyOnPostgreSQL(migrations.AddIndex):
    """AddIndex, built CONCURRENTLY on PostgreSQL (the migration is not atomic for that); as usual elsewhere."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        model = to_state.apps.get_model(app_label, self.model_name)
        if self.allow_migrate_model(schema_editor.connection.alias, model):
            schema_editor.add_index(model, self.index, concurrently=True)


def drop_seat_foreign_key_index(apps, schema_editor):
    """The index Django made for Prompt.seat (db_index=True), by the name it gave it, and only that one."""
    prompt = apps.get_model("games", "Prompt")
    name = schema_editor._create_index_name(prompt._meta.db_table, ["seat_id"], suffix="")
    concurrently = " CONCURRENTLY" if schema_editor.connection.vendor == "postgresql" else ""
    schema_editor.execute(f"DROP INDEX{concurrently} IF EXISTS {schema_editor.quote_name(name)}")


def restore_seat_foreign_key_index(apps, schema_editor):
    prompt = apps.get_model("games", "Prompt")
    field = prompt._meta.get_field("seat")
    schema_editor.execute(schema_editor._create_index_sql(prompt, fields=[field], suffix=""))


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ('games', '0013_take_back_submission_no_constraint'),
    ]

    operations = [
        AddIndexConcurrentlyOnPostgreSQL(
            model_name='prompt',
            index=models.Index(fields=['seat', 'closed_at'], name='prompt_seat_closed'),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='prompt',
                    name='seat',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='prompts', to='games.seat'),
                ),
            ],
            database_operations=[
                migrations.RunPython(drop_seat_foreign_key_index, restore_seat_foreign_key_index, elidable=False),
            ],
        ),
    ]
