"""The locked working set of one write to a game, and the steps every write shares.

Every write to a running game (a pick, a resolution, a deadline) loads a Turn with the game row
locked, changes the engine state through the protocol only, keeps the Prompt rows in step with what
the engine asks (auto-picking for bots and standing orders), and saves once at the end.

A pick is CPU-bound in the web process, and on this path compiling ORM queries costs more than the
database spends on them, so a Turn reads its working set in two hand-written queries (games/fastpath/sql_rows.py:
the game row, locked; the seats joined with their open prompt and whether a vacation could stretch
their deadlines), writes only rows and fields that changed, and opens or closes the prompts of one pass
over the seats in one statement each.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from ..bots import bot_pick
from ..engines.base import Engine, IllegalPick, State
from ..engines.base import Event as EngineEvent
from ..engines.registry import get_engine
from ..engines.wording import sentence
from ..errors import ErrorCode, GameError, NotAnOption
from ..models import HUMAN_SOURCES, BotReason, Event, Game, GameStatus, Prompt, Seat, Submission, SubmissionSource
from ..presentation.wording import seat_in_words
from ..selectors import loaded_open_prompt, seats_with_open_prompts, users_with_vacation_ahead
from ..fastpath.sql_rows import (ModelColumns, db_value, execute, execute_together, fetch_one, for_update, insert,
                                 new, quoted, statement, table, update_statement)
from ..version_events import announce_on_commit
from ..signals import OpenedPrompt, game_finished, game_finished_in_write, prompts_opened
from . import clock
from .enqueue import resolve_enqueue_on_commit, signal_on_commit

logger = logging.getLogger(__name__)

# A bound on auto-picks within one write, so a buggy engine cannot loop forever inside a lock.
MAX_AUTO_PICKS = 10_000

# The fields a Turn may change: turn_save writes these and nothing else (not the creator, the options,
# the clock settings... which another transaction may have changed meanwhile, e.g. game_pause).
TURN_GAME_FIELDS = ("state", "phase", "status", "result", "started_at", "finished_at", "resolve_requested_at",
                    "updated_at", "version")
TURN_SEAT_FIELDS = ("missed_deadlines", "extensions_used", "bank_seconds", "standing_orders", "is_bot",
                    "bot_reason", "bot_handed_by_id")


@dataclass
class Turn:
    game: Game
    engine: Engine
    seats: dict[int, Seat]  # position -> seat
    now: datetime
    open_prompts: dict[int, Prompt] = field(default_factory=dict)  # position -> open prompt row
    opened: list[Prompt] = field(default_factory=list)
    dirty_seats: set[int] = field(default_factory=set)
    resolution_requested: bool = False  # this write completed a step it did not resolve itself
    # position -> (phase, source) of the seat's last pick in this write: a prompt the seat is then asked in
    # the same step is the next pick of the decision it is making (prompts_opened's ``follow_up_of``)
    picked: dict[int, tuple[int, str]] = field(default_factory=dict)
    # user id -> has a vacation ending after ``now`` (read with the seats by turn_load)
    vacation_ahead: dict[int, bool] = field(default_factory=dict)
    # The engine state as the game row held it when loaded (its JSON text): what a take-back restores
    # (games/services/undo.py), kept without serialising the state again.
    state_text: str | None = None
    stored_events: list[Event] = field(default_factory=list)  # every event row this write inserted
    # position -> the clock (deadline, opened_at) of the prompt an undo reopens for the seat: a take-back buys
    # no time, so the reopened prompt is as due as it was before the picks it took back
    kept_clocks: dict[int, tuple[datetime | None, datetime]] = field(default_factory=dict)
    # Writes that return nothing, held to go with turn_save's UPDATE of the game in one statement (sql_rows
    # execute_together): None runs each at once. A player's pick holds them (its prompt's close and
    # its take-back point), which saves two of its six statements; writes_flush runs them before anything that
    # could see or conflict with them (a prompt opened, a signal inside the write).
    held_writes: list[tuple[str, list]] | None = None

    def write(self, sql: str, params: list) -> None:
        if self.held_writes is None:
            execute(sql, params)
        else:
            self.held_writes.append((sql, params))

    def may_be_away(self, user_id: int | None) -> bool:
        """Whether the player's vacations must be read to compute a deadline from ``now``.

        Vacations are rare: turn_load reads, with the seats, which of the game's players have any ahead
        (instead of one query per prompt opened); a player who is not seated yet costs one query.
        """
        if user_id is None:
            return False
        if user_id not in self.vacation_ahead:
            ids = {s.user_id for s in self.seats.values() if s.user_id is not None} | {user_id}
            away = users_with_vacation_ahead(user_ids=ids, now=self.now)
            self.vacation_ahead.update({i: i in away for i in ids})
        return self.vacation_ahead[user_id]

    @property
    def state(self) -> State:
        return self.game.state


def turn_load(*, game_id: int) -> Turn | None:
    """Lock the game row and load its seats and open prompts (None if the game is gone)."""
    game, state_text = _game_locked(game_id)
    if game is None:
        return None
    now = timezone.now()
    seats = {s.position: s for s in seats_with_open_prompts(game_id=game.pk, with_players=False, vacations_after=now)}
    turn = Turn(game=game, engine=get_engine(game.engine), seats=seats, now=now, state_text=state_text)
    for position, seat in seats.items():
        seat.game = game
        if seat.user_id is not None:
            # A deactivated account acts nowhere, so its vacations hold no deadline either.
            turn.vacation_ahead[seat.user_id] = seat.vacation_ahead and bool(seat.player_active)
        if loaded_open_prompt(seat) is not None:
            turn.open_prompts[position] = loaded_open_prompt(seat)
    return turn


def turn_load_for_player(*, game_id: int, user_id: int) -> tuple[Turn, int]:
    """``turn_load`` and the position of the seat ``user_id`` holds, found among the seats it loads anyway (no
    lookup before the lock). Raises Game.DoesNotExist for an unknown game, NOT_YOUR_SEAT without a seat."""
    turn = turn_load(game_id=game_id)
    if turn is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    position = next((p for p, s in turn.seats.items() if s.user_id == user_id), None)
    if position is None:
        raise GameError(ErrorCode.NOT_YOUR_SEAT, "you have no seat in this game")
    return turn, position


_GAME = ModelColumns(Game, "g")
_STATE_COLUMN = _GAME.attnames.index("state")


def _game_locked(game_id: int) -> tuple[Game | None, str | None]:
    """``Game.objects.select_for_update().filter(pk=game_id).first()``, without compiling it each time, and the
    state column's JSON text as read (None where the driver decoded it already)."""
    lock = for_update()  # checked on every call: a lock outside a transaction is a bug
    row = fetch_one(statement("game_locked", lambda: (
        f"SELECT {_GAME.sql()} FROM {table(Game)} g WHERE g.{quoted('id')} = %s{lock}")), [game_id])
    if row is None:
        return None, None
    text = row[_STATE_COLUMN]
    return _GAME.instance(row), text if isinstance(text, str) else None


