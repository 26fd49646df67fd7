"""Mage Knight: more cards that used to be simplified, played as printed (the shared data's card summaries).

Each test quotes the card text it checks (``summary`` in /work/shared/data/mage-knight/*.json).
"""

from __future__ import annotations

from games.engines.mage_knight import movement, plays, rounds, view
from games.engines.mage_knight.enemies import ENEMIES
from tests.engines.test_mk_combat_effects import cast, enemy, fight, modes, spell
from tests.engines.test_mk_turn import cell, ids, pick, play
from tests.engines.mk_random_games import play_random_games_with


def _choices(st):
    return [i for i in ids(st) if i.startswith("fx:")]


def _rampaging(enemy_id="prowlers"):
    return cell("plains", enemies=[{"id": enemy_id, "colour": ENEMIES[enemy_id].colour, "face_up": True}],
                rampaging=True)


# ---------------------------------------------------------------- Space Bending / Time Bending

def test_space_bending_moves_to_a_space_two_away():
    """Space Bending: "this turn, spaces 2 away count as adjacent for moving and exploring; no provoking"."""
    st = spell(("space_bending", "march"), ("blue",), hexes={"2,0": cell("plains")})
    play(st, "march", "t-basic")
    assert "t-move:2,0" not in ids(st)  # not adjacent without the spell
    cast(st, "space_bending")
    assert "t-move:2,0" in ids(st)
    pick(st, "t-move:2,0")
    assert st["seats"][0]["pos"] == "2,0" and st["turn"]["pool"]["move"] == 0


def test_space_bending_moves_do_not_provoke():
    """Space Bending: "... no provoking" -- passing a rampaging enemy starts no combat."""
    st = spell(("space_bending", "march"), ("blue",), hexes={"1,-1": _rampaging()})
    cast(st, "space_bending")
    play(st, "march", "t-basic")
    pick(st, "t-move:1,0")  # 1,-1 is adjacent to both spaces: a plain move would provoke it
    assert st["combat"] is None and st["seats"][0]["pos"] == "1,0"


def test_space_bending_explores_two_away():
    """Space Bending: "spaces 2 away count as adjacent for moving and exploring"."""
    from games.engines.mage_knight import hexmap
    from games.engines.rng import Rng
    m, _ = hexmap.new_map(2, Rng(1), lambda colour: None)
    found = False
    for k in m["hexes"]:
        near, far = set(hexmap.explore_options(m, k)), set(hexmap.explore_options(m, k, far=True))
        assert near <= far
        for c in far - near:  # a hex of the new tile two steps away, none adjacent
            found = True
            tile = set(hexmap.tile_hexes(c))
            assert any(hexmap.distance(k, t) == 2 for t in tile) and not any(hexmap.distance(k, t) == 1 for t in tile)
    assert found


def test_time_bending_returns_the_played_cards_and_gives_another_turn():
    """Time Bending: "set this card aside for the Round, return the other cards played this turn to hand, skip
    drawing, and take another turn immediately"."""
    st = spell(("space_bending", "march", "rage"), ("blue", "black"), time="night", deck=("stamina", "swiftness"))
    play(st, "march", "t-basic")
    cast(st, "space_bending", powered=True)
    pick(st, "t-end")
    s = st["seats"][0]
    assert st["turn"] is None
    assert sorted(s["hand"]) == ["march", "rage"]  # March back in hand, no draw
    assert s["deck"] == ["stamina", "swiftness"] and s["discard"] == []
    assert s["set_aside"] == ["space_bending"]
    assert st["tactics"]["time_bent"] == 0
    st["turn_at"], st["final_turns"] = 0, None
    assert rounds.next_actor(st) == 0  # the same seat goes again
    assert view._hero(st, 0)["set_aside"] == ["space_bending"]  # face up, public


def test_time_bending_not_offered_after_the_end_of_the_round_was_announced():
    """Time Bending: "take another turn immediately" -- no turn is left to take once the round's end is announced."""
    st = spell(("space_bending",), ("blue", "black"), time="night")
    st["end_announced_by"] = 0
    pick(st, "t-play:space_bending")
    assert not [i for i in ids(st) if i.startswith("t-pw")]


