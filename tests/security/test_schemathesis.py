"""schemathesis against /api/schema/, in process, with a token: the schema is exact and documents every
status code, and no input is a 500.

Every operation of the schema gets ``EXAMPLES_PER_OPERATION`` generated requests (deterministic: the same
requests on every run), sent through the Django WSGI application inside the test's database transaction,
as a signed-in player seated in a started game: the per-game routes are called with that game's id, the
per-tournament routes with a real tournament's. Each response must pass the checks below: no 5xx, a
documented status code, the documented content type, headers and body. Runtime: well under a minute on
SQLite, about as much on PostgreSQL.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.db import close_old_connections
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_headers_conformance,
                                               response_schema_conformance, status_code_conformance)

from games.tournaments.services import tournament_create
from tests.factories import UserFactory, make_started_game

EXAMPLES_PER_OPERATION = 25
SENT: dict[str, int] = {}  # operation -> examples sent, for the figure printed at the end
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
schema.config.generation.update(modes=["positive"], max_examples=EXAMPLES_PER_OPERATION, deterministic=True,
                                no_shrink=True)


@pytest.fixture
def in_test_transaction():
    """Keep the WSGI application's requests inside the test's transaction, as Django's test client does:
    the real handler closes the database connection after each request (close_old_connections), which on
    PostgreSQL would end the test's transaction."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def seated(db, in_test_transaction):
    """A player with a token, seated in a started game, and a tournament to look at."""
    game, users = make_started_game(players=2, options={"rounds": 2})
    staff = UserFactory(username="schema-staff")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    tournament = tournament_create(created_by=staff, name="Schema cup", engine="tinygame", format="round_robin",
                                   table_size=2, options={"rounds": 1})
    return {"user": users[0], "game_id": game.pk, "tournament_id": tournament.pk, "username": users[1].username}


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, deadline=None, database=None,
          phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure is reported as found, quickly
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case, seated):
    """0 server errors and 0 schema violations on every operation."""
    cache.clear()  # rate limits and lockouts must not turn the run into a wall of 429s
    for name in ("game_id", "tournament_id", "username"):
        if case.path_parameters and name in case.path_parameters:
            case.path_parameters[name] = seated[name]
    if case.query and "wait" in case.query and case.path.endswith("/messages/"):
        # A message wait is held out in full when nothing arrives (up to 30 s an example); its timing has its
        # own tests (tests/games/test_chat_views.py, tests/chat/test_waiting.py). Here only its answer's shape is checked.
        case.query["wait"] = 0
    token = seated["user"].auth_token.key
    SENT[case.operation.label] = SENT.get(case.operation.label, 0) + 1
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)


def test_count_of_examples_run():
    """The figure docs/security.md reports: requests schemathesis sent in this run (runs after the test above)."""
    if not SENT:
        pytest.skip("counts the examples of test_api_conforms_to_its_schema; run it in the same session")
    print(f"\nschemathesis: {sum(SENT.values())} examples over {len(SENT)} operations")
    every = {result.ok().label for result in schema.get_all_operations()}
    assert set(SENT) == every, f"operations never exercised: {sorted(every - set(SENT))}"