def prompt_close(turn: Turn, position: int, *, answered: bool) -> None:
    prompts_close(turn, [position], answered=answered)


def prompts_close(turn: Turn, positions, *, answered: bool) -> None:
    """Close the open prompts of ``positions`` in one UPDATE."""
    rows = [turn.open_prompts.pop(p) for p in positions]
    if not rows:
        return
    for row in rows:
        row.closed_at, row.answered = turn.now, answered
    turn.write(statement(("prompts_close", len(rows)), lambda: (
        f"UPDATE {table(Prompt)} SET {quoted('closed_at')} = %s, {quoted('answered')} = %s"
        f" WHERE {quoted('id')} IN ({', '.join(['%s'] * len(rows))})")),
        [db_value(Prompt, "closed_at", turn.now), answered] + [r.pk for r in rows])


def events_store(turn: Turn, events, *, phase: int) -> list[Event]:
    if not events:
        return []
    rows = [new(Event, game=turn.game, phase=phase, text=e.text, data=dict(e.data),
                visibility=None if e.seats is None else list(e.seats)) for e in events]
    insert(rows)
    turn.stored_events.extend(rows)
    return rows


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
    if source == SubmissionSource.FORCED:
        events = [forced_pick_note(row, position=position, option_id=option_id), *events]
    events_store(turn, events, phase=phase)
    prompt_close(turn, position, answered=True)
    before = seat_turn_values(seat)
    clock.bank_after_pick(game=turn.game, seat=seat, opened_at=row.opened_at, now=turn.now,
                          timed_out=source == SubmissionSource.DEFAULT)
    if source in HUMAN_SOURCES:
        # The player is here: a seat a bot took over after repeated misses is theirs again (_submit refuses
        # a pick for a seat an admin handed to a bot), and everyone sees it in the log.
        seat.missed_deadlines = 0
        if seat.is_bot:
            seat.is_bot, seat.bot_reason, seat.bot_handed_by_id = False, BotReason.NONE, None
            Event.objects.create(game=turn.game, phase=phase, visibility=None,
                                 text=f"{seat_in_words(seat, capital=True)}: the player is back and took the seat "
                                      "from the bot.",
                                 data={"action": "reclaim", "seat": position, "by": "pick"})
    if seat_turn_values(seat) != before:  # most picks change nothing on the seat: no UPDATE then
        turn.dirty_seats.add(position)
    if source != SubmissionSource.FORCED:
        # A forced pick is not the player's: the prompt it opens next follows whatever they did before.
        turn.picked[position] = (phase, source)
    submission = new(Submission, game=turn.game, seat=seat, prompt_row=row, phase=phase, prompt_id=row.prompt_id,
                     option_id=option_id, idempotency_key=idempotency_key, source=source)
    insert([submission])
    return submission


