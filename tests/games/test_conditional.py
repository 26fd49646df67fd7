"""Conditional and blocking GET /api/games/{id}/: the ETag, If-None-Match -> 304, and ?wait=N.

The contract: the ETag changes whenever anything the caller's GET shows can change (every write through
games/services, including those that touch only seats or prompts); it differs per caller and reveals
nothing; a private game stays a 404 to outsiders whatever they send; ``wait`` holds the request until
the game changes (200) or N seconds pass (304).
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.api.conditional import check_interval, game_etag, game_version_wait, wait_seconds
from games.models import Game, Prompt, SubmissionSource
from games.services import (game_abandon, game_create, game_join, game_pause, game_resume, phase_resolve,
                            seat_reclaim, seat_standing_orders_set, submission_create)
from games.services import admin_actions
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt, pick, play_step, seat


def url(game: Game) -> str:
    return f"/api/games/{game.pk}/"


def get(api, user: User, game: Game, etag: str | None = None, **params):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return api.as_user(user).get(url(game), params, **headers)


def expire(game: Game, position: int) -> None:
    """Make a seat's open deadline pass (a test shortcut, not a service: it bumps nothing itself)."""
    Prompt.objects.filter(game=game, seat__position=position, closed_at__isnull=True).update(
        deadline=timezone.now() - timedelta(seconds=1))


# --- the ETag and 304 ---------------------------------------------------------------------------------------

