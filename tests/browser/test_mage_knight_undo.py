"""A Mage Knight turn at 390 px on a touch phone with two undos and an undo to the start of the
turn, by the page's Undo buttons.

The rule (Mage Knight rulebook, "Playing a turn": a turn is a sequence of card plays, moves and
actions, ended by the player): a seat may take back its own picks of the turn that revealed nothing. Each undo
restores the state as it was before the pick taken back, JSON-equal, the seeded generator included; the button says
what it takes back, and "Undo to start of turn (N moves)" goes back to the first pick since the last that revealed
something.
"""

from __future__ import annotations

import copy

import pytest

from tests.browser.conftest import log_in
from games.engines.registry import get_engine
from games.models import Seat
from games.services.undo_points import undo_offer
from tests.undo.helpers import free_option, is_checkpoint, open_prompt
from tests.web.test_mage_knight_board import drive, mk_game, needs_engine

pytestmark = [pytest.mark.browser, needs_engine, pytest.mark.django_db(transaction=True)]


def _state(game) -> dict:
    game.refresh_from_db()
    return copy.deepcopy(game.state)


def free_chain(state: dict, seat: int, limit: int = 3) -> int:
    """How many picks in a row, from ``state``, the seat could make and take back (the first free option each time,
    as ``free_option`` takes it), up to ``limit``."""
    engine, trial = get_engine("mage_knight"), copy.deepcopy(state)
    for made in range(limit):
        prompt = engine.prompt(trial, seat)
        option = next((o.id for o in (prompt.options if prompt else ())
                       if not is_checkpoint("mage_knight", trial, seat, o.id)), None)
        if option is None:
            return made
        engine.apply(trial, seat, option)
    return limit


def nothing_to_take_back(game, seat: int) -> bool:
    return undo_offer(game=game, seat_id=Seat.objects.get(game=game, position=seat).pk) is None


def _label(game, seat: int, option_id: str) -> str:
    return next(o["label"] for o in open_prompt(game, seat).options if o["id"] == option_id)


def test_a_turn_with_two_undos_and_an_undo_to_the_start_of_the_turn_at_390_px(chromium_browser, live_server,
                                                                               screenshot_dir, settings):
    settings.WEB_POLL_INTERVAL_MS = 300
    game, users = mk_game(seed=11)
    drive(game, lambda s: s["phase"] == "turn" and (s.get("dec") or {}).get("kind") == "turn"
          and free_chain(s, s["dec"]["seat"]) == 3 and nothing_to_take_back(game, s["dec"]["seat"]))
    seat = game.state["dec"]["seat"]
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                           base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()

    def version() -> str:
        return page.eval_on_selector("#live", "el => el.dataset.version")

    def after(action) -> None:
        """Do ``action`` and wait for the page's live fragment to show the new version (no reload)."""
        before = version()
        action()
        page.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=before)

    def free_pick() -> str:
        option = free_option(game, seat)
        assert option is not None, "the turn has no pick left that could be taken back"
        label = _label(game, seat, option)
        after(lambda: page.tap(f'#decision button[name=option][value="{option}"]'))
        return label

    try:
        log_in(page, users[seat])
        page.goto(f"/games/{game.pk}/")
        page.wait_for_selector("#decision")
        assert page.locator("#undo").count() == 0  # nothing of this turn to take back yet

        states = [_state(game)]
        labels = []
        for _ in range(3):
            labels.append(free_pick())
            states.append(_state(game))
        last = page.locator('#undo button[value="last"]')
        turn = page.locator('#undo button[value="turn"]')
        assert last.inner_text() == f"Undo: {labels[-1]}"
        assert turn.inner_text() == "Undo to start of turn (3 moves)"
        for button in (last, turn):  # a thumb's tap target (WCAG 2.5.5)
            box = button.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, box
        page.screenshot(path=str(screenshot_dir / "mk-undo-offered-phone.png"))

        # Undo once by a tap, then once by the keyboard: each takes back exactly the latest pick.
        after(lambda: last.tap())
        assert _state(game) == states[2]
        assert last.inner_text() == f"Undo: {labels[1]}"
        last.focus()
        after(lambda: page.keyboard.press("Enter"))
        assert _state(game) == states[1]
        assert last.inner_text() == f"Undo: {labels[0]}"
        assert turn.count() == 0  # one move left: "undo" and "undo to start" would be the same

        # Two more picks, then back to the start of the turn: the state before the first pick, generator included.
        free_pick()
        free_pick()
        assert turn.inner_text() == "Undo to start of turn (3 moves)"
        after(lambda: turn.tap())
        assert _state(game) == states[0]
        assert page.locator("#undo").count() == 0
        assert "Taken back: 3 moves" in page.inner_text("body")
        page.screenshot(path=str(screenshot_dir / "mk-undo-after-phone.png"), full_page=True)
    finally:
        context.close()
