"""Mage Knight map (hexmap.py, tiles.py): terrain costs, movement limits, rampaging enemies, safe spaces, the
First Reconnaissance setup and tile deck, and every bullet of the rules' "Explore" list. Each test quotes the
rule text it checks (shared/rules/mage-knight-rules.txt unless it names the scenario or the data)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engines.mage_knight import hexgrid, hexmap
from games.engines.mage_knight.tiles import OFFSETS, POSITIONS, TILES, terrain_cost
from games.engines.rng import Rng, seed_state


def drawer():
    counter = itertools.count(1)

    def draw(colour):
        return {"id": f"{colour}_token_{next(counter)}", "colour": colour, "face_up": False}

    return draw


def fresh(players=2, seed=1, time="day"):
    m, events = hexmap.new_map(players, Rng(seed_state(seed)), drawer(), time)
    return m, events


def hand_map(*tiles, deck=(), spare_country=(), spare_core=()):
    """A map holding exactly these (tile id, centre) pairs, placed by Day."""
    m = {"hexes": {}, "tiles": [], "tile_deck": list(deck),
         "spare": {"countryside": list(spare_country), "core": list(spare_core)},
         "ruins_pile": ["ruins_1", "ruins_5"], "ruins_discard": [], "setup_tiles": []}
    draw = drawer()
    for tile_id, centre in tiles:
        hexmap.place_tile(m, tile_id, centre, Rng(1), draw, "day", None)
    return m


def explore_pairs(m):
    return {(k, o) for k in m["hexes"] for o in hexmap.explore_options(m, k)}


# --- terrain and movement -------------------------------------------------------------------------------------

@pytest.mark.parametrize("terrain,day,night", [
    ("plains", 2, 2), ("hills", 3, 3), ("forest", 3, 5), ("wasteland", 4, 4), ("desert", 5, 3), ("swamp", 5, 5),
    ("lake", None, None), ("mountain", None, None), ("ocean", None, None)])
def test_terrain_costs_by_day_and_night(terrain, day, night):
    """"spend them according to the Terrain Cost"; "Spaces marked with 'X' are inaccessible". Where the sources
    disagree the rulebook transcription wins: only Desert and Forest change between Day and Night."""
    assert terrain_cost(terrain, "day") == day
    assert terrain_cost(terrain, "night") == night


def test_move_cost_on_the_map_follows_the_time_of_day():
    """Forest costs 3 by Day and 5 at Night on the map too (starting tile A's NE space is forest)."""
    m = hand_map(("starting_a", "0,0"))
    assert m["hexes"]["1,-1"]["terrain"] == "forest"
    assert hexmap.move_cost(m, "1,-1", "day") == 3
    assert hexmap.move_cost(m, "1,-1", "night") == 5
    assert hexmap.move_cost(m, "0,0", "night") == 2  # the portal is plains


def test_inaccessible_spaces_and_off_map():
    """"Spaces marked with 'X' are inaccessible": lakes and mountains cannot be entered; nor can a space off
    the map."""
    m = hand_map(("starting_a", "0,0"))
    assert m["hexes"]["-1,0"]["terrain"] == "lake" and m["hexes"]["0,1"]["terrain"] == "mountain"
    for key in ("-1,0", "0,1", "9,9"):
        assert hexmap.move_cost(m, key, "day") is None


def test_rampaging_space_cannot_be_entered_until_defeated():
    """"You cannot enter a space occupied by a Rampaging Enemy"; once its token is gone the space is open."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"))
    orcs = m["hexes"]["2,-4"]
    assert orcs["rampaging"] and orcs["enemies"][0]["face_up"]
    assert hexmap.move_cost(m, "2,-4", "day") is None
    orcs["enemies"].clear()
    assert hexmap.move_cost(m, "2,-4", "day") == 3  # forest


def test_city_cannot_be_entered_in_first_reconnaissance():
    """Scenario: "Cities cannot be conquered nor entered in this scenario.\""""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("core_5", "3,-1"))
    assert m["hexes"]["3,-1"]["site"] == "city" and m["hexes"]["3,-1"]["city_colour"] == "green"
    assert hexmap.move_cost(m, "3,-1", "day") is None


