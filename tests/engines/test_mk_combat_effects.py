"""Mage Knight: cards and unit abilities that put modifiers on enemies for the rest of a combat (combat.py
TARGET_EFFECTS / ALL_EFFECTS / block riders, specials_combat.py ENEMY_SPECIALS).

Each test quotes the printed card as the shared data summarises it (`summary` of spells.json,
advanced_actions.json, basic_actions.json, units.json) and plays the card through the turn (turn.py picks), so
what is offered is checked too ("Effects of no use now are not offered").
"""

from __future__ import annotations

import pytest

from games.engines.mage_knight import cards, combat, enemy_abilities, enemy_effects, plays, resolver, site_actions, turn
from games.engines.mage_knight.enemies import ENEMIES
from tests.engines.test_mk_turn import ids, pick, started


def fight(st, enemy_ids, kind="challenge", site=None, fortified=0):
    """Start a combat of the turn against these enemies (rampaging for a challenge, site defenders otherwise)."""
    tokens = []
    for enemy_id in enemy_ids:
        colour = ENEMIES[enemy_id].colour
        st["enemies"]["piles"][colour].remove(enemy_id)
        tokens.append({"id": enemy_id, "colour": colour, "face_up": True, "rampaging": kind == "challenge"})
    site_actions.begin_combat(st, 0, tokens, {"kind": kind, "hex": "1,0", "site": site, "fortified": fortified,
                                      "return_to": "0,0"}, [])
    assert st["combat"]["phase"] == "ranged"


def spell(hand, dice, time="day", **kw):
    """A turn with these Source dice; at night a spell's colour is a crystal (one die a turn) beside the black
    die: ``spell(("tremor",), ("green", "black"), time="night")``."""
    if time == "night" and "black" in dice:
        kw["crystals"] = {c: 1 for c in dice if c != "black"}
        dice = ("black",)
    return started(hand=hand, dice=dice, time=time, **kw)


def modes(st, card):
    """The ways to play ``card`` now ([] if it is not offered)."""
    if f"t-play:{card}" not in ids(st):
        return []
    return [i for i, _ in plays.card_modes(st, 0, card) if not i.startswith("t-side")]


def cast(st, card, powered=False):
    pick(st, f"t-play:{card}")
    mode = next(i for i in ids(st) if i.startswith("t-pw:" if powered else "t-basic"))
    pick(st, mode)


def enemy(st, i):
    return st["combat"]["enemies"][i]


def armor(st, i):
    return enemy_abilities.armor_of(st["combat"], i)


def next_phase(st):
    pick(st, "c-next")


# ---------------------------------------------------------------- Tremor / Earthquake

def test_tremor_one_enemy_armor_minus_three():
    """Tremor (spells.json): "one enemy Armor -3, or all enemies Armor -2 (min 1)" -- the one-enemy branch is a
    pick of the enemy."""
    st = spell(("tremor",), ("green",))
    fight(st, ["swordsmen", "prowlers"])
    cast(st, "tremor")
    got = ids(st)
    assert len(got) == 2 and all(i.startswith("fx:") for i in got)  # one enemy or all enemies
    one = next(i for i in got if "one enemy" in dict(resolver.effect_options(st, 0))[i])
    pick(st, one)
    assert sorted(ids(st)) == ["fx:0", "fx:1"]  # which enemy
    pick(st, "fx:0")
    assert armor(st, 0) == 2 and armor(st, 1) == 3  # Swordsmen 5 -> 2


def test_tremor_all_enemies_armor_minus_two_never_below_one():
    """Tremor: "all enemies Armor -2 (min 1)"; the modifier lasts the combat (it still holds in the Attack
    phase)."""
    st = spell(("tremor",), ("green",))
    fight(st, ["swordsmen", "prowlers"])
    cast(st, "tremor")
    pick(st, next(i for i, lab in resolver.effect_options(st, 0) if "all enemies" in lab))
    assert (armor(st, 0), armor(st, 1)) == (3, 1)
    next_phase(st)
    next_phase(st)
    pick(st, "c-next")  # damage phase: take it
    assert st["combat"]["phase"] == "attack" and (armor(st, 0), armor(st, 1)) == (3, 1)


