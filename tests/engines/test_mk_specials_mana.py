"""Mage Knight: the mana specials of the cards (specials_mana.py), played as printed: Blood Ritual, Mana Claim
and Mana Curse, the Rings, Endless Gem Pouch, the Amulets, Mana Storm; and random games with the cards of the
specials_* tests in every deck.

Each test quotes the card text it checks (``summary`` in /work/shared/data/mage-knight/*.json) and plays the card
through the turn's picks.
"""

from __future__ import annotations

from games.engines.mage_knight import movement, rounds, view
from tests.engines.test_mk_combat_effects import cast, spell
from tests.engines.test_mk_turn import cell, ids, pick, play
from tests.engines.mk_random_games import play_random_games_with


def _choices(st):
    return [i for i in ids(st) if i.startswith("fx:")]


# ---------------------------------------------------------------- Blood Ritual

def test_blood_ritual_powered_may_turn_a_token_into_a_crystal():
    """Blood Ritual powered: "take a Wound; gain 3 mana tokens of any colours" (MKD: "adds an optional
    mana-to-crystal conversion")."""
    from tests.engines.test_mk_turn import started
    st = started(hand=("blood_ritual",), dice=("red",))
    play(st, "blood_ritual", "t-pw:die:0", "fx:1", "fx:1", "fx:4")  # blue, blue, gold
    assert _choices(st) == ["fx:keep", "fx:blue"]  # gold is no basic colour: no gold crystal
    pick(st, "fx:blue")
    s = st["seats"][0]
    assert s["crystals"]["blue"] == 1 and sorted(st["turn"]["tokens"]) == ["blue", "gold"]
    assert s["hand"].count("wound") == 1


def test_blood_ritual_powered_keeping_the_tokens():
    """Blood Ritual powered: the conversion is optional ("keep the tokens" is the first, default, pick)."""
    from tests.engines.test_mk_turn import started
    st = started(hand=("blood_ritual",), dice=("red",))
    play(st, "blood_ritual", "t-pw:die:0", "fx:0", "fx:0", "fx:0", "fx:keep")
    assert st["turn"]["tokens"] == ["red"] * 3 and st["seats"][0]["crystals"]["red"] == 0


# ---------------------------------------------------------------- Mana Claim / Mana Curse

def test_mana_claim_takes_the_die_for_three_tokens_now():
    """Mana Claim: "take a basic-coloured Source die until end of Round: gain 3 tokens of its colour now, or 1 token
    each turn for the rest of the Round"."""
    st = spell(("mana_claim",), ("blue", "red"))
    cast(st, "mana_claim")
    assert _choices(st) == ["fx:1>now", "fx:1>turns"]  # the blue die paid for the spell
    pick(st, "fx:1>now")
    s = st["seats"][0]
    assert st["turn"]["tokens"] == ["red"] * 3
    assert st["source"]["dice"] == ["blue"] and st["source"]["taken"] == [0]  # the red die left the Source
    assert s["claimed"] == {"colour": "red", "each_turn": False, "curse": False}
    assert view._hero(st, 0)["claimed_die"]["colour"] == "red"  # public


def test_mana_claim_one_token_each_turn_until_the_round_ends():
    """Mana Claim: "... or 1 token each turn for the rest of the Round"."""
    from games.engines.mage_knight import turn
    from games.engines.rng import Rng
    st = spell(("mana_claim",), ("blue", "green"), deck=("rage",) * 8)
    cast(st, "mana_claim")
    pick(st, "fx:1>turns")
    assert st["turn"]["tokens"] == ["green"]
    pick(st, "t-end")
    turn.start(st, 0, [])
    assert st["turn"]["tokens"] == ["green"]  # the next turn's token
    st["turn"] = None
    st["round"], st["round_sequence"] = 1, ["day", "night"]
    rounds.prepare_seats(st, Rng(3), [])
    assert "claimed" not in st["seats"][0]


