"""Table talk in the Django admin: reported messages first with their logged actions; hiding and
restoring from the list; a private message's text stays hidden from staff until reported or the game is over;
notes are not in the admin."""

from __future__ import annotations

import pytest
from django.core import mail
from django.contrib import admin
from django.contrib.admin import AdminSite
from django.test import Client, TestCase
from django.urls import reverse

from games.admin.chat_admin import ChatMessageAdmin
from games.admin.secrecy import lookup_touches_secret
from games.chat.models import ChatMessage, ModerationAction, SeatNote
from games.chat.moderation import message_hide, message_report
from games.chat.notes import note_save
from games.chat.services import message_post
from games.models import Game, GameStatus, Press, Seat
from tests.factories import UserFactory

from tests.chat.helpers import chat_game, reader

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client():
    staff = UserFactory()
    staff.is_staff = staff.is_superuser = True
    staff.save()
    c = Client()
    c.force_login(staff)
    return c, staff


def test_reported_messages_come_first_and_private_text_shows_only_once_reported(staff_client):
    c, _ = staff_client
    game, (alice, bob, carol) = chat_game(press=Press.FULL)
    quiet = message_post(game=game, user=alice, text="a table message")
    secret = message_post(game=game, user=alice, text="PRIVATE-CANARY plan", to=[1])
    reported = message_post(game=game, user=bob, text="a rude table message")
    message_report(reader=reader(game, carol), message_id=reported.pk, reason="rude")
    listing = c.get(reverse("admin:chat_chatmessage_changelist")).content.decode()
    row = lambda m: listing.index(reverse("admin:chat_chatmessage_change", args=[m.pk]))  # noqa: E731
    assert row(reported) < row(secret) < row(quiet)
    assert "PRIVATE-CANARY" not in listing
    assert "PRIVATE-CANARY" not in c.get(reverse("admin:chat_chatmessage_change", args=[secret.pk])).content.decode()
    message_report(reader=reader(game, bob), message_id=secret.pk, reason="threat")
    assert "PRIVATE-CANARY" in c.get(reverse("admin:chat_chatmessage_change", args=[secret.pk])).content.decode()
    other, (dave, erin, _) = chat_game(press=Press.FULL)
    after = message_post(game=other, user=dave, text="OVER-CANARY", to=[1])
    Game.objects.filter(pk=other.pk).update(status=GameStatus.FINISHED)
    assert "OVER-CANARY" in c.get(reverse("admin:chat_chatmessage_change", args=[after.pk])).content.decode()


def test_hiding_and_restoring_from_the_list_is_logged_and_the_author_told(staff_client):
    c, staff = staff_client
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=bob, text="spam")
    url = reverse("admin:chat_chatmessage_changelist")
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = c.post(url, {"action": "hide_messages", "_selected_action": [message.pk]})
    assert r.status_code == 302
    message.refresh_from_db()
    assert message.hidden_at is not None
    with TestCase.captureOnCommitCallbacks(execute=True):
        c.post(url, {"action": "restore_messages", "_selected_action": [message.pk]})
    message.refresh_from_db()
    assert message.hidden_at is None
    assert list(ModerationAction.objects.order_by("id").values_list("kind", "actor_id", "reason")) == [
        ("hide", staff.pk, "against the site's rules (reported)"), ("restore", staff.pk, "")]
    page = c.get(reverse("admin:chat_chatmessage_change", args=[message.pk])).content.decode()
    assert "hide" in page and "restore" in page  # the logged actions, with the message


def test_the_moderator_gives_the_reason_the_author_is_told(staff_client):
    c, staff = staff_client
    game, (alice, bob, _) = chat_game()
    message = message_post(game=game, user=bob, text="buy gold at ...")
    url = reverse("admin:chat_chatmessage_changelist")
    assert 'name="reason"' in c.get(url).content.decode()
    with TestCase.captureOnCommitCallbacks(execute=True):
        c.post(url, {"action": "hide_messages", "_selected_action": [message.pk], "reason": "  advertising  "})
    message.refresh_from_db()
    assert message.hidden_reason == "advertising"
    assert ModerationAction.objects.get().reason == "advertising"
    told = [m for m in mail.outbox if bob.email in m.to]
    assert len(told) == 1 and "advertising" in told[0].body


def test_notes_have_no_admin_page():
    assert SeatNote not in admin.site._registry
    game, (alice, _, _) = chat_game()
    note_save(seat=Seat.objects.get(game=game, user=alice), user=alice, text="NOTES-CANARY")
    assert ChatMessage not in (m for m in admin.site._registry if "note" in m._meta.model_name)


