"""The JSON API contract of DESIGN.md, status codes and error bodies included."""

import pytest

from games.models import Event, GameStatus
from tests.factories import UserFactory


@pytest.fixture
def two_players(db, api):
    a, b = UserFactory(), UserFactory()
    r = api.as_user(a).post("/api/games/", {"game": "tinygame", "seats": 2, "options": {"rounds": 1},
                                            "clock": {}}, format="json")
    assert r.status_code == 201, r.json()
    gid = r.json()["id"]
    assert r.json()["seat"] == 0 and r.json()["status"] == GameStatus.OPEN
    r = api.as_user(b).post(f"/api/games/{gid}/join/")
    assert r.status_code == 200 and r.json()["seat"] == 1
    return gid, a, b


def test_register_and_token(db, api):
    r = api.post("/api/auth/register/", {"username": "zoe", "email": "zoe@example.org",
                                         "password": "a-Long-pass-99"}, format="json")
    assert r.status_code == 201 and r.json()["token"]
    r2 = api.post("/api/auth/token/", {"username": "zoe", "password": "a-Long-pass-99"}, format="json")
    assert r2.status_code == 200 and r2.json()["token"] == r.json()["token"]
    bad = api.post("/api/auth/token/", {"username": "zoe", "password": "wrong"}, format="json")
    assert bad.status_code in (400, 401, 403) and set(bad.json()) >= {"error", "detail"}
    dup = api.post("/api/auth/register/", {"username": "zoe", "email": "z@example.org",
                                           "password": "a-Long-pass-99"}, format="json")
    assert dup.status_code == 400 and dup.json()["error"] == "invalid"


def test_schema_is_served(db, api, user):
    r = api.as_user(user).get("/api/schema/")
    assert r.status_code == 200 and b"/api/games/{game_id}/moves/" in r.content


def test_unauthenticated_requests_get_the_error_shape(db, api):
    r = api.get("/api/games/")
    assert r.status_code in (401, 403) and set(r.json()) >= {"error", "detail"}


