"""Lobby: create a game, invite by signed link or email, join, open games, my games (waiting-for-me first)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from games.models import Game, GameStatus, Seat
from games.services import game_create
from games.invites import invite_token
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt, pick


def test_anonymous_visitors_get_the_welcome_page_and_a_login_redirect_elsewhere(db, client):
    r = client.get("/")
    assert r.status_code == 200 and b"Sign up" in r.content
    for path in ["/games/new/", "/games/1/", "/games/1/live/", "/games/1/replay/", "/games/1/invite/",
                 f"/invite/{'x' * 20}/"]:
        r = client.get(path)
        assert r.status_code == 302 and r.url.startswith("/accounts/login/"), path
    r = client.post("/games/1/move/", {"prompt": "p", "option": "o"})
    assert r.status_code == 302 and r.url.startswith("/accounts/login/")


def test_create_a_faltisia_game_with_a_clock_preset_and_options(db, login):
    user = UserFactory()
    c = login(user)
    assert c.get("/games/new/").status_code == 200
    r = c.post("/games/new/", {"game": "faltisia", "seats": 3, "bots": 0, "clock": "fixed-24h",
                               "choose_characters": "on", "is_public": "on"})
    game = Game.objects.get()
    assert r.status_code == 302 and r.url == f"/games/{game.pk}/"
    assert game.options == {"choose_characters": True} and game.clock == {"type": "fixed", "step_seconds": 86400}
    assert game.is_public and game.players == 3 and Seat.objects.get(game=game, position=0).user == user
    page = c.get(r.url).content.decode()
    assert "Waiting for players" in page and "/invite/" in page


@pytest.mark.parametrize("data, error", [
    ({"game": "faltisia", "seats": 9, "clock": "fixed-24h"}, "takes 2-6 players"),
    ({"game": "faltisia", "seats": 2, "bots": 2, "clock": "fixed-24h"}, "Leave at least your own seat"),
    ({"game": "faltisia", "seats": 2, "clock": "fixed-24h", "extra_options": "{nope"}, "Write the options as a JSON object"),
    # The solo option is for one seat only.
    ({"game": "faltisia", "seats": 2, "clock": "fixed-24h", "extra_options": '{"solo": true}'}, "exactly one player"),
    ({"game": "faltisia", "seats": 1, "clock": "fixed-24h", "rated": "on"}, "at least two seats for people"),
    ({"game": "chess", "seats": 2, "clock": "fixed-24h"}, "Select a valid choice"),
])
def test_bad_game_settings_show_an_error_and_create_nothing(db, login, data, error):
    r = login(UserFactory()).post("/games/new/", data)
    assert r.status_code == 200 and error in r.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("difficulty, level", [("beginner", 3), ("nightmare", 7)])
def test_a_one_seat_faltisia_game_is_solo_mode_at_the_chosen_difficulty_and_starts_at_once(db, login, difficulty,
                                                                                          level):
    """The lobby form offers the solo difficulty; a 1-seat Faltisia game starts at once with
    its creator, unrated, the Classmate's attributes at the level."""
    c = login(UserFactory())
    assert "Solo difficulty" in c.get("/games/new/").content.decode()
    r = c.post("/games/new/", {"game": "faltisia", "seats": 1, "clock": "none", "is_public": "on",
                               "solo_difficulty": difficulty})
    game = Game.objects.get()
    assert r.status_code == 302 and game.status == GameStatus.ACTIVE and not game.rated
    assert game.options == {"solo": {"difficulty": difficulty}} and game.players == 1
    assert game.state["classmate"]["attr"] == [level] * 4


def test_a_game_with_bots_for_every_other_seat_starts_at_once(db, login):
    c = login(UserFactory())
    r = c.post("/games/new/", {"game": "tinygame", "seats": 2, "bots": 1, "clock": "none", "is_public": "on",
                               "extra_options": '{"rounds": 1}'})
    game = Game.objects.get()
    assert r.status_code == 302 and game.status == GameStatus.ACTIVE


