"""No email ever shows another seat's secrets (DESIGN.md: "Hidden information never leaves the server").

A canary card, found nowhere else in the game, is planted in seat 1's hand; every email to seats 0
and 2 is then checked for its name and number while the game goes on by email, and seat 1's own
status email must show it (so the check can fail).
"""

from __future__ import annotations

import re

import pytest

from django.test import TestCase

from games.engines.faltisia.cards import CARDS
from games.mail import tasks
from games.models import Event, Game
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


def full_text(m) -> str:
    return m.subject + "\n" + m.body + "\n" + (m.alternatives[0][0] if m.alternatives else "")


def test_a_seats_private_event_never_reaches_another_seats_prompt_or_result_summary():
    """Event visibility [1]: only seat 1 may read it, in any email (compose.events_since_last_decision and
    result_mails.result_notifications_queue filter with Event.visible_to)."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    secret = Event.objects.create(game=game, phase=0, visibility=[1],
                                  text="Seat 1 privately drew the Canary Quill of Vexmoor.")
    public = Event.objects.create(game=game, phase=0, visibility=None, text="The bell rings for everyone.")
    # Both seats pick by email: the next prompt email summarises what they may see since the last one.
    for user in (alice, bob):
        assert pipe(reply_bytes(latest_prompt_mail(user.email), "1")).startswith("recorded")
    alice_prompt, bob_prompt = latest_prompt_mail(alice.email), latest_prompt_mail(bob.email)
    assert "Since your last decision" in alice_prompt.body and public.text in alice_prompt.body
    assert "Canary Quill" not in full_text(alice_prompt)
    assert secret.text in bob_prompt.body  # the check can see it where it belongs
    # A resolution whose events include the private one: the result email of each seat.
    with TestCase.captureOnCommitCallbacks(execute=True):
        tasks.queue_result_notifications.apply(args=(game.pk, 0, [secret.pk, public.pk]))
    alice_result, bob_result = (mails_to(u.email)[-1] for u in (alice, bob))
    assert "step 0 resolved" in alice_result.body and public.text in alice_result.body
    assert "Canary Quill" not in full_text(alice_result)
    assert "step 0 resolved" in bob_result.body and secret.text in bob_result.body
