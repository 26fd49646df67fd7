"""The hot routes (games/api/hot_routes.py): the plain form of a pick and of a game's view is
answered below DRF, with exactly the answer the DRF chain gives (status, body, every header); anything
else, every error included, is the chain's own answer, and a failed pick changes nothing."""

from __future__ import annotations

from unittest import mock

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from games.api import views
from games.models import Game, Prompt, Submission
from tests.factories import UserFactory, make_started_game

pytestmark = pytest.mark.django_db

HOT = "games.api.hot_routes.HotApiRoutesMiddleware"
CHAIN_ONLY = [m for m in settings.MIDDLEWARE if m != HOT]
VARYING = {"Content-Length"}  # two different picks' bodies differ in length


def both_ways(send):
    """``send()`` once through the hot route and once through the chain alone: (hot, chain) responses."""
    hot = send()
    with override_settings(MIDDLEWARE=CHAIN_ONLY):
        chain = send()
    return hot, chain


def headers(response, skip=()) -> dict:
    return {k: v for k, v in response.headers.items() if k not in skip}


def hot_route_used(send) -> bool:
    """Whether ``send()`` was answered without the DRF views."""
    with mock.patch.object(views.MoveApi, "post", side_effect=AssertionError("DRF")) as post, \
            mock.patch.object(views.GameDetailApi, "get", side_effect=AssertionError("DRF")) as get:
        try:
            send()
        except AssertionError:
            return False
    return not post.called and not get.called


@pytest.fixture
def table(api):
    game, users = make_started_game(players=4, options={"rounds": 1})
    return game, users, api


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


def first_prompt(client, game) -> dict:
    return client.get(f"/api/games/{game.pk}/").json()["prompt"]


def test_the_view_is_the_chains_answer_header_by_header(table):
    game, users, api = table
    for viewer in (users[1], UserFactory()):  # a player, and a spectator of the public game
        client = api.as_user(viewer)
        hot, chain = both_ways(lambda: client.get(f"/api/games/{game.pk}/"))
        assert hot.status_code == chain.status_code == 200
        assert hot.content == chain.content and headers(hot) == headers(chain)
        assert hot_route_used(lambda: client.get(f"/api/games/{game.pk}/"))


def test_a_304_and_a_wait_are_the_chains_answers(table):
    game, users, api = table
    client = api.as_user(users[0])
    etag = client.get(f"/api/games/{game.pk}/")["ETag"]
    for query in ("", "?wait=0"):
        hot, chain = both_ways(lambda: client.get(f"/api/games/{game.pk}/{query}", HTTP_IF_NONE_MATCH=etag))
        assert hot.status_code == chain.status_code == 304
        assert headers(hot) == headers(chain)
        assert hot_route_used(lambda: client.get(f"/api/games/{game.pk}/{query}", HTTP_IF_NONE_MATCH=etag))


def test_a_new_pick_and_its_replay_are_the_chains_answers(table):
    game, users, api = table
    a, b = client_for(users[0]), client_for(users[1])
    pa, pb = first_prompt(a, game), first_prompt(b, game)
    hot = a.post(f"/api/games/{game.pk}/moves/", {"prompt": pa["id"], "option": pa["options"][0]["id"]},
                 format="json", HTTP_IDEMPOTENCY_KEY="k-a")
    with override_settings(MIDDLEWARE=CHAIN_ONLY):
        chain = b.post(f"/api/games/{game.pk}/moves/", {"prompt": pb["id"], "option": pb["options"][0]["id"]},
                       format="json", HTTP_IDEMPOTENCY_KEY="k-b")
    assert hot.status_code == chain.status_code == 201
    assert headers(hot, VARYING) == headers(chain, VARYING)
    assert hot.json().keys() == chain.json().keys() and hot.json()["replayed"] is False
    assert Submission.objects.filter(seat__game=game).count() == 2
    # The same pick again (its replay) through both: the same bytes.
    replay = {"prompt": pa["id"], "option": pa["options"][0]["id"]}
    hot, chain = both_ways(lambda: a.post(f"/api/games/{game.pk}/moves/", replay, format="json",
                                          HTTP_IDEMPOTENCY_KEY="k-a"))
    assert hot.status_code == chain.status_code == 200
    assert hot.content == chain.content and headers(hot) == headers(chain)
    assert hot.json()["replayed"] is True
    assert Submission.objects.filter(seat__game=game).count() == 2


def test_the_hot_route_answers_a_plain_pick_itself(table):
    game, users, api = table
    client = api.as_user(users[2])
    prompt = first_prompt(client, game)
    pick = {"prompt": prompt["id"], "option": prompt["options"][0]["id"]}
    assert hot_route_used(lambda: client.post(f"/api/games/{game.pk}/moves/", pick, format="json"))
    assert Submission.objects.filter(seat__game=game, seat__position=2).count() == 1


