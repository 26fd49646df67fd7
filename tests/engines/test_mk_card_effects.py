"""Mage Knight: cards that used to be simplified, played as printed (the shared data's card summaries).

Each test quotes the card text it checks (``summary`` in /work/shared/data/mage-knight/*.json).
"""

from __future__ import annotations

from games.engines.mage_knight import cards, endturn, invariants, turn
from tests.engines.test_mk_turn import cell, ids, make_state, pick, play, started


def labels(st, seat=0):
    return {o.id: o.label for o in turn.options(st, seat)[1]}


# ---------------------------------------------------------------- Concentration / Will Focus

def test_concentration_bonus_is_given_once_on_one_effect():
    """Concentration powered: "play together with another Action card: use that card's powered effect for
    free, +2 if it gives Move/Influence/Block/Attack" -- the +2 once, on the one effect the card gives."""
    st = started(hand=("concentration", "ambush", "march"), dice=("green",))
    play(st, "concentration", "t-pw:die:0")
    play(st, "ambush", "t-pw")  # Move 4 (+2) and the first Attack/Block card gets a bonus
    assert st["turn"]["pool"]["move"] == 6
    assert "bonus" not in st["turn"]
    play(st, "march", "t-basic")  # the next card gets nothing more
    assert st["turn"]["pool"]["move"] == 8


def test_concentration_bonus_goes_to_the_chosen_effect_only():
    """Concentration powered: "+2 if it gives Move/Influence/Block/Attack" -- on the branch chosen."""
    st = started(hand=("concentration", "tranquility"), dice=("green",), deck=("rage", "rage", "march"))
    play(st, "concentration", "t-pw:die:0")
    play(st, "tranquility", "t-pw")  # Heal 2 | draw 2: no Move/Influence/Attack/Block, no bonus
    assert "bonus" not in st["turn"] and st["turn"]["pool"]["move"] == 0


def test_concentration_is_offered_only_with_an_action_card_of_use():
    """Concentration powered: "play together with another Action card" -- with none of use, not offered."""
    st = started(hand=("concentration", "rage"), dice=("green",))  # Rage powered: Attack 4, no use outside combat
    pick(st, "t-play:concentration")
    assert not [i for i in ids(st) if i.startswith("t-pw")]


def test_will_focus_gives_plus_three_once():
    """Will Focus powered: "like Concentration's powered effect but +3 instead of +2"."""
    st = started(hand=("goldyx_will_focus", "promise"), dice=("green",))
    play(st, "goldyx_will_focus", "t-pw:die:0")
    pick(st, "t-play:promise")
    assert "+3" in labels(st)["t-pw"]
    pick(st, "t-pw")
    assert st["turn"]["pool"]["influence"] == 7


# ---------------------------------------------------------------- Noble Manners

def _at_village(hand, **kw):
    return started(hand=hand, hexes={"0,0": cell("plains", "village")}, **kw)


def test_noble_manners_fame_only_if_the_influence_is_used():
    """Noble Manners basic: "Influence 2; +1 Fame at end of turn if used in an interaction"."""
    st = started(hand=("norowas_noble_manners",))
    play(st, "norowas_noble_manners", "t-basic")
    assert st["turn"]["pool"]["influence"] == 2 and st["seats"][0]["fame"] == 0
    pick(st, "t-end")
    assert st["seats"][0]["fame"] == 0  # never used in an interaction: no Fame


def test_noble_manners_powered_fame_and_reputation_after_an_interaction():
    """Noble Manners powered: "Influence 4; +1 Fame and +1 Reputation at end of turn if used in an
    interaction"."""
    st = _at_village(("norowas_noble_manners",), dice=("white",), deck=("rage",) * 6)
    st["seats"][0]["hand"].append(cards.WOUND)
    play(st, "norowas_noble_manners", "t-pw:die:0")
    assert st["seats"][0]["fame"] == 0 and st["seats"][0]["reputation"] == 0  # not at once
    pick(st, "t-interact")
    pick(st, "i-h")  # buy 1 Healing (3)
    assert st["seats"][0]["fame"] == 0
    pick(st, "t-back")
    pick(st, "t-end")
    assert st["seats"][0]["fame"] == 1 and st["seats"][0]["reputation"] == 1


def test_noble_manners_played_after_the_last_purchase_gives_nothing():
    """Noble Manners: "+1 Fame at end of turn if used in an interaction": played after the purchase, its
    Influence is not used."""
    st = _at_village(("promise", "norowas_noble_manners"), deck=("rage",) * 6)
    st["seats"][0]["hand"].append(cards.WOUND)
    play(st, "promise", "t-basic")
    st["turn"]["pool"]["influence"] += 1  # 3 in all, for the Healing
    pick(st, "t-interact")
    pick(st, "i-h")
    pick(st, "t-back")
    play(st, "norowas_noble_manners", "t-basic")
    pick(st, "t-end")
    assert st["seats"][0]["fame"] == 0
