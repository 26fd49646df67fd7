"""A prompt with exactly one legal option is picked by the server at once (DESIGN.md).

No player is asked a question with one answer: the pick is made in the write that opened the prompt,
logged like any pick (Submission.source "forced") and told to that seat alone; an engine may mark a
prompt ``ask_anyway`` to have it shown all the same.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import TestCase

from games.engines.bots import make_bot
from games.engines.registry import get_engine
from games.models import Event, Prompt, Submission, SubmissionSource
from games.selectors import events_for_user
from games.services import submission_create
from games.services.turn import forced_pick_note
from tests.factories import make_started_game
from tests.games.helpers import open_prompt, play_step, seat

pytestmark = pytest.mark.django_db

LAST_ROUND = 4  # tinygame with 3 rounds: step 4 is the last draft, each hand holds one card


def _to_last_round(game):
    for _ in range(LAST_ROUND):
        play_step(game)
    game.refresh_from_db()
    assert game.phase == LAST_ROUND


def test_a_single_option_prompt_is_picked_at_once_and_the_next_one_is_asked():
    """"Play a card" with one card left never reaches the player; the bet does."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 3}, seed=3)
    _to_last_round(game)
    last_cards = {p: game.state["hands"][p][0] for p in (0, 1)}  # what each seat is left holding

    for position in (0, 1):
        forced = Submission.objects.get(game=game, seat__position=position, phase=LAST_ROUND,
                                        prompt_id__endswith="-card")
        assert forced.source == SubmissionSource.FORCED
        assert forced.option_id == f"c{last_cards[position]}"
        assert forced.prompt_row.closed_at is not None and forced.prompt_row.answered
        now = open_prompt(game, position)
        assert now.prompt_id.endswith("-bet") and len(now.options) == 2  # the real choice of the step
    # Nothing with one option is open, or was ever left open for a player to answer.
    asked = Prompt.objects.filter(game=game).exclude(submission__source=SubmissionSource.FORCED)
    assert all(len(p.options) > 1 for p in asked)


def test_the_forced_pick_is_in_its_seats_log_only():
    """The log tells the seat "only one choice: X"; nobody else learns its card."""
    game, (alice, bob) = make_started_game(players=2, options={"rounds": 3}, seed=3)
    _to_last_round(game)
    card = game.state["draft"][0]["card"]
    alice_log = [e.text for e in events_for_user(game=game, user=alice) if e.phase == LAST_ROUND]
    assert any("Only one choice, picked for you: Card %d." % card in t for t in alice_log), alice_log
    note = Event.objects.get(game=game, phase=LAST_ROUND, data__action="forced", data__seat=0)
    assert note.visibility == [0]
    bob_log = " ".join(e.text for e in events_for_user(game=game, user=bob))
    assert f"Card {card}" not in bob_log and "Only one choice, picked for you: Card %d." % card not in bob_log


def test_an_ask_anyway_prompt_still_reaches_the_player():
    """The engine may mark a single-option prompt as one the player must see."""
    game, _ = make_started_game(players=2, options={"rounds": 3, "ask_last_card": True}, seed=3)
    _to_last_round(game)
    for position in (0, 1):
        prompt = open_prompt(game, position)
        assert prompt.prompt_id.endswith("-card") and len(prompt.options) == 1 and prompt.deadline is not None
    assert not Submission.objects.filter(game=game, source=SubmissionSource.FORCED).exists()


def _play_faltisia_through_the_server(*, players: int, seed: int):
    """Every seat is a person answering through the API with the greedy bot's choice (deterministic)."""
    game, _ = make_started_game(players=players, engine="faltisia", seed=seed)
    engine, bot = get_engine("faltisia"), make_bot("faltisia", "greedy")
    shown: list[Prompt] = []
    for _ in range(5_000):
        prompt = Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position").first()
        if prompt is None:
            break
        shown.append(prompt)
        game.refresh_from_db()
        option = bot.choose(engine, game.state, prompt.seat.position)
        with TestCase.captureOnCommitCallbacks(execute=True):
            submission_create(seat=seat(game, prompt.seat.position), prompt_id=prompt.prompt_id,
                              option_id=option, source=SubmissionSource.API)
    game.refresh_from_db()
    return game, shown


def test_no_single_option_prompt_reaches_a_player_in_a_whole_faltisia_game():
    """No single-option prompt is shown in a seeded 3-player Faltisia game played to its end through the server."""
    game, shown = _play_faltisia_through_the_server(players=3, seed=11)
    assert game.status == "finished"
    forced = Submission.objects.filter(game=game, source=SubmissionSource.FORCED).count()
    assert forced > 0  # Faltisia has such prompts (the last draft pick, a starting attribute...)
    assert [p.text for p in shown if len(p.options) == 1] == []
    # Every forced pick is in its seat's log.
    assert Event.objects.filter(game=game, data__action="forced").count() == forced
    # Chains loop: a forced pick that opens another single-option prompt (a last card to play, then
    # "it stays face down") is picked in the same write too.
    opened = Counter((s.seat_id, s.prompt_row.opened_at) for s in
                     Submission.objects.filter(game=game, source=SubmissionSource.FORCED).select_related("prompt_row"))
    assert max(opened.values()) >= 2


class _Row:
    def __init__(self, text, options):
        self.text, self.options = text, options


@pytest.mark.parametrize("text, label, said", [
    ("Your turn", "end turn", "Your turn. Only one choice, picked for you: end turn."),
    ("Rest: discard", "discard Stamina", "Rest: discard. Only one choice, picked for you: discard Stamina."),
    ("Which does she produce?", "1 Friendship Point",
     "Which does she produce? Only one choice, picked for you: 1 Friendship Point."),
    ("Pick a card.", "Card 7.", "Pick a card. Only one choice, picked for you: Card 7.")])
def test_the_forced_pick_line_is_sentences(text, label, said):
    """The note of a forced pick is sentences: the prompt's text, then "Only one choice, picked for you: <label>.",
    told to that seat alone."""
    note = forced_pick_note(_Row(text, [{"id": "x", "label": label}]), position=0, option_id="x")
    assert note.text == said and note.seats == (0,)
