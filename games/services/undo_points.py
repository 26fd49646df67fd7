"""Take-back points: on every player's pick, keep what an undo would restore, or clear what a checkpoint
or the step's end made moot (games/services/undo.py says how an undo uses them)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..models import HUMAN_SOURCES, Game, GameStatus, Prompt, Submission, TakeBack
from ..fastpath.sql_rows import ModelColumns, fetch_all, insert_statement, new, quoted, statement, table
from .turn import Turn


@dataclass
class PickWatch:
    """What a player's pick write keeps before the pick, to decide afterwards whether it can be taken back."""

    key: Any  # engine.checkpoint_key before the pick (None: the game takes nothing back)
    state_text: str
    events_mark: int
    label: str
    text: str
    bank_seconds: float | None  # the seat's time bank before the pick (a bank clock)


def pick_watch(turn: Turn, position: int, row: Prompt, option_id: str) -> PickWatch | None:
    """Before a player's pick: the checkpoint key and the state to go back to (None if the game takes nothing back)."""
    key = turn.engine.checkpoint_key(turn.state, position)
    if key is None:
        return None
    text = turn.state_text if turn.state_text is not None else json.dumps(turn.state)
    label = next((o["label"] for o in row.options if o["id"] == option_id), option_id)
    return PickWatch(key=key, state_text=text, events_mark=len(turn.stored_events), label=label[:300],
                     text=row.text, bank_seconds=turn.seats[position].bank_seconds)


def _delete_take_backs(turn: Turn, *, seat_id: int | None = None) -> None:
    game_id = turn.game.pk
    where = f"{quoted('game_id')} = %s" + (f" AND {quoted('seat_id')} = %s" if seat_id is not None else "")
    sql = statement(("take_backs_delete", seat_id is None), lambda: f"DELETE FROM {table(TakeBack)} WHERE {where}")
    turn.write(sql, [game_id] if seat_id is None else [game_id, seat_id])  # held: Turn.held_writes


def pick_record(turn: Turn, position: int, submission: Submission, watch: PickWatch | None, *, source: str) -> None:
    """After the pick's write (its automatic follow-ups and step check done): store it as a take-back point, or
    clear what it ended (a checkpoint: the seat's points; the step's end: the game's)."""
    if watch is None:
        return
    game, seat = turn.game, turn.seats[position]
    if turn.resolution_requested or turn.engine.is_over(turn.state) or game.status != GameStatus.ACTIVE:
        _delete_take_backs(turn)
        return
    if source not in HUMAN_SOURCES or turn.engine.checkpoint_key(turn.state, position) != watch.key:
        _delete_take_backs(turn, seat_id=seat.pk)
        return
    point = new(TakeBack, game=game, seat=seat, phase=submission.phase, submission=submission, state=watch.state_text,
                event_ids=[e.pk for e in turn.stored_events[watch.events_mark:]], label=watch.label,
                prompt_text=watch.text, bank_seconds=watch.bank_seconds)
    turn.write(*insert_statement([point]))  # with the game row's UPDATE (Turn.held_writes)


# Without the state (an engine state's JSON text, kilobytes): an undo reads only the one it goes back to
# (take_back_state), the page's buttons none.
_TAKE_BACK = ModelColumns(TakeBack, "t", [f.name for f in TakeBack._meta.concrete_fields if f.name != "state"])
_SUBMISSION = ModelColumns(Submission, "s")
_PROMPT_CLOCK = ModelColumns(Prompt, "p", ["id", "deadline", "opened_at"])


def _take_backs_sql() -> str:
    q = quoted
    return (f"SELECT {_TAKE_BACK.sql()}, {_SUBMISSION.sql()}, {_PROMPT_CLOCK.sql()} FROM {table(TakeBack)} t"
            f" JOIN {table(Submission)} s ON s.{q('id')} = t.{q('submission_id')}"
            f" JOIN {table(Prompt)} p ON p.{q('id')} = s.{q('prompt_row_id')}"
            f" WHERE t.{q('game_id')} = %s AND t.{q('seat_id')} = %s AND t.{q('phase')} = %s ORDER BY t.{q('id')}")


def take_backs_for_seat(*, game: Game, seat_id: int) -> list[TakeBack]:
    """The seat's picks it may take back now, oldest first (empty when nothing can be), each with its submission
    and the deadline and opening time of the prompt it answered (``point.submission.prompt_row``) but not its state
    (take_back_state), in one hand-written query (sql_rows: an undo runs it under the game's lock, and every view
    of the seat's page for its buttons)."""
    points = []
    for row in fetch_all(statement("take_backs_for_seat", _take_backs_sql), [game.pk, seat_id, game.phase]):
        point = _TAKE_BACK.instance(row)
        point.submission = _SUBMISSION.instance(row, len(_TAKE_BACK))
        point.submission.prompt_row = _PROMPT_CLOCK.instance(row, len(_TAKE_BACK) + len(_SUBMISSION))
        points.append(point)
    return points


def take_back_state(point: TakeBack) -> str:
    """The engine state (JSON text) the take-back point goes back to."""
    return TakeBack.objects.values_list("state", flat=True).get(pk=point.pk)


def undo_offer(*, game: Game, seat_id: int) -> dict[str, Any] | None:
    """What the seat's Undo buttons would take back, for its own page: ``{"last": label, "moves": n}``, or None."""
    if game.status != GameStatus.ACTIVE:
        return None
    points = take_backs_for_seat(game=game, seat_id=seat_id)
    if not points:
        return None
    return {"last": points[-1].label, "last_prompt": points[-1].submission.prompt_id, "moves": len(points)}
