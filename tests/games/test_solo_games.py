"""A 1-seat Faltisia game (Solo Mode) through the server: created by API with the solo
option, started at once with its creator, unrated, played to the end, the Classmate's requirements revealed
only then; it never enters a tournament."""

from __future__ import annotations

import json

import pytest

from games.errors import GameError
from games.models import Event, GameStatus
from games.services import game_create
from tests.factories import UserFactory

from .helpers import open_prompt, pick


def _solo(api, user, difficulty="hard", **extra):
    return api.as_user(user).post("/api/games/", {"game": "faltisia", "seats": 1, "clock": {},
                                                  "options": {"solo": {"difficulty": difficulty}}, **extra},
                                  format="json")


def test_api_creates_a_solo_game_that_starts_at_once_unrated(db, api):
    """API create with seats 1 and the solo option; the game starts at once with the creator."""
    user = UserFactory()
    r = _solo(api, user)
    assert r.status_code == 201, r.json()
    d = r.json()
    assert d["status"] == GameStatus.ACTIVE and d["seat"] == 0 and d["prompt"]
    cm = d["view"]["classmate"]
    assert cm["difficulty"] == "hard" and cm["attributes"] == {"strength": 6, "intelligence": 6, "beauty": 6,
                                                               "purity": 6}
    assert cm["requirements_count"] == 2 and "requirements" not in cm and len(cm["token_line"]) == 4
    from games.models import Game
    assert Game.objects.get(pk=d["id"]).rated is False


def test_a_solo_game_cannot_be_rated_or_take_bad_settings(db, api):
    """A solo game is unrated (bots and the Classmate are not rated: a rated game needs two people);
    the solo option with more seats or an unknown level is refused with the error shape."""
    user = UserFactory()
    r = _solo(api, user, rated=True)
    assert r.status_code == 400 and "two seats for people" in r.json()["detail"]
    r = _solo(api, user, difficulty="legendary")
    assert r.status_code == 400 and r.json()["error"] == "invalid_settings"
    r = api.as_user(user).post("/api/games/", {"game": "faltisia", "seats": 2, "options": {"solo": True}},
                               format="json")
    assert r.status_code == 400 and "exactly one player" in r.json()["detail"]


def test_a_solo_game_plays_to_the_end_and_reveals_the_classmates_requirements(db, api):
    """The game finishes with the Classmate's hidden requirements revealed: before the end no event
    row and no view of the seat or a spectator names them; at the end the view and the last event do."""
    user = UserFactory()
    game = game_create(created_by=user, engine="faltisia", players=1, options={"solo": {"difficulty": "easy"}})
    assert game.status == GameStatus.ACTIVE
    secret = list(game.state["classmate"]["reqs"])
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        for v in (api.as_user(user).get(f"/api/games/{game.pk}/").json(),):
            assert not any(r in json.dumps(v) for r in secret)
        assert open_prompt(game, 0) is not None
        pick(game, 0)
    assert game.status == GameStatus.FINISHED and not game.rated
    d = api.as_user(user).get(f"/api/games/{game.pk}/").json()
    shown = [c["number"] for c in d["view"]["classmate"]["requirements"]]
    assert shown == secret
    texts = list(Event.objects.filter(game=game).order_by("pk").values_list("text", flat=True))
    reveal = next(i for i, t in enumerate(texts) if "The Classmate's Graduation Requirements" in t)
    assert all(r in texts[reveal] for r in secret) and not any(r in t for t in texts[:reveal] for r in secret)


def test_a_solo_game_never_enters_a_tournament(db):
    """Tournaments seat multi-player tables; a table of one (Solo Mode) is refused."""
    from games.tournaments.services import tournament_create
    from tests.tournaments.helpers import director
    staff = director()
    with pytest.raises(GameError, match="seats at least 2 players"):
        tournament_create(name="Solo cup", engine="faltisia", format="swiss", table_size=1, rounds=1,
                          created_by=staff, options={"solo": {"difficulty": "easy"}})
