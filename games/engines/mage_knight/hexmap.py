"""The map of First Reconnaissance: the tiles placed, their terrain and sites, exploring, movement costs,
rampaging enemies, and what turns face up during play.

The geometry under it (hex keys "q,r", neighbours, distance, the lattice of tile centres and the wedge) is
hexgrid.py; this module holds what stands on the hexes. Starting tile A sits at "0,0". First Reconnaissance plays
the wedge "with no limitations", so core tiles may go on the coastline lanes.

The map (state["map"], plain JSON) is documented in README.md; this module adds ``ruins_pile`` /
``ruins_discard`` (the ruins tokens, unless the caller passes its own ``draw_ruins``) and ``setup_tiles``.
Enemy piles live elsewhere: the caller passes ``draw_enemy(colour) -> {"id", "colour", "face_up": False}``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from games.engines.base import Event
from games.engines.mage_knight import enemies  # the enemy piles, drawn from when the map is laid out
from games.engines.mage_knight import sites as site_facts
from games.engines.mage_knight.hexgrid import adjacent, adjacent_positions, centre_of, in_wedge, ring2, tile_hexes
from games.engines.mage_knight.tiles import TILES, terrain_cost
from games.engines.rng import Rng

Map = dict[str, Any]
DrawEnemy = Callable[[str], "dict[str, Any] | None"]  # None: no token of that colour is left
DrawRuins = Callable[[], "str | None"]

START = "0,0"
EXPLORE_COST = 2  # "You can reveal the top map tile for 2 Move Points"
CITY_MOVE_COST = 2  # "The cost to move into a city is always 2" (used only where cities may be entered)
CITIES_ENTERABLE = False  # First Reconnaissance: "Cities cannot be conquered nor entered in this scenario."

# First Reconnaissance tile deck by player count (scenario_first_reconnaissance.json, setup_by_player_count;
# solo: "play with 8 countryside tiles (as in a 2-player game)").
COUNTRYSIDE_BY_PLAYERS = {1: 8, 2: 8, 3: 9, 4: 11}
CORE_NON_CITY = 2
CORE_CITY = 1
# "Reveal two (if using starting tile A) ... tiles from the Tile deck and place them as depicted": the two
# tile positions of the wedge's first row, NE of tile A first, then E.
SETUP_POSITIONS = ("2,-3", "3,-1")
MIN_ADJACENT = {"countryside": 2, "core": 2, "city": 2, "fallback": 3}


# --- reading the map ----------------------------------------------------------------------------------------

def placed_centres(m: Map) -> set[str]:
    return {t["centre"] for t in m["tiles"]}


def tiles_left(m: Map) -> int:
    """Tiles left in the tile deck (the spare tiles of the fallback rule are not counted)."""
    return len(m["tile_deck"])


def hexes_of_site(m: Map, site: str) -> list[str]:
    """Keys of the map hexes holding this site, in placement order."""
    return [k for k, h in m["hexes"].items() if h["site"] == site]


def reach(m: Map, start: str, steps: int, passable) -> dict[str, int]:
    """Revealed spaces within ``steps`` steps of ``start`` through revealed spaces ``passable(key)`` allows
    (``start`` excluded): key -> fewest steps. A space may be a destination without being passable (the caller
    checks); the path's spaces before it must be."""
    hexes = m["hexes"]
    seen = {start: 0}
    frontier = [start]
    for d in range(1, steps + 1):
        nxt = []
        for k in frontier:
            if k != start and not passable(k):
                continue
            for n in adjacent(k):
                if n in hexes and n not in seen:
                    seen[n] = d
                    nxt.append(n)
        frontier = nxt
    seen.pop(start)
    return seen


def is_rampaging(h: dict[str, Any]) -> bool:
    return bool(h["rampaging"] and h["enemies"])


def adjacent_rampaging(m: Map, key: str) -> list[str]:
    """Rampaging enemies' spaces next to ``key`` (the ones a hero standing there may challenge)."""
    hexes = m["hexes"]
    return [n for n in adjacent(key) if n in hexes and is_rampaging(hexes[n])]