def test_time_bending_card_goes_back_into_the_deck_next_round():
    """Time Bending: "set this card aside for the Round" -- it is shuffled in with the others at the next Round."""
    from games.engines.rng import Rng
    st = spell(("space_bending", "march"), ("blue", "black"), time="night", deck=("stamina",))
    cast(st, "space_bending", powered=True)
    pick(st, "t-end")
    rounds.prepare_seats(st, Rng(5), [])
    s = st["seats"][0]
    assert "set_aside" not in s and "space_bending" in s["deck"] + s["hand"]


# ---------------------------------------------------------------- Underground Travel / Underground Attack

def test_underground_travel_moves_three_spaces_without_move_points():
    """Underground Travel: "move up to 3 revealed spaces, not into or through swamps/lakes, ending on a safe space;
    does not provoke"."""
    st = spell(("underground_travel",), ("green",), hexes={"2,0": cell("mountain"), "3,0": cell("plains"),
                                                          "1,-1": _rampaging()})
    cast(st, "underground_travel")
    assert "fx:3,0" in _choices(st) and "fx:2,0" not in _choices(st)  # a mountain is no safe space
    pick(st, "fx:3,0")
    assert st["seats"][0]["pos"] == "3,0" and st["combat"] is None and st["turn"]["pool"]["move"] == 0


def test_underground_travel_not_through_lakes():
    """Underground Travel: "not into or through swamps/lakes"."""
    st = spell(("underground_travel",), ("green",), hexes={"1,0": cell("lake"), "2,0": cell("plains"),
                                                          "0,1": cell("swamp")})
    pick(st, "t-play:underground_travel")
    pick(st, next(i for i in ids(st) if i.startswith("t-basic")))
    got = _choices(st) or [f"fx:{st['seats'][0]['pos']}"]
    assert "fx:2,0" not in got and "fx:1,0" not in got and "fx:0,1" not in got


def test_underground_attack_assaults_a_keep_ignoring_its_fortification():
    """Underground Attack: "same movement but must end on a fortified site ..., starting an assault that ignores
    site fortification; return to start if withdrawing"."""
    keep = cell("plains", "keep", enemies=[{"id": "guardsmen", "colour": "gray", "face_up": False}])
    st = spell(("underground_travel",), ("green", "black"), time="night", hexes={"2,0": keep})
    st["enemies"]["piles"]["gray"].remove("guardsmen")
    cast(st, "underground_travel", powered=True)
    if _choices(st):
        pick(st, "fx:2,0")
    c = st["combat"]
    assert st["seats"][0]["pos"] == "2,0" and c is not None
    assert c["site_unfortified"] and c["context"]["return_to"] == "0,0"
    assert st["seats"][0]["reputation"] == -1  # "Every time you make an assault, you lose 1 Reputation"


def test_underground_attack_not_offered_without_a_fortified_site_in_reach():
    """Underground Attack: "must end on a fortified site" -- with none in reach the spell is not offered powered."""
    st = spell(("underground_travel",), ("green", "black"), time="night")
    pick(st, "t-play:underground_travel")
    assert not [i for i in ids(st) if i.startswith("t-pw")]


# ---------------------------------------------------------------- Wings of Wind / Wings of Night

def test_wings_of_wind_flies_over_a_lake_for_move_points():
    """Wings of Wind: "spend 1-5 Move points to fly that many revealed spaces, ending on a safe space; no
    provoking"."""
    st = spell(("wings_of_wind", "march"), ("white",), hexes={"1,0": cell("lake"), "2,0": cell("plains"),
                                                             "1,-1": _rampaging()})
    pick(st, "t-play:wings_of_wind")
    assert not [i for i in ids(st) if i.startswith("t-basic")]  # no Move points yet: of no use
    pick(st, "t-back")
    play(st, "march", "t-basic")
    cast(st, "wings_of_wind")
    assert "fx:2,0" in _choices(st) and "fx:1,0" not in _choices(st)  # a lake is no safe space to end on
    pick(st, "fx:2,0")
    assert st["seats"][0]["pos"] == "2,0" and st["turn"]["pool"]["move"] == 0 and st["combat"] is None


