"""Mage Knight interaction (interaction.py): "Interacting with Locals"."""

from __future__ import annotations

import pytest

from games.engines.mage_knight import interaction
from tests.engines.test_mk_turn import cell, ids, pick, started


def at(site, **kw):
    """A turn started on ``site``. Hands hold a March beside their Wounds: a hand of only Wounds leaves the
    Slow Recovery as the turn (rules line 76, docs/rules-decisions/mage-knight.md), so no interaction."""
    extra = kw.pop("site_extra", {})
    return started(hexes={"0,0": cell(site=site, **extra)}, **kw)


@pytest.mark.parametrize("rep,mod", [(-7, None), (-6, -5), (-5, -3), (-4, -2), (-3, -1), (-2, -1), (-1, 0),
                                     (0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 5)])
def test_reputation_track(rep, mod):
    """"Total your Influence +/- your Reputation Modifier (no interaction if on an 'X' space ...)" """
    assert interaction.reputation_modifier(rep) == mod


def test_no_interaction_on_the_x_space():
    """"no interaction if on an 'X' space of the reputation track" """
    st = at("village", reputation=-7, hand=("wound", "march"))
    assert "t-interact" not in ids(st)
    st = at("village", reputation=-6, hand=("wound", "march"))
    assert "t-interact" in ids(st)


def test_only_at_an_inhabited_site():
    """"At Inhabited Sites (like a Village or Monastery), you can interact with locals." """
    assert "t-interact" not in ids(at("mine"))
    assert "t-interact" not in ids(at("keep"))  # an unconquered keep is not yours


def test_modifier_applies_once_per_turn():
    """"(only apply bonus/penalty once per turn)": reputation 7 gives +5 for the whole turn, not per purchase."""
    st = at("village", reputation=7, hand=("wound", "wound", "wound", "march"))
    st["turn"]["pool"]["influence"] = 1
    pick(st, "t-interact")
    pick(st, "i-h")  # 1 + 5 = 6: two healings of 3
    assert st["turn"]["pool"]["influence"] == 3 and st["turn"]["rep_applied"]
    pick(st, "i-h")
    assert st["turn"]["pool"]["influence"] == 0
    assert "i-h" not in ids(st)
    assert st["seats"][0]["hand"] == ["wound", "march"]


def test_negative_reputation_costs_once():
    """A penalty too is applied once: reputation -5 (modifier -3) with Influence 6 buys one village healing."""
    st = at("village", reputation=-5, hand=("wound", "wound", "march"))
    st["turn"]["pool"]["influence"] = 6
    pick(st, "t-interact")
    assert "i-h" in ids(st)
    pick(st, "i-h")
    assert st["turn"]["pool"]["influence"] == 0


def test_healing_prices():
    """"Healing (costs 3 Influence at a Village or 2 at a Monastery)." """
    st = at("village", hand=("wound", "march"))
    st["turn"]["pool"]["influence"] = 2
    pick(st, "t-interact")
    assert "i-h" not in ids(st)
    st = at("monastery", hand=("wound", "march"))
    st["turn"]["pool"]["influence"] = 2
    pick(st, "t-interact")
    pick(st, "i-h")
    assert st["seats"][0]["hand"] == ["march"]


def test_recruit_by_site_type():
    """"Recruit a Unit if its type matches the site." Peasants (village) are not at a monastery."""
    st = at("village")
    st["turn"]["pool"]["influence"] = 9
    pick(st, "t-interact")
    assert {"i-r:peasants", "i-r:utem_guardsmen"} <= set(ids(st))
    st = at("monastery")
    st["turn"]["pool"]["influence"] = 9
    pick(st, "t-interact")
    assert not [i for i in ids(st) if i.startswith("i-r")]


def test_recruit_within_the_command_limit():
    """A Unit needs a free Command token."""
    st = at("village")
    st["turn"]["pool"]["influence"] = 20
    pick(st, "t-interact")
    pick(st, "i-r:peasants")
    s = st["seats"][0]
    assert [u["id"] for u in s["units"]] == ["peasants"] and s["units"][0]["ready"]
    assert "peasants" not in st["offers"]["units"]
    assert st["turn"]["pool"]["influence"] == 16
    assert not [i for i in ids(st) if i.startswith("i-r")]  # command 1 is used up


