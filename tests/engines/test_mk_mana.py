"""Mage Knight mana (mana.py): the Source, crystals, tokens, gold by day and black by night."""

from __future__ import annotations

from games.engines.mage_knight import mana
from games.engines.rng import Rng
from tests.engines.test_mk_turn import ids, make_state, pick, play, started


def test_one_die_per_turn():
    """"Each turn, you may take one Mana Die from the source" -- after one, no die pays any more."""
    st = started(hand=("march", "stamina"), dice=("green", "blue", "blue"))
    play(st, "march", "t-pw:die:0")
    assert mana.dice_left(st) == 0
    pick(st, "t-play:stamina")
    assert not [i for i in ids(st) if i.startswith("t-pw")]


def test_a_taken_die_is_used_at_once():
    """"... but you must use it": a die is only taken to pay a cost, so it is always used."""
    st = started(hand=("march",), dice=("green",))
    pick(st, "t-play:march")
    pick(st, "t-pw:die:0")
    assert st["source"]["taken"] == [0] and st["turn"]["die_taken"]
    assert st["turn"]["pool"]["move"] == 4


def test_die_returns_rerolled_at_end_of_turn():
    """"At the end of your turn, reroll and return it to the source." """
    st = started(hand=("march",), dice=("green", "white"), deck=())
    play(st, "march", "t-pw:die:0")
    expected = mana.DIE_FACES[Rng(st["rng"]).below(6)]  # the end of turn's first roll is the die's
    pick(st, "t-end")
    assert st["source"]["taken"] == [] and st["source"]["dice"] == [expected, "white"]


def test_gold_is_any_basic_colour_by_day_only():
    """"Gold Mana: During the day, it can be used as any basic mana color." """
    assert all(mana.stands_for("gold", c, "day") for c in mana.BASIC)
    assert not any(mana.stands_for("gold", c, "night") for c in mana.BASIC)
    assert not mana.stands_for("gold", "black", "day")
    st = started(hand=("march",), dice=("gold",))
    pick(st, "t-play:march")
    assert "t-pw:die:0" in ids(st)
    st = started(hand=("march",), dice=("gold",), time="night")
    pick(st, "t-play:march")
    assert "t-pw:die:0" not in ids(st)


def test_black_only_at_night_and_only_as_black():
    """"Black Mana: During the night, it powers some effects" -- never a basic colour."""
    assert mana.stands_for("black", "black", "night")
    assert not mana.stands_for("black", "black", "day")
    assert not any(mana.stands_for("black", c, "night") for c in mana.BASIC)


def test_crystals_max_three_per_colour():
    """"Crystals: Mana Tokens in your inventory (max 3 of each basic color)." """
    st = started(crystals={"red": 2})
    s = st["seats"][0]
    assert mana.crystal_gain(s, "red", st["turn"])
    assert s["crystals"]["red"] == 3
    assert not mana.crystal_gain(s, "red", st["turn"])
    assert s["crystals"]["red"] == 3 and st["turn"]["tokens"] == ["red"]  # kept as a token this turn


def test_crystal_converts_to_mana_any_time():
    """"You can convert them to Pure Mana at any point during your turn." """
    st = started(hand=("march",), dice=("red",), crystals={"green": 1})
    play(st, "march", "t-pw:crystal:green")
    assert st["seats"][0]["crystals"]["green"] == 0 and st["turn"]["pool"]["move"] == 4
    assert st["source"]["taken"] == []  # the die is still there for another card


def test_tokens_vanish_at_end_of_turn():
    """"Pure Mana ... You must use it by the end of your turn." """
    st = started(hand=("concentration",), deck=())
    play(st, "concentration", "t-basic", "fx:0")
    assert st["turn"]["tokens"] == ["blue"]
    pick(st, "t-end")
    assert st["turn"] is None
    assert st["seats"][0]["crystals"] == {"red": 0, "blue": 0, "green": 0, "white": 0}


def test_a_token_pays_like_a_die_but_leaves_the_die():
    """Tokens are pure mana: paying with one leaves the turn's die free."""
    st = started(hand=("concentration", "stamina"), dice=("blue",))
    play(st, "concentration", "t-basic", "fx:0")  # a blue token
    pick(st, "t-play:stamina")
    assert "t-pw:token:blue" in ids(st) and "t-pw:die:0" in ids(st)
    pick(st, "t-pw:token:blue")
    assert st["turn"]["tokens"] == [] and mana.dice_left(st) == 1


def test_source_reroll_keeps_half_basic():
    """"Reroll any black or gold dice until at least half of the displayed dice show basic colors." """
    for seed in range(200):
        st = make_state(dice=("gold",) * 5)
        st["rng"] = seed
        mana.reroll_source(st)
        dice = st["source"]["dice"]
        assert 2 * sum(d in mana.BASIC for d in dice) >= len(dice)
        assert st["source"]["taken"] == []


def test_mana_draw_adds_a_die_this_turn():
    """Mana Draw basic: "you may take 1 extra die from the Source this turn"."""
    st = started(hand=("mana_draw", "march", "stamina"), dice=("green", "blue"))
    play(st, "mana_draw", "t-basic")
    play(st, "march", "t-pw:die:0")
    pick(st, "t-play:stamina")
    assert "t-pw:die:1" in ids(st)


def test_payments_for_two_needs_use_one_die_at_most():
    """A spell's strong effect needs its colour and black; one die per turn still holds."""
    st = started(dice=("red", "black"), time="night")
    assert mana.payments(st, 0, ["red", "black"]) == []  # both would need a die
    st["seats"][0]["crystals"]["red"] = 1
    assert mana.payments(st, 0, ["red", "black"]) == [["crystal:red", "die:1"]]


def test_return_dice_keeps_a_set_colour():
    """Mana Draw powered: "the die returns without reroll"."""
    st = started(dice=("red", "blue"))
    st["source"]["taken"] = [0, 1]
    mana.return_dice(st, {"0": "white"})
    assert st["source"]["dice"][0] == "white" and st["source"]["taken"] == []
