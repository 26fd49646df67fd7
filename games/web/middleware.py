"""Show dates in the signed-in player's own time zone."""

import zoneinfo

from django.utils import timezone


class UserTimezoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = getattr(getattr(request, "user", None), "timezone", None)
        try:
            timezone.activate(zoneinfo.ZoneInfo(name)) if name else timezone.deactivate()
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()  # a stale or hand-edited zone name must not break every page
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
