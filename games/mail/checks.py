"""Startup checks of the email layer (Django system checks: run by migrate, runserver, check).

In production an inbound webhook without its basic-auth secret would let anyone on the web post
"replies" into the games; so with DEBUG=false the server refuses to start when an inbound provider is
mounted (MAIL_INBOUND_ESPS) and ANYMAIL_WEBHOOK_SECRET is not set, or when a provider named there is
unknown or lacks its own settings.

Every link in every email (one-click picks, the game page, unsubscribe) starts with MAIL_BASE_URL (else
SITE_URL); unset, it is the embedded default http://127.0.0.1:8000, which no recipient can open. So with
DEBUG=false the server refuses to start unless one of them is set to an http(s) address.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.checks import Error, Warning, register

from .inbound_providers import INBOUND_PATTERNS, configured_esps, esp_view_error, inbound_basic_auth


@register("mail", "security")
def inbound_webhook_check(app_configs=None, **kwargs) -> list:
    esps = configured_esps()
    if not esps:
        return []
    problems = []
    level = Warning if settings.DEBUG else Error
    if not inbound_basic_auth():
        problems.append(level(
            f"The inbound email webhooks of {', '.join(esps)} are mounted but ANYMAIL_WEBHOOK_SECRET is not set: "
            "every webhook request is refused, and in production the server does not start.",
            hint="Set ANYMAIL_WEBHOOK_SECRET=user:password (the basic auth your provider sends), or "
                 "MAIL_INBOUND_ESPS to the providers you use (empty: none).",
            id="mail.E001"))
    # Named one by one, each must work; "*" mounts every provider and those not set up answer 404.
    named = [n.strip().lower() for n in getattr(settings, "MAIL_INBOUND_ESPS", []) if n.strip() != "*"]
    for esp in named:
        why = esp_view_error(esp) if esp in INBOUND_PATTERNS else f"unknown provider {esp!r}"
        if why:
            problems.append(level(f"MAIL_INBOUND_ESPS names {esp!r}, whose inbound webhook cannot run: {why}",
                                  hint=f"Known providers: {', '.join(sorted(INBOUND_PATTERNS))}.", id="mail.E002"))
    return problems


@register("mail")
def mail_base_url_check(app_configs=None, **kwargs) -> list:
    """In production, MAIL_BASE_URL (or SITE_URL) must be given, as an http(s) address."""
    given = getattr(settings, "MAIL_BASE_URL_GIVEN", True)
    scheme = urlsplit(settings.MAIL_BASE_URL).scheme
    if settings.DEBUG or (given and scheme in ("http", "https")):
        return []
    return [Error(
        f"Links in emails would point at {settings.MAIL_BASE_URL!r}"
        + (", the embedded default no player can open" if not given else ", not an http(s) address")
        + ", so the server does not start with DEBUG=false.",
        hint="Set SITE_URL (or MAIL_BASE_URL) to the server's public address, e.g. https://games.example.org.",
        id="mail.E003")]


def inbound_webhook_enforce() -> None:
    """In production, refuse to start (every process: web, worker, manage.py) on an error above.

    A system check alone runs only with manage.py commands, not under gunicorn or Celery.
    """
    if settings.DEBUG:
        return
    errors = [p for p in inbound_webhook_check() + mail_base_url_check() if p.is_serious()]
    if errors:
        raise ImproperlyConfigured("\n".join(f"{e.id}: {e.msg} {e.hint}" for e in errors))


@register("mail", "security")
def webhook_private_addresses_check(app_configs=None, **kwargs) -> list:
    """WEBHOOK_ALLOW_PRIVATE_ADDRESSES is for tests: with DEBUG=false it would let a player's webhook reach
    the server's own network, so the server does not start with it."""
    if not getattr(settings, "WEBHOOK_ALLOW_PRIVATE_ADDRESSES", False) or settings.DEBUG:
        return []
    return [Error("WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true lets players' webhooks reach private and loopback "
                  "addresses; it is for tests only, so the server does not start with DEBUG=false.",
                  id="mail.E004")]