def test_moving_between_spaces_adjacent_to_a_rampaging_enemy_provokes_it():
    """"You are attacked if your move takes you between spaces adjacent to a Rampaging Enemy"."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"))
    # the orcs stand at 2,-4; 1,-3 and 2,-3 are both next to them and next to each other
    assert hexmap.provoking(m, "1,-3", "2,-3") == ["2,-4"]
    assert hexmap.provoking(m, "2,-3", "1,-3") == ["2,-4"]
    # 1,-2 is not next to the orcs: stepping from it to 1,-3 does not provoke, nor does leaving their reach
    assert hexmap.provoking(m, "1,-2", "1,-3") == []
    assert hexmap.provoking(m, "1,-3", "1,-2") == []
    assert hexmap.adjacent_rampaging(m, "1,-3") == ["2,-4"]
    assert hexmap.adjacent_rampaging(m, "1,-2") == []


def test_one_move_can_provoke_two_rampaging_enemies():
    """Both rampaging enemies next to both spaces attack (the green city's tile has two orc spaces)."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("core_5", "3,-1"))
    assert sorted(hexmap.provoking(m, "3,-1", "3,0")) == ["2,0", "4,-1"]


def test_jumping_does_not_provoke():
    """"\"Jumping\" spaces (e.g., via a skill) doesn't provoke Rampaging Enemies": a move between two spaces that
    are not adjacent is a jump and provokes nobody, even if both spaces are next to the enemy."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"))
    assert "1,-3" in hexgrid.neighbours("2,-4") and "3,-4" in hexgrid.neighbours("2,-4")
    assert "3,-4" not in hexgrid.neighbours("1,-3")
    assert hexmap.provoking(m, "1,-3", "3,-4") == []


def test_neighbours_are_the_six_axial_directions():
    assert sorted(hexgrid.neighbours("0,0")) == sorted(["1,-1", "1,0", "0,1", "-1,1", "-1,0", "0,-1"])


# --- safe spaces ----------------------------------------------------------------------------------------------

def test_safe_spaces_for_forced_withdrawal():
    """"If you are not on a safe space (e.g., a conquered site, your keep), backtrack": not an inaccessible or
    rampaging space, not an unconquered fortified site, not an opponent's keep; the portal holds many heroes."""
    m = hand_map(("starting_a", "0,0"), ("countryside_3", "2,-3"), ("countryside_4", "3,-1"))
    keep = hexmap.hexes_of_site(m, "keep")[0]
    tower = hexmap.hexes_of_site(m, "mage_tower")[0]
    assert hexmap.is_safe(m, "0,0", 0)
    assert hexmap.is_safe(m, "0,0", 0, other_heroes=["0,0"])  # the portal
    assert not hexmap.is_safe(m, "1,0", 0, other_heroes=["1,0"])  # another hero's plain space
    assert not hexmap.is_safe(m, "-1,0", 0)  # lake
    assert not hexmap.is_safe(m, "9,9", 0)  # off the map
    orcs = next(k for k, h in m["hexes"].items() if h["rampaging"])
    assert not hexmap.is_safe(m, orcs, 0)
    assert not hexmap.is_safe(m, keep, 0) and not hexmap.is_safe(m, tower, 0)
    m["hexes"][keep].update(conquered=True, owner=1, enemies=[])
    m["hexes"][tower].update(conquered=True, owner=1, enemies=[])
    assert hexmap.is_safe(m, keep, 1) and not hexmap.is_safe(m, keep, 0)  # "your keep"
    assert hexmap.is_safe(m, tower, 0) and hexmap.is_safe(m, tower, 1)


def test_city_is_never_safe_in_first_reconnaissance():
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("core_6", "3,-1"))
    assert not hexmap.is_safe(m, "3,-1", 0)


# --- setup and the tile deck ----------------------------------------------------------------------------------

