"""The press setting: chosen per game at creation (default table), by a tournament for its games
(default none), and set on games that existed before it as the running code would have them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.errors import ErrorCode, GameError
from games.models import Game, Press
from games.services import game_create
from games.tournaments.models import Tournament
from games.tournaments.services import tournament_create, tournament_register, tournament_start
from tests.factories import UserFactory


@pytest.mark.django_db
def test_a_new_game_has_table_talk_unless_its_creator_chooses_otherwise():
    alice = UserFactory()
    assert game_create(created_by=alice, engine="tinygame", players=2).press == Press.TABLE
    assert game_create(created_by=alice, engine="tinygame", players=2, press="full").press == Press.FULL
    with pytest.raises(GameError) as caught:
        game_create(created_by=alice, engine="tinygame", players=2, press="loud")
    assert caught.value.code == ErrorCode.INVALID_SETTINGS


@pytest.mark.django_db
def test_a_tournament_gives_its_games_its_press_none_by_default():
    staff = UserFactory()
    staff.is_staff = True
    staff.save()
    quiet = tournament_create(created_by=staff, name="Quiet cup", engine="tinygame", format="round_robin",
                              table_size=2, options={"rounds": 1})
    chatty = tournament_create(created_by=staff, name="Chatty cup", engine="tinygame", format="round_robin",
                               table_size=2, options={"rounds": 1}, press=Press.FULL)
    assert quiet.press == Press.NONE
    for tournament in (quiet, chatty):
        for _ in range(2):
            tournament_register(tournament=tournament, user=UserFactory())
        tournament_start(tournament=tournament, by=staff)
    assert set(Game.objects.filter(tournament_table__round__tournament=quiet).values_list("press", flat=True)) == {"none"}
    assert set(Game.objects.filter(tournament_table__round__tournament=chatty).values_list("press", flat=True)) == {"full"}


@pytest.mark.django_db(transaction=True)
def test_games_and_tournaments_from_before_the_press_setting_get_table_talk_as_their_rounds_had():
    before = [("games", "0009_backfill_prompt_mail_and_reminder_plan"), ("tournaments", "0004_tournament_proposals")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("accounts", "User").objects.create(username="old-timer")
    game = old.get_model("games", "Game").objects.create(engine="tinygame", seed=1, players=2, created_by_id=user.pk)
    cup = old.get_model("tournaments", "Tournament").objects.create(name="Old cup", engine="tinygame",
                                                                   format="round_robin", table_size=2)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Game.objects.get(pk=game.pk).press == Press.TABLE
    assert Tournament.objects.get(pk=cup.pk).press == Press.TABLE
    staff = UserFactory()
    staff.is_staff = True
    staff.save()
    assert tournament_create(created_by=staff, name="New cup", engine="tinygame", format="round_robin",
                             table_size=2).press == Press.NONE


@pytest.mark.django_db
def test_the_tournament_api_and_proposal_form_take_the_press(api):
    staff = UserFactory()
    staff.is_staff = True
    staff.save()
    r = api.as_user(staff).post("/api/tournaments/", {"name": "Talky cup", "game": "tinygame",
                                                      "format": "round_robin", "table_size": 2, "press": "full"},
                                format="json")
    assert r.status_code == 201 and r.json()["press"] == "full"
    assert Tournament.objects.get(name="Talky cup").press == Press.FULL
    from games.tournaments.forms import TournamentProposalForm
    form = TournamentProposalForm({"name": "Quiet", "game": "tinygame", "format": "round_robin", "table_size": 2,
                                   "clock": "fixed-48h"})
    assert form.is_valid(), form.errors
    assert form.proposal()["press"] == Press.NONE