def provoking(m: Map, from_key: str, to_key: str) -> list[str]:
    """Rampaging spaces this move provokes: "You are attacked if your move takes you between spaces adjacent to
    a Rampaging Enemy". A move between two non-adjacent spaces is a jump, which "doesn't provoke"."""
    if to_key not in adjacent(from_key):
        return []
    around_to = set(adjacent(to_key))
    return [k for k in adjacent_rampaging(m, from_key) if k in around_to]


def move_cost(m: Map, key: str, time: str) -> int | None:
    """Move points to enter ``key`` by Day or Night, or None if it cannot be entered: off the map, inaccessible
    terrain ("Spaces marked with 'X' are inaccessible"), a rampaging enemy's space ("You cannot enter a space
    occupied by a Rampaging Enemy"), a city in First Reconnaissance. The caller adds provocation and assaults."""
    h = m["hexes"].get(key)
    if h is None or is_rampaging(h):
        return None
    if h["site"] == "city":
        return CITY_MOVE_COST if CITIES_ENTERABLE else None
    return terrain_cost(h["terrain"], time)


def is_safe(m: Map, key: str, seat: int, other_heroes: Iterable[str] = ()) -> bool:
    """A safe space (where a turn may end without forced withdrawal): accessible under normal conditions, not
    an unconquered fortified site or an opponent's keep, and no other hero there unless the site allows many
    (the portal). ``other_heroes``: the keys where the other heroes stand."""
    h = m["hexes"].get(key)
    if h is None or move_cost(m, key, "day") is None:  # accessibility does not depend on the time of day
        return False
    site = h["site"]
    if site is not None:
        safe = site_facts.site(site)["safe"]
        if safe == "if_conquered" and not h["conquered"]:
            return False
        if safe == "if_owned" and not (h["conquered"] and h["owner"] == seat):
            return False
    if key in set(other_heroes) and site != "portal":
        return False
    return True


def _count_adjacent(centre: str, placed: set[str]) -> int:
    return sum(1 for p in adjacent_positions(centre) if p in placed)


def _fits(kind: str, centre: str, placed: set[str]) -> bool:
    """The placement limitation for the back colour (or the fallback rule) at an empty wedge position."""
    adjacent = [p for p in adjacent_positions(centre) if p in placed]
    if not adjacent:
        return False
    if len(adjacent) >= MIN_ADJACENT[kind]:
        return True
    # "Country Tiles must be adjacent to or border a tile that is adjacent to at least 2 other tiles."
    return kind == "countryside" and any(_count_adjacent(p, placed) >= 2 for p in adjacent)


def _frontier(placed: set[str]) -> set[str]:
    """Empty wedge positions next to a placed tile."""
    return {p for c in placed for p in adjacent_positions(c) if p not in placed and in_wedge(p)}


def _next_kind(m: Map) -> str | None:
    """Which placement rule the next explore follows: the top tile's back colour; "fallback" once the tile deck
    is empty ("If no suitable tiles are available, use a random country tile (removed during setup) or a
    non-city core tile if no country tiles remain"); None when no tile is left at all. A deck tile that fits
    nowhere cannot call the fallback in: a hole bordered by 3 tiles also takes any deck tile."""
    if m["tile_deck"]:
        return TILES[m["tile_deck"][0]].kind
    if m["spare"]["countryside"] or m["spare"]["core"]:
        return "fallback"
    return None


def legal_positions(m: Map) -> list[str]:
    """Every position where the next tile may go now, whoever explores (sorted)."""
    placed = placed_centres(m)
    kind = _next_kind(m)
    if kind is None:
        return []
    return sorted(p for p in _frontier(placed) if _fits(kind, p, placed))


