"""The locked working set of one write to a game, and the steps every write shares.

Every write to a running game (a pick, a resolution, a deadline) loads a Turn with the game row
locked, changes the engine state through the protocol only, keeps the Prompt rows in step with what
the engine asks (auto-picking for bots and standing orders), and saves once at the end.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from ..bots import bot_pick
from ..engines.base import Engine, IllegalPick, State
from ..engines.registry import get_engine
from ..errors import NotAnOption
from ..models import HUMAN_SOURCES, Event, Game, GameStatus, Prompt, Seat, Submission, SubmissionSource
from ..signals import game_finished, prompt_opened
from . import clock
from .enqueue import resolve_enqueue_on_commit, signal_on_commit

logger = logging.getLogger(__name__)

# A bound on auto-picks within one write, so a buggy engine cannot loop forever inside a lock.
MAX_AUTO_PICKS = 10_000


@dataclass
class Turn:
    game: Game
    engine: Engine
    seats: dict[int, Seat]  # position -> seat
    now: datetime
    open_prompts: dict[int, Prompt] = field(default_factory=dict)  # position -> open prompt row
    opened: list[Prompt] = field(default_factory=list)
    dirty_seats: set[int] = field(default_factory=set)

    @property
    def state(self) -> State:
        return self.game.state


def turn_load(*, game_id: int) -> Turn | None:
    """Lock the game row and load its seats and open prompts (None if the game is gone)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        return None
    seats = {s.position: s for s in Seat.objects.filter(game=game).select_related("user")}
    turn = Turn(game=game, engine=get_engine(game.engine), seats=seats, now=timezone.now())
    for p in Prompt.objects.filter(game=game, closed_at__isnull=True):
        turn.open_prompts[seats_position(turn, p.seat_id)] = p
    return turn


def seats_position(turn: Turn, seat_id: int) -> int:
    for pos, seat in turn.seats.items():
        if seat.id == seat_id:
            return pos
    raise KeyError(seat_id)


def prompt_close(turn: Turn, position: int, *, answered: bool) -> None:
    row = turn.open_prompts.pop(position)
    row.closed_at = turn.now
    row.answered = answered
    row.save(update_fields=["closed_at", "answered"])


def events_store(turn: Turn, events, *, phase: int) -> list[Event]:
    rows = [Event(game=turn.game, phase=phase, text=e.text, data=dict(e.data),
                  visibility=None if e.seats is None else list(e.seats)) for e in events]
    return Event.objects.bulk_create(rows)


def pick_apply(turn: Turn, *, position: int, option_id: str, source: str,
               idempotency_key: str | None = None) -> Submission:
    """Apply one validated pick to the seat's open prompt and record it."""
    seat = turn.seats[position]
    row = turn.open_prompts[position]
    phase = turn.game.phase
    try:
        events = turn.engine.apply(turn.state, position, option_id)
    except IllegalPick as e:
        raise NotAnOption(str(e) or "that is not one of the offered options") from e
    events_store(turn, events, phase=phase)
    prompt_close(turn, position, answered=True)
    clock.bank_after_pick(game=turn.game, seat=seat, opened_at=row.opened_at, now=turn.now,
                          timed_out=source == SubmissionSource.DEFAULT)
    if source in HUMAN_SOURCES:
        # The player is here: a seat a bot took over after repeated misses is theirs again.
        seat.missed_deadlines = 0
        seat.is_bot = False
    turn.dirty_seats.add(position)
    return Submission.objects.create(game=turn.game, seat=seat, prompt_row=row, phase=phase, prompt_id=row.prompt_id,
                                     option_id=option_id, idempotency_key=idempotency_key, source=source)


def auto_pick(turn: Turn, position: int, row: Prompt) -> tuple[str, str] | None:
    """The pick a bot or the seat's standing orders make for a newly opened prompt, if any."""
    seat = turn.seats[position]
    if seat.is_bot:
        return bot_pick(slug=turn.game.engine, engine=turn.engine, state=turn.state, seat=position), \
            SubmissionSource.BOT
    for order_id in seat.standing_orders or []:
        option_id = turn.engine.standing_order_pick(turn.state, position, order_id)
        if option_id is not None and option_id in row.option_ids():
            return option_id, SubmissionSource.STANDING
    return None


def prompts_sync(turn: Turn) -> None:
    """Make the open Prompt rows match what the engine asks now; bots and standing orders answer."""
    unchecked: set[int] = set()  # newly opened prompts not yet offered to standing orders
    for _ in range(MAX_AUTO_PICKS):
        over = turn.engine.is_over(turn.state)
        for position in sorted(turn.seats):
            wanted = None if over else turn.engine.prompt(turn.state, position)
            current = turn.open_prompts.get(position)
            if current is not None and (wanted is None or wanted.id != current.prompt_id):
                prompt_close(turn, position, answered=False)
                current = None
            if wanted is not None and current is None:
                seat = turn.seats[position]
                row = Prompt.objects.create(
                    game=turn.game, seat=seat, prompt_id=wanted.id, phase=turn.engine.step(turn.state),
                    text=wanted.text, options=[o.as_dict() for o in wanted.options],
                    deadline=clock.prompt_deadline(game=turn.game, seat=seat, now=turn.now), opened_at=turn.now)
                turn.open_prompts[position] = row
                turn.opened.append(row)
                if seat.bank_seconds is not None:
                    turn.dirty_seats.add(position)  # a time bank may have been initialised
                unchecked.add(position)
        candidates = sorted(p for p in turn.open_prompts if p in unchecked or turn.seats[p].is_bot)
        picked = False
        for position in candidates:
            unchecked.discard(position)
            auto = auto_pick(turn, position, turn.open_prompts[position])
            if auto is not None:
                pick_apply(turn, position=position, option_id=auto[0], source=auto[1])
                picked = True
                break  # the state changed: look at every seat's prompt again
        if not picked:
            return
    raise RuntimeError(f"game {turn.game.pk}: more than {MAX_AUTO_PICKS} automatic picks in one write")


def game_finish(turn: Turn) -> None:
    game = turn.game
    result = turn.engine.result(turn.state)
    game.result = result.as_dict() if result is not None else {}
    game.status = GameStatus.FINISHED
    game.finished_at = turn.now
    game.resolve_requested_at = None
    for position in list(turn.open_prompts):
        prompt_close(turn, position, answered=False)
    signal_on_commit(game_finished, game=game)


def step_check(turn: Turn) -> None:
    """Finish the game if it is over; if the step is complete, ask for its resolution."""
    game = turn.game
    if turn.engine.is_over(turn.state):
        if game.status != GameStatus.FINISHED:
            game_finish(turn)
        return
    if game.status == GameStatus.ACTIVE and turn.engine.is_step_complete(turn.state):
        if game.resolve_requested_at is None:
            game.resolve_requested_at = turn.now
        resolve_enqueue_on_commit(game_id=game.pk, phase=game.phase)


def turn_save(turn: Turn) -> None:
    """Save the game and changed seats; announce prompts still open at commit."""
    game = turn.game
    game.phase = turn.engine.step(turn.state) if game.state is not None else game.phase
    game.save()
    for position in turn.dirty_seats:
        turn.seats[position].save()
    for row in turn.opened:
        if row.closed_at is None:
            signal_on_commit(prompt_opened, prompt=row)
