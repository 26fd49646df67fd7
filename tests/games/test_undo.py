"""Take-backs through the service and the API: the rule, exact restores, the refusals, the log, replay.

The rule: a seat may undo its own picks of the current turn while none of them made something
new known or random (a checkpoint, as the engine's ``checkpoint_key`` says); a simultaneous step's pick can be
changed until the step resolves. "No fishing": the state after an undo is the state before the pick, JSON-equal,
the seeded generator's state included.
"""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.errors import ErrorCode, GameError
from games.models import Event, Game, Prompt, Submission, TakeBack, Undo
from games.selectors import events_for_user
from games.web.replay import state_after_step
from tests.factories import UserFactory, make_started_game

from tests.undo.helpers import advance_to_free_pick, free_option, frozen, open_prompt, pick, undo

pytestmark = pytest.mark.django_db


def _replayed_state(game: Game) -> dict:
    game.refresh_from_db()
    return state_after_step(game=game, phase=10 ** 9)


def _mk(seed=3):
    game, users = make_started_game(players=1, engine="mage_knight", seed=seed)
    return game, users


def _two_free_picks(game: Game) -> tuple[str, str, str]:
    """Play to a Mage Knight turn with two picks in a row that can be taken back: the states before each."""
    first = advance_to_free_pick(game, 0)
    game.refresh_from_db()
    s0 = frozen(game.state)
    pick(game, 0, first)
    for _ in range(30):
        second = free_option(game, 0)
        if second is not None:
            break
        game.refresh_from_db()
        s0 = frozen(game.state)
        first = advance_to_free_pick(game, 0)
        pick(game, 0, first)
    else:
        raise AssertionError("no second pick to take back")
    game.refresh_from_db()
    s1 = frozen(game.state)
    pick(game, 0, second)
    game.refresh_from_db()
    return s0, s1, frozen(game.state)


def test_undo_last_then_turn_restores_each_state_exactly_generator_included():
    game, users = _mk()
    s0, s1, s2 = _two_free_picks(game)
    assert TakeBack.objects.filter(game=game).count() >= 2
    undo(game, 0)
    game.refresh_from_db()
    assert frozen(game.state) == s1  # the generator ("rng") is part of the state compared
    undo(game, 0, to="turn")
    game.refresh_from_db()
    assert game.state["rng"] == json.loads(s0)["rng"]
    points = TakeBack.objects.filter(game=game, phase=game.phase).count()
    assert points == 0 or frozen(game.state) != s2
    assert frozen(_replayed_state(game)) == frozen(game.state)  # the stored picks replay to the stored state


def test_picking_the_same_again_after_an_undo_gives_the_same_state():
    game, _ = _mk(seed=4)
    opt = advance_to_free_pick(game, 0)
    pick(game, 0, opt)
    game.refresh_from_db()
    after = frozen(game.state)
    undo(game, 0)
    pick(game, 0, opt)
    game.refresh_from_db()
    assert frozen(game.state) == after


def test_taken_back_events_disappear_and_the_log_says_how_many_moves():
    game, users = _mk(seed=5)
    opt = advance_to_free_pick(game, 0)
    before = set(Event.objects.filter(game=game).values_list("id", flat=True))
    pick(game, 0, opt)
    added = set(Event.objects.filter(game=game).values_list("id", flat=True)) - before
    undo(game, 0)
    ids = set(Event.objects.filter(game=game).values_list("id", flat=True))
    assert not (added & ids)
    last = Event.objects.filter(game=game).order_by("-id").first()
    assert last.data["action"] == "undo" and last.visibility is None
    assert "took back 1 move" in last.text or "changed their decision" in last.text
    assert not Submission.objects.filter(game=game, seat__position=0, phase=game.phase,
                                         take_back__isnull=False).exists()