def explore_options(m: Map, hero_key: str | None, far: bool = False) -> list[str]:
    """Tile positions (centre keys) the hero at ``hero_key`` may explore now: "if you are adjacent to an empty,
    valid space" -- a hex of the new tile touches the hero's space. ``far``: Space Bending, "spaces 2 away count
    as adjacent for ... exploring" (a hex of the new tile one or two steps away)."""
    hexes = m["hexes"]
    if hero_key is None or hero_key not in hexes:
        return []
    near = list(adjacent(hero_key)) + (ring2(hero_key) if far else [])
    touching = {centre_of(n) for n in near if n not in hexes}
    if not touching:
        return []
    placed = placed_centres(m)
    kind = _next_kind(m)
    if kind is None:
        return []
    return sorted(p for p in touching if in_wedge(p) and p not in placed and _fits(kind, p, placed))


# --- placing tiles ------------------------------------------------------------------------------------------

def place_tile(m: Map, tile_id: str, centre: str, rng: Rng, draw_enemy: DrawEnemy, time: str,
                draw_ruins: DrawRuins | None) -> list[Event]:
    """Put the tile's hexes on the map and handle every revealed site ("handling any revealed Sites
    immediately"). Face-down tokens are named by colour only: their identity stays hidden."""
    tile = TILES[tile_id]
    m["tiles"].append({"id": tile_id, "centre": centre})
    events: list[Event] = []
    for hk, h in zip(tile_hexes(centre), tile.hexes):
        if hk in m["hexes"]:
            raise AssertionError(f"tile {tile_id} would overlap hex {hk}")
        cell = {"terrain": h.terrain, "site": h.site, "tile": tile_id, "mine_colour": h.mine_colour,
                "city_colour": h.city_colour, "enemies": [], "rampaging": False, "owner": None,
                "conquered": False, "burned": False, "ruins": None}
        m["hexes"][hk] = cell
        for colour in h.rampaging:
            drawn = draw_enemy(colour)
            if drawn is None:  # every token of the colour is in play: nothing to place
                continue
            token = dict(drawn, face_up=True)
            cell["enemies"].append(token)
            cell["rampaging"] = True
            name = site_facts.RAMPAGING[colour]["name"]
            events.append(Event(f"{name} rampage on {tile.label}.",
                                data={"type": "rampaging_placed", "hex": hk, "colour": colour, "enemy": token["id"]}))
        if h.site is None:
            continue
        facts = site_facts.site(h.site)
        reveal = facts.get("on_reveal") or {}
        if reveal.get("enemies"):
            for colour in reveal["enemies"]:
                drawn = draw_enemy(colour)
                if drawn is not None:
                    cell["enemies"].append(dict(drawn, face_up=bool(reveal.get("face_up"))))
            events.append(Event(f"A {facts['name'].lower()} on {tile.label} is guarded by "
                                f"{_colour_list(reveal['enemies'])} enemy, face down.",
                                data={"type": "garrison_placed", "hex": hk, "site": h.site,
                                      "colours": list(reveal["enemies"])}))
        elif reveal.get("ruins_token"):
            token_id = draw_ruins() if draw_ruins is not None else _draw_ruins(m)
            if token_id is not None:
                face_up = time == "day"  # "face up by day, face down at night"
                cell["ruins"] = {"id": token_id, "face_up": face_up}
                data = {"type": "ruins_placed", "hex": hk, "face_up": face_up}
                if face_up:
                    data["token"] = token_id
                events.append(Event(f"Ancient ruins on {tile.label}: a ruins token is placed "
                                    f"{'face up' if face_up else 'face down (Night)'}.", data=data))
        elif reveal.get("advanced_action_to_unit_offer"):
            events.append(Event(f"A monastery on {tile.label}: an Advanced Action card joins the Unit offer.",
                                data={"type": "monastery_revealed", "hex": hk,
                                      "advanced_actions": reveal["advanced_action_to_unit_offer"]}))
        elif reveal.get("city_garrison"):
            # First Reconnaissance gives no city level and cities cannot be entered: no garrison is drawn.
            events.append(Event(f"The {h.city_colour} city is revealed.",
                                data={"type": "city_found", "hex": hk, "colour": h.city_colour}))
    return events


