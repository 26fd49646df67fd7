"""Standings checked by hand on a fixed case."""

from django.utils import timezone

from games.models import Game, GameStatus
from games.tournaments.models import Entry, Round, Table, TableSeat, TournamentStatus
from games.tournaments.selectors import tournament_standings
from games.tournaments.standings import GameLine, Line, standings_order
from tests.factories import UserFactory
from tests.tournaments.helpers import director, make_tournament


def _fixed_case(settings):
    """Six entries, two rounds of two tables of 3, results written directly (no games played)."""
    boss = director()
    t = make_tournament(boss, settings=settings)
    names = "ABCDEF"
    entries = {}
    for n in names:
        entries[n] = Entry.objects.create(tournament=t, user=UserFactory(username=f"p{n}"))
    t.status = TournamentStatus.RUNNING
    t.save()
    # (entry, place, mp, tiebreak) per table; points by the default scale 2/1/0.
    results = {1: [[("A", 1, 20, 30), ("B", 2, 15, 10), ("C", 3, 10, 12)],
                   [("D", 1, 21, 25), ("E", 2, 17, 22), ("F", 3, 5, 9)]],
               2: [[("A", 3, 8, 11), ("D", 2, 12, 19), ("E", 1, 16, 20)],
                   [("B", 1, 22, 10), ("C", 2, 14, 13), ("F", 3, 9, 8)]]}
    points = {1: 2.0, 2: 1.0, 3: 0.0}
    for number, tables in results.items():
        rnd = Round.objects.create(tournament=t, number=number, status="finished")
        for k, rows in enumerate(tables, 1):
            game = Game.objects.create(engine="tinygame", seed=1, players=3, status=GameStatus.FINISHED)
            table = Table.objects.create(round=rnd, number=k, game=game, scored_at=timezone.now())
            for pos, (n, place, mp, tb) in enumerate(rows):
                TableSeat.objects.create(table=table, entry=entries[n], position=pos, place=place,
                                         points=points[place], mp=mp, tiebreak=tb)
    return t


def test_standings_by_hand_points_then_mp_then_game_tiebreak(db):
    # Points: B 3, D 3, E 3, A 2, C 1, F 0. MP: B 37, D 33, E 33. D and E tie on points and MP:
    # the game's own tie-break decides (Faltisia: combined attributes) D 44 > E 42.
    rows = tournament_standings(tournament=_fixed_case({}))["rows"]
    assert [(r["rank"], r["player"], r["points"], r["mp"], r["tiebreak"]) for r in rows] == [
        (1, "pB", 3.0, 37, 20), (2, "pD", 3.0, 33, 44), (3, "pE", 3.0, 33, 42),
        (4, "pA", 2.0, 28, 41), (5, "pC", 1.0, 24, 25), (6, "pF", 0.0, 14, 17)]


def test_standings_follow_the_tie_breaks_stated_in_the_settings(db):
    rows = tournament_standings(tournament=_fixed_case({"tie_breaks": ["points", "tiebreak", "mp"]}))["rows"]
    assert [r["player"] for r in rows[:3]] == ["pD", "pE", "pB"]  # tie-break 44 > 42 > 20 before MP


def test_entries_equal_on_every_key_share_a_rank():
    lines = [Line(1, "a", games=[GameLine(1, 1, 2.0, 10, 5, 3)]), Line(2, "b", games=[GameLine(1, 1, 2.0, 10, 5, 3)]),
             Line(3, "c", games=[GameLine(1, 3, 0.0, 4, 1, 3)])]
    rows = standings_order(lines, tie_breaks=["points", "mp", "tiebreak"])
    assert [(r["rank"], r["player"]) for r in rows] == [(1, "a"), (1, "b"), (3, "c")]