@pytest.mark.parametrize("players,countryside", [(1, 8), (2, 8), (3, 9), (4, 11)])
@pytest.mark.parametrize("seed", range(6))
def test_tile_deck_for_the_player_count(players, countryside, seed):
    """Scenario: "Countryside tiles: 8, 9, or 11, sorted by numbers; Core city tiles: 1; Core non-city tiles: 2";
    solo "play with 8 countryside tiles (as in a 2-player game)"; the Core tiles: "Choose the appropriate number of
    each ... and shuffle them together" (the city among the last three). The tiles left out are kept for the
    fallback rule (city tiles never are)."""
    m, _ = fresh(players, seed)
    deck = m["setup_tiles"] + m["tile_deck"]
    kinds = [TILES[t].kind for t in deck]
    assert kinds[:countryside] == ["countryside"] * countryside
    assert sorted(kinds[countryside:]) == ["city", "core", "core"]
    numbers = [TILES[t].number for t in deck[:countryside]]
    assert numbers == sorted(numbers)
    assert set(deck[:countryside]) | set(m["spare"]["countryside"]) == {f"countryside_{n}" for n in range(1, 12)}
    assert len(m["spare"]["countryside"]) == 11 - countryside
    core_in_deck = {t for t in deck[countryside:] if TILES[t].kind == "core"}
    assert core_in_deck | set(m["spare"]["core"]) == {f"core_{n}" for n in range(1, 5)}
    assert len(Counter(deck + m["spare"]["countryside"] + m["spare"]["core"])) == len(
        deck + m["spare"]["countryside"] + m["spare"]["core"])
    assert hexmap.tiles_left(m) == countryside + 3 - 2


def test_unsupported_player_counts():
    for players in (0, 5):
        with pytest.raises(ValueError):
            fresh(players)


def test_setup_map_is_starting_tile_a_and_two_revealed_tiles():
    """"Place the Starting Tile as indicated by the scenario. Reveal 2 or 3 additional tiles ... and place them as
    depicted, handling any revealed Sites immediately": tile A at 0,0 (portal in the centre), the deck's top two
    tiles on the wedge's first row, their orcs face up."""
    m, events = fresh(4, 3)
    assert [t["id"] for t in m["tiles"]] == ["starting_a", "countryside_1", "countryside_2"]
    assert [t["centre"] for t in m["tiles"]] == ["0,0", "2,-3", "3,-1"]
    assert m["hexes"]["0,0"]["site"] == "portal"
    assert len(m["hexes"]) == 21
    for tile_id, centre in (("countryside_1", "2,-3"), ("countryside_2", "3,-1")):
        orcs = m["hexes"][hexgrid.tile_hexes(centre)[POSITIONS.index("NW")]]
        assert orcs["rampaging"] and [e["face_up"] for e in orcs["enemies"]] == [True]
    revealed = [e.data["tile"] for e in events if e.data.get("type") == "tile_revealed"]
    assert revealed == ["countryside_1", "countryside_2"]
    assert all(e.data["setup"] for e in events if e.data.get("type") == "tile_revealed")


def test_setup_is_deterministic_for_a_seed():
    a, _ = fresh(3, 11)
    b, _ = fresh(3, 11)
    c, _ = fresh(3, 12)
    assert a == b
    assert a["tile_deck"] != c["tile_deck"] or a["spare"] != c["spare"] or a["ruins_pile"] != c["ruins_pile"]


# --- exploring ------------------------------------------------------------------------------------------------

def test_explore_needs_the_hero_next_to_the_empty_position():
    """"You can reveal the top map tile for 2 Move Points if you are adjacent to an empty, valid space": from the
    portal (surrounded by its own tile) nothing; every offered position has a hex next to the hero."""
    m, _ = fresh(2, 1)
    assert hexmap.EXPLORE_COST == 2
    assert hexmap.explore_options(m, "0,0") == []
    assert hexmap.explore_options(m, None) == []
    pairs = explore_pairs(m)
    assert pairs
    for hero, centre in pairs:
        assert set(hexgrid.tile_hexes(centre)) & set(hexgrid.neighbours(hero))
    # 2,-4 (countryside tile NW space) touches the 4,-6 position; 3,-1's tile does not
    assert "4,-6" in hexmap.explore_options(m, "2,-4")
    assert "4,-6" not in hexmap.explore_options(m, "4,-1")


def test_corner_symbols_line_up_and_orientation_matches():
    """"Corner symbols must line up, and the orientation must match the starting tile": every position offered is
    on the flower lattice, and a placed tile's hexes are the data's, never rotated."""
    m, _ = fresh(2, 4)
    for _hero, centre in explore_pairs(m):
        assert hexgrid.on_lattice(centre)
    centre = sorted({c for _h, c in explore_pairs(m)})[0]
    tile_id, _ = hexmap.explore(m, centre, Rng(3), drawer(), "day")
    q, r = hexgrid.parse(centre)
    for h in TILES[tile_id].hexes:
        cell = m["hexes"][hexgrid.key_of(q + OFFSETS[h.position][0], r + OFFSETS[h.position][1])]
        assert (cell["terrain"], cell["site"], cell["tile"]) == (h.terrain, h.site, tile_id)