# --- a private message's text is no query-string lookup, search or sort for staff --------------------------
#
# Staff play too. The list hides an unreported private message's text, so the query string must not answer
# "does it contain X?" either: a lookup on it (or on a report's or the moderation log's reason, which may
# quote it) is refused with the same 400 whatever the guess, and search matches it only once it is shown.

CANARY = "PRIVATE-CANARY meet at dawn"
NOPE = "NOTHING-LIKE-IT"


class Secret:
    """A game in play with a table message and an unreported private message of seat 0 to seat 1."""

    def __init__(self, client, staff):
        self.client, self.staff = client, staff
        self.game, (self.alice, self.bob, self.carol) = chat_game(press=Press.FULL)
        self.table = message_post(game=self.game, user=self.alice, text="TABLEWORD hello all")
        self.private = message_post(game=self.game, user=self.alice, text=CANARY, to=[1])

    def get(self, changelist: str, params: dict):
        return self.client.get(reverse(f"admin:{changelist}_changelist"), params)

    def listed(self, changelist: str, params: dict) -> list[int]:
        r = self.get(changelist, params)
        assert r.status_code == 200, r.status_code
        return [o.pk for o in r.context["cl"].result_list]


@pytest.fixture
def secret(staff_client):
    return Secret(*staff_client)


# (changelist, lookup, a guess that matches the private message, one that does not)
GUESSES = [
    ("chat_chatmessage", "text__contains", "PRIV", "XRIV"),
    ("chat_chatmessage", "text__startswith", "PRIVATE-C", "PRIVATE-X"),
    ("chat_chatmessage", "text__regex", "^PRIVATE-CANARY", "^PRIVATE-XANARY"),
    ("chat_chatmessage", "text__icontains", "private-canary", "private-xanary"),
    ("chat_chatmessage", "text__iexact", CANARY.lower(), NOPE),
    ("chat_chatmessage", "text", CANARY, NOPE),
    ("chat_chatmessage", "reports__reason__contains", "PRIVATE-CANARY", NOPE),
    ("chat_chatmessage", "moderation__reason__contains", "PRIVATE-CANARY", NOPE),
    ("chat_chatmessage", "hidden_reason__contains", "PRIVATE-CANARY", NOPE),
    ("chat_moderationaction", "reason__contains", "PRIVATE-CANARY", NOPE),
    ("chat_moderationaction", "message__text__contains", "PRIVATE-CANARY", NOPE),
    ("games_game", "chat_messages__text__contains", "PRIVATE-CANARY", NOPE),
]


@pytest.mark.parametrize("changelist,lookup,hit,miss", GUESSES, ids=[f"{c}?{k}" for c, k, _, _ in GUESSES])
def test_a_lookup_on_a_private_message_text_is_refused_whatever_the_guess(secret, changelist, lookup, hit, miss):
    """`?text__contains=PRIV` listed the unreported private message's row only when the guess matched, so
    its text could be read letter by letter while the page hid it."""
    # A log entry and a hidden row whose reasons quote the message (moderators may), to guess at too.
    message_hide(message=secret.table, by=secret.staff, reason=f"as in {CANARY}")
    matching, not_matching = secret.get(changelist, {lookup: hit}), secret.get(changelist, {lookup: miss})
    assert matching.status_code == not_matching.status_code == 400
    assert matching.content == not_matching.content  # the answer is the same whatever the guess
    assert b"PRIVATE-CANARY" not in matching.content


def test_the_same_guess_gets_the_same_answer_whether_or_not_it_matches(secret):
    """A match and a non-match must be told apart by nothing: status, rows or body, letter after letter."""
    answers = {(r.status_code, r.content) for r in (
        secret.get("chat_chatmessage", {"text__startswith": CANARY[:n] + c}) for n in (0, 1, 7) for c in "PAX")}
    assert len(answers) == 1 and next(iter(answers))[0] == 400


def test_search_matches_a_private_message_only_once_reported_or_over(secret):
    """`?q=` must not answer for an unreported private message either; table talk stays searchable."""
    assert secret.listed("chat_chatmessage", {"q": "PRIVATE-CANARY"}) == []
    assert secret.listed("chat_chatmessage", {"q": "dawn"}) == []
    assert secret.listed("chat_chatmessage", {"q": "TABLEWORD"}) == [secret.table.pk]
    message_report(reader=reader(secret.game, secret.bob), message_id=secret.private.pk, reason="threat")
    assert secret.listed("chat_chatmessage", {"q": "PRIVATE-CANARY"}) == [secret.private.pk]
    assert secret.listed("chat_chatmessage", {"q": "meet dawn"}) == [secret.private.pk]  # every word matches

    other, (dave, _, _) = chat_game(press=Press.FULL)
    over = message_post(game=other, user=dave, text="OVER-CANARY", to=[1])
    assert secret.listed("chat_chatmessage", {"q": "OVER-CANARY"}) == []
    Game.objects.filter(pk=other.pk).update(status=GameStatus.FINISHED)
    assert secret.listed("chat_chatmessage", {"q": "OVER-CANARY"}) == [over.pk]


