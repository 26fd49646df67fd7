"""A seat's open prompt is found without walking its closed ones (migration games/0014).

Every pick and every view reads the game's seats with their open prompts (games/selectors.py,
``seats_with_open_prompts``), as a prepared statement: a generic plan, chosen on whatever statistics the
table has. With an index on ``seat_id`` alone beside the partial unique index of open prompts, the planner
took the former on statistics that did not know the seats' history yet (under the load benchmark, on a
young database), read every prompt of each seat and filtered out the closed ones: ~300 us of PostgreSQL's
time a read instead of ~70, growing with the game's length. Now a seat's prompts are indexed by
(seat_id, closed_at), and every index the read can take finds open prompts without visiting closed ones.
"""

from __future__ import annotations

import itertools
import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, Prompt, Seat
from games.selectors import _seats_sql
from tests.factories import make_started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

CLOSED_PER_SEAT = 40
OTHER_GAMES = 500  # enough rows that the planner reads prompts by an index, as in a real table


def _other_games_with_one_prompt_a_seat(like: Game, count: int) -> None:
    games = Game.objects.bulk_create(Game(engine=like.engine, options={}, seed=like.seed, players=like.players,
                                          state=like.state, phase=like.phase, status=like.status)
                                     for _ in range(count))
    seats = Seat.objects.bulk_create(Seat(game=g, position=p) for g in games for p in range(like.players))
    now = timezone.now()
    Prompt.objects.bulk_create(Prompt(game_id=s.game_id, seat=s, prompt_id="p", phase=0, text="?",
                                      options=[{"id": "a", "label": "A"}], opened_at=now, mail_pending=False)
                               for s in seats)


def _indexes_on_seat_id() -> dict[str, dict]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Prompt._meta.db_table)
    return {name: c for name, c in constraints.items() if c["index"] and c["columns"][:1] == ["seat_id"]}


def test_a_seats_prompts_are_indexed_with_closed_at_and_the_open_one_stays_unique():
    indexes = _indexes_on_seat_id()
    assert indexes["prompt_seat_closed"]["columns"] == ["seat_id", "closed_at"]
    assert indexes["prompt_one_open_per_seat"]["unique"]  # the migration kept it (AlterField would not have)
    assert set(indexes) == {"prompt_seat_closed", "prompt_one_open_per_seat"}  # no index on seat_id alone


def _game_with_history():
    """A started 4-seat game whose seats each have CLOSED_PER_SEAT answered prompts and one open, among
    OTHER_GAMES games whose seats have one open prompt each."""
    game, _ = make_started_game(players=4)
    assert Prompt.objects.filter(game=game, closed_at__isnull=True).count() == 4
    _other_games_with_one_prompt_a_seat(game, OTHER_GAMES)
    earlier = timezone.now() - timedelta(hours=1)
    Prompt.objects.bulk_create(
        Prompt(game=game, seat=seat, prompt_id=f"old-{n}", phase=0, text="old", options=[{"id": "a", "label": "A"}],
               opened_at=earlier, closed_at=earlier, answered=True, mail_pending=False)
        for seat in game.seats.all() for n in range(CLOSED_PER_SEAT))
    _forget_statistics(Prompt)
    _forget_statistics(Seat)
    return game


def _forget_statistics(model) -> None:
    """The table as if never analysed, whatever autovacuum did during the suite (this test's transaction is
    rolled back, and the statistics with it)."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM pg_statistic WHERE starelid = %s::regclass", [model._meta.db_table])
        cursor.execute("UPDATE pg_class SET reltuples = -1, relpages = 0 WHERE oid = %s::regclass",
                       [model._meta.db_table])


def _prompt_scans(plan: dict) -> list[dict]:
    found = [plan] if plan.get("Relation Name") == Prompt._meta.db_table else []
    for child in plan.get("Plans", ()):
        found += _prompt_scans(child)
    return found


@pytest.mark.parametrize("with_players, with_vacations", [(False, True), (True, False)], ids=["pick", "view"])
def test_the_seats_read_visits_no_closed_prompt_on_a_generic_plan_before_statistics(with_players, with_vacations):
    """The read as a pick and as a view send it, planned as psycopg's prepared statements are (a generic
    plan), on tables not analysed yet: the prompts' scans read no closed prompt. (On 0013's schema each
    seat's 40 closed prompts were read and dropped.)"""
    game = _game_with_history()
    numbered = itertools.count(1)
    prepared = re.sub(r"%s", lambda _: f"${next(numbered)}",
                      _seats_sql(with_players=with_players, with_vacations=with_vacations))
    # The statement's parameter types, and its values as literals (EXPLAIN EXECUTE takes no bound parameters).
    types, values = ["bigint"], [str(game.pk)]
    if with_vacations:
        types, values = ["timestamptz", *types], [f"'{timezone.now().isoformat()}'", *values]
    with connection.cursor() as cursor:
        cursor.execute("SET plan_cache_mode = force_generic_plan")
        try:
            cursor.execute(f"PREPARE seats_read ({', '.join(types)}) AS {prepared}")
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE seats_read({', '.join(values)})")
            raw = cursor.fetchone()[0]
        finally:
            cursor.execute("DEALLOCATE ALL")
            cursor.execute("RESET plan_cache_mode")
    plan = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
    scans = _prompt_scans(plan)
    assert scans, plan
    # Whichever scan the planner took (by seat in a loop, a bitmap over the open prompts), it reads open
    # prompts only: no closed prompt read and dropped by a filter.
    for scan in scans:
        assert scan.get("Rows Removed by Filter", 0) == 0, plan
        assert scan.get("Rows Removed by Index Recheck", 0) == 0, plan
        assert "closed_at" not in scan.get("Filter", ""), plan
