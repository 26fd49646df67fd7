"""Mage Knight units (units.csv, units.py): facts, abilities in the effect vocabulary, and the two decks
("Shuffle Regular and Elite Units into two face-down decks")."""

from __future__ import annotations

import re
from collections import Counter

from games.engines.mage_knight import units as U
from games.engines.rng import Rng

ELEMENT = r"(?: (?:fire|ice|cold_fire))?"
ATOM = re.compile(
    r"^(?:(?:attack|ranged|siege|block) \d+" + ELEMENT + r"|(?:move|influence|heal) \d+"
    r"|mana (?:red|blue|green|white|gold|black|any)|crystal (?:red|blue|green|white)|special [a-z_0-9]+(?: \d+)*)$")


def test_forty_base_unit_cards_twenty_per_deck():
    """units.json counts: 20 base unit types, 40 cards; regular (silver) level I-II, elite (gold) level III-IV."""
    regular, elite = U.new_unit_decks(Rng(4))
    assert len(regular) == 20 and len(elite) == 20
    counts = Counter(regular + elite)
    assert all(counts[u.id] == u.copies for u in U.UNITS.values())
    assert all(U.unit(i).tier == "regular" for i in regular)
    assert {U.unit(i).level for i in regular} == {1, 2}
    assert {U.unit(i).level for i in elite} == {3, 4}


def test_decks_are_shuffled_by_the_seed():
    assert U.new_unit_decks(Rng(4)) == U.new_unit_decks(Rng(4)) != U.new_unit_decks(Rng(5))


def test_every_ability_speaks_the_effect_vocabulary():
    """README "Effect vocabulary": atoms joined by ' + ' (all of) and ' | ' (choose one)."""
    for u in U.UNITS.values():
        assert u.abilities, u.id
        for effect, mana in U.abilities(u.id):
            assert mana in (None, "red", "blue", "green", "white", "black"), (u.id, mana)
            for option in effect.split(" | "):
                for atom in option.split(" + "):
                    assert ATOM.match(atom), (u.id, atom)


def test_known_cards():
    """Spot checks against units.json: costs, armor, resistances, recruit sites and mana-paid abilities."""
    peasants = U.unit("peasants")
    assert (peasants.cost, peasants.armor, peasants.copies) == (4, 3, 3) and peasants.recruit_sites == {"village"}
    assert U.abilities("peasants") == [("attack 2", None), ("block 2", None), ("influence 2", None), ("move 2", None)]
    assert ("ranged 6 fire", "red") in U.abilities("amotep_gunners")
    assert U.abilities("catapults")[0] == ("siege 3", None)
    assert U.unit("guardian_golems").resistances == {"physical"}
    assert U.unit("altem_mages").resistances == {"fire", "ice"}
    assert U.unit("fire_mages").armor == 4  # majority of sources (MKD says 3)
    assert ("heal 2", "green") in U.abilities("herbalist")


def test_recruit_sites_and_deck_of_a_unit():
    assert U.recruit_sites("herbalist") == {"monastery", "village"}
    assert U.is_elite("catapults") and not U.is_elite("peasants")
