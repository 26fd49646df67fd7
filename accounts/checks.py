"""Startup check: production served without HTTPS (settings.HTTPS) sends passwords, session cookies and API
tokens in the clear. A warning, not a refusal: TLS may end at a proxy the operator has not told us about yet,
and ``manage.py check --deploy`` lists the rest."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Warning, register


@register("security", deploy=False)
def https_check(app_configs=None, **kwargs) -> list:
    if settings.DEBUG or settings.HTTPS:
        return []
    return [Warning("DEBUG is false and HTTPS is not set: session cookies are not marked Secure, plain HTTP is "
                    "not redirected and no HSTS header is sent.",
                    hint="Serve the site over HTTPS and set HTTPS=true (behind a proxy that ends TLS, also "
                         "TRUSTED_PROXY_COUNT, so its X-Forwarded-Proto is believed). docs/security.md",
                    id="accounts.W001")]
