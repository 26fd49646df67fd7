"""Seating players into tables of N for one round. Pure functions over player ids, no Django.

The three formats share one seater: take the players in an order (Swiss: by standings; round robin:
a fixed order; elimination: by seed, snake-distributed), and fill tables so that as few pairs as
possible meet again, preferring, among equally fresh seatings, tables of players close in that order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

Pair = frozenset


@dataclass(frozen=True)
class Layout:
    sizes: tuple[int, ...]  # table sizes, largest first
    byes: int  # players left without a table this round


def table_layout(count: int, *, table_size: int, min_players: int, odd_players: str) -> Layout:
    """How ``count`` players sit: all at tables of N, or N and N-1 ("smaller_tables"), else byes."""
    n = table_size
    if count < min_players:
        return Layout((), count)
    if count % n == 0:
        return Layout((n,) * (count // n), 0)
    tables = -(-count // n)
    short = tables * n - count  # tables that seat N-1
    if odd_players == "smaller_tables" and n - 1 >= min_players and short <= tables:
        return Layout((n,) * (tables - short) + (n - 1,) * short, 0)
    full, rest = divmod(count, n)
    if rest >= min_players:  # the remainder can still play a table of its own
        return Layout((n,) * full + (rest,), 0)
    return Layout((n,) * full, rest)


def meetings(tables: Iterable[Sequence[int]]) -> Counter:
    """How often each pair of players has sat at one table."""
    met: Counter = Counter()
    for table in tables:
        for a, b in combinations(table, 2):
            met[Pair((a, b))] += 1
    return met


def repeats(table: Sequence[int], met: Counter) -> int:
    return sum(met[Pair((a, b))] for a, b in combinations(table, 2))


def seat_tables(order: Sequence[int], sizes: Sequence[int], met: Counter, *,
                budget: int = 200_000) -> list[list[int]]:
    """Seat ``order`` (best first) into tables of ``sizes`` minimising repeated pairs.

    Depth-first: the first unseated player picks companions from the rest, freshest and closest in
    order first; branch and bound on repeats; stops at the first seating with no repeat, or when
    ``budget`` candidate tables have been tried (then the best found is returned). A seating with
    no repeat, if it exists, is found whenever the search space fits the budget (it does for the
    field sizes of a league: 9 players in 3s has 280 seatings per round).
    """
    assert sum(sizes) == len(order), "sizes must seat every player"
    rank = {p: i for i, p in enumerate(order)}
    best: list = [None, float("inf")]
    tried = 0

    def search(left: list[int], table_no: int, acc: list[list[int]], cost: int) -> bool:
        nonlocal tried
        if table_no == len(sizes):
            if cost < best[1]:
                best[0], best[1] = [list(t) for t in acc], cost
            return cost == 0
        head, rest = left[0], left[1:]
        candidates = []
        for mates in combinations(rest, sizes[table_no] - 1):
            table = (head, *mates)
            spread = sum(rank[m] - rank[head] for m in mates)
            candidates.append((repeats(table, met), spread, table))
        candidates.sort()
        for extra, _, table in candidates:
            tried += 1
            if cost + extra >= best[1] or tried > budget:
                break  # sorted by repeats: nothing later is cheaper
            remaining = [p for p in rest if p not in table]
            acc.append(list(table))
            done = search(remaining, table_no + 1, acc, cost + extra)
            acc.pop()
            if done:
                return True
        return False

    search(list(order), 0, [], 0)
    if best[0] is None:  # budget exhausted before any complete seating: seat greedily in order
        it = iter(order)
        return [[next(it) for _ in range(size)] for size in sizes]
    return best[0]


def snake(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Deal seeds over tables 1..T, then T..1, ... so the top seeds are spread (elimination)."""
    tables: list[list[int]] = [[] for _ in sizes]
    players = iter(order)
    forward = True
    while sum(map(len, tables)) < len(order):
        for t in (range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)):
            if len(tables[t]) < sizes[t]:
                tables[t].append(next(players))
        forward = not forward
    return tables


def circle_round(players: Sequence[int], round_no: int) -> tuple[list[list[int]], list[int]]:
    """Pairs for round ``round_no`` (1-based) of a two-player round robin (the circle method).

    Over len(players) - 1 rounds (len(players) if odd, one bye each round) everyone meets everyone
    exactly once. Returns (pairs, byes).
    """
    ps: list = list(players)
    if len(ps) % 2:
        ps.append(None)
    n = len(ps)
    k = (round_no - 1) % (n - 1)
    rotated = [ps[0]] + ps[1:][-k:] + ps[1:][:-k] if k else list(ps)
    pairs, byes = [], []
    for i in range(n // 2):
        a, b = rotated[i], rotated[n - 1 - i]
        if a is None or b is None:
            byes.append(b if a is None else a)
        else:
            pairs.append([a, b])
    return pairs, byes