def test_tremor_is_not_offered_when_no_armor_can_fall():
    """Effects of no use now are not offered: every enemy at Armor 1 already, or no combat at all."""
    st = spell(("tremor",), ("green",))
    assert modes(st, "tremor") == []  # outside combat
    fight(st, ["prowlers"])
    enemy(st, 0)["armor_mod"] = -5  # already at the minimum of 1
    assert not [m for m in modes(st, "tremor") if m.startswith("t-basic")]


def test_earthquake_doubles_against_a_fortified_enemy():
    """Earthquake (spells.json): "one enemy Armor -3 (-6 if fortified), or all enemies Armor -2 (-4 if
    fortified), min 1" -- at night, with green and black mana."""
    st = spell(("tremor",), ("green", "black"), time="night")
    fight(st, ["swordsmen", "guardsmen"], kind="site", site="keep", fortified=1)
    cast(st, "tremor", powered=True)
    pick(st, next(i for i, lab in resolver.effect_options(st, 0) if "all enemies" in lab))
    assert armor(st, 0) == 1 and armor(st, 1) == 3  # both fortified (a keep's defenders): 5-4 -> 1, 7-4 -> 3


def test_earthquake_one_enemy_unfortified_gets_minus_three():
    st = spell(("tremor",), ("green", "black"), time="night")
    fight(st, ["swordsmen", "guardsmen"])  # rampaging: only Guardsmen's own Fortified ability counts
    cast(st, "tremor", powered=True)
    pick(st, next(i for i, lab in resolver.effect_options(st, 0) if "one enemy" in lab))
    pick(st, "fx:0")
    assert armor(st, 0) == 2
    # the other enemy is fortified (its ability): -6 would leave 1
    assert enemy_effects._armor_change(st["combat"], 1, enemy_effects.TARGET_EFFECTS["earthquake_one"]) == -6


# ---------------------------------------------------------------- Chill / Lethal Chill

def test_chill_stops_the_attack_and_takes_fire_resistance_not_against_ice_resistance():
    """Chill (spells.json): "one enemy does not attack this combat; it loses fire resistance for the turn"; a
    blue spell: ice resistant enemies are not affected (MKD exclude_resistance ice)."""
    st = spell(("chill",), ("blue",))
    fight(st, ["fire_mages", "ice_mages"])
    cast(st, "chill")  # Ice Mages resist ice: Fire Mages is the only target, taken at once
    e = enemy(st, 0)
    assert e["skip"] and enemy_abilities.resistances_of(st["combat"], 0) == frozenset() and not enemy(st, 1)["skip"]
    next_phase(st)
    assert [o for o in ids(st) if o.startswith("c-b")] == []  # nothing to block from Fire Mages
    assert "1 unblocked enemy deals damage" in dict((o.id, o.label) for o in turn.options(st, 0)[1])["c-next"]


def test_chill_is_not_offered_against_only_ice_resistant_enemies():
    st = spell(("chill",), ("blue",))
    fight(st, ["ice_mages"])
    assert modes(st, "chill") == []


def test_lethal_chill_stops_the_attack_and_lowers_armor_by_four():
    """Lethal Chill (spells.json): "one enemy does not attack and gets Armor -4 (min 1) for the turn"."""
    st = spell(("chill",), ("blue", "black"), time="night")
    fight(st, ["swordsmen"])
    cast(st, "chill", powered=True)
    assert enemy(st, 0)["skip"] and armor(st, 0) == 1


# ---------------------------------------------------------------- Whirlwind / Tornado

def test_whirlwind_enemy_does_not_attack_but_can_still_be_attacked():
    """Whirlwind (spells.json): "one enemy does not attack this combat" -- it is still in the fight."""
    st = spell(("whirlwind",), ("white",))
    fight(st, ["swordsmen"])
    cast(st, "whirlwind")
    assert enemy(st, 0)["skip"]
    next_phase(st)  # ranged -> block: no attacker, the damage phase passes by itself
    assert st["combat"]["phase"] == "attack" and st["seats"][0]["hand"] == []
    assert "c-t0" in ids(st)


