"""Property: whatever players, deadlines, resends and sweeps do, the server's game is the engine's game.

Random interleavings of picks, stale resends, missed deadlines, standing orders and duplicate
resolutions; after each, the open Prompt rows must equal what the engine asks, and at the end the
stored result must equal a replay of the stored submissions.
"""

from datetime import timedelta

from django.test import TestCase
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.registry import get_engine
from games.errors import GameError
from games.models import Game, GameStatus, Prompt, Submission, SubmissionSource
from games.services import due_phases_sweep, phase_resolve, seat_standing_orders_set, submission_create
from tests.factories import make_started_game
from tests.fake_engine import replay
from tests.games.helpers import seat

ACTIONS = st.lists(st.tuples(st.sampled_from(["pick", "pick", "pick", "resend", "expire", "resolve", "order"]),
                             st.integers(0, 3), st.integers(0, 5)), min_size=5, max_size=80)


def assert_prompts_match_engine(game: Game) -> None:
    engine = get_engine(game.engine)
    for position in range(game.players):
        rows = list(Prompt.objects.filter(game=game, seat__position=position, closed_at__isnull=True))
        wanted = None if game.status == GameStatus.FINISHED else engine.prompt(game.state, position)
        assert [r.prompt_id for r in rows] == ([] if wanted is None else [wanted.id])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), actions=ACTIONS)
def test_random_play_matches_the_engine(db, players, seed, actions):
    game, _ = make_started_game(players=players, options={"rounds": 2}, seed=seed,
                                clock={"step_seconds": 600, "extensions": 1, "bot_after_misses": 2})
    last: dict[int, tuple[str, str]] = {}

    def run(fn):
        with TestCase.captureOnCommitCallbacks(execute=True):
            try:
                return fn()
            except GameError:
                return None

    for kind, who, n in actions + [("expire", 0, 0)] * 40:
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        position = who % players
        row = Prompt.objects.filter(game=game, seat__position=position, closed_at__isnull=True).first()
        if kind == "pick" and row is not None:
            option = row.options[n % len(row.options)]["id"]
            if run(lambda: submission_create(seat=seat(game, position), prompt_id=row.prompt_id, option_id=option,
                                             source=SubmissionSource.API)):
                last[position] = (row.prompt_id, option)
        elif kind == "resend" and position in last:
            before = Submission.objects.count()
            run(lambda: submission_create(seat=seat(game, position), prompt_id=last[position][0],
                                          option_id=last[position][1], source=SubmissionSource.EMAIL))
            assert Submission.objects.count() == before  # a resend is never applied twice
        elif kind == "expire":
            Prompt.objects.filter(game=game, closed_at__isnull=True).update(
                deadline=timezone.now() - timedelta(seconds=1))
            run(lambda: due_phases_sweep(resolve=lambda g, p: phase_resolve(game_id=g, phase=p)))
        elif kind == "resolve":
            run(lambda: phase_resolve(game_id=game.pk, phase=game.phase - n % 2))
        elif kind == "order":
            run(lambda: seat_standing_orders_set(seat=seat(game, position), order_ids=["bet-low", "take-one"][:n % 3]))
        game.refresh_from_db()
        assert_prompts_match_engine(game)

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    picks = [(s.seat.position, s.option_id) for s in Submission.objects.filter(game=game).order_by("id")]
    state = replay(players=players, options={"rounds": 2}, seed=seed, picks=picks)
    assert game.result == get_engine("tinygame").result(state).as_dict()
