import pytest

from games import bots
from games.engines import registry
from games.models import Submission, SubmissionSource
from games.services import game_create
from tests.factories import UserFactory


@pytest.fixture
def greedy_registered(monkeypatch):
    monkeypatch.setattr(registry, "BOTS", {"tinygame": "tests.fake_engine:greedy_choose"}, raising=False)
    bots.bot_for.cache_clear()
    yield
    bots.bot_for.cache_clear()


def test_a_game_bot_from_the_registry_plays_bot_seats(db, greedy_registered):
    game = game_create(created_by=UserFactory(), engine="tinygame", players=2, bots=1, seed=4)
    game.refresh_from_db()
    hand = sorted(game.state["hands"][1] + [game.state["draft"][1]["card"]])
    card = Submission.objects.get(seat__position=1, prompt_id__endswith="-card")
    assert card.source == SubmissionSource.BOT and card.option_id == f"c{hand[-1]}"


def test_without_a_game_bot_the_default_option_is_played(db):
    bots.bot_for.cache_clear()
    game = game_create(created_by=UserFactory(), engine="tinygame", players=2, bots=1, seed=4)
    game.refresh_from_db()
    card = Submission.objects.get(seat__position=1, prompt_id__endswith="-card")
    assert card.option_id == f"c{min(game.state['hands'][1] + [game.state['draft'][1]['card']])}"
