"""Hostile inputs to the games API: each is a 400 or a 404 with the API's error body, never a 500.

Every case runs on the database of the run (SQLite by default); the last test runs
them all again marked postgres, where NUL characters and overlong keys would be DataErrors.
"""

import pytest

from games.models import Game, Submission
from tests.factories import UserFactory, make_started_game

HUGE_ID = 99999999999999999999  # beyond 64 bits: SQLite raised OverflowError in the hand-written SQL


def _detail_and_prompt(api, game, user):
    return api.as_user(user).get(f"/api/games/{game.pk}/").json()["prompt"]


def _error_body(r):
    assert set(r.json()) >= {"error", "detail"}, r.content
    return r.json()


def check_deeply_nested_json_is_a_400(api, user):
    game, users = make_started_game(players=2, options={"rounds": 1})
    for body in ("[" * 20000, '{"prompt": ' + "[" * 5000 + "]" * 5000 + ', "option": "x"}'):
        r = api.as_user(users[0]).generic("POST", f"/api/games/{game.pk}/moves/", body,
                                         content_type="application/json")
        assert r.status_code == 400 and _error_body(r)["error"] == "parse_error"
    # Beyond the bound of any API body it is refused unread, before the nesting is looked at.
    r = api.as_user(users[0]).generic("POST", f"/api/games/{game.pk}/moves/", "[" * 100000,
                                     content_type="application/json")
    assert r.status_code == 413 and _error_body(r)["error"] == "body_too_large"
    r = api.as_user(user).generic("POST", "/api/games/", '{"game": "tinygame", "seats": 2, "options": '
                                  + "{\"a\": " * 200 + "1" + "}" * 200 + "}", content_type="application/json")
    assert r.status_code == 400 and "nested" in _error_body(r)["detail"]


def check_ids_beyond_64_bits_are_unknown_games(api, user):
    unknown = api.as_user(user).get("/api/games/987654321/")
    for method, route, headers in [("get", "", {}), ("get", "", {"HTTP_IF_NONE_MATCH": 'W/"x"'}),
                                   ("post", "moves/", {}), ("get", "log/", {}), ("post", "join/", {}),
                                   ("get", "standing-orders/", {}), ("post", "pause/", {})]:
        r = getattr(api.as_user(user), method)(f"/api/games/{HUGE_ID}/{route}", {"prompt": "p", "option": "o"},
                                              format="json", **headers)
        assert (r.status_code, r.json()) == (404, unknown.json()), (method, route)
    assert api.as_user(user).get(f"/api/tournaments/{HUGE_ID}/").status_code == 404
    assert api.as_user(user).get(f"/api/tournaments/{HUGE_ID}/standings/").status_code == 404


def check_a_seed_beyond_64_bits_is_a_400(api, user):
    for seed in (2 ** 63, -1, 10 ** 40):
        r = api.as_user(user).post("/api/games/", {"game": "tinygame", "seats": 2, "seed": seed}, format="json")
        assert r.status_code == 400 and "seed" in _error_body(r)["fields"]
    r = api.as_user(user).post("/api/games/", {"game": "tinygame", "seats": 2, "seed": 2 ** 63 - 1}, format="json")
    assert r.status_code == 201 and Game.objects.get(pk=r.json()["id"]).seed == 2 ** 63 - 1


