"""Round trips per API request: the budget of the write path (docs/server.md, "What a request costs").

The load benchmark showed the web workers mostly waiting on the database, so the number of statements
per request is the figure that bounds throughput. These tests pin the budget so a stray lookup or an
N+1 fails here rather than in a benchmark run. Savepoints (the test's stand-in for BEGIN/COMMIT) and
the after-commit notifications (other layers' work) are not counted.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Prompt
from games.services import phase_resolve
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import play_step

GET_BUDGET = 3  # token + user; game + creator; seats + players + open prompts
NOT_MODIFIED_BUDGET = 2  # token + user; the game's version, whether it is public and whether the caller sits
# token; game FOR NO KEY UPDATE; seats + open prompts + which players have a vacation ahead; the pick's events
# (tinygame reports one per pick); close the prompt; insert the submission; open the follow-up prompt;
# the game row
PICK_BUDGET = 8


def _statements(ctx: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"].upper()]


@pytest.fixture
def four(db, api):
    game, users = make_started_game(players=4, options={"rounds": 1})
    return game, users, api


def test_get_costs_three_queries_whatever_the_number_of_seats(four):
    game, users, api = four
    with CaptureQueriesContext(connection) as ctx:
        body = api.as_user(users[2]).get(f"/api/games/{game.pk}/").json()
    assert body["seat"] == 2 and body["prompt"] is not None and len(body["seats"]) == 4
    assert len(_statements(ctx)) <= GET_BUDGET, _statements(ctx)


def test_a_304_costs_the_token_and_one_small_query(four):
    game, users, api = four
    spectator = UserFactory()
    for user in (users[2], spectator):
        client = api.as_user(user)
        etag = client.get(f"/api/games/{game.pk}/")["ETag"]
        for params in ({}, {"wait": "0"}):
            with CaptureQueriesContext(connection) as ctx:
                r = client.get(f"/api/games/{game.pk}/", params, HTTP_IF_NONE_MATCH=etag)
            assert r.status_code == 304
            sql = _statements(ctx)
            assert len(sql) <= NOT_MODIFIED_BUDGET, sql
            assert not any('FROM "games_prompt"' in s for s in sql)  # no seats and prompts read


def test_a_pick_within_a_compound_decision_stays_within_budget_and_writes_only_what_changed(four):
    game, users, api = four
    prompt = api.as_user(users[0]).get(f"/api/games/{game.pk}/").json()["prompt"]
    with CaptureQueriesContext(connection) as ctx:
        r = api.as_user(users[0]).post(f"/api/games/{game.pk}/moves/",
                                       {"prompt": prompt["id"], "option": prompt["options"][0]["id"]}, format="json")
    assert r.status_code == 201
    sql = _statements(ctx)
    assert len(sql) <= PICK_BUDGET, sql
    # Nothing changed on the seat: it is not written. Vacations are read with the seats, not per prompt.
    assert not any('UPDATE "games_seat"' in s for s in sql)
    vacation_reads = [s for s in sql if 'FROM "accounts_vacation"' in s]
    assert len(vacation_reads) == 1 and 'FROM "games_seat"' in vacation_reads[0]
    # The game row is written with the fields a turn changes, not the creator or the options.
    game_update = next(s for s in sql if s.startswith('UPDATE "games_game"'))
    assert '"created_by_id"' not in game_update and '"options"' not in game_update


def _first_pick(client, game) -> dict:
    """The caller's first pick of its compound decision; the prompt of its last one (the bet)."""
    prompt = client.get(f"/api/games/{game.pk}/").json()["prompt"]
    r = client.post(f"/api/games/{game.pk}/moves/", {"prompt": prompt["id"], "option": prompt["options"][0]["id"]},
                    format="json")
    return r.json()["prompt"]


def test_the_last_pick_of_a_seat_opens_nothing_and_costs_less(four):
    game, users, api = four
    client = api.as_user(users[1])
    bet = _first_pick(client, game)
    with CaptureQueriesContext(connection) as ctx:
        r = client.post(f"/api/games/{game.pk}/moves/", {"prompt": bet["id"], "option": bet["options"][0]["id"]},
                        format="json")
    assert r.status_code == 201 and r.json()["prompt"] is None
    sql = _statements(ctx)
    assert len(sql) <= PICK_BUDGET - 1, sql  # no new prompt
    assert not any(s.startswith('INSERT INTO "games_prompt"') for s in sql)


