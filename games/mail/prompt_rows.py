"""The prompts a prompt-mail run looks at, with everything it decides by, in one hand-written query (the fast path's sql_rows: games/fastpath/README.md).

Every resolution and every prompt sweep asks which of some prompts a mail is owed for: the prompt with its
game, seat, player, the player's preferences and the seat's mailbox, and five facts beside them (the seat's
previous pick in the step, the game's own mail mode, the player's last sign on the page, their latest pick on
the page, whether an answer to a reply carried the prompt). Built by the ORM, that query cost 2.7 ms of CPU to
build and compile each time, most of the mail worker's prompt task (py-spy under the load benchmark); for a
resolution's four prompts the ORM's query took 4.0 ms of CPU in all, this one 0.7 ms (PostgreSQL). The
instances come back as ``select_related`` would leave them, the five facts as the attributes the ORM's
annotations were named by.
"""

from __future__ import annotations

from datetime import datetime

from accounts.models import GamePresence, GamePromptMail, NotificationPreferences, User
from games.models import Game, GameStatus, Prompt, Seat, Submission, SubmissionSource
from games.fastpath.sql_rows import ModelColumns, column_value, db_value, fetch_all, quoted, statement, table

from .models import Notification, NotificationKind, SeatMailbox

_PROMPT = ModelColumns(Prompt, "p")
_GAME = ModelColumns(Game, "g")
_SEAT = ModelColumns(Seat, "s")
_USER = ModelColumns(User, "u")
_PREFERENCES = ModelColumns(NotificationPreferences, "np")
_MAILBOX = ModelColumns(SeatMailbox, "mb")
_COLUMNS = (_PROMPT, _GAME, _SEAT, _USER, _PREFERENCES, _MAILBOX)


def _sql(n_ids: int) -> str:
    q = quoted
    facts = [
        # previous_source: the seat's latest pick in the prompt's step, not the server's forced ones ("": none)
        f"COALESCE((SELECT b.{q('source')} FROM {table(Submission)} b WHERE b.{q('phase')} = p.{q('phase')}"
        f" AND b.{q('seat_id')} = p.{q('seat_id')} AND b.{q('source')} <> %s ORDER BY b.{q('id')} DESC LIMIT 1), '')",
        # own_mode: the game's own choice of prompt mails ("": none)
        f"COALESCE((SELECT m.{q('mode')} FROM {table(GamePromptMail)} m WHERE m.{q('game_id')} = p.{q('game_id')}"
        f" AND m.{q('user_id')} = s.{q('user_id')} LIMIT 1), '')",
        # seen_at: the player's last sign on the game's page
        f"(SELECT gp.{q('seen_at')} FROM {table(GamePresence)} gp WHERE gp.{q('game_id')} = p.{q('game_id')}"
        f" AND gp.{q('user_id')} = s.{q('user_id')} LIMIT 1)",
        # web_pick_at: the seat's latest pick on the page
        f"(SELECT w.{q('created_at')} FROM {table(Submission)} w WHERE w.{q('seat_id')} = p.{q('seat_id')}"
        f" AND w.{q('source')} = %s ORDER BY w.{q('id')} DESC LIMIT 1)",
        # carried: an answer to an email reply carried the prompt
        f"EXISTS (SELECT 1 FROM {table(Notification)} n WHERE n.{q('kind')} = %s AND n.{q('prompt_id')} = p.{q('id')})",
    ]
    return (f"SELECT {', '.join(c.sql() for c in _COLUMNS)}, {', '.join(facts)}"
            f" FROM {table(Prompt)} p"
            f" JOIN {table(Game)} g ON g.{q('id')} = p.{q('game_id')}"
            f" JOIN {table(Seat)} s ON s.{q('id')} = p.{q('seat_id')}"
            f" LEFT JOIN {table(User)} u ON u.{q('id')} = s.{q('user_id')}"
            f" LEFT JOIN {table(NotificationPreferences)} np ON np.{q('user_id')} = u.{q('id')}"
            f" LEFT JOIN {table(SeatMailbox)} mb ON mb.{q('seat_id')} = s.{q('id')}"
            f" WHERE p.{q('id')} IN ({', '.join(['%s'] * n_ids)}) AND p.{q('closed_at')} IS NULL"
            f" AND g.{q('status')} = %s ORDER BY p.{q('id')}")


def open_prompts_for_mail(prompt_ids: list[int]) -> list[Prompt]:
    """Of ``prompt_ids``, the prompts still open in active games, in id order, each with ``game``, ``seat``,
    ``seat.user``, the user's ``notification_preferences`` and the seat's ``mailbox`` loaded (a missing one
    raises DoesNotExist, as after select_related), and ``previous_source``, ``own_mode``, ``seen_at``,
    ``web_pick_at`` and ``carried`` set."""
    if not prompt_ids:
        return []
    ids = sorted(set(prompt_ids))
    sql = statement(("open_prompts_for_mail", len(ids)), lambda: _sql(len(ids)))
    params = [SubmissionSource.FORCED, SubmissionSource.WEB, NotificationKind.ANSWER, *ids, GameStatus.ACTIVE]
    prompts = []
    for row in fetch_all(sql, params):
        start, parts = 0, []
        for columns in _COLUMNS:
            parts.append(columns.instance(row, start))
            start += len(columns)
        prompt, game, seat, user, preferences, mailbox = parts
        prompt.game, prompt.seat, seat.game, seat.user = game, seat, game, user
        Seat.mailbox.related.set_cached_value(seat, mailbox)
        if mailbox is not None:
            SeatMailbox.seat.field.set_cached_value(mailbox, seat)
        if user is not None:
            User.notification_preferences.related.set_cached_value(user, preferences)
            if preferences is not None:
                NotificationPreferences.user.field.set_cached_value(preferences, user)
        previous_source, own_mode, seen_at, web_pick_at, carried = row[start:]
        prompt.previous_source, prompt.own_mode = previous_source, own_mode
        prompt.seen_at = column_value(GamePresence, "seen_at", seen_at)
        prompt.web_pick_at = column_value(Submission, "created_at", web_pick_at)
        prompt.carried = bool(carried)
        prompts.append(prompt)
    return prompts


def write_prompt_ids(*, game_id: int, opened_at: datetime) -> list[int]:
    """The ids of the game's prompts still open that one write opened (a write opens all its prompts at its own
    time, ``opened_at``), in order, through the partial index prompt_open_game_opened (its predicate word for
    word)."""
    q = quoted
    sql = statement("write_prompt_ids", lambda: (
        f"SELECT {q('id')} FROM {table(Prompt)} WHERE {q('game_id')} = %s AND {q('opened_at')} = %s"
        f" AND {q('closed_at')} IS NULL ORDER BY {q('id')}"))
    return [pk for (pk,) in fetch_all(sql, [game_id, db_value(Prompt, "opened_at", opened_at)])]
