"""Who may reach a game through the API: private games stay invisible to outsiders on every route.

A private game is joined only with its invite, and every /api/games/{id}/... route answers an outsider of a
private game 404 with the body of an unknown id.
"""

import pytest

from games.chat.services import message_post
from games.models import Game, Seat
from games.services import game_create, game_join
from games.invites import invite_token
from tests.factories import UserFactory

UNKNOWN_ID = 987654321


@pytest.fixture
def private_game(db):
    """A private 3-seat tinygame with two players seated, so it is still open."""
    a, b = UserFactory(), UserFactory()
    game = game_create(created_by=a, engine="tinygame", players=3, options={"rounds": 1}, is_public=False)
    game_join(game=game, user=b)
    return game, a, b


@pytest.fixture
def private_started_game(db):
    a, b = UserFactory(), UserFactory()
    game = game_create(created_by=a, engine="tinygame", players=2, options={"rounds": 1}, is_public=False)
    game_join(game=game, user=b)
    game.refresh_from_db()
    return game, a, b


def _unknown_game_answer(api, user, method: str, route: str):
    r = getattr(api.as_user(user), method)(f"/api/games/{UNKNOWN_ID}/{route}", {}, format="json")
    return r.status_code, r.json()


def test_an_outsider_cannot_join_a_private_game_by_id(private_game, api):
    """An outsider who knows a private game's id gets the unknown-game 404 and no seat."""
    game, _, _ = private_game
    outsider = UserFactory()
    r = api.as_user(outsider).post(f"/api/games/{game.pk}/join/", {}, format="json")
    assert (r.status_code, r.json()) == _unknown_game_answer(api, outsider, "post", "join/")
    assert r.status_code == 404
    assert not Seat.objects.filter(game=game, user=outsider).exists()


def test_a_private_game_is_joined_with_its_invite(private_game, api):
    """The token of the web's invite link (games.invites) lets its holder join."""
    game, _, _ = private_game
    guest = UserFactory()
    r = api.as_user(guest).post(f"/api/games/{game.pk}/join/", {"invite": invite_token(game=game)}, format="json")
    assert r.status_code == 200 and r.json()["seat"] == 2
    game.refresh_from_db()
    assert game.status == "active"  # the last seat was taken: it started


def test_a_player_passes_the_invite_on_through_the_api(private_game, api):
    """An API-only client learns its open game's invite (as the web page shows the link);
    nobody else is shown it, and it is gone once the game has started."""
    game, a, _ = private_game
    invite = api.as_user(a).get(f"/api/games/{game.pk}/").json()["invite"]
    assert invite
    guest = UserFactory()
    assert api.as_user(guest).post(f"/api/games/{game.pk}/join/", {"invite": invite}, format="json").status_code == 200
    assert api.as_user(a).get(f"/api/games/{game.pk}/").json()["invite"] is None  # started
    public = game_create(created_by=a, engine="tinygame", players=2, options={"rounds": 1})
    assert api.as_user(UserFactory()).get(f"/api/games/{public.pk}/").json()["invite"] is None  # a spectator


def test_an_invite_to_another_game_or_a_forged_one_does_not_open_a_private_game(private_game, api):
    """Only this game's own invite counts; anything else is the unknown-game 404."""
    game, a, _ = private_game
    other = game_create(created_by=a, engine="tinygame", players=2, options={"rounds": 1}, is_public=False)
    outsider = UserFactory()
    unknown = _unknown_game_answer(api, outsider, "post", "join/")
    for invite in (invite_token(game=other), "not-a-token", invite_token(game=game) + "x"):
        r = api.as_user(outsider).post(f"/api/games/{game.pk}/join/", {"invite": invite}, format="json")
        assert (r.status_code, r.json()) == unknown
    assert not Seat.objects.filter(game=game, user=outsider).exists()


