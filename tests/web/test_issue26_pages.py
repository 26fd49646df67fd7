"""Issue 26 items 5 and 6 on the server-rendered pages: the site's own name (settings.SITE_NAME) in the header, not
"Faltisia" on another game's page; the lobby names a game ("Mage Knight", not "Mage_Knight"); no meaningless
"Step N" pill; a polite live region; Mage Knight's map has a text equivalent drawn from the seat's view only.
"""

from __future__ import annotations

import pytest

from tests.factories import make_started_game
from tests.web.test_mage_knight_board import SECRET_ENEMY, move_options, render_board, sample_view

pytestmark = pytest.mark.django_db


def test_the_header_shows_the_sites_own_name(login, settings):
    settings.SITE_NAME = "Zq Game Room"
    game, users = make_started_game(players=2, engine="miskatonic", seed=5)
    html = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    header = html[html.index("<header>"):html.index("</header>")]
    assert "Zq Game Room" in header and "Faltisia" not in header
    assert "<title>" in html


def test_the_lobby_names_the_game_not_its_slug(login):
    game, users = make_started_game(players=2, engine="mage_knight", seed=3)
    html = login(users[0]).get("/").content.decode()
    assert "Mage Knight" in html and "Mage_Knight" not in html


def test_no_step_pill_and_a_polite_live_region(login):
    game, users = make_started_game(players=2, engine="faltisia", seed=5)
    html = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    assert f"Step {game.phase}<" not in html
    assert 'id="live-status" role="status" aria-live="polite"' in html


def test_the_map_as_text_lists_hexes_from_the_view_only():
    """The text equivalent: each hex with terrain, site, tokens (face-down by colour only) and heroes; a canary
    identity on a face-down token never reaches it."""
    view = sample_view(0)
    keep = next(h for h in view["map"]["hexes"] if h["site"] == "keep")
    keep["enemies"][0].update(id=SECRET_ENEMY[0], name=SECRET_ENEMY[1])
    _, html = render_board(view, move_options(), prompt={"prompt_id": "p"})
    text = html[html.index('id="mk-map-text"'):html.index('id="mk-legend"')]
    assert text.count("<li>") == len(view["map"]["hexes"]) + len(view["map"]["explore"])
    assert "enemy token" in text and "face-down ruins token" in text
    assert "Cursed Hags" in text  # a revealed token is named
    assert "hero of seat 1 (you)" in text
    for secret in SECRET_ENEMY:
        assert secret not in html


def test_a_reachable_hex_is_a_button_for_exactly_the_offered_pick():
    options = move_options()
    _, html = render_board(sample_view(0), options, prompt={"prompt_id": "p"})
    move = next(o for o in options if o["id"].startswith("t-move:"))
    key = move["id"].split(":", 1)[1]
    hexes = html[html.index(f'data-hex="{key}"') - 200:html.index(f'data-hex="{key}"') + 300]
    assert f'data-option="{move["id"]}"' in hexes and 'role="button"' in hexes and 'tabindex="0"' in hexes
    # the spectator (no prompt) gets no tappable hex
    _, spectator = render_board(sample_view(None), [])
    assert "data-option=" not in spectator and "mk-tap" not in spectator.split("</style>", 1)[1]
