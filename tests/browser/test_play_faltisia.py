"""End to end in a real browser: two people sign up, start a 2-player Faltisia game and play Round 1 by clicking.

Contract checked: sign-up with a verification link sent
through Django's email backend, creating a game from the lobby, joining through the signed invite link from
a second browser context, every decision of Round 1 made with the page's own buttons (setup picks, 7 draft
picks, 7 lectures, 7 action steps), and the other player's page following along without a reload.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import Error as PlaywrightError

from games.models import Game, GameStatus, Submission, SubmissionSource

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OPTION = "form.decision-form button[name=option]"


@pytest.fixture(autouse=True)
def fast_polling(settings):
    settings.WEB_POLL_INTERVAL_MS = 250


def sign_up(page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_password", "Tea-and-Scones-1887")
    page.select_option("#id_timezone", "Europe/London")
    page.click("form button[type=submit]")
    page.wait_for_selector("text=Check your email")
    message = next(m for m in reversed(mail.outbox) if f"{username}@example.org" in m.to)
    link = re.search(r"https?://\S+/accounts/verify/\S+/", message.body).group(0)
    page.goto(link)
    page.wait_for_selector("text=Your email address is confirmed")


def round_no(page) -> int:
    el = page.query_selector("#round-no")
    return int(el.inner_text()) if el else 0


def click_first_option(page) -> bool:
    """Click the first offered option, if any, and wait until the page shows what comes next.

    A locator, not an element handle: the page may swap in a fresh fragment at any moment (its poll),
    and the locator finds the button again in the new markup.
    """
    button = page.locator(OPTION).first
    if button.count() == 0:
        return False
    before = page.get_attribute("#live", "data-version")
    try:
        with page.expect_response(lambda r: "/move/" in r.url and r.request.method == "POST", timeout=10_000):
            button.click(timeout=3_000)
    except PlaywrightError:
        return False  # the prompt went away between the look and the click; look again
    page.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=before)
    return True


def test_two_players_sign_up_create_join_and_play_round_one(new_page, screenshot_dir):
    alice, bob = new_page(), new_page()
    sign_up(alice, "alice")
    sign_up(bob, "bob")

    # Alice creates a 2-player Faltisia game from the lobby.
    alice.click("text=New game")
    alice.select_option("#id_game", "faltisia")
    alice.fill("#id_seats", "2")
    alice.select_option("#id_clock", "fixed-24h")
    alice.click("#new-game button[type=submit]")
    alice.wait_for_selector("text=Waiting for players")
    invite = alice.inner_text("#invite-link").strip()
    alice.screenshot(path=str(screenshot_dir / "01-waiting-room.png"), full_page=True)

    # Bob opens the invite link in his own browser context and joins: every seat is taken, the game starts.
    bob.goto(invite)
    bob.click("text=Join the game")
    bob.wait_for_selector("text=the game has begun")
    game = Game.objects.get()
    assert game.status == GameStatus.ACTIVE and game.engine == "faltisia"
    # Alice's waiting room turns into the board without a reload (the page polls its fragment).
    alice.wait_for_selector("#schedule")
    alice.screenshot(path=str(screenshot_dir / "02-registration.png"), full_page=True)

    shots = {"draft": "03-draft.png", "lecture": "04-lecture.png", "action": "05-action.png"}
    clicks = 0
    for _ in range(1500):
        if round_no(alice) >= 2 and round_no(bob) >= 2:
            break
        progressed = False
        for page in (alice, bob):
            phase = page.get_attribute("#status-line", "data-phase")
            status_text = page.inner_text("#status-line")
            for key, name in list(shots.items()):
                if key.capitalize() in status_text and page.query_selector(OPTION):
                    page.screenshot(path=str(screenshot_dir / name), full_page=True)
                    del shots[key]
            if click_first_option(page):
                clicks += 1
                progressed = True
            assert phase is not None
        if not progressed:
            alice.wait_for_timeout(150)  # both wait: the other page's poll brings the next prompt
    else:
        pytest.fail("Round 2 was not reached")

    alice.screenshot(path=str(screenshot_dir / "06-round2-alice.png"), full_page=True)
    bob.screenshot(path=str(screenshot_dir / "07-round2-bob.png"), full_page=True)
    game.refresh_from_db()
    assert game.state["round"] == 2
    # Every pick came from the web page, none from a deadline default or a bot, but for the prompts with a
    # single option (the last draft pick...), which the server picks itself and never shows.
    sources = set(Submission.objects.filter(game=game).values_list("source", flat=True))
    assert sources == {SubmissionSource.WEB, SubmissionSource.FORCED}
    clicked = Submission.objects.filter(game=game, source=SubmissionSource.WEB).select_related("prompt_row")
    assert clicks == clicked.count() and Submission.objects.filter(game=game).count() >= 2 * (1 + 3 + 7 + 7 + 7)
    assert all(len(s.prompt_row.options) > 1 for s in clicked)
    # The history shows Round 1 and the board shows the time marker in Round 2.
    assert "Round 1" in alice.inner_text("#history")
    assert alice.query_selector(".sched-row.current-round .sched-label").inner_text().endswith("Round 2")
    assert alice.query_selector(".sched-row.current-round #time-marker") is not None
    # Both players' boards are drawn: two registration boards, attribute cubes on the tracks.
    assert len(alice.query_selector_all("article.student")) == 2
    assert len(alice.query_selector_all(".track .cube")) == 8

    alice.goto("/")
    alice.screenshot(path=str(screenshot_dir / "08-lobby.png"), full_page=True)
    assert alice.query_selector(f"a[href='/games/{game.pk}/']") is not None
