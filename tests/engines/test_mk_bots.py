"""The greedy bot plays from the state alone: the server may ask a fresh instance, in any worker process, for
each pick (games/bots.py), so a game of fresh bots must end, and play exactly as one kept bot does."""

from __future__ import annotations

import pytest

from games.engines.mage_knight.bots import GreedyBot
from games.engines.registry import get_engine

ENGINE = get_engine("mage_knight")


def _play(players: int, seed: int, fresh: bool) -> list[str]:
    state = ENGINE.new_game(players=players, options={}, seed=seed)
    kept = [GreedyBot() for _ in range(players)]
    picks: list[str] = []
    while not ENGINE.is_over(state):
        for seat in ENGINE.pending(state):
            prompt = ENGINE.prompt(state, seat)
            while prompt is not None:
                bot = GreedyBot() if fresh else kept[seat]
                picks.append(bot.choose(ENGINE, state, seat, prompt))
                ENGINE.apply(state, seat, picks[-1])
                assert len(picks) < 20_000, "the game did not end"
                prompt = ENGINE.prompt(state, seat)
        if ENGINE.is_step_complete(state):
            ENGINE.resolve(state)
    return picks


@pytest.mark.parametrize("players,seed", [(1, 3), (2, 0), (2, 5), (3, 1), (4, 2)])
def test_a_fresh_bot_for_every_pick_plays_as_one_kept_bot(players, seed):
    assert _play(players, seed, fresh=True) == _play(players, seed, fresh=False)
