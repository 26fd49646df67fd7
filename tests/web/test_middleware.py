"""The site's own error pages (games/web/middleware.py OutsiderErrorPageMiddleware, templates/404.html): a bad URL
gets the site's 404 page without a route list, and with DEBUG on only this machine sees Django's debug 404 and 500
pages."""

from __future__ import annotations

from django.test import Client, RequestFactory, override_settings
from django.views import debug

from games.web.middleware import OutsiderErrorPageMiddleware

OUTSIDER = "203.0.113.7"  # TEST-NET-3: another machine


def test_a_bad_url_gets_the_sites_404_page_without_a_route_list(db):
    """An unknown URL gets the site's own 404 page, never a list of the site's routes."""
    r = Client().get("/no-such-page/")  # tests run with DEBUG off: Django renders templates/404.html
    html = r.content.decode()
    assert r.status_code == 404 and "Page not found" in html and 'class="topnav"' in html
    assert "URLconf" not in html and "api/" not in html


@override_settings(DEBUG=True)
def test_with_debug_on_only_this_machine_sees_the_debug_404(db):
    """The embedded default (DEBUG=True) stays debug-friendly on this machine and leaks no routes to another."""
    local = Client(REMOTE_ADDR="127.0.0.1").get("/no-such-page/")
    assert local.status_code == 404 and "URLconf" in local.content.decode()
    outside = Client(REMOTE_ADDR=OUTSIDER).get("/no-such-page/")
    html = outside.content.decode()
    assert outside.status_code == 404 and "Page not found" in html
    assert "URLconf" not in html and "tournaments/&lt;int" not in html and "admin/" not in html
    api = Client(REMOTE_ADDR=OUTSIDER).get("/api/games/999999/")
    assert api.status_code in (401, 403, 404) and api["Content-Type"].startswith("application/json")


@override_settings(DEBUG=True)
def test_with_debug_on_an_outsider_gets_the_plain_500_page(db):
    """Django's debug 500 page (settings, traceback) reaches local requests only; an outsider gets the plain page."""
    request = RequestFactory().get("/boom/", REMOTE_ADDR=OUTSIDER)
    technical = debug.technical_500_response(request, ValueError, ValueError("secret detail"), None)
    response = OutsiderErrorPageMiddleware(lambda r: technical)(request)
    html = response.content.decode()
    assert response.status_code == 500 and "Something went wrong" in html and "secret detail" not in html
    local = RequestFactory().get("/boom/", REMOTE_ADDR="127.0.0.1")
    assert OutsiderErrorPageMiddleware(lambda r: technical)(local) is technical