def test_no_tile_behind_a_coastline():
    """"Tiles cannot be added behind a coastline": the empty positions next to starting tile A's coast (W, SW,
    SE) and the wedge's two edge lanes are never offered, and explore refuses them."""
    m, _ = fresh(2, 1)
    for hero in ("-1,0", "-1,1", "0,1", "0,-1"):
        assert hexmap.explore_options(m, hero) == []
    for behind in ("-3,1", "-2,3", "1,2", "-1,-2"):
        assert not hexgrid.in_wedge(behind)
        with pytest.raises(ValueError):
            hexmap.explore(m, behind, Rng(1), drawer(), "day")
    for _hero, centre in explore_pairs(m):
        a, b = hexgrid.wedge_coords(centre)
        assert a >= 0 and b >= 0


def test_countryside_tile_needs_two_neighbours_or_a_neighbour_with_two():
    """"Country Tiles must be adjacent to or border a tile that is adjacent to at least 2 other tiles"."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 deck=["countryside_3", "countryside_4", "countryside_5"])
    # 4,-6 touches only tile 1 (2,-3), but tile 1 borders two tiles (A and 2): allowed
    assert hexmap.legal_positions(m) == ["4,-6", "5,-4", "6,-2"]
    hexmap.explore(m, "4,-6", Rng(1), drawer(), "day")
    # 6,-9 would touch only 4,-6, which borders one tile: not allowed
    assert "6,-9" not in hexmap.legal_positions(m)
    with pytest.raises(ValueError):
        hexmap.explore(m, "6,-9", Rng(1), drawer(), "day")
    hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")
    # now 4,-6 borders tiles 1 and 5,-4: 6,-9 is allowed
    assert "6,-9" in hexmap.legal_positions(m)


def test_core_tile_needs_two_neighbouring_tiles():
    """"Core Tiles must be adjacent to at least 2 other tiles"."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 deck=["core_1", "core_6"])
    assert hexmap.legal_positions(m) == ["5,-4"]
    with pytest.raises(ValueError):
        hexmap.explore(m, "4,-6", Rng(1), drawer(), "day")
    tile_id, events = hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")
    assert tile_id == "core_1" and events[0].data["city"] is False
    assert sorted(hexmap.legal_positions(m)) == ["4,-6", "6,-2"]  # each borders two tiles now


def test_city_tile_reveal_is_announced():
    """Scenario End: "When a player reveals a city, all players (including themselves) have one last turn": the
    reveal event says it was a city tile."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"), deck=["core_8"])
    tile_id, events = hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")
    assert tile_id == "core_8"
    assert events[0].data["type"] == "tile_revealed" and events[0].data["city"] is True
    assert any(e.data.get("type") == "city_found" and e.data["colour"] == "red" for e in events)
    assert hexmap.tiles_left(m) == 0


def test_fallback_tiles_need_three_neighbours():
    """"If no suitable tiles are available, use a random country tile (removed during setup) or a non-city core
    tile if no country tiles remain. These must be adjacent to at least three tiles.\""""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 spare_country=["countryside_9"], spare_core=["core_3"])
    assert hexmap.legal_positions(m) == []  # 5,-4 borders only two tiles
    hexmap.place_tile(m, "countryside_3", "4,-6", Rng(1), drawer(), "day", None)
    assert hexmap.legal_positions(m) == ["5,-4"]
    tile_id, events = hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")
    assert tile_id == "countryside_9" and events[0].data["fallback"] is True
    assert m["spare"]["countryside"] == []
    # no countryside tile left: the non-city core tile, again only where three tiles border the position
    hexmap.place_tile(m, "countryside_6", "8,-5", Rng(1), drawer(), "day", None)
    assert hexmap.legal_positions(m) == ["6,-2", "7,-7"]  # each borders three tiles
    tile_id, events = hexmap.explore(m, "7,-7", Rng(2), drawer(), "day")
    assert tile_id == "core_3" and events[0].data["fallback"] is True and events[0].data["city"] is False


def test_fallback_countryside_tile_is_random():
    """"use a random country tile (removed during setup)": different seeds pick different spare tiles."""
    picked = set()
    for seed in range(12):
        m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                     ("countryside_3", "4,-6"), spare_country=["countryside_9", "countryside_10", "countryside_11"])
        picked.add(hexmap.explore(m, "5,-4", Rng(seed_state(seed)), drawer(), "day")[0])
    assert len(picked) > 1


def test_cannot_explore_when_no_tiles_are_left():
    """"You cannot explore if there are no more tiles."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 ("countryside_3", "4,-6"))
    assert hexmap.tiles_left(m) == 0
    assert explore_pairs(m) == set()
    assert hexmap.legal_positions(m) == []
    with pytest.raises(ValueError, match="no more tiles"):
        hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")