def check_an_overlong_idempotency_key_is_a_400(api, user):
    game, users = make_started_game(players=2, options={"rounds": 1})
    prompt = _detail_and_prompt(api, game, users[0])
    body = {"prompt": prompt["id"], "option": prompt["options"][0]["id"]}
    for key in ("k" * 101, "bad\x00key"):
        r = api.as_user(users[0]).post(f"/api/games/{game.pk}/moves/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert r.status_code == 400 and "Idempotency-Key" in _error_body(r)["detail"]
    assert not Submission.objects.filter(game=game).exists()
    r = api.as_user(users[0]).post(f"/api/games/{game.pk}/moves/", body, format="json",
                                   HTTP_IDEMPOTENCY_KEY="k" * 100)
    assert r.status_code == 201


def check_a_nul_in_any_string_is_a_400(api, user):
    game, users = make_started_game(players=2, options={"rounds": 1})
    creations = [{"clock": {"step\u0000": 3600}}, {"clock": {"type": "fixed\u0000"}},
                 {"options": {"rounds\u0000": 1}}, {"options": {"name": "a\u0000b"}}, {"game": "tiny\u0000game"}]
    before = Game.objects.count()
    for extra in creations:
        r = api.as_user(user).post("/api/games/", {"game": "tinygame", "seats": 2, **extra}, format="json")
        assert r.status_code == 400, (extra, r.content)
        _error_body(r)
    assert Game.objects.count() == before
    r = api.as_user(users[0]).post(f"/api/games/{game.pk}/standing-orders/", {"orders": ["bet\u0000low"]},
                                   format="json")
    assert r.status_code == 400
    r = api.as_user(user).post("/api/auth/register/", {"username": "nul\u0000name", "email": "n@example.org",
                                                       "password": "a-Long-pass-99"}, format="json")
    assert r.status_code == 400
    # A form-encoded body is checked as well (DRF's form parsers, same rule).
    r = api.as_user(user).post("/api/games/", {"game": "tinygame", "seats": "2", "options.rounds": "1\u0000"})
    assert r.status_code == 400


def check_a_nul_in_the_url_is_a_400(api, user):
    # PostgreSQL refused these as filter values (a 500); no route or parameter accepts a NUL.
    for url in ("/api/leaderboard/?game=%00", "/api/players/%00/ratings/", "/api/tournaments/?status=a%00",
                "/api/games/?x=%00"):
        r = api.as_user(user).get(url)
        assert r.status_code == 400 and _error_body(r)["error"] == "bad_request", url


def check_an_api_url_without_a_route_answers_the_api_error_body(api, user):
    # A negative or non-numeric id matches no route: the API's JSON 404, not Django's HTML page.
    unknown = api.as_user(user).get("/api/games/987654321/")
    for url in ("/api/games/-1/", "/api/games/abc/moves/", "/api/no-such-thing/"):
        r = api.as_user(user).post(url, {}, format="json")
        assert r.status_code == 404 and r["Content-Type"] == "application/json" and r.json() == unknown.json()


CHECKS = [check_a_nul_in_the_url_is_a_400, check_an_api_url_without_a_route_answers_the_api_error_body,
          check_deeply_nested_json_is_a_400, check_ids_beyond_64_bits_are_unknown_games,
          check_a_seed_beyond_64_bits_is_a_400, check_an_overlong_idempotency_key_is_a_400,
          check_a_nul_in_any_string_is_a_400]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_hostile_input(db, api, check):
    """Each hostile input, on the run's database."""
    api.raise_request_exception = False  # a 500 is an answer to assert on, not an exception in the test
    check(api, UserFactory())


@pytest.mark.postgres
@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_hostile_input_on_postgresql(db, api, check):
    """Each hostile input on PostgreSQL, which refuses NUL in text and a key longer than its column."""
    api.raise_request_exception = False
    check(api, UserFactory())


@pytest.mark.parametrize("extra_options", ['{"name": "a\\u0000b"}', '{"a\\u0000": 1}', "[" * 100000,
                                           '{"a": ' * 100 + "1" + "}" * 100])
def test_the_web_new_game_form_refuses_nul_and_deep_options(db, client, extra_options):
    """The web's new-game form takes the same options as the API, under its rules (else a NUL would be a
    DataError on PostgreSQL and the deep options a RecursionError)."""
    client.raise_request_exception = False
    client.force_login(UserFactory())
    before = Game.objects.count()
    r = client.post("/games/new/", {"game": "tinygame", "seats": 2, "clock": "fixed-24h",
                                    "extra_options": extra_options})
    assert r.status_code == 200 and Game.objects.count() == before  # the form again, with its error
    assert b"NUL character" in r.content or b"levels deep" in r.content
