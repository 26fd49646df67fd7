"""Engine states are compressed with lz4 on PostgreSQL (migration games/0015).

A Faltisia state (~3 KB of JSON) is over PostgreSQL's TOAST threshold, so the game row's UPDATE and the take-back
point's INSERT of every pick compress it: lz4 costs the database less CPU than its default, pglz.
"""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Game, Submission, SubmissionSource, TakeBack
from games.services.submissions import submission_create
from tests.factories import make_started_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _compression(model, pk: int) -> str | None:
    """How the row's stored state is compressed (None: stored as is)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_column_compression(state) FROM {model._meta.db_table} WHERE id = %s", [pk])
        return cursor.fetchone()[0]


def test_a_pick_stores_the_game_state_and_its_take_back_point_compressed_with_lz4():
    game, _users = make_started_game(players=4, engine="faltisia")
    seat = game.seats.order_by("position").first()
    prompt = seat.prompts.get(closed_at__isnull=True)
    submission = submission_create(seat=seat, prompt_id=prompt.prompt_id, option_id=prompt.options[0]["id"],
                                   source=SubmissionSource.API)
    assert Submission.objects.filter(pk=submission.pk).exists()
    point = TakeBack.objects.get(submission=submission)
    with connection.cursor() as cursor:  # over the TOAST threshold (~2 KB): compressed, not stored as is
        cursor.execute("SELECT octet_length(state::text) FROM games_game WHERE id = %s", [game.pk])
        assert cursor.fetchone()[0] > 2100
    assert _compression(Game, game.pk) == "lz4"
    assert _compression(TakeBack, point.pk) == "lz4"
