"""The game page's live updates: ``/games/{id}/live/?v=<version>`` answers 204 while nothing the page shows
has changed, for the session and one small query, and the fragment (200, a new version) as soon as anything
did: another player's pick, a resolution, a pause or resume, a join, any write path to the game
(tests/games/test_conditional.py lists them), the viewer's time zone. The version differs per viewer
and holds ids, a counter and the viewer's own zone name only.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.preferences import preferences_update
from games.models import Game, GameStatus
from games.services import game_create, game_join, game_pause, game_resume, phase_resolve
from games.api.version_tag import version_tag
from games.invites import invite_token
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt, pick, play_step
from tests.games.test_conditional import WRITES, Table

from .conftest import client_for, play_until

# django_session; accounts_user (the login, and the time zone middleware); the game's version, whether it
# is public and the viewer's seat (games.web.selectors.page_version_for_user).
POLL_BUDGET = 3
VERSION = re.compile(r"[0-9a-f]{24}")  # opaque: games/api/version_tag.py


def live(c, game: Game, version: str | None = None):
    return c.get(f"/games/{game.pk}/live/", {} if version is None else {"v": version})


def page_version(c, game: Game) -> str:
    """The version the full page hands its script (data-version)."""
    html = c.get(f"/games/{game.pk}/").content.decode()
    return re.search(r'data-version="([^"]*)"', html).group(1)


def _statements(ctx: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"].upper()]


# --- what a poll costs ---------------------------------------------------------------------------------------

def test_an_unchanged_page_costs_the_session_and_one_small_query(db):
    game, users = make_started_game(players=4, engine="faltisia", seed=11)
    for user in (users[2], UserFactory()):  # a player with an open prompt, and a spectator
        c = client_for(user)
        version = page_version(c, game)
        live(c, game, version)  # the first poll also stores the sign that the player is on the page
        with CaptureQueriesContext(connection) as ctx:
            r = live(c, game, version)  # the next ones within accounts.presence.WRITE_EVERY do not
        assert r.status_code == 204 and r.content == b""
        sql = _statements(ctx)
        assert len(sql) <= POLL_BUDGET, sql
        games = [s for s in sql if '"games_' in s]
        assert len(games) == 1, sql
        # not the snapshot, not the prompts, not the events: the version covers them
        assert '"state"' not in games[0] and '"games_prompt"' not in games[0] and '"games_event"' not in games[0]


# --- the version: per viewer, ids and a counter only -----------------------------------------------------------

def test_the_page_its_fragment_and_its_poll_agree_per_viewer(faltisia2, stranger, login):
    game, (alice, bob) = faltisia2
    versions = {}
    for name, user in (("alice", alice), ("bob", bob), ("spectator", stranger)):
        c = login(user)
        versions[name] = page_version(c, game)
        assert live(c, game).json()["version"] == versions[name]
        assert live(c, game, versions[name]).status_code == 204
    assert len(set(versions.values())) == 3
    # one viewer's version is never another's: bob's page sends alice's and gets his own fragment
    r = live(login(bob), game, versions["alice"])
    assert r.status_code == 200 and r.json()["version"] == versions["bob"]


def test_the_version_is_an_opaque_tag_of_ids_the_counter_and_the_viewers_zone(faltisia2, stranger, login):
    game, (alice, bob) = faltisia2
    game.refresh_from_db()
    for user, seat in ((alice, 0), (bob, 1), (stranger, None)):
        version = page_version(login(user), game)
        assert VERSION.fullmatch(version), version
        assert version == version_tag("page", game.pk, game.version, seat, user.pk, "UTC")
        assert f"v{game.version}" not in version  # how many writes (sub-picks included) cannot be read off it
    # nothing of the state or of anyone's prompt (its id, options, text) is in it
    prompts = [open_prompt(game, 0), open_prompt(game, 1)]
    version = page_version(login(alice), game)
    for prompt in prompts:
        assert prompt.prompt_id not in version
        assert not any(o["id"] in version for o in prompt.options)


def test_a_private_game_stays_a_404_to_outsiders_whatever_version_they_send(db, login):
    alice, bob, eve = UserFactory(), UserFactory(), UserFactory()
    game = game_create(created_by=alice, engine="tinygame", players=2, is_public=False)
    login(bob).post(f"/invite/{invite_token(game=game)}/")
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    theirs = page_version(login(alice), game)
    forged = theirs.replace(f"-s0-u{alice.pk}-", f"-s--u{eve.pk}-")  # what eve's version would look like
    for version in (None, "", theirs, forged):
        assert live(login(eve), game, version).status_code == 404
    assert live(login(eve), Game(pk=999_999), forged).status_code == 404


# --- it moves when the page changes -----------------------------------------------------------------------------

def test_the_version_moves_after_a_pick_by_another_player(faltisia2, login):
    game, (alice, bob) = faltisia2
    c = login(alice)
    before = page_version(c, game)
    theirs = open_prompt(game, 1)
    r = login(bob).post(f"/games/{game.pk}/move/", {"prompt": theirs.prompt_id, "option": theirs.options[0]["id"]})
    assert r.status_code == 302
    r = live(c, game, before)
    assert r.status_code == 200 and r.json()["version"] != before
    after = r.json()["version"]
    assert live(c, game, after).status_code == 204
    # bob decides the rest of his step: alice's page learns that he is no longer deciding
    play_until(game, lambda g: open_prompt(g, 1) is None or open_prompt(g, 1).phase != theirs.phase)
    r = live(c, game, after)
    assert r.status_code == 200 and r.json()["version"] != after


def test_the_version_moves_after_a_resolution(game2, login, settings):
    settings.RESOLVE_IN_PICK = False  # the worker's resolve task, as for a step no pick completes
    game, (alice, bob) = game2
    play_step(game, commit=False)  # every pick in; the resolve task has not run yet
    game.refresh_from_db()
    phase, events = game.phase, game.events.count()
    c = login(alice)
    before = page_version(c, game)
    assert live(c, game, before).status_code == 204
    assert phase_resolve(game_id=game.pk, phase=phase)
    r = live(c, game, before)
    data = r.json()
    assert r.status_code == 200 and data["version"] != before and data["phase"] != phase
    assert game.events.count() > events and f'data-step="{phase}"' in data["html"]
    assert live(c, game, data["version"]).status_code == 204


def test_the_version_moves_after_a_pause_and_after_the_resume(game2, stranger, login):
    game, (alice, bob) = game2
    for viewer in (bob, stranger):
        c = login(viewer)
        running = page_version(c, game)
        game_pause(game=game, by=alice)
        r = live(c, game, running)
        assert r.status_code == 200 and r.json()["status"] == "paused" and "The game is paused." in r.json()["html"]
        paused = r.json()["version"]
        assert live(c, game, paused).status_code == 204
        game_resume(game=game, by=alice)
        r = live(c, game, paused)
        assert r.status_code == 200 and r.json()["status"] == "active"
        assert r.json()["version"] not in (running, paused)


def test_the_version_moves_when_a_player_joins_the_waiting_room(db, login):
    owner = UserFactory()
    game = game_create(created_by=owner, engine="tinygame", players=3)
    c = login(owner)
    waiting = page_version(c, game)
    game_join(game=game, user=UserFactory())
    r = live(c, game, waiting)
    assert r.status_code == 200 and "1 seat still free" in r.json()["html"]
    game_join(game=game, user=UserFactory())  # the last seat: the game starts
    r2 = live(c, game, r.json()["version"])
    assert r2.status_code == 200 and r2.json()["status"] == "active" and "decision-form" in r2.json()["html"]


def test_the_version_moves_with_the_viewers_time_zone(game2, login):
    """Deadlines are printed in the viewer's zone: a change in the preferences redraws an open game page."""
    game, (alice, bob) = game2
    c = login(alice)
    before = page_version(c, game)
    preferences_update(user=alice, timezone="Asia/Tokyo", email_prompts=True, email_results=True, digest=False,
                       reminder_lead_hours=[])
    r = live(c, game, before)
    assert r.status_code == 200 and r.json()["version"] != before
    assert "JST" in r.json()["html"]
    assert live(c, game, r.json()["version"]).status_code == 204


