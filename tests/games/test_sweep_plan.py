"""The deadline sweep with a realistic history: its query walks only the open-deadline partial index
(issue 16 item 1).

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


def _seed_history(game) -> None:
    """Closed prompts of one seat, all with past deadlines, written in one statement."""
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
    """issue 16 item 1: EXPLAIN of the sweep's query on a table of mostly closed prompts."""
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
    """issue 16 item 1: the ordered, limited query returns what the sweep must resolve, and only that."""
    game, _ = make_started_game(players=2)
    _seed_history(game)
    assert due_phases() == []
    game.prompts.filter(closed_at__isnull=True).update(deadline=timezone.now() - timedelta(minutes=1))
    game.refresh_from_db()
    assert due_phases() == [(game.pk, game.phase)]