def test_a_checkpoint_cannot_be_taken_back_and_nothing_to_undo_says_so():
    game, users = _mk(seed=6)
    advance_to_free_pick(game, 0)
    row = open_prompt(game, 0)
    with pytest.raises(GameError) as e:
        undo(game, 0, prompt_id=row.prompt_id)
    assert e.value.code == ErrorCode.CANNOT_UNDO
    game.refresh_from_db()
    before = frozen(game.state)
    # A pick the engine calls a checkpoint (here: the first option that is one) ends the take-backs.
    from tests.undo.helpers import is_checkpoint
    checkpoint = next((o["id"] for o in row.options if is_checkpoint(game.engine, game.state, 0, o["id"])), None)
    if checkpoint is not None:
        pick(game, 0, checkpoint)
        if open_prompt(game, 0) is not None:
            with pytest.raises(GameError) as e:
                undo(game, 0)
            assert e.value.code == ErrorCode.CANNOT_UNDO
    game.refresh_from_db()
    assert checkpoint is not None or frozen(game.state) == before


def test_an_old_prompt_id_is_stale():
    game, _ = _mk(seed=7)
    opt = advance_to_free_pick(game, 0)
    pick(game, 0, opt)
    with pytest.raises(GameError) as e:
        undo(game, 0, prompt_id="0.0.0")
    assert e.value.code == ErrorCode.STALE_PROMPT


