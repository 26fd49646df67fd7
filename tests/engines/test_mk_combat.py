"""Mage Knight combat (games/engines/mage_knight/combat.py) against the rules text, "Combat with Enemies".

States are hand-built (only the keys combat.py reads): one seat, the turn's pool, enemy piles and a small map (the
Wound supply is unlimited and uncounted). Quotes in the docstrings are from ../shared/rules/mage-knight-rules.txt unless marked
"rulebook" (the full rulebook's wording of the same step, where the short rules text is silent).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from games.engines.base import IllegalPick
from games.engines.mage_knight import combat, enemy_abilities, enemy_effects
from games.engines.mage_knight import enemies as E
from games.engines.rng import Rng

ELEMENTS = ("physical", "fire", "ice", "cold_fire")


def make_state(hand=("march", "rage", "swiftness"), units=(), armor=2, hand_limit=5, seed=3):
    state = {
        "rng": 11,
        "enemies": E.new_piles(Rng(seed)),
        "decks": {},
        "map": {"hexes": {"0,0": {"enemies": [], "rampaging": False}, "1,0": {"enemies": [], "rampaging": False},
                          "2,0": {"enemies": [], "rampaging": False}}},
        "seats": [{"hand": list(hand), "discard": [], "deck": [], "fame": 0, "reputation": 0, "armor": armor,
                   "hand_limit": hand_limit, "pos": "0,0",
                   "units": [{"id": u, "ready": True, "wounded": False, "uid": i} for i, u in enumerate(units)]}],
        "turn": {"seat": 0, "pool": {"move": 0, "influence": 0, "heal": 0,
                                     "attack": {k: {e: 0 for e in ELEMENTS} for k in ("melee", "ranged", "siege")},
                                     "block": {e: 0 for e in ELEMENTS}}},
        "combat": None,
    }
    return state


def token(state, enemy_id, hex_key=None, rampaging=False):
    """Take one token of this enemy out of its pile (so tokens stay conserved); optionally stand it on a hex."""
    colour = E.enemy(enemy_id).colour
    state["enemies"]["piles"][colour].remove(enemy_id)
    tok = {"id": enemy_id, "colour": colour, "face_up": False}
    if hex_key:
        state["map"]["hexes"][hex_key]["enemies"].append(tok)
        state["map"]["hexes"][hex_key]["rampaging"] = rampaging
    return dict(tok)


def fight(state, ids, kind="challenge", site=None, fortified=0, hex_key=None, return_to=None, on_map=None):
    """Start a combat against these enemy ids; ``on_map`` stands them on hex 1,0 first (rampaging for the
    rampaging kinds)."""
    rampaging = kind in ("rampaging", "provoked", "challenge")
    tokens = [token(state, i, "1,0" if on_map else None, rampaging=rampaging) for i in ids]
    events = []
    ctx = {"kind": kind, "hex": hex_key or "1,0", "site": site, "fortified": fortified, "return_to": return_to}
    combat.start(state, 0, tokens, ctx, events)
    return events


def ids(state):
    return [o.id for o in combat.options(state, 0)]


def labels(state):
    return {o.id: o.label for o in combat.options(state, 0)}


def pick(state, option_id):
    events = []
    assert combat.apply(state, 0, option_id, events)
    return events


def add(state, kind, amount, element="physical"):
    if kind == "block":
        state["turn"]["pool"]["block"][element] += amount
    else:
        state["turn"]["pool"]["attack"][kind][element] += amount


def to_block(state):
    pick(state, "c-next")
    assert state["combat"]["phase"] == "block"


def to_damage(state):
    to_block(state)
    pick(state, "c-next")


# ---------------------------------------------------------------- reveal and the phase flow

def test_reveal_and_the_phases_in_order():
    """ "1. Reveal Enemies: Reveal all face-down enemies in the combat." then Ranged/Siege, Block, Damage, Attack,
    Outcome."""
    s = make_state()
    events = fight(s, ["prowlers"], on_map=True)
    assert "Prowlers" in events[0].text and s["combat"]["phase"] == "ranged"
    assert combat.public_view(s)["enemies"][0]["name"] == "Prowlers"
    pick(s, "c-next")
    assert s["combat"]["phase"] == "block"
    pick(s, "c-next")
    assert s["combat"]["phase"] == "damage"
    pick(s, "c-next")  # 4 damage on armor 2: two wounds
    assert s["combat"]["phase"] == "attack"
    pick(s, "c-next")
    assert s["combat"] is None and s["turn"]["combat_result"]["victory"] is False


def test_end_the_phase_is_always_first_and_the_default():
    """A combat must always be finishable: every phase offers "c-next" first."""
    s = make_state(units=("peasants",))
    fight(s, ["prowlers", "orc_summoners"])
    for _ in range(4):
        assert ids(s)[0] == "c-next" and combat.default_option(s) == "c-next"
        pick(s, "c-next")
    assert s["combat"] is None


def test_allowed_pool_entries_per_phase():
    """Ranged/siege: "You cannot play cards sideways for these attacks"; block: blocks + sideways; damage: nothing;
    attack: "You can combine any attack types" and "play cards sideways as a physical attack of 1"."""
    s = make_state()
    fight(s, ["golems"])
    assert combat.allowed(s) == {"ranged", "siege"}
    pick(s, "c-next")
    assert combat.allowed(s) == {"block", "sideways"}
    pick(s, "c-next")
    assert combat.allowed(s) == set()
    pick(s, "c-next")
    assert combat.allowed(s) == {"melee", "ranged", "siege", "sideways"}


def test_a_pick_that_is_not_an_option_is_refused_and_other_ids_are_not_combats():
    s = make_state()
    fight(s, ["prowlers"])
    with pytest.raises(IllegalPick):
        combat.apply(s, 0, "c-a", [])  # no targets chosen: no attack to commit
    assert combat.apply(s, 0, "play-march", []) is False


# ---------------------------------------------------------------- ranged and siege phase

def test_ranged_attack_defeats_when_it_reaches_the_total_armor_and_scores_fame():
    """ "If your attack value is greater than or equal to the total armor of all targets, the enemies are defeated.
    Discard them, and you score Fame." """
    s = make_state()
    fight(s, ["prowlers", "wolf_riders"])  # armor 3 + 4
    pick(s, "c-t0")
    pick(s, "c-t1")
    add(s, "ranged", 6)
    assert "c-a" not in ids(s)  # "If your attack is less than the total armor, nothing happens."
    add(s, "siege", 1)
    assert labels(s)["c-a"] == "Defeat Prowlers and Wolf Riders (armor 7) with Ranged and Siege Attack 7"
    pick(s, "c-a")
    assert s["seats"][0]["fame"] == 2 + 3
    assert s["enemies"]["discards"]["green"] == ["prowlers", "wolf_riders"]
    assert s["combat"] is None and s["turn"]["combat_result"]["victory"]


