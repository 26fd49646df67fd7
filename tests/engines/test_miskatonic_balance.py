"""Seat-position balance of the authored Miskatonic card set: the greedy bots' win rate by seat position is
within 0.08 of even at 2, 3 and 4 players.

Position is turn order (1 = the randomly chosen first player), as ``simulate`` labels it. Seeded, so the figures
are exact; the 1000-game runs behind docs/rules-decisions/miskatonic.md use the same command with --games 1000.
"""

from __future__ import annotations

import pytest

from games.engines.simulate import simulate


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_win_rate_by_turn_position_stays_near_even(players):
    out = simulate("miskatonic", players, 400, 1, "greedy", check=False)
    rates = {k: v["win_rate"] for k, v in out["win_rate_by_character"].items()}
    assert sorted(rates) == [f"turn position {i}" for i in range(1, players + 1)]
    off = {k: round(r - 1 / players, 3) for k, r in rates.items() if abs(r - 1 / players) > 0.08}
    assert not off, f"win rates more than 0.08 from even: {off}"