def test_detail_move_and_error_codes(two_players, api):
    gid, a, b = two_players
    d = api.as_user(a).get(f"/api/games/{gid}/").json()
    assert d["status"] == "active" and d["game"] == "tinygame" and d["view"]["hand"]
    prompt = d["prompt"]
    assert set(prompt) == {"id", "text", "options", "deadline"} and prompt["deadline"]
    move = f"/api/games/{gid}/moves/"
    bad = api.as_user(a).post(move, {"prompt": prompt["id"], "option": "nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "not_an_option"
    outsider = UserFactory()
    r = api.as_user(outsider).post(move, {"prompt": prompt["id"], "option": prompt["options"][0]["id"]},
                                   format="json")
    assert r.status_code == 403 and r.json()["error"] == "not_your_seat"
    ok = api.as_user(a).post(move, {"prompt": prompt["id"], "option": prompt["options"][0]["id"]}, format="json")
    assert ok.status_code == 201 and ok.json()["prompt"]["id"].endswith("-bet")
    again = api.as_user(a).post(move, {"prompt": prompt["id"], "option": prompt["options"][0]["id"]},
                                format="json")
    assert again.status_code == 200 and again.json()["replayed"] is True
    stale = api.as_user(a).post(move, {"prompt": prompt["id"], "option": prompt["options"][1]["id"]},
                                format="json")
    assert stale.status_code == 409 and stale.json()["error"] == "stale_prompt"
    missing = api.as_user(a).post(move, {"option": "x"}, format="json")
    assert missing.status_code == 400 and "error" in missing.json()
    assert api.as_user(a).get("/api/games/999999/").status_code == 404


def test_idempotency_key_header(two_players, api):
    gid, a, _ = two_players
    p = api.as_user(a).get(f"/api/games/{gid}/").json()["prompt"]
    body = {"prompt": p["id"], "option": p["options"][0]["id"]}
    r1 = api.as_user(a).post(f"/api/games/{gid}/moves/", body, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    r2 = api.as_user(a).post(f"/api/games/{gid}/moves/", body, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert (r1.status_code, r2.status_code) == (201, 200)
    assert r1.json()["submission"]["id"] == r2.json()["submission"]["id"]


def test_list_shows_my_games_and_joinable_ones(db, api):
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    mine = api.as_user(a).post("/api/games/", {"game": "tinygame", "seats": 3}, format="json").json()["id"]
    private = api.as_user(b).post("/api/games/", {"game": "tinygame", "seats": 2, "public": False},
                                  format="json").json()["id"]
    ids_c = {g["id"] for g in api.as_user(c).get("/api/games/").json()["games"]}
    assert mine in ids_c and private not in ids_c
    ids_b = {g["id"] for g in api.as_user(b).get("/api/games/").json()["games"]}
    assert {mine, private} <= ids_b


def test_log_hides_other_seats_private_events(two_players, api):
    gid, a, b = two_players
    p = api.as_user(a).get(f"/api/games/{gid}/").json()["prompt"]
    api.as_user(a).post(f"/api/games/{gid}/moves/", {"prompt": p["id"], "option": p["options"][0]["id"]},
                        format="json")
    texts_a = [e["text"] for e in api.as_user(a).get(f"/api/games/{gid}/log/").json()["events"]]
    texts_b = [e["text"] for e in api.as_user(b).get(f"/api/games/{gid}/log/").json()["events"]]
    assert any(t.startswith("You played") for t in texts_a)
    assert not any(t.startswith("You played") for t in texts_b)
    assert Event.objects.filter(game_id=gid).count() == len(texts_a)


def test_standing_orders_pause_resume_and_reclaim(two_players, api):
    gid, a, b = two_players
    url = f"/api/games/{gid}/standing-orders/"
    assert {o["id"] for o in api.as_user(a).get(url).json()["available"]} == {"bet-low", "take-one"}
    bad = api.as_user(a).post(url, {"orders": ["fly"]}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "unknown_order"
    assert api.as_user(a).post(url, {"orders": ["bet-low"]}, format="json").json()["orders"] == ["bet-low"]
    p = api.as_user(a).get(f"/api/games/{gid}/").json()["prompt"]
    api.as_user(a).post(f"/api/games/{gid}/moves/", {"prompt": p["id"], "option": p["options"][0]["id"]},
                        format="json")
    # The bet was made by the standing order: no prompt left for seat 0 in this step.
    assert api.as_user(a).get(f"/api/games/{gid}/").json()["prompt"] is None
    assert api.as_user(b).post(f"/api/games/{gid}/pause/").status_code == 403
    assert api.as_user(a).post(f"/api/games/{gid}/pause/").json()["status"] == "paused"
    assert api.as_user(a).post(f"/api/games/{gid}/resume/").json()["status"] == "active"
    assert api.as_user(b).post(f"/api/games/{gid}/reclaim/").status_code == 200


def test_a_private_game_is_hidden_from_outsiders(db, api):
    a, outsider = UserFactory(), UserFactory()
    gid = api.as_user(a).post("/api/games/", {"game": "tinygame", "seats": 2, "public": False},
                              format="json").json()["id"]
    assert api.as_user(outsider).get(f"/api/games/{gid}/").status_code == 404
    assert api.as_user(outsider).get(f"/api/games/{gid}/log/").status_code == 404
    assert api.as_user(a).get(f"/api/games/{gid}/").status_code == 200


def test_abandon_closes_the_game(two_players, api):
    gid, a, b = two_players
    assert api.as_user(b).post(f"/api/games/{gid}/abandon/").status_code == 403
    r = api.as_user(a).post(f"/api/games/{gid}/abandon/")
    assert r.status_code == 200 and r.json()["status"] == "abandoned" and r.json()["prompt"] is None
    assert api.as_user(a).post(f"/api/games/{gid}/abandon/").status_code == 409


@pytest.mark.django_db(transaction=True)  # real commits: the in-process resolve task runs on commit
def test_a_move_returns_the_callers_next_prompt_as_the_game_shows_it(two_players, api):
    """Contract extension: POST .../moves/ carries the caller's next prompt (GET's shape, or null), so a
    client needs no GET after each pick of a compound decision."""
    gid, a, b = two_players
    move = f"/api/games/{gid}/moves/"

    def play(user, prompt):
        return api.as_user(user).post(move, {"prompt": prompt["id"], "option": prompt["options"][0]["id"]},
                                      format="json")

    def shown(user):
        return api.as_user(user).get(f"/api/games/{gid}/").json()["prompt"]

    r = play(a, shown(a))
    assert r.status_code == 201 and r.json()["prompt"] is not None
    assert r.json()["prompt"] == shown(a)  # the bet, with its deadline
    a_bet = r.json()["prompt"]
    r = play(b, shown(b))
    r = play(b, r.json()["prompt"])
    assert r.status_code == 201 and r.json()["prompt"] is None  # seat 1 is done; the step waits for seat 0
    again = play(b, r.json()["submission"] | {"id": r.json()["submission"]["prompt"],
                                              "options": [{"id": r.json()["submission"]["option"]}]})
    assert again.status_code == 200 and again.json()["replayed"] is True and again.json()["prompt"] is None
    # Seat 0 completes the step. Tasks run in-process here, so the resolution has committed before the
    # response is built, and the response shows what GET shows: seat 0's turn in the sequential step.
    r = play(a, a_bet)
    assert r.status_code == 201 and r.json()["prompt"] is not None
    assert r.json()["prompt"] == shown(a) and r.json()["prompt"]["id"] != a_bet["id"]


def test_a_move_in_an_unknown_game_is_404_with_the_error_shape(db, api, user):
    r = api.as_user(user).post("/api/games/999999/moves/", {"prompt": "p", "option": "o"}, format="json")
    assert r.status_code == 404 and set(r.json()) >= {"error", "detail"}


def test_schema_documents_the_move_response(db, api, user):
    schema = api.as_user(user).get("/api/schema/?format=json").json()
    move = schema["components"]["schemas"]["MoveResponse"]  # each body has a component of its own
    assert {"submission", "replayed", "prompt"} <= set(move["properties"])
    responses = schema["paths"]["/api/games/{game_id}/moves/"]["post"]["responses"]
    assert responses["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/MoveResponse")


def test_create_a_rated_game_and_refuse_one_that_could_never_be_rated(db, api):
    """Ratings move when a rated game finishes; bots are never rated, so a
    rated game needs two seats for people, and a refusal creates nothing."""
    from games.models import Game

    a = UserFactory()
    r = api.as_user(a).post("/api/games/", {"game": "tinygame", "seats": 2, "rated": True}, format="json")
    assert r.status_code == 201 and Game.objects.get(pk=r.json()["id"]).rated
    before = Game.objects.count()
    r = api.as_user(a).post("/api/games/", {"game": "tinygame", "seats": 2, "bots": 1, "rated": True}, format="json")
    assert r.status_code == 400 and r.json()["error"] and Game.objects.count() == before
