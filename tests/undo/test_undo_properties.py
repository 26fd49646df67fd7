"""Property tests of take-backs over random games of every engine, through the real services.

Random sequences of picks (random options, or options that can be taken back) and undos ("last", "turn", or naming
an answered prompt) on the test database. The test keeps its own record of every seat's state before each pick it
may take back, from the rule alone: a seat's pick can be taken back when it leaves the engine's
``checkpoint_key`` for that seat unchanged and the step goes on; a checkpoint ends the seat's take-backs, the step's
end everyone's. Then:

(a) an undo reveals nothing new: the state after it is the recorded state, JSON-equal, the seeded generator with
    it (in a simultaneous step: the seat's own part is, and nothing else changes), the seat's view is the recorded
    view, and it sees no event it had not seen then (but the undo's own line);
(b) an undo never crosses a checkpoint: with nothing recorded it is refused with cannot_undo, changing nothing,
    and "turn" goes back exactly to the first recorded pick, never further;
(c) the stored picks replayed as the server replays them (games/web/replay.py) give the stored state;
(d) no fishing: taking back a pick and making it again gives the state of not taking it back.

Deterministic (derandomized, no example database) and sized to run in well under a minute on SQLite.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass, field

import pytest
import os

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.engines.registry import get_engine
from games.errors import ErrorCode, GameError
from games.models import Event, Game, GameStatus, Submission, TakeBack
from games.web.replay import state_after_step
from tests.factories import make_started_game

from .helpers import is_checkpoint, open_prompt, pick, resolve_all, undo

pytestmark = pytest.mark.django_db

# (engine, players, options): Faltisia's simultaneous steps with 2 and 3 seats, its Solo Mode and the Battle for
# London; Miskatonic and Mage Knight, one seat at a time (Mage Knight solo and with two heroes).
GAMES = {
    "faltisia-2": ("faltisia", 2, {}),
    "faltisia-3": ("faltisia", 3, {}),
    "faltisia-solo": ("faltisia", 1, {"solo": "easy"}),
    "faltisia-london": ("faltisia", 2, {"expansion": "battle_for_london"}),
    "miskatonic": ("miskatonic", 2, {}),
    "mage_knight-1": ("mage_knight", 1, {}),
    "mage_knight-2": ("mage_knight", 2, {}),
}

KINDS = ("free", "free", "free", "any", "any", "undo", "undo", "turn", "named", "again")
ACTIONS = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 5), st.integers(0, 63)), min_size=8, max_size=28)
PROPERTY = settings(max_examples=int(os.environ.get("UNDO_EXAMPLES", "4")),
                    phases=tuple(Phase) if os.environ.get("UNDO_SHRINK", "1") == "1" else (Phase.explicit, Phase.generate),
                    deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


TALLY: Counter = Counter()  # how often each check ran (UNDO_TALLY=1 prints it)


def _frozen(value) -> str:
    return json.dumps(value, sort_keys=True)


@dataclass
class Point:
    """What the test recorded just before a pick it may take back."""

    prompt_id: str
    option_id: str
    state: str  # the whole state, JSON (the generator included)
    view: str  # the seat's view
    events: frozenset[int]  # every event id stored then
    others: list[int] = field(default_factory=list)  # events other seats' picks stored since


class Model:
    """The take-backs the rule allows, kept apart from the server's TakeBack rows."""

    def __init__(self, game: Game):
        self.game = game
        self.engine = get_engine(game.engine)
        self.points: dict[int, list[Point]] = {p: [] for p in range(game.players)}
        self.other_picked: dict[int, bool] = {p: False for p in range(game.players)}

    def state(self) -> dict:
        self.game.refresh_from_db()
        return self.game.state

    def event_ids(self) -> set[int]:
        return set(Event.objects.filter(game=self.game).values_list("id", flat=True))

    def pick(self, position: int, option_id: str) -> dict:
        """Make the pick through the service and update the record; the state after it."""
        before = copy.deepcopy(self.state())
        phase, row = self.game.phase, open_prompt(self.game, position)
        key = self.engine.checkpoint_key(before, position)
        events = self.event_ids()
        point = Point(row.prompt_id, option_id, _frozen(before), _frozen(self.engine.view(before, position)),
                      frozenset(events))
        pick(self.game, position, option_id)
        after = self.state()
        added = self.event_ids() - events
        step_over = (self.game.phase != phase or self.game.resolve_requested_at is not None
                     or self.game.status != GameStatus.ACTIVE or self.engine.is_over(after))
        if step_over:
            for p in self.points:
                self.points[p] = []
                self.other_picked[p] = False
        elif self.engine.checkpoint_key(after, position) != key:
            TALLY[self.game.engine, "checkpoint mid-step", bool(self.points[position])] += 1
            self.points[position] = []
            self.other_picked[position] = False
        else:
            self.points[position].append(point)
        for p, pts in self.points.items():
            if p != position and pts:
                self.other_picked[p] = True
                for q in pts:
                    q.others.extend(added)
        resolve_all(self.game)
        self.check_rows()
        return after

    def check_rows(self) -> None:
        """(b) at every moment: the server's take-back points are exactly the picks the rule allows, no checkpoint
        among them, each keeping the state recorded before its pick (unless another seat moved since)."""
        for p, pts in self.points.items():
            rows = TakeBack.objects.filter(game=self.game, seat__position=p).select_related("submission")
            rows = [r for r in rows if r.phase == self.game.phase]
            assert [(r.submission.prompt_id, r.submission.option_id) for r in rows] == [
                (q.prompt_id, q.option_id) for q in pts], f"seat {p}: the server's take-backs are not the rule's"
            if not self.other_picked[p]:
                assert [_frozen(json.loads(r.state)) for r in rows] == [q.state for q in pts]

    def undo(self, position: int, *, to: str, named: int | None = None) -> None:
        """Undo through the service and check (a) and (b) against the record."""
        points = self.points[position]
        row = open_prompt(self.game, position)
        if named is not None and points:
            index = named % len(points)
            prompt_id = points[index].prompt_id
            index = max(i for i, q in enumerate(points) if q.prompt_id == prompt_id)  # the latest with that id
        elif row is not None:
            prompt_id, index = row.prompt_id, len(points) - 1
        elif points:
            prompt_id, index = points[-1].prompt_id, len(points) - 1
        else:
            return  # nothing open and nothing answered that the test knows of
        if to == "turn":
            index = 0
        before = copy.deepcopy(self.state())
        events = self.event_ids()
        subs = Submission.objects.filter(game=self.game).count()
        if not points:
            TALLY[self.game.engine, "refused"] += 1
            with pytest.raises(GameError) as e:
                undo(self.game, position, prompt_id=prompt_id, to=to)
            assert e.value.code == ErrorCode.CANNOT_UNDO, e.value  # (b): a checkpoint, or nothing picked
            assert _frozen(self.state()) == _frozen(before) and self.event_ids() == events
            assert Submission.objects.filter(game=self.game).count() == subs
            return
        target = points[index]
        TALLY[self.game.engine, "undone"] += 1
        outcome = undo(self.game, position, prompt_id=prompt_id, to=to)
        assert outcome.undo.moves == len(points) - index  # (b): back to the point asked for, never further
        after = self.state()
        recorded = json.loads(target.state)
        if self.engine.is_step_complete(after) or self.game.resolve_requested_at is not None:
            pytest.fail("an undo completed the step")
        if not self.other_picked[position]:
            assert _frozen(after) == target.state  # (a): the recorded state, generator included
            assert _frozen(self.engine.view(after, position)) == target.view
        else:  # a simultaneous step: the seat's own part is restored and nothing else changes
            TALLY[self.game.engine, "merged"] += 1
            assert _frozen(after["seats"][position]) == _frozen(recorded["seats"][position])
            rest = lambda s: [{k: v for k, v in s.items() if k != "seats"},  # noqa: E731
                              [x for i, x in enumerate(s["seats"]) if i != position]]
            assert _frozen(rest(after)) == _frozen(rest(before))  # the generator included
        new = self.event_ids() - (target.events | set(target.others))
        assert all(e.data.get("action") == "undo" for e in Event.objects.filter(pk__in=new)), "an undo revealed"
        assert open_prompt(self.game, position).prompt_id == target.prompt_id  # the answered prompt reopens
        del points[index:]
        if not points:
            self.other_picked[position] = False
        for p, pts in self.points.items():  # the others' recorded states held the picks this undo took back
            if p != position and pts:
                self.other_picked[p] = True
        self.check_rows()


