"""What did the others do? On a phone: "since your last visit" at the top, the decision still on the
first screen, the newest event at the top of the history box."""

from __future__ import annotations

import pytest

from games.models import Event
from tests.factories import make_started_game
from tests.web.conftest import play_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone_page(chromium_browser, live_server):
    context = chromium_browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def test_since_your_last_visit_on_a_phone(phone_page, screenshot_dir):
    game, (alice, bob) = make_started_game(players=2, engine="faltisia", seed=5)
    page = phone_page
    page.goto("/accounts/login/")
    page.fill("#id_username", alice.username)
    page.fill("#id_password", "Correct-Horse-42")
    page.click("form button[type=submit]")
    page.wait_for_selector("#nav-links form[action$='/logout/']", state="attached")
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#decision")
    assert page.query_selector("#since-last-visit") is None  # the first visit

    start = game.phase
    play_until(game, lambda g: g.phase >= start + 3)  # both seats decide meanwhile, e.g. by email
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector("#since-last-visit")
    page.screenshot(path=str(screenshot_dir / "ux-since-last-visit-phone.png"))
    newest = [e.text for e in Event.objects.filter(game=game).order_by("-id") if e.visible_to(0)][0]
    assert page.inner_text("#since-last-visit li:first-child") == newest
    # The summary is short enough to leave the decision on the first screen, and nothing scrolls sideways.
    top = page.eval_on_selector("#decision", "el => el.getBoundingClientRect().top + window.scrollY")
    assert top < PHONE["height"] - 150
    width, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner
    # The history box opens on the newest event: it is at the top of the box, no scrolling inside it.
    assert page.inner_text("#history .events li:first-child") == newest
    assert page.eval_on_selector("#history", "el => el.scrollTop") == 0