def test_join_a_public_game_from_the_open_games_list(db, login):
    host, guest = UserFactory(), UserFactory()
    game = game_create(created_by=host, engine="faltisia", players=2)
    page = login(guest).get("/").content.decode()
    assert f"/games/{game.pk}/join/" in page
    r = login(guest).post(f"/games/{game.pk}/join/")
    assert r.status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and Seat.objects.get(game=game, position=1).user == guest
    # Joining a full game is refused with a message and changes nothing.
    late = UserFactory()
    r = login(late).post(f"/games/{game.pk}/join/", follow=True)
    assert b"could not join" in r.content and not Seat.objects.filter(game=game, user=late).exists()


def test_private_games_are_hidden_and_joined_only_through_the_invite_link(db, login):
    host, guest = UserFactory(), UserFactory()
    game = game_create(created_by=host, engine="faltisia", players=2, is_public=False)
    c = login(guest)
    assert f"/games/{game.pk}/".encode() not in c.get("/").content
    assert c.get(f"/games/{game.pk}/").status_code == 404
    assert c.post(f"/games/{game.pk}/join/").status_code == 404
    assert not Seat.objects.filter(game=game, user=guest).exists()
    token = invite_token(game=game)
    assert b"Join the game" in c.get(f"/invite/{token}/").content
    assert c.post(f"/invite/{token}/").status_code == 302
    assert Seat.objects.get(game=game, position=1).user == guest
    assert c.get(f"/games/{game.pk}/").status_code == 200


def test_a_forged_invite_link_is_refused(db, login):
    game = game_create(created_by=UserFactory(), engine="faltisia", players=2, is_public=False)
    c = login(UserFactory())
    token = invite_token(game=game)
    forged = token.replace(token.split(":")[0], "eyJnIjo5OTl9")  # another game id under the old signature
    for bad in (forged, "garbage", token[:-3] + "abc"):
        r = c.post(f"/invite/{bad}/")
        assert r.status_code == 400
    assert Seat.objects.filter(game=game, user__isnull=False).count() == 1


def test_invite_by_email_sends_the_signed_link(db, login):
    host = UserFactory()
    game = game_create(created_by=host, engine="faltisia", players=3, is_public=False)
    c = login(host)
    assert c.get(f"/games/{game.pk}/invite/").status_code == 200
    r = c.post(f"/games/{game.pk}/invite/", {"email": "friend@example.org", "note": "Join us!"})
    assert r.status_code == 302 and len(mail.outbox) == 1
    body = mail.outbox[0].body
    assert mail.outbox[0].to == ["friend@example.org"] and "Join us!" in body
    path = re.search(r"https?://[^/]+(/invite/\S+/)", body).group(1)
    friend = UserFactory()
    assert login(friend).post(path).status_code == 302
    assert Seat.objects.filter(game=game, user=friend).exists()
    # Only players may send invitations.
    assert login(UserFactory()).post(f"/games/{game.pk}/invite/", {"email": "x@example.org"}).status_code == 404
    assert len(mail.outbox) == 1


def test_my_games_list_puts_what_waits_for_me_first(db, login):
    me = UserFactory()
    waiting_game, users = make_started_game(players=2, options={"rounds": 1})  # seat 0 decides first
    done_game, _ = make_started_game(players=2, options={"rounds": 1})
    Seat.objects.filter(game=waiting_game, position=0).update(user=me)
    Seat.objects.filter(game=done_game, position=1).update(user=me)
    while open_prompt(done_game, 1) is not None:  # my part of this step is done: others decide
        pick(done_game, 1)
    open_game = game_create(created_by=me, engine="tinygame", players=3)
    page = login(me).get("/").content.decode()
    waiting_at = page.index(f"/games/{waiting_game.pk}/")
    assert "Your decision" in page and page.count('class="game-row waiting"') == 1
    assert waiting_at < page.index(f"/games/{done_game.pk}/") and waiting_at < page.index(f"/games/{open_game.pk}/")
    assert page.index('id="waiting-games"') < waiting_at < page.index('id="my-games"')


@pytest.mark.django_db
def test_the_lobby_names_the_game_not_its_slug(login):
    """The lobby names a game as people do ("Mage Knight"), not by its engine slug ("Mage_Knight")."""
    game, users = make_started_game(players=2, engine="mage_knight", seed=3)
    html = login(users[0]).get("/").content.decode()
    assert "Mage Knight" in html and "Mage_Knight" not in html