def _seat_to_move(game: Game, who: int) -> int | None:
    seats = [p for p in range(game.players) if open_prompt(game, p) is not None]
    return seats[who % len(seats)] if seats else None


def _free_options(game: Game, position: int) -> list[str]:
    row = open_prompt(game, position)
    return [o["id"] for o in row.options if not is_checkpoint(game.engine, game.state, position, o["id"])]


def _play(name: str, seed: int, warm: int, actions) -> None:
    slug, players, options = GAMES[name]
    game, _ = make_started_game(players=players, engine=slug, options=options, seed=seed)
    model = Model(game)
    # First some random legal picks (deeper into the game, where checkpoints come mid-turn), then the actions.
    for kind, who, n in [("any", i, (seed >> (i % 16)) + i) for i in range(warm)] + actions:
        model.state()
        if game.status != GameStatus.ACTIVE:
            break
        if kind in ("undo", "turn", "named"):
            position = who % players
            model.undo(position, to="turn" if kind == "turn" else "last", named=n if kind == "named" else None)
            continue
        position = _seat_to_move(game, who)
        if position is None:
            resolve_all(game)
            continue
        options_now = open_prompt(game, position).options
        free = _free_options(game, position) if kind != "any" else []
        option = free[n % len(free)] if free else options_now[n % len(options_now)]["id"]
        if kind == "again" and free:  # (d): take back and pick the same again
            once = _frozen(model.pick(position, option))
            if model.points[position] and model.points[position][-1].option_id == option:
                model.undo(position, to="last")
                assert _frozen(model.pick(position, option)) == once  # no fishing
                TALLY[slug, "again"] += 1
            continue
        model.pick(position, option)
    game.refresh_from_db()
    assert _frozen(state_after_step(game=game, phase=10 ** 9)) == _frozen(game.state)  # (c)


@pytest.mark.parametrize("name", list(GAMES))
@PROPERTY
@given(seed=st.integers(0, 10 ** 6), warm=st.integers(0, 24), actions=ACTIONS)
def test_random_picks_and_undos_follow_the_rule(name, seed, warm, actions):
    _play(name, seed, warm, actions)


def teardown_module(module):
    if os.environ.get("UNDO_TALLY"):
        print(sorted(TALLY.items()))
