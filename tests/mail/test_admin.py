"""The outbox in the Django admin shows staff no secret of a game in play (DESIGN.md: hidden information
never leaves the server): not a player's hand in a prompt email's body, not the seat's reply token in the
headers, not the option of a used one-click link. Bodies become readable once the game is over."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.mail.models import Notification, UsedLink
from games.models import Game, GameStatus, Prompt
from tests.factories import UserFactory, make_started_game

pytestmark = pytest.mark.django_db

CANARY = "CANARY-HAND-CARD"
TOKEN = "CANARY-REPLY-TOKEN"


@pytest.fixture
def site():
    boss = UserFactory(username="boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    client = Client()
    client.force_login(boss)
    return client


def test_outbox_and_used_links_hide_hands_tokens_and_picks_while_the_game_runs(site):
    game, users = make_started_game(players=2)
    prompt = Prompt.objects.filter(game=game).first()
    row = Notification.objects.create(
        kind="prompt", dedupe_key="canary", address=users[0].email, user=users[0], game=game, seat=prompt.seat,
        prompt=prompt, subject="Your move", body_text=f"Your hand: {CANARY}", body_html=f"<p>{CANARY}</p>",
        headers={"Reply-To": f"play+{TOKEN}@example.org"}, message_id="<m@example.org>")
    UsedLink.objects.create(nonce="n1", prompt=prompt, option_id=CANARY)
    urls = [reverse("admin:mail_notification_change", args=[row.pk]), reverse("admin:mail_notification_changelist"),
            reverse("admin:mail_usedlink_changelist")]
    for url in urls:
        page = site.get(url).content.decode()
        assert CANARY not in page and TOKEN not in page, url
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED)
    page = site.get(urls[0]).content.decode()
    assert CANARY in page  # readable once the game is over, so the check above can fail
    assert TOKEN not in page  # a credential, never shown


def test_staff_cannot_edit_the_outbox(site):
    game, users = make_started_game(players=2)
    row = Notification.objects.create(kind="prompt", dedupe_key="k", address=users[0].email, game=game,
                                      subject="s", body_text="b", message_id="<m2@example.org>")
    r = site.post(reverse("admin:mail_notification_change", args=[row.pk]), {"address": "evil@example.org"})
    row.refresh_from_db()
    assert r.status_code == 403 and row.address == users[0].email
