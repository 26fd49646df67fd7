"""The services around a running tournament."""

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone

from games.errors import ErrorCode, GameError
from games.models import Event, GameStatus, Seat
from games.ratings.models import RatedGame, Rating
from games.ratings.services import ratings_update_for_game
from games.services.admin_actions import game_abandon
from games.tournaments.models import Entry, Round, Table, TableSeat, TournamentStatus
from games.tournaments.selectors import tournament_standings
from games.tournaments.services import (entry_drop, entry_replace, tournament_create, tournament_register,
                                        tournament_start)
from tests.factories import UserFactory
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end


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
