"""The decision beside what it is about, and compact card rows, at 390x844 on a touch phone:
the presentation names the part of the board the decision is about (board.phone_focus); on the phone that part sits
under the decision box and the rest of the board folds with a tap. In a Mage Knight combat the combat panel and
the "Target..." buttons are on the screen together; at a card decision the hand is, as one row of cards that scrolls
sideways inside itself, each card a heading with its text, focusable, its whole text shown when focused. On a desktop
the board stays as drawn."""

from __future__ import annotations

import pytest

from tests.browser.conftest import log_in
from tests.web.test_mage_knight_board import drive, in_combat, mid_game, mk_game, needs_engine

pytestmark = [pytest.mark.browser, needs_engine, pytest.mark.django_db(transaction=True)]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
HEIGHT = 844

IN_VIEW = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }"""


def open_phone(chromium_browser, live_server, user, game):
    context = chromium_browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, user)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#decision .option")
    return context, page


def test_mage_knight_combat_panel_and_target_buttons_share_the_phone_screen(chromium_browser, live_server,
                                                                            screenshot_dir):
    game, users = mk_game(seed=11)
    drive(game, in_combat, limit=6000)
    context, page = open_phone(chromium_browser, live_server, users[game.state["dec"]["seat"]], game)
    try:
        assert page.locator("#phone-focus > #mk-combat").count() == 1  # moved under the decision box
        target = page.locator("#decision button.option", has_text="Target").first
        target.scroll_into_view_if_needed()
        assert page.evaluate(IN_VIEW, "#mk-combat"), "the combat panel is off the screen with the Target buttons"
        box = target.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT
        page.screenshot(path=str(screenshot_dir / "ui26-mk-combat-focus-phone.png"))
        # the rest of the board folds with one tap, and opens again with another
        rest = page.locator("#board-rest")
        assert rest.get_attribute("open") is not None and page.locator("#mk-map").is_visible()
        rest.locator("> summary").tap()
        assert rest.get_attribute("open") is None and not page.locator("#mk-map").is_visible()
        rest.locator("> summary").tap()
        assert rest.get_attribute("open") is not None
    finally:
        context.close()


def test_a_card_decision_shows_the_hand_as_one_compact_row_on_the_phone(chromium_browser, live_server,
                                                                       screenshot_dir):
    game, users = mk_game(seed=11)
    drive(game, mid_game)
    seat = game.state["dec"]["seat"]
    assert any(c for c in game.state["seats"][seat]["hand"])
    context, page = open_phone(chromium_browser, live_server, users[seat], game)
    try:
        assert page.locator("#phone-focus > #my-hand").count() == 1
        page.evaluate("() => document.getElementById('decision').scrollIntoView({block: 'start'})")
        assert page.evaluate(IN_VIEW, "#my-hand"), "the hand is not on the screen with the decision"
        page.screenshot(path=str(screenshot_dir / "ui26-mk-hand-focus-phone.png"))
        cards = page.locator("#my-hand article.mk-card")
        n = cards.count()
        assert n >= 1
        # one row: every card's top on the same line; the row scrolls sideways inside itself, not the page
        tops = page.eval_on_selector_all("#my-hand article.mk-card", "els => els.map(e => Math.round(e.offsetTop))")
        assert len(set(tops)) == 1, tops
        assert page.eval_on_selector("#my-hand", "el => el.getBoundingClientRect().height") < HEIGHT / 2
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # cards are headings with their text after them, for screen readers
        assert page.locator("#my-hand article.mk-card > h4.mk-card-name").count() == n
        # keyboard and tap: a card takes the focus and then shows its whole text (clamped to four lines otherwise)
        first = cards.first
        text = first.locator(".mk-card-text")
        if text.count():
            assert text.evaluate("el => getComputedStyle(el).webkitLineClamp") == "4"
            first.tap()
            assert first.evaluate("el => el === document.activeElement")
            assert text.evaluate("el => getComputedStyle(el).webkitLineClamp") == "none"
        first.evaluate("el => el.blur()")
        page.keyboard.press("Tab")  # Tab moves on through the row's cards like any control
        assert page.evaluate("() => !!document.activeElement.closest('#my-hand, #decision, #board-rest')")
    finally:
        context.close()


def test_on_a_desktop_the_board_stays_as_drawn(chromium_browser, live_server):
    game, users = mk_game(seed=11)
    drive(game, in_combat, limit=6000)
    context = chromium_browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        log_in(page, users[game.state["dec"]["seat"]])
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#decision .option")
        assert page.locator("#phone-focus > *").count() == 0
        assert page.locator("#board-rest").get_attribute("open") is not None
        assert not page.locator("#board-rest > summary").is_visible() and page.locator("#mk-combat").is_visible()
    finally:
        context.close()