def test_wings_of_night_one_enemy_free_then_move_points():
    """Wings of Night: "one enemy does not attack; extra enemies cost 1, 2, 3... Move points each"."""
    st = spell(("wings_of_wind", "march"), ("white", "black"), time="night")
    fight(st, ["prowlers", "diggers", "cursed_hags"])
    cast(st, "wings_of_wind", powered=True)
    pick(st, "fx:0")
    assert enemy(st, 0)["skip"]
    assert not [i for i in ids(st) if i.startswith("t-wings")]  # no Move points yet
    play(st, "march", "t-basic")  # Move cards may be played in combat to pay for more enemies
    assert st["turn"]["pool"]["move"] == 2
    pick(st, "t-wings:1")  # the second enemy: 1 Move
    assert enemy(st, 1)["skip"] and st["turn"]["pool"]["move"] == 1
    assert not [i for i in ids(st) if i.startswith("t-wings")]  # the third costs 2


def test_move_cards_are_not_offered_in_combat_without_wings_of_night():
    """"Effects of no use now are not offered": Move in combat only pays Wings of Night."""
    st = spell(("march",), ("white",))
    fight(st, ["prowlers"])
    assert "t-play:march" not in ids(st) or not [i for i in turn_modes(st, "march") if i.startswith("t-basic")]


def turn_modes(st, card):
    from games.engines.mage_knight import turn
    return [i for i, _ in plays.card_modes(st, 0, card)]


# ---------------------------------------------------------------- Song of Wind

def test_song_of_wind_powered_pays_blue_to_cross_lakes():
    """Song of Wind powered: "Move 2; plains, deserts and wastelands cost 2 less (min 0); may pay a blue mana to
    cross lakes at cost 0 this turn"."""
    from tests.engines.test_mk_turn import started
    st = started(hand=("song_of_wind",), dice=("white",), crystals={"blue": 1}, hexes={"1,0": cell("lake")})
    play(st, "song_of_wind", "t-pw:die:0")
    assert "t-move:1,0" not in ids(st)
    pick(st, "t-lakes:crystal:blue")
    assert st["seats"][0]["crystals"]["blue"] == 0
    assert not [i for i in ids(st) if i.startswith("t-lakes")]  # once: lakes cost 0 for the rest of the turn
    pick(st, "t-move:1,0")
    assert st["seats"][0]["pos"] == "1,0" and st["turn"]["pool"]["move"] == 2


def test_song_of_wind_lake_crossing_not_offered_without_a_lake_or_blue_mana():
    """Song of Wind powered: "may pay a blue mana to cross lakes" -- of no use without a lake near or blue mana."""
    from tests.engines.test_mk_turn import started
    st = started(hand=("song_of_wind",), dice=("white",), crystals={"blue": 1})
    play(st, "song_of_wind", "t-pw:die:0")
    assert not [i for i in ids(st) if i.startswith("t-lakes")]
    st = started(hand=("song_of_wind",), dice=("white",), hexes={"1,0": cell("lake")})
    play(st, "song_of_wind", "t-pw:die:0")
    assert not [i for i in ids(st) if i.startswith("t-lakes")]


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


# ---------------------------------------------------------------- Mana Meltdown / Mana Radiance

def _meltdown_game(players=3, night=False, mine=None, others=None):
    """Seat 1 casts Mana Meltdown (red: a red die by day; at night a red crystal and the black die)."""
    from tests.engines.test_mk_turn import started
    crystals = dict(mine or {})
    if night:
        crystals["red"] = crystals.get("red", 0) + 1
    st = started(hand=("mana_meltdown",), dice=("black",) if night else ("red",), time="night" if night else "day",
                 players=players, crystals=crystals)
    for o in range(1, players):  # make_state gives every seat the caster's crystals
        st["seats"][o]["crystals"] = dict({c: 0 for c in ("red", "blue", "green", "white")}, **(others or {}).get(o, {}))
    return st