def test_an_undo_after_the_deadline_default_is_refused():
    """Undo vs the deadline's default, serialized by the game's lock: once the default picked for the seat, its
    earlier picks of the step stay (the default followed from them)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services import phase_resolve
    game, users = make_started_game(players=2, engine="faltisia", seed=3, clock={"extensions": 0})
    for _ in range(40):  # to a compound decision: a pick that leaves seat 0 another prompt in the same step
        row = open_prompt(game, 0)
        free = free_option(game, 0)
        if free is not None:
            pick(game, 0, free)
            if open_prompt(game, 0) is not None and open_prompt(game, 0).phase == row.phase:
                break
            continue
        for p in (0, 1):
            if open_prompt(game, p) is not None:
                pick(game, p, open_prompt(game, p).options[0]["id"])
    else:
        pytest.skip("no compound decision came up")
    Prompt.objects.filter(game=game, seat__position=0, closed_at__isnull=True).update(
        deadline=timezone.now() - timedelta(minutes=1))
    game.refresh_from_db()
    phase_resolve(game_id=game.pk, phase=game.phase)
    assert Submission.objects.filter(game=game, seat__position=0, source="default").exists()
    with pytest.raises(GameError) as e:
        undo(game, 0, prompt_id=row.prompt_id)
    assert e.value.code == ErrorCode.CANNOT_UNDO


# ------------------------------------------------------------------------------------ simultaneous steps

def test_faltisia_a_seat_changes_its_secret_pick_until_the_step_resolves():
    game, users = make_started_game(players=3, engine="faltisia", seed=11)
    row0 = open_prompt(game, 0)
    pick(game, 1, open_prompt(game, 1).options[0]["id"])
    game.refresh_from_db()
    before = frozen(game.state)
    pick(game, 0, row0.options[-1]["id"])
    pick_label = row0.options[-1]["label"]
    # Seat 2 picks after seat 0: its pick survives seat 0's undo.
    pick(game, 2, open_prompt(game, 2).options[0]["id"])
    game.refresh_from_db()
    seat2_after = game.state["seats"][2]
    undo(game, 0, prompt_id=row0.prompt_id)
    game.refresh_from_db()
    reopened = open_prompt(game, 0)
    assert reopened is not None and reopened.prompt_id == row0.prompt_id
    assert game.state["seats"][0] == json.loads(before)["seats"][0]
    assert game.state["seats"][2] == seat2_after
    # Nothing about the pick reaches the others: the log says only that seat 1 changed its decision.
    log = Event.objects.filter(game=game, data__action="undo").get()
    assert log.text.endswith("changed their decision.") and "moves" not in log.data
    for position in (1, 2):
        assert all(pick_label not in e.text for e in events_for_user(game=game, user=users[position]))
    assert frozen(_replayed_state(game)) == frozen(game.state)


def test_faltisia_the_step_resolving_ends_the_take_backs():
    game, users = make_started_game(players=2, engine="faltisia", seed=12)
    row0 = open_prompt(game, 0)
    for _ in range(20):
        moved = False
        for p in (0, 1):
            r = open_prompt(game, p)
            if r is not None and r.phase == row0.phase:
                pick(game, p, r.options[0]["id"])
                moved = True
        game.refresh_from_db()
        if not moved or game.phase != row0.phase:
            break
    game.refresh_from_db()
    assert game.phase != row0.phase
    assert not TakeBack.objects.filter(game=game, phase=row0.phase).exists()
    with pytest.raises(GameError) as e:
        undo(game, 0, prompt_id=row0.prompt_id)
    assert e.value.code in (ErrorCode.STALE_PROMPT, ErrorCode.CANNOT_UNDO)


def test_miskatonic_undo_follows_its_checkpoints():
    game, users = make_started_game(players=2, engine="miskatonic", seed=2)
    d = game.state["dec"]["seat"]
    try:
        opt = advance_to_free_pick(game, d, max_picks=200)
    except AssertionError:
        pytest.skip("no Miskatonic pick to take back in this seed")
    game.refresh_from_db()
    before = frozen(game.state)
    pick(game, d, opt)
    undo(game, d)
    game.refresh_from_db()
    assert frozen(game.state) == before


# ------------------------------------------------------------------------------------------------- API

def _client(user) -> APIClient:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return c


def test_api_undo_answers_the_game_view_and_a_resend_with_the_same_key_is_a_replay():
    game, users = _mk(seed=8)
    opt = advance_to_free_pick(game, 0)
    pick(game, 0, opt)
    c = _client(users[0])
    row = open_prompt(game, 0)
    r = c.post(f"/api/games/{game.pk}/undo/", {"prompt": row.prompt_id, "to": "last"}, format="json",
               HTTP_IDEMPOTENCY_KEY="k-1")
    assert r.status_code == 200, r.content
    assert r.json()["id"] == game.pk and r.json()["prompt"]["id"] != row.prompt_id
    again = c.post(f"/api/games/{game.pk}/undo/", {"prompt": row.prompt_id, "to": "last"}, format="json",
                   HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 200 and Undo.objects.filter(game=game).count() == 1
    other = c.post(f"/api/games/{game.pk}/undo/", {"prompt": row.prompt_id, "to": "turn"}, format="json",
                   HTTP_IDEMPOTENCY_KEY="k-1")
    assert other.status_code == 409 and other.json()["error"] == "idempotency_key_reused"
    stale = c.post(f"/api/games/{game.pk}/undo/", {"prompt": row.prompt_id}, format="json")
    assert stale.status_code == 409 and stale.json()["error"] == "stale_prompt"
    nothing = c.post(f"/api/games/{game.pk}/undo/", {"prompt": open_prompt(game, 0).prompt_id}, format="json")
    assert nothing.status_code == 409 and nothing.json()["error"] == "cannot_undo" and nothing.json()["detail"]


def test_api_undo_refuses_outsiders_and_bad_input():
    game, users = _mk(seed=9)
    stranger = UserFactory()
    row = open_prompt(game, 0)
    r = _client(stranger).post(f"/api/games/{game.pk}/undo/", {"prompt": row.prompt_id}, format="json")
    assert r.status_code == 403 and r.json()["error"] == "not_your_seat"
    Game.objects.filter(pk=game.pk).update(is_public=False)
    r = _client(stranger).post(f"/api/games/{game.pk}/undo/", {"prompt": row.prompt_id}, format="json")
    assert r.status_code == 404
    assert _client(users[0]).post("/api/games/999999/undo/", {"prompt": "x"}, format="json").status_code == 404
    for body in ({}, {"prompt": "x", "to": "everything"}, {"prompt": ["x"]}, {"prompt": "x" * 101}):
        r = _client(users[0]).post(f"/api/games/{game.pk}/undo/", body, format="json")
        assert r.status_code == 400, body
    assert APIClient().post(f"/api/games/{game.pk}/undo/", {"prompt": "x"}, format="json").status_code == 401


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_undos_each_apply_at_most_once():
    game, users = _mk(seed=10)
    opt = advance_to_free_pick(game, 0)
    pick(game, 0, opt)
    second = free_option(game, 0)
    if second is not None:
        pick(game, 0, second)
    row = open_prompt(game, 0)
    codes = []

    def one(i):
        try:
            r = _client(users[0]).post(f"/api/games/{game.pk}/undo/", {"prompt": row.prompt_id}, format="json",
                                       HTTP_IDEMPOTENCY_KEY="same" if i % 2 else f"k{i}")
            codes.append(r.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Undo.objects.filter(game=game).count() == 1
    assert codes.count(200) >= 1 and set(codes) <= {200, 409}


def test_the_write_keeps_the_state_text_the_row_held():
    """The take-back point is the row's JSON text as read (no re-serialising), and it parses to the state."""
    from django.db import transaction

    from games.services.turn import turn_load
    game, _ = _mk(seed=1)
    with transaction.atomic():
        turn = turn_load(game_id=game.pk)
    assert isinstance(turn.state_text, str) and json.loads(turn.state_text) == turn.state


