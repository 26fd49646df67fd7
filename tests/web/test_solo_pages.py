"""The web board of a Solo Mode game: the Classmate's board with its token line in order
and its face-down stack count; its Graduation Requirements and stack never on a page until the game is over,
then the requirements are revealed and the result says who won."""

from __future__ import annotations

import re

from games.engines.faltisia.cards import CARDS
from games.models import GameStatus
from games.services import game_create
from tests.factories import UserFactory

from .conftest import play_until


def _solo(seed=5):
    user = UserFactory()
    return game_create(created_by=user, engine="faltisia", players=1, seed=seed, is_public=True,
                       options={"solo": {"difficulty": "beginner"}}), user


def test_the_board_draws_the_classmate_token_line_in_order_and_its_stack_count(db, login):
    """The web page draws the Classmate's board, its token line in order and its face-down stack count."""
    game, user = _solo()
    play_until(game, lambda g: g.state["phase"] == "lecture")
    game.refresh_from_db()
    cm = game.state["classmate"]
    cm["line"], cm["tok"] = [4, 2, 0, 0], [2, 0, 1, 0, 1]  # Rainbow, Yellow, Red, Red
    game.save(update_fields=["state"])
    page = login(user).get(f"/games/{game.pk}/").content.decode()
    line = re.search(r'id="classmate-token-line".*?</span>\s*<span class="coin"', page, re.S).group(0)
    assert re.findall(r'chip chip-(\w+)', line) == ["rainbow", "yellow", "red", "red"]
    assert "7 cards in its face-down stack" in page and CARDS[cm["char"]].name in page
    assert "Beginner" in page and "2 graduation requirements, face down" in page


def test_the_classmates_secrets_stay_off_every_page_until_the_end(db, login, stranger):
    """Hidden requirements: canaries planted in the Classmate's requirements and stack never reach the
    player's page, the live fragment or a spectator's page; real ones neither. At the end the real
    requirements are revealed on the page with the outcome."""
    game, user = _solo(seed=9)
    play_until(game, lambda g: g.state["phase"] == "action")
    game.refresh_from_db()
    real = list(game.state["classmate"]["reqs"])
    stack = list(game.state["classmate"]["stack"])
    game.state["classmate"]["reqs"].append("CANARY-SOLO-REQ-1b2c")
    game.state["classmate"]["stack"].insert(0, "CANARY-SOLO-STACK-1b2c")
    game.save(update_fields=["state"])
    pages = {"page": login(user).get(f"/games/{game.pk}/").content.decode(),
             "live": login(user).get(f"/games/{game.pk}/live/").json()["html"],
             "spectator": login(stranger).get(f"/games/{game.pk}/").content.decode()}
    for name, html in pages.items():
        assert "CANARY" not in html, name
        for r in real:
            assert f"{r}" not in html and CARDS[r].name not in html, (name, r)
        for c in stack:
            assert f'card no. {c}"' not in html, (name, c)  # a card's number is in its tooltip
    game.state["classmate"]["reqs"].remove("CANARY-SOLO-REQ-1b2c")
    game.state["classmate"]["stack"].remove("CANARY-SOLO-STACK-1b2c")
    game.save(update_fields=["state"])
    play_until(game, lambda g: False)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    page = login(user).get(f"/games/{game.pk}/").content.decode()
    assert 'id="classmate-requirements"' in page and all(CARDS[r].name in page for r in real)
    assert 'id="solo-outcome"' in page and "The Classmate (" in page
    # The replay of a finished solo game draws every past state through the same board.
    assert login(user).get(f"/games/{game.pk}/replay/").status_code == 200


def test_a_mage_knight_solo_finished_page_shows_the_dummy_player_not_a_lone_first_place(db, login):
    """First Reconnaissance's solo variant: the Dummy Player takes turns but scores no Fame and "no titles are
    awarded" (scenario data); the final table shows it beside the player, and no "#1" rank for one player."""
    from games.models import GameStatus
    from games.services import game_create
    from tests.factories import UserFactory
    from tests.web.conftest import play_until

    user = UserFactory()
    game = game_create(created_by=user, engine="mage_knight", players=1, seed=3, is_public=True, options={})
    play_until(game, lambda g: g.status == GameStatus.FINISHED, limit=20000)
    html = login(user).get(f"/games/{game.pk}/").content.decode()
    table = html[html.index('id="result"'):]
    table = table[:table.index("</section>")]
    assert 'id="solo-outcome"' in table and 'id="dummy-row"' in table and "The Dummy Player" in table
    assert 'class="rank rank-1"' not in table
