"""Subjects say why, the game's name and number first so a thread groups: "Mage Knight #4: your turn (round 2)"
for every decision asked, "Mage Knight #4: recorded, your next decision", "Mage Knight #4: 2 hours left", "Mage
Knight #4: game over, you placed 2nd"; every mail of a game in one thread (References to the game's root
message).

What other tests have: the "2 hours left" reminder (tests/accounts/test_presence), "recorded, your next
decision" after a multi-pick reply (test_multi_pick_replies), one References per mailbox and the game's title
first in a whole Faltisia game by email (test_play_by_email), the table talk's threading (tests/mail/test_chat_mail).
Here: every decision of a Mage Knight game past its first round is mailed once as "your turn (round N)" with the
round it is asked in; every mail of a whole game by email (prompts, answers with and without the next decision,
a reminder, the game over) says why in its subject and hangs under the game's root Message-ID; the game-over
wordings (placed, tied, a solo game's score).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import TestCase

from games.engines.bots import make_bot
from games.engines.registry import get_engine
from games.mail import compose, reminders
from games.mail.outbox import thread_id
from games.models import Game, GameStatus, Prompt, Seat
from games.services import submission_create
from tests.factories import make_started_game
from tests.mail.helpers import mails_to, pipe, reply_bytes, start_game

pytestmark = pytest.mark.django_db

WHERE = re.compile(r"^Round (\d+) of \d+ ", re.MULTILINE)


def prompt_mails(address: str) -> list:
    return [m for m in mails_to(address) if "X-Faltisia-Prompt" in m.extra_headers]


def test_every_decision_asked_in_mage_knight_is_mailed_once_as_your_turn_with_its_round():
    """Two away players (their picks come through the API, never the page): each decision they are asked is
    mailed once, "Mage Knight #<n>: your turn (round N)", N the round the mail's own heading says."""
    engine, bot = get_engine("mage_knight"), make_bot("mage_knight", "greedy")
    game, users = start_game(players=2, engine="mage_knight", seed=8)
    title = f"Mage Knight #{game.pk}"
    asked: set[str] = set()
    for _ in range(1000):
        prompt = Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position").first()
        game = Game.objects.get(pk=game.pk)
        if prompt is None or game.state["round"] > 2:
            break
        asked.add(str(prompt.pk))
        option = bot.choose(engine, game.state, prompt.seat.position)
        with TestCase.captureOnCommitCallbacks(execute=True):
            submission_create(seat=Seat.objects.get(pk=prompt.seat_id), prompt_id=prompt.prompt_id,
                              option_id=option, source="api")
    mailed = []
    rounds = set()
    for user in users:
        for m in prompt_mails(user.email):
            rnd = int(WHERE.search(m.body).group(1))
            assert m.subject == f"{title}: your turn (round {rnd})", (m.subject, rnd)
            rounds.add(rnd)
            mailed.append(m.extra_headers["X-Faltisia-Prompt"])
    assert {1, 2} <= rounds
    assert len(mailed) == len(set(mailed))  # once each
    assert set(mailed) <= asked | {str(p) for p in Prompt.objects.filter(game=game).values_list("pk", flat=True)}
    assert len(mailed) >= 10, len(mailed)  # follow-ups of a pick made off the mail are held back


