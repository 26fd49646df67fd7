"""A seat that changes hands gets a new reply address; the old one and its links act for nobody.

Were replies matched on a SeatMailbox.token_hash that never changed, a replaced player's old reply (a
pick, standing orders, a 60-day vacation) and old one-click links would act for the new holder.
Each test runs the whole flow: mail to the old holder, the change, the old address and links refused
with a clear answer and nothing changed, the new holder's new address working.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client, TestCase
from rest_framework.test import APIClient

from accounts.models import Vacation
from games.mail.compose import current_reply_to
from games.mail.models import Notification, NotificationStatus
from games.models import Seat, Submission
from games.services import admin_actions
from tests.factories import UserFactory
from tests.mail.helpers import latest_prompt_mail, mails_to, pipe, reply_bytes, start_game

pytestmark = pytest.mark.django_db

# One-click links are the HTML part's buttons; the text has one link to the game's page.
LINK = re.compile(r'href="https?://[^/"]+(/mail/l/[^"]+/)"')


def staff():
    boss = UserFactory()
    boss.is_staff = True
    boss.save()
    return boss


def committed(action):
    """Run an admin action with its on-commit effects (the emails to the new holder)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return action()


def answers_to(address: str, title: str) -> list:
    return [m for m in mails_to(address) if title in m.body]


def assert_old_address_refused(old_mail, old_holder, seat: Seat) -> None:
    """A pick, standing orders and a vacation sent to the old address: refused kindly, nothing changed."""
    submissions = Submission.objects.count()
    vacations = Vacation.objects.count()
    orders = list(Seat.objects.get(pk=seat.pk).standing_orders)
    for text in ("1", "orders attend-all", "vacation 60"):
        before = len(answers_to(old_holder.email, "no longer belongs to you"))
        out = pipe(reply_bytes(old_mail, text)).strip()
        assert out == "refused retired-token answered", (text, out)
        answer = answers_to(old_holder.email, "no longer belongs to you")
        assert len(answer) == before + 1, text
        assert "Nothing was done" in answer[-1].body
    assert Submission.objects.count() == submissions
    assert Vacation.objects.count() == vacations
    assert Seat.objects.get(pk=seat.pk).standing_orders == orders


def test_a_replaced_players_reply_address_and_links_act_for_nobody_the_new_players_work():
    """The full flow of an admin's "Replace the player"."""
    game, (alice, bob, cid) = start_game(players=3, engine="faltisia", seed=11)
    old_mail = latest_prompt_mail(alice.email)
    old_links = LINK.findall(old_mail.alternatives[0][0])
    assert old_links
    seat = Seat.objects.get(game=game, user=alice)
    carol = UserFactory()
    committed(lambda: admin_actions.seat_replace_player(game=game, by=staff(), position=seat.position, user=carol))

    assert_old_address_refused(old_mail, alice, seat)
    # The answer goes to the old holder and names nobody: not the new holder, nor their address.
    refusal = answers_to(alice.email, "no longer belongs to you")[-1]
    assert carol.username not in refusal.body and carol.email not in refusal.body
    assert not answers_to(carol.email, "no longer belongs to you")

    client = Client()
    page = client.get(old_links[0])
    assert page.status_code == 403 and b"no longer belongs to you" in page.content
    posted = client.post(old_links[0])
    assert posted.status_code == 403 and b"Nothing was recorded" in posted.content
    assert not Submission.objects.filter(seat=seat).exists()

    # The new holder was sent the open decision at a new address, and a reply to it is recorded.
    new_mail = latest_prompt_mail(carol.email)
    assert new_mail is not None
    assert new_mail.extra_headers["Reply-To"] != old_mail.extra_headers["Reply-To"]
    assert pipe(reply_bytes(new_mail, "orders attend-all")).startswith("command orders-set")
    assert Seat.objects.get(pk=seat.pk).standing_orders == ["attend-all"]


def test_the_new_holders_one_click_link_works_where_the_old_one_is_refused():
    """Links are bound to the mailbox generation, so one rotation voids them all."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    old_links = LINK.findall(latest_prompt_mail(alice.email).alternatives[0][0])
    carol = UserFactory()
    committed(lambda: admin_actions.seat_replace_player(game=game, by=staff(), position=0, user=carol))
    new_links = LINK.findall(latest_prompt_mail(carol.email).alternatives[0][0])
    client = Client()
    assert client.post(old_links[0]).status_code == 403
    assert not Submission.objects.exists()
    assert client.post(new_links[0]).status_code == 200
    assert Submission.objects.get().seat.user == carol


def test_unsent_prompt_mails_to_the_old_holder_are_not_sent():
    """A prompt email still in the outbox carries the old address: it is skipped."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    row = Notification.objects.filter(user=alice, kind="prompt").get()
    Notification.objects.filter(pk=row.pk).update(status=NotificationStatus.PENDING)
    admin_actions.seat_replace_player(game=game, by=staff(), position=0, user=UserFactory())
    assert Notification.objects.get(pk=row.pk).status == NotificationStatus.SKIPPED


def test_handing_the_seat_to_a_bot_and_taking_it_back_rotates_the_address():
    """To the bot and back, the player gets a new address; the old one is refused."""
    game, (alice, bob, cid) = start_game(players=3, engine="faltisia", seed=11)
    old_mail = latest_prompt_mail(alice.email)
    seat = Seat.objects.get(game=game, user=alice)
    boss = staff()
    committed(lambda: admin_actions.seat_hand_to_bot(game=game, by=boss, position=seat.position))
    committed(lambda: admin_actions.seat_take_back_from_bot(game=game, by=boss, position=seat.position))
    assert_old_address_refused(old_mail, alice, seat)
    # The seat's address now (what its next email carries) is a new one, and it works.
    old_address, new_address = old_mail.extra_headers["Reply-To"], current_reply_to(seat)
    assert new_address.split(".")[0] != old_address.split(".")[0]
    raw = reply_bytes(old_mail, "status").replace(old_address.encode(), new_address.encode())
    assert pipe(raw).startswith("command status")


def test_a_players_own_reclaim_rotates_the_address():
    """A player who left the seat to a bot and reclaims it gets a new address."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 2})
    old_mail = latest_prompt_mail(alice.email)
    admin_actions.seat_hand_to_bot(game=game, by=alice, position=0)
    api = APIClient()
    api.force_authenticate(alice)
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert api.post(f"/api/games/{game.pk}/reclaim/").status_code == 200
    out = pipe(reply_bytes(old_mail, "status")).strip()
    assert out == "refused retired-token answered"