def test_a_resolution_opens_every_seats_prompt_in_one_insert(db, settings):
    settings.RESOLVE_IN_PICK = False  # the worker's task: the picks leave their step to it
    game, _ = make_started_game(players=4, options={"rounds": 2})
    play_step(game, commit=False)  # the draft
    phase_resolve(game_id=game.pk, phase=game.phase)
    play_step(game, commit=False)  # the sequential step; resolving it opens the next draft for all four
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        assert phase_resolve(game_id=game.pk, phase=game.phase)
    sql = _statements(ctx)
    assert len([s for s in sql if s.startswith('INSERT INTO "games_prompt"')]) == 1, sql
    assert Prompt.objects.filter(game=game, closed_at__isnull=True).count() == 4
    # lock, seats (with vacations), events, prompts, game, whether a seat reads results by email
    # (games/mail/owed.py) and the result emails' mail job (recorded in the resolution's transaction so a lost
    # task cannot lose them): no per-seat statement
    assert len(sql) <= 7, sql
    assert len([s for s in sql if s.startswith('INSERT INTO "mail_mailjob"')]) == 1, sql


@pytest.mark.postgres
def test_on_postgresql_a_picks_prompt_close_and_game_row_go_in_one_statement(four):
    """The writes of a pick that return nothing (its prompt's close, its take-back point) are held and
    sent with the game row's UPDATE as one statement (sql_rows.execute_together), and they all take effect."""
    game, users, api = four
    client = api.as_user(users[1])
    bet = _first_pick(client, game)
    game.refresh_from_db()
    version_before = game.version
    with CaptureQueriesContext(connection) as ctx:
        r = client.post(f"/api/games/{game.pk}/moves/", {"prompt": bet["id"], "option": bet["options"][0]["id"]},
                        format="json")
    assert r.status_code == 201
    sql = _statements(ctx)
    together = [s for s in sql if s.startswith("WITH ")]
    assert len(together) == 1 and 'UPDATE "games_prompt"' in together[0] and 'UPDATE "games_game"' in together[0], sql
    assert not any(s.startswith(('UPDATE "games_prompt"', 'UPDATE "games_game"')) for s in sql), sql
    closed = Prompt.objects.get(game=game, seat__position=1, prompt_id=bet["id"])
    assert closed.closed_at is not None and closed.answered
    game.refresh_from_db()
    assert game.version == version_before + 1  # the game row's part ran too


def test_a_pick_that_completes_its_step_resolves_it_for_a_few_statements_more(four):
    """The step's last pick resolves it in its own write (settings.RESOLVE_IN_PICK). Beyond a pick's own
    statements it costs the resolution's events, the next step's prompts (one INSERT for every seat), the mail's
    question (games/mail/owed.py) and the result emails' job (these players read them): no second lock, load or
    game UPDATE, as the worker's task needs."""
    game, users, api = four
    for user in users[:3]:
        client = api.as_user(user)
        bet = _first_pick(client, game)
        client.post(f"/api/games/{game.pk}/moves/", {"prompt": bet["id"], "option": "low"}, format="json")
    client = api.as_user(users[3])
    bet = _first_pick(client, game)
    with CaptureQueriesContext(connection) as ctx:
        r = client.post(f"/api/games/{game.pk}/moves/", {"prompt": bet["id"], "option": "low"}, format="json")
    assert r.status_code == 201
    game.refresh_from_db()
    assert game.phase == 1 and game.resolve_requested_at is None
    assert r.json()["prompt"] is None  # the sequential step asks seat 0 first
    sql = _statements(ctx)
    assert len([s for s in sql if s.startswith("SELECT") and 'FROM "games_game"' in s]) == 1, sql  # one lock, one load
    assert len([s for s in sql if s.startswith('UPDATE "games_game"')]) == 1, sql
    assert len([s for s in sql if s.startswith('INSERT INTO "games_prompt"')]) == 1, sql
    assert len(sql) <= PICK_BUDGET + 3, sql
