"""The test engine itself keeps the protocol: seeded random playouts, replay and JSON round trips."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalPick
from tests.fake_engine import TinyEngine, replay


def playout(players, seed, choice_seed):
    engine = TinyEngine()
    state = engine.new_game(players=players, options={"rounds": 3}, seed=seed)
    picks = []
    n = choice_seed
    while not engine.is_over(state):
        if engine.is_step_complete(state):
            engine.resolve(state)
            continue
        seat = engine.pending(state)[0]
        prompt = engine.prompt(state, seat)
        n = (n * 1103515245 + 12345) % 2**31
        option = prompt.options[n % len(prompt.options)].id
        engine.apply(state, seat, option)
        picks.append((seat, option))
        state = json.loads(json.dumps(state))  # the server stores JSON snapshots
    return state, picks


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**40), choice_seed=st.integers(0, 2**30))
def test_random_playouts_end_and_replay_exactly(players, seed, choice_seed):
    state, picks = playout(players, seed, choice_seed)
    engine = TinyEngine()
    assert engine.result(state) is not None
    again = replay(players=players, options={"rounds": 3}, seed=seed, picks=picks)
    assert engine.result(again) == engine.result(state)


def test_views_hide_other_hands_and_pending_picks():
    engine = TinyEngine()
    state = engine.new_game(players=2, options={}, seed=1)
    engine.apply(state, 0, engine.prompt(state, 0).options[0].id)
    assert "hand" not in engine.view(state, None)
    assert engine.view(state, 1)["hand"] == state["hands"][1]
    assert engine.view(state, 1)["my_draft"] == {"card": None, "bet": None}


def test_illegal_pick_changes_nothing():
    engine = TinyEngine()
    state = engine.new_game(players=2, options={}, seed=1)
    before = json.dumps(state, sort_keys=True)
    try:
        engine.apply(state, 0, "nope")
    except IllegalPick:
        pass
    assert json.dumps(state, sort_keys=True) == before
