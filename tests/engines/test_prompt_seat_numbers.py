"""Seats are shown 1-based everywhere a person reads them (the API keeps 0-based positions).

Prompt texts and option labels are read by people (page, email), so every "seat N" in them must be 1..players.
Miskatonic's prompts name the player to the left (Buy Faculty) and Pet Teacher targets; Faltisia's name no seat.
"""

from __future__ import annotations

import re

import pytest

from games.engines.bots import RandomBot
from games.engines.registry import get_engine

SEAT_NUMBER = re.compile(r"\b[Ss]eats? (\d+)")


@pytest.mark.parametrize(("slug", "games"), [("miskatonic", 12)])
def test_every_seat_number_a_player_reads_in_a_prompt_is_one_based(slug, games):
    engine = get_engine(slug)
    seen = set()
    for seed in range(games):
        players = 2 + seed % 3
        state = engine.new_game(players=players, options={}, seed=seed)
        bots = [RandomBot(seed * 10 + i) for i in range(players)]
        while not engine.is_over(state):
            for seat in engine.pending(state):
                prompt = engine.prompt(state, seat)
                while prompt is not None:
                    for text in [prompt.text, *(o.label for o in prompt.options)]:
                        for number in SEAT_NUMBER.findall(text):
                            seen.add(text)
                            assert 1 <= int(number) <= players, text
                    engine.apply(state, seat, bots[seat].choose(engine, state, seat, prompt))
                    prompt = engine.prompt(state, seat)
            if engine.is_step_complete(state):
                engine.resolve(state)
    assert seen, "no prompt named a seat: the test checked nothing"
