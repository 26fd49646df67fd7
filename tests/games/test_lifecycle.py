import pytest

from games.errors import ErrorCode, GameError
from games.models import Event, GameStatus, Prompt
from games.services import game_create, game_join
from tests.factories import UserFactory, make_started_game


def test_game_starts_when_every_seat_is_taken(db):
    alice, bob = UserFactory(), UserFactory()
    game = game_create(created_by=alice, engine="tinygame", players=2, seed=3)
    assert game.status == GameStatus.OPEN and game.state is None
    assert game.seats.get(position=0).user == alice
    seat = game_join(game=game, user=bob)
    game.refresh_from_db()
    assert seat.position == 1
    assert game.status == GameStatus.ACTIVE and game.phase == 0
    # A simultaneous step: both seats are asked at once, each with its own deadline.
    prompts = Prompt.objects.filter(game=game, closed_at__isnull=True)
    assert sorted(p.seat.position for p in prompts) == [0, 1]
    assert all(p.deadline is not None for p in prompts)
    assert Event.objects.filter(game=game, text="The game begins.").exists()


def test_joining_twice_returns_the_same_seat_and_a_full_game_refuses(db):
    game, users = make_started_game(players=2)
    assert game_join(game=game, user=users[1]).position == 1
    with pytest.raises(GameError) as e:
        game_join(game=game, user=UserFactory())
    assert e.value.code == ErrorCode.GAME_NOT_OPEN


def test_unknown_game_and_bad_options_are_refused(db):
    u = UserFactory()
    with pytest.raises(GameError) as e:
        game_create(created_by=u, engine="no-such-game", players=2)
    assert e.value.code == ErrorCode.UNKNOWN_GAME
    with pytest.raises(GameError) as e:
        game_create(created_by=u, engine="tinygame", players=9)
    assert e.value.code == ErrorCode.INVALID_SETTINGS
    with pytest.raises(GameError):
        game_create(created_by=u, engine="tinygame", players=2, clock={"type": "hourglass"})


def test_the_unavailable_faltisia_engine_is_not_imported_at_startup(db):
    # The registry names faltisia lazily; creating it fails cleanly if its module is not there yet.
    u = UserFactory()
    try:
        game_create(created_by=u, engine="faltisia", players=2)
    except GameError as e:
        assert e.code == ErrorCode.UNKNOWN_GAME


def test_bots_fill_seats_and_play(db, django_capture_on_commit_callbacks):
    u = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_create(created_by=u, engine="tinygame", players=3, bots=2, options={"rounds": 1})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    # The bots answered at once: only the human seat is waiting.
    assert [p.seat.position for p in Prompt.objects.filter(game=game, closed_at__isnull=True)] == [0]