BAD_TOKEN = "Token " + "0" * 40


@pytest.mark.parametrize("case", [
    "stale prompt", "not an option", "bad token", "inactive account", "extra key with NUL", "deep body",
    "idempotency key too long", "key reused for another pick", "unknown game", "outsider of a private game",
    "not json", "query string", "empty prompt",
])
def test_every_other_request_gets_the_chains_own_answer_and_changes_nothing(table, case):
    game, users, api = table
    client = api.as_user(users[0])
    prompt = first_prompt(client, game)
    pick = {"prompt": prompt["id"], "option": prompt["options"][0]["id"]}
    url, kwargs, body = f"/api/games/{game.pk}/moves/", {"format": "json"}, dict(pick)
    if case == "stale prompt":
        body["prompt"] = "p-not-current"
    elif case == "not an option":
        body["option"] = "no-such-option"
    elif case == "bad token":
        client.credentials(HTTP_AUTHORIZATION=BAD_TOKEN)
    elif case == "inactive account":
        type(users[0]).objects.filter(pk=users[0].pk).update(is_active=False)
    elif case == "extra key with NUL":
        body["note"] = "a\x00b"
    elif case == "deep body":
        body = {"prompt": pick["prompt"], "option": [[[[["x"]]]]]}
    elif case == "idempotency key too long":
        kwargs["HTTP_IDEMPOTENCY_KEY"] = "k" * 101
    elif case == "key reused for another pick":
        other = {"prompt": prompt["id"], "option": prompt["options"][-1]["id"]}
        with override_settings(MIDDLEWARE=CHAIN_ONLY):
            assert client.post(url, other, format="json", HTTP_IDEMPOTENCY_KEY="used").status_code == 201
        kwargs["HTTP_IDEMPOTENCY_KEY"] = "used"
        body = {"prompt": prompt["id"], "option": prompt["options"][0]["id"]}
        if prompt["options"][0]["id"] == prompt["options"][-1]["id"]:
            pytest.skip("a one-option prompt")
    elif case == "unknown game":
        url = "/api/games/999999/moves/"
    elif case == "outsider of a private game":
        Game.objects.filter(pk=game.pk).update(is_public=False)
        client.credentials(HTTP_AUTHORIZATION=f"Token {UserFactory().auth_token.key}")
    elif case == "not json":
        kwargs = {"content_type": "application/json"}
        body = b'{"prompt": '
    elif case == "query string":
        url += "?x=%00"
    elif case == "empty prompt":
        body["prompt"] = "   "
    submissions = Submission.objects.count()
    open_prompts = list(Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("pk", flat=True))
    hot = client.post(url, body, **kwargs)
    assert Submission.objects.count() == submissions and list(
        Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("pk", flat=True)) == open_prompts
    with override_settings(MIDDLEWARE=CHAIN_ONLY):
        chain = client.post(url, body, **kwargs)
    assert Submission.objects.count() == submissions
    assert hot.status_code == chain.status_code and hot.status_code >= 400, (hot.status_code, hot.content)
    assert hot.content == chain.content and headers(hot) == headers(chain)


@pytest.mark.parametrize("query", ["?wait=abc", "?wait=5&format=api", "?format=api"])
def test_a_view_that_is_not_the_plain_form_is_the_chains(table, query):
    game, users, api = table
    client = api.as_user(users[0])
    hot, chain = both_ways(lambda: client.get(f"/api/games/{game.pk}/{query}", HTTP_IF_NONE_MATCH='W/"x"'))
    assert hot.status_code == chain.status_code
    assert headers(hot) == headers(chain)
    assert not hot_route_used(lambda: client.get(f"/api/games/{game.pk}/{query}", HTTP_IF_NONE_MATCH='W/"x"'))


def test_a_request_with_the_pages_session_cookie_goes_down_the_chain(table):
    game, users, api = table
    api.as_user(users[0])
    api.cookies[settings.SESSION_COOKIE_NAME] = "anything"
    assert not hot_route_used(lambda: api.get(f"/api/games/{game.pk}/"))


@pytest.mark.parametrize("variant", [{"query": "?format=json"}, {"HTTP_ACCEPT": "text/html"},
                                     {"HTTP_ACCEPT": "application/json; indent=2"}])
def test_a_pick_that_is_not_the_plain_form_is_made_by_the_chain(table, variant):
    game, users, api = table
    client = client_for(users[3])
    prompt = first_prompt(client, game)
    pick = {"prompt": prompt["id"], "option": prompt["options"][0]["id"]}
    variant = dict(variant)
    url = f"/api/games/{game.pk}/moves/" + variant.pop("query", "")
    assert not hot_route_used(lambda: client.post(url, pick, format="json", **variant))
    r = client.post(url, pick, format="json", **variant)
    assert r.status_code in (200, 201) and Submission.objects.filter(seat__position=3).count() == 1
