"""Standings checked by hand on a fixed case, and the services around a running tournament."""

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone

from games.errors import ErrorCode, GameError
from games.models import Event, Game, GameStatus, Seat
from games.ratings.models import RatedGame, Rating
from games.ratings.services import ratings_update_for_game
from games.services.admin_actions import game_abandon
from games.tournaments.models import Entry, Round, Table, TableSeat, TournamentStatus
from games.tournaments.selectors import tournament_standings
from games.tournaments.services import (entry_drop, entry_replace, tournament_create, tournament_register,
                                        tournament_start)
from games.tournaments.standings import GameLine, Line, standings_order
from tests.factories import UserFactory
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end


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


def test_registration_window_capacity_and_state_are_enforced(db):
    boss = director()
    now = timezone.now()
    t = make_tournament(boss, registration_opens=now + timedelta(hours=1),
                        registration_closes=now + timedelta(days=1), max_players=2)
    u1, u2, u3 = UserFactory(), UserFactory(), UserFactory()
    with pytest.raises(GameError, match="not opened"):
        tournament_register(tournament=t, user=u1)
    later = now + timedelta(hours=2)
    e = tournament_register(tournament=t, user=u1, now=later)
    assert tournament_register(tournament=t, user=u1, now=later) == e  # idempotent
    tournament_register(tournament=t, user=u2, now=later)
    with pytest.raises(GameError, match="full"):
        tournament_register(tournament=t, user=u3, now=later)
    with pytest.raises(GameError, match="closed"):
        tournament_register(tournament=t, user=u3, now=now + timedelta(days=2))
    assert Entry.objects.filter(tournament=t).count() == 2


def test_only_staff_create_and_start_and_bad_settings_change_nothing(db):
    player = UserFactory()
    with pytest.raises(GameError) as e:
        make_tournament(player)
    assert e.value.code == ErrorCode.NOT_GAME_ADMIN
    boss = director()
    for bad in ({"table_size": 9}, {"settings": {"tie_breaks": ["luck"]}}, {"format": "ladder"},
                {"format": "swiss", "rounds": 0}, {"clock": {"type": "sundial"}}):
        with pytest.raises(GameError):
            make_tournament(boss, **bad)
    t = make_tournament(boss)
    bot_field(t, 3)
    with pytest.raises(GameError):
        tournament_start(tournament=t, by=player)
    assert not Round.objects.exists()


def test_a_dropped_player_keeps_points_bots_finish_their_game_and_they_are_not_paired_again(db):
    boss = director()
    t = make_tournament(boss, rounds=2)
    bot_field(t, 5)
    human = UserFactory(username="human")
    tournament_register(tournament=t, user=human)
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=t, by=boss)
    seat = Seat.objects.get(user=human)
    assert seat.game.status == GameStatus.ACTIVE  # waiting for the human
    entry = Entry.objects.get(user=human)
    with TestCase.captureOnCommitCallbacks(execute=True):
        entry_drop(entry=entry, by=human)
    seat.refresh_from_db()
    assert seat.is_bot and seat.game.status == GameStatus.FINISHED
    assert Event.objects.filter(game=seat.game, text__startswith="human left seat").exists()
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    r2 = Round.objects.get(tournament=t, number=2)
    assert not TableSeat.objects.filter(table__round=r2, entry=entry).exists()
    assert sorted(tb.places.count() for tb in r2.tables.all()) == [2, 3]  # 5 left: tables of 3 and 2
    row = next(r for r in tournament_standings(tournament=t)["rows"] if r["player"] == "human")
    assert row["status"] == "dropped" and row["games"] == 1


def test_a_replacement_takes_over_the_entry_and_its_seat(db):
    boss = director()
    t = make_tournament(boss, rounds=1)
    players = [UserFactory() for _ in range(3)]
    for u in players:
        tournament_register(tournament=t, user=u)
    tournament_start(tournament=t, by=boss)
    entry = Entry.objects.get(user=players[1])
    sub = UserFactory(username="sub")
    with pytest.raises(GameError):
        entry_replace(entry=entry, user=players[2], by=boss)  # already in the tournament
    entry_replace(entry=entry, user=sub, by=boss)
    entry.refresh_from_db()
    assert entry.user == sub and entry.previous_users == [players[1].username]
    game = Table.objects.get(round__tournament=t).game
    assert Seat.objects.get(game=game, user=sub).position == TableSeat.objects.get(entry=entry).position
    assert Event.objects.filter(game=game, data__action="replace", data__new="sub").exists()


def test_an_abandoned_table_counts_for_nobody_and_the_round_moves_on(db):
    boss = director()
    t = make_tournament(boss, rounds=2)
    players = [UserFactory() for _ in range(3)]
    for u in players:
        tournament_register(tournament=t, user=u)
    tournament_start(tournament=t, by=boss)
    game = Table.objects.get(round__tournament=t).game
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_abandon(game=game, by=boss, reason="test")
    assert Round.objects.get(tournament=t, number=1).status == "finished"
    assert Round.objects.filter(tournament=t, number=2).exists()
    assert all(ts.points == 0 and ts.place is None for ts in TableSeat.objects.filter(table__game=game))


def test_a_game_is_rated_once(db):
    boss = director()
    t = make_tournament(boss, rounds=1)
    bot_field(t, 3)
    t = run_to_the_end(t, boss)
    game = Table.objects.get(round__tournament=t).game
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games"))
    assert ratings_update_for_game(game=game) is None  # already rated by the finish hook
    assert list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games")) == before
    assert RatedGame.objects.filter(game=game).count() == 1 and all(g == 1 for *_, g in before)


def test_unrated_tournaments_leave_ratings_alone(db):
    boss = director()
    t = make_tournament(boss, rounds=1, rated=False)
    bot_field(t, 3)
    run_to_the_end(t, boss)
    assert not Rating.objects.exists() and not RatedGame.objects.exists()


def test_tournament_create_validates_against_the_engine(db):
    boss = director()
    with pytest.raises(GameError):
        tournament_create(created_by=boss, name="x", engine="nope", format="swiss", table_size=3, rounds=1)
