"""Shared fixtures. Tests needing PostgreSQL or Redis are marked and skip on the embedded default."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import UserFactory, make_started_game


def _on_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def _broker_is_redis() -> bool:
    return settings.CELERY_BROKER_URL.startswith("redis")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("REQUIRE_SERVICES") and not (_on_postgres() and _broker_is_redis()):
        raise pytest.UsageError("REQUIRE_SERVICES is set but DATABASE_URL/CELERY_BROKER_URL are not PG/Redis")
    for item in items:
        if item.get_closest_marker("postgres") and not _on_postgres():
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://..."))
        if item.get_closest_marker("redis") and not _broker_is_redis():
            item.add_marker(pytest.mark.skip(reason="needs Redis: set CELERY_BROKER_URL=redis://..."))


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Request counters (accounts/throttle.py) live in the cache: each test starts with none."""
    yield
    cache.clear()


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def api():
    """An API client; ``api.as_user(user)`` sets its token."""
    client = APIClient()

    def as_user(u):
        client.credentials(HTTP_AUTHORIZATION=f"Token {u.auth_token.key}")
        return client

    client.as_user = as_user
    return client


@pytest.fixture
def game2(db):
    """A started 2-player tinygame (one round), with its two users."""
    return make_started_game(players=2, options={"rounds": 1})