def test_targets_can_be_dropped_again():
    s = make_state()
    fight(s, ["prowlers", "diggers"])
    pick(s, "c-t1")
    assert "c-u1" in ids(s) and "c-t1" not in ids(s)
    pick(s, "c-u1")
    assert s["combat"]["targets"] == []


def test_fortified_enemy_takes_only_siege_in_the_ranged_phase():
    """ "Only Siege Attacks can be used if one or more enemies are Fortified." (Diggers have the Fortified
    ability.)"""
    s = make_state()
    fight(s, ["diggers"])
    pick(s, "c-t0")
    add(s, "ranged", 9)
    assert "c-a" not in ids(s)
    add(s, "siege", 3)
    assert labels(s)["c-a"].endswith("with Siege Attack 3")
    pick(s, "c-a")
    assert s["turn"]["combat_result"]["defeated"] == ["diggers"]


def test_ranged_points_a_fortified_target_ignored_stay_for_another_attack():
    """Rulebook: "If some of the enemies are fortified and some are not, you may want to deal with the unfortified
    ones with a separate attack (so you can use your Ranged Attacks)." """
    s = make_state()
    fight(s, ["diggers", "prowlers"])
    add(s, "siege", 3)
    add(s, "ranged", 3)
    pick(s, "c-t0")
    pick(s, "c-a")
    assert sum(s["turn"]["pool"]["attack"]["siege"].values()) == 0
    pick(s, "c-t1")
    assert labels(s)["c-a"] == "Defeat Prowlers (armor 3) with Ranged and Siege Attack 3"


def test_site_defenders_are_fortified_and_double_fortified_ones_cannot_be_targeted():
    """ "Enemies fortified twice cannot be targeted." A fortified site's defenders are fortified; Guardsmen also
    have the ability: at a keep they are fortified twice, until the attack phase ("ignoring fortification")."""
    s = make_state()
    fight(s, ["guardsmen", "prowlers"], kind="site", site="keep", fortified=1, on_map=True, return_to="0,0")
    assert "c-t0" not in ids(s) and "c-t1" in ids(s)
    pick(s, "c-t1")
    add(s, "ranged", 5)
    assert "c-a" not in ids(s)  # prowlers defend the keep: siege only
    pick(s, "c-next")
    pick(s, "c-next")
    pick(s, "c-next")
    assert s["combat"]["phase"] == "attack" and "c-t0" in ids(s)
    pick(s, "c-t0")
    add(s, "melee", 7)
    pick(s, "c-a")
    assert s["combat"]["enemies"][0]["defeated"]


def test_rampaging_enemies_joining_an_assault_are_not_fortified():
    """Rulebook: "The rampaging enemies are not fortified, though, and you can conquer the site even if you do not
    defeat them." """
    s = make_state()
    keep_guard = token(s, "prowlers", "1,0")
    orc = token(s, "wolf_riders", "2,0", rampaging=True)
    orc["hex"] = "2,0"
    combat.start(s, 0, [keep_guard, orc], {"kind": "site", "hex": "1,0", "site": "keep", "fortified": 1,
                                          "return_to": "0,0"}, [])
    assert enemy_abilities.fortification(s["combat"], 0) == 1 and enemy_abilities.fortification(s["combat"], 1) == 0
    pick(s, "c-t1")
    add(s, "ranged", 4)
    pick(s, "c-a")  # ranged counts against the unfortified orc
    pick(s, "c-t0")
    add(s, "siege", 3)
    pick(s, "c-a")
    res = s["turn"]["combat_result"]
    assert res["victory"] and sorted(res["defeated"]) == ["prowlers", "wolf_riders"]