def _lost(ev):
    return [e for e in ev if "Mana Meltdown" in e.text]


def test_mana_meltdown_each_other_player_loses_a_crystal_or_takes_a_wound():
    """Mana Meltdown: "each other player loses a random crystal (or takes a Wound if they have none); you may gain
    one lost crystal"."""
    st = _meltdown_game(others={1: {"green": 1}})
    pick(st, "t-play:mana_meltdown")
    ev = pick(st, "t-basic:die:0")
    assert st["seats"][1]["crystals"]["green"] == 0  # its only crystal
    assert st["seats"][2]["hand"] == ["wound"]  # none: a Wound into the hand
    assert any("Seat 2 loses a green crystal" in e.text and e.seats is None for e in ev)  # public
    assert any("Seat 3 has no crystal and takes a Wound" in e.text and e.seats is None for e in ev)
    assert _choices(st) == ["fx:none", "fx:green"]  # "you may": none first
    pick(st, "fx:green")
    assert st["seats"][0]["crystals"]["green"] == 1
    assert st["turn"]["pending"] is None and st["turn"]["queue"] == []


def test_mana_meltdown_the_lost_crystal_is_random_and_seeded():
    """Mana Meltdown: "each other player loses a random crystal" -- drawn with the state's rng, each crystal alike."""
    from games.engines.rng import seed_state
    seen = set()
    for seed in range(20):
        st = _meltdown_game(players=2, others={1: {"blue": 1, "white": 2}})
        st["rng"] = seed_state(seed)
        cast(st, "mana_meltdown")
        cr = st["seats"][1]["crystals"]
        assert cr["blue"] + cr["white"] == 2
        seen.add("blue" if cr["blue"] == 0 else "white")
        again = _meltdown_game(players=2, others={1: {"blue": 1, "white": 2}})
        again["rng"] = seed_state(seed)
        cast(again, "mana_meltdown")
        assert again["seats"][1]["crystals"] == cr and again["rng"] == st["rng"]  # the same seed, the same loss
    assert seen == {"blue", "white"}


def test_mana_meltdown_gaining_a_lost_crystal_is_optional_none_by_default():
    """Mana Meltdown: "you MAY gain one lost crystal" -- "none" is the default."""
    from games.engines.mage_knight import turn
    st = _meltdown_game(others={1: {"red": 1}, 2: {"white": 1}})
    cast(st, "mana_meltdown")
    assert _choices(st) == ["fx:none", "fx:red", "fx:white"]
    assert turn.default(st, 0) == "fx:none"
    pick(st, "fx:none")
    assert st["seats"][0]["crystals"] == {"red": 0, "blue": 0, "green": 0, "white": 0}
    assert st["seats"][1]["crystals"]["red"] == 0 and st["seats"][2]["crystals"]["white"] == 0


def test_mana_meltdown_a_fourth_crystal_is_kept_as_a_token():
    """Mana Meltdown: "you may gain one lost crystal" -- at 3 crystals the engine's cap keeps it as a token."""
    from games.engines.mage_knight import turn
    st = _meltdown_game(players=2, mine={"green": 3}, others={1: {"green": 2}})
    cast(st, "mana_meltdown")
    assert "token instead" in {o.id: o.label for o in turn.options(st, 0)[1]}["fx:green"]
    pick(st, "fx:green")
    assert st["seats"][0]["crystals"]["green"] == 3 and st["turn"]["tokens"][-1] == "green"


def test_mana_meltdown_is_of_use_whenever_there_is_another_player():
    """Mana Meltdown: "(or takes a Wound if they have none)" -- the Wound supply never runs out (issue 22), so with
    another player the basic effect always does something: it is offered even when nobody else holds a crystal."""
    st = _meltdown_game(players=2)
    assert modes(st, "mana_meltdown") == ["t-basic:die:0"]
    st = _meltdown_game(players=3, others={1: {"blue": 1}})
    cast(st, "mana_meltdown")
    assert st["seats"][2]["hand"] == ["wound"]
    assert st["seats"][1]["crystals"]["blue"] == 0


