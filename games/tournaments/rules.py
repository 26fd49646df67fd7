"""A tournament's scoring and seating rules, read from Tournament.settings (see docs/tournaments.md).

settings keys (all optional):
  points_by_place: {"<table size>": [points for 1st, 2nd, ...]}; default for a table of n in a
      tournament of tables of N: place p scores (n - p) * (N - 1) / (n - 1), so the winner always
      scores N - 1, the last 0, and the average per player is (N - 1) / 2 at every table size.
  tie_breaks: order of standings keys, from TIE_BREAKS; default ["points", "mp", "tiebreak"].
  odd_players: "smaller_tables" (default: tables of N and N-1, everyone plays every round) or "byes".
  bye_points: points for a bye; default (N - 1) / 2, the average a table pays per player.
  advance_per_table: single elimination, how many of each table go through; default 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

# Standings keys, each summed over an entry's games, higher is better.
TIE_BREAKS = {
    "points": "tournament points by finishing place",
    "mp": "total game score (Faltisia: MP)",
    "tiebreak": "total of the game's own tie-break (Faltisia: combined attributes)",
    "wins": "games won (first place, shared or not)",
}
DEFAULT_TIE_BREAKS = ("points", "mp", "tiebreak")
ODD_POLICIES = ("smaller_tables", "byes")


@dataclass(frozen=True)
class Rules:
    table_size: int
    min_players: int
    points_by_place: Mapping[int, tuple[float, ...]]
    tie_breaks: tuple[str, ...]
    odd_players: str
    bye_points: float
    advance_per_table: int

    def place_points(self, place: int, table_size: int) -> float:
        """Points for finishing ``place`` (1-based) at a table of ``table_size``."""
        if table_size in self.points_by_place:
            scale = self.points_by_place[table_size]
            return float(scale[place - 1]) if place - 1 < len(scale) else 0.0
        if table_size <= 1:
            return self.bye_points
        return (table_size - place) * (self.table_size - 1) / (table_size - 1)

    def points_for_ranks(self, ranks: list[int]) -> list[float]:
        """Points per seat; seats sharing a rank share the points of the places they cover equally."""
        n = len(ranks)
        out = []
        for r in ranks:
            tied = ranks.count(r)
            out.append(round(sum(self.place_points(p, n) for p in range(r, r + tied)) / tied, 4))
        return out


def rules_from(*, table_size: int, min_players: int, settings: Mapping[str, Any]) -> Rules:
    """Read and check the settings; ValueError with a clear message for anything wrong."""
    if table_size < min_players:
        # A game's min_players is its multi-player minimum: one-seat games (Faltisia Solo Mode) never enter.
        raise ValueError(f"a tournament table seats at least {min_players} players")
    settings = dict(settings or {})
    unknown = set(settings) - {"points_by_place", "tie_breaks", "odd_players", "bye_points", "advance_per_table"}
    if unknown:
        raise ValueError(f"unknown tournament settings: {', '.join(sorted(unknown))}")
    pbp: dict[int, tuple[float, ...]] = {}
    for size, scale in (settings.get("points_by_place") or {}).items():
        try:
            n = int(size)
            values = tuple(float(v) for v in scale)
        except (TypeError, ValueError):
            raise ValueError("points_by_place maps a table size to a list of numbers")
        if len(values) != n or list(values) != sorted(values, reverse=True):
            raise ValueError(f"points_by_place[{size}] needs {n} non-increasing numbers")
        pbp[n] = values
    tie_breaks = tuple(settings.get("tie_breaks") or DEFAULT_TIE_BREAKS)
    bad = [k for k in tie_breaks if k not in TIE_BREAKS]
    if bad or len(set(tie_breaks)) != len(tie_breaks):
        raise ValueError(f"tie_breaks must be distinct keys from {sorted(TIE_BREAKS)}")
    odd = settings.get("odd_players", "smaller_tables")
    if odd not in ODD_POLICIES:
        raise ValueError(f"odd_players must be one of {ODD_POLICIES}")
    advance = int(settings.get("advance_per_table", 1))
    if not 1 <= advance < table_size:
        raise ValueError("advance_per_table must be at least 1 and less than the table size")
    bye = float(settings.get("bye_points", (table_size - 1) / 2))
    return Rules(table_size=table_size, min_players=min_players, points_by_place=pbp, tie_breaks=tie_breaks,
                 odd_players=odd, bye_points=bye, advance_per_table=advance)