def _staff():
    u = UserFactory()
    u.is_staff = True
    u.save()
    return u


@pytest.mark.parametrize("clock,prepare,write", [w[1:] for w in WRITES], ids=[w[0] for w in WRITES])
def test_every_write_through_the_services_moves_the_page_version(db, clock, prepare, write):
    """The writes that move the API's ETag (one per write path, tests/games/test_conditional.py) move the
    page's version too, for a player and a spectator: the page shows no less than that GET plus the events,
    and every write that adds an event is one of them."""
    game, users = make_started_game(players=3, options={"rounds": 2}, clock=clock)
    table = Table(game=game, users=users, boss=_staff())
    prepare(table)
    viewers = [client_for(users[0]), client_for(UserFactory())]
    before = [page_version(c, game) for c in viewers]
    write(table)
    for c, version in zip(viewers, before):
        r = live(c, game, version)
        assert r.status_code == 200 and r.json()["version"] != version
        assert live(c, game, r.json()["version"]).status_code == 204


# --- and stays put when nothing changed -------------------------------------------------------------------------

def test_the_version_stays_when_nothing_changed(faltisia2, stranger, login):
    game, (alice, bob) = faltisia2
    other, _ = make_started_game(players=2, engine="faltisia", seed=12)
    c = login(alice)
    version = page_version(c, game)
    for _ in range(3):
        assert live(c, game, version).status_code == 204
    pick(other, 0)  # another game's write
    assert live(c, game, version).status_code == 204
    # a refused pick (not an option) and a spectator's attempt change nothing
    prompt = open_prompt(game, 0)
    c.post(f"/games/{game.pk}/move/", {"prompt": prompt.prompt_id, "option": "nope"})
    login(stranger).post(f"/games/{game.pk}/move/", {"prompt": prompt.prompt_id, "option": prompt.options[0]["id"]})
    assert live(c, game, version).status_code == 204
    assert page_version(c, game) == version  # a reload agrees
