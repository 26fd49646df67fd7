"""In a real browser: a game's terms explained on hover, on keyboard focus and on tap (a
phone has no hover), and without JavaScript; the new-game form checks the seat count against the selected game
before anything is sent, with the engine's own words. Screenshots at desktop (1280) and phone (390) sizes.
"""

from __future__ import annotations

import pytest

from games.models import Game
from tests.browser.test_finished_and_spectator import log_in
from tests.factories import make_started_game
from tests.web.conftest import play_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
CARD_TERM = "#my-cards .card-text a.term"


def _faltisia_mid_game():
    game, (alice, _, _) = make_started_game(players=3, engine="faltisia", seed=3)
    play_until(game, lambda g: (g.state or {}).get("round") == 1 and g.state.get("term", 0) >= 2)
    return game, alice


def test_a_term_is_explained_on_hover_focus_and_tap_and_never_widens_the_page(new_page, screenshot_dir):
    """"a glossary shown on hover and on tap (phones have no hover) ... keyboard reachable"."""
    game, alice = _faltisia_mid_game()
    page = new_page()
    log_in(page, alice)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"/games/{game.pk}/")
        term = page.locator(CARD_TERM).first
        tip = term.locator(".term-tip")
        assert not tip.is_visible()
        if size == "desktop":
            term.hover()
            assert tip.is_visible()
            page.mouse.move(0, 0)
            term.focus()  # keyboard: a term is a link, so Tab reaches it
            page.keyboard.press("Shift+Tab")
            page.keyboard.press("Tab")
            assert tip.is_visible()
        else:
            term.click()  # a tap: the phone has no hover
            assert tip.is_visible() and "open" in term.get_attribute("class")
            box = tip.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            assert page.url.endswith(f"/games/{game.pk}/")  # the tap showed the tip, it did not jump away
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(screenshot_dir / f"ui11-glossary-tip-{size}.png"))
        described = term.get_attribute("aria-describedby")
        assert page.locator(f"#glossary dd#{described}").count() == 1
        page.keyboard.press("Escape")


def test_without_javascript_a_tap_on_a_term_lands_on_its_entry_which_links_to_the_rules(chromium_browser,
                                                                                        live_server, screenshot_dir):
    game, alice = _faltisia_mid_game()
    context = chromium_browser.new_context(viewport=SIZES["phone"], base_url=live_server.url,
                                           java_script_enabled=False)
    try:
        page = context.new_page()
        log_in(page, alice)
        page.goto(f"/games/{game.pk}/")
        term = page.locator(CARD_TERM).first
        key = term.get_attribute("href")
        term.click()
        assert page.url.endswith(key) and page.locator(f"dd{key}").is_visible()
        page.screenshot(path=str(screenshot_dir / "ui11-glossary-nojs-phone.png"))
        page.locator(f"dd{key} a").click()
        assert "/games/faltisia/rules/#" in page.url and page.locator("#glossary").count() == 1
    finally:
        context.close()


def test_the_miskatonic_page_explains_its_terms(new_page, screenshot_dir):
    game, (alice, _, _) = make_started_game(players=3, engine="miskatonic", seed=3)
    page = new_page()
    log_in(page, alice)
    page.set_viewport_size(SIZES["phone"])
    page.goto(f"/games/{game.pk}/")
    term = page.locator("a.term", has_text="Sanity").first
    term.click()
    assert term.locator(".term-tip").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    page.screenshot(path=str(screenshot_dir / "ui11-misk-glossary-phone.png"))


def test_the_new_game_form_checks_the_seat_count_for_the_selected_game_before_sending(new_page, screenshot_dir):
    """"the seat count is validated in the browser (min/max from the selected game's engine, updated when the
    game select changes)"; no JSON box for a game that takes no options."""
    _, (alice, _) = make_started_game(players=2)
    page = new_page()
    log_in(page, alice)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto("/games/new/")
        assert page.get_attribute("#id_seats", "max") == "6"
        page.select_option("#id_game", "miskatonic")
        assert page.get_attribute("#id_seats", "min") == "2" and page.get_attribute("#id_seats", "max") == "4"
        assert not page.is_visible("#id_extra_options")
        page.fill("#id_seats", "6")
        assert page.inner_text("#seats-error") == "Miskatonic School for Girls takes 2-4 players"
        page.click("#new-game button[type=submit]")
        assert page.url.endswith("/games/new/") and not Game.objects.filter(engine="miskatonic").exists()
        page.screenshot(path=str(screenshot_dir / f"ui11-new-game-seats-{size}.png"), full_page=True)
        page.select_option("#id_game", "faltisia")  # 6 seats suit Faltisia: the message goes away
        assert page.inner_text("#seats-error") == ""
