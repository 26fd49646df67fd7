"""Mage Knight over many random-bot games, 1-4 players: every game ends and is scored, the invariants hold after every
step (card, wound, enemy, tile and unit conservation; pools never negative; crystals 0..3; one open decision), and no
view ever carries a secret (checked on sampled steps by scrambling every secret).

MK_GAMES scales the seed loop (default sized to run in well under a minute on the shared machine); the simulate CLI
runs thousands: ``python -m games.engines.simulate mage_knight --players 2 --games 2000 --bot random``.
"""

from __future__ import annotations

import json
import os

import pytest

from games.engines.bots import RandomBot, make_bot, play
from games.engines.mage_knight.engine import MageKnightEngine
from games.engines.mage_knight.invariants import check

from tests.engines.test_mk_view import scramble

E = MageKnightEngine()
SCALE = float(os.environ.get("MK_GAMES", "1"))
GAMES = {1: 60, 2: 40, 3: 25, 4: 20}


def _run(players: int, seed: int, bots) -> dict:
    s = E.new_game(players=players, options={}, seed=seed)
    assert check(s) == []
    steps = [0]

    def on_step(state):
        bad = check(state)
        assert bad == [], (seed, bad)
        steps[0] += 1
        if steps[0] % 40 == 0:  # secrets: a sampled step, every viewer
            for viewer in [None, *range(players)]:
                keep = -1 if viewer is None else viewer
                assert json.dumps(E.view(state, viewer), sort_keys=True) == \
                    json.dumps(E.view(scramble(state, keep), viewer), sort_keys=True), (seed, viewer)

    play(E, s, bots, on_step, max_decisions=20_000)
    return s


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_end_keep_the_invariants_and_never_leak(players):
    for g in range(int(GAMES[players] * SCALE)):
        seed = 1000 * players + g
        s = _run(players, seed, [RandomBot(seed * 10 + i) for i in range(players)])
        r = E.result(s)
        assert s["over"] and len(r.scores) == players and min(r.ranks) == 1
        assert all(1 <= rk <= players for rk in r.ranks)
        assert r.scores == tuple(sum(b.values()) for b in r.breakdown)
        assert s["round"] <= s["rounds_total"]


@pytest.mark.parametrize("players", [1, 2])
def test_greedy_games_end_and_keep_the_invariants(players):
    """The greedy bot is deterministic and never loops (it is also what a seat handed to a bot plays)."""
    for g in range(int(8 * SCALE)):
        seed = 500 + g
        a = _run(players, seed, [make_bot("mage_knight", "greedy") for _ in range(players)])
        b = _run(players, seed, [make_bot("mage_knight", "greedy") for _ in range(players)])
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_the_invariant_check_can_fail():
    """The checks find a duplicated card, a lost enemy token and an overfull crystal inventory (Wounds are not
    conserved: the supply is unlimited)."""
    s = E.new_game(players=2, options={}, seed=1)
    assert check(s) == []
    s["seats"][0]["hand"].append(s["seats"][0]["deck"][0])
    assert any("basic cards not conserved" in b for b in check(s))
    s = E.new_game(players=2, options={}, seed=1)
    s["enemies"]["piles"]["green"].pop()
    assert any("enemy tokens" in b for b in check(s))
    s = E.new_game(players=2, options={}, seed=1)
    s["seats"][1]["crystals"]["red"] = 4
    assert any("4 red crystals" in b for b in check(s))
    s = E.new_game(players=2, options={}, seed=1)
    s["offers"]["spells"].append(s["offers"]["advanced"][0])
    assert any("not conserved" in b for b in check(s))
