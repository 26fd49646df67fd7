"""Show dates in the signed-in player's own time zone; keep Django's debug error pages on this machine."""

import zoneinfo

from django.conf import settings
from django.http import HttpResponseServerError
from django.shortcuts import render
from django.template import loader
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


class OutsiderErrorPageMiddleware:
    """With DEBUG on, show Django's debug 404/500 pages to local requests only: they name routes, settings and files.

    The embedded default runs with DEBUG=True so a developer at the machine gets the URL list and the
    traceback; anyone else (another machine on the network) gets the site's own 404.html / 500.html,
    which name no route, setting or file. JSON answers (the API's errors) pass unchanged. With DEBUG off
    Django renders those templates itself and this does nothing.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (settings.DEBUG and response.status_code in (404, 500)
                and response.get("Content-Type", "").startswith("text/html")
                and request.META.get("REMOTE_ADDR") not in settings.INTERNAL_IPS):
            return error_page(request, response.status_code)
        return response


def error_page(request, status: int):
    """The site's own error page: 404.html with the page layout, 500.html plain (no database needed)."""
    if status == 404:
        return render(request, "404.html", status=404)
    return HttpResponseServerError(loader.get_template("500.html").render())
