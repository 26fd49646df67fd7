"""Accessibility: axe-core on every page type of every game, desktop (1280x800) and a touch phone
(390x844), logged in and out: no serious or critical violation; on the phone every tap target at least 44x44 CSS px
and nowhere one under 24 px (WCAG 2.5.5 / 2.5.8; links inside a sentence are 2.5.8's inline exception).

Each page is screenshotted to var/screenshots/<page>-<viewport>.png (CI keeps the folder as an artifact) and
measured to var/a11y/<page>-<viewport>.json; `python benchmarks/a11y_report.py` prints the figures.
"""

from __future__ import annotations

import pytest

from games.models import GameStatus
from games.services import game_create
from tests.browser.audit import CONTEXTS, axe_source, measure, problems
from tests.factories import UserFactory, make_started_game
from tests.web.conftest import play_until
from tests.web.miskatonic_helpers import play_greedy_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "Correct-Horse-42"  # tests.factories'


@pytest.fixture(scope="module")
def axe():
    return axe_source()


@pytest.fixture
def visit(chromium_browser, live_server, axe):
    """visit(user_or_None, [(name, url, selector)]) measures each page at both sizes; returns the problems."""
    contexts = []

    def run(user, pages) -> list[str]:
        found = []
        for viewport, options in CONTEXTS.items():
            context = chromium_browser.new_context(base_url=live_server.url, **options)
            context.set_default_timeout(20_000)
            contexts.append(context)
            page = context.new_page()
            if user is not None:
                page.goto("/accounts/login/")
                page.fill("#id_username", user.username)
                page.fill("#id_password", PASSWORD)
                page.click("form button[type=submit]")
                page.wait_for_selector("#nav-links form[action$='/logout/']", state="attached")
            for name, url, selector in pages:
                page.goto(url)
                page.wait_for_selector(selector, state="attached")
                found += problems(measure(page, name=name, viewport=viewport, axe=axe))
            context.close()
        return found

    yield run
    for c in contexts:
        try:
            c.close()
        except Exception:  # already closed
            pass


def game_pages(prefix: str, game, selector: str = "#live") -> list[tuple[str, str, str]]:
    return [(prefix, f"/games/{game.pk}/", selector)]


def test_site_pages_logged_out_and_in(visit):
    user = UserFactory()
    open_game = game_create(created_by=user, engine="faltisia", players=3, options={}, clock={}, seed=1)
    found = visit(None, [("welcome", "/", "main"), ("login", "/accounts/login/", "#id_username"),
                         ("signup", "/accounts/signup/", "main form"),
                         ("tournaments-out", "/tournaments/", "main"), ("leaderboard-out", "/leaderboard/", "main")]
                  + [(f"rules-{slug}-out", f"/games/{slug}/rules/", "main")
                     for slug in ("faltisia", "miskatonic", "mage_knight")])
    found += visit(user, [("lobby", "/", "main"), ("game-new", "/games/new/", "main form"),
                          ("preferences", "/accounts/preferences/", "main form"),
                          ("profile", f"/players/{user.username}/", "main"),
                          ("waiting-room", f"/games/{open_game.pk}/", ".waiting-room"),
                          ("rules-faltisia", "/games/faltisia/rules/", "main")])
    assert not found, "\n".join(found)


def test_faltisia_pages(visit):
    game, users = make_started_game(players=2, engine="faltisia", seed=5)
    spectator = UserFactory()
    found = visit(users[game.state.get("cur", 0)] if isinstance(game.state.get("cur"), int) else users[0],
                  game_pages("faltisia-player", game, "#decision"))
    found += visit(spectator, game_pages("faltisia-spectator", game))
    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    found += visit(users[0], game_pages("faltisia-finished", game, "#result")
                   + [("faltisia-replay", f"/games/{game.pk}/replay/?step={game.phase // 2}", "#replay-nav")])
    solo, (player,) = make_started_game(players=1, engine="faltisia", seed=5, options={"solo": {"difficulty": "easy"}})
    play_until(solo, lambda g: g.status == GameStatus.FINISHED)
    found += visit(player, game_pages("faltisia-solo-finished", solo, "#result"))
    assert not found, "\n".join(found)


def test_battle_for_london_pages(visit):
    from tests.web.london_game import london_game
    game, users = london_game()
    found = visit(users[1], game_pages("london-player", game, "#peacekeeping"))
    assert not found, "\n".join(found)


def test_miskatonic_pages(visit):
    game, users = make_started_game(players=3, engine="miskatonic", seed=5)
    play_greedy_until(game, lambda g: g.state["round"] >= 3 and g.state["phase"] == "student")
    found = visit(users[game.state["cur"]], game_pages("miskatonic-player", game, "#msk-board")
                  + [("rules-miskatonic", "/games/miskatonic/rules/", "main")])
    found += visit(UserFactory(), game_pages("miskatonic-spectator", game, "#msk-board"))
    play_greedy_until(game, lambda g: False)
    found += visit(users[0], game_pages("miskatonic-finished", game, "#result")
                   + [("miskatonic-replay", f"/games/{game.pk}/replay/?step={game.phase // 2}", "#replay-nav")])
    assert not found, "\n".join(found)


def test_mage_knight_pages(visit):
    from tests.web.test_mage_knight_board import drive, in_combat, mid_game, mk_game
    game, users = mk_game(seed=11)
    drive(game, mid_game)
    found = visit(users[game.state["dec"]["seat"]], game_pages("mk-player", game, "#mk-board")
                  + [("rules-mage_knight", "/games/mage_knight/rules/", "main")])
    found += visit(UserFactory(), game_pages("mk-spectator", game, "#mk-board"))
    drive(game, in_combat, limit=6000)
    found += visit(users[game.state["dec"]["seat"]], game_pages("mk-combat", game, "#mk-board"))
    solo, (player,) = make_started_game(players=1, engine="mage_knight", seed=3)
    drive(solo, lambda s: False, limit=20000)
    found += visit(player, game_pages("mk-solo-finished", solo, "#result")
                   + [("mk-replay", f"/games/{solo.pk}/replay/?step={solo.phase // 2}", "#replay-nav")])
    assert not found, "\n".join(found)
