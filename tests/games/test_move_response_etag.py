"""POST .../moves/ answers with the ETag of the caller's view as the pick left the game, so a
client waits for the next step with one blocking GET and reads no view first."""

from __future__ import annotations

from games.api.conditional import game_etag
from games.models import Game
from tests.games.helpers import open_prompt


def _pick(api, user, game, position):
    p = open_prompt(game, position)
    return api.as_user(user).post(f"/api/games/{game.pk}/moves/", {"prompt": p.prompt_id,
                                                                   "option": p.options[0]["id"]}, format="json")


def _get(api, user, game, etag):
    return api.as_user(user).get(f"/api/games/{game.pk}/", HTTP_IF_NONE_MATCH=etag)


def test_the_moves_etag_is_the_views_etag_after_the_pick(game2, api):
    game, (a, b) = game2
    r = _pick(api, a, game, 0)
    assert r.status_code == 201
    etag = r.json()["etag"]
    version = Game.objects.get(pk=game.pk).version
    assert etag == game_etag(game_id=game.pk, version=version, user_id=a.pk)
    assert _get(api, a, game, etag).status_code == 304  # nothing changed since the pick
    assert _get(api, b, game, etag).status_code == 200  # one caller's tag is never another's


def test_the_moves_etag_goes_stale_when_the_game_moves_on(game2, api):
    game, (a, b) = game2
    etag = _pick(api, a, game, 0).json()["etag"]
    assert _pick(api, b, game, 1).status_code == 201  # another seat's pick: the game moved on
    r = _get(api, a, game, etag)
    assert r.status_code == 200 and r["ETag"] != etag


def test_a_replayed_pick_answers_the_current_etag(game2, api):
    game, (a, _) = game2
    p = open_prompt(game, 0)
    body = {"prompt": p.prompt_id, "option": p.options[0]["id"]}
    first = api.as_user(a).post(f"/api/games/{game.pk}/moves/", body, format="json")
    again = api.as_user(a).post(f"/api/games/{game.pk}/moves/", body, format="json")
    assert again.status_code == 200 and again.json()["replayed"] is True
    current = game_etag(game_id=game.pk, version=Game.objects.get(pk=game.pk).version, user_id=a.pk)
    assert again.json()["etag"] == current
    assert first.json()["etag"] == current or _get(api, a, game, first.json()["etag"]).status_code == 200


def test_the_schema_documents_the_moves_etag(db, api, user):
    schema = api.as_user(user).get("/api/schema/?format=json").json()
    assert "etag" in schema["components"]["schemas"]["MoveResponse"]["properties"]
