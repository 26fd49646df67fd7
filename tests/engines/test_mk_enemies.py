"""Mage Knight enemy tokens (enemies.csv, enemies.py): the data compiled from the shared component facts and the
seven face-down piles of the setup ("Shuffle all Enemy and Ruin Tokens into seven face-down piles")."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from games.engines.mage_knight import enemies as E
from games.engines.rng import Rng

SHARED = "/work/shared/data/mage-knight"


def test_base_game_token_counts_per_colour():
    """enemies.json base_game_token_counts_by_colour: green 12, gray 12, brown 10, violet 10, white 10, red 8."""
    piles = E.new_piles(Rng(1))["piles"]
    assert {c: len(p) for c, p in piles.items()} == {"green": 12, "gray": 12, "brown": 10, "violet": 10,
                                                      "white": 10, "red": 8}
    assert len(E.ENEMIES) == 30


def test_piles_hold_every_copy_and_are_shuffled_by_the_seed():
    a, b, c = E.new_piles(Rng(1)), E.new_piles(Rng(1)), E.new_piles(Rng(2))
    assert a == b and a != c
    counts = Counter(i for p in a["piles"].values() for i in p)
    assert all(counts[e.id] == e.copies for e in E.ENEMIES.values())
    assert a["discards"] == {c: [] for c in E.COLOURS}


def test_facts_chosen_where_the_sources_disagree():
    """Majority of sources (enemies.json conflicts): Altem Guardsmen attack 6, Fire/Ice Golems one token each,
    Swamp Dragon poison, Altem Mages fortified; Thugs carry a Reputation bonus of 1."""
    assert E.enemy("altem_guardsmen").attack == 6
    assert E.enemy("fire_golems").copies == 1 and E.enemy("ice_golems").copies == 1
    assert E.enemy("swamp_dragon").abilities == {"poison", "swift"}
    assert E.enemy("altem_mages").has("fortified") and E.enemy("altem_mages").element == "cold_fire"
    assert E.enemy("thugs_gray").reputation == 1 and E.enemy("prowlers").reputation == 0


def test_summoners_have_no_attack_of_their_own():
    """ "For each Summon ability, draw a brown enemy to replace the summoning enemy." """
    for enemy_id in ("orc_summoners", "illusionists"):
        facts = E.enemy(enemy_id)
        assert facts.summon == "brown" and facts.attack == 0 and facts.has("summon")


def _state(seed=5):
    return {"rng": 99, "enemies": E.new_piles(Rng(seed))}


def test_draw_takes_the_top_token_face_down():
    s = _state()
    top = s["enemies"]["piles"]["red"][-1]
    assert E.draw(s, "red") == {"id": top, "colour": "red", "face_up": False}
    assert len(s["enemies"]["piles"]["red"]) == 7


def test_an_empty_pile_is_reshuffled_from_its_discard():
    """Rulebook: "If you run out of tokens, reshuffle the discarded ones and create a new face down pile." """
    s = _state()
    drawn = [E.draw(s, "red") for _ in range(8)]
    for tok in drawn[:3]:
        E.discard(s, tok)
    rng_before = s["rng"]
    again = E.draw(s, "red")
    assert again["id"] in {t["id"] for t in drawn[:3]}
    assert len(s["enemies"]["piles"]["red"]) == 2 and s["enemies"]["discards"]["red"] == []
    assert s["rng"] != rng_before  # the shuffle used (and advanced) the game's generator


def test_draw_returns_none_when_no_token_of_the_colour_is_left():
    s = _state()
    for _ in range(8):
        E.draw(s, "red")
    assert E.draw(s, "red") is None


@pytest.mark.parametrize("resistances,element,halved", [
    ({"fire"}, "fire", True), ({"fire"}, "ice", False), ({"fire"}, "cold_fire", False),
    ({"fire", "ice"}, "cold_fire", True), ({"physical"}, "physical", True), (set(), "physical", False),
])
def test_resistance_matches_the_element(resistances, element, halved):
    """Rulebook: "Cold Fire Attacks are halved only when there is at least one targeted enemy with both Ice and
    Fire Resistance"."""
    assert E.resists(resistances, element) is halved


@pytest.mark.skipif(not os.path.isdir(SHARED), reason="shared component data not present")
def test_csv_files_are_what_the_compile_script_writes(tmp_path, monkeypatch):
    """The data files are reproducible from the shared JSON (tools/compile_combat.py)."""
    from games.engines.mage_knight.tools import compile_combat

    monkeypatch.setattr(compile_combat, "ENGINE", str(tmp_path))
    compile_combat.main(SHARED)
    here = os.path.dirname(E.CSV_PATH)
    for name in ("enemies.csv", "units.csv"):
        with open(os.path.join(here, name)) as a, open(tmp_path / name) as b:
            assert a.read() == b.read(), name