def test_whirlwind_is_not_offered_once_the_enemy_is_blocked_or_attacks_are_over():
    st = spell(("whirlwind",), ("white",))
    fight(st, ["swordsmen"])
    next_phase(st)
    enemy(st, 0)["blocked"] = True
    assert modes(st, "whirlwind") == []


def test_tornado_destroys_one_enemy_in_the_attack_phase_only_with_its_fame():
    """Tornado (spells.json): "Attack phase only; destroy one enemy" -- a destroyed enemy is defeated, with the
    Fame of a defeat; the last one ends the combat."""
    st = spell(("whirlwind",), ("white", "black"), time="night")
    fight(st, ["swordsmen"])
    assert not [m for m in modes(st, "whirlwind") if m.startswith("t-pw")]  # not in the ranged phase
    next_phase(st)
    next_phase(st)
    pick(st, "c-next")  # the damage phase
    assert st["combat"]["phase"] == "attack"
    cast(st, "whirlwind", powered=True)
    assert st["combat"] is None and st["seats"][0]["fame"] == 4  # Swordsmen: Fame 4
    assert st["turn"]["last_combat"]["victory"] and "swordsmen" in st["enemies"]["discards"]["gray"]


# ---------------------------------------------------------------- Expose / Mass Expose

def test_expose_removes_fortification_and_resistances_and_gives_ranged_attack_two():
    """Expose (spells.json): "one enemy loses fortification and resistances this combat; Ranged Attack 2"."""
    st = spell(("expose",), ("white",))
    fight(st, ["altem_guardsmen", "prowlers"])
    cast(st, "expose")
    assert st["turn"]["pending"] is None  # Prowlers has nothing to lose: one target, taken at once
    c = st["combat"]
    assert enemy_abilities.fortification(c, 0) == 0 and enemy_abilities.resistances_of(c, 0) == frozenset()
    assert st["turn"]["pool"]["attack"]["ranged"] == {"physical": 2}
    assert "c-t0" in ids(st)  # no longer fortified: ranged attacks may target it


def test_mass_expose_all_enemies_lose_fortifications_or_resistances():
    """Mass Expose (spells.json): "all enemies lose either fortifications or resistances this combat; Ranged
    Attack 3"."""
    st = spell(("expose",), ("white", "black"), time="night")
    fight(st, ["altem_guardsmen", "golems"], kind="site", site="keep", fortified=1)
    cast(st, "expose", powered=True)
    labs = dict(resolver.effect_options(st, 0))
    pick(st, next(i for i, lab in labs.items() if "resistances" in lab))
    c = st["combat"]
    assert all(enemy_abilities.resistances_of(c, i) == frozenset() for i in (0, 1))
    assert enemy_abilities.fortification(c, 0) == 2  # fortifications stay
    assert st["turn"]["pool"]["attack"]["ranged"] == {"physical": 3}


# ---------------------------------------------------------------- Demolish / Disintegrate

def test_demolish_ignores_site_fortifications_and_lowers_armor_except_fire_resistant():
    """Demolish (spells.json): "ignore site fortifications this turn; all enemies Armor -1 (min 1)" (a red spell:
    fire resistant enemies are not affected, MKD exclude_resistance fire)."""
    st = spell(("demolish",), ("red",))
    fight(st, ["swordsmen", "guardsmen", "fire_mages"], kind="site", site="keep", fortified=1)
    cast(st, "demolish")
    c = st["combat"]
    assert [enemy_abilities.fortification(c, i) for i in range(3)] == [0, 1, 0]  # Guardsmen keep their own ability
    assert [armor(st, i) for i in range(3)] == [4, 6, 5]
    assert "c-t0" in ids(st) and "c-t2" in ids(st)


