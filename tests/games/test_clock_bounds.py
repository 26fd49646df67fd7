"""Clock values are bounded, and one game's broken clock never holds back another game's deadline.

Unbounded, ``extension_seconds: 1e15`` would make the sweep raise OverflowError every round (every other
due game waiting behind it) and ``step_seconds: 1e308`` would make the last join a 500.
"""

import io
import logging
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import TestCase
from django.utils import timezone

from games.errors import GameError
from games.models import Game, Prompt
from games.services import due_phases_sweep, game_create, phase_resolve
from games.tasks import sweep_due_phases
from tests.factories import UserFactory, make_started_game

DAY = 24 * 3600
HOSTILE_CLOCKS = [
    ({"extension_seconds": 1e15}, "extension_seconds"),
    ({"step_seconds": 1e308}, "step_seconds"),
    ({"step_seconds": 90 * DAY + 1}, "step_seconds"),
    ({"step_seconds": 59}, "step_seconds"),
    ({"initial_seconds": -5, "type": "bank"}, "initial_seconds"),
    ({"increment_seconds": "3600", "type": "bank"}, "increment_seconds"),
    ({"vacation_grace_seconds": True}, "vacation_grace_seconds"),
    ({"extensions": 1.5}, "extensions"),
    ({"bot_after_misses": 10 ** 30}, "bot_after_misses"),
    ({"step_seconds": "\u0000"}, "step_seconds"),
    ({"hourglass_seconds": 60}, "hourglass_seconds"),
    ({"type": "fixed\u0000"}, "type"),
]


@pytest.mark.parametrize("clock,field", HOSTILE_CLOCKS)
def test_the_api_refuses_a_clock_out_of_bounds_with_a_400_naming_the_field(db, api, clock, field):
    """A clear 400 {error, detail} naming the field; nothing is created."""
    before = Game.objects.count()
    r = api.as_user(UserFactory()).post("/api/games/", {"game": "tinygame", "seats": 2, "clock": clock},
                                        format="json")
    assert r.status_code == 400, r.content
    # A NUL is refused by the API's parser (games/api/parsers.py) before the clock is read: parse_error.
    assert r.json()["error"] in ("invalid", "parse_error") and field in r.json()["detail"]
    assert Game.objects.count() == before


def test_the_bounds_themselves_are_accepted(db, api):
    """The documented bounds are inclusive (docs/server.md)."""
    from games.services.clock import CLOCK_BOUNDS

    low = {k: lo for k, (lo, _) in CLOCK_BOUNDS.items()}
    high = {k: hi for k, (_, hi) in CLOCK_BOUNDS.items()}
    for clock in (low, high, {"type": "bank", "initial_seconds": 3600.5, "extension_seconds": None}):
        r = api.as_user(UserFactory()).post("/api/games/", {"game": "tinygame", "seats": 2, "clock": clock},
                                            format="json")
        assert r.status_code == 201, r.json()


@pytest.mark.parametrize("clock,field", HOSTILE_CLOCKS[:4])
def test_the_service_behind_the_web_form_refuses_them_too(db, clock, field):
    """game_create (the web's new-game form, the API, tournaments) validates every clock."""
    with pytest.raises(GameError) as refused:
        game_create(created_by=UserFactory(), engine="tinygame", players=2, clock=clock)
    assert refused.value.code.value == "invalid_settings" and field in refused.value.detail


def test_a_tournament_refuses_an_unbounded_clock(db, api):
    """The tournament creation path creates clocks for every table's game."""
    staff = UserFactory()
    staff.is_staff = True
    staff.save()
    r = api.as_user(staff).post("/api/tournaments/", {
        "name": "Cup", "game": "tinygame", "format": "swiss", "table_size": 2, "rounds": 1,
        "clock": {"extension_seconds": 1e15}}, format="json")
    assert r.status_code == 400 and "extension_seconds" in r.json()["detail"]


def _broken_and_normal_due_games():
    """Two started games, both past their deadline; the first (swept first) has a clock corrupted in the
    database behind validation's back, as an older server could have stored it."""
    broken, _ = make_started_game(players=2, clock={"type": "fixed", "step_seconds": 3600, "extensions": 1})
    Game.objects.filter(pk=broken.pk).update(clock={"type": "fixed", "step_seconds": 3600, "extensions": 1,
                                                    "extension_seconds": 1e15})
    normal, _ = make_started_game(players=2, clock={"type": "fixed", "step_seconds": 3600, "extensions": 0,
                                                    "bot_after_misses": 2})
    Prompt.objects.filter(game__in=[broken, normal], closed_at__isnull=True).update(
        deadline=timezone.now() - timedelta(seconds=1))
    return broken, normal


def test_the_sweep_skips_a_broken_game_and_resolves_the_others(db, caplog):
    """A broken game's OverflowError is logged and does not stop the sweep before the normal game."""
    broken, normal = _broken_and_normal_due_games()
    with caplog.at_level(logging.ERROR, logger="games.services.sweep"):
        assert due_phases_sweep(resolve=lambda g, p: phase_resolve(game_id=g, phase=p)) == 2
    normal.refresh_from_db()
    broken.refresh_from_db()
    assert normal.phase == 1  # resolved on time
    assert broken.phase == 0  # left as it was, and logged
    assert any(f"game {broken.pk}" in r.getMessage() for r in caplog.records)


def test_the_production_sweep_task_isolates_a_broken_game(db):
    """The beat's task (here with in-process tasks) enqueues every due game."""
    broken, normal = _broken_and_normal_due_games()
    with TestCase.captureOnCommitCallbacks(execute=True):
        sweep_due_phases.apply(throw=True)
    normal.refresh_from_db()
    assert normal.phase == 1


def test_the_embedded_beat_isolates_a_broken_game(db):
    """`manage.py beat_embedded` (run.sh's stand-in for beat) resolves the normal game."""
    broken, normal = _broken_and_normal_due_games()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("beat_embedded", "--once", stdout=io.StringIO(), stderr=io.StringIO())
    normal.refresh_from_db()
    assert normal.phase == 1