def test_unspent_ranged_attack_is_lost_when_the_phase_ends():
    """Rulebook: "You may not save Attack points for later use." """
    s = make_state()
    fight(s, ["golems"])
    add(s, "ranged", 3)
    pick(s, "c-next")
    assert sum(s["turn"]["pool"]["attack"]["ranged"].values()) == 0


# ---------------------------------------------------------------- resistances

def test_resistance_halves_inefficient_attacks_rounding_down():
    """ "If one or more enemies are Resistant, halve the value of inefficient attacks (rounded down)." Golems:
    armor 5, physical resistance: 9 physical counts 4, 9 physical + 1 fire counts 5."""
    s = make_state()
    fight(s, ["golems"])
    pick(s, "c-t0")
    add(s, "ranged", 9)
    assert enemy_abilities.attack_value(s, s["combat"], [0])[0] == 4 and "c-a" not in ids(s)
    add(s, "ranged", 1, "fire")
    assert enemy_abilities.attack_value(s, s["combat"], [0])[0] == 5 and "c-a" in ids(s)


def test_inefficient_attacks_are_totalled_before_halving():
    """Rulebook: "Total all inefficient attacks, divide the result by two, round down": 3 + 3 physical -> 3."""
    s = make_state()
    fight(s, ["golems"])
    add(s, "ranged", 3)
    add(s, "siege", 3)
    assert enemy_abilities.attack_value(s, s["combat"], [0])[0] == 3


def test_one_resistant_target_halves_the_attack_against_the_whole_group():
    """ "If one or more enemies are Resistant" -- a group with Golems halves physical against both."""
    s = make_state()
    fight(s, ["golems", "prowlers"])
    add(s, "ranged", 10)
    assert enemy_abilities.attack_value(s, s["combat"], [1])[0] == 10
    assert enemy_abilities.attack_value(s, s["combat"], [0, 1])[0] == 5


@pytest.mark.parametrize("enemy_id,element,efficient", [
    ("fire_mages", "fire", False), ("fire_mages", "ice", True), ("fire_mages", "cold_fire", True),
    ("ice_mages", "ice", False), ("ice_mages", "fire", True), ("ice_mages", "cold_fire", True),
    ("high_dragon", "cold_fire", False), ("high_dragon", "physical", True), ("golems", "physical", False),
])
def test_cold_fire_attacks_are_halved_only_by_fire_and_ice_resistance_together(enemy_id, element, efficient):
    """Rulebook: "Cold Fire Attacks are halved only when there is at least one targeted enemy with both Ice and Fire
    Resistance"; other elements are halved by the matching resistance."""
    s = make_state()
    fight(s, [enemy_id])
    add(s, "ranged", 8, element)
    assert enemy_abilities.attack_value(s, s["combat"], [0])[0] == (8 if efficient else 4)


# ---------------------------------------------------------------- block phase

@pytest.mark.parametrize("attack,block,efficient", [
    ("physical", "physical", True), ("physical", "fire", True), ("physical", "ice", True),
    ("physical", "cold_fire", True),
    ("fire", "ice", True), ("fire", "cold_fire", True), ("fire", "fire", False), ("fire", "physical", False),
    ("ice", "fire", True), ("ice", "cold_fire", True), ("ice", "ice", False), ("ice", "physical", False),
    ("cold_fire", "cold_fire", True), ("cold_fire", "fire", False), ("cold_fire", "ice", False),
    ("cold_fire", "physical", False),
])
def test_block_efficiency_follows_the_element_table(attack, block, efficient):
    """ "All blocks are efficient against physical attacks. Ice or Cold Fire are efficient against Fire. Fire or
    Cold Fire are efficient against Ice. Cold Fire is efficient against Cold Fire." Inefficient: halved."""
    assert enemy_abilities.block_value({block: 7}, attack) == (7 if efficient else 3)


def test_inefficient_blocks_are_totalled_then_halved():
    """ "Total inefficient blocks and reduce by half (round down)": 3 fire + 3 physical vs fire = 3, + 2 ice = 5."""
    assert enemy_abilities.block_value({"fire": 3, "physical": 3, "ice": 2}, "fire") == 3 + 2


