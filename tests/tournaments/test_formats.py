"""Round robin and single elimination run to the end with bot fields (tinygame, fast)."""

from itertools import combinations

from games.tournaments.models import Entry, Round, TableSeat, TournamentStatus
from games.tournaments.selectors import tournament_standings
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end


def tables_of(t, number):
    rnd = Round.objects.get(tournament=t, number=number)
    return [sorted(ts.entry.user.username for ts in tb.places.select_related("entry__user"))
            for tb in rnd.tables.order_by("number")]


def test_two_player_round_robin_pairs_everyone_exactly_once(db):
    boss = director()
    t = make_tournament(boss, format="round_robin", table_size=2, rounds=0)
    users = bot_field(t, 4)
    t = run_to_the_end(t, boss)
    assert t.status == TournamentStatus.FINISHED and t.rounds == 3
    pairs = [frozenset(tb) for n in (1, 2, 3) for tb in tables_of(t, n)]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, combinations([u.username for u in users], 2)))
    rows = tournament_standings(tournament=t)["rows"]
    assert [r["games"] for r in rows] == [3] * 4 and sum(r["points"] for r in rows) == 6  # 1 point per game


def test_multi_player_round_robin_uses_the_fewest_rounds_and_repeats_nobody(db):
    boss = director()
    t = make_tournament(boss, format="round_robin", table_size=3, rounds=0)
    bot_field(t, 7)  # tables of 3, 2, 2; ceil(6 / 2) = 3 rounds
    t = run_to_the_end(t, boss)
    assert t.rounds == 3 and t.status == TournamentStatus.FINISHED
    pairs = [frozenset(p) for n in (1, 2, 3) for tb in tables_of(t, n) for p in combinations(tb, 2)]
    assert len(pairs) == len(set(pairs))
    assert all(sorted(map(len, tables_of(t, n))) == [2, 2, 3] for n in (1, 2, 3))


def test_single_elimination_advances_table_winners_to_a_final(db):
    boss = director()
    t = make_tournament(boss, format="single_elimination", table_size=3, rounds=0, seed=5)
    bot_field(t, 9)
    t = run_to_the_end(t, boss)
    assert t.status == TournamentStatus.FINISHED and t.current_round == 2
    first = list(Round.objects.get(tournament=t, number=1).tables.order_by("number"))
    winners = set()
    for tb in first:
        places = sorted(tb.places.all(), key=lambda s: (s.place, -s.mp, -s.tiebreak, s.entry.seed_no))
        winners.add(places[0].entry_id)
        # Seeds were dealt in a snake: table k holds seeds k, 7-k, 6+k.
        assert sorted(s.entry.seed_no for s in tb.places.all()) == sorted([tb.number, 7 - tb.number, 6 + tb.number])
    final = Round.objects.get(tournament=t, number=2).tables.get()
    assert {s.entry_id for s in final.places.all()} == winners
    rows = tournament_standings(tournament=t)["rows"]
    champion = Entry.objects.get(tournament=t, status="active")
    assert rows[0]["entry"] == champion.pk and rows[0]["eliminated_in"] is None
    # Final-table losers rank 2-3 in their final order; the rest went out in round 1.
    final_order = [s.entry_id for s in sorted(final.places.all(), key=lambda s: s.place)]
    assert [r["entry"] for r in rows[1:3]] == final_order[1:]
    assert [r["eliminated_in"] for r in rows[3:]] == [1] * 6
    assert Entry.objects.filter(tournament=t, status="eliminated").count() == 8


def test_elimination_with_a_bye_lets_the_top_seed_through(db):
    boss = director()
    t = make_tournament(boss, format="single_elimination", table_size=3, rounds=0,
                        settings={"odd_players": "byes"})
    bot_field(t, 4)  # one table of 3 and a bye for seed 1; then a final of 2
    t = run_to_the_end(t, boss)
    r1 = Round.objects.get(tournament=t, number=1)
    bye = r1.tables.get(game__isnull=True)
    assert bye.places.get().entry.seed_no == 1
    final = Round.objects.get(tournament=t, number=2).tables.get()
    assert final.places.count() == 2 and final.places.filter(entry__seed_no=1).exists()
    assert t.status == TournamentStatus.FINISHED
    assert TableSeat.objects.filter(table=bye).get().points == 1.0  # bye points: (N - 1) / 2
