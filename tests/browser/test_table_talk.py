"""Table talk in real browsers: two players in two browsers exchange table and private
messages live, one at 1280 px and one at 390 px; a spectator sees only the table; an email-only player takes part
by replies (say and tell), and what they write appears live on the pages. Screenshots go to
test-artifacts/screenshots/ (``talk-*.png``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.chat.models import ChatMessage
from games.chat.services import message_post
from games.mail.chat_mail import chat_batches_send
from games.models import Press
from tests.browser.conftest import SIDEWAYS, VIEWPORTS, log_in
from tests.chat.helpers import chat_game
from tests.factories import UserFactory
from tests.mail.helpers import mails_to, pipe, reply_bytes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fast_polling(settings):
    settings.WEB_POLL_INTERVAL_MS = 250
    settings.CHAT_MAIL_BATCH_SECONDS = 60


def send(page, text: str, *, to: list[int] = ()) -> None:
    for position in to:
        page.check(f"#chat-form input[name=to][value='{position}']")
    page.fill("#chat-text", text)
    page.click("#chat-send")
    page.wait_for_function("() => document.getElementById('chat-text').value === ''")


def shows(page, text: str) -> None:
    page.locator("#chat-messages .chat-msg", has_text=text).wait_for(state="visible")


def messages_text(page) -> str:
    return page.inner_text("#chat-messages")


def test_two_browsers_a_spectator_and_an_email_only_player_talk_live(page_at, screenshot_dir):
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    game, _ = chat_game(press=Press.FULL, users=[alice, bob, carol])
    watcher = UserFactory()
    desk, phone, spectator = page_at("desktop"), page_at("phone"), page_at("desktop")
    for page, user in ((desk, alice), (phone, bob), (spectator, watcher)):
        log_in(page, user)
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#chat")
    assert spectator.query_selector("#chat-form") is None  # spectators read, never write

    # A table message from the desktop reaches the phone and the spectator without a reload.
    send(desk, f"Good luck everyone, @{bob.username}! Rules: https://example.org/rules")
    shows(phone, "Good luck everyone")
    shows(spectator, "Good luck everyone")
    assert phone.locator("#chat-messages a[rel='nofollow ugc noopener']").count() == 1
    assert phone.locator("#chat-messages mark.mention-me").count() == 1

    # A private message from the phone reaches the desktop only.
    send(phone, "alice, shall we both bet low?", to=[0])
    shows(desk, "shall we both bet low")
    desk.locator("#chat-messages .chat-msg.private", has_text="bet low").wait_for()
    phone.wait_for_timeout(300)
    shows(phone, "shall we both bet low")

    # The email-only player: one batched mail with the table's talk (not the private thread), then replies.
    mail.outbox.clear()
    chat_batches_send(now=timezone.now() + timedelta(seconds=120))
    [batch] = [m for m in mails_to(carol.email) if "new message" in m.subject]
    assert "Good luck everyone" in batch.body and "bet low" not in batch.body
    pipe(reply_bytes(batch, "say Hello from my inbox!\nI play by email."))
    pipe(reply_bytes(batch, "tell 1 alice, a word between us"))
    for page in (desk, phone, spectator):
        shows(page, "Hello from my inbox!")
    shows(desk, "a word between us")
    assert ChatMessage.objects.filter(author=carol).count() == 2

    desk.wait_for_timeout(1000)  # a few more polls: nothing private arrives where it must not
    assert "bet low" not in messages_text(spectator) and "a word between us" not in messages_text(spectator)
    assert "a word between us" not in messages_text(phone)
    width, inner = phone.evaluate(SIDEWAYS)
    assert width <= inner, f"the phone page scrolls sideways: {width} > {inner}"
    phone.locator("#chat").scroll_into_view_if_needed()
    for name, page in (("desktop", desk), ("phone", phone), ("spectator", spectator)):
        page.screenshot(path=str(screenshot_dir / f"talk-{name}.png"), full_page=True)


def test_the_nav_and_the_lobby_count_new_messages_without_a_reload(page_at, settings):
    """Unread counts in the lobby's list and the nav are live, like the game page."""
    settings.WEB_UNREAD_POLL_INTERVAL_MS = 250
    alice, bob = UserFactory(), UserFactory()
    game, _ = chat_game(users=[alice, bob, UserFactory()])
    for size in ("desktop", "phone"):
        page = page_at(size)
        log_in(page, bob)
        page.goto("/")
        row_badge = page.locator(f"[data-unread-game='{game.pk}']")
        assert row_badge.is_hidden()
        message_post(game=game, user=alice, text=f"anyone there? ({size})")
        row_badge.wait_for(state="visible")
        assert row_badge.inner_text() == "1 new message"  # the first was read on the game page
        assert page.locator("#nav-unread").text_content() == row_badge.inner_text().split()[0]
        page.goto(f"/games/{game.pk}/")  # read on the game page: the counts go
        page.goto("/")
        assert row_badge.is_hidden() and page.locator("#nav-unread").is_hidden()
