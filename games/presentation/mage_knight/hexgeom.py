"""Pointy-top axial hex geometry for the SVG map: a hex's centre, its corners, and the viewBox around them all.

Axial (q, r) with r growing downward, as the engine's map and the tile data use (games/engines/mage_knight/README.md).
Lengths are SVG user units; the map scales with its viewBox, so the size only fixes the proportions of the drawing.
"""

from __future__ import annotations

import math
from typing import Iterable

SIZE = 30.0  # centre to corner
SQRT3 = math.sqrt(3.0)
# The six neighbours of a hex (axial), starting east and going clockwise on screen (r grows downward).
DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def parse(key: str) -> tuple[int, int]:
    """"q,r" -> (q, r)."""
    q, _, r = key.partition(",")
    return int(q), int(r)


def centre(q: int, r: int, size: float = SIZE) -> tuple[float, float]:
    return size * SQRT3 * (q + r / 2.0), size * 1.5 * r


def corners(q: int, r: int, size: float = SIZE) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex (a corner points straight up)."""
    cx, cy = centre(q, r, size)
    return [(cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


def points(q: int, r: int, size: float = SIZE) -> str:
    """The corners as an SVG ``points`` attribute."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(q, r, size))


def tile_hexes(q: int, r: int) -> list[tuple[int, int]]:
    """A map tile's seven hexes: its centre and the six around it."""
    return [(q, r)] + [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def view_box(cells: Iterable[tuple[int, int]], size: float = SIZE, margin: float = 6.0) -> tuple[float, float, float, float]:
    """(min x, min y, width, height) holding every given hex whole, with a margin."""
    xs, ys = [], []
    for q, r in cells:
        cx, cy = centre(q, r, size)
        xs += [cx - size * SQRT3 / 2, cx + size * SQRT3 / 2]
        ys += [cy - size, cy + size]
    if not xs:
        return (-size - margin, -size - margin, 2 * (size + margin), 2 * (size + margin))
    x0, y0 = min(xs) - margin, min(ys) - margin
    return (x0, y0, max(xs) - x0 + margin, max(ys) - y0 + margin)
