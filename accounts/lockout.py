"""What django-axes answers once a login is locked out, and which address it counts.

The web login and the admin login get a page saying what happened and when to try again (429); the
API's token endpoint answers in the API's own shape, ``{error, detail}`` (accounts/apis.py).
"""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render
from rest_framework import status
from rest_framework.exceptions import APIException


def cooloff_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


class LoginLockedOut(APIException):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked_out"

    def __init__(self):
        super().__init__(f"Too many failed logins for this account or from this address; try again in "
                         f"{cooloff_minutes()} minutes.")
        self.wait = int(settings.AXES_COOLOFF_TIME.total_seconds())  # DRF's handler turns it into Retry-After


def lockout_response(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: the lockout page."""
    response = render(request, "accounts/locked_out.html",
                      {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": cooloff_minutes()},
                      status=status.HTTP_429_TOO_MANY_REQUESTS)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response


def client_ip(request) -> str | None:
    """AXES_CLIENT_IP_CALLABLE: the client's address, trusting only TRUSTED_PROXY_COUNT proxies."""
    meta = getattr(request, "META", {})
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies > 0:
        hops = [h.strip() for h in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return meta.get("REMOTE_ADDR")
