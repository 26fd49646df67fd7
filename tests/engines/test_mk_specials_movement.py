"""Mage Knight: the movement specials of the cards (specials_movement.py), played as printed: Space Bending and
Time Bending, Underground Travel and Underground Attack, Wings of Wind and Wings of Night, Song of Wind's lake
crossing.

Each test quotes the card text it checks (``summary`` in /work/shared/data/mage-knight/*.json) and plays the card
through the turn's picks.
"""

from __future__ import annotations

from games.engines.mage_knight import plays, rounds, view
from games.engines.mage_knight.enemies import ENEMIES
from tests.engines.test_mk_combat_effects import cast, enemy, fight, spell
from tests.engines.test_mk_turn import cell, ids, pick, play


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
    from games.engines.mage_knight import hexgrid, hexmap
    from games.engines.rng import Rng
    m, _ = hexmap.new_map(2, Rng(1), lambda colour: None)
    found = False
    for k in m["hexes"]:
        near, far = set(hexmap.explore_options(m, k)), set(hexmap.explore_options(m, k, far=True))
        assert near <= far
        for c in far - near:  # a hex of the new tile two steps away, none adjacent
            found = True
            tile = set(hexgrid.tile_hexes(c))
            assert any(hexgrid.distance(k, t) == 2 for t in tile) and not any(hexgrid.distance(k, t) == 1 for t in tile)
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