def _colour_list(colours: list[str]) -> str:
    if len(colours) == 1:
        return f"a {colours[0]}"
    return ", ".join(colours[:-1]) + f" and {colours[-1]}"


def _draw_ruins(m: Map) -> str | None:
    if "ruins_pile" not in m:
        return None
    if not m["ruins_pile"] and m["ruins_discard"]:
        m["ruins_pile"], m["ruins_discard"] = m["ruins_discard"], []
    return m["ruins_pile"].pop(0) if m["ruins_pile"] else None


def new_map(players, rng: Rng | None = None, draw_enemy: DrawEnemy | None = None, time: str = "day",
            draw_ruins: DrawRuins | None = None, *, countryside: int | None = None, core: int = CORE_NON_CITY,
            city: int = CORE_CITY) -> tuple[Map, list[Event]]:
    """The First Reconnaissance map: starting tile A at "0,0", the tile deck for the player count, and the
    deck's top two tiles revealed on the wedge's first row, their sites handled.

    Tile deck (decided in docs/rules-decisions/mage-knight.md): the scenario's countryside tiles are 1..N
    "sorted by number (not shuffled)", tile 1 on top, then the non-city core tiles and the city tile shuffled
    together.
    The countryside and non-city core tiles left out are kept for the fallback rule.

    ``new_map(state, countryside=.., core=.., city=..)`` (setup.py's form) builds the map inside a game state:
    state["rng"], enemies.draw(state, colour) and state["ruins"]["pile"]; it sets state["map"]."""
    if isinstance(players, dict):
        return _new_map_in_state(players, countryside, core, city)
    if players not in COUNTRYSIDE_BY_PLAYERS:
        raise ValueError(f"First Reconnaissance is for 1 to 4 players, not {players}")
    assert rng is not None and draw_enemy is not None
    n_country = COUNTRYSIDE_BY_PLAYERS[players] if countryside is None else countryside
    # The scenario's countryside tiles are the lowest-numbered ones, in order ("sorted by number (not shuffled)").
    countryside_tiles = sorted((t for t in TILES.values() if t.kind == "countryside"), key=lambda t: t.number)
    chosen = countryside_tiles[:n_country]
    spare_country = [t.id for t in countryside_tiles[n_country:]]
    core_tiles = [t.id for t in TILES.values() if t.kind == "core"]
    rng.shuffle(core_tiles)
    cities = [t.id for t in TILES.values() if t.kind == "city"]
    rng.shuffle(cities)
    # "Choose the appropriate number of each as specified by your chosen Scenario and shuffle them together."
    core_deck = core_tiles[:core] + cities[:city]
    rng.shuffle(core_deck)
    m: Map = {
        "hexes": {}, "tiles": [],
        "tile_deck": [t.id for t in chosen] + core_deck,
        "spare": {"countryside": spare_country, "core": sorted(core_tiles[core:], key=lambda i: TILES[i].number)},
        "setup_tiles": [],
    }
    if draw_ruins is None:  # the map keeps the ruins tokens itself
        m["ruins_pile"] = site_facts.new_ruins_pile(rng)
        m["ruins_discard"] = []
    events = place_tile(m, "starting_a", START, rng, draw_enemy, time, draw_ruins)
    for centre in SETUP_POSITIONS:
        tile_id = m["tile_deck"].pop(0)
        m["setup_tiles"].append(tile_id)
        events.append(Event(f"Setup: {TILES[tile_id].label} is revealed.",
                            data={"type": "tile_revealed", "tile": tile_id, "centre": centre, "setup": True,
                                  "kind": TILES[tile_id].kind, "city": False, "fallback": False}))
        events += place_tile(m, tile_id, centre, rng, draw_enemy, time, draw_ruins)
    return m, events


