"""MageKnightEngine on the protocol of base.py: one seat decides at a time, picks validated against the prompt,
prompt ids that change with the options, a legal default for every decision, determinism and the JSON round trip."""

from __future__ import annotations

import json

import pytest

from games.engines.base import IllegalPick
from games.engines.bots import RandomBot, make_bot
from games.engines.mage_knight.engine import MageKnightEngine
from games.engines.registry import get_engine

E = MageKnightEngine()


def test_registered_with_a_greedy_bot():
    eng = get_engine("mage_knight")
    assert eng.name == "Mage Knight" and (eng.min_players, eng.max_players) == (1, 4)
    assert type(make_bot("mage_knight", "greedy")).__name__ == "GreedyBot"


def test_illegal_and_stale_picks_are_refused_without_a_change():
    s = E.new_game(players=2, options={}, seed=1)
    seat = E.pending(s)[0]
    other = 1 - seat
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalPick):
        E.apply(s, other, "tactic:early_bird")
    with pytest.raises(IllegalPick):
        E.apply(s, seat, "tactic:long_night")  # a night tactic by day
    with pytest.raises(IllegalPick):
        E.apply(s, 7, "tactic:early_bird")
    assert json.dumps(s, sort_keys=True) == before
    p1 = E.prompt(s, seat)
    E.apply(s, seat, "tactic:early_bird")
    E.resolve(s)
    p2 = E.prompt(s, E.pending(s)[0])
    assert p1.id != p2.id and "tactic:early_bird" not in p2.option_ids()


def test_one_seat_at_a_time_and_the_default_is_always_legal():
    """"default_option": the pick made for a seat when its deadline passes (deterministic, always legal); the turn's
    default is to rest or end it safely."""
    for players in (1, 2, 3):
        s = E.new_game(players=players, options={}, seed=players)
        n = 0
        while not E.is_over(s) and n < 3000:
            if E.is_step_complete(s):
                E.resolve(s)
                continue
            pend = E.pending(s)
            assert len(pend) == 1
            seat = pend[0]
            d = E.default_option(s, seat)
            assert d == E.default_option(s, seat) and d in E.prompt(s, seat).option_ids()
            if s["dec"]["kind"] == "turn" and not s["turn"]["started"] and s["turn"]["pending"] is None \
                    and s["combat"] is None:
                assert d in ("t-rest", "t-end", "t-announce")
            E.apply(s, seat, d)
            n += 1
        assert E.is_over(s), "a game of deadline defaults ends"


def _record(seed, players, roundtrip=False):
    s = E.new_game(players=players, options={}, seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    picks = []
    while not E.is_over(s):
        if roundtrip:
            s = json.loads(json.dumps(s))
        if E.is_step_complete(s):
            E.resolve(s)
            continue
        seat = E.pending(s)[0]
        opt = bots[seat].choose(E, s, seat)
        picks.append((seat, opt))
        E.apply(s, seat, opt)
    return s, picks


@pytest.mark.parametrize("players,seed", [(1, 11), (2, 12), (4, 13)])
def test_replay_is_deterministic_and_survives_json(players, seed):
    """base.py: "a deterministic function of (player count, options, seed, ordered picks)"; state is plain JSON."""
    a, picks = _record(seed, players)
    b, _ = _record(seed, players, roundtrip=True)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    r = E.new_game(players=players, options={}, seed=seed)
    for seat, opt in picks:
        if E.is_step_complete(r):
            E.resolve(r)
        E.apply(r, seat, opt)
    assert json.dumps(r, sort_keys=True) == json.dumps(a, sort_keys=True)
    res = E.result(a)
    assert len(res.scores) == players and min(res.ranks) == 1


def test_a_turn_is_one_step():
    """A step is one seat's run of picks: a whole turn (the resolve hands over to the next seat)."""
    s = E.new_game(players=2, options={}, seed=5)
    for t in ("early_bird", "planning"):
        if E.is_step_complete(s):
            E.resolve(s)
        E.apply(s, E.pending(s)[0], f"tactic:{t}")
    E.resolve(s)
    seat = E.pending(s)[0]
    step = E.step(s)
    hand = s["seats"][seat]["hand"]
    E.apply(s, seat, f"t-play:{hand[0]}")
    assert not E.is_step_complete(s) and E.pending(s) == [seat]
    E.apply(s, seat, "t-back")
    E.apply(s, seat, "t-end")
    assert E.is_step_complete(s) and E.pending(s) == []
    E.resolve(s)
    assert E.step(s) == step + 1 and E.pending(s) == [1 - seat]


def test_events_that_open_with_a_seat_carry_a_wording_that_names_the_player():
    """Every surface renders events in plain English with the players' names: an event "Seat 2 moves to ..."
    carries ``wording`` "{seat} moves to ..." with ``seat`` its 0-based position."""
    from games.engines.bots import RandomBot
    from games.presentation.wording import fill_wording

    engine = MageKnightEngine()
    state = engine.new_game(players=2, options={}, seed=3)
    bots = [RandomBot(1), RandomBot(2)]
    worded = 0
    for _ in range(300):
        if engine.is_over(state):
            break
        for seat in engine.pending(state):
            for event in engine.apply(state, seat, bots[seat].choose(engine, state, seat)):
                seat_of = event.data.get("seat")
                if isinstance(seat_of, int) and seat_of >= 0 and event.text.startswith(f"Seat {seat_of + 1} "):
                    text = fill_wording(event.data, {0: "alice", 1: "bob"})
                    assert text == ("alice", "bob")[seat_of] + event.text[len(f"Seat {seat_of + 1}"):]
                    worded += 1
        if engine.is_step_complete(state):
            engine.resolve(state)
    assert worded > 20
