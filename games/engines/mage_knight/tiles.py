"""Map tiles (tiles.csv, one row per hex) and terrain Move costs.

A tile is a 7-hex flower; each row gives one hex as an axial offset (dq, dr) from the tile centre
(pointy-top, r grows downward), its terrain, its Move cost by Day and by Night (empty = inaccessible, the
"X" of the Day/Night board), its site and the rampaging enemy colours placed on it when the tile is revealed.
Tiles are never rotated: "the orientation must match the starting tile".
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

CSV_PATH = os.path.join(os.path.dirname(__file__), "tiles.csv")
POSITIONS = ("C", "NE", "E", "SE", "SW", "W", "NW")
OFFSETS = {"C": (0, 0), "NE": (1, -1), "E": (1, 0), "SE": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (0, -1)}
KINDS = ("starting", "countryside", "core", "city")
TERRAINS = ("plains", "hills", "forest", "wasteland", "desert", "swamp", "lake", "mountain", "ocean")
SITES = ("village", "monastery", "keep", "mage_tower", "dungeon", "tomb", "monster_den", "spawning_grounds",
         "ancient_ruins", "mine", "magical_glade", "city", "portal")
CRYSTALS = ("red", "blue", "green", "white")
RAMPAGING_COLOURS = ("green", "red")  # orc marauders, draconum
# The base game's tile counts; the loader refuses any other file.
COUNTS = {"starting": 2, "countryside": 11, "core": 4, "city": 4}


class TileDataError(ValueError):
    """tiles.csv breaks a rule of the format; the message names the row."""


@dataclass(frozen=True, slots=True)
class Hex:
    position: str
    dq: int
    dr: int
    terrain: str
    day_cost: int | None
    night_cost: int | None
    site: str | None
    mine_colour: str | None
    city_colour: str | None
    rampaging: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tile:
    id: str
    kind: str
    number: int  # the number printed on the tile (0 for the starting tiles)
    hexes: tuple[Hex, ...]  # in POSITIONS order

    @property
    def label(self) -> str:
        """Plain-English name: 'countryside tile 3', 'core tile 2', 'core tile 6 (the blue city)', 'starting tile A'."""
        if self.kind == "starting":
            return f"starting tile {self.id[-1].upper()}"
        if self.kind == "city":
            return f"core tile {self.number} (the {self.hexes[0].city_colour} city)"
        return f"{self.kind} tile {self.number}"


def _cost(text: str, where: str) -> int | None:
    if text == "":
        return None
    value = int(text)
    if value < 0:
        raise TileDataError(f"{where}: negative Move cost")
    return value


def _load() -> dict[str, Tile]:
    rows_by_tile: dict[str, list[dict]] = {}
    kinds: dict[str, str] = {}
    with open(CSV_PATH, newline="") as fh:
        for n, row in enumerate(csv.DictReader(fh), start=2):
            where = f"tiles.csv line {n}"
            if row["kind"] not in KINDS or row["terrain"] not in TERRAINS:
                raise TileDataError(f"{where}: bad kind or terrain")
            if row["site"] and row["site"] not in SITES:
                raise TileDataError(f"{where}: unknown site {row['site']!r}")
            if kinds.setdefault(row["tile"], row["kind"]) != row["kind"]:
                raise TileDataError(f"{where}: tile {row['tile']} changes kind")
            rows_by_tile.setdefault(row["tile"], []).append(row | {"_where": where})
    tiles = {}
    for tile_id, rows in rows_by_tile.items():
        if tuple(r["position"] for r in rows) != POSITIONS:
            raise TileDataError(f"{rows[0]['_where']}: tile {tile_id} must list the positions {POSITIONS}")
        hexes = []
        for r in rows:
            dq, dr = int(r["dq"]), int(r["dr"])
            if (dq, dr) != OFFSETS[r["position"]]:
                raise TileDataError(f"{r['_where']}: offset does not match position {r['position']}")
            rampaging = tuple(r["rampaging"].split())
            if any(c not in RAMPAGING_COLOURS for c in rampaging) or (rampaging and r["site"]):
                raise TileDataError(f"{r['_where']}: a rampaging enemy is green or red, on a space with no site")
            mine = r["mine_colour"]
            if (mine != "") != (r["site"] == "mine") or (mine and mine not in CRYSTALS):
                raise TileDataError(f"{r['_where']}: a mine has exactly one crystal colour")
            hexes.append(Hex(r["position"], dq, dr, r["terrain"], _cost(r["day_cost"], r["_where"]),
                             _cost(r["night_cost"], r["_where"]), r["site"] or None, r["mine_colour"] or None,
                             r["city_colour"] or None, rampaging))
        number = int(tile_id.rsplit("_", 1)[1]) if kinds[tile_id] != "starting" else 0
        tiles[tile_id] = Tile(tile_id, kinds[tile_id], number, tuple(hexes))
    counts = {k: sum(1 for t in tiles.values() if t.kind == k) for k in KINDS}
    if counts != COUNTS:
        raise TileDataError(f"tiles.csv: expected tile counts {COUNTS}, got {counts}")
    return tiles


def _terrain_costs(tiles: dict[str, Tile]) -> dict[str, tuple[int | None, int | None]]:
    """Terrain -> (Day cost, Night cost), checked to be the same on every non-city hex."""
    costs: dict[str, tuple[int | None, int | None]] = {}
    for tile in tiles.values():
        for h in tile.hexes:
            if h.site == "city":
                continue  # a city space costs 2 whatever the terrain under it
            if costs.setdefault(h.terrain, (h.day_cost, h.night_cost)) != (h.day_cost, h.night_cost):
                raise TileDataError(f"tiles.csv: {tile.id} {h.position}: {h.terrain} cost differs from other hexes")
    return costs


TILES: dict[str, Tile] = _load()
TERRAIN_COSTS: dict[str, tuple[int | None, int | None]] = _terrain_costs(TILES)
COUNTRYSIDE = tuple(sorted((t.id for t in TILES.values() if t.kind == "countryside"), key=lambda i: TILES[i].number))
CORE_NON_CITY = tuple(sorted((t.id for t in TILES.values() if t.kind == "core"), key=lambda i: TILES[i].number))
CITY_TILES = tuple(sorted((t.id for t in TILES.values() if t.kind == "city"), key=lambda i: TILES[i].number))


def tile(tile_id: str) -> Tile:
    return TILES[tile_id]


def terrain_cost(terrain: str, time: str) -> int | None:
    """Move cost of a terrain by Day or Night (None: inaccessible)."""
    day, night = TERRAIN_COSTS.get(terrain, (None, None))  # ocean is on no base tile: inaccessible
    return day if time == "day" else night