def test_mana_curse_wounds_another_player_using_that_colour_once_a_turn():
    """Mana Curse: "as basic; also other players using that colour take a Wound (max 1 per turn) until end of
    Round"."""
    from games.engines.mage_knight import mana, turn
    from tests.engines.test_mk_turn import started
    st = started(hand=("mana_claim",), dice=("black", "green"), time="night", crystals={"blue": 1}, players=2)
    cast(st, "mana_claim", powered=True)
    pick(st, "fx:1>now")
    assert st["seats"][0]["claimed"]["curse"] and st["seats"][0]["hand"].count("wound") == 0  # not the caster
    st["turn"] = None
    other = st["seats"][1]
    other["hand"], other["crystals"]["green"], other["pos"] = ["march"], 2, "0,1"
    turn.start(st, 1, [])
    pick(st, "t-play:march", seat=1)
    ev = pick(st, "t-pw:crystal:green", seat=1)
    assert other["hand"].count("wound") == 1
    assert any("Mana Curse" in e.text for e in ev)
    mana.pay(st, 1, "crystal:green")  # a second green mana this turn: no second Wound
    assert other["hand"].count("wound") == 1


# ---------------------------------------------------------------- the Rings

def test_sapphire_ring_thrown_away_gives_unlimited_blue_and_black_mana_and_fame_per_blue_spell():
    """Sapphire Ring (thrown away): "unlimited blue and black mana this turn; Fame +1 per blue Spell cast this
    turn"."""
    st = spell(("sapphire_ring", "space_bending", "mana_claim"), ("green",), time="night",
               deck=("rage",) * 6)
    play(st, "sapphire_ring", "t-pw")
    assert "sapphire_ring" in st["seats"][0]["removed"]
    pick(st, "t-play:space_bending")
    assert "t-pw:endless:blue/endless:black" in ids(st)
    pick(st, "t-pw:endless:blue/endless:black")  # Time Bending with the Ring's mana
    cast(st, "mana_claim")  # a second blue Spell, the Ring's mana again
    pick(st, "fx:0>now")
    assert st["seats"][0]["crystals"]["blue"] == 0 and st["turn"]["tokens"] == ["green"] * 3
    fame = st["seats"][0]["fame"]
    pick(st, "t-end")
    assert st["seats"][0]["fame"] == fame + 2  # two blue Spells


def test_ring_mana_black_only_at_night():
    """Sapphire Ring: "unlimited blue and black mana" -- black still powers only a Spell's strong effect at night."""
    st = spell(("sapphire_ring", "space_bending"), ("green",), time="day")
    play(st, "sapphire_ring", "t-pw")
    pick(st, "t-play:space_bending")
    got = ids(st)
    assert "t-basic:endless:blue" in got and not [i for i in got if i.startswith("t-pw")]


# ---------------------------------------------------------------- Endless Gem Pouch

def test_endless_gem_pouch_gold_roll_is_a_crystal_of_your_choice():
    """Endless Gem Pouch: "roll a mana die twice: crystal of each rolled colour (gold = your choice, black = Fame +1
    instead)"."""
    from games.engines.mage_knight import mana as mana_mod
    from tests.engines.test_mk_turn import started
    st = started(hand=("endless_gem_pouch",), crystals={"red": 2})
    faces = iter(["gold", "gold"])
    real = mana_mod.roll
    mana_mod.roll = lambda state: next(faces)
    try:
        play(st, "endless_gem_pouch", "t-basic")
    finally:
        mana_mod.roll = real
    assert _choices(st)[0] in ("fx:blue", "fx:green", "fx:white") and "fx:red" in _choices(st)  # fewest first
    pick(st, "fx:red")
    pick(st, "fx:white")
    assert st["seats"][0]["crystals"] == {"red": 3, "blue": 0, "green": 0, "white": 1}


# ---------------------------------------------------------------- the Amulets

