"""What every page's header shows: the signed-in player's unread table talk.

Lazy: counted only when a page's template shows it (the header of full pages), not for the game page's live
fragment or an email rendered with a request.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.functional import SimpleLazyObject

from .selectors import unread_messages_total


def chat_unread(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"chat_unread_total": SimpleLazyObject(lambda: unread_messages_total(user=user)),
            "unread_poll_ms": settings.WEB_UNREAD_POLL_INTERVAL_MS}


def site(request) -> dict:
    """The site's own name for the header and page titles (settings.SITE_NAME): the server hosts several
    games, so its brand is not one of theirs."""
    return {"site_name": settings.SITE_NAME}
