"""Whether a write owes a mail task at all: the seats' mail choices of one game, read in one query.

A task that finds nothing to do costs the mail worker more than the query that tells it is not needed (a
Celery task's receipt, hand-over and acknowledgement: ~3 ms of CPU under the load benchmark, against ~0.2 ms
for this query in the process that made the write). So a write asks first:

    prompt_task_owed(...)  an email due at once among the prompts it opened: a player who wants every decision
                           mailed (a "when away" email waits MAIL_PROMPT_DELAY_SECONDS, and the prompt sweep
                           finds it through its index once due, if it is still open; with no delay it is due now)
    result_job_owed(...)   a seat whose player reads a result email per step

The rules are the mail layer's own, applied to the same rows: prompt_owed.prompt_owed (the one rule the prompt
mails apply too, so the two cannot disagree: tests/mail/test_owed.py) and recipients.reads_results. The job or
task re-reads them when it runs, so a choice changed in between is honoured there.
"""

from __future__ import annotations

from collections.abc import Iterable

from accounts.models import GamePromptMail, NotificationPreferences, User
from games.models import Game, Seat
from games.fastpath.sql_rows import ModelColumns, fetch_all, quoted, statement, table

from . import wants
from .prompt_owed import prompt_owed
from .recipients import mailable, reads_results

_SEAT = ModelColumns(Seat, "s", ["id", "game_id", "user_id", "is_bot"])
_USER = ModelColumns(User, "u", ["id", "is_active", "email", "email_verified_at"])
_PREFERENCES = ModelColumns(NotificationPreferences, "np")
_COLUMNS = (_SEAT, _USER, _PREFERENCES)


def _sql() -> str:
    q = quoted
    own_mode = (f"COALESCE((SELECT m.{q('mode')} FROM {table(GamePromptMail)} m WHERE m.{q('game_id')} = s.{q('game_id')}"
                f" AND m.{q('user_id')} = s.{q('user_id')} LIMIT 1), '')")
    return (f"SELECT {', '.join(c.sql() for c in _COLUMNS)}, {own_mode}"
            f" FROM {table(Seat)} s"
            f" JOIN {table(User)} u ON u.{q('id')} = s.{q('user_id')}"
            f" LEFT JOIN {table(NotificationPreferences)} np ON np.{q('user_id')} = u.{q('id')}"
            f" WHERE s.{q('game_id')} = %s ORDER BY s.{q('id')}")


def _mailable_seats(game: Game) -> list[Seat]:
    """The game's seats whose player game mail may reach, each with ``user``, the user's preferences and
    ``own_mode`` (the game's own choice of prompt mails, "" if none) loaded. Read once per write: a
    resolution asks both questions of the same game instance (its turn's), so the answer is kept on it."""
    seats = getattr(game, "_owed_mailable_seats", None)
    if seats is None:
        seats = game._owed_mailable_seats = _seats_read(game.pk)
    return seats


def _seats_read(game_id: int) -> list[Seat]:
    seats = []
    for row in fetch_all(statement("owed_seats", _sql), [game_id]):
        start, parts = 0, []
        for columns in _COLUMNS:
            parts.append(columns.instance(row, start))
            start += len(columns)
        seat, user, preferences = parts
        seat.user, seat.own_mode = user, row[start]
        User.notification_preferences.related.set_cached_value(user, preferences)
        if mailable(seat) is not None:
            seats.append(seat)
    return seats


def prompt_task_owed(*, game: Game, seat_ids: Iterable[int]) -> bool:
    """Whether an email of these newly opened prompts of the game is due now (see the module's docstring)."""
    if not wants.prompt_delay():
        return True  # every prompt mailed is due at once
    seat_ids = set(seat_ids)

    def mailed_at_once(seat: Seat) -> bool:
        return prompt_owed(seat, own_mode=seat.own_mode).at_once

    return any(seat.pk in seat_ids and mailed_at_once(seat) for seat in _mailable_seats(game))


def result_job_owed(*, game: Game) -> bool:
    """Whether a seat of the game reads a result email per step (email_results, not a digest)."""
    return any(reads_results(seat) for seat in _mailable_seats(game))