def test_amulet_of_the_sun_at_night_makes_gold_usable_and_forests_cost_three():
    """Amulet of the Sun: "gain a gold mana token; at Night also: forests cost 3, gold mana usable, fortified-site
    garrisons and ruins revealed as by Day"."""
    from games.engines.mage_knight import turn
    from tests.engines.test_mk_turn import started
    ruins = cell("plains", "ancient_ruins", ruins={"id": "1", "face_up": False})
    st = started(hand=("amulet_of_the_sun", "march"), time="night", dice=(),
                 hexes={"1,0": cell("forest"), "0,1": ruins})
    assert movement.move_cost(st, "1,0") == 5
    play(st, "amulet_of_the_sun", "t-basic")
    assert st["turn"]["tokens"] == ["gold"] and movement.move_cost(st, "1,0") == 3
    assert st["map"]["hexes"]["0,1"]["ruins"]["face_up"]
    pick(st, "t-play:march")
    assert "t-pw:token:gold" in ids(st)  # gold pays for green at Night now


def test_amulet_of_the_sun_by_day_is_only_the_token():
    """Amulet of the Sun: "at Night also" -- by Day only the gold token."""
    from tests.engines.test_mk_turn import started
    st = started(hand=("amulet_of_the_sun",), hexes={"1,0": cell("desert")})
    play(st, "amulet_of_the_sun", "t-basic")
    assert "amulet" not in st["turn"] and "terrain" not in st["turn"]


def test_amulet_of_darkness_by_day_black_mana_powers_a_spell():
    """Amulet of Darkness: "gain a mana token of any colour; by Day also: deserts cost 3 and black mana usable as
    at Night"."""
    from games.engines.mage_knight import turn
    from tests.engines.test_mk_turn import started
    st = started(hand=("amulet_of_darkness", "space_bending"), dice=(), crystals={"blue": 1},
                 hexes={"1,0": cell("desert")})
    play(st, "amulet_of_darkness", "t-basic", "fx:5")  # a black token
    assert movement.move_cost(st, "1,0") == 3
    pick(st, "t-play:space_bending")
    assert "t-pw:crystal:blue/token:black" in ids(st) or "t-pw:token:black/crystal:blue" in ids(st)


# ---------------------------------------------------------------- Mana Storm

def test_mana_storm_powered_rerolls_and_black_gold_dice_are_any_colour():
    """Mana Storm powered: "reroll all Source dice; you may use 3 extra dice and black/gold dice count as any basic
    colour this turn"."""
    from games.engines.mage_knight import mana as mana_mod
    from tests.engines.test_mk_turn import started
    st = started(hand=("mana_storm", "march", "rage", "promise"), dice=("white", "red", "red", "red"),
                 time="night")
    faces = iter(["black", "gold", "blue"])
    real = mana_mod.roll
    mana_mod.roll = lambda state: next(faces)
    try:
        play(st, "mana_storm", "t-pw:die:0")
    finally:
        mana_mod.roll = real
    assert st["source"]["dice"] == ["white", "black", "gold", "blue"]  # the free dice rerolled
    pick(st, "t-play:march")
    assert "t-pw:die:1" in ids(st) and "t-pw:die:2" in ids(st)  # black and gold as green, at Night
    pick(st, "t-pw:die:1")
    play(st, "promise", "t-pw:die:2")  # a third die this turn (white)
    assert st["turn"]["dice_used"] == 3 and st["turn"]["pool"]["move"] == 4


# ---------------------------------------------------------------- in real games

NEW_CARDS = ("space_bending", "underground_travel", "wings_of_wind", "mana_claim", "mana_storm", "blood_ritual",
             "song_of_wind", "restoration", "sapphire_ring", "emerald_ring", "ruby_ring", "diamond_ring",
             "amulet_of_darkness", "amulet_of_the_sun", "endless_gem_pouch", "energy_flow", "mana_meltdown")


def test_random_games_with_these_cards_keep_the_invariants_and_secrets():
    """Every seat starts with some of these cards in its deed deck and a Unit: random games still end, card
    conservation holds at every step (Time Bending's set-aside card included) and no view carries a secret."""
    play_random_games_with(NEW_CARDS, every_seat=True)