def test_staff_without_the_invite_are_told_so(private_game, api):
    """Staff see private games, so they get a 403 (not a 404), and no seat."""
    game, _, _ = private_game
    staff = UserFactory()
    staff.is_staff = True
    staff.save()
    r = api.as_user(staff).post(f"/api/games/{game.pk}/join/", format="json")
    assert r.status_code == 403 and r.json()["error"] == "invite_required"
    assert not Seat.objects.filter(game=game, user=staff).exists()


def test_a_player_of_a_private_game_still_reaches_it(private_game, api):
    game, a, b = private_game
    assert api.as_user(b).post(f"/api/games/{game.pk}/join/").json()["seat"] == 1  # already seated
    assert api.as_user(a).get(f"/api/games/{game.pk}/standing-orders/").status_code == 200


# Every route under /api/games/{id}/ (games/api/urls.py), with the method an attacker would use.
GAME_ROUTES = [
    ("get", ""), ("get", "log/"), ("get", "standing-orders/"), ("post", "standing-orders/"), ("post", "moves/"),
    ("post", "join/"), ("post", "pause/"), ("post", "resume/"), ("post", "abandon/"), ("post", "reclaim/"),
    ("get", "messages/"), ("post", "messages/"), ("get", "notes/"), ("put", "notes/"),  # table talk
    ("post", "messages/<int:message_id>/report/"), ("put", "seats/<int:position>/mute/"),
    ("delete", "seats/<int:position>/mute/"), ("put", "seats/<int:position>/block/"),
    ("delete", "seats/<int:position>/block/"),
    ("post", "undo/"),  # take-backs
]


def test_every_game_route_is_listed_here():
    """A new route under /api/games/{id}/ must be added to GAME_ROUTES (and so to the rule below)."""
    from games.api.urls import urlpatterns

    routes = {str(p.pattern).removeprefix("games/<int:game_id>/") for p in urlpatterns
              if str(p.pattern).startswith("games/<int:game_id>/")}
    assert routes == {route for _, route in GAME_ROUTES}


@pytest.mark.parametrize("method,route", GAME_ROUTES)
def test_an_outsider_of_a_private_game_gets_the_unknown_game_404_on_every_route(private_started_game, api,
                                                                                method, route):
    """Every route, standing-orders, moves and pause included, answers an outsider 404, never a 403 that tells
    the game exists."""
    game, _, _ = private_started_game
    outsider = UserFactory()
    body = {"prompt": "p", "option": "o"} if route == "moves/" else {"prompt": "p", "to": "last"} if (
        route == "undo/") else {"text": "hi"} if route in (
        "messages/", "notes/") else {"reason": "spam"} if "<" in route else {"orders": []}
    # A route's own path arguments name things that exist (seat 1, a table message), so only the game's
    # visibility can refuse.
    path = route.replace("<int:position>", "1")
    if "<int:message_id>" in route:
        path = path.replace("<int:message_id>", str(message_post(game=game, user=game.created_by, text="hi").pk))
    r = getattr(api.as_user(outsider), method)(f"/api/games/{game.pk}/{path}", body, format="json")
    unknown = getattr(api.as_user(outsider), method)(f"/api/games/{UNKNOWN_ID}/{path}", body, format="json")
    assert unknown.status_code == 404
    assert (r.status_code, r.json()) == (unknown.status_code, unknown.json())
    game.refresh_from_db()
    assert game.status == "active" and not Seat.objects.filter(game=game, user=outsider).exists()


@pytest.mark.parametrize("method,route", [("post", "moves/"), ("get", "standing-orders/"), ("post", "pause/")])
def test_an_outsider_of_a_public_game_still_learns_why(db, api, method, route):
    """The 404 rule is for games the caller may not see; a public game's refusals keep their 403."""
    a, b = UserFactory(), UserFactory()
    game = game_create(created_by=a, engine="tinygame", players=2, options={"rounds": 1})
    game_join(game=game, user=b)
    r = getattr(api.as_user(UserFactory()), method)(f"/api/games/{game.pk}/{route}", {"prompt": "p", "option": "o"},
                                                   format="json")
    assert r.status_code == 403
    assert Game.objects.get(pk=game.pk).status == "active"
