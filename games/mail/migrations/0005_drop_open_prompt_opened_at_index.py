# The prompt sweep reads games.Prompt's partial index of prompts whose email is not settled
# (prompt_mail_pending), and a write's task finds its prompts through
# prompt_open_game_opened (game, opened_at): this app's index of every open prompt by opening time
# (0002) now only costs writes and tempts the planner away from the smaller one.

from django.db import migrations


PROMPT_INDEX = "mail_prompt_open_opened_at"


class Migration(migrations.Migration):

    dependencies = [
        ("mail", "0004_mail_job_outbox"),
        ("games", "0008_prompt_mail_and_reminder_plan"),
    ]

    operations = [
        migrations.RunSQL(
            sql=f"DROP INDEX IF EXISTS {PROMPT_INDEX}",
            reverse_sql=f"CREATE INDEX {PROMPT_INDEX} ON games_prompt (opened_at) WHERE closed_at IS NULL",
        ),
    ]
