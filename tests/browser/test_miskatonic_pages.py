"""Miskatonic's game page in a real browser: it fits a 390 px phone (nothing scrolls sideways) while in play and
when finished, and the rules page too.

Screenshots go to test-artifacts/screenshots/ (``misk-<page>-<desktop|phone>.png``).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import SIDEWAYS, VIEWPORTS, log_in
from tests.factories import make_started_game
from tests.web.miskatonic_helpers import play_greedy_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shoot(page, name: str, viewport: str, screenshot_dir) -> tuple[int, int]:
    page.wait_for_load_state("load")
    page.screenshot(path=str(screenshot_dir / f"misk-{name}-{viewport}.png"), full_page=True)
    return tuple(page.evaluate(SIDEWAYS))


def test_the_miskatonic_game_page_fits_a_phone_in_play_and_finished(page_at, screenshot_dir):  # noqa: F811
    game, users = make_started_game(players=3, engine="miskatonic", seed=5)
    play_greedy_until(game, lambda g: g.state["round"] >= 3 and g.state["phase"] == "student")
    current = users[game.state["cur"]]
    too_wide = []
    for viewport in VIEWPORTS:
        page = page_at(viewport)
        log_in(page, current)
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#msk-board")
        assert page.locator("#decision .option").count() >= 2  # the Tuition pick, with the shelf's cards
        width, inner = shoot(page, "game-in-play", viewport, screenshot_dir)
        if width > inner:
            too_wide.append(f"in play at {viewport}: {width} > {inner}")
        page.screenshot(path=str(screenshot_dir / f"misk-game-in-play-{viewport}-first-screen.png"))
    play_greedy_until(game, lambda g: False)
    for viewport in VIEWPORTS:
        page = page_at(viewport)
        log_in(page, users[0])
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#result")
        width, inner = shoot(page, "game-finished", viewport, screenshot_dir)
        if width > inner:
            too_wide.append(f"finished at {viewport}: {width} > {inner}")
        page.goto("/games/miskatonic/rules/")
        page.wait_for_selector("#rules-summary")
        width, inner = shoot(page, "rules", viewport, screenshot_dir)
        if width > inner:
            too_wide.append(f"rules at {viewport}: {width} > {inner}")
    assert not too_wide, too_wide
