"""A 9-player Swiss tournament of 3-player Faltisia games, three rounds, bots in every seat.

Contract: pairings valid; no repeat opponents where avoidable (9 in
tables of 3 over 3 rounds can avoid them all); the next round is created when a round finishes;
final standings ordered by the stated tie-breaks; ratings move (winners up, last places down);
notices and signals for new rounds, next games and final standings.
"""

import time
from itertools import combinations

import pytest
from django.core import mail

from games.models import Game, GameStatus, Seat, Submission, SubmissionSource
from games.ratings.models import RatedGame, Rating
from games.tournaments import signals
from games.tournaments.models import Entry, Notice, NoticeKind, Round, Table, TableSeat, TournamentStatus
from games.tournaments.selectors import tournament_standings
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end


@pytest.fixture
def caught():
    got = {"round_started": [], "game_assigned": [], "tournament_finished": []}

    def catcher(name):
        def receive(sender, **kwargs):
            got[name].append(kwargs)
        return receive

    receivers = {name: catcher(name) for name in got}
    for name, r in receivers.items():
        getattr(signals, name).connect(r)
    yield got
    for name, r in receivers.items():
        getattr(signals, name).disconnect(r)


def test_nine_player_swiss_of_faltisia_runs_three_rounds_to_final_standings(db, caught):
    boss = director()
    t = make_tournament(boss, name="Faltisia Swiss", engine="faltisia", options={}, seed=11)
    users = bot_field(t, 9)
    started = time.perf_counter()
    t = run_to_the_end(t, boss)
    elapsed = time.perf_counter() - started
    print(f"\n9-player Swiss, 9 Faltisia games: {elapsed:.1f}s")
    assert elapsed < 60

    assert t.status == TournamentStatus.FINISHED
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3] and all(r.status == "finished" for r in rounds)

    # Valid pairings: every round seats each of the 9 exactly once, at 3 tables of 3, each a real game
    # whose seats hold exactly the table's players (bot-played), finished through the resolution path.
    pairs = []
    for rnd in rounds:
        tables = list(Table.objects.filter(round=rnd).select_related("game"))
        assert len(tables) == 3 and all(tb.game is not None for tb in tables)
        seated = []
        for tb in tables:
            members = [ts.entry.user_id for ts in tb.places.select_related("entry").order_by("position")]
            assert len(members) == 3
            assert [s.user_id for s in Seat.objects.filter(game=tb.game).order_by("position")] == members
            assert tb.game.status == GameStatus.FINISHED and tb.game.engine == "faltisia"
            assert Submission.objects.filter(game=tb.game, source=SubmissionSource.BOT).count() > 100
            seated += members
            pairs += [frozenset(p) for p in combinations(members, 2)]
        assert sorted(seated) == sorted(u.pk for u in users)
    # No two players met twice (27 pairs over 3 rounds, all distinct).
    assert len(pairs) == 27 and len(set(pairs)) == 27

    # Standings: 9 rows, points/MP/tie-break sums match the counted table seats, ordered by the keys.
    st = tournament_standings(tournament=t)
    rows = st["rows"]
    assert st["final"] and len(rows) == 9 and [k["key"] for k in st["tie_breaks"]] == ["points", "mp", "tiebreak"]
    for row in rows:
        seats = TableSeat.objects.filter(entry_id=row["entry"])
        assert row["games"] == 3
        assert row["points"] == pytest.approx(sum(s.points for s in seats))
        assert row["mp"] == sum(s.mp for s in seats)
    keys = [(r["points"], r["mp"], r["tiebreak"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    # 3 tables x (2 + 1 + 0) points per round (ties share), 3 rounds.
    assert sum(r["points"] for r in rows) == pytest.approx(27)

    # Ratings: every game rated exactly once; each game's winner moved up, its last place down.
    assert RatedGame.objects.filter(game__tournament_table__round__tournament=t).count() == 9
    for rated in RatedGame.objects.filter(game__tournament_table__round__tournament=t):
        ranks = {int(uid): c for uid, c in rated.changes.items()}
        best = min(c["rank"] for c in ranks.values())
        worst = max(c["rank"] for c in ranks.values())
        for c in ranks.values():
            if c["rank"] == best and best != worst:
                assert c["after"][0] > c["before"][0]
            if c["rank"] == worst and best != worst:
                assert c["after"][0] < c["before"][0]
    assert all(r.games == 3 for r in Rating.objects.filter(user__in=users))

    # Notices: 9 per round (next game) and 9 final; the signals fired; mail went out on commit.
    assert Notice.objects.filter(tournament=t, kind=NoticeKind.GAME_ASSIGNED).count() == 27
    assert Notice.objects.filter(tournament=t, kind=NoticeKind.TOURNAMENT_FINISHED).count() == 9
    assert len(caught["round_started"]) == 3 and len(caught["game_assigned"]) == 27
    assert len(caught["tournament_finished"]) == 1
    assert caught["tournament_finished"][0]["standings"][0]["rank"] == 1
    assert len(mail.outbox) == 36 and not Notice.objects.filter(tournament=t, emailed_at__isnull=True).exists()
    assert Game.objects.filter(tournament_table__round__tournament=t).count() == 9
    assert Entry.objects.filter(tournament=t, status="active").count() == 9
