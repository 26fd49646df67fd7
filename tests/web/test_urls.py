"""The web routes of games/web/urls.py that are no page of their own: /favicon.ico."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.test import Client


def test_favicon_answers(db):
    """Browsers ask for /favicon.ico whatever the page links: it redirects to the site's icon, which exists."""
    r = Client().get("/favicon.ico")
    assert r.status_code == 301 and r["Location"].endswith("web/favicon.svg")
    assert finders.find("web/favicon.svg")
    assert 'rel="icon"' in Client().get("/accounts/login/").content.decode()
