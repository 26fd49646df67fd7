"""One email per player per step, not a prompt email and a result email.

A 3-player tinygame (2 rounds: a draft step where everyone decides, then a take step where the seats
decide one after another) is played to its end by email: each player answers their newest prompt email.
After a draft only seat 0 is asked (its take), so seats 1 and 2 have nothing to decide: bob (seat 1)
wants result emails, carol (seat 2) does not.
"""

from __future__ import annotations

from collections import Counter

import pytest

from accounts.models import NotificationPreferences
from games.mail.models import MailJob, MailJobKind, Notification, NotificationKind
from games.models import Event, Game, GameStatus
from tests.mail.helpers import newest_unanswered_prompt_mail, pipe, reply_bytes, start_game

pytestmark = pytest.mark.django_db

GAME_MAIL = (NotificationKind.PROMPT, NotificationKind.RESULT, NotificationKind.FINISHED)


def play_by_email(game: Game, users) -> list[Counter]:
    """Play to the end, one email reply per write; for each write, how many game emails each player got
    from it (its resolution and the next prompts included: eager tasks run on its commit)."""
    answered: set[str] = set()
    per_write = []
    for _ in range(100):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return per_write
        replied = False
        for user in users:
            m = newest_unanswered_prompt_mail(user.email, answered)
            if m is None:
                continue
            answered.add(m.extra_headers["Message-ID"])
            last = Notification.objects.order_by("-id").values_list("id", flat=True).first() or 0
            assert pipe(reply_bytes(m, "1")).startswith("recorded")
            per_write.append(Counter(Notification.objects.filter(id__gt=last, kind__in=GAME_MAIL)
                                     .values_list("user_id", flat=True)))
            replied = True
            break
        assert replied, "nobody has a prompt email to answer"
    raise AssertionError("the game did not end")


@pytest.fixture
def played():
    game, (alice, bob, carol) = start_game(players=3, options={"rounds": 2})
    NotificationPreferences.objects.update_or_create(user=carol, defaults={"email_results": False})
    per_write = play_by_email(game, (alice, bob, carol))
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game, (alice, bob, carol), per_write


def mails(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind__in=GAME_MAIL).select_related("prompt").order_by("id"))


def test_each_player_gets_at_most_one_email_per_write_of_a_whole_game(played):
    """The write that completes a step also resolves it and opens the next: one email per player from it."""
    game, users, per_write = played
    assert per_write and all(n <= 1 for write in per_write for n in write.values()), per_write
    steps = MailJob.objects.filter(game=game, kind=MailJobKind.RESULT).count()
    assert steps == 4
    # Nobody is sent a result email and a prompt email about the same step.
    for user in users:
        results = {int(r.dedupe_key.split(":")[2]) + 1 for r in mails(user) if r.kind == NotificationKind.RESULT}
        assert results.isdisjoint({r.prompt.phase for r in mails(user) if r.kind == NotificationKind.PROMPT
                                   and r.prompt.opened_at == first_opened(game, r.prompt.phase)})


def first_opened(game: Game, phase: int):
    """When step ``phase`` opened: the resolution of the step before opened its first prompts."""
    return game.prompts.filter(phase=phase).order_by("opened_at").values_list("opened_at", flat=True).first()


def assert_no_result_after_a_later_step(users) -> None:
    """In the order the emails were queued: no result of step N after a prompt of a step past N, nor
    after the game-over email."""
    for user in users:
        prompted = -1
        for row in mails(user):
            if row.kind == NotificationKind.PROMPT:
                prompted = max(prompted, row.prompt.phase)
            elif row.kind == NotificationKind.FINISHED:
                prompted = 10 ** 9
            else:
                reported = int(row.dedupe_key.split(":")[2])
                assert prompted <= reported, f"{user}: result of step {reported} after a prompt of step {prompted}"


def test_no_result_arrives_after_the_prompt_of_a_later_step_or_the_game_over(played):
    game, users, _ = played
    assert_no_result_after_a_later_step(users)