def forced_pick_note(row: Prompt, *, position: int, option_id: str) -> EngineEvent:
    """The log line telling the seat (and only it) that its prompt's only option was picked for it.

    It says no more than the prompt the seat would have been shown, so it reveals nothing to anyone else.
    """
    label = next((o["label"] for o in row.options if o["id"] == option_id), option_id)
    # Two sentences, not one run-on line: "Your turn. Only one choice, picked for you: end turn."
    ending = "" if label.rstrip().endswith((".", "?", "!")) else "."
    return EngineEvent(f"{sentence(row.text)} Only one choice, picked for you: {label}{ending}", seats=(position,),
                       data={"action": "forced", "seat": position, "option": option_id})


def seat_turn_values(seat: Seat) -> tuple:
    return tuple(getattr(seat, f) for f in TURN_SEAT_FIELDS)


def auto_pick(turn: Turn, position: int, row: Prompt, *, may_force: bool = False) -> tuple[str, str] | None:
    """The pick a bot, the server (a prompt's only option) or the seat's standing orders make for a newly
    opened prompt, if any. ``may_force``: the prompt is newly opened and the engine did not ask for it to be
    shown anyway."""
    seat = turn.seats[position]
    if seat.is_bot:
        return bot_pick(slug=turn.game.engine, engine=turn.engine, state=turn.state, seat=position), \
            SubmissionSource.BOT
    if may_force and len(row.options) == 1:
        # Within the write that opened it: no mail, deadline or reminder, and no moment in which anyone
        # could see the seat "deciding" a choice it does not have.
        return row.options[0]["id"], SubmissionSource.FORCED
    if seat.player_active is False:
        return None  # a deactivated account's standing orders act no more than it does
    for order_id in seat.standing_orders or []:
        option_id = turn.engine.standing_order_pick(turn.state, position, order_id)
        if option_id is not None and option_id in row.option_ids():
            return option_id, SubmissionSource.STANDING
    return None


