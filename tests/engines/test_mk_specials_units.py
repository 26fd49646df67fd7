"""Mage Knight: the Unit specials of the cards (specials_units.py), played as printed: Rebirth (Restoration
powered) readies Units, Energy Flow and Energy Steal.

Each test quotes the card text it checks (``summary`` in /work/shared/data/mage-knight/*.json) and plays the card
through the turn's picks.
"""

from __future__ import annotations

from tests.engines.test_mk_combat_effects import cast, spell
from tests.engines.test_mk_turn import cell, ids, pick


def _choices(st):
    return [i for i in ids(st) if i.startswith("fx:")]


# ---------------------------------------------------------------- Restoration / Rebirth

def _spent(st, *unit_ids):
    st["seats"][0]["units"] = [{"id": u, "ready": False, "wounded": False, "uid": i + 1} for i, u in enumerate(unit_ids)]


def test_rebirth_readies_units_up_to_a_total_level_of_three():
    """Rebirth: "Heal 3 (5 in forest) and ready Units with total level up to 3 (5 in forest)"."""
    st = spell(("restoration",), ("green", "black"), time="night")
    _spent(st, "peasants", "utem_guardsmen", "guardian_golems")  # levels 1, 2, 2
    st["seats"][0]["hand"].append("wound")
    cast(st, "restoration", powered=True)
    assert _choices(st)[-1] == "fx:done" and "fx:2" in _choices(st)
    pick(st, "fx:2")  # level 2: 1 left
    assert _choices(st) == ["fx:1", "fx:done"]
    pick(st, "fx:1")
    units = st["seats"][0]["units"]
    assert [u["ready"] for u in units] == [True, True, False]
    assert "wound" not in st["seats"][0]["hand"] and "rebirth_left" not in st["turn"]  # the Heal 3 too


def test_rebirth_in_a_forest_readies_up_to_five_levels():
    """Rebirth: "... (5 in forest)"."""
    st = spell(("restoration",), ("green", "black"), time="night", hexes={"0,0": cell("forest")})
    _spent(st, "utem_guardsmen", "guardian_golems", "peasants")
    cast(st, "restoration", powered=True)
    pick(st, "fx:1")
    pick(st, "fx:2")
    pick(st, "fx:3")
    assert all(u["ready"] for u in st["seats"][0]["units"])


# ---------------------------------------------------------------- Energy Flow / Energy Steal

def _energy_game(time="night"):
    from tests.engines.test_mk_turn import started
    st = started(hand=("energy_flow",), dice=("black",) if time == "night" else ("green",), time=time, players=3,
                 crystals={"green": 1} if time == "night" else None)
    st["seats"][0]["units"] = [{"id": "peasants", "ready": False, "wounded": False, "uid": 1}]
    st["seats"][1]["units"] = [{"id": "guardian_golems", "ready": True, "wounded": False, "uid": 2},
                               {"id": "amotep_freezers", "ready": True, "wounded": False, "uid": 3}]
    st["seats"][2]["units"] = [{"id": "amotep_freezers", "ready": True, "wounded": False, "uid": 4}]
    return st


def test_energy_flow_readies_a_unit_and_may_spend_another_players_low_unit():
    """Energy Flow: "ready a Unit; if you do, you may spend one level I-II Unit of each other player"."""
    st = _energy_game(time="day")
    cast(st, "energy_flow")
    assert st["seats"][0]["units"][0]["ready"]
    assert _choices(st) == ["fx:1>none", "fx:1>2"]  # level III Freezers are out of reach; Seat 3 has none
    ev = pick(st, "fx:1>2")
    assert not st["seats"][1]["units"][0]["ready"] and st["seats"][1]["units"][1]["ready"]
    assert any("spends Seat 2's Guardian Golems" in e.text for e in ev)  # public
    assert st["turn"]["queue"] == [] and st["turn"]["pending"] is None


def test_energy_steal_reaches_level_three_units_of_each_other_player():
    """Energy Steal: "ready and heal a Unit; may spend one level I-III Unit of each other player"."""
    st = _energy_game()
    st["seats"][0]["units"][0]["wounded"] = True
    cast(st, "energy_flow", powered=True)
    assert not st["seats"][0]["units"][0]["wounded"] and st["seats"][0]["units"][0]["ready"]
    assert _choices(st) == ["fx:1>none", "fx:1>2", "fx:1>3"]
    pick(st, "fx:1>none")
    assert _choices(st) == ["fx:2>none", "fx:2>4"]  # then the next player
    pick(st, "fx:2>4")
    assert not st["seats"][2]["units"][0]["ready"] and all(u["ready"] for u in st["seats"][1]["units"])
