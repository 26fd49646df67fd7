"""Percentiles and the printed table of the load benchmark."""

from __future__ import annotations

import math


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def rounded(x: float | None, digits: int = 1) -> float | None:
    return None if x is None else round(x, digits)


def table(rows: list[tuple[str, object, str]]) -> str:
    """Rows of (figure, value, target/note) as an aligned text table."""
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(str(r[1])) for r in rows)
    lines = [f"{'figure'.ljust(width)}  {'value'.rjust(vwidth)}  target / note", "-" * (width + vwidth + 30)]
    lines += [f"{name.ljust(width)}  {str(value).rjust(vwidth)}  {note}" for name, value, note in rows]
    return "\n".join(lines)