def test_blocking_a_fire_attack_needs_efficient_block():
    """Fire Mages attack 6 fire: 6 fire block counts 3 (no option), 6 ice block blocks."""
    s = make_state()
    fight(s, ["fire_mages"])
    to_block(s)
    add(s, "block", 6, "fire")
    assert "c-b0" not in ids(s)
    add(s, "block", 4, "ice")
    assert labels(s)["c-b0"] == "Block Fire Mages (Attack 6, fire) with Block 7"
    pick(s, "c-b0")
    assert sum(s["turn"]["pool"]["block"].values()) == 0
    pick(s, "c-next")  # no unblocked enemies: no damage phase
    assert s["combat"]["phase"] == "attack" and s["seats"][0]["hand"].count("wound") == 0


def test_swift_doubles_the_block_needed():
    """ "If your total block is greater than or equal to the enemy's attack (double for Swift ability)"."""
    s = make_state()
    fight(s, ["wolf_riders"])  # attack 3, swift
    to_block(s)
    add(s, "block", 5)
    assert "c-b0" not in ids(s)
    add(s, "block", 1)
    assert "swift: needs Block 6" in labels(s)["c-b0"]


def test_blocking_one_enemy_lets_the_others_through():
    """ "Choose a single attacking enemy to block" ... unblocked ones deal damage."""
    s = make_state()
    fight(s, ["prowlers", "diggers"])
    to_block(s)
    add(s, "block", 4)
    pick(s, "c-b0")
    assert "c-b1" not in ids(s)  # the block was spent on the prowlers
    pick(s, "c-next")
    assert s["combat"]["phase"] == "damage" and [e["damage"] for e in s["combat"]["enemies"]] == [0, 3]


# ---------------------------------------------------------------- summon

def test_summoner_is_replaced_by_a_brown_enemy_that_is_discarded_after_the_damage_phase():
    """ "For each Summon ability, draw a brown enemy to replace the summoning enemy. The summoning enemy cannot be
    targeted." Rulebook: "After the attack, discard the summoned enemy token"; once the Attack phase begins the
    summoner is back and gives Fame; the summoned one never does."""
    s = make_state()
    s["enemies"]["piles"]["brown"].append("minotaur")  # the next brown draw
    fight(s, ["orc_summoners"])
    to_block(s)
    cb = s["combat"]
    assert [e["id"] for e in cb["enemies"]] == ["orc_summoners", "minotaur"] and cb["enemies"][1]["summoned_by"] == 0
    assert "c-b0" not in ids(s)  # the summoner does not attack and cannot be blocked
    assert combat.public_view(s)["enemies"][1]["name"] == "Minotaur"
    add(s, "block", 5)
    assert "c-b1" in ids(s)
    pick(s, "c-next")  # unblocked: minotaur 5 brutal = 10 damage
    assert cb["enemies"][1]["damage"] == 10
    pick(s, "c-h1")
    assert s["seats"][0]["hand"].count("wound") == 5
    assert cb["phase"] == "attack" and s["enemies"]["discards"]["brown"] == ["minotaur"]
    assert "c-t0" in ids(s) and "c-t1" not in ids(s)
    add(s, "melee", 4)
    pick(s, "c-t0")
    pick(s, "c-a")
    assert s["seats"][0]["fame"] == 4 and s["turn"]["combat_result"]["defeated"] == ["orc_summoners"]


def test_a_blocked_summoned_monster_is_discarded_at_once():
    """Rulebook: "If a summoned monster is successfully blocked, discard it ... (but gain no Fame)"."""
    s = make_state()
    s["enemies"]["piles"]["brown"].append("gargoyle")
    fight(s, ["illusionists"])
    to_block(s)
    add(s, "block", 5)
    pick(s, "c-b1")
    assert s["enemies"]["discards"]["brown"] == ["gargoyle"] and s["seats"][0]["fame"] == 0


def test_summoning_reshuffles_an_empty_brown_pile_from_its_discards():
    s = make_state()
    brown = s["enemies"]["piles"]["brown"]
    s["enemies"]["discards"]["brown"], s["enemies"]["piles"]["brown"] = list(brown), []
    fight(s, ["orc_summoners"])
    to_block(s)
    assert s["combat"]["enemies"][1]["colour"] == "brown" and len(s["enemies"]["piles"]["brown"]) == 9


# ---------------------------------------------------------------- damage phase

def test_hero_takes_a_wound_per_armor_step_rounded_up():
    """ "Put a Wound into your hand and reduce the damage by your armor. Repeat until all damage is assigned.":
    Prowlers 4 on armor 3 -> 2 wounds."""
    s = make_state(armor=3)
    fight(s, ["prowlers"])
    to_damage(s)
    assert labels(s)["c-h0"] == "Take Prowlers' 4 damage (physical) on the hero: 2 wounds"
    pick(s, "c-h0")
    assert s["seats"][0]["hand"].count("wound") == 2


def test_brutal_doubles_the_damage():
    """ "Each enemy deals damage equal to its attack (double for Brutal)": Ironclads 4 -> 8 -> 4 wounds."""
    s = make_state()
    fight(s, ["ironclads"])
    to_damage(s)
    pick(s, "c-next")
    assert s["seats"][0]["hand"].count("wound") == 4