def _new_map_in_state(state: dict[str, Any], countryside: int | None, core: int,
                      city: int) -> tuple[Map, list[Event]]:
    rng = Rng(state["rng"])

    def draw_enemy(colour: str) -> dict[str, Any] | None:
        state["rng"] = rng.state
        token = enemies.draw(state, colour)
        rng.state = state["rng"]
        return token

    def draw_ruins() -> str | None:
        pile = state["ruins"]["pile"]
        return pile.pop() if pile else None

    m, events = new_map(state["players"], rng, draw_enemy, state.get("time", "day"), draw_ruins,
                        countryside=countryside, core=core, city=city)
    state["rng"] = rng.state
    state["map"] = m
    return m, events


def explore(m: Map, centre_key: str, rng: Rng, draw_enemy: DrawEnemy, time: str,
            draw_ruins: DrawRuins | None = None) -> tuple[str, list[Event]]:
    """Reveal the next tile at ``centre_key`` (one of legal_positions / explore_options) and handle its sites.

    The tile is the top of the tile deck, or under the fallback rule a random spare countryside tile (a random
    spare non-city core tile once none is left). The first event's data says ``city: True`` when a city tile
    was revealed (First Reconnaissance's end trigger). The caller pays the 2 Move points and the Fame."""
    placed = placed_centres(m)
    kind = _next_kind(m)
    if kind is None:
        raise ValueError("You cannot explore if there are no more tiles")
    if centre_key in placed or not in_wedge(centre_key) or not _fits(kind, centre_key, placed):
        raise ValueError(f"no tile may be placed at {centre_key}")
    if kind == "fallback":
        pile = m["spare"]["countryside"] or m["spare"]["core"]
        tile_id = pile.pop(rng.below(len(pile)))
    else:
        tile_id = m["tile_deck"].pop(0)
    tile = TILES[tile_id]
    events = [Event(f"{tile.label[0].upper()}{tile.label[1:]} is revealed.",
                    data={"type": "tile_revealed", "tile": tile_id, "centre": centre_key, "setup": False,
                          "kind": tile.kind, "city": tile.kind == "city", "fallback": kind == "fallback"})]
    events += place_tile(m, tile_id, centre_key, rng, draw_enemy, time, draw_ruins)
    return tile_id, events


# --- reveals during play ------------------------------------------------------------------------------------

def reveal_garrisons_near(m: Map, key: str, time: str) -> list[Event]:
    """By Day, face-down defenders of fortified sites next to ``key`` turn face up ("revealed by Day when a
    player is adjacent"). At Night they stay hidden until the assault."""
    if time != "day":
        return []
    events = []
    for n in adjacent(key):
        h = m["hexes"].get(n)
        if h is None or not site_facts.is_fortified(h["site"]):
            continue
        flipped = [e for e in h["enemies"] if not e["face_up"]]
        for e in flipped:
            e["face_up"] = True
        if flipped:
            events.append(Event(f"The defenders of the {site_facts.site(h['site'])['name'].lower()} are revealed.",
                                data={"type": "garrison_revealed", "hex": n, "enemies": [e["id"] for e in flipped]}))
    return events


def reveal_ruins(m: Map, key: str) -> list[Event]:
    """Turn a face-down ruins token face up (at the start of a Day round, or when a hero enters the ruins)."""
    ruins = m["hexes"][key]["ruins"]
    if not ruins or ruins["face_up"]:
        return []
    ruins["face_up"] = True
    return [Event("A ruins token is turned face up.", data={"type": "ruins_revealed", "hex": key,
                                                            "token": ruins["id"]})]


def reveal_ruins_at_day(m: Map) -> list[Event]:
    """Start of a Day round: every face-down ruins token is revealed."""
    events = []
    for key, h in m["hexes"].items():
        if h["ruins"] and not h["ruins"]["face_up"]:
            events += reveal_ruins(m, key)
    return events


def discard_ruins(m: Map, key: str) -> str | None:
    """The ruins token of ``key`` leaves the map (its site was conquered); it goes to the map's ruins discard if
    the map keeps the tokens, else the caller discards the returned id."""
    h = m["hexes"][key]
    token = h["ruins"]["id"] if h["ruins"] else None
    if token is not None:
        if "ruins_discard" in m:
            m["ruins_discard"].append(token)
        h["ruins"] = None
    return token
