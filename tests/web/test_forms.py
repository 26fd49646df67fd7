"""The new-game form shows no internals (no "Other options (JSON)" box answering with Python's JSON error, no
seat count of 1-12 refused only after submit): it validates in the browser and on the server with the engine's
own messages.
"""

from __future__ import annotations

import json
import re

import pytest

from games.engines.registry import get_engine
from games.models import Game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _json_box_games(page: str) -> list[str]:
    """The games whose block holds the JSON box (data-games of the fieldset around extra_options)."""
    out = []
    for games, body in re.findall(r'<fieldset class="game-options" data-games="([^"]*)">(.*?)</fieldset>', page, re.S):
        if 'name="extra_options"' in body:
            out += games.split()
    return out


def test_the_json_box_is_only_for_a_game_that_takes_options_but_declares_no_fields(login):
    """Miskatonic takes no options; Faltisia declares its options as fields: neither shows the box. The generic
    fallback (tinygame, no option fields) still gets it."""
    page = login(UserFactory()).get("/games/new/").content.decode()
    boxed = _json_box_games(page)
    assert "miskatonic" not in boxed and "faltisia" not in boxed
    assert "tinygame" in boxed


def test_bad_json_gets_a_clear_message_not_pythons(login):
    r = login(UserFactory()).post("/games/new/", {"game": "tinygame", "seats": 2, "clock": "none",
                                                  "extra_options": "{rounds: 2}"})
    page = r.content.decode()
    assert r.status_code == 200 and "Write the options as a JSON object" in page and "line 1, character 2" in page
    assert "Expecting" not in page and "char 1" not in page and not Game.objects.exists()
    r = login(UserFactory()).post("/games/new/", {"game": "tinygame", "seats": 2, "clock": "none",
                                                  "extra_options": "[1, 2]"})
    assert "JSON object in braces" in r.content.decode()


def test_the_seat_count_carries_each_games_bounds_and_the_engines_message_for_the_browser(login):
    """"validated in the browser (min/max from the selected game's engine, updated when the game select
    changes)": the input's min/max are the selected game's; every game's bounds and message are on the page."""
    page = login(UserFactory()).get("/games/new/").content.decode()
    seats = re.search(r'<input[^>]*name="seats"[^>]*>', page).group(0)
    assert 'min="1"' in seats and 'max="6"' in seats  # Faltisia, selected first: Solo Mode to 6 players
    bounds = json.loads(re.search(r'<script id="seat-bounds" type="application/json">(.*?)</script>', page).group(1))
    misk = get_engine("miskatonic")
    assert bounds["miskatonic"] == {"min": misk.min_players, "max": misk.max_players,
                                    "message": "Miskatonic School for Girls takes 2-4 players"}
    assert bounds["faltisia"]["min"] == 1 and "or 1 for Solo Mode" in bounds["faltisia"]["message"]
    assert "setCustomValidity" in page and 'select.addEventListener("change", show)' in page


@pytest.mark.parametrize("game, seats, message", [
    ("miskatonic", 5, "Miskatonic School for Girls takes 2-4 players"),
    ("miskatonic", 1, "Miskatonic School for Girls takes 2-4 players"),
    ("faltisia", 7, "Maid Knight Saga: The Story of Faltisia takes 2-6 players, or 1 for Solo Mode"),
])
def test_the_server_refuses_a_seat_count_with_the_engines_message_on_the_field(login, game, seats, message):
    r = login(UserFactory()).post("/games/new/", {"game": game, "seats": seats, "clock": "none"})
    page = r.content.decode()
    assert r.status_code == 200 and not Game.objects.exists()
    field = page[page.index('name="seats"'):]
    field = field[:field.index("</div>")]
    assert f'<small class="error">{message}</small>' in field


def test_options_posted_for_a_game_without_any_get_its_engines_message(login):
    """The API takes any options, so the form still merges a posted JSON object; Miskatonic's engine refuses."""
    r = login(UserFactory()).post("/games/new/", {"game": "miskatonic", "seats": 3, "clock": "none",
                                                  "extra_options": '{"rounds": 2}'})
    assert "Miskatonic School for Girls has no options" in r.content.decode() and not Game.objects.exists()


def test_a_valid_miskatonic_game_is_created_from_the_form(login):
    r = login(UserFactory()).post("/games/new/", {"game": "miskatonic", "seats": 3, "clock": "none",
                                                  "is_public": "on"})
    assert r.status_code == 302 and Game.objects.get().players == 3
