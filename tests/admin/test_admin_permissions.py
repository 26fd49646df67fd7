"""Which of add / change / delete staff may do in every registered admin, and in its inlines.

Asked as a superuser, so each answer is the admin's own rule, not a missing model permission. A new admin
or inline fails here until it is added to the table: decide its permissions on purpose.
"""

import pytest
from django.contrib import admin
from django.test import RequestFactory

from games.admin.read_only import ReadOnlyAdmin, ReadOnlyInline
from tests.factories import UserFactory

ALL = {"add", "change", "delete"}
NONE: set[str] = set()

# model label -> what staff may do there
ADMINS = {
    "accounts.notificationpreferences": ALL,
    "accounts.user": ALL,
    "accounts.vacation": ALL,
    "auth.group": ALL,
    "authtoken.tokenproxy": ALL,
    "axes.accessattempt": {"change", "delete"},
    "axes.accessfailurelog": {"change", "delete"},
    "axes.accesslog": {"change", "delete"},
    "chat.chatmessage": NONE,  # moderators hide and restore with the actions, never edit or delete
    "chat.moderationaction": NONE,
    "chat.tablemute": NONE,
    "chat.userblock": NONE,
    "games.event": NONE,
    "games.game": {"change"},  # is_public only; everything else through the actions
    "games.prompt": NONE,
    "games.seat": NONE,
    "games.submission": NONE,
    "mail.inboundmessage": NONE,
    "mail.notification": NONE,
    "mail.seatmailbox": NONE,
    "mail.usedlink": NONE,
    "tournaments.notice": {"delete"},
    "tournaments.table": {"delete"},
    "tournaments.tournament": ALL,
}

# (model label of the page, inline class name) -> what staff may do through the inline (on an add page)
INLINES = {
    ("accounts.user", "VacationInline"): ALL,
    ("accounts.user", "RatingInline"): {"change"},  # every field is read-only: nothing to change
    ("chat.chatmessage", "ReportInline"): NONE,
    ("chat.chatmessage", "ModerationInline"): NONE,
    ("games.game", "SeatInline"): NONE,
    ("games.game", "PromptInline"): NONE,
    ("games.game", "SubmissionInline"): NONE,
    ("games.game", "EventInline"): NONE,
    ("tournaments.tournament", "EntryInline"): ALL,  # until the tournament starts
    ("tournaments.tournament", "RoundInline"): {"change"},  # every field is read-only: nothing to change
}


@pytest.fixture
def request_(db):
    u = UserFactory(username="boss")
    u.is_staff = u.is_superuser = True
    u.save()
    r = RequestFactory().get("/admin/")
    r.user = u
    return r


def _admins():
    return {model._meta.label_lower: model_admin for model, model_admin in admin.site._registry.items()}


def test_every_registered_admin_allows_exactly_its_table(request_):
    allowed = {label: {p for p, ok in (("add", ma.has_add_permission(request_)),
                                        ("change", ma.has_change_permission(request_)),
                                        ("delete", ma.has_delete_permission(request_))) if ok}
               for label, ma in _admins().items()}
    assert allowed == ADMINS


def test_every_inline_allows_exactly_its_table(request_):
    allowed = {}
    for label, ma in _admins().items():
        for inline in ma.get_inline_instances(request_):
            # A formset offers deletion only when can_delete is set as well (InlineModelAdmin.get_formset).
            delete = inline.can_delete and inline.has_delete_permission(request_)
            allowed[label, type(inline).__name__] = {p for p, ok in (
                ("add", inline.has_add_permission(request_, None)), ("change", inline.has_change_permission(request_)),
                ("delete", delete)) if ok}
    assert allowed == INLINES


def test_the_project_admins_that_allow_nothing_share_the_read_only_bases(request_):
    """One place says what read-only means; third-party admins (axes, auth) are not ours to change."""
    ours = ("accounts.", "chat.", "games.", "mail.", "tournaments.")
    for label, ma in _admins().items():
        if label.startswith(ours) and ADMINS[label] == NONE:
            assert isinstance(ma, ReadOnlyAdmin), label
        for inline in ma.get_inline_instances(request_):
            if INLINES[label, type(inline).__name__] == NONE:
                assert isinstance(inline, ReadOnlyInline), (label, type(inline).__name__)
