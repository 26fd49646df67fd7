"""Fixtures for the web page tests: logged-in clients and games driven through the real services."""

from __future__ import annotations

import pytest
from django.test import Client, TestCase

from games.models import Game, Prompt
from tests.factories import UserFactory, make_started_game
from tests.games.helpers import pick


class CommitClient(Client):
    """A test client whose requests run their on-commit callbacks (mail, the eager resolve task), as they
    would after a real commit; pytest-django's test transaction never commits."""

    def request(self, **request):
        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().request(**request)


@pytest.fixture
def client():
    return CommitClient()


def client_for(user) -> Client:
    c = CommitClient()
    c.force_login(user)
    return c


@pytest.fixture
def login():
    return client_for


@pytest.fixture
def faltisia2(db):
    """A started 2-player Faltisia game and its two players."""
    return make_started_game(players=2, engine="faltisia", seed=11)


@pytest.fixture
def stranger(db):
    return UserFactory()


def play_until(game: Game, done, limit: int = 5000) -> None:
    """Every seat picks its first option until ``done(game)`` is true (or the game ends)."""
    for _ in range(limit):
        game.refresh_from_db()
        if done(game) or game.status != "active":
            return
        prompt = Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position").first()
        assert prompt is not None, "an active game with no open prompt"
        pick(game, prompt.seat.position)
    raise AssertionError("the game did not get there")
