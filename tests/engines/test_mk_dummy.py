"""The Dummy Player of the solo game (rules text, Dummy Player Setup and Round Structure 1.4; scenario tactic rule)."""

from __future__ import annotations

from games.engines.mage_knight import dummy, rounds
from games.engines.mage_knight.cards import colour
from games.engines.mage_knight.engine import MageKnightEngine
from games.engines.rng import Rng

E = MageKnightEngine()


def solo(seed=1):
    return E.new_game(players=1, options={"heroes": ["arythea"]}, seed=seed)


def test_a_dummy_turn_flips_three_and_more_for_matching_crystals():
    """Its turn: flip 3 cards; if the last one's colour matches its crystals, flip as many more as it has of it."""
    s = solo()
    d = s["dummy"]
    d["crystals"] = {"red": 2, "blue": 0, "green": 0, "white": 1}
    d["deck"] = ["march", "march", "rage", "stamina", "promise", "rage"]  # the top is the end: rage, promise, stamina
    ev = []
    assert dummy.take_turn(s, ev) is False
    assert d["discard"] == ["rage", "promise", "stamina"] and len(d["deck"]) == 3  # stamina is blue: no extra
    d["deck"] = ["march", "march", "march", "stamina", "promise", "swiftness", "rage"]
    d["discard"] = []
    dummy.take_turn(s, ev)
    assert colour("promise") == "white"
    assert d["discard"] == ["rage", "swiftness", "promise", "stamina"]  # the last, Promise, is white: one white crystal, one more card


def test_an_empty_dummy_deck_announces_the_end_of_the_round():
    """The Dummy "announces the end of the round" when its deck is empty at the start of its turn; the player then
    takes one last turn."""
    s = solo(2)
    E.apply(s, 0, "tactic:early_bird")  # the player goes first (1), the Dummy after
    E.resolve(s)
    s["dummy"]["deck"] = []
    E.apply(s, 0, "t-end")
    assert s["end_announced_by"] == -1 and s["last_turns"] == [0]
    E.resolve(s)
    E.apply(s, 0, "t-end")
    assert s["round"] == 2 and s["time"] == "night"


def test_the_dummy_takes_a_random_remaining_tactic_after_the_player():
    """Scenario: "you pick first, the Dummy takes a random remaining card"; round order by tactic number."""
    seen = set()
    for seed in range(12):
        s = solo(seed)
        E.apply(s, 0, "tactic:planning")
        t = s["dummy"]["tactic"]
        assert t != "planning" and rounds.TACTICS[t]["time"] == "day"
        assert s["order"] == ([-1, 0] if rounds.TACTICS[t]["number"] < 4 else [0, -1])
        seen.add(t)
    assert len(seen) > 2


def test_round_upkeep_feeds_the_dummy():
    """1.4 "add the lowest advanced action to its deck and shuffle, and add a crystal of the lowest spell card to its
    inventory (no limit)"; its discard pile is shuffled back into its deck."""
    s = solo(3)
    d = s["dummy"]
    low_aa, low_spell = s["offers"]["advanced"][-1], s["offers"]["spells"][-1]
    d["crystals"][colour(low_spell)] = 3
    before = len(d["deck"])
    d["discard"], d["deck"] = d["deck"][:4], d["deck"][4:]
    s["round"] = 2
    rounds.prepare_round(s, Rng(s["rng"]), [])
    assert low_aa in d["deck"] and len(d["deck"]) == before + 1 and d["discard"] == []
    assert d["crystals"][colour(low_spell)] == 4  # no limit for the Dummy
    assert low_aa not in s["decks"]["advanced"] and s["decks"]["spells"][0] == low_spell