def test_disintegrate_destroys_an_enemy_in_the_attack_phase_and_weakens_the_others():
    """Disintegrate (spells.json): "Attack phase only; destroy one enemy, other enemies Armor -1 (min 1)" (not
    fire resistant ones)."""
    st = spell(("demolish",), ("red", "black"), time="night")
    fight(st, ["swordsmen", "prowlers", "fire_mages"])
    assert not [m for m in modes(st, "demolish") if m.startswith("t-pw")]
    for e in st["combat"]["enemies"]:
        e["skip"] = True  # no damage phase to sit through (the hero would be knocked out)
    next_phase(st)
    assert st["combat"]["phase"] == "attack"
    cast(st, "demolish", powered=True)
    assert sorted(ids(st)) == ["fx:0", "fx:1"]  # Fire Mages resist fire
    pick(st, "fx:0")
    assert enemy(st, 0)["defeated"] and st["seats"][0]["fame"] == 4
    assert armor(st, 1) == 2 and armor(st, 2) == 5


# ---------------------------------------------------------------- block riders

def _block_phase(st, enemy_ids):
    fight(st, enemy_ids)
    next_phase(st)
    assert st["combat"]["phase"] == "block"


def test_ice_shield_powered_lowers_the_armor_of_the_enemy_it_blocks():
    """Ice Shield (advanced_actions.json): "Ice Block 3; an enemy blocked with it gets Armor -3 (min 1)"."""
    st = started(hand=("ice_shield",), dice=("blue",))
    _block_phase(st, ["swordsmen", "diggers"])
    cast(st, "ice_shield", powered=True)
    assert "c-b0" not in ids(st)  # Swordsmen attack 6
    pick(st, "c-b1")
    assert armor(st, 1) == 1 and armor(st, 0) == 5  # Diggers 3 -> 1 (min 1)


def test_ice_shield_does_not_lower_an_ice_resistant_enemy():
    st = started(hand=("ice_shield",), dice=("blue",))
    _block_phase(st, ["ice_golems"])
    cast(st, "ice_shield", powered=True)  # Ice Block 3 vs an ice attack: inefficient, 1 -- not enough
    st["turn"]["pool"]["block"]["fire"] = 2
    pick(st, "c-b0")
    assert armor(st, 0) == 4


def test_cold_toughness_adds_ice_block_per_icon_of_the_blocked_enemy():
    """Cold Toughness (basic_actions.json): "Ice Block 5, +1 Ice Block per ability, attack colour and resistance
    shown on the blocked enemy"."""
    st = started(hand=("tovak_cold_toughness",), dice=("blue",))
    _block_phase(st, ["freezers", "swordsmen"])  # Freezers: paralyze, swift, ice attack, fire resistance
    cast(st, "tovak_cold_toughness", powered=True)
    # against Freezers' ice attack: ice block is inefficient: (5 + 4) // 2 = 4 < 6 (swift doubles 3)
    assert enemy_abilities.block_against(st, st["combat"], 0) == 4
    assert enemy_abilities.block_against(st, st["combat"], 1) == 5  # Swordsmen show no icon
    assert "c-b0" not in ids(st) and "c-b1" not in ids(st)


def test_cold_toughness_bonus_makes_a_block_possible():
    st = started(hand=("tovak_cold_toughness",), dice=("blue",))
    _block_phase(st, ["fire_golems"])  # brutal, fire attack, fire and physical resistance: +4
    cast(st, "tovak_cold_toughness", powered=True)
    assert enemy_abilities.block_against(st, st["combat"], 0) == 9
    pick(st, "c-b0")
    assert enemy(st, 0)["blocked"] and "riders" not in st["combat"]


def test_burning_shield_gives_fire_attack_four_only_after_a_successful_block():
    """Burning Shield (spells.json): "Fire Block 4; if part of a successful block, usable in the Attack phase
    as Fire Attack 4"."""
    st = spell(("burning_shield",), ("red",))
    _block_phase(st, ["prowlers"])
    cast(st, "burning_shield")
    pick(st, "c-b0")
    assert st["turn"]["pool"]["attack"]["melee"].get("fire", 0) == 0  # not yet: for the Attack phase
    next_phase(st)
    assert st["combat"]["phase"] == "attack"
    assert st["turn"]["pool"]["attack"]["melee"]["fire"] == 4