def test_poison_puts_a_wound_in_the_discard_for_each_in_hand():
    """Rulebook: "A Hero assigned damage from a Poisonous enemy must put one Wound card into their discard pile for
    each Wound card added to their hand." Cursed Hags 3 on armor 2 -> 2 + 2."""
    s = make_state()
    fight(s, ["cursed_hags"])
    to_damage(s)
    pick(s, "c-h0")
    assert s["seats"][0]["hand"].count("wound") == 2 and s["seats"][0]["discard"] == ["wound", "wound"]
    assert s["combat"]["wounds"] == 2  # knock-out counts only the wounds added to the hand


def test_poison_gives_a_unit_two_wounds():
    """Rulebook: "If a Unit is assigned damage by a Poisonous enemy and would be given a Wound, it is given two Wound
    cards instead." """
    s = make_state(units=("peasants",))
    fight(s, ["cursed_hags"])
    to_damage(s)
    pick(s, "c-d0-0")
    unit = s["seats"][0]["units"][0]
    assert unit["wounded"] and unit["wounds"] == 2 and s["seats"][0]["hand"].count("wound") == 0  # no card


def test_paralyze_makes_the_hero_discard_every_non_wound_card():
    """Rulebook: "A Hero assigned damage by a Paralyzing enemy must immediately discard any non-Wound cards"."""
    s = make_state(hand=("march", "rage"))
    fight(s, ["medusa"])
    to_damage(s)
    pick(s, "c-h0")
    seat = s["seats"][0]
    assert seat["hand"] == ["wound"] * 3 and sorted(seat["discard"]) == ["march", "rage"]


def test_paralyze_destroys_a_unit_it_would_wound():
    """Rulebook: "If a Unit is assigned damage by a Paralyzing enemy and would be given a Wound, it is immediately
    destroyed (remove it from the game)." """
    s = make_state(units=("peasants",))
    fight(s, ["medusa"])
    to_damage(s)
    pick(s, "c-d0-0")
    assert s["seats"][0]["units"] == [] and s["combat"]["enemies"][0]["damage"] == 3
    pick(s, "c-next")
    pick(s, "c-next")
    assert s["turn"]["combat_result"]["destroyed_units"] == ["peasants"]
    assert s["seats"][0]["hand"].count("wound") == 2  # the hero's two wound cards


def test_unit_is_wounded_and_reduces_the_damage_by_its_armor():
    """ "Place a Wound on the unit and reduce the damage by its armor." Swordsmen 6 on Peasants (armor 3): 3 left."""
    s = make_state(units=("peasants",))
    fight(s, ["swordsmen"])
    to_damage(s)
    assert labels(s)["c-d0-0"] == "Assign Swordsmen's 6 damage (physical) to Peasants (armor 3)"
    pick(s, "c-d0-0")
    assert s["seats"][0]["units"][0]["wounded"] and s["combat"]["enemies"][0]["damage"] == 3
    assert "c-d0-0" not in ids(s)  # "You may assign damage to unwounded units."


def test_resistant_unit_absorbs_its_armor_without_a_wound_once_per_combat():
    """ "For Resistant Units: Reduce damage by armor. If all damage is absorbed, do nothing." Rulebook: "If a Unit is
    assigned damage but does not get Wounded because of a resistance, it cannot be assigned damage again during the
    same combat." Guardian Golems: armor 3, physical resistance."""
    s = make_state(units=("guardian_golems",))
    fight(s, ["diggers", "prowlers"])
    to_damage(s)
    pick(s, "c-d0-0")  # diggers 3: absorbed
    assert not s["seats"][0]["units"][0]["wounded"] and s["combat"]["enemies"][0]["damage"] == 0
    assert "c-d1-0" not in ids(s)


def test_resistant_unit_is_wounded_and_reduces_again_when_the_damage_exceeds_its_armor():
    """ "Otherwise, wound the unit and reduce damage again": Swordsmen 6 on Guardian Golems (armor 3): 6-3-3 = 0."""
    s = make_state(units=("guardian_golems",))
    fight(s, ["swordsmen"])
    to_damage(s)
    pick(s, "c-d0-0")
    assert s["seats"][0]["units"][0]["wounded"]
    assert s["combat"] is not None and s["combat"]["phase"] == "attack"  # no damage left for the hero


def test_resistance_of_units_follows_the_element():
    """Rulebook: "both Ice and Fire Resistances vs. Cold Fire Attack": Guardian Golems (physical only) take Fire
    Mages' 6 fire as a plain unit would."""
    s = make_state(units=("guardian_golems",))
    fight(s, ["fire_mages"])
    to_damage(s)
    pick(s, "c-d0-0")
    assert s["seats"][0]["units"][0]["wounded"] and s["combat"]["enemies"][0]["damage"] == 3


