"""The attack suite, which keeps every door closed: every test here carries the ``security`` marker, so
``pytest -m security`` runs it alone and ``-m "not security"`` leaves it out. docs/security.md says more."""

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/security/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.security)


@pytest.fixture(autouse=True)
def fresh_cache():
    """Rate-limit and lockout counters live in the cache: the attack suite hammers the
    logins, so it starts and leaves every test with an empty cache, never locking out the tests after it."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
