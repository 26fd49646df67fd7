"""Two players on the game's page play a whole Mage Knight game and receive no prompt mail.

"A prompt is mailed only if the player is not on the game's page (the page and its live updates tell the server
the player is there, within a minute) ... a player on the page gets no mail for prompts they answer there."

The delay before a "when away" prompt mail is set to 0 here, so presence alone holds the mail back; the game's
first prompts, opened before either page is open, are mailed (the control: these players do get prompt mail when
away). Then each player clicks every decision on their own page, one at a desk and one on a phone, to the end.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.mail import prompt_mails
from games.mail.models import Notification, NotificationKind
from games.models import GameStatus
from tests.browser.conftest import log_in
from tests.games.helpers import open_prompt
from tests.web.test_mage_knight_board import bot_pick, mk_game, needs_engine

pytestmark = [pytest.mark.browser, needs_engine, pytest.mark.django_db(transaction=True)]

VIEWPORTS = ({"width": 1280, "height": 800}, {"width": 390, "height": 844})


def prompt_mail_count(users) -> int:
    return Notification.objects.filter(kind=NotificationKind.PROMPT, user__in=users).count()


def _seat_to_decide(game, timeout: float = 10.0):
    """The seat with an open prompt; None while nobody has one (a step's last pick committed, its resolution,
    run on that commit in the server's thread, not yet)."""
    deadline = time.monotonic() + timeout
    while True:
        seat = next((p for p in range(game.players) if open_prompt(game, p) is not None), None)
        if seat is not None or time.monotonic() > deadline:
            return seat
        time.sleep(0.05)
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return None


def test_two_players_on_the_page_play_a_whole_mage_knight_game_without_a_prompt_mail(chromium_browser, live_server,
                                                                                    settings, screenshot_dir):
    settings.WEB_POLL_INTERVAL_MS = 250
    settings.MAIL_PROMPT_DELAY_SECONDS = 0  # no grace for an answer on the page: only presence holds a mail back
    game, users = mk_game(seed=5)
    mailed_while_away = prompt_mail_count(users)
    assert mailed_while_away >= 1 and len(mail.outbox) >= 1  # the control: away players are mailed their prompts

    contexts, pages = [], []
    try:
        for user, viewport in zip(users, VIEWPORTS):
            context = chromium_browser.new_context(viewport=viewport, base_url=live_server.url,
                                                   has_touch=viewport["width"] < 500)
            context.set_default_timeout(15_000)
            contexts.append(context)
            page = context.new_page()
            log_in(page, user)
            page.goto(f"/games/{game.pk}/")
            page.wait_for_selector("#live")
            pages.append(page)
        picks = 0
        for _ in range(1500):
            game.refresh_from_db()
            if game.status != GameStatus.ACTIVE:
                break
            seat = _seat_to_decide(game)
            if seat is None:
                assert game.status != GameStatus.ACTIVE, "an active game with no decision open for 10 s"
                break
            page, option = pages[seat], bot_pick(game, seat)
            button = page.locator(f'#decision button[name=option][value="{option}"]')
            button.wait_for()  # the page shows the decision by its live update
            version = page.eval_on_selector("#live", "el => el.dataset.version")
            button.click()
            page.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=version)
            picks += 1
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED, f"not finished after {picks} picks"
        assert picks > 100  # a whole game: every round's tactics, turns and combats
        pages[1].screenshot(path=str(screenshot_dir / "mk-whole-game-on-the-page-phone.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()

    assert prompt_mail_count(users) == mailed_while_away
    # Nothing held back to be sent later either: the sweep of postponed prompt mails, well after, finds none.
    assert prompt_mails.due_prompt_notifications_queue(now=timezone.now() + timedelta(hours=1)) == 0
    assert prompt_mail_count(users) == mailed_while_away