def prompts_sync(turn: Turn) -> None:
    """Make the open Prompt rows match what the engine asks now; bots, single options and standing orders
    answer.

    Each pass compares every seat's open row with ``engine.prompt``, closes the rows that no longer
    match in one UPDATE and opens the new ones in one INSERT (a resolution opens every seat's prompt
    at once); then at most one automatic pick is made and the pass repeats, since a pick may change
    what any seat is asked (a forced pick may open another single-option prompt: the loop, bounded by
    MAX_AUTO_PICKS, goes on until a real choice or the step's end).
    """
    unchecked: set[int] = set()  # newly opened prompts not yet offered to standing orders
    must_ask: set[int] = set()  # seats whose open prompt the engine marked ``ask_anyway``
    for _ in range(MAX_AUTO_PICKS):
        over = turn.engine.is_over(turn.state)
        wanted_by_seat = {p: None if over else turn.engine.prompt(turn.state, p) for p in sorted(turn.seats)}
        superseded = [p for p, wanted in wanted_by_seat.items()
                      if p in turn.open_prompts and (wanted is None or wanted.id != turn.open_prompts[p].prompt_id)]
        prompts_close(turn, superseded, answered=False)
        new_rows = []
        for position, wanted in wanted_by_seat.items():
            if wanted is None or position in turn.open_prompts:
                continue
            (must_ask.add if wanted.ask_anyway else must_ask.discard)(position)
            seat = turn.seats[position]
            opened_at = turn.now
            if position in turn.kept_clocks:
                deadline, opened_at = turn.kept_clocks.pop(position)
            else:
                bank_before = seat.bank_seconds
                deadline = clock.prompt_deadline(game=turn.game, seat=seat, now=turn.now,
                                                 may_be_away=turn.may_be_away(seat.user_id))
                if seat.bank_seconds != bank_before:
                    turn.dirty_seats.add(position)  # a time bank was initialised
            new_rows.append(new(Prompt, game=turn.game, seat=seat, prompt_id=wanted.id,
                                phase=turn.engine.step(turn.state), text=wanted.text,
                                options=[o.as_dict() for o in wanted.options], deadline=deadline, opened_at=opened_at))
        if new_rows:
            writes_flush(turn)  # a held close of the seat's previous prompt first (one open prompt per seat)
        insert(new_rows)
        for row in new_rows:
            turn.open_prompts[row.seat.position] = row
            turn.opened.append(row)
            unchecked.add(row.seat.position)
        candidates = sorted(p for p in turn.open_prompts if p in unchecked or turn.seats[p].is_bot)
        picked = False
        for position in candidates:
            newly_opened = position in unchecked
            unchecked.discard(position)
            auto = auto_pick(turn, position, turn.open_prompts[position],
                             may_force=newly_opened and position not in must_ask)
            if auto is not None:
                pick_apply(turn, position=position, option_id=auto[0], source=auto[1])
                picked = True
                break  # the state changed: look at every seat's prompt again
        if not picked:
            return
    raise RuntimeError(f"game {turn.game.pk}: more than {MAX_AUTO_PICKS} automatic picks in one write")


def writes_flush(turn: Turn) -> None:
    """Run the writes the turn holds (Turn.held_writes), before a statement or a reader that must see them."""
    if turn.held_writes:
        execute_together(turn.held_writes)
        turn.held_writes.clear()


def game_finish(turn: Turn) -> None:
    game = turn.game
    result = turn.engine.result(turn.state)
    game.result = result.as_dict() if result is not None else {}
    game.status = GameStatus.FINISHED
    game.finished_at = turn.now
    game.resolve_requested_at = None
    prompts_close(turn, list(turn.open_prompts), answered=False)
    writes_flush(turn)  # the receivers read the database
    game_finished_in_write.send(sender=None, game=game)
    signal_on_commit(game_finished, game=game)


def step_check(turn: Turn, *, resolve_later: bool = True) -> None:
    """Finish the game if it is over; if the step is complete, ask for its resolution: by the worker after the
    commit, or (``resolve_later`` False) by the caller within this write (resolution.step_resolve_in_write)."""
    game = turn.game
    if turn.engine.is_over(turn.state):
        if game.status != GameStatus.FINISHED:
            game_finish(turn)
        return
    if game.status == GameStatus.ACTIVE and turn.engine.is_step_complete(turn.state):
        if game.resolve_requested_at is None:
            game.resolve_requested_at = turn.now
        turn.resolution_requested = True
        if resolve_later:
            resolve_enqueue_on_commit(game_id=game.pk, phase=game.phase)


def turn_save(turn: Turn) -> None:
    """Save the game and changed seats (only the fields a turn changes); announce prompts still open at commit."""
    game = turn.game
    game.phase = turn.engine.step(turn.state) if game.state is not None else game.phase
    game.version += 1  # what GET /api/games/{id}/ shows may have changed (ETag); the row is locked
    writes = list(turn.held_writes or [])
    writes += [update_statement(turn.seats[position], TURN_SEAT_FIELDS) for position in sorted(turn.dirty_seats)]
    execute_together(writes + [update_statement(game, TURN_GAME_FIELDS)])
    announce_on_commit(game.pk)  # the requests waiting for the game to change wake (games/version_events.py)
    if turn.held_writes is not None:
        turn.held_writes.clear()
    position_of = {seat.pk: position for position, seat in turn.seats.items()}
    opened = []
    for row in turn.opened:
        if row.closed_at is None:
            phase, source = turn.picked.get(position_of[row.seat_id], (None, None))
            opened.append(OpenedPrompt(prompt=row, follow_up_of=source if phase == row.phase else None))
    if opened:
        signal_on_commit(prompts_opened, opened=opened)