def _compound_free_pick(game: Game, position: int, phase: int) -> str | None:
    """An option of the seat's open prompt in step ``phase`` that can be taken back and leaves it another prompt of
    the same step (the first pick of a compound secret decision), or None."""
    from tests.undo.helpers import is_checkpoint
    row = open_prompt(game, position)
    if row is None or row.phase != phase:
        return None
    from games.engines.registry import get_engine
    engine = get_engine(game.engine)
    for o in row.options:
        if is_checkpoint(game.engine, game.state, position, o["id"]):
            continue
        trial = json.loads(json.dumps(game.state))
        engine.apply(trial, position, o["id"])
        if engine.prompt(trial, position) is not None and not engine.is_step_complete(trial):
            return o["id"]
    return None


def test_faltisia_interleaved_undos_of_two_seats_keep_each_seats_own_picks():
    """Regression (found by test_undo_properties): seat 0 picks A, seat 1 picks X, seat 0 takes A back and picks B,
    then seat 1 takes X back. Seat 1's take-back point was stored while A stood; restoring it must not bring A back
    (it did: A and B both applied to seat 0, or an IllegalPick refused the undo)."""
    for seed in range(1, 40):
        game, users = make_started_game(players=2, engine="faltisia", seed=seed)
        game.refresh_from_db()
        phase = game.phase
        a = _compound_free_pick(game, 0, phase)
        x = _compound_free_pick(game, 1, phase)
        if a is not None and x is not None:
            break
    else:
        pytest.skip("no step where both seats start a compound decision")
    row0, row1 = open_prompt(game, 0), open_prompt(game, 1)
    pick(game, 0, a)
    pick(game, 1, x)
    undo(game, 0, prompt_id=row0.prompt_id)
    game.refresh_from_db()
    b = next(o["id"] for o in open_prompt(game, 0).options if o["id"] != a) if len(row0.options) > 1 else a
    pick(game, 0, b)
    game.refresh_from_db()
    seat0_now = frozen(game.state["seats"][0])
    undo(game, 1, prompt_id=row1.prompt_id)
    game.refresh_from_db()
    assert game.phase == phase
    assert frozen(game.state["seats"][0]) == seat0_now  # seat 0's pick B stands, A stays taken back
    assert frozen(_replayed_state(game)) == frozen(game.state)
