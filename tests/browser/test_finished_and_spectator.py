"""In a real browser: a finished Faltisia game's score table and replay (prev/next), and a spectator's page.

The game is played to the end through the services (first option everywhere) to keep the test short; the
pages are then opened and clicked like a person would.
"""

from __future__ import annotations

import pytest

from games.models import GameStatus
from tests.factories import UserFactory, make_started_game
from tests.web.conftest import play_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, user) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "Correct-Horse-42")
    page.click("form button[type=submit]")
    page.wait_for_selector("text=Log out")


def test_final_scores_replay_and_spectator(new_page, screenshot_dir):
    game, (alice, bob) = make_started_game(players=2, engine="faltisia", seed=5)
    watcher = UserFactory()
    spectator = new_page()
    log_in(spectator, watcher)
    spectator.goto(f"/games/{game.pk}/")
    assert spectator.inner_text(".badge.spectator") == "Spectating"
    assert spectator.query_selector("form.decision-form") is None and spectator.query_selector("#my-cards") is None
    spectator.screenshot(path=str(screenshot_dir / "10-spectator.png"), full_page=True)

    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    page = new_page()
    log_in(page, alice)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#result")
    assert page.locator("#result tbody tr").count() == 2
    page.screenshot(path=str(screenshot_dir / "11-final-scores.png"), full_page=True)

    page.click("text=Replay")
    page.wait_for_selector("#replay-nav")
    first = page.inner_text(".replay-pos")
    page.click("#replay-next")
    page.click("#replay-next")
    assert page.inner_text(".replay-pos") != first
    page.click("#replay-prev")
    page.keyboard.press("ArrowRight")  # the arrow keys step too
    page.wait_for_load_state()
    for _ in range(30):
        page.click("#replay-next")
    page.wait_for_selector("#replay-nav")  # each click loads the next step's page: read the last one, not the one leaving
    page.wait_for_load_state()
    assert page.query_selector("#schedule") is not None and page.locator("#replay-events li").count() > 0
    page.screenshot(path=str(screenshot_dir / "12-replay.png"), full_page=True)