def test_knock_out_when_combat_wounds_reach_the_unmodified_hand_limit():
    """ "If the number of Wounds you receive from combat is greater than or equal to your unmodified hand limit, you
    are Knocked Out. Discard all non-wound cards from your hand." Minotaur 5 brutal = 10 on armor 2: 5 wounds."""
    s = make_state(hand=("march", "rage", "stamina"), hand_limit=5)
    fight(s, ["minotaur"])
    to_damage(s)
    events = pick(s, "c-h0")
    seat = s["seats"][0]
    assert seat["hand"] == ["wound"] * 5 and sorted(seat["discard"]) == ["march", "rage", "stamina"]
    assert any("knocked out" in e.text for e in events)
    pick(s, "c-next")
    assert s["turn"]["combat_result"]["knocked_out"]


def test_wounds_from_cards_during_the_combat_count_towards_knock_out():
    """Rulebook: "Wounds received from other sources (for example: The effects of some cards played during combat)
    also count towards knock out." Wounds already in hand before the combat do not."""
    s = make_state(hand=("wound", "march", "rage"), hand_limit=5)
    fight(s, ["prowlers"])  # 4 damage on armor 2: 2 wounds
    s["seats"][0]["hand"] += ["wound"] * 3  # a card effect's wounds (hero.take_wounds took them from the supply)
    to_damage(s)
    assert "march" in s["seats"][0]["hand"]
    pick(s, "c-h0")
    assert s["seats"][0]["hand"] == ["wound"] * 6 and s["combat"]["knocked_out"]


def test_four_wounds_under_a_hand_limit_of_five_is_no_knock_out():
    s = make_state(hand=("march",), hand_limit=5)
    fight(s, ["ironclads"])  # 8 damage -> 4 wounds
    to_damage(s)
    pick(s, "c-h0")
    assert "march" in s["seats"][0]["hand"] and not s["combat"]["knocked_out"]


def test_units_cannot_take_damage_in_a_dungeon():
    """sites.json dungeon/tomb: "units_allowed": false -- no unit damage options there."""
    s = make_state(units=("peasants",))
    fight(s, ["werewolf"], kind="site", site="dungeon")
    assert combat.units_allowed(s) is False
    to_damage(s)
    assert [i for i in ids(s) if i.startswith("c-d")] == []


def test_ending_the_damage_phase_puts_all_remaining_damage_on_the_hero():
    """ "Assign all remaining damage to your Hero." """
    s = make_state()
    fight(s, ["prowlers", "diggers"])
    to_damage(s)
    assert "(4 wounds)" in labels(s)["c-next"]
    pick(s, "c-next")
    assert s["seats"][0]["hand"].count("wound") == 4 and s["combat"]["phase"] == "attack"


# ---------------------------------------------------------------- attack phase and outcome

def test_attack_phase_combines_any_attack_types_and_ignores_fortification():
    """ "You can combine any attack types (ignoring fortification)." Diggers: fortified, armor 3."""
    s = make_state()
    fight(s, ["diggers"])
    to_damage(s)
    pick(s, "c-next")
    add(s, "melee", 1)
    add(s, "ranged", 1)
    add(s, "siege", 1)
    pick(s, "c-t0")
    assert labels(s)["c-a"] == "Defeat Diggers (armor 3) with Attack 3"
    pick(s, "c-a")
    assert s["turn"]["combat_result"]["victory"]


def test_defeating_rampaging_enemies_removes_them_and_gains_reputation():
    """ "Rampaging Enemies: Remove tokens and gain reputation." Rulebook: "+1 for each orc marauders, +2 for each
    draconum"."""
    s = make_state()
    fight(s, ["prowlers", "swamp_dragon"], kind="challenge", on_map=True)
    pick(s, "c-t0")
    pick(s, "c-t1")
    add(s, "ranged", 12)
    pick(s, "c-a")
    assert s["seats"][0]["reputation"] == 3 and s["seats"][0]["fame"] == 2 + 7
    cell = s["map"]["hexes"]["1,0"]
    assert cell["enemies"] == [] and cell["rampaging"] is False


def test_orcs_met_at_a_site_are_worth_no_reputation_but_thugs_are():
    """Rulebook: "Orcs and Draconum enemies encountered elsewhere are not generally worth reputation"; the Thugs
    token's own Reputation bonus (+1) counts wherever they are defeated."""
    s = make_state()
    fight(s, ["prowlers", "thugs_gray"], kind="site", site="monster_den")
    pick(s, "c-t0")
    pick(s, "c-t1")
    add(s, "ranged", 8)
    pick(s, "c-a")
    assert s["seats"][0]["reputation"] == 1 and s["seats"][0]["fame"] == 4


def test_reputation_stays_on_the_track():
    s = make_state()
    s["seats"][0]["reputation"] = 6
    fight(s, ["fire_dragon"], kind="rampaging", on_map=True)
    pick(s, "c-t0")
    add(s, "ranged", 14, "ice")
    pick(s, "c-a")
    assert s["seats"][0]["reputation"] == 7