def test_search_keeps_the_reported_first_order_and_lists_each_message_once(secret):
    reported = message_post(game=secret.game, user=secret.bob, text="TABLEWORD rude")
    for who in (secret.alice, secret.carol):  # two reports: one row still
        message_report(reader=reader(secret.game, who), message_id=reported.pk, reason="rude")
    assert secret.listed("chat_chatmessage", {"q": "TABLEWORD"}) == [reported.pk, secret.table.pk]
    assert secret.listed("chat_chatmessage", {"q": "TABLEWORD", "o": "1"}) in (
        [reported.pk, secret.table.pk], [secret.table.pk, reported.pk])  # sorting a search works


def test_no_column_sorts_messages_or_the_log_by_their_text(staff_client):
    """`?o=<column>` must not order rows by a private text or a reason quoting it: the order listed is the
    same whichever of two rows holds the smaller text."""
    c, staff = staff_client

    def order(changelist, texts):
        ChatMessage.objects.all().delete()
        game, (alice, _, _) = chat_game(press=Press.FULL)
        a, b = (message_post(game=game, user=alice, text=t, to=[1]) for t in texts)
        for m, t in ((a, texts[0]), (b, texts[1])):
            message_hide(message=m, by=staff, reason=t)
        rows = {"chat_chatmessage": (a.pk, b.pk),
                "chat_moderationaction": tuple(ModerationAction.objects.order_by("id").values_list("pk", flat=True))}
        first, second = rows[changelist]
        columns = len(c.get(reverse(f"admin:{changelist}_changelist")).context["cl"].list_display)
        for o in [str(i) for i in range(columns)] + [f"-{i}" for i in range(columns)]:
            r = c.get(reverse(f"admin:{changelist}_changelist"), {"o": o})
            assert r.status_code == 200
            yield o, ["first" if row.pk == first else "second" for row in r.context["cl"].result_list]

    for changelist in ("chat_chatmessage", "chat_moderationaction"):
        assert list(order(changelist, ["a-secret", "z-secret"])) == list(order(changelist, ["z-secret", "a-secret"]))


def test_moderators_still_read_reasons_and_reported_text(secret):
    """Reasons are refused as lookups, not hidden: moderators need them on the list and the pages."""
    staff = secret.staff
    message_report(reader=reader(secret.game, secret.bob), message_id=secret.private.pk, reason="REPORT-REASON")
    message_hide(message=secret.private, by=staff, reason="LOG-REASON")
    log = secret.client.get(reverse("admin:chat_moderationaction_changelist")).content.decode()
    assert "LOG-REASON" in log
    action = ModerationAction.objects.get()
    assert "LOG-REASON" in secret.client.get(
        reverse("admin:chat_moderationaction_change", args=[action.pk])).content.decode()
    page = secret.client.get(reverse("admin:chat_chatmessage_change", args=[secret.private.pk])).content.decode()
    assert "REPORT-REASON" in page and "LOG-REASON" in page and "PRIVATE-CANARY" in page


def test_raw_id_popups_still_list_messages_and_games(secret):
    """The log's raw-id widgets open these changelists as popups (`_to_field`, `_popup`): still allowed."""
    for changelist in ("chat_chatmessage", "games_game"):
        r = secret.get(changelist, {"_to_field": "id", "_popup": "1"})
        assert r.status_code == 200, changelist
    assert secret.private.pk in secret.listed("chat_chatmessage", {"_to_field": "id", "_popup": "1"})
    assert b"PRIVATE-CANARY" not in secret.get("chat_chatmessage", {"_to_field": "id", "_popup": "1"}).content


def test_chat_texts_are_secret_through_every_relation_and_no_list_filter_may_read_them():
    """A lookup reaches a message's text, a note, a report's or the log's reason from any admin."""
    assert lookup_touches_secret(Game, "chat_messages__text__contains")
    assert lookup_touches_secret(Seat, "notes__text__icontains")
    assert lookup_touches_secret(ChatMessage, "reports__reason__contains")
    assert lookup_touches_secret(ChatMessage, "moderation__reason")
    assert lookup_touches_secret(ModerationAction, "message__text__regex")
    assert not lookup_touches_secret(ChatMessage, "hidden_at__isnull")
    assert not lookup_touches_secret(ModerationAction, "kind")

    class Leaky(ChatMessageAdmin):
        list_filter = ("text", ("hidden_at", admin.EmptyFieldListFilter))

    errors = Leaky(ChatMessage, AdminSite()).check()
    assert [e.id for e in errors] == ["faltisia.E001"] and "'text'" in errors[0].msg
