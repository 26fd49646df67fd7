"""Headless Chromium (Debian's package) driven by Playwright's sync API against pytest-django's live server.

The tests skip, and only skip, when no chromium binary is installed.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.servers.basehttp import WSGIServer
from django.test.testcases import LiveServerThread

# Playwright's sync API runs an event loop in this thread; Django's ORM calls from the test body are
# still synchronous, so its async-safety guard would refuse them without this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")



class SerialWSGIServer(WSGIServer):
    """One request at a time. The SQLite test database lives in memory and its one connection is shared
    with the server thread; concurrent requests (two pages polling while a third posts) would interleave
    their transactions on it and fail with "table is locked". PostgreSQL keeps the threaded server."""

    def __init__(self, *args, connections_override=None, **kwargs):
        super().__init__(*args, **kwargs)


if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    LiveServerThread.server_class = SerialWSGIServer

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]


@pytest.fixture(scope="session")
def chromium_browser():
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def new_page(chromium_browser, live_server):
    """A fresh browser context (its own cookies: one per player) with a page on the live server."""
    contexts = []

    def make():
        context = chromium_browser.new_context(viewport={"width": 1440, "height": 1000}, base_url=live_server.url)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for c in contexts:
        c.close()


VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SIDEWAYS = "() => [document.documentElement.scrollWidth, window.innerWidth]"  # [page width, window width]


@pytest.fixture
def page_at(chromium_browser, live_server):
    """A fresh context (its own cookies) at one of VIEWPORTS."""
    contexts = []

    def make(viewport: str):
        context = chromium_browser.new_context(viewport=VIEWPORTS[viewport], base_url=live_server.url)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for c in contexts:
        c.close()


def log_in(page, user) -> None:
    """Sign ``user`` in (tests.factories' password) and wait for the signed-in nav."""
    page.goto("/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "Correct-Horse-42")
    page.click("form button[type=submit]")
    page.wait_for_selector("#nav-links form[action$='/logout/']", state="attached")  # folded on a phone
