"""On a phone: an expansion (Battle for London) game page does not scroll sideways at 390 px, mid-game
(routes A and B taken, route A's Control Points broken, a Big Ben bonus taken) and finished, for a player and a
spectator. Screenshots at 1280x800 and 390x844 go to test-artifacts/screenshots/ (``london-<state>-<who>-<viewport>``).
"""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.web.london_game import finish, london_game

from .conftest import VIEWPORTS, log_in
from .test_phone_and_pages import check_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shoot(page_at, users, game, state: str, screenshot_dir, too_wide: list) -> None:
    for who, user in (("player", users[1]), ("spectator", users[2])):
        for viewport in VIEWPORTS:
            page = page_at(viewport)
            log_in(page, user)
            page.goto(f"/games/{game.pk}/")
            page.wait_for_selector("#peacekeeping")
            check_page(page, f"london-{state}-{who}", viewport, screenshot_dir, too_wide)
            if who == "player":  # close-ups of the expansion's parts, to look at them at a readable size
                for part in ("#peacekeeping", "#students", "#schedule") + (("#result",) if state == "finished" else ()):
                    page.locator(part).screenshot(
                        path=str(screenshot_dir / f"london-{state}-{part[1:]}-{viewport}.png"))
            page.context.close()


def test_an_expansion_game_page_fits_a_phone_mid_game_and_finished(page_at, screenshot_dir):
    """No sideways scroll at 390 px on the expansion's game page, whatever the state and whoever looks."""
    game, users = london_game()
    users = list(users) + [UserFactory()]
    too_wide: list[str] = []
    _shoot(page_at, users, game, "mid", screenshot_dir, too_wide)
    finish(game)
    _shoot(page_at, users, game, "finished", screenshot_dir, too_wide)
    assert not too_wide, too_wide
