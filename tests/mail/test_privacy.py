"""No email ever shows another seat's secrets (DESIGN.md: "Hidden information never leaves the server").

A canary card, found nowhere else in the game, is planted in seat 1's hand; every email to seats 0
and 2 is then checked for its name and number while the game goes on by email, and seat 1's own
status email must show it (so the check can fail).
"""

from __future__ import annotations

import re

import pytest

from games.engines.faltisia.cards import CARDS
from games.models import Game
from tests.mail.helpers import latest_prompt_mail, mails_to, pipe, reply_bytes, reply_round, start_game

pytestmark = pytest.mark.django_db


def unique_unused_card(state) -> str:
    names = [c.name for c in CARDS.values()]
    for cid in state["box"]:
        if names.count(CARDS[cid].name) == 1 and len(CARDS[cid].name) > 6:
            return cid
    raise AssertionError("no unused card with a unique name")


def test_a_card_in_another_seats_hand_never_appears_in_my_emails():
    game, users = start_game(players=3, engine="faltisia", seed=5)
    answered: set[str] = set()
    # Play by email until seat 1 holds a hand (the first action phase).
    for _ in range(200):
        game.refresh_from_db()
        if game.state["seats"][1]["hand"] and game.state["phase"] == "action":
            break
        reply_round(users, answered)
    canary = unique_unused_card(game.state)
    name = CARDS[canary].name
    game.state["seats"][1]["hand"].append(canary)  # last: the first-option player will not play it soon
    game.state["box"].remove(canary)
    game.save(update_fields=["state"])
    first_mail = {u.email: len(mails_to(u.email)) for u in users}

    def avoid_canary(m) -> str:
        """Seat 1 never plays the canary (a card played face up is public, legitimately)."""
        for number, option_id in re.findall(r"^  (\d+)\. .*  \[(\S+)\]$", m.body, re.MULTILINE):
            if canary not in option_id:
                return number
        return "1"
    pattern = re.compile(rf"(\b{re.escape(canary)}\b|{re.escape(name)})")
    # Everyone asks for their status; then the game goes on by email while the canary stays hidden.
    for u in users:
        pipe(reply_bytes(latest_prompt_mail(u.email), "status"))
    for _ in range(60):
        game.refresh_from_db()
        if canary not in game.state["seats"][1]["hand"] or game.status != "active":
            break
        reply_round(users, answered, choose=avoid_canary)
    checked = 0
    for position in (0, 2):
        for m in mails_to(users[position].email)[first_mail[users[position].email]:]:
            html = m.alternatives[0][0] if m.alternatives else ""
            hit = pattern.search(m.body)
            assert not hit and not pattern.search(html), (position, m.body[max(0, hit.start() - 300):hit.end() + 100] if hit else html)
            checked += 1
    assert checked > 20
    own = [m for m in mails_to(users[1].email) if m.body.startswith("Your current situation")]
    assert own and pattern.search(own[-1].body)  # the check can see the canary where it belongs
    assert Game.objects.get(pk=game.pk).status in ("active", "finished")
