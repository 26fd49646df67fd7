"""In a real browser: the Faltisia game page links to the game's rules page, both drawn at desktop
(1280x800) and phone (390x844) sizes, and the lobby form shows only the selected game's options (its package's
fields, or the JSON box for a game without a package).
"""

from __future__ import annotations

import pytest

from tests.browser.test_finished_and_spectator import log_in
from tests.factories import make_started_game
from tests.web.conftest import play_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def test_faltisia_game_page_links_its_rules_page_at_desktop_and_phone_sizes(new_page, screenshot_dir):
    game, (alice, _, _) = make_started_game(players=3, engine="faltisia", seed=3)
    play_until(game, lambda g: (g.state or {}).get("round") == 1 and g.state.get("term", 0) >= 2)
    page = new_page()
    log_in(page, alice)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#schedule")
        page.screenshot(path=str(screenshot_dir / f"20-faltisia-game-{size}.png"), full_page=True)
        page.click("#rules-link")
        page.wait_for_selector("#rules-summary")
        assert page.url.endswith("/games/faltisia/rules/")
        assert page.locator("#rules-clubs tbody tr").count() == 3
        # Nothing wider than the screen: the tables scroll inside their wrappers on a phone.
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(screenshot_dir / f"21-faltisia-rules-{size}.png"), full_page=True)


def test_the_lobby_form_shows_only_the_selected_games_options(new_page, screenshot_dir):
    game, (alice, _) = make_started_game(players=2)
    page = new_page()
    log_in(page, alice)
    page.goto("/games/new/")
    page.select_option("#id_game", "faltisia")
    assert page.is_visible("#id_solo_difficulty") and page.is_visible("#id_choose_characters")
    assert not page.is_visible("#id_extra_options")  # Faltisia's package declares its fields
    page.screenshot(path=str(screenshot_dir / "22-new-game-faltisia.png"), full_page=True)
    page.select_option("#id_game", "tinygame")  # no package in the test suite: the JSON box
    assert page.is_visible("#id_extra_options") and not page.is_visible("#id_solo_difficulty")
