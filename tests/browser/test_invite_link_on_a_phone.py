"""The waiting room's invite link is usable on a phone: at 390 px the whole link is on the screen (it wraps
in its box) and the Copy button beside it is fully in view."""

from __future__ import annotations

import pytest

from games.services import game_create
from tests.browser.conftest import SIDEWAYS, VIEWPORTS, log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOX = "sel => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.left, r.right, r.width]; }"


def test_the_invite_link_and_its_copy_button_fit_a_phone(page_at, screenshot_dir):
    alice = UserFactory(username="alice")
    game = game_create(created_by=alice, engine="faltisia", players=3, options={}, clock={}, seed=3)
    page = page_at("phone")
    log_in(page, alice)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#invite-link")
    page.screenshot(path=str(screenshot_dir / "ux-waiting-room-phone.png"), full_page=True)
    width = VIEWPORTS["phone"]["width"]
    left, right, _ = page.evaluate(BOX, ".token-box [data-copy]")
    assert 0 <= left and right <= width, f"Copy button at {left}..{right} px, the screen is {width} px"
    link_left, link_right, _ = page.evaluate(BOX, "#invite-link")
    assert 0 <= link_left and link_right <= left, "the link ends before the Copy button"
    # the whole link can be read: its text is the invite URL, on screen (wrapped), and nothing scrolls sideways
    assert page.inner_text("#invite-link").strip().startswith("http")
    scroll_width, inner = page.evaluate(SIDEWAYS)
    assert scroll_width <= inner
