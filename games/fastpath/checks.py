"""The fast path's start-up check: no middleware it would silently skip.

The hot routes (games/api/hot_routes.py) answer nearly every API request themselves, so a middleware placed below them
never runs for those requests. Each middleware below them today is one whose effect the hot routes either
reproduce or do not need (SKIPPED_KNOWINGLY says which, and why); any other is refused: place it above the hot
routes, or teach the hot routes what it does and name it here. Like every start-up refusal, it stops every
process (web, worker, manage.py) in production and is a system check error everywhere.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured

HOT_ROUTES = "games.api.hot_routes.HotApiRoutesMiddleware"

# The middleware the hot routes' answers go without, and why they may.
SKIPPED_KNOWINGLY = {
    "games.request_guard.NulCharacterGuardMiddleware": "a path with a NUL matches no hot route",
    "whitenoise.middleware.WhiteNoiseMiddleware": "static files only",
    "django.contrib.sessions.middleware.SessionMiddleware": "a request with a session cookie goes down the chain",
    "django.middleware.common.CommonMiddleware": "its Content-Length is set by the hot routes; their paths end "
                                                 "with a slash",
    "django.middleware.csrf.CsrfViewMiddleware": "token authentication carries no ambient credential (DRF "
                                                 "exempts it too)",
    "django.contrib.auth.middleware.AuthenticationMiddleware": "the token's user is set on the request",
    "django.contrib.messages.middleware.MessageMiddleware": "pages only",
    "django.middleware.clickjacking.XFrameOptionsMiddleware": "its header is set by the hot routes",
    "games.web.middleware.UserTimezoneMiddleware": "pages only (the API speaks UTC)",
    "games.web.middleware.OutsiderErrorPageMiddleware": "pages only (the API answers JSON errors)",
    "axes.middleware.AxesMiddleware": "logins only",
}


@register("security")
def middleware_below_hot_routes_check(app_configs=None, **kwargs) -> list:
    middleware = list(settings.MIDDLEWARE)
    if HOT_ROUTES not in middleware:
        return []
    below = middleware[middleware.index(HOT_ROUTES) + 1:]
    return [Error(f"{name} is below the hot routes, which answer nearly every API request without running it.",
                  hint=f"Place it above {HOT_ROUTES} in MIDDLEWARE, or make the hot routes do what it does and "
                       "add it to games.fastpath.checks.SKIPPED_KNOWINGLY.",
                  id="fastpath.E001")
            for name in below if name not in SKIPPED_KNOWINGLY]


def middleware_enforce() -> None:
    """Refuse to start (every process) on an error above: a system check alone runs only with manage.py."""
    errors = middleware_below_hot_routes_check()
    if errors:
        raise ImproperlyConfigured("\n".join(f"{e.id}: {e.msg} {e.hint}" for e in errors))
