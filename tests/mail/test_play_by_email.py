"""A whole 3-player Faltisia game played by email only.

Each player reads only their own mailbox and answers only by replying to the newest prompt email,
through ``manage.py receive_email`` with the raw message on standard input, to the end of the game.
"""

from __future__ import annotations

import pytest
from django.core import mail

from games.engines.registry import get_engine
from games.mail import compose
from games.models import Game, GameStatus, Submission, SubmissionSource
from tests.mail.helpers import mails_to, reply_round, start_game

pytestmark = pytest.mark.django_db

MAX_REPLIES = 2000


def replay_result(game: Game) -> dict:
    """Replay the stored picks in the engine: the game's result must follow from the email picks alone."""
    engine = get_engine(game.engine)
    state = engine.new_game(players=game.players, options=game.options, seed=game.seed)
    for s in Submission.objects.filter(game=game).select_related("seat").order_by("id"):
        if engine.is_step_complete(state):
            engine.resolve(state)
        engine.apply(state, s.seat.position, s.option_id)
    if engine.is_step_complete(state):
        engine.resolve(state)
    return engine.result(state).as_dict()


def play_by_email_to_the_end(game: Game, users) -> int:
    answered: set[str] = set()
    replies = 0
    while Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE:
        n = reply_round(users, answered)  # the first option: fast, and always legal
        assert n, "nobody has a prompt email to answer, but the game is not over"
        replies += n
        assert replies < MAX_REPLIES
    return replies


def test_a_whole_faltisia_game_by_email_only():
    game, users = start_game(players=3, engine="faltisia", seed=11)
    replies = play_by_email_to_the_end(game, users)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    # Every pick came in by email (no defaults, bots or standing orders stepped in), but for the prompts
    # with a single option the server picked at once.
    sources = set(Submission.objects.filter(game=game).values_list("source", flat=True))
    assert sources == {SubmissionSource.EMAIL, SubmissionSource.FORCED}
    assert Submission.objects.filter(game=game, source=SubmissionSource.EMAIL).count() == replies > 3 * 50
    assert game.result == replay_result(game)
    for u in users:
        box = mails_to(u.email)
        confirmations = [m for m in box if m.body.startswith("Recorded")]
        assert len(confirmations) == Submission.objects.filter(game=game, seat__user=u,
                                                               source=SubmissionSource.EMAIL).count()
        finished = [m for m in box if "the game is over" in m.body]
        assert len(finished) == 1
        for score in game.result["scores"]:
            assert f": {score} points" in finished[0].body
        # One game, one thread: every email refers to the same root; each subject opens with the game's name
        # and number, then says why.
        assert {m.extra_headers["References"] for m in box} == {box[0].extra_headers["References"]}
        assert all(m.subject.startswith(compose.game_title(game) + ": ") for m in box)
    assert len(mail.outbox) > replies
