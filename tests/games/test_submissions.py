import pytest

from games.errors import ErrorCode, GameError, NotAnOption, StalePrompt
from games.models import Event, Submission, SubmissionSource
from games.selectors import events_for_user, game_view_for_seat
from games.services import game_pause, submission_create
from tests.games.helpers import open_prompt, pick, seat


def test_a_pick_is_stored_and_the_compound_decision_asks_the_next_pick(game2):
    game, users = game2
    first = open_prompt(game, 0)
    card = first.options[0]["id"]
    sub = pick(game, 0, card)
    assert sub.is_new and sub.option_id == card and sub.source == SubmissionSource.API
    first.refresh_from_db()
    assert first.closed_at is not None and first.answered
    second = open_prompt(game, 0)
    assert second.prompt_id.endswith("-bet") and second.phase == 0


def test_a_stale_prompt_is_refused(game2):
    game, _ = game2
    old = open_prompt(game, 0)
    pick(game, 0)
    with pytest.raises(StalePrompt):
        submission_create(seat=seat(game, 0), prompt_id=old.prompt_id, option_id=old.options[1]["id"],
                          source=SubmissionSource.API)
    with pytest.raises(StalePrompt):
        submission_create(seat=seat(game, 0), prompt_id="made-up", option_id="x", source=SubmissionSource.API)


def test_an_option_not_offered_is_refused_and_changes_nothing(game2):
    game, _ = game2
    state_before = dict(game.state)
    with pytest.raises(NotAnOption):
        pick(game, 0, "c99")
    game.refresh_from_db()
    assert game.state == state_before and not Submission.objects.exists()


def test_a_resend_of_an_applied_pick_is_not_applied_twice(game2):
    game, _ = game2
    p = open_prompt(game, 0)
    first = pick(game, 0, p.options[0]["id"])
    again = submission_create(seat=seat(game, 0), prompt_id=p.prompt_id, option_id=p.options[0]["id"],
                              source=SubmissionSource.EMAIL)
    assert again.pk == first.pk and not again.is_new
    assert Submission.objects.count() == 1


def test_an_idempotency_key_returns_the_first_submission_and_cannot_be_reused(game2):
    game, _ = game2
    p = open_prompt(game, 0)
    first = pick(game, 0, p.options[0]["id"], idempotency_key="k1")
    again = submission_create(seat=seat(game, 0), prompt_id=p.prompt_id, option_id=p.options[0]["id"],
                              idempotency_key="k1", source=SubmissionSource.API)
    assert again.pk == first.pk and not again.is_new
    with pytest.raises(GameError) as e:
        pick(game, 0, idempotency_key="k1")  # the bet prompt, same key
    assert e.value.code == ErrorCode.IDEMPOTENCY_KEY_REUSED


def test_a_paused_game_takes_no_picks(game2):
    game, users = game2
    game_pause(game=game, by=users[0])
    with pytest.raises(GameError) as e:
        pick(game, 0)
    assert e.value.code == ErrorCode.GAME_NOT_ACTIVE


def test_a_pick_stays_secret_until_the_step_resolves(game2):
    game, users = game2
    card = open_prompt(game, 0).options[0]["id"]
    pick(game, 0, card)
    game.refresh_from_db()
    assert game_view_for_seat(game=game, seat=seat(game, 0))["my_draft"]["card"] == int(card[1:])
    other = game_view_for_seat(game=game, seat=seat(game, 1))
    assert other["my_draft"]["card"] is None and other["revealed"] == []
    assert "hand" not in game_view_for_seat(game=game, seat=None)
    private = Event.objects.get(game=game, text__startswith="You played")
    assert private in events_for_user(game=game, user=users[0])
    assert private not in events_for_user(game=game, user=users[1])