def test_an_undefeated_rampaging_enemy_stays_in_its_space():
    """ "Rampaging Enemy: Stays in its space." """
    s = make_state()
    fight(s, ["prowlers"], kind="provoked", on_map=True)
    for _ in range(4):
        pick(s, "c-next")
    cell = s["map"]["hexes"]["1,0"]
    assert cell["enemies"] == [{"id": "prowlers", "colour": "green", "face_up": True}] and cell["rampaging"]
    assert s["turn"]["combat_result"]["undefeated"] == cell["enemies"]


def test_dungeon_enemy_not_defeated_is_discarded():
    """ "Dungeon, Tomb, or Monastery: Discard the enemy." """
    s = make_state()
    fight(s, ["gargoyle"], kind="site", site="dungeon")
    for _ in range(4):
        pick(s, "c-next")
    assert s["enemies"]["discards"]["brown"] == ["gargoyle"] and s["map"]["hexes"]["1,0"]["enemies"] == []


def test_monster_den_enemy_not_defeated_returns_face_up():
    """ "Monster Den, Spawning Grounds, or Ruins: Return remaining enemies." """
    s = make_state()
    fight(s, ["gargoyle"], kind="site", site="monster_den")
    for _ in range(4):
        pick(s, "c-next")
    assert s["map"]["hexes"]["1,0"]["enemies"] == [{"id": "gargoyle", "colour": "brown", "face_up": True}]


def test_failed_fortified_assault_withdraws_to_the_attacking_space():
    """ "Fortified Site: Withdraw to your attacking space." """
    s = make_state()
    s["seats"][0]["pos"] = "1,0"
    fight(s, ["guardsmen"], kind="site", site="keep", fortified=1, on_map=True, return_to="0,0")
    for _ in range(4):
        pick(s, "c-next")
    res = s["turn"]["combat_result"]
    assert s["seats"][0]["pos"] == "0,0" and not res["victory"]
    assert s["map"]["hexes"]["1,0"]["enemies"][0]["id"] == "guardsmen"


def test_won_assault_records_the_result_for_the_turn():
    s = make_state()
    fight(s, ["prowlers"], kind="site", site="mage_tower", fortified=1, on_map=True, return_to="0,0")
    pick(s, "c-t0")
    add(s, "siege", 3)
    pick(s, "c-a")
    res = s["turn"]["combat_result"]
    assert res["victory"] and res["defeated"] == ["prowlers"] and res["context"]["site"] == "mage_tower"
    assert s["seats"][0]["pos"] == "0,0" and res["fame"] == 2 and res["knocked_out"] is False


# ---------------------------------------------------------------- property test

ALL_ENEMIES = sorted(E.ENEMIES)
CONTEXTS = [("challenge", None, 0), ("provoked", None, 0), ("site", "keep", 1), ("site", "dungeon", 0),
            ("site", "monster_den", 0), ("burn", "monastery", 0), ("site", "mage_tower", 1)]


def _tokens_everywhere(state):
    piles = state["enemies"]
    n = sum(len(p) for p in piles["piles"].values()) + sum(len(d) for d in piles["discards"].values())
    n += sum(len(c["enemies"]) for c in state["map"]["hexes"].values())
    if state["combat"]:
        n += sum(1 for e in state["combat"]["enemies"] if not e["gone"])
    return n


def _wounds_held(state):
    """The hero's Wound cards: they only grow during a combat (no healing there; the supply never runs out)."""
    seat = state["seats"][0]
    return seat["hand"].count("wound") + seat["discard"].count("wound")


def _cards(state):
    seat = state["seats"][0]
    return sorted(c for c in seat["hand"] + seat["discard"] if c != "wound")


def _pool_entries(state):
    pool = state["turn"]["pool"]
    return [v for kind in pool["attack"].values() for v in kind.values()] + list(pool["block"].values())


@given(st.lists(st.sampled_from(ALL_ENEMIES), min_size=1, max_size=4), st.sampled_from(CONTEXTS),
       st.lists(st.sampled_from(["peasants", "guardian_golems", "altem_mages", "utem_guardsmen"]), max_size=3),
       st.randoms(use_true_random=False), st.integers(1, 60))
