from games.engines.registry import get_engine
from games.models import Event, GameStatus, Prompt, Submission
from games.services import phase_resolve
from tests.factories import make_started_game
from tests.fake_engine import replay
from tests.games.helpers import open_prompt, pick, play_step


def test_a_complete_step_resolves_on_commit_and_opens_the_next(game2):
    game, _ = game2
    play_step(game)
    game.refresh_from_db()
    assert game.phase == 1 and game.resolve_requested_at is None
    # The sequential step asks one seat at a time, in seat order.
    assert [p.seat.position for p in Prompt.objects.filter(game=game, closed_at__isnull=True)] == [0]
    assert Event.objects.filter(game=game, phase=0, text__startswith="Seat").count() == 2


def test_resolution_run_twice_resolves_the_phase_once(game2, settings):
    settings.RESOLVE_IN_PICK = False  # the worker's resolve task, as for a step no pick completes
    game, _ = game2
    play_step(game, commit=False)  # callbacks not run: the step is complete but unresolved
    game.refresh_from_db()
    assert game.resolve_requested_at is not None
    assert phase_resolve(game_id=game.pk, phase=0) is True
    assert phase_resolve(game_id=game.pk, phase=0) is False
    game.refresh_from_db()
    assert game.phase == 1
    assert Event.objects.filter(game=game, phase=0, text__startswith="Seat").count() == 2


def test_an_incomplete_step_does_not_resolve(game2):
    game, _ = game2
    pick(game, 0)
    assert phase_resolve(game_id=game.pk, phase=0) is False
    assert phase_resolve(game_id=game.pk + 999, phase=0) is False


def test_a_whole_game_finishes_with_the_scores_of_its_replay(db):
    game, _ = make_started_game(players=3, options={"rounds": 3}, seed=11)
    for _ in range(50):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        p = Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position").first()
        pick(game, p.seat.position, p.options[-1]["id"])
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.finished_at
    picks = [(s.seat.position, s.option_id) for s in Submission.objects.filter(game=game).order_by("id")]
    state = replay(players=3, options={"rounds": 3}, seed=11, picks=picks)
    assert game.result == get_engine("tinygame").result(state).as_dict()
    assert not Prompt.objects.filter(game=game, closed_at__isnull=True).exists()
    assert open_prompt(game, 0) is None