def test_advanced_action_at_a_monastery_for_six():
    """"Pay 6 Influence at a Monastery to learn an Advanced Action from the unit offer." """
    st = at("monastery")
    st["offers"]["units"].append("ice_shield")
    st["turn"]["pool"]["influence"] = 5
    pick(st, "t-interact")
    assert "i-a:ice_shield" not in ids(st)
    st["turn"]["pool"]["influence"] = 6
    pick(st, "i-a:ice_shield")
    assert st["seats"][0]["deck"][-1] == "ice_shield"  # "to: top of Deed deck"
    assert "ice_shield" not in st["offers"]["units"]


def test_spell_at_a_mage_tower_for_seven_and_its_mana():
    """"Pay 7 Influence and Mana of the same color at a Mage Tower to learn a Spell from the spell offer." """
    st = at("mage_tower", site_extra={"conquered": True, "owner": 0}, dice=("blue",))
    st["turn"]["pool"]["influence"] = 7
    pick(st, "t-interact")
    got = [i for i in ids(st) if i.startswith("i-s")]
    assert got == ["i-s:snowstorm:die:0"]  # only the blue spell can be paid
    pick(st, "i-s:snowstorm:die:0")
    s = st["seats"][0]
    assert s["deck"][-1] == "snowstorm" and st["turn"]["pool"]["influence"] == 0
    assert "snowstorm" not in st["offers"]["spells"] and "flame_wall" in st["offers"]["spells"]  # refilled


def test_unconquered_mage_tower_has_no_locals():
    st = at("mage_tower")
    assert "t-interact" not in ids(st)


def test_interacting_is_the_action():
    """Interaction is the turn's action: no moving afterwards; no interacting after another action."""
    st = at("village", hand=("wound", "march"))
    st["turn"]["pool"]["influence"] = 3
    st["turn"]["pool"]["move"] = 5
    pick(st, "t-interact")
    pick(st, "i-h")
    pick(st, "t-back")
    assert not [i for i in ids(st) if i.startswith("t-move")]
    st = at("village", hand=("wound", "march"))
    st["turn"]["acted"] = True
    st["turn"]["action"] = "challenge"
    assert "t-interact" not in ids(st)


def test_disbanding_a_unit_makes_room_to_recruit():
    """Rulebook: with no free Command token "you may disband one of your Units" (removed from the game) to
    recruit a new one."""
    st = at("village")
    st["seats"][0]["units"] = [{"id": "herbalist", "ready": True, "wounded": False, "uid": 5}]
    st["turn"]["pool"]["influence"] = 20
    pick(st, "t-interact")
    assert "i-r:peasants" not in ids(st)
    labels = dict((o.id, o.label) for o in __import__("games.engines.mage_knight.turn", fromlist=["x"])
                  .options(st, 0)[1])
    assert labels["i-d:peasants:5"] == "recruit Peasants (4), disbanding Herbalist"
    pick(st, "i-d:peasants:5")
    s = st["seats"][0]
    assert [u["id"] for u in s["units"]] == ["peasants"]
    assert "herbalist" not in st["offers"]["units"] and st["turn"]["pool"]["influence"] == 16


def test_plunder_a_village_before_the_turn():
    """Village "plunder" (sites.json interaction: draw 2 cards, Reputation -1), played "before your turn":
    at the start of one's own turn, once."""
    st = at("village", deck=("rage", "march", "stamina"), reputation=1)
    assert "t-plunder" in ids(st)
    pick(st, "t-plunder")
    s = st["seats"][0]
    assert s["reputation"] == 0 and len(s["hand"]) == 3 and len(s["deck"]) == 1
    assert "t-plunder" not in ids(st)
    assert "t-rest" in ids(st)  # plundering is before the turn: resting is still open


def test_no_plunder_after_acting_or_elsewhere():
    st = at("village")
    st["turn"]["started"] = True
    assert "t-plunder" not in ids(st)
    assert "t-plunder" not in ids(at("monastery"))
    assert "t-plunder" not in ids(at("village", deck=()))  # nothing to draw
