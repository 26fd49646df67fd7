"""Table talk by mail: one batched, threaded mail per game at most every
CHAT_MAIL_BATCH_SECONDS, nothing already read on the page, the prompt mail carrying what it can, a preference
that turns it off; replies with ``say`` and ``tell`` post back, alone or after picks; the author of a hidden
message is told."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import TestCase, override_settings
from django.utils import timezone

from games.chat.models import ChatMessage
from games.chat.moderation import message_hide
from games.chat.services import message_post, messages_read
from games.mail.chat_mail import chat_batches_send
from games.mail.models import Notification, NotificationKind
from games.mail.outbox import thread_id
from games.models import Press, Prompt, Seat
from tests.factories import UserFactory
from tests.mail.helpers import as_email, mails_to, pipe, reply_bytes

from tests.chat.helpers import chat_game

pytestmark = pytest.mark.django_db

WINDOW = 1800


def later(seconds=WINDOW + 1):
    return timezone.now() + timedelta(seconds=seconds)


def send_batches(now):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return chat_batches_send(now=now)


def chat_mails(user):
    return [m for m in mails_to(user.email) if "new message" in m.subject]


def game_with_mail(press=Press.FULL):
    with TestCase.captureOnCommitCallbacks(execute=True):
        game, users = chat_game(press=press)
    mail.outbox.clear()
    return game, users


@override_settings(CHAT_MAIL_BATCH_SECONDS=WINDOW)
def test_a_burst_of_50_messages_reaches_each_other_player_in_one_mail_not_50():
    """A burst of 50 messages is batched: each other player gets 1-2 mails, not 50."""
    game, (alice, bob, carol) = game_with_mail()
    with override_settings(CHAT_MESSAGES_PER_MINUTE=100):
        for i in range(50):
            message_post(game=game, user=alice, text=f"message {i}")
    assert send_batches(timezone.now()) == 0  # the window has not passed
    assert send_batches(later()) == 2
    assert send_batches(later(2 * WINDOW)) == 0
    assert len(chat_mails(bob)) == 1 and len(chat_mails(carol)) == 1 and chat_mails(alice) == []
    body = chat_mails(bob)[0].body
    assert "message 0" in body and "message 49" in body and "50 new messages" in chat_mails(bob)[0].subject


@override_settings(CHAT_MAIL_BATCH_SECONDS=WINDOW)
def test_the_mail_is_threaded_per_game_and_replies_reach_the_seat():
    game, (alice, bob, _) = game_with_mail()
    message_post(game=game, user=alice, text="hello")
    send_batches(later())
    [m] = chat_mails(bob)
    root = thread_id(game_id=game.pk, user_id=bob.pk)
    assert m.extra_headers["In-Reply-To"] == root and m.extra_headers["References"] == root
    assert m.extra_headers["Message-ID"] != root and "+" in m.extra_headers["Reply-To"]
    assert "say <your message>" in m.body and "tell <seat number>" in m.body


@override_settings(CHAT_MAIL_BATCH_SECONDS=WINDOW)
def test_what_was_read_on_the_page_is_not_mailed_and_the_text_is_exact_and_escaped_in_html():
    game, (alice, bob, carol) = game_with_mail()
    seen = message_post(game=game, user=alice, text="seen on the page")
    messages_read(seat=Seat.objects.get(game=game, user=bob), up_to=seen.pk)
    message_post(game=game, user=alice, text='<script>alert("x")</script> & more')
    send_batches(later())
    [m] = chat_mails(bob)
    assert "seen on the page" not in m.body and '<script>alert("x")</script> & more' in m.body
    html = m.alternatives[0][0]
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more" in html and "<script>" not in html
    assert "seen on the page" in chat_mails(carol)[0].body


@override_settings(CHAT_MAIL_BATCH_SECONDS=WINDOW)
def test_a_message_read_everywhere_before_the_window_ends_sends_no_mail():
    game, (alice, bob, carol) = game_with_mail(press=Press.FULL)
    message = message_post(game=game, user=alice, text="for bob", to=[1])
    messages_read(seat=Seat.objects.get(game=game, user=bob), up_to=message.pk)
    assert send_batches(later()) == 0 and not mail.outbox


@override_settings(CHAT_MAIL_BATCH_SECONDS=WINDOW)
def test_the_preference_turns_chat_mail_off():
    game, (alice, bob, carol) = game_with_mail()
    bob.notification_preferences.email_chat = False
    bob.notification_preferences.save()
    message_post(game=game, user=alice, text="anyone?")
    send_batches(later())
    assert chat_mails(bob) == [] and len(chat_mails(carol)) == 1


@override_settings(CHAT_MAIL_BATCH_SECONDS=WINDOW)
def test_a_prompt_mail_that_goes_sooner_carries_the_messages_and_the_batch_sends_none():
    game, (alice, bob, _) = game_with_mail()
    message_post(game=game, user=alice, text="your turn soon")
    from games.mail.prompt_mails import prompt_notifications_queue

    prompt = Prompt.objects.get(seat__game=game, seat__user=bob, closed_at__isnull=True)
    Notification.objects.filter(prompt=prompt).delete()  # as if its email had not gone yet
    with TestCase.captureOnCommitCallbacks(execute=True):
        prompt_notifications_queue(prompt_ids=[prompt.pk])
    prompt_mail = [m for m in mails_to(bob.email) if "X-Faltisia-Prompt" in m.extra_headers][-1]
    assert "Table talk you have not read" in prompt_mail.body and "your turn soon" in prompt_mail.body
    send_batches(later())
    assert chat_mails(bob) == []


def test_a_reply_saying_something_posts_it_to_the_table_and_the_answer_says_so():
    game, (alice, bob, carol) = game_with_mail()
    message_post(game=game, user=alice, text="hi")
    send_batches(later())
    original = chat_mails(bob)[0]
    pipe(reply_bytes(original, "say Hello all,\nI will bet high.\n-- \nbob"))
    message = ChatMessage.objects.get(author=bob)
    assert message.text == "Hello all,\nI will bet high." and message.audience == 0
    answer = mails_to(bob.email)[-1]
    assert "Sent to the table" in answer.body


def test_picks_and_a_private_message_share_one_reply():
    game, (alice, bob, carol) = game_with_mail()
    with TestCase.captureOnCommitCallbacks(execute=True):
        game.refresh_from_db()
    prompt = Prompt.objects.get(seat__game=game, seat__user=bob, closed_at__isnull=True)
    from games.mail.prompt_mails import prompt_notifications_queue

    Notification.objects.filter(prompt=prompt).delete()
    with TestCase.captureOnCommitCallbacks(execute=True):
        prompt_notifications_queue(prompt_ids=[prompt.pk])
    prompt_mail = [m for m in mails_to(bob.email) if "X-Faltisia-Prompt" in m.extra_headers][-1]
    pipe(reply_bytes(prompt_mail, "1\ntell 3 carol, let us both bet low"))
    prompt.refresh_from_db()
    assert prompt.answered
    message = ChatMessage.objects.get(author=bob)
    assert message.text == "carol, let us both bet low" and message.audience == 0b110
    [answer] = [m.body for m in mails_to(bob.email) if m.extra_headers.get("Auto-Submitted") == "auto-replied"]
    assert "Your choice for" in answer and "Sent privately to seat 3" in answer


def test_a_tell_in_a_table_game_or_to_no_seat_is_refused_with_the_reason():
    game, (alice, bob, _) = game_with_mail(press=Press.TABLE)
    message_post(game=game, user=alice, text="hi")
    send_batches(later())
    original = chat_mails(bob)[0]
    pipe(reply_bytes(original, "tell 1 psst"))
    pipe(reply_bytes(original, "say " + "x" * 2001))
    answers = [m.body for m in mails_to(bob.email) if "Message not sent" in m.body]
    assert any("private messages are off" in a for a in answers) and any("at most 2,000" in a for a in answers)
    game2, (dave, erin, _) = game_with_mail(press=Press.FULL)
    message_post(game=game2, user=dave, text="hi")
    send_batches(later())
    pipe(reply_bytes(chat_mails(erin)[0], "tell 7 hello"))
    assert not ChatMessage.objects.filter(author__in=[bob, erin]).exists()
    assert any("numbered 1 to 3" in m.body for m in mails_to(erin.email))


def test_the_author_of_a_hidden_message_is_told_by_mail():
    game, (alice, bob, _) = game_with_mail()
    message = message_post(game=game, user=bob, text="something rude")
    staff = UserFactory()
    staff.is_staff = True
    staff.save()
    with TestCase.captureOnCommitCallbacks(execute=True):
        message_hide(message=message, by=staff, reason="rudeness")
    [notice] = [m for m in mails_to(bob.email) if "hidden" in m.subject]
    assert "rudeness" in notice.body and "something rude" in notice.body
    assert Notification.objects.filter(kind=NotificationKind.MODERATION, user=bob).count() == 1
