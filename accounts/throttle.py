"""A small request counter in Django's cache, for the forms that send mail to an address someone types:
password reset and "send the confirmation link again", so neither can flood an inbox.

Logins are guarded by django-axes (settings.py, AXES_*); these forms do not authenticate, so axes does
not see them. The counter lives in the cache: set CACHE_URL to Redis in production so that every web
process shares it (the default, local memory, is per process: enough for the embedded server).
"""

from __future__ import annotations

import hashlib

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache


def throttle_hit(*, scope: str, key: str, limit: int, window_seconds: int) -> bool:
    """Count one request for ``key``; False when more than ``limit`` came within the window."""
    digest = hashlib.sha256(key.strip().lower().encode()).hexdigest()  # no address in the cache's keys
    cache_key = f"throttle:{scope}:{digest}"
    cache.add(cache_key, 0, timeout=window_seconds)
    try:
        count = cache.incr(cache_key)
    except ValueError:  # expired between add and incr
        cache.set(cache_key, 1, timeout=window_seconds)
        count = 1
    return count <= limit


def too_many_requests(request, template: str, context: dict | None = None, *, seconds: int | None = None):
    """A 429 page with ``Retry-After`` (RFC 9110 §10.2.3): the window, so a client knows when to come back."""
    from django.shortcuts import render  # the counters above are used outside requests too

    response = render(request, template, context or {}, status=429)
    response["Retry-After"] = str(seconds if seconds is not None else settings.MAIL_REQUEST_WINDOW_SECONDS)
    return response


def signup_allowed(*, request) -> bool:
    """Whether this client address may create another account now (web and API sign-up alike)."""
    return throttle_hit(scope="signup:ip", key=get_client_ip_address(request) or "",
                        limit=settings.SIGNUPS_PER_IP, window_seconds=settings.MAIL_REQUEST_WINDOW_SECONDS)


def mail_request_allowed(*, request, scope: str, email: str) -> bool:
    """Whether a form that mails ``email`` may go ahead, per address and per client address."""
    window = settings.MAIL_REQUEST_WINDOW_SECONDS
    per_email = throttle_hit(scope=f"{scope}:email", key=email, limit=settings.MAIL_REQUESTS_PER_EMAIL,
                             window_seconds=window)
    per_ip = throttle_hit(scope=f"{scope}:ip", key=get_client_ip_address(request) or "",
                          limit=settings.MAIL_REQUESTS_PER_IP, window_seconds=window)
    return per_email and per_ip
