"""The lobby and the API accept the Battle for London option, and an expansion game plays to the end through
the server (its own route and Big Ben steps included) without the page, the live fragment or the API crashing.
What the expansion's board and email show is test_london_board.py's; this pins only that they do not break and
that the set-aside Maid Ability does not leak there either."""

from __future__ import annotations

import json

from games.engines.faltisia.engine import FaltisiaEngine
from games.models import Game, GameStatus
from tests.factories import UserFactory
from tests.games.helpers import open_prompt, pick

BFL = {"expansion": "battle_for_london"}


def test_the_lobby_form_offers_the_expansion(db, login):
    """Offered in the lobby form: the checkbox sets {"expansion": "battle_for_london"}."""
    c = login(UserFactory())
    assert "Battle for London" in c.get("/games/new/").content.decode()
    r = c.post("/games/new/", {"game": "faltisia", "seats": 3, "bots": 0, "clock": "fixed-24h",
                               "battle_for_london": "on", "is_public": "on"})
    game = Game.objects.get()
    assert r.status_code == 302 and game.options == BFL


def test_the_api_creates_an_expansion_game_and_refuses_it_solo(db, api):
    """The API accepts the option for 2-6 seats; with one seat (Solo Mode) it is refused."""
    a, b = UserFactory(), UserFactory()
    r = api.as_user(a).post("/api/games/", {"game": "faltisia", "seats": 2, "clock": {}, "options": BFL},
                            format="json")
    assert r.status_code == 201, r.json()
    gid = r.json()["id"]
    assert api.as_user(b).post(f"/api/games/{gid}/join/").status_code == 200
    d = api.as_user(a).get(f"/api/games/{gid}/").json()
    assert d["view"]["london"]["routes"][0]["route"] == "A" and len(d["view"]["london"]["big_ben"]) == 6
    assert d["prompt"]["options"][0]["id"].startswith("ability:")
    r = api.as_user(a).post("/api/games/", {"game": "faltisia", "seats": 1, "clock": {}, "options": BFL},
                            format="json")
    assert r.status_code == 400 and "Solo Mode" in r.json()["detail"]


def test_an_expansion_game_plays_to_the_end_through_the_server(db, api, login):
    """Route and Big Ben steps go through the server's prompts; pages and API views render during and
    after; no seat's page shows another seat's set-aside Maid Ability before the end."""
    users = [UserFactory() for _ in range(4)]
    r = api.as_user(users[0]).post("/api/games/", {"game": "faltisia", "seats": 4, "clock": {}, "options": BFL,
                                                   "seed": 3}, format="json")
    assert r.status_code == 201, r.json()
    gid = r.json()["id"]
    for u in users[1:]:
        api.as_user(u).post(f"/api/games/{gid}/join/")
    engine = FaltisiaEngine()
    phases = set()
    for n in range(20000):
        game = Game.objects.get(pk=gid)
        if game.status != GameStatus.ACTIVE:
            break
        phases.add(game.state["phase"])
        pending = [p for p in range(4) if open_prompt(game, p) is not None]
        assert pending, "the game waits on nobody"
        seat = pending[0]
        if n % 150 == 0:
            page = login(users[seat]).get(f"/games/{gid}/")
            assert page.status_code == 200
            view = json.dumps(api.as_user(users[seat]).get(f"/api/games/{gid}/").json())
            for j, x in enumerate(game.state["seats"]):
                if j != seat and x["bfl"]["aside"]:
                    assert f'"number": "{x["bfl"]["aside"]}"' not in view
        pick(game, seat, engine.default_option(game.state, seat))
    game = Game.objects.get(pk=gid)
    assert game.status == GameStatus.FINISHED
    assert "route" in phases  # the greedy default placed markers through the server's own step
    result = api.as_user(users[0]).get(f"/api/games/{gid}/").json()["view"]["result"]
    assert all("attendance_award" in b and "checkpoints" in b for b in result["breakdown"])
    assert login(users[1]).get(f"/games/{gid}/").status_code == 200
