"""Moderation through the API: report a message, mute a player at a table,
block a player; the same rules as the page's forms (games.chat.moderation), answered in the API's words.
Who may call each route, per role and kind of game, is the authorization matrix (tests/security)."""

from __future__ import annotations

import pytest

from games.chat.models import ChatMessage, ChatReport, ModerationAction, ModerationKind, TableMute, UserBlock
from games.chat.services import message_post
from games.models import Press
from tests.factories import UserFactory

from tests.chat.helpers import chat_game, spectator
from tests.games.test_chat_views import client

pytestmark = pytest.mark.django_db


def _report(user, game, message_id, body):
    return client(user).post(f"/api/games/{game.pk}/messages/{message_id}/report/", body, format="json")


def _seat(user, game, position, act, method="put", body=None):
    send = getattr(client(user), method)
    return send(f"/api/games/{game.pk}/seats/{position}/{act}/", body or {}, format="json")


def test_a_reader_reports_a_message_and_reporting_again_replaces_the_reason():
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=alice, text="buy cheap gold")
    watcher = spectator()
    first = _report(watcher, game, message.pk, {"reason": "spam"})
    again = _report(watcher, game, message.pk, {"reason": "advertising"})
    assert first.status_code == again.status_code == 201
    assert again.json() == {"message": message.pk, "reason": "advertising"}
    assert list(ChatReport.objects.values_list("reporter", "reason")) == [(watcher.pk, "advertising")]


def test_a_private_message_cannot_be_reported_by_someone_outside_its_thread_nor_its_existence_learnt():
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    private = message_post(game=game, user=alice, text="for bob", to=[1])
    outside = _report(carol, game, private.pk, {"reason": "?"})
    unknown = _report(carol, game, private.pk + 1000, {"reason": "?"})
    assert outside.status_code == unknown.status_code == 404
    assert outside.json() == unknown.json() and outside.json()["error"] == "no_such_message"
    assert "for bob" not in outside.content.decode()
    assert _report(bob, game, private.pk, {"reason": "threat"}).status_code == 201
    assert ChatReport.objects.count() == 1


@pytest.mark.parametrize("body,code", [
    ({"reason": ""}, "empty_message"),
    ({"reason": "x" * 501}, "too_long"),
    ({"reason": "spam\x00"}, "parse_error"),  # the API's parser refuses a NUL anywhere in a body
    ({"reason": "spam\u202e"}, "bad_characters"),
    ({}, "invalid"),
    ({"reason": ["spam"]}, "invalid"),
])
def test_a_report_with_a_bad_reason_is_a_400_and_stores_nothing(body, code):
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=alice, text="hello")
    response = _report(bob, game, message.pk, body)
    assert response.status_code == 400 and response.json()["error"] == code
    assert not ChatReport.objects.exists()


def test_a_message_id_beyond_any_integer_is_a_404_not_a_crash():
    game, (alice, bob, _) = chat_game()
    response = _report(bob, game, 10**30, {"reason": "spam"})
    assert response.status_code == 404 and response.json()["error"] == "no_such_message"


def test_the_creator_mutes_and_unmutes_a_player_logged_and_the_muted_player_cannot_post():
    game, (alice, bob, _) = chat_game()
    muted = _seat(alice, game, 1, "mute", body={"reason": "rude"})
    assert muted.status_code == 200 and muted.json() == {"position": 1, "muted": True}
    assert _seat(alice, game, 1, "mute").status_code == 200  # idempotent: still one mute, one log line
    refused = client(bob).post(f"/api/games/{game.pk}/messages/", {"text": "hey"}, format="json")
    assert refused.status_code == 403 and refused.json()["error"] == "muted"
    unmuted = _seat(alice, game, 1, "mute", method="delete")
    assert unmuted.status_code == 200 and unmuted.json() == {"position": 1, "muted": False}
    assert client(bob).post(f"/api/games/{game.pk}/messages/", {"text": "sorry"}, format="json").status_code == 201
    log = list(ModerationAction.objects.order_by("pk").values_list("kind", "actor", "target", "reason"))
    assert log == [(ModerationKind.MUTE, alice.pk, bob.pk, "rude"), (ModerationKind.UNMUTE, alice.pk, bob.pk, "")]


def test_only_the_creator_and_staff_mute_and_nobody_mutes_an_empty_seat_or_themself():
    game, (alice, bob, carol) = chat_game()
    by_player = _seat(bob, game, 2, "mute")
    assert by_player.status_code == 403 and by_player.json()["error"] == "not_moderator"
    staff = UserFactory()
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    assert _seat(staff, game, 2, "mute").status_code == 200
    for position in (0, 7, 10**30):  # the creator's own seat, a seat the game has not, an absurd one
        response = _seat(alice, game, position, "mute")
        assert response.status_code == 400 and response.json()["error"] == "bad_recipients", position
    assert list(TableMute.objects.values_list("user", flat=True)) == [carol.pk]


def test_a_block_hides_the_blocked_players_messages_from_the_blocker_only_until_unblocked():
    game, (alice, bob, carol) = chat_game()
    message_post(game=game, user=bob, text="from bob")
    blocked = _seat(alice, game, 1, "block")
    assert blocked.status_code == 200 and blocked.json() == {"position": 1, "blocked": True}

    def texts(user):
        return [m["text"] for m in client(user).get(f"/api/games/{game.pk}/messages/").json()]

    assert "from bob" not in texts(alice) and "from bob" in texts(carol)
    assert _seat(alice, game, 1, "block", method="delete").json() == {"position": 1, "blocked": False}
    assert "from bob" in texts(alice)
    assert not UserBlock.objects.exists()


def test_a_spectator_of_a_public_game_may_block_but_a_player_cannot_block_themself():
    game, (alice, bob, _) = chat_game()
    watcher = spectator()
    assert _seat(watcher, game, 0, "block").status_code == 200
    self_block = _seat(bob, game, 1, "block")
    assert self_block.status_code == 400 and self_block.json()["error"] == "bad_recipients"
    assert list(UserBlock.objects.values_list("blocker", "blocked")) == [(watcher.pk, alice.pk)]


def test_a_private_game_is_a_404_to_outsiders_on_every_moderation_route_as_an_unknown_id_is():
    game, (alice, bob, _) = chat_game(public=False)
    message = ChatMessage.objects.get(pk=message_post(game=game, user=alice, text="hi").pk)
    outsider = UserFactory()
    for answer in (_report(outsider, game, message.pk, {"reason": "spam"}), _seat(outsider, game, 1, "mute"),
                   _seat(outsider, game, 1, "block")):
        assert answer.status_code == 404 and answer.json()["error"] == "not_found", answer.content
    assert not (ChatReport.objects.exists() or TableMute.objects.exists() or UserBlock.objects.exists())
