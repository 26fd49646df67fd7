"""The fast path's start-up check: a middleware the hot routes would skip is refused, in every process."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from games.fastpath import checks
from tests.production_process import production_process_run

NEW = "tests.games.fastpath.test_checks.SomeMiddleware"


def test_the_middleware_of_the_settings_is_all_known():
    assert checks.middleware_below_hot_routes_check() == []


def test_a_middleware_below_the_hot_routes_is_an_error_and_above_them_is_fine():
    hot = settings.MIDDLEWARE.index(checks.HOT_ROUTES)
    below = [*settings.MIDDLEWARE, NEW]
    with override_settings(MIDDLEWARE=below):
        errors = checks.middleware_below_hot_routes_check()
        assert [(e.id, NEW in e.msg) for e in errors] == [("fastpath.E001", True)]
        with pytest.raises(ImproperlyConfigured, match="fastpath.E001"):
            checks.middleware_enforce()
    above = [*settings.MIDDLEWARE[:hot], NEW, *settings.MIDDLEWARE[hot:]]
    with override_settings(MIDDLEWARE=above):
        assert checks.middleware_below_hot_routes_check() == []
        checks.middleware_enforce()


def test_a_production_process_with_one_does_not_start():
    code = ("from django.conf import settings; settings.MIDDLEWARE = [*settings.MIDDLEWARE, 'x.Y']; "
            "import django; django.setup()")
    refused = production_process_run(code)
    assert refused.returncode != 0 and "fastpath.E001" in refused.stderr
    assert production_process_run().returncode == 0