def test_the_same_etag_answers_304_without_a_body(game2, api):
    game, (a, _) = game2
    r = get(api, a, game)
    assert r.status_code == 200 and r.json()["seat"] == 0
    etag = r["ETag"]
    assert etag.startswith('W/"') and r["Cache-Control"] == "private, no-cache"
    again = get(api, a, game, etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and again["Cache-Control"] == "private, no-cache"
    # any tag of a list matches, weak or strong; "*" matches whatever the version
    assert get(api, a, game, f'"other", {etag.removeprefix("W/")}').status_code == 304
    assert get(api, a, game, "*").status_code == 304
    assert get(api, a, game, 'W/"nonsense"').status_code == 200


def test_the_etag_is_per_caller_and_opaque(game2, api):
    game, (a, b) = game2
    ra, rb = get(api, a, game), get(api, b, game)
    assert ra["ETag"] != rb["ETag"]
    version = Game.objects.get(pk=game.pk).version
    assert ra["ETag"] == game_etag(game_id=game.pk, version=version, user_id=a.pk)
    # a keyed hash: neither the version (how many writes, sub-picks included) nor the ids can be read off it
    assert re.fullmatch(r'W/"[0-9a-f]{24}"', ra["ETag"]) and f"v{version}" not in ra["ETag"]
    # one player's tag is not another's: b sending a's tag gets the full body
    r = get(api, b, game, ra["ETag"])
    assert r.status_code == 200 and r.json()["seat"] == 1 and r["ETag"] == rb["ETag"]


def test_a_spectator_of_a_public_game_gets_an_etag_and_304(game2, api):
    game, _ = game2
    watcher = UserFactory()
    r = get(api, watcher, game)
    assert r.status_code == 200 and r.json()["seat"] is None and "hand" not in r.json()["view"]
    assert get(api, watcher, game, r["ETag"]).status_code == 304
    pick(game, 0)
    later = get(api, watcher, game, r["ETag"])
    assert later.status_code == 200 and later["ETag"] != r["ETag"]


def test_a_private_game_stays_a_404_to_outsiders_whatever_they_send(db, api):
    owner, outsider, staff = UserFactory(), UserFactory(), UserFactory()
    staff.is_staff = True
    staff.save()
    game = game_create(created_by=owner, engine="tinygame", players=2, is_public=False)
    mine = get(api, owner, game)
    assert mine.status_code == 200
    version = Game.objects.get(pk=game.pk).version
    forged = game_etag(game_id=game.pk, version=version, user_id=outsider.pk)  # what the outsider's tag would be
    for etag in (None, mine["ETag"], forged, "*"):
        for params in ({}, {"wait": "1"}):
            t0 = time.monotonic()
            r = get(api, outsider, game, etag, **params)
            assert r.status_code == 404 and not r.has_header("ETag"), (etag, params)
            assert r.json()["error"] == "not_found"
            assert time.monotonic() - t0 < 0.5  # no wait either
    assert get(api, outsider, Game(pk=999_999), "*").status_code == 404  # as for a game that does not exist
    seen = get(api, staff, game)
    assert seen.status_code == 200 and get(api, staff, game, seen["ETag"]).status_code == 304


# --- every write moves the ETag -------------------------------------------------------------------------------

@dataclass
class Table:
    game: Game
    users: list[User]
    boss: User  # staff


def _staff() -> User:
    u = UserFactory()
    u.is_staff = True
    u.save()
    return u


NO_EXTENSIONS = {"type": "fixed", "step_seconds": 3600, "extensions": 0, "bot_after_misses": 2}
ONE_EXTENSION = {"type": "fixed", "step_seconds": 3600, "extensions": 1, "bot_after_misses": 2}


def _nothing(t: Table) -> None:
    pass


def _resolve(t: Table) -> None:
    """The resolve task's service (also what the sweep runs for a due deadline)."""
    t.game.refresh_from_db()
    phase_resolve(game_id=t.game.pk, phase=t.game.phase)


# (id, clock, prepare, write): ``write`` is the one service call under test, as its callers make it.
WRITES = [
    ("pick", {}, _nothing, lambda t: pick(t.game, 0)),
    ("pick by email source", {}, _nothing, lambda t: pick(t.game, 1, source=SubmissionSource.EMAIL)),
    ("resolution", {}, lambda t: play_step(t.game, commit=False), _resolve),
    ("deadline extended", ONE_EXTENSION, lambda t: expire(t.game, 1), _resolve),
    ("deadline defaulted", NO_EXTENSIONS, lambda t: (pick(t.game, 0), pick(t.game, 0), pick(t.game, 2),
                                                     pick(t.game, 2), expire(t.game, 1)), _resolve),
    ("pause", {}, _nothing, lambda t: game_pause(game=t.game, by=t.users[0])),
    ("resume", {}, lambda t: game_pause(game=t.game, by=t.users[0]),
     lambda t: game_resume(game=t.game, by=t.users[0])),
    ("abandon", {}, _nothing, lambda t: game_abandon(game=t.game, by=t.users[0])),
    ("standing orders, no pick", {}, _nothing,
     lambda t: seat_standing_orders_set(seat=seat(t.game, 0), order_ids=["take-one"])),
    ("standing orders that pick", {}, lambda t: pick(t.game, 0),
     lambda t: seat_standing_orders_set(seat=seat(t.game, 0), order_ids=["bet-low"])),
    ("seat reclaim", {}, lambda t: admin_actions.seat_hand_to_bot(game=t.game, by=t.users[1], position=1),
     lambda t: seat_reclaim(seat=seat(t.game, 1), by=t.users[1])),
    ("admin replace player", {}, _nothing,
     lambda t: admin_actions.seat_replace_player(game=t.game, by=t.boss, position=2, user=UserFactory())),
    ("admin seat to bot", {}, _nothing, lambda t: admin_actions.seat_hand_to_bot(game=t.game, by=t.boss, position=1)),
    ("player leaves to a bot", {}, _nothing,
     lambda t: admin_actions.seat_hand_to_bot(game=t.game, by=t.users[1], position=1)),
    ("admin seat back from bot", {}, lambda t: admin_actions.seat_hand_to_bot(game=t.game, by=t.boss, position=1),
     lambda t: admin_actions.seat_take_back_from_bot(game=t.game, by=t.boss, position=1)),
    ("admin force resolve", {}, _nothing, lambda t: admin_actions.phase_force_resolve(game=t.game, by=t.boss)),
    ("admin extend all deadlines", {}, _nothing,
     lambda t: admin_actions.deadline_extend(game=t.game, by=t.boss, hours=5)),
    ("admin extend one deadline", {}, _nothing,
     lambda t: admin_actions.deadline_extend(game=t.game, by=t.boss, hours=5, position=1)),
    ("admin pause", {}, _nothing, lambda t: admin_actions.game_admin_pause(game=t.game, by=t.boss)),
    ("admin resume", {}, lambda t: admin_actions.game_admin_pause(game=t.game, by=t.boss),
     lambda t: admin_actions.game_admin_resume(game=t.game, by=t.boss)),
    ("admin abandon", {}, _nothing, lambda t: admin_actions.game_abandon(game=t.game, by=t.boss, reason="test")),
]


@pytest.mark.parametrize("clock,prepare,write", [w[1:] for w in WRITES], ids=[w[0] for w in WRITES])
def test_every_write_through_the_services_moves_the_etag(db, api, clock, prepare, write):
    game, users = make_started_game(players=3, options={"rounds": 2}, clock=clock)
    table = Table(game=game, users=users, boss=_staff())
    prepare(table)
    before = get(api, users[0], game)
    assert get(api, users[0], game, before["ETag"]).status_code == 304
    write(table)
    after = get(api, users[0], game, before["ETag"])
    assert after.status_code == 200 and after.json()["id"] == game.pk
    assert after["ETag"] != before["ETag"]
    assert get(api, users[0], game, after["ETag"]).status_code == 304


def test_joining_and_the_start_move_the_etag(db, api):
    owner = UserFactory()
    game = game_create(created_by=owner, engine="tinygame", players=3)
    lobby = get(api, owner, game)
    assert lobby.json()["view"] == {"waiting_for_players": 2}
    game_join(game=game, user=UserFactory())  # a seat taken: the lobby's count changes
    one_more = get(api, owner, game, lobby["ETag"])
    assert one_more.status_code == 200 and one_more.json()["view"] == {"waiting_for_players": 1}
    game_join(game=game, user=UserFactory())  # the last seat: the game starts
    started = get(api, owner, game, one_more["ETag"])
    assert started.status_code == 200 and started.json()["status"] == "active" and started.json()["prompt"]
    assert len({lobby["ETag"], one_more["ETag"], started["ETag"]}) == 3


def test_a_refused_or_replayed_pick_leaves_the_etag_alone(game2, api):
    game, (a, _) = game2
    p = open_prompt(game, 0)
    first = submission_create(seat=seat(game, 0), prompt_id=p.prompt_id, option_id=p.options[0]["id"],
                              source=SubmissionSource.API)
    etag = get(api, a, game)["ETag"]
    again = submission_create(seat=seat(game, 0), prompt_id=p.prompt_id, option_id=p.options[0]["id"],
                              source=SubmissionSource.API)
    assert again.pk == first.pk and not again.is_new
    assert get(api, a, game, etag).status_code == 304


def test_an_admin_edit_of_the_game_form_moves_the_etag_and_keeps_the_snapshot(db, api):
    game, users = make_started_game(players=2)
    boss = _staff()
    boss.is_superuser = True
    boss.save()
    before = get(api, users[0], game)
    site = Client()
    site.force_login(boss)
    page = site.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    # The inlines are read-only, but the change form still posts their management forms.
    data = {"is_public": ""}
    for prefix in ("seats", "prompts", "submissions", "events"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    with CaptureQueriesContext(connection) as ctx:
        r = site.post(reverse("admin:games_game_change", args=[game.pk]), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Game.objects.get(pk=game.pk).is_public is False
    # Only the edited field (and the version) is written: a full save would write back a snapshot read
    # before a concurrent pick.
    [update] = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith('UPDATE "games_game"')]
    assert '"is_public"' in update and '"version"' in update and '"state"' not in update
    after = get(api, users[0], game, before["ETag"])
    assert after.status_code == 200 and after.json()["is_public"] is False and after["ETag"] != before["ETag"]


# --- ?wait=N ----------------------------------------------------------------------------------------------

def test_wait_answers_304_after_about_n_seconds_when_nothing_changes(game2, api):
    game, (a, _) = game2
    etag = get(api, a, game)["ETag"]
    with CaptureQueriesContext(connection) as ctx:
        t0 = time.monotonic()
        r = get(api, a, game, etag, wait="1")
        elapsed = time.monotonic() - t0
    assert r.status_code == 304 and r.content == b"" and r["ETag"] == etag
    assert 1.0 <= elapsed < 1.8
    checks = len(ctx.captured_queries) - 1  # the token, then one small query per check
    assert 10 <= checks <= 60, checks


@pytest.mark.django_db(transaction=True)
def test_wait_answers_the_new_view_as_soon_as_another_player_picks(api):
    game, (a, b) = make_started_game(players=2)
    etag = get(api, a, game)["ETag"]
    p = open_prompt(game, 1)
    s = seat(game, 1)
    errors = []

    def other_player():
        try:
            time.sleep(0.3)
            submission_create(seat=s, prompt_id=p.prompt_id, option_id=p.options[0]["id"],
                              source=SubmissionSource.API)
        except Exception as e:  # reported by the assertion below
            errors.append(e)
        finally:
            connection.close()

    thread = threading.Thread(target=other_player)
    t0 = time.monotonic()
    thread.start()
    r = get(api, a, game, etag, wait="10")
    elapsed = time.monotonic() - t0
    thread.join()
    assert not errors
    assert r.status_code == 200 and r["ETag"] != etag and r.json()["seat"] == 0
    assert 0.3 <= elapsed < 1.5, elapsed  # well under the 10 s asked for


@pytest.mark.parametrize("raw", ["abc", "-1", "1.5", "1e2", " 1", "0x10", "３"])
def test_a_garbage_wait_is_a_400_with_the_error_shape(game2, api, raw):
    game, (a, _) = game2
    etag = get(api, a, game)["ETag"]
    r = get(api, a, game, etag, wait=raw)
    assert r.status_code == 400
    assert r.json()["error"] == "invalid" and "wait" in r.json()["detail"]


def test_wait_without_if_none_match_is_a_plain_get(game2, api):
    game, (a, _) = game2
    for raw in ("5", "abc"):
        t0 = time.monotonic()
        r = get(api, a, game, wait=raw)
        assert r.status_code == 200 and r.json()["seat"] == 0 and time.monotonic() - t0 < 0.5


def test_a_long_wait_is_clamped_and_a_stale_etag_answers_at_once(game2, api):
    game, (a, _) = game2
    stale = get(api, a, game)["ETag"]
    pick(game, 0)
    t0 = time.monotonic()
    r = get(api, a, game, stale, wait="3600")
    assert r.status_code == 200 and r["ETag"] != stale and time.monotonic() - t0 < 0.5
    assert [wait_seconds(x) for x in (None, "", "0", "7", "30", "31", "99999999999999999999")] == \
        [0, 0, 0, 7, 30, 30, 30]


def test_the_wait_checks_often_at_first_then_less_often(game2):
    game, (a, _) = game2
    now = [0.0]
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        now[0] += seconds
        if len(sleeps) == 30:
            pick(game, 0)  # another request's write, seen by the next check

    version = Game.objects.get(pk=game.pk).version
    etag = game_etag(game_id=game.pk, version=version, user_id=a.pk)
    got = game_version_wait(game_id=game.pk, user=a, if_none_match=etag, seconds=30, clock=lambda: now[0],
                            sleep=sleep)
    assert got == version + 1 and len(sleeps) == 30
    assert sleeps[0] == pytest.approx(0.02) and max(sleeps) <= 0.05 + 1e-9  # ~20-50 ms within the first second
    assert check_interval(0.0) == 0.02 and check_interval(1.0) == pytest.approx(0.05)
    assert check_interval(20.0) == 0.25  # a long wait on a human checks four times a second
    # nothing changes: it gives up after ``seconds`` with the same version
    sleeps.clear()
    assert game_version_wait(game_id=game.pk, user=a, if_none_match=game_etag(game_id=game.pk, version=got, user_id=a.pk), seconds=2,
                             clock=lambda: now[0], sleep=lambda s: (sleeps.append(s), now.__setitem__(0, now[0] + s)))\
        == got
    assert sum(sleeps) == pytest.approx(2.0)


def test_the_schema_documents_if_none_match_wait_and_304(db, api, user):
    schema = api.as_user(user).get("/api/schema/", {"format": "json"}).json()
    op = schema["paths"]["/api/games/{game_id}/"]["get"]
    params = {(p["in"], p["name"]) for p in op["parameters"]}
    assert {("header", "If-None-Match"), ("query", "wait")} <= params
    assert {"200", "304", "400", "404"} <= set(op["responses"])
    assert "ETag" in op["responses"]["304"].get("headers", {}) and "ETag" in op["responses"]["200"]["headers"]
