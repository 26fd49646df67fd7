"""Builders for tournament tests: staff directors, bot-played fields, running rounds to the end."""

from __future__ import annotations

from django.test import TestCase

from games.tournaments.services import tournament_create, tournament_register, tournament_start
from tests.factories import UserFactory


def director():
    u = UserFactory()
    u.is_staff = True
    u.save(update_fields=["is_staff"])
    return u


def bot_field(tournament, count: int) -> list:
    """Register ``count`` new users whose seats bots play (the games then play themselves)."""
    users = [UserFactory() for _ in range(count)]
    for u in users:
        tournament_register(tournament=tournament, user=u, plays_as_bot=True)
    return users


def run_to_the_end(tournament, by):
    """Start the tournament and let every on-commit callback (eager resolves, signals) run out."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, by=by)
    tournament.refresh_from_db()
    return tournament


def make_tournament(by, **kwargs):
    defaults = dict(name="Test cup", engine="tinygame", format="swiss", table_size=3, rounds=3,
                    options={"rounds": 1}, clock={"type": "fixed", "step_seconds": 3600})
    defaults.update(kwargs)
    return tournament_create(created_by=by, **defaults)
