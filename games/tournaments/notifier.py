"""Deliver tournament notices: one plain-text mail per notice, after the commit that created it.

Kept deliberately small: the email layer (games/mail) may take over delivery of Notice rows; a
notice whose mail was sent has ``emailed_at`` set, so nothing is mailed twice by this function.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from .models import Notice, NoticeKind

logger = logging.getLogger(__name__)

# Which notification preference lets each kind of notice through.
PREFERENCE = {NoticeKind.ROUND_STARTED: "email_prompts", NoticeKind.GAME_ASSIGNED: "email_prompts",
              NoticeKind.TOURNAMENT_FINISHED: "email_results", NoticeKind.TOURNAMENT_CANCELLED: "email_results"}


def _wants_mail(notice: Notice) -> bool:
    if not getattr(settings, "TOURNAMENT_NOTICES_BY_MAIL", True) or not notice.user.email:
        return False
    if notice.user.email_verified_at is None or not notice.user.is_active:
        return False  # only to a confirmed address: mail never goes to one nobody proved is theirs
    prefs = getattr(notice.user, "notification_preferences", None)
    return prefs is None or getattr(prefs, PREFERENCE[notice.kind], True)


def notice_mail(*, notice_id: int) -> bool:
    """Mail one notice if it was not mailed yet; True if a mail went out."""
    with transaction.atomic():
        notice = (Notice.objects.select_for_update(of=("self",)).select_related("user", "user__notification_preferences")
                  .filter(pk=notice_id, emailed_at__isnull=True).first())
        if notice is None or not _wants_mail(notice):
            return False
        Notice.objects.filter(pk=notice.pk).update(emailed_at=timezone.now())
    try:
        send_mail(notice.subject, notice.body, None, [notice.user.email])
    except Exception:  # a mail server outage must not break tournament play; the row shows it unsent
        Notice.objects.filter(pk=notice.pk).update(emailed_at=None)
        logger.exception("could not mail tournament notice %s", notice.pk)
        return False
    return True


def notice_mail_on_commit(notice: Notice) -> None:
    transaction.on_commit(lambda: notice_mail(notice_id=notice.pk))