# --- sites revealed with a tile -------------------------------------------------------------------------------

def test_fortified_garrison_is_placed_face_down_and_stays_hidden():
    """A keep's gray defender is placed face down when revealed; the public events name only its colour."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 deck=["countryside_3"])
    _tile, events = hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")
    keep = hexmap.hexes_of_site(m, "keep")[0]
    token = m["hexes"][keep]["enemies"][0]
    assert token["colour"] == "gray" and token["face_up"] is False
    assert all(e.seats is None for e in events)
    assert token["id"] not in repr([e.as_dict() for e in events])
    # "revealed by Day when a player is adjacent": not at Night, yes by Day
    assert hexmap.reveal_garrisons_near(m, hexgrid.neighbours(keep)[0], "night") == []
    shown = hexmap.reveal_garrisons_near(m, hexgrid.neighbours(keep)[0], "day")
    assert token["face_up"] is True and shown[0].data["enemies"] == [token["id"]]


@pytest.mark.parametrize("time", ["day", "night"])
def test_ruins_token_face_up_by_day_face_down_at_night(time):
    """Data (sites.json, ancient ruins): the token is placed face up by Day, face down at Night, and revealed at
    the start of the next Day; a face-down token's identity is not in the events."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 deck=["countryside_8"])
    m["ruins_pile"] = ["ruins_7", "ruins_2"]
    _tile, events = hexmap.explore(m, "5,-4", Rng(1), drawer(), time)
    ruins = m["hexes"][hexmap.hexes_of_site(m, "ancient_ruins")[0]]["ruins"]
    assert ruins == {"id": "ruins_7", "face_up": time == "day"}
    assert m["ruins_pile"] == ["ruins_2"]
    assert ("ruins_7" in repr([e.as_dict() for e in events])) == (time == "day")
    flipped = hexmap.reveal_ruins_at_day(m)
    assert ruins["face_up"] is True and len(flipped) == (time == "night")


def test_ruins_drawn_through_the_callers_pile_when_given():
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 deck=["countryside_8"])
    hexmap.explore(m, "5,-4", Rng(1), drawer(), "day", draw_ruins=lambda: "ruins_12")
    assert m["hexes"][hexmap.hexes_of_site(m, "ancient_ruins")[0]]["ruins"]["id"] == "ruins_12"
    assert m["ruins_pile"] == ["ruins_1", "ruins_5"]


