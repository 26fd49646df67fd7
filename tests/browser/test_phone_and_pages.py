"""Every page type at a desktop (1280x800) and a phone (390x844) viewport, in a real browser.

At 390 px nothing scrolls sideways (``scrollWidth <= innerWidth``) on any page type, the
decision is on the first screen and the players come before the board; the nav folds into a menu.
Tournaments are reachable from the nav and joinable by clicking; a proposal is approved
by staff in one click. The Replay button appears at game end without a reload, the
"Finished" badge loses the green style, and the header's "Sign up" button is legible.
Screenshots of each page type go to test-artifacts/screenshots/ (``ux-<page>-<desktop|phone>.png``).
"""

from __future__ import annotations

import pytest

from games.models import Game, GameStatus, Prompt
from games.tournaments.models import Entry, Tournament, TournamentStatus
from tests.browser.conftest import SIDEWAYS, VIEWPORTS, log_in
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import pick
from tests.tournaments.helpers import bot_field, director, make_tournament, run_to_the_end
from tests.web.conftest import play_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fast_polling(settings):
    settings.WEB_POLL_INTERVAL_MS = 250


def check_page(page, name: str, viewport: str, screenshot_dir, too_wide: list) -> None:
    """Screenshot the page and record it if it scrolls sideways."""
    page.wait_for_load_state("load")
    width, inner = page.evaluate(SIDEWAYS)
    if width > inner:
        too_wide.append(f"{name} at {viewport}: scrollWidth {width} > innerWidth {inner}")
    page.screenshot(path=str(screenshot_dir / f"ux-{name}-{viewport}.png"), full_page=True)


def top_of(page, selector: str) -> float:
    return page.eval_on_selector(selector, "el => el.getBoundingClientRect().top + window.scrollY")


def test_every_page_type_fits_a_phone_and_a_desktop(page_at, screenshot_dir):
    """No sideways scroll at 390 px on every page type."""
    game, (alice, bob) = make_started_game(players=2, engine="faltisia", seed=5)
    boss = director()
    make_tournament(boss, name="Spring Swiss", engine="faltisia", table_size=2, rounds=2, options={})
    finished_cup = make_tournament(boss, name="Autumn cup", rounds=2)
    bot_field(finished_cup, 4)
    run_to_the_end(finished_cup, boss)
    assert Tournament.objects.get(pk=finished_cup.pk).status == TournamentStatus.FINISHED
    too_wide: list[str] = []
    pages = {}
    for viewport in VIEWPORTS:
        anonymous = page_at(viewport)
        for name, url in [("signup", "/accounts/signup/"), ("login", "/accounts/login/"),
                          ("welcome", "/"), ("404", "/no-such-page/")]:
            anonymous.goto(url)
            check_page(anonymous, name, viewport, screenshot_dir, too_wide)
        page = page_at(viewport)
        log_in(page, alice)
        pages[viewport] = page
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#decision")
        check_page(page, "game-in-play", viewport, screenshot_dir, too_wide)
        page.screenshot(path=str(screenshot_dir / f"ux-game-in-play-{viewport}-first-screen.png"))
        if viewport == "phone":
            # the decision on the first screen, the players before the board
            assert top_of(page, "#decision") < VIEWPORTS["phone"]["height"] - 150
            assert top_of(page, ".sidebar .players") < top_of(page, ".board-area")
            assert page.is_hidden("#nav-links") and page.is_visible("#menu-toggle")
        for name, url in [("lobby", "/"), ("tournaments", "/tournaments/"),
                          ("tournament-finished", f"/tournaments/{finished_cup.pk}/"),
                          ("leaderboard", "/leaderboard/?game=tinygame"), ("propose", "/tournaments/propose/"),
                          ("preferences", "/accounts/preferences/"), ("vacations", "/accounts/vacations/"),
                          ("api-token", "/accounts/token/"), ("profile", f"/players/{alice.username}/"),
                          ("404-signed-in", "/games/999999/")]:
            page.goto(url)
            check_page(page, name, viewport, screenshot_dir, too_wide)

    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    for viewport, page in pages.items():
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#result")
        check_page(page, "game-finished", viewport, screenshot_dir, too_wide)
        game.refresh_from_db()
        page.goto(f"/games/{game.pk}/replay/?step={game.phase // 2}")  # mid-game: a full board
        page.wait_for_selector("#replay-nav")
        check_page(page, "replay", viewport, screenshot_dir, too_wide)
    assert too_wide == []


