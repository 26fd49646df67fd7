"""A Miskatonic turn played at 390x844 by clicking, with the hand in view at each decision
(the decision box, then the hand right after it on the first screens), and the players list and standing orders
after the board on the phone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import log_in
from tests.factories import make_started_game
from tests.games.helpers import open_prompt
from tests.web.miskatonic_helpers import play_greedy_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
HEIGHT = 844


def top_of(page, selector: str) -> float:
    return page.eval_on_selector(selector, "el => el.getBoundingClientRect().top + window.scrollY")


def test_a_miskatonic_turn_at_390_px_keeps_the_hand_in_view(page_at, screenshot_dir, settings):
    settings.WEB_POLL_INTERVAL_MS = 300
    game, users = make_started_game(players=3, engine="miskatonic", seed=5)
    play_greedy_until(game, lambda g: g.state["round"] >= 2 and g.state["phase"] == "student")
    seat = game.state["cur"]
    page = page_at("phone")
    log_in(page, users[seat])
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#msk-board")
    assert top_of(page, "#msk-board") < top_of(page, ".sidebar .players")  # the board before the players list
    decisions = 0
    while decisions < 8 and open_prompt(game, seat) is not None:
        page.wait_for_selector("#decision .option")
        page.locator("#decision").scroll_into_view_if_needed()
        page.evaluate("() => document.getElementById('decision').scrollIntoView({block: 'start'})")
        hand = page.eval_on_selector("#my-hand", "el => el.getBoundingClientRect().top")
        assert hand < HEIGHT, f"decision {decisions}: the hand starts {hand:.0f} px down, off the first screen"
        page.screenshot(path=str(screenshot_dir / f"misk-phone-decision-{decisions}.png"))
        version = page.eval_on_selector("#live", "el => el.dataset.version")
        page.locator("#decision .option").first.click()
        page.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=version)
        decisions += 1
        game.refresh_from_db()
    assert decisions >= 2