def test_every_mail_of_a_game_by_email_says_why_and_hangs_under_the_games_root_message():
    """A whole 2-seat game by email, a reminder in it: the subject names the game first, then why; every mail
    to a player refers (In-Reply-To and References) to that player's root Message-ID of the game."""
    game, users = start_game(players=2, engine="tinygame", options={"rounds": 2})
    title = compose.game_title(game)
    # A reminder before alice's first deadline.
    prompt = Prompt.objects.get(game=game, seat__user=users[0], closed_at__isnull=True)
    with TestCase.captureOnCommitCallbacks(execute=True):
        reminders.reminders_due_queue(now=prompt.deadline - timedelta(hours=1, minutes=30))
    replied = set()
    for _ in range(200):
        if Game.objects.get(pk=game.pk).status != GameStatus.ACTIVE:
            break
        for u in users:
            m = next((x for x in reversed(mails_to(u.email)) if "X-Faltisia-Prompt" in x.extra_headers
                      and "YOUR DECISION" in x.body), None)
            if m is None or m.extra_headers["Message-ID"] in replied:
                continue
            replied.add(m.extra_headers["Message-ID"])
            assert pipe(reply_bytes(m, "1")).startswith("recorded")
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    game.refresh_from_db()
    # A reply to a decision already answered: an answer without a next decision ("already recorded").
    stale = prompt_mails(users[1].email)[0]
    pipe(reply_bytes(stale, "1"))
    kinds = {"your turn": 0, "hours left": 0, "recorded, your next decision": 0, "recorded": 0, "game over": 0,
             "other": 0}
    for pos, u in enumerate(users):
        root = thread_id(game_id=game.pk, user_id=u.pk)
        box = mails_to(u.email)
        assert len({m.extra_headers["Message-ID"] for m in box}) == len(box)
        for m in box:
            assert m.extra_headers["In-Reply-To"] == root and m.extra_headers["References"] == root, m.subject
            assert m.subject.startswith(f"{title}: "), m.subject
            why = m.subject[len(title) + 2:]
            if m.body.startswith("REMINDER"):
                assert why == "2 hours left"
                kinds["hours left"] += 1
            elif m.body.startswith("Recorded") and "YOUR DECISION" in m.body:
                assert why == "recorded, your next decision", m.subject
                kinds[why] += 1
            elif m.body.startswith("Recorded"):
                assert why == "recorded", m.subject  # the game's last pick: nothing more to decide
                kinds[why] += 1
            elif "YOUR DECISION" in m.body:
                assert why == "your turn" or re.fullmatch(r"your turn \(round \d+\)", why), why
                kinds["your turn"] += 1
            elif "the game is over" in m.body:
                rank = game.result["ranks"][pos]
                assert why.startswith(f"game over, you placed {compose.ordinal(rank)}"), why
                kinds["game over"] += 1
            else:
                kinds["other"] += 1
    assert kinds["hours left"] >= 1 and kinds["game over"] == 2, kinds
    assert kinds["your turn"] >= 2 and kinds["recorded, your next decision"] >= 2, kinds
    assert kinds["other"] >= 1, kinds  # the answer to the stale reply, in the thread as well


def finished_game(*, ranks, scores):
    game, users = (make_started_game(players=len(ranks)) if len(ranks) > 1
                   else make_started_game(players=1, engine="mage_knight"))
    game.result = {"ranks": ranks, "scores": scores, "breakdown": [{} for _ in ranks]}
    return game, list(Seat.objects.filter(game=game).order_by("position"))


def test_game_over_subjects_say_where_the_player_placed():
    game, (a, b, c) = finished_game(ranks=[2, 1, 3], scores=[5, 9, 1])
    title = compose.game_title(game)
    assert compose.finished_subject(game, a) == f"{title}: game over, you placed 2nd"
    assert compose.finished_subject(game, b) == f"{title}: game over, you placed 1st"
    assert compose.finished_subject(game, c) == f"{title}: game over, you placed 3rd"
    game, (a, b) = finished_game(ranks=[1, 1], scores=[4, 4])
    assert compose.finished_subject(game, a) == f"{compose.game_title(game)}: game over, you placed 1st (tied)"
    game.result = None  # abandoned: no result
    assert compose.finished_subject(game, a) == f"{compose.game_title(game)}: game over"
    assert [compose.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_a_solo_games_game_over_subject_says_the_score_not_a_place():
    """A solo game (Mage Knight against the Dummy Player) has nobody to place against: the subject gives the
    score."""
    game, (a,) = finished_game(ranks=[1], scores=[57])
    assert compose.finished_subject(game, a) == f"{compose.game_title(game)}: game over, you scored 57"


def test_reminder_and_answer_subjects():
    game, _ = make_started_game(players=2, engine="mage_knight", seed=8)
    title = f"Mage Knight #{game.pk}"
    view = {"round": 2}
    assert compose.prompt_subject(game, view) == f"{title}: your turn (round 2)"
    assert compose.prompt_subject(game, {}) == f"{title}: your turn"
    assert compose.prompt_subject(game, view, reminder_hours=2) == f"{title}: 2 hours left"
    assert compose.prompt_subject(game, view, reminder_hours=1) == f"{title}: 1 hour left"
    assert compose.answer_subject(game, title="Recorded", ok=True, carries_prompt=True) == \
        f"{title}: recorded, your next decision"
    assert compose.answer_subject(game, title="Recorded", ok=True, carries_prompt=False) == f"{title}: recorded"
    assert compose.answer_subject(game, title="This game is over", ok=False, carries_prompt=False) == \
        f"{title}: this game is over"