def test_phone_menu_leads_to_tournaments_and_a_click_registers(page_at, screenshot_dir):
    """Tournaments are reachable from the nav (the phone menu) and joinable by clicking."""
    boss, carol = director(), UserFactory()
    cup = make_tournament(boss, name="Winter Swiss", engine="faltisia", table_size=2, rounds=2, options={})
    page = page_at("phone")
    log_in(page, carol)
    page.click("#menu-toggle")
    page.wait_for_selector("#nav-links", state="visible")
    page.screenshot(path=str(screenshot_dir / "ux-menu-open-phone.png"))
    page.click("#nav-links >> text=Tournaments")
    page.click("#open-tournaments >> text=Winter Swiss")
    page.click("#register")
    page.wait_for_selector("text=You are registered")
    assert Entry.objects.filter(tournament=cup, user=carol).exists()
    page.screenshot(path=str(screenshot_dir / "ux-tournament-registered-phone.png"), full_page=True)
    page.click("#withdraw")
    page.wait_for_selector("text=You have withdrawn")
    assert not Entry.objects.filter(tournament=cup, user=carol).exists()

    # a player proposes, staff approve in one click, then anyone can register
    page.goto("/tournaments/")
    page.click("text=Propose a tournament")
    page.fill("#id_name", "Carol's cup")
    page.select_option("#id_game", "faltisia")
    page.fill("#id_table_size", "2")
    page.click("#propose button[type=submit]")
    page.wait_for_selector("text=waiting for a staff member")
    proposal = Tournament.objects.get(name="Carol's cup")
    assert proposal.status == TournamentStatus.PROPOSED and proposal.proposed_by == carol
    staff = page_at("desktop")
    log_in(staff, boss)
    staff.goto("/tournaments/")
    staff.click("#proposals button:has-text('Approve')")
    staff.wait_for_selector("text=is approved")
    proposal.refresh_from_db()
    assert proposal.status == TournamentStatus.REGISTRATION and proposal.created_by == boss


def test_replay_button_and_finished_badge_arrive_without_reload(page_at, screenshot_dir):
    """At game end the open page shows the Replay button and a non-green "Finished" badge, without a reload."""
    rehearsal, _ = make_started_game(players=2, seed=3, options={"rounds": 1})
    play_until(rehearsal, lambda g: g.status == GameStatus.FINISHED)
    picks_to_finish = rehearsal.submissions.count()

    game, (alice, bob) = make_started_game(players=2, seed=3, options={"rounds": 1})
    play_until(game, lambda g: g.submissions.count() == picks_to_finish - 1)
    page = page_at("desktop")
    log_in(page, alice)
    page.goto(f"/games/{game.pk}/")
    assert page.query_selector("#replay-link") is None
    badge_before = page.eval_on_selector("#game-status", "el => getComputedStyle(el).backgroundColor")
    last = Prompt.objects.get(game=game, closed_at__isnull=True)
    pick(game, last.seat.position)
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    page.wait_for_selector("#replay-link", timeout=10_000)  # no reload: the live update brought it
    assert page.inner_text("#game-status") == "Finished"
    badge_after = page.eval_on_selector("#game-status", "el => getComputedStyle(el).backgroundColor")
    assert badge_after != badge_before  # the green "active" style is gone
    page.screenshot(path=str(screenshot_dir / "ux-game-ended-live-desktop.png"), full_page=True)
    page.click("#replay-link")
    page.wait_for_selector("#replay-nav")


def luminance(rgb: str) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (float(x) for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def test_header_sign_up_button_is_legible(page_at):
    """The header's "Sign up" button is legible: a text contrast of at least 4.5:1."""
    page = page_at("desktop")
    page.goto("/accounts/login/")
    fg, bg = page.eval_on_selector("header a.signup", "el => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]")
    light, dark = sorted([luminance(fg), luminance(bg)], reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5


def test_sign_up_preselects_the_browsers_time_zone(chromium_browser, live_server):
    """Sign-up preselects the browser's time zone rather than offering UTC to everyone."""
    context = chromium_browser.new_context(timezone_id="Asia/Tokyo", base_url=live_server.url)
    try:
        page = context.new_page()
        page.goto("/accounts/signup/")
        assert page.input_value("#id_timezone") == "Asia/Tokyo"
    finally:
        context.close()
