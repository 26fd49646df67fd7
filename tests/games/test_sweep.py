"""The deadline sweep with a realistic history: its query walks only the open-deadline partial index.

Real games pile up closed prompts, every one with a past deadline. Planned as a plain filter plus a
join, PostgreSQL's estimate of ``deadline <= now`` (from the statistics of all rows, mostly closed) made
it scan every prompt row; the sweep's query now asks for the due prompts in deadline order with a limit,
which the partial index ``prompt_open_deadline`` answers in order.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.services.sweep import due_phases, due_prompt_games
from tests.factories import make_started_game

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

HISTORY_ROWS = 60_000  # closed prompts with past deadlines, as ~7,500 games with a few steps behind them
OTHER_ACTIVE_GAMES = 3_000  # active games, each with an open prompt that is not due yet


def _columns(table: str) -> str:
    with connection.cursor() as c:
        names = [col.name for col in connection.introspection.get_table_description(c, table)]
    return ", ".join(name for name in names if name not in ("id", "game_id"))


def _seed_other_active_games(game) -> None:
    """Copies of the game, each with its first seat and an open prompt due in a day.

    Without them the table holds one active game, and the planner rightly starts from it (the games'
    status index, then that game's open prompts): a plan that is cheap only because the server is
    empty. With a server's worth of active games the due prompts must come out of the deadline index.
    """
    seat = game.seats.order_by("position").first()
    game_cols, seat_cols = _columns("games_game"), _columns("games_seat")
    with connection.cursor() as c:
        c.execute(f"""CREATE TEMP TABLE copied_games AS
                      WITH made AS (INSERT INTO games_game ({game_cols})
                                    SELECT {game_cols} FROM games_game, generate_series(1, %s)
                                    WHERE games_game.id = %s RETURNING id)
                      SELECT id FROM made""", [OTHER_ACTIVE_GAMES, game.pk])
        c.execute(f"""INSERT INTO games_seat (game_id, {seat_cols})
                      SELECT copied_games.id, {seat_cols}
                      FROM copied_games, games_seat WHERE games_seat.id = %s""", [seat.pk])
        c.execute("""INSERT INTO games_prompt (game_id, seat_id, prompt_id, phase, text, options, deadline,
                                               opened_at, answered, mail_pending, reminder_planned)
                     SELECT s.game_id, s.id, 'p', 0, '', '[]'::jsonb, now() + interval '1 day', now(),
                            false, false, true
                     FROM games_seat s JOIN copied_games g ON g.id = s.game_id""")
        c.execute("DROP TABLE copied_games")
        c.execute("ANALYZE games_game")
        c.execute("ANALYZE games_seat")


def _seed_history(game) -> None:
    """Closed prompts of one seat, all with past deadlines, written in one statement, beside a
    server's worth of other active games."""
    _seed_other_active_games(game)
    seat_id = game.seats.order_by("position").first().pk
    with connection.cursor() as c:
        c.execute(
            """INSERT INTO games_prompt (game_id, seat_id, prompt_id, phase, text, options, deadline, opened_at,
                                         closed_at, answered, mail_pending, reminder_planned)
               SELECT %s, %s, 'old-' || i, 0, '', '[]'::jsonb, now() - interval '3 days' + i * interval '1 second',
                      now() - interval '5 days', now() - interval '4 days', true, false, true
               FROM generate_series(1, %s) AS i""",
            [game.pk, seat_id, HISTORY_ROWS])
        c.execute("ANALYZE games_prompt")


def test_the_due_query_walks_the_open_deadline_index_despite_a_closed_history():
    """EXPLAIN of the sweep's query on a table of mostly closed prompts."""
    game, _ = make_started_game(players=2)
    _seed_history(game)
    now = timezone.now()
    plan = due_prompt_games(now=now, grace=now).explain()
    # The due prompts come out of the deadline index by an index condition: not a walk of every open
    # prompt (another open-prompt index with the deadline as a filter), nor of every prompt row.
    assert "Index Scan using prompt_open_deadline on games_prompt" in plan, plan
    assert "Index Cond: (deadline <=" in plan, plan
    assert "Seq Scan on games_prompt" not in plan, plan


def test_the_sweep_still_finds_the_due_steps_among_the_history():
    """The ordered, limited query returns what the sweep must resolve, and only that."""
    game, _ = make_started_game(players=2)
    _seed_history(game)
    assert due_phases() == []
    game.prompts.filter(closed_at__isnull=True).update(deadline=timezone.now() - timedelta(minutes=1))
    game.refresh_from_db()
    assert due_phases() == [(game.pk, game.phase)]
