"""Mage Knight's game page in a real browser (issue 15 "Surfaces"; issue 11 item 6 "no sideways scroll at 390 px"):
mid-game, in a combat and finished, for a player and a spectator, at 1280 px and 390 px. The SVG map scales with its
viewBox and the panels stack, so nothing is wider than the phone.

Screenshots: test-artifacts/screenshots/mk-{mid,combat,finished}-{player,spectator}-{desktop,phone}.png, and close-ups
of the map (mk-<state>-map-<viewport>.png).
"""

from __future__ import annotations

import pytest

from tests.browser.test_phone_and_pages import SIDEWAYS, VIEWPORTS, log_in, page_at  # noqa: F401 (fixture)
from tests.factories import UserFactory
from tests.web.test_mage_knight_board import drive, in_combat, mid_game, mk_game, needs_engine

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), needs_engine]


def shoot(page_at, game, who: str, user, state: str, screenshot_dir, too_wide: list) -> None:  # noqa: F811
    for viewport in VIEWPORTS:
        page = page_at(viewport)
        log_in(page, user)
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#mk-board")
        page.wait_for_load_state("load")
        width, inner = page.evaluate(SIDEWAYS)
        if width > inner:
            too_wide.append(f"{state} {who} at {viewport}: scrollWidth {width} > innerWidth {inner}")
        svg = page.locator("svg.mk-map").bounding_box()
        assert svg and svg["width"] <= VIEWPORTS[viewport]["width"], (state, who, viewport)
        page.screenshot(path=str(screenshot_dir / f"mk-{state}-{who}-{viewport}.png"), full_page=True)
        if who == "player":
            page.locator("#mk-map").screenshot(path=str(screenshot_dir / f"mk-{state}-map-{viewport}.png"))
        page.context.close()


def test_the_mage_knight_page_fits_a_phone_mid_game_in_combat_and_finished(page_at, screenshot_dir):  # noqa: F811
    game, users = mk_game(seed=11)
    spectator = UserFactory()
    too_wide: list[str] = []
    drive(game, mid_game)
    shoot(page_at, game, "player", users[game.state["dec"]["seat"]], "mid", screenshot_dir, too_wide)
    shoot(page_at, game, "spectator", spectator, "mid", screenshot_dir, too_wide)
    drive(game, in_combat, limit=6000)
    assert game.state.get("combat"), "seed 11 reaches a combat"
    shoot(page_at, game, "player", users[game.state["dec"]["seat"]], "combat", screenshot_dir, too_wide)
    shoot(page_at, game, "spectator", spectator, "combat", screenshot_dir, too_wide)
    drive(game, lambda s: False, limit=20000)
    assert game.status == "finished"
    shoot(page_at, game, "player", users[0], "finished", screenshot_dir, too_wide)
    shoot(page_at, game, "spectator", spectator, "finished", screenshot_dir, too_wide)
    assert not too_wide, too_wide
