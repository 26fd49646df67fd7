"""Who may take a seat back from a bot, and the log entry every reclaim leaves.

A player must not undo an admin's "hand seat to bot" with POST /api/games/{id}/reclaim/, and no reclaim may
go unlogged: an admin's hand-off is undone only by an admin; a seat a bot took after the
player's repeated misses (or that the player left to a bot) stays reclaimable by the player; every
reclaim is an event everyone sees.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.errors import GameError
from games.models import BotReason, Event, SubmissionSource
from games.services import admin_actions
from games.services.submissions import submission_create
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import open_prompt, pick, seat
from tests.games.test_deadlines import NO_EXTENSIONS, expire, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss():
    u = UserFactory()
    u.is_staff = True
    u.save()
    return u


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def reclaim_events(game) -> list[Event]:
    return [e for e in Event.objects.filter(game=game) if e.data.get("action") in ("reclaim", "from_bot")]


def spectator_sees(game, text: str) -> bool:
    """Whether an outsider reading the public game over the API sees an event with ``text``."""
    body = api_for(UserFactory()).get(f"/api/games/{game.pk}/log/").json()
    return text in str(body)


def test_a_player_cannot_reclaim_a_seat_an_admin_handed_to_a_bot(boss):
    """A clear 403 {error, detail} for the seat's own player; nothing changes."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 3})
    admin_actions.seat_hand_to_bot(game=game, by=boss, position=1)
    response = api_for(bob).post(f"/api/games/{game.pk}/reclaim/")
    assert response.status_code == 403
    body = response.json()
    assert body["error"] == "reclaim_needs_admin"
    assert "an admin handed this seat to a bot; ask an admin" in body["detail"]
    s1 = seat(game, 1)
    assert s1.is_bot and s1.bot_reason == BotReason.ADMIN and s1.bot_handed_by == boss  # who handed it, and why
    assert reclaim_events(game) == []


def test_an_admin_gives_the_seat_back_and_everyone_sees_it(boss):
    """The admin's take-back is the way back, and it is logged for all."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 3})
    admin_actions.seat_hand_to_bot(game=game, by=boss, position=1)
    admin_actions.seat_take_back_from_bot(game=game, by=boss, position=1)
    s1 = seat(game, 1)
    assert not s1.is_bot and s1.bot_reason == BotReason.NONE and s1.bot_handed_by is None
    (event,) = reclaim_events(game)
    assert event.visibility is None and bob.username in event.text
    # The player may leave it to a bot and take it back again themselves afterwards.
    admin_actions.seat_hand_to_bot(game=game, by=bob, position=1)
    assert api_for(bob).post(f"/api/games/{game.pk}/reclaim/").status_code == 200


def test_a_seat_a_bot_took_after_misses_is_reclaimed_by_its_player_and_logged_for_all():
    """The player's own reclaim stays allowed, and is an event everyone sees."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 3}, clock=NO_EXTENSIONS)
    for _ in range(2):  # two steps missed by seat 1: the bot takes it
        game.refresh_from_db()
        while open_prompt(game, 0) is not None and open_prompt(game, 0).phase == game.phase:
            pick(game, 0)
        expire(game, 1)
        sweep()
    s1 = seat(game, 1)
    assert s1.is_bot and s1.bot_reason == BotReason.MISSES
    response = api_for(bob).post(f"/api/games/{game.pk}/reclaim/")
    assert response.status_code == 200
    assert not seat(game, 1).is_bot
    (event,) = reclaim_events(game)
    # seats 1-based in what a person reads
    assert event.visibility is None and event.text == f"{bob.username} took seat 2 back from the bot."
    assert spectator_sees(game, event.text)


def test_a_player_who_left_to_a_bot_reclaims_it_and_a_second_reclaim_changes_nothing():
    """The player undoes their own hand-off; a repeated reclaim logs nothing more."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 3})
    admin_actions.seat_hand_to_bot(game=game, by=bob, position=1)
    assert seat(game, 1).bot_reason == BotReason.PLAYER
    client = api_for(bob)
    assert client.post(f"/api/games/{game.pk}/reclaim/").status_code == 200
    assert client.post(f"/api/games/{game.pk}/reclaim/").status_code == 200
    assert len(reclaim_events(game)) == 1


def test_a_pick_does_not_take_back_a_seat_an_admin_handed_to_a_bot(boss):
    """A pick by the player (web, API or email) would reclaim the seat: refused too."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 3})
    prompt = open_prompt(game, 1)
    s1 = seat(game, 1)
    # The bot has not answered yet (as while a game is paused): the seat still has an open prompt.
    s1.is_bot, s1.bot_reason, s1.bot_handed_by = True, BotReason.ADMIN, boss
    s1.save()
    for source in (SubmissionSource.WEB, SubmissionSource.API, SubmissionSource.EMAIL):
        with pytest.raises(GameError) as refused:
            submission_create(seat=s1, prompt_id=prompt.prompt_id, option_id=prompt.options[0]["id"], source=source)
        assert refused.value.code == "reclaim_needs_admin"
    assert seat(game, 1).is_bot and reclaim_events(game) == []


def test_a_players_pick_that_takes_a_seat_back_from_the_bot_is_logged():
    """The implicit reclaim by picking is a reclaim too: everyone sees it."""
    game, (alice, bob) = make_started_game(players=2)
    s1 = seat(game, 1)
    s1.is_bot, s1.bot_reason, s1.missed_deadlines = True, BotReason.MISSES, 3
    s1.save()
    pick(game, 1)
    assert not seat(game, 1).is_bot
    (event,) = reclaim_events(game)
    assert event.visibility is None


def test_the_web_page_follows_the_same_rule(boss, client):
    """The web page has no reclaim button; its way back is a pick, refused here too."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 3})
    prompt = open_prompt(game, 1)
    s1 = seat(game, 1)
    s1.is_bot, s1.bot_reason, s1.bot_handed_by = True, BotReason.ADMIN, boss
    s1.save()
    client.force_login(bob)
    page = client.post(f"/games/{game.pk}/move/", {"prompt": prompt.prompt_id, "option": prompt.options[0]["id"]},
                       follow=True)
    assert page.status_code == 200
    assert b"an admin handed this seat to a bot; ask an admin" in page.content
    assert seat(game, 1).is_bot and reclaim_events(game) == []


def test_a_deactivated_account_is_never_given_a_seat_by_any_admin_path(boss):
    """A banned account must not get a seat back, by "Replace the
    player", "Give seat back" or a tournament substitution: its reply address and links would act again."""
    from games.tournaments.models import Entry
    from games.tournaments.services import TournamentError, entry_replace, tournament_register
    from tests.tournaments.helpers import make_tournament

    game, (alice, bob) = make_started_game(players=2)
    banned = UserFactory(username="banned")
    banned.is_active = False
    banned.save(update_fields=["is_active"])
    with pytest.raises(GameError, match="deactivated"):
        admin_actions.seat_replace_player(game=game, by=boss, position=1, user=banned)
    assert seat(game, 1).user == bob

    admin_actions.seat_hand_to_bot(game=game, by=boss, position=1)
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    with pytest.raises(GameError, match="deactivated"):
        admin_actions.seat_take_back_from_bot(game=game, by=boss, position=1)
    assert seat(game, 1).is_bot

    t = make_tournament(boss, table_size=2)
    tournament_register(tournament=t, user=UserFactory(username="entrant"))
    with pytest.raises(TournamentError, match="deactivated"):
        entry_replace(entry=Entry.objects.get(tournament=t), user=banned, by=boss)
    assert Entry.objects.get(tournament=t).user.username == "entrant"
