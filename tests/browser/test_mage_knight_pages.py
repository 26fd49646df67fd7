"""Mage Knight's game page in a real browser, with no sideways scroll at 390 px:
mid-game, in a combat and finished, for a player and a spectator, at 1280 px and 390 px. The SVG map scales with its
viewBox and the panels stack, so nothing is wider than the phone.

Screenshots: test-artifacts/screenshots/mk-{mid,combat,finished}-{player,spectator}-{desktop,phone}.png, close-ups
of the map (mk-<state>-map-<viewport>.png), and the same for a hand-made view (mk-fixture-...).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string

from games.presentation import registry
from tests.browser.conftest import SIDEWAYS, VIEWPORTS, log_in
from tests.factories import UserFactory
from tests.web.test_mage_knight_board import (SEATS, drive, in_combat, mid_game, mk_game, move_options, needs_engine,
                                              sample_view)

pytestmark = [pytest.mark.browser]
SITE_CSS = Path(__file__).resolve().parents[2] / "games" / "web" / "static" / "web" / "site.css"


def fixture_page(view, options) -> str:
    """The board, its status pills and result table for a hand-made view, in the game page's grid with site.css."""
    board = registry.presentation_for("mage_knight").board(view=view, seats=SEATS, prompt_options=options)

    class Game:
        pk = 1
    ctx = {"board": board, "view": view, "game": Game(), "prompt": {"prompt_id": "p"} if options else None}
    result = render_to_string(board["result_template"], {"result": board["result"]}) if board["result"] else ""
    return (f"<!doctype html><html><head><meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<style>{SITE_CSS.read_text()}</style></head><body><main>"
            f"<div class='status-line'>{render_to_string(board['status_template'], ctx)}</div>{result}"
            f"<div class='game-grid'><div class='board-area'>{render_to_string(board['template'], ctx)}</div>"
            f"<aside class='sidebar'><section class='panel'>Players</section></aside></div></main></body></html>")


def test_the_board_of_a_hand_made_view_fits_a_phone(chromium_browser, screenshot_dir):
    """Mage Knight's board, engine or not, fits a phone: the map scales, the panels stack, nothing scrolls
    sideways at 390 px, mid-game (with map buttons), in a combat and finished, for a player and a spectator."""
    too_wide = []
    for state, kw in (("mid", {}), ("combat", {"combat": True}), ("finished", {"over": True})):
        for who, seat in (("player", 0), ("spectator", None)):
            options = move_options() if state == "mid" and seat is not None else []
            html = fixture_page(sample_view(seat, **kw), options)
            for viewport, size in VIEWPORTS.items():
                page = chromium_browser.new_page(viewport=size)
                page.set_content(html)
                width, inner = page.evaluate(SIDEWAYS)
                if width > inner:
                    too_wide.append(f"{state} {who} {viewport}: {width} > {inner}")
                if options:  # the move button sits on its hex
                    hexbox = page.locator('g.mk-hex[data-hex="0,-1"]').bounding_box()
                    button = page.locator('button.mk-go[data-hex="0,-1"]').bounding_box()
                    cx, cy = button["x"] + button["width"] / 2, button["y"] + button["height"] / 2
                    assert hexbox["x"] < cx < hexbox["x"] + hexbox["width"], viewport
                    assert hexbox["y"] < cy < hexbox["y"] + hexbox["height"], viewport
                page.screenshot(path=str(screenshot_dir / f"mk-fixture-{state}-{who}-{viewport}.png"), full_page=True)
                page.close()
    assert not too_wide, too_wide


def shoot(page_at, game, who: str, user, state: str, screenshot_dir, too_wide: list) -> None:  # noqa: F811
    for viewport in VIEWPORTS:
        page = page_at(viewport)
        log_in(page, user)
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#mk-board")
        page.wait_for_load_state("load")
        width, inner = page.evaluate(SIDEWAYS)
        if width > inner:
            too_wide.append(f"{state} {who} at {viewport}: scrollWidth {width} > innerWidth {inner}")
        svg = page.locator("svg.mk-map").bounding_box()
        assert svg and svg["width"] <= VIEWPORTS[viewport]["width"], (state, who, viewport)
        page.screenshot(path=str(screenshot_dir / f"mk-{state}-{who}-{viewport}.png"), full_page=True)
        if who == "player":
            page.locator("#mk-map").screenshot(path=str(screenshot_dir / f"mk-{state}-map-{viewport}.png"))
        page.context.close()


@needs_engine
@pytest.mark.django_db(transaction=True)
def test_the_mage_knight_page_fits_a_phone_mid_game_in_combat_and_finished(page_at, screenshot_dir):  # noqa: F811
    game, users = mk_game(seed=11)
    spectator = UserFactory()
    too_wide: list[str] = []
    drive(game, mid_game)
    shoot(page_at, game, "player", users[game.state["dec"]["seat"]], "mid", screenshot_dir, too_wide)
    shoot(page_at, game, "spectator", spectator, "mid", screenshot_dir, too_wide)
    drive(game, in_combat, limit=6000)
    assert game.state.get("combat"), "seed 11 reaches a combat"
    shoot(page_at, game, "player", users[game.state["dec"]["seat"]], "combat", screenshot_dir, too_wide)
    shoot(page_at, game, "spectator", spectator, "combat", screenshot_dir, too_wide)
    drive(game, lambda s: False, limit=20000)
    assert game.status == "finished"
    shoot(page_at, game, "player", users[0], "finished", screenshot_dir, too_wide)
    shoot(page_at, game, "spectator", spectator, "finished", screenshot_dir, too_wide)
    assert not too_wide, too_wide