def test_burning_shield_without_a_block_gives_no_attack():
    st = spell(("burning_shield",), ("red",))
    _block_phase(st, ["swordsmen"])
    cast(st, "burning_shield")  # Block 4 cannot stop Attack 6
    next_phase(st)
    pick(st, "c-next")
    assert st["combat"]["phase"] == "attack" and not any(st["turn"]["pool"]["attack"]["melee"].values())


def test_exploding_shield_destroys_the_blocked_enemy_unless_fire_resistant():
    """Exploding Shield (spells.json): "Fire Block 4; if part of a successful block, the blocked enemy is
    destroyed" (red: a fire resistant enemy is only blocked)."""
    st = spell(("burning_shield",), ("red", "black"), time="night")
    _block_phase(st, ["prowlers", "fire_golems"])
    cast(st, "burning_shield", powered=True)
    pick(st, "c-b0")
    assert enemy(st, 0)["defeated"] and st["seats"][0]["fame"] == 2
    st = spell(("burning_shield",), ("red", "black"), time="night")
    _block_phase(st, ["fire_golems"])
    cast(st, "burning_shield", powered=True)  # fire block vs fire attack: 2, Fire Golems attack 3
    st["turn"]["pool"]["block"]["ice"] = 2
    pick(st, "c-b0")
    assert enemy(st, 0)["blocked"] and not enemy(st, 0)["defeated"]


def test_exploding_shield_last_enemy_ends_the_combat():
    st = spell(("burning_shield",), ("red", "black"), time="night")
    _block_phase(st, ["prowlers"])
    cast(st, "burning_shield", powered=True)
    pick(st, "c-b0")
    assert st["combat"] is None and st["turn"]["last_combat"]["victory"]


# ---------------------------------------------------------------- unit: Block counts twice against Swift

@pytest.mark.parametrize("unit_id, block, attacker", [("utem_guardsmen", 4, "wolf_riders"),
                                                      ("altem_guardians", 8, "swamp_dragon")])
def test_unit_block_counts_twice_against_swift(unit_id, block, attacker):
    """Utem Guardsmen / Altem Guardians (units.json): "Block 4" / "Block 8, counts double against Swift"."""
    st = started(hand=())
    st["seats"][0]["units"] = [{"id": unit_id, "ready": True, "wounded": False, "uid": 1}]
    _block_phase(st, [attacker])  # Wolf Riders 3 swift: need 6; Swamp Dragon 5 swift: need 10
    option = next(o for o in ids(st) if o.startswith("t-unit:1:") and "Block" in dict(
        (x.id, x.label) for x in turn.options(st, 0)[1])[o])
    pick(st, option)
    assert st["turn"]["pool"]["block"]["physical"] == block
    assert enemy_abilities.block_against(st, st["combat"], 0) == 2 * block
    pick(st, "c-b0")
    assert enemy(st, 0)["blocked"]


def test_swift_bonus_does_not_count_against_other_enemies():
    st = started(hand=())
    st["seats"][0]["units"] = [{"id": "utem_guardsmen", "ready": True, "wounded": False, "uid": 1}]
    _block_phase(st, ["swordsmen"])
    pick(st, "t-unit:1:1")
    assert enemy_abilities.block_against(st, st["combat"], 0) == 4 and "c-b0" not in ids(st)


# ---------------------------------------------------------------- the view

def test_public_view_shows_each_enemys_modifiers():
    """Played cards are public: the combat view carries the modifiers on each enemy."""
    st = spell(("chill",), ("blue",))
    fight(st, ["fire_mages"])
    cast(st, "chill")
    shown = combat.public_view(st)["enemies"][0]
    assert shown["skip"] and shown["lost_resistances"] == ["fire"] and shown["resistances"] == []
    assert shown["armor"] == shown["base_armor"] == 5
