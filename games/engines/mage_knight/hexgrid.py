"""Hex geometry of the map, apart from what stands on it: keys, neighbours, distance, and the lattice of tile centres.

Coordinates are axial, pointy-top, r grows downward; a hex key is the string "q,r" (plain JSON keeps it as is).
A tile is a 7-hex flower (tiles.OFFSETS) whose centre lies on the flower lattice, so tiles never overlap and
their "corner symbols must line up"; the six neighbouring tile positions of a centre are TILE_STEPS. The wedge
("Map Shape: Wedge") opens between two coastlines: every tile position is a*NE + b*E with a, b >= 0
(NE = (2,-3), E = (3,-1)); a position with a < 0 or b < 0 is behind a coastline.

Nothing here reads a map or a game state: hexmap.py asks these questions about the tiles it places.
"""

from __future__ import annotations

from functools import lru_cache

from .tiles import OFFSETS, POSITIONS

HEX_DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))  # NE E SE SW W NW
TILE_STEPS = {"NE": (2, -3), "E": (3, -1), "SE": (1, 2), "SW": (-2, 3), "W": (-3, 1), "NW": (-1, -2)}


def key_of(q: int, r: int) -> str:
    return f"{q},{r}"


@lru_cache(maxsize=None)
def parse(key: str) -> tuple[int, int]:
    q, r = key.split(",")
    return int(q), int(r)


@lru_cache(maxsize=None)
def adjacent(key: str) -> tuple[str, ...]:
    """The six hexes around ``key`` as one shared tuple (cached: the map's searches ask for them again and again)."""
    q, r = parse(key)
    return tuple(key_of(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS)


def neighbours(key: str) -> list[str]:
    """The six hexes around ``key`` (on the map or not), as a list the caller may extend."""
    return list(adjacent(key))


def distance(a: str, b: str) -> int:
    """Hex steps between two keys (axial coordinates)."""
    (q1, r1), (q2, r2) = parse(a), parse(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def ring2(key: str) -> list[str]:
    """The hexes exactly two steps from ``key`` (on the map or not): Space Bending's "2 spaces away"."""
    near = {n2 for n in adjacent(key) for n2 in adjacent(n)}
    return sorted(k for k in near if distance(key, k) == 2)


def on_lattice(centre: str) -> bool:
    """True if a tile may be centred here: the corner symbols of every tile line up on this lattice."""
    q, r = parse(centre)
    return (q + 3 * r) % 7 == 0


def wedge_coords(centre: str) -> tuple[int, int]:
    """(a, b) with centre = a*NE + b*E; only meaningful on the lattice."""
    q, r = parse(centre)
    return -(q + 3 * r) // 7, (3 * q + 2 * r) // 7


def in_wedge(centre: str) -> bool:
    """On the lattice and not behind either coastline of the wedge."""
    if not on_lattice(centre):
        return False
    a, b = wedge_coords(centre)
    return a >= 0 and b >= 0


@lru_cache(maxsize=None)
def centre_of(key: str) -> str:
    """The tile position (lattice centre) whose flower contains this hex."""
    q, r = parse(key)
    for dq, dr in OFFSETS.values():
        c = key_of(q - dq, r - dr)
        if on_lattice(c):
            return c
    raise AssertionError("the flower lattice covers every hex")  # pragma: no cover


def tile_hexes(centre: str) -> list[str]:
    """The seven hex keys of a tile centred here, in POSITIONS order."""
    q, r = parse(centre)
    return [key_of(q + OFFSETS[p][0], r + OFFSETS[p][1]) for p in POSITIONS]


def adjacent_positions(centre: str) -> list[str]:
    """The six tile positions bordering the tile centred here (on the lattice, in the wedge or not)."""
    q, r = parse(centre)
    return [key_of(q + dq, r + dr) for dq, dr in TILE_STEPS.values()]
