"""Seating logic (pure): table layouts for odd counts, repeat avoidance, round robin, snake seeding."""

from itertools import combinations

import pytest

from games.tournaments.pairing import circle_round, meetings, seat_tables, snake, table_layout
from games.tournaments.rules import rules_from


@pytest.mark.parametrize("count,n,minp,policy,sizes,byes", [
    (9, 3, 2, "smaller_tables", (3, 3, 3), 0),
    (7, 3, 2, "smaller_tables", (3, 2, 2), 0),  # tables of N and N-1: everybody plays
    (10, 4, 3, "smaller_tables", (4, 3, 3), 0),
    (5, 4, 3, "smaller_tables", (4,), 1),  # 3+2 impossible (min 3): one bye
    (7, 3, 2, "byes", (3, 3), 1),
    (8, 3, 2, "byes", (3, 3, 2), 0),  # a remainder that can still play gets its own table
    (1, 3, 2, "smaller_tables", (), 1),
])
def test_table_layout_handles_odd_counts(count, n, minp, policy, sizes, byes):
    layout = table_layout(count, table_size=n, min_players=minp, odd_players=policy)
    assert layout.sizes == sizes and layout.byes == byes
    assert sum(layout.sizes) + layout.byes == count


def test_nine_in_threes_meet_nobody_twice_for_four_rounds():
    # 9 players in tables of 3: 4 rounds without a repeat exist (the affine plane of order 3);
    # the seater must find them even though greedy choices in round 2 could block round 4.
    history = []
    for _ in range(4):
        tables = seat_tables(list(range(9)), [3, 3, 3], meetings(history))
        assert sorted(p for t in tables for p in t) == list(range(9))
        history += tables
    assert max(meetings(history).values()) == 1 and len(meetings(history)) == 36  # every pair once


def test_when_a_repeat_is_unavoidable_the_fewest_are_made():
    # 4 players in tables of 2 for 4 rounds: only 3 rounds are repeat-free; round 4 repeats 2 pairs.
    history = []
    for _ in range(4):
        history += seat_tables([0, 1, 2, 3], [2, 2], meetings(history))
    assert sorted(meetings(history).values()) == [1, 1, 1, 1, 2, 2]


def test_seater_prefers_neighbours_in_the_order_among_fresh_tables():
    assert seat_tables([5, 1, 7, 3, 2, 9], [3, 3], meetings([])) == [[5, 1, 7], [3, 2, 9]]


def test_circle_method_meets_everyone_exactly_once():
    for players in ([1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5]):
        rounds = len(players) - 1 if len(players) % 2 == 0 else len(players)
        pairs, byes = [], []
        for r in range(1, rounds + 1):
            p, b = circle_round(players, r)
            pairs += [frozenset(x) for x in p]
            byes += b
        assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, combinations(players, 2))))
        assert sorted(byes) == ([] if len(players) % 2 == 0 else players)


def test_snake_spreads_the_top_seeds():
    assert snake(list(range(1, 10)), [3, 3, 3]) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    assert snake([1, 2, 3, 4, 5], [3, 2]) == [[1, 4, 5], [2, 3]]


def test_points_by_place_default_is_fair_across_table_sizes_and_ties_share():
    rules = rules_from(table_size=3, min_players=2, settings={})
    assert rules.points_for_ranks([1, 2, 3]) == [2.0, 1.0, 0.0]
    assert rules.points_for_ranks([2, 1]) == [0.0, 2.0]  # a table of N-1: winner still scores N-1
    assert rules.points_for_ranks([1, 1, 3]) == [1.5, 1.5, 0.0]  # tied winners share 1st and 2nd
    custom = rules_from(table_size=3, min_players=2, settings={"points_by_place": {"3": [5, 2, 0]}})
    assert custom.points_for_ranks([3, 1, 2]) == [0.0, 5.0, 2.0]


@pytest.mark.parametrize("settings", [
    {"tie_breaks": ["points", "luck"]}, {"points_by_place": {"3": [1, 2, 0]}}, {"odd_players": "coin"},
    {"advance_per_table": 3}, {"colour": "red"},
])
def test_bad_rules_are_refused(settings):
    with pytest.raises(ValueError):
        rules_from(table_size=3, min_players=2, settings=settings)