def test_a_seeded_faltisia_game_mails_what_happened_with_the_next_decision_in_order():
    """Three email players answer with the greedy bot's choice through the services (as
    benchmarks/mail_per_step.py measures): before, each got the result of most steps after the prompt of
    the next one (36 of 58 steps, seed 11); now the result rides in that prompt email."""
    from games.engines.bots import make_bot
    from games.engines.registry import get_engine
    from tests.games.helpers import pick

    game, users = start_game(players=3, engine="faltisia", seed=11)
    engine, bot = get_engine("faltisia"), make_bot("faltisia", "greedy")
    for _ in range(5_000):
        prompt = game.prompts.filter(closed_at__isnull=True).order_by("seat__position").first()
        if prompt is None:
            break
        game.refresh_from_db()
        pick(game, prompt.seat.position, bot.choose(engine, game.state, prompt.seat.position), source="email")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert_no_result_after_a_later_step(users)
    # Every seat decides in every Faltisia step: their prompt emails carry every result.
    assert not Notification.objects.filter(game=game, kind=NotificationKind.RESULT).exists()
    assert Notification.objects.filter(game=game, kind=NotificationKind.PROMPT).count() > 3 * 50


def test_the_prompt_email_of_a_resolved_step_shows_what_happened_before_the_options(played):
    game, (alice, bob, carol), _ = played
    draft = MailJob.objects.get(game=game, kind=MailJobKind.RESULT, phase=0)
    happened = [e.text for e in Event.objects.filter(pk__in=draft.event_ids).order_by("id") if e.visible_to(0)]
    assert happened
    (take,) = [r for r in mails(alice) if r.kind == NotificationKind.PROMPT and r.prompt.phase == 1]
    body = take.body_text
    positions = [body.index(text) for text in happened]
    assert positions == sorted(positions)  # in the order it happened
    # The options first (numbered), then the situation, what happened included.
    assert body.index("YOUR DECISION") < body.index("  1. ") < min(positions)
    assert not [r for r in mails(alice) if r.kind == NotificationKind.RESULT]  # no separate result email


def test_a_player_with_nothing_to_decide_gets_the_result_only_if_they_asked_for_result_emails(played):
    game, (alice, bob, carol), _ = played
    # After each draft (steps 0 and 2) only alice is asked: bob gets the result, carol (email_results off)
    # does not. After the first takes everyone is asked (their prompt emails carry it); the last takes end
    # the game (the game-over email carries it).
    assert [r.dedupe_key for r in mails(bob) if r.kind == NotificationKind.RESULT] == [
        f"result:{game.pk}:0:user{bob.pk}", f"result:{game.pk}:2:user{bob.pk}"]
    assert not [r for r in mails(carol) if r.kind == NotificationKind.RESULT]
    assert [r for r in mails(carol) if r.kind == NotificationKind.PROMPT]  # she still gets her decisions
    for user in (alice, bob, carol):
        assert [r.kind for r in mails(user)][-1] == NotificationKind.FINISHED
        assert Counter(r.kind for r in mails(user))[NotificationKind.FINISHED] == 1


def test_a_player_asked_next_who_takes_no_prompt_emails_gets_the_result_email():
    """The result rides in the prompt email only if one is sent; a player who turned
    prompt emails off (results on) still hears what happened."""
    from django.test import TestCase

    from tests.games.helpers import play_step

    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    NotificationPreferences.objects.update_or_create(user=alice, defaults={"email_prompts": False})
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)  # the draft: resolved; alice (seat 0) is asked the take
    assert game.prompts.filter(seat__user=alice, closed_at__isnull=True, phase=1).exists()
    assert not Notification.objects.filter(prompt__phase=1, user=alice).exists()
    assert [r.dedupe_key for r in mails(alice) if r.kind == NotificationKind.RESULT] == [
        f"result:{game.pk}:0:user{alice.pk}"]
    assert [r.dedupe_key for r in mails(bob) if r.kind == NotificationKind.RESULT] == [
        f"result:{game.pk}:0:user{bob.pk}"]
