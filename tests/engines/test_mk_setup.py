"""Mage Knight setup ("Preparation (Setup)") for First Reconnaissance, 1-4 players."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.mage_knight import units
from games.engines.mage_knight.engine import MageKnightEngine
from games.engines.mage_knight.colours import BASIC
from games.engines.mage_knight.setup import HEROES, new_state, parse_options

E = MageKnightEngine()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_offers_dice_and_tactics(players):
    """6. "Reveal the top 3 cards from each deck"; 7. "Reveal a number of Regular Units equal to the number of players
    (excluding the dummy) plus 2"; 8. "Roll a number of Mana Dice equal to the number of players ... plus 2. Reroll any
    black or gold dice until at least half ... show basic colors"; 9. "Display the Day Tactic Cards"."""
    for seed in range(5):
        s = new_state(players, {}, seed)
        assert len(s["offers"]["advanced"]) == 3 and len(s["offers"]["spells"]) == 3
        assert len(s["offers"]["units"]) == players + 2
        assert all(not units.is_elite(u) for u in s["offers"]["units"])
        # First Reconnaissance: "redeal until at least one Unit with the village icon is in the offer"
        assert any("village" in units.recruit_sites(u) for u in s["offers"]["units"])
        dice = s["source"]["dice"]
        assert len(dice) == players + 2 and 2 * sum(d in BASIC for d in dice) >= len(dice)
        assert sorted(s["tactics"]["available"]) == sorted(
            ["early_bird", "rethink", "mana_steal", "planning", "great_start", "the_right_moment"])
        assert s["time"] == "day" and "wounds" not in s["decks"]  # "Stack the Wound Cards": unlimited, uncounted


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_each_players_area(players):
    """12. "Stack Level Tokens ... a Command Token"; "Shuffle your 16 Basic Action Cards ... Draw 5 cards"; "Shields
    on the '0' space of both the Fame and Reputation Tracks"; "Shuffle your Skill Tokens into a face-down pile"."""
    s = new_state(players, {}, 7)
    heroes = [seat["hero"] for seat in s["seats"]]
    assert len(set(heroes)) == players
    for seat in s["seats"]:
        assert len(seat["hand"]) == 5 and len(seat["deck"]) == 11
        assert Counter(seat["hand"] + seat["deck"]) == Counter(HEROES[seat["hero"]]["deck"])
        assert (seat["level"], seat["armor"], seat["hand_limit"], seat["command"]) == (1, 2, 5, 1)
        assert seat["fame"] == 0 and seat["reputation"] == 0 and seat["units"] == []
        assert len(seat["skill_pile"]) == 9 and all(k.startswith(seat["hero"]) for k in seat["skill_pile"])
        assert seat["pos"] == "0,0"  # on the starting tile's portal


def test_hero_decks_replace_one_standard_card():
    """Each hero's deck is the standard 16 with the hero's card replacing one (basic_actions.json)."""
    assert HEROES["arythea"]["card"] == "arythea_battle_versatility" and HEROES["arythea"]["replaces"] == "rage"
    standards = set()
    for h in HEROES.values():
        assert len(h["deck"]) == 16 and h["deck"].count(h["card"]) == 1
        standard = Counter(h["deck"]) + Counter([h["replaces"]]) - Counter([h["card"]])
        standards.add(tuple(sorted(standard.items())))
    assert len(standards) == 1  # the same standard deck under every hero's card


@pytest.mark.parametrize("players,rounds", [(1, ["day", "night", "day", "night"]), (2, ["day", "night", "day"]),
                                            (4, ["day", "night", "day"])])
def test_rounds_and_map(players, rounds):
    """Scenario: "rounds_multiplayer": 3 (day, night, day); solo 4 (2 days, 2 nights); 11. "Place the Starting Tile
    ... Reveal 2 or 3 additional tiles"."""
    s = new_state(players, {}, 3)
    assert s["round_sequence"] == rounds and s["rounds_total"] == len(rounds)
    m = s["map"]
    assert len(m["tiles"]) == 3 and m["tiles"][0]["id"] == "starting_a"
    countryside = {1: 8, 2: 8, 3: 9, 4: 11}[players]
    assert len(m["tile_deck"]) == countryside + 2 + 1 - 2  # two countryside tiles are already on the map


def test_solo_dummy():
    """2. "an unused Hero Card ... Place 3 Crystals matching the hero card's depiction ... Shuffle the Hero Deck"."""
    s = new_state(1, {"heroes": ["goldyx"]}, 11)
    d = s["dummy"]
    assert d["hero"] != "goldyx" and d["hero"] in HEROES
    assert sum(d["crystals"].values()) == 3
    assert Counter(c for c, n in d["crystals"].items() for _ in range(n)) == Counter(HEROES[d["hero"]]["crystals"])
    assert Counter(d["deck"]) == Counter(HEROES[d["hero"]]["deck"]) and d["discard"] == []
    assert new_state(2, {}, 1)["dummy"] is None


def test_options_are_checked_with_clear_messages():
    """Hero choice per seat: unknown, repeated or miscounted heroes are refused; so are unknown options."""
    assert parse_options(2, {"heroes": ["Tovak", "norowas"]})["heroes"] == ["tovak", "norowas"]
    for players, options, words in [(2, {"heroes": ["tovak"]}, "one hero per seat"),
                                    (2, {"heroes": ["tovak", "tovak"]}, "different hero"),
                                    (1, {"heroes": ["krang"]}, "unknown hero"),
                                    (2, {"colour": "red"}, "unknown option"),
                                    (2, {"elite_units": "yes"}, "true or false"),
                                    (5, {}, "1-4 players")]:
        with pytest.raises(ValueError, match=words):
            E.validate_options(players, options)


def test_setup_is_deterministic():
    """The seed reproduces the setup exactly."""
    assert new_state(3, {}, 42) == new_state(3, {}, 42)
    assert new_state(3, {}, 42) != new_state(3, {}, 43)
