"""A Mage Knight turn played at 390 px on a touch phone by tapping hexes on the SVG map
(and one move by keyboard: Tab to the hex, Enter), then "end turn" from the decision box.

Each tapped hex is a button for exactly one of the prompt's move/explore options (its data-option is the value of the
decision box's button for that pick); the pick goes through the same form POST as the buttons, and the server moves
the hero. Unreachable hexes are inert (no tabindex, no role). A reachable hex is at least 44 px wide on the phone.
"""

from __future__ import annotations

import pytest

from games.models import GameStatus
from tests.browser.conftest import log_in
from tests.games.helpers import open_prompt
from tests.web.test_mage_knight_board import drive, mk_game, needs_engine

pytestmark = [pytest.mark.browser, needs_engine, pytest.mark.django_db(transaction=True)]


def can_move(game, seat: int) -> bool:
    prompt = open_prompt(game, seat)
    return prompt is not None and any(o["id"].startswith("t-move:") for o in prompt.options)


def hero_at(game, seat: int) -> str:
    game.refresh_from_db()
    return game.state["seats"][seat]["pos"]


def test_a_turn_by_tapping_hexes_at_390_px(chromium_browser, live_server, screenshot_dir, settings):
    settings.WEB_POLL_INTERVAL_MS = 300
    game, users = mk_game(seed=11)
    drive(game, lambda s: s["phase"] == "turn" and (s.get("dec") or {}).get("kind") == "turn"
          and s["turn"]["pool"]["move"] >= 4 and can_move(game, s["dec"]["seat"]))
    seat = game.state["dec"]["seat"]
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                           base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, users[seat])
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#mk-map .mk-tap")
        # inert: a hex no pick leads to has no tabindex and no role
        inert = page.locator("#mk-map g.mk-hex:not(.mk-tap)").first
        assert inert.get_attribute("tabindex") is None and inert.get_attribute("role") is None
        moves = 0
        for step in range(3):
            if not can_move(game, seat):
                break
            prompt = open_prompt(game, seat)
            offered = {o["id"] for o in prompt.options}
            hexes = page.locator('#mk-map g.mk-tap[data-option^="t-move:"]')
            target = hexes.first
            option = target.get_attribute("data-option")
            # the hex stands for the decision box's own button, same option id
            assert option in offered
            assert page.locator(f'#decision button[name=option][value="{option}"]').count() == 1
            assert "cost" in target.get_attribute("aria-label") and target.get_attribute("role") == "button"
            box = target.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
            before = hero_at(game, seat)
            page.screenshot(path=str(screenshot_dir / f"mk-tap-{step}-phone.png"))
            if step == 1:  # the keyboard: focus the hex, Enter
                target.focus()
                page.keyboard.press("Enter")
            else:
                target.scroll_into_view_if_needed()
                target.tap()
            page.wait_for_function("v => document.getElementById('live').dataset.version !== v",
                                   arg=page.eval_on_selector("#live", "el => el.dataset.version"))
            assert hero_at(game, seat) == option.split(":", 1)[1] != before
            moves += 1
        assert moves >= 2
        page.wait_for_selector('#decision button[value="t-end"]')
        page.click('#decision button[value="t-end"]')
        page.wait_for_function("() => !document.querySelector('#decision button[value=\"t-end\"]')")
        game.refresh_from_db()
        assert game.status != GameStatus.ACTIVE or (game.state.get("dec") or {}).get("seat") != seat \
            or game.state["turn"]["seat"] != seat or not game.state["turn"]["acted"]
        page.screenshot(path=str(screenshot_dir / "mk-tap-after-phone.png"), full_page=True)
    finally:
        context.close()
