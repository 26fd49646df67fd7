"""Standings: sum each entry's results and order them by the tournament's tie-breaks. Pure, no Django."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence


@dataclass(frozen=True)
class GameLine:
    """One entry's result at one table (a bye has place None and table_size 1)."""

    round: int
    place: int | None
    points: float
    mp: int = 0
    tiebreak: int = 0
    table_size: int = 1


@dataclass
class Line:
    entry_id: int
    name: str
    status: str = "active"
    games: list[GameLine] = field(default_factory=list)
    # Elimination: the round the entry went out in (None: still in); later is better.
    eliminated_in: int | None = None

    @property
    def totals(self) -> dict[str, float]:
        played = [g for g in self.games if g.place is not None]
        return {
            "points": round(sum(g.points for g in self.games), 4),
            "mp": sum(g.mp for g in played),
            "tiebreak": sum(g.tiebreak for g in played),
            "wins": sum(1 for g in played if g.place == 1),
            "games": len(played),
            "byes": sum(1 for g in self.games if g.table_size == 1),
        }


def standings_order(lines: Sequence[Line], *, tie_breaks: Sequence[str], elimination: bool = False,
                    rounds_played: int = 0) -> list[dict]:
    """Ranked rows, best first; entries equal on every key share a rank.

    In an elimination the stage reached comes first (still in, then out later, then out earlier),
    and within one stage the place in the last game played; then the stated tie-breaks.
    """
    def key(line: Line) -> tuple:
        totals = line.totals
        k: tuple = tuple(totals[t] for t in tie_breaks)
        if elimination:
            stage = rounds_played + 1 if line.eliminated_in is None else line.eliminated_in
            last = next((g for g in reversed(line.games) if g.place is not None and g.round == stage), None)
            k = (stage, -(last.place if last else 99)) + k
        return k

    ordered = sorted(lines, key=lambda ln: (key(ln), -ln.entry_id), reverse=True)
    rows, prev_key, prev_rank = [], None, 0
    for i, line in enumerate(ordered, start=1):
        k = key(line)
        rank = prev_rank if k == prev_key else i
        prev_key, prev_rank = k, rank
        rows.append({"rank": rank, "entry": line.entry_id, "player": line.name, "status": line.status,
                     **line.totals, "eliminated_in": line.eliminated_in,
                     "results": [{"round": g.round, "place": g.place, "points": g.points, "mp": g.mp,
                                  "tiebreak": g.tiebreak, "table_size": g.table_size} for g in line.games]})
    return rows