def test_mana_meltdown_solo_the_dummy_player_is_no_player():
    """Mana Meltdown: "each other player ..." -- the rules count players "excluding the dummy": in the solo game
    there is no other player, the basic effect is of no use (not offered) and the Dummy keeps its crystals; Mana
    Radiance's "every player incl. you" is the caster alone."""
    st = _meltdown_game(players=1, night=True, mine={"white": 1})
    st["dummy"] = {"hero": "goldyx", "deck": [], "discard": [], "crystals": {"red": 0, "blue": 2, "green": 0,
                                                                             "white": 1}, "tactic": None}
    got = modes(st, "mana_meltdown")
    assert got and all(m.startswith("t-pw") for m in got)
    cast(st, "mana_meltdown", powered=True)
    pick(st, "fx:white")
    assert st["seats"][0]["hand"] == ["wound"] and st["seats"][0]["crystals"]["white"] == 3
    assert st["dummy"]["crystals"] == {"red": 0, "blue": 2, "green": 0, "white": 1}


def test_mana_radiance_every_player_takes_a_wound_per_crystal_and_you_gain_two():
    """Mana Radiance: "choose a basic colour; every player incl. you takes a Wound per crystal of that colour; you gain
    2 crystals of it"."""
    st = _meltdown_game(players=3, night=True, mine={"blue": 2}, others={1: {"blue": 1, "red": 2}, 2: {"red": 3}})
    cast(st, "mana_meltdown", powered=True)  # the red crystal pays: the caster holds 2 blue
    assert sorted(_choices(st)) == ["fx:blue", "fx:green", "fx:red", "fx:white"]
    ev = pick(st, "fx:blue")
    assert st["seats"][0]["hand"].count("wound") == 2 and st["seats"][1]["hand"] == ["wound"]
    assert st["seats"][2]["hand"] == []
    assert st["seats"][1]["crystals"]["blue"] == 1  # the crystals stay: a Wound per crystal, none lost
    assert st["seats"][0]["crystals"]["blue"] == 3 and st["turn"]["tokens"][-1] == "blue"  # 2 + 2: the cap
    assert any("Seat 2 takes 1 Wound" in e.text and e.seats is None for e in ev)


def test_mana_radiance_default_colour_wounds_you_least_and_every_wound_is_given():
    """Mana Radiance: "every player incl. you takes a Wound per crystal of that colour" -- all of them (the supply
    never runs out); the default colour is the one the caster holds fewest of."""
    from games.engines.mage_knight import turn
    st = _meltdown_game(players=2, night=True, mine={"blue": 2, "white": 1, "green": 1},
                        others={1: {"red": 3}})
    cast(st, "mana_meltdown", powered=True)
    assert turn.default(st, 0) == "fx:red"  # 0 red crystals after paying
    pick(st, "fx:red")
    assert st["seats"][0]["hand"] == [] and st["seats"][1]["hand"] == ["wound"] * 3
    assert st["seats"][0]["crystals"]["red"] == 2


# ---------------------------------------------------------------- in real games

NEW_CARDS = ("space_bending", "underground_travel", "wings_of_wind", "mana_claim", "mana_storm", "blood_ritual",
             "song_of_wind", "restoration", "sapphire_ring", "emerald_ring", "ruby_ring", "diamond_ring",
             "amulet_of_darkness", "amulet_of_the_sun", "endless_gem_pouch", "energy_flow", "mana_meltdown")


def test_random_games_with_these_cards_keep_the_invariants_and_secrets():
    """Every seat starts with some of these cards in its deed deck and a Unit: random games still end, card
    conservation holds at every step (Time Bending's set-aside card included) and no view carries a secret."""
    play_random_games_with(NEW_CARDS, every_seat=True)