def test_monastery_reveal_asks_for_an_advanced_action_in_the_unit_offer():
    """Rulebook transcription: "If a monastery is revealed, draw one Advanced Action card and add it to the Unit
    offer" -- the event tells the caller (offers live outside the map)."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 deck=["countryside_5"])
    _tile, events = hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")
    hexes = hexmap.hexes_of_site(m, "monastery")
    assert [e.data["hex"] for e in events if e.data.get("type") == "monastery_revealed"] == hexes


def test_draconum_are_red_and_face_up():
    """Data (tiles.json): core tiles bring Draconum (red) rampaging, face up when the tile is revealed."""
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"), deck=["core_2"])
    _tile, events = hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")
    placed = [e.data for e in events if e.data.get("type") == "rampaging_placed"]
    assert [p["colour"] for p in placed] == ["red"]
    cell = m["hexes"][placed[0]["hex"]]
    assert cell["rampaging"] and cell["enemies"][0]["face_up"] and cell["enemies"][0]["id"] == placed[0]["enemy"]


# --- property: explore until nothing is left ------------------------------------------------------------------

@given(players=st.integers(1, 4), seed=st.integers(0, 2**32), data=st.data())
def test_exploring_at_random_until_no_tile_is_left(players, seed, data):
    """Exploring at random (any hero space, any offered position) until nothing can be explored: tiles never
    overlap, always sit on the lattice with the starting orientation, never behind the coast; the deck never
    deadlocks; every deck tile is placed exactly once, and the spare tiles only after the deck ran out."""
    m, _ = hexmap.new_map(players, Rng(seed_state(seed)), drawer(), "day")
    deck = list(m["setup_tiles"] + m["tile_deck"])
    rng = Rng(seed_state(seed + 1))
    order = []
    while True:
        pairs = sorted(explore_pairs(m))
        assert {c for _h, c in pairs} == set(hexmap.legal_positions(m))
        if not pairs:
            break
        hero, centre = pairs[data.draw(st.integers(0, len(pairs) - 1))]
        deck_left = hexmap.tiles_left(m)
        tile_id, _ = hexmap.explore(m, centre, rng, drawer(), data.draw(st.sampled_from(["day", "night"])))
        assert (tile_id in deck) == (deck_left > 0)
        order.append(tile_id)
    assert hexmap.tiles_left(m) == 0  # the deck never deadlocks
    placed = [t["id"] for t in m["tiles"]]
    assert Counter(placed)["starting_a"] == 1 and all(v == 1 for v in Counter(placed).values())
    assert set(deck) <= set(placed)
    assert len(m["hexes"]) == 7 * len(m["tiles"])  # no overlap
    for t in m["tiles"]:
        assert hexgrid.in_wedge(t["centre"])
        for hk, h in zip(hexgrid.tile_hexes(t["centre"]), TILES[t["id"]].hexes):
            assert m["hexes"][hk]["tile"] == t["id"] and m["hexes"][hk]["terrain"] == h.terrain
    assert all(TILES[t].kind != "city" for t in placed if t not in deck)  # city tiles never come back


# --- setup.py's form and the caller's piles -------------------------------------------------------------------

def test_new_map_inside_a_game_state_uses_its_piles():
    """setup.py's call ``new_map(state, countryside=.., core=.., city=..)``: the enemies come from the state's
    face-down piles, ruins tokens from its ruins pile, the random state is written back."""
    from games.engines.mage_knight import enemies, sites

    rng = Rng(seed_state(5))
    state = {"players": 4, "time": "day", "enemies": enemies.new_piles(rng),
             "ruins": {"pile": sites.new_ruins_pile(rng), "discard": []}, "rng": rng.state}
    greens = len(state["enemies"]["piles"]["green"])
    before = state["rng"]
    m, _events = hexmap.new_map(state, countryside=11, core=2, city=1)
    assert state["map"] is m and "ruins_pile" not in m
    assert len(state["enemies"]["piles"]["green"]) == greens - 2  # the orcs of countryside tiles 1 and 2
    placed = [e["id"] for h in m["hexes"].values() for e in h["enemies"]]
    assert len(placed) == 2
    assert state["rng"] != before
    kinds = [TILES[t].kind for t in m["tile_deck"]]
    assert kinds[:9] == ["countryside"] * 9 and sorted(kinds[9:]) == ["city", "core", "core"]


def test_an_exhausted_enemy_pile_places_nothing():
    """enemies.draw returns None when every token of a colour is in play: the space stays empty."""
    m = hand_map(deck=["countryside_1"])
    events = hexmap.place_tile(m, "countryside_1", "2,-3", Rng(1), lambda colour: None, "day", None)
    assert not any(h["enemies"] or h["rampaging"] for h in m["hexes"].values())
    assert not any(e.data.get("type") == "rampaging_placed" for e in events)


def test_discarded_ruins_token_goes_to_the_map_discard_or_back_to_the_caller():
    m = hand_map(("starting_a", "0,0"), ("countryside_1", "2,-3"), ("countryside_2", "3,-1"),
                 deck=["countryside_8"])
    hexmap.explore(m, "5,-4", Rng(1), drawer(), "day")
    ruins = hexmap.hexes_of_site(m, "ancient_ruins")[0]
    assert hexmap.discard_ruins(m, ruins) == "ruins_1"
    assert m["ruins_discard"] == ["ruins_1"] and m["hexes"][ruins]["ruins"] is None
