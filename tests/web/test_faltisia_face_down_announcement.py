"""A face-down Maid Ability is announced by its printed number on every surface.

EN 318: face-down players "announce the card number of their played card ... They do not, however, reveal their
cards"; EN 430 prints the Battle for London Maid Abilities 0001-0007, the base ones' numbers. A 2-player expansion
game is driven through the server twice with the same players and seed: seat 0 keeps the base Maid Ability once
and the expansion one once, then (licensed) plays it face down. What seat 1 and a spectator get (the log API with
its stored event data, the API view, the page, the live fragment, the emails) says "announces 000n" and is the
same both times, so it cannot tell the two cards apart.
"""

from __future__ import annotations

import html
import json
import re

from django.core import mail

from games.engines.faltisia.engine import FaltisiaEngine
from games.models import Game
from games.services import game_create, game_join
from tests.factories import UserFactory
from tests.games.helpers import open_prompt, pick

BFL = {"expansion": "battle_for_london"}
SEED = 3
ENGINE = FaltisiaEngine()


def _pick_until(game: Game, done, choose) -> None:
    """Seats with an open prompt pick ``choose(game, seat)`` until ``done(game.state)``."""
    for _ in range(500):
        game.refresh_from_db()
        if done(game.state):
            return
        seat = next(p for p in range(game.players) if open_prompt(game, p) is not None)
        pick(game, seat, choose(game, seat))
    raise AssertionError("the game did not get there")


def _default(game: Game, seat: int) -> str:
    return ENGINE.default_option(game.state, seat)


def play_the_maid_ability_face_down(users, keep_expansion_card: bool) -> Game:
    game = game_create(created_by=users[0], engine="faltisia", players=2, options=BFL, clock={}, seed=SEED)
    game_join(game=game, user=users[1])
    game.refresh_from_db()
    base = game.state["seats"][0]["bfl"]["offer"][0]
    kept = "L" + base if keep_expansion_card else base

    def setup_choice(g, seat):
        ids = [o["id"] for o in open_prompt(g, seat).options]
        return f"ability:{kept}" if seat == 0 and f"ability:{kept}" in ids else _default(g, seat)

    _pick_until(game, lambda s: s["phase"] == "lecture", setup_choice)
    # Seat 0 has its licence already, so its Maid Ability card is in its hand (the licence is not the point).
    seat0 = game.state["seats"][0]
    assert seat0["ability"] == kept
    seat0["lic"], seat0["ability"] = True, None
    seat0["hand"].append(kept)
    game.save(update_fields=["state"])
    _pick_until(game, lambda s: s["phase"] == "action", lambda g, seat: "attend")
    for option in ("play:" + kept, "down", "job"):
        pick(game, 0, option)
    _pick_until(game, lambda s: s["phase"] != "action", _default)
    game.refresh_from_db()
    return game


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _public_surfaces(game: Game, users, seat1_client, spectator_client, api) -> dict[str, str]:
    log = api.as_user(users[1]).get(f"/api/games/{game.pk}/log/").json()["events"]
    for event in log:  # the row's id and time differ between the two games, nothing else may
        event.pop("id"), event.pop("created_at")
    return {
        "log": json.dumps(log, sort_keys=True),
        "view": json.dumps(api.as_user(users[1]).get(f"/api/games/{game.pk}/").json()["view"], sort_keys=True),
        "spectator view": json.dumps(ENGINE.view(game.state, None), sort_keys=True),
        "page": _text(seat1_client.get(f"/games/{game.pk}/").content.decode()),
        "live": _text(seat1_client.get(f"/games/{game.pk}/live/").json()["html"]),
        "spectator page": _text(spectator_client.get(f"/games/{game.pk}/").content.decode()),
        "emails": "\n".join(m.body + "".join(str(a[0]) for a in getattr(m, "alternatives", []))
                            for m in mail.outbox if users[1].email in m.to),
    }


def test_the_face_down_maid_ability_is_announced_by_its_printed_number_everywhere(db, login, api, stranger):
    users = [UserFactory(), UserFactory()]
    seat1, spectator = login(users[1]), login(stranger)
    seen = {}
    for keep_expansion_card in (False, True):
        mail.outbox.clear()
        game = play_the_maid_ability_face_down(users, keep_expansion_card)
        number = game.state["seats"][0]["char"][1:]
        assert game.state["seats"][0]["down"] == [("L" if keep_expansion_card else "") + number]
        surfaces = _public_surfaces(game, users, seat1, spectator, api)
        for where in ("log", "page", "spectator page"):
            assert f"announces {number}" in surfaces[where], where  # the check can fail: it is there
        for where, text in surfaces.items():
            assert "L" + number not in text, f"seat 0's expansion card named in {where}"
        assert "L000" not in surfaces["log"] + surfaces["spectator view"] + surfaces["spectator page"]
        seen[keep_expansion_card] = surfaces
    for where in ("log", "view", "spectator view"):
        assert seen[False][where] == seen[True][where], f"{where} tells the two Maid Abilities apart"
