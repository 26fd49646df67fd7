"""The providers' inbound email webhooks (django-anymail), mounted at /mail/inbound/<esp>/inbound/.

Only anymail's inbound views are mounted (we use no delivery tracking), only for the providers named in
MAIL_INBOUND_ESPS, and each is wrapped so that:

- a request is refused (400, as anymail answers a wrong basic auth) unless ANYMAIL's WEBHOOK_SECRET is
  set: anymail alone would accept anyone's posts with only a warning in the log;
- a body the provider's parser cannot read is a 400, never a 500 (anymail's contract: 400 for a request
  it rejects, 5xx means "try again later", and junk will not get better by retrying);
- a failure of our own processing (the database is down) is still a 500, so the provider retries;
- a provider whose other settings are missing (e.g. a signing key) answers 404 rather than failing each
  request; the startup check (checks.py) reports it.
"""

from __future__ import annotations

import functools
import logging
import warnings

from anymail import urls as anymail_urls
from anymail.exceptions import AnymailInsecureWebhookWarning
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseNotFound
from django.urls import URLPattern
from django.views.decorators.csrf import csrf_exempt

logger = logging.getLogger(__name__)

# esp name -> anymail's URL pattern of its inbound webhook (e.g. "postmark" -> postmark/inbound/)
INBOUND_PATTERNS: dict[str, URLPattern] = {
    p.name.removesuffix("_inbound_webhook"): p for p in anymail_urls.urlpatterns
    if p.name and p.name.endswith("_inbound_webhook")}
ALL = "*"


class InboundProcessingFailed(Exception):
    """Our handling of a well-formed inbound message failed (not the provider's payload): answer 5xx."""


def inbound_basic_auth() -> str | list[str]:
    return (getattr(settings, "ANYMAIL", None) or {}).get("WEBHOOK_SECRET") or ""


def configured_esps() -> list[str]:
    """The providers whose inbound webhook is mounted (MAIL_INBOUND_ESPS; "*" is every one anymail has)."""
    names = [n.strip().lower() for n in getattr(settings, "MAIL_INBOUND_ESPS", []) if n.strip()]
    return sorted(INBOUND_PATTERNS) if ALL in names else names


def esp_view_error(esp: str) -> str | None:
    """Why the provider's inbound view cannot run with the current settings (None: it can)."""
    pattern = INBOUND_PATTERNS.get(esp)
    if pattern is None:
        return f"unknown provider {esp!r}; known: {', '.join(sorted(INBOUND_PATTERNS))}"
    view_class = pattern.callback.view_class
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AnymailInsecureWebhookWarning)
            view_class(**pattern.callback.view_initkwargs)
    except ImproperlyConfigured as e:
        return str(e)
    return None


def guarded(view, esp: str):
    """``view`` (an anymail inbound view) under the rules in this module's docstring."""

    @csrf_exempt
    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method == "POST" and not inbound_basic_auth():
            logger.warning("inbound %s webhook refused: ANYMAIL_WEBHOOK_SECRET is not set", esp)
            return HttpResponseBadRequest("webhook not accepted")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", AnymailInsecureWebhookWarning)  # refused above
                return view(request, *args, **kwargs)
        except InboundProcessingFailed:
            raise  # ours, not the payload's: a 500, and the provider tries again later
        except ImproperlyConfigured:
            logger.error("inbound %s webhook is not usable: %s", esp, esp_view_error(esp))
            return HttpResponseNotFound("webhook not available")
        except Exception as e:  # the provider's parser on a body it cannot read (or a failed validation)
            logger.info("inbound %s webhook refused a request: %s: %s", esp, type(e).__name__, str(e)[:200])
            return HttpResponseBadRequest("webhook request not accepted")

    return wrapper


def inbound_urlpatterns() -> list[URLPattern]:
    """The mounted inbound webhook routes, each guarded."""
    patterns = []
    for esp in configured_esps():
        original = INBOUND_PATTERNS.get(esp)
        if original is None:
            continue  # reported by the startup check
        patterns.append(URLPattern(original.pattern, guarded(original.callback, esp), name=original.name))
    return patterns