def test_random_picks_through_random_combats(enemy_ids, context, unit_ids, rnd, patience):
    """Random picks (and random card plays into the allowed pool entries) always end the combat, never create or
    lose a token, a wound or a card, never leave a pool entry negative, and keep the state plain JSON."""
    kind, site, fortified = context
    s = make_state(hand=("march", "rage", "swiftness", "stamina"), units=unit_ids, armor=rnd.choice([2, 3, 4]))
    left = Counter(i for pile in s["enemies"]["piles"].values() for i in pile)
    chosen = []
    for enemy_id in enemy_ids:
        if left[enemy_id]:  # no more tokens than the game has
            left[enemy_id] -= 1
            chosen.append(enemy_id)
    tokens0, wounds, cards0 = _tokens_everywhere(s), _wounds_held(s), _cards(s)
    fight(s, chosen, kind=kind, site=site, fortified=fortified, on_map=kind != "burn" and site != "dungeon",
          return_to="0,0")
    picks = 0
    while s["combat"] is not None:
        assert _tokens_everywhere(s) == tokens0 and _wounds_held(s) >= wounds and _cards(s) == cards0
        wounds = _wounds_held(s)
        assert min(_pool_entries(s)) >= 0
        assert json.loads(json.dumps(s)) == s  # the combat state is plain JSON
        opts = ids(s)
        assert opts[0] == "c-next"
        for entry in combat.allowed(s) - {"sideways"}:
            if rnd.random() < 0.3:
                add(s, entry, rnd.randint(1, 4), rnd.choice(ELEMENTS))
        if "sideways" in combat.allowed(s) and rnd.random() < 0.2:
            add(s, "block" if s["combat"]["phase"] == "block" else "melee", 1)
        effect = rnd.choice(sorted(enemy_effects.TARGET_EFFECTS))
        targets = enemy_effects.enemy_targets(s, effect)
        if targets and rnd.random() < 0.1:  # a card's or unit's enemy-targeting effect
            enemy_effects.target_enemy(s, effect, rnd.choice(targets)[0], [])
        effect = rnd.choice(sorted(enemy_effects.ALL_EFFECTS))
        if enemy_effects.all_enemies_of_use(s, effect) and rnd.random() < 0.1:  # a card's effect on all enemies
            enemy_effects.affect_all_enemies(s, effect, [])
        if s["combat"] is not None and s["combat"]["phase"] == "block" and rnd.random() < 0.1:
            combat.add_block_rider(s, rnd.choice(["ice_shield", "cold_toughness", "burning_shield",
                                                  "exploding_shield"]))
        if s["combat"] is None:  # a destroyed last enemy ends the combat
            break
        opts = ids(s)
        choice = "c-next" if picks >= patience else rnd.choice(opts)
        pick(s, choice)
        picks += 1
        assert picks <= patience + 4 + 2 * len(chosen) * (len(unit_ids) + 2)
    res = s["turn"]["combat_result"]
    assert _tokens_everywhere(s) == tokens0 and _wounds_held(s) >= wounds and _cards(s) == cards0
    assert min(_pool_entries(s)) >= 0
    assert len(res["defeated"]) + len(res["undefeated"]) == len(chosen)


def test_a_city_fortifies_its_defenders_once():
    """sites.json city: "defenders_fortified": true -- like a keep; only a token's own Fortified ability makes it
    fortified twice (movement.py passes "fortified": 2 for a city)."""
    s = make_state()
    fight(s, ["prowlers", "diggers"], kind="site", site="city", fortified=2, on_map=True, return_to="0,0")
    assert enemy_abilities.fortification(s["combat"], 0) == 1 and enemy_abilities.fortification(s["combat"], 1) == 2
    assert "c-t0" in ids(s) and "c-t1" not in ids(s)


# ---------------------------------------------------------------- unit abilities that target an enemy

def test_freeze_stops_an_attack_and_lowers_armor_to_at_least_one():
    """Amotep Freezers (units.json): "one enemy does not attack and gets Armor -3 (min 1)"; rulebook: a blue unit
    ability's other effects "have no effect when targeting enemies with Ice resistance"."""
    s = make_state()
    fight(s, ["swordsmen", "ice_mages", "diggers"])
    assert [i for i, _ in enemy_effects.enemy_targets(s, "freeze_enemy")] == [0, 2]
    enemy_effects.target_enemy(s, "freeze_enemy", 0, [])
    enemy_effects.target_enemy(s, "freeze_enemy", 2, [])
    assert enemy_abilities.armor_of(s["combat"], 0) == 2 and enemy_abilities.armor_of(s["combat"], 2) == 1
    with pytest.raises(IllegalPick):
        enemy_effects.target_enemy(s, "freeze_enemy", 1, [])
    to_damage(s)
    assert [e["damage"] for e in s["combat"]["enemies"]] == [0, 5, 0]


def test_illusion_needs_an_unfortified_enemy_and_a_frozen_summoner_summons_nothing():
    """Illusionists (units.json): "one unfortified enemy does not attack this combat"."""
    s = make_state()
    fight(s, ["diggers", "orc_summoners"])
    assert [i for i, _ in enemy_effects.enemy_targets(s, "illusion")] == [1]
    enemy_effects.target_enemy(s, "illusion", 1, [])
    to_block(s)
    assert len(s["combat"]["enemies"]) == 2  # no brown token drawn
    assert enemy_effects.enemy_targets(s, "illusion") == []


def test_public_view_shows_every_enemy_in_the_combat_face_up():
    """ "Reveal all face-down enemies in the combat": the view names them, with armor and attacks."""
    s = make_state()
    s["enemies"]["piles"]["brown"].append("medusa")
    fight(s, ["orc_summoners"], on_map=True)
    to_block(s)
    shown = combat.public_view(s)["enemies"]
    assert [(e["name"], e["face_up"], e["attacks"]) for e in shown] == [
        ("Orc Summoners", True, [{"summon": "brown"}]), ("Medusa", True, [{"value": 6, "element": "physical"}])]
    assert shown[1]["summoned"] and combat.public_view(make_state()) is None
