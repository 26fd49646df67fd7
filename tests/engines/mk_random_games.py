"""Random Mage Knight games with chosen cards dealt into the seats' deed decks (the card-effect test files use it):
every game must end, card conservation must hold after every step and no view may carry a secret (a view of the
state with every hidden order scrambled is the same view)."""

from __future__ import annotations

import json

from games.engines.bots import RandomBot, play
from games.engines.mage_knight import interaction, invariants
from games.engines.mage_knight.engine import MageKnightEngine
from tests.engines.test_mk_view import scramble


def to_first_turn(engine: MageKnightEngine, state: dict) -> int:
    """Take the defaults (tactics and what they ask) until a seat's turn is open; that seat."""
    while state["dec"] is None or state["dec"]["kind"] != "turn":
        if state["dec"] is None:
            engine.resolve(state)
        else:
            engine.apply(state, state["dec"]["seat"], engine.default_option(state, state["dec"]["seat"]))
    return state["dec"]["seat"]


def _deal(state: dict, card: str, seat: int) -> None:
    """Move ``card`` from wherever it waits (a deck or an offer) into the seat's deed deck."""
    for where in (state["decks"]["advanced"], state["decks"]["spells"], state["decks"]["artifacts"],
                  state["offers"]["advanced"], state["offers"]["spells"]):
        if card in where:
            where.remove(card)
            state["seats"][seat]["deck"].append(card)
            return


def play_random_games_with(cards: tuple[str, ...], *, games: int = 12, every_seat: bool = False) -> None:
    """``games`` random games of 1-4 players. The cards go to the first seat and it gets a Unit, or with
    ``every_seat`` they are dealt round the table and every seat gets a Unit."""
    engine = MageKnightEngine()
    for seed in range(games):
        players = 1 + seed % 4
        state = engine.new_game(players=players, options={}, seed=seed)
        for k, card in enumerate(cards):
            _deal(state, card, k % players if every_seat else 0)
        for seat in range(players if every_seat else 1):
            if state["offers"]["units"]:
                interaction.add_unit(state, seat, state["offers"]["units"][0], [])
        steps = [0]

        def on_step(s, seed=seed, players=players):
            assert invariants.check(s) == [], seed
            steps[0] += 1
            if steps[0] % 25 == 0:
                for viewer in [None, *range(players)]:
                    keep = -1 if viewer is None else viewer
                    assert json.dumps(engine.view(s, viewer), sort_keys=True) == \
                        json.dumps(engine.view(scramble(s, keep), viewer), sort_keys=True), (seed, viewer)

        play(engine, state, [RandomBot(seed * 10 + i) for i in range(players)], on_step, max_decisions=20_000)
        assert state["over"], seed
