"""Reads. Everything a player sees goes through the engine's view and the events' visibility."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import User, Vacation

from .engines.registry import get_engine
from .models import Event, Game, GameStatus, Prompt, Seat
from .fastpath.sql_rows import ModelColumns, db_value, fetch_all, fetch_one, quoted, statement, table


def games_for_user(*, user: User) -> QuerySet[Game]:
    """Games the user plays in, and open public games with a free seat they may join."""
    joinable = Q(status=GameStatus.OPEN, is_public=True, seats__user__isnull=True, seats__is_bot=False)
    return (Game.objects.filter(Q(seats__user=user) | joinable).distinct().order_by("-id"))


def game_visible_to(*, game: Game, user: User, seats: list[Seat] | None = None) -> bool:
    """Public games are open to spectators; private ones only to their players and staff.

    ``seats``: the game's seats if the caller already read them (no query then).
    """
    if game.is_public or user.is_staff:
        return True
    if seats is not None:
        return _seat_of(seats, user) is not None
    return seat_for_user(game=game, user=user) is not None


def _seat_of(seats: list[Seat], user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((s for s in seats if s.user_id == user.pk), None)


def game_version_and_seat(*, game_id: int, user: User) -> tuple[int, bool, int | None] | None:
    """(the game's version, whether it is public, ``user``'s seat position or None); None if no such game.

    One small statement, sent as plain SQL: a blocking GET and every open game page run it every few
    tens of milliseconds or seconds, and compiling the equivalent ORM query costs several times the CPU of
    running it (benchmarks/conditional_get_cost.py).
    """
    sql = statement("game_version_and_seat", lambda: (
        f"SELECT g.{quoted('version')}, g.{quoted('is_public')}, s.{quoted('position')} FROM {table(Game)} g"
        f" LEFT JOIN {table(Seat)} s ON s.{quoted('game_id')} = g.{quoted('id')} AND s.{quoted('user_id')} = %s"
        f" WHERE g.{quoted('id')} = %s"))  # at most one row: constraint seat_one_per_user
    return fetch_one(sql, [user.pk, game_id])


def game_version_for_user(*, game_id: int, user: User) -> int | None:
    """The game's version if ``user`` may see the game; None if there is no such game or it is a private
    one without a seat of theirs (the same rule as ``game_visible_to``, so no outsider learns anything)."""
    row = game_version_and_seat(game_id=game_id, user=user)
    if row is None:
        return None
    version, is_public, position = row
    if not (is_public or user.is_staff or position is not None):
        return None
    return version


def seat_for_user(*, game: Game, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()


_SEAT = ModelColumns(Seat, "s")
_OPEN_PROMPT = ModelColumns(Prompt, "p")
_PLAYER = ModelColumns(User, "u", ["id", "username"])  # what a view shows of a player (others deferred)
_GAME = ModelColumns(Game, "g")
_CREATOR = ModelColumns(User, "c", ["id", "username"])


def seats_with_open_prompts(*, game_id: int, with_players: bool = True,
                            vacations_after: datetime | None = None) -> list[Seat]:
    """The game's seats in position order, each with its open prompt (``loaded_open_prompt``), in one
    hand-written query (sql_rows: this read is on every pick and every view).

    ``with_players`` also joins each seat's player, with only the id and username loaded (the read path
    shows usernames; the write path needs only ``user_id``). ``vacations_after`` also tells whether each
    seat's player has a vacation ending after that time (``seat.vacation_ahead``): only those players'
    deadlines can be stretched, and vacations are rare, so a write learns it here instead of in a query
    of its own. The write path (``vacations_after``) also reads whether the seat's player is an active account
    (``seat.player_active``; None for a seat without a player): a deactivated account acts nowhere.
    """
    with_vacations = vacations_after is not None
    sql = statement(("seats_with_open_prompts", with_players, with_vacations),
                    lambda: _seats_sql(with_players=with_players, with_vacations=with_vacations))
    params: list = [db_value(Vacation, "ends", vacations_after)] if with_vacations else []
    params.append(game_id)
    seats = []
    for row in fetch_all(sql, params):
        seat = _SEAT.instance(row)
        # The seat keeps its prompt; the prompt keeps only ``seat_id`` (no one reads a loaded open prompt's seat):
        # both ways would be a reference cycle, freed by the garbage collector instead of with the request.
        seat.open_prompt = _OPEN_PROMPT.instance(row, len(_SEAT))
        if with_players:
            seat.user = _PLAYER.instance(row, len(_SEAT) + len(_OPEN_PROMPT))
        if with_vacations:
            seat.player_active = row[-2]
            seat.vacation_ahead = bool(row[-1])
        seats.append(seat)
    return seats


def _seats_sql(*, with_players: bool, with_vacations: bool) -> str:
    columns = [_SEAT, _OPEN_PROMPT] + ([_PLAYER] if with_players else [])
    select = ", ".join(c.sql() for c in columns)
    if with_vacations:
        select += (f", (SELECT a.{quoted('is_active')} FROM {table(User)} a WHERE a.{quoted('id')} = s.{quoted('user_id')})"
                   f", EXISTS (SELECT 1 FROM {table(Vacation)} v WHERE v.{quoted('user_id')} = s.{quoted('user_id')}"
                   f" AND v.{quoted('ends')} > %s)")
    # At most one open prompt per seat (constraint prompt_one_open_per_seat): a to-one join.
    return (f"SELECT {select} FROM {table(Seat)} s"
            f" LEFT JOIN {table(Prompt)} p"
            f" ON p.{quoted('seat_id')} = s.{quoted('id')} AND p.{quoted('closed_at')} IS NULL"
            + (f" LEFT JOIN {table(User)} u ON u.{quoted('id')} = s.{quoted('user_id')}" if with_players else "")
            + f" WHERE s.{quoted('game_id')} = %s ORDER BY s.{quoted('position')}")


def game_with_creator(*, game_id: int) -> Game | None:
    """The game row with its creator's username (the view shows it), in one hand-written query."""
    sql = statement("game_with_creator", lambda: (
        f"SELECT {_GAME.sql()}, {_CREATOR.sql()} FROM {table(Game)} g"
        f" LEFT JOIN {table(User)} c ON c.{quoted('id')} = g.{quoted('created_by_id')} WHERE g.{quoted('id')} = %s"))
    row = fetch_one(sql, [game_id])
    if row is None:
        return None
    game = _GAME.instance(row)
    game.created_by = _CREATOR.instance(row, len(_GAME))
    return game


def users_with_vacation_ahead(*, user_ids, now: datetime) -> set[int]:
    """Of ``user_ids``, those with a vacation that ends after ``now`` (only theirs can stretch a deadline). A
    deactivated account's vacations stretch nothing: its seat falls to the game's missing-move policy."""
    return set(Vacation.objects.filter(user_id__in=list(user_ids), ends__gt=now, user__is_active=True)
               .values_list("user_id", flat=True))


def loaded_open_prompt(seat: Seat) -> Prompt | None:
    """The open prompt read with the seat by ``seats_with_open_prompts``."""
    return seat.open_prompt


def open_prompt_for_seat(*, seat: Seat) -> Prompt | None:
    """The seat's open prompt (at most one: constraint prompt_one_open_per_seat)."""
    sql = statement("open_prompt_for_seat", lambda: (
        f"SELECT {_OPEN_PROMPT.sql()} FROM {table(Prompt)} p"
        f" WHERE p.{quoted('seat_id')} = %s AND p.{quoted('closed_at')} IS NULL"))
    row = fetch_one(sql, [seat.pk])
    return None if row is None else _OPEN_PROMPT.instance(row)


def prompt_as_dict(prompt: Prompt | None) -> dict[str, Any] | None:
    if prompt is None:
        return None
    return {"id": prompt.prompt_id, "text": prompt.text, "options": prompt.options,
            "deadline": prompt.deadline.isoformat() if prompt.deadline else None}


def game_view_for_seat(*, game: Game, seat: Seat | None, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The engine's view for the seat (None: spectator); a lobby summary before the game starts.

    Computed from the stored snapshot alone: no query once the game has started.
    """
    if game.state is None:
        if seats is not None:
            taken = sum(1 for s in seats if s.user_id is not None or s.is_bot)
        else:
            taken = Seat.objects.filter(game=game).filter(Q(user__isnull=False) | Q(is_bot=True)).count()
        return {"waiting_for_players": game.players - taken}
    return get_engine(game.engine).view(game.state, None if seat is None else seat.position)


def seat_summary(seat: Seat, *, game: Game) -> dict[str, Any]:
    """A seat as every viewer sees it; ``deciding``: it has a decision open now (the page's "waiting for ...",
    public on every surface), read from the open prompt ``seats_with_open_prompts`` loaded with it. A client
    that watches the game needs to read the views only of the seats that decide."""
    return {"position": seat.position, "player": seat.user.username if seat.user else None, "is_bot": seat.is_bot,
            "missed_deadlines": seat.missed_deadlines,
            "deciding": game.status == GameStatus.ACTIVE and loaded_open_prompt(seat) is not None}


def game_detail_for_user(*, game: Game, user: User, seats: list[Seat] | None = None) -> dict[str, Any]:
    """GET /api/games/{id}/ for ``user``: with ``game.created_by`` selected and ``seats`` from
    ``seats_with_open_prompts`` (read here if not given), it costs no further query."""
    if seats is None:
        seats = list(seats_with_open_prompts(game_id=game.pk))
    seat = _seat_of(seats, user)
    prompt = loaded_open_prompt(seat) if seat is not None and game.status == GameStatus.ACTIVE else None
    return {
        "id": game.pk, "game": game.engine, "status": game.status, "phase": game.phase, "players": game.players,
        "options": game.options, "clock": game.clock, "is_public": game.is_public, "press": game.press,
        "created_by": game.created_by.username if game.created_by else None,
        "seat": None if seat is None else seat.position,
        "standing_orders": [] if seat is None else seat.standing_orders,
        "seats": [seat_summary(s, game=game) for s in seats],
        "view": game_view_for_seat(game=game, seat=seat, seats=seats),
        "prompt": prompt_as_dict(prompt),
        "result": game.result,
    }


def game_summary(*, game: Game) -> dict[str, Any]:
    return {"id": game.pk, "game": game.engine, "status": game.status, "phase": game.phase,
            "players": game.players, "is_public": game.is_public}


def events_for_user(*, game: Game, user: User) -> list[Event]:
    """Events the caller may see, oldest first (visibility filtered here, for every database)."""
    seat = seat_for_user(game=game, user=user)
    position = None if seat is None else seat.position
    return [e for e in Event.objects.filter(game=game).order_by("id") if e.visible_to(position)]


def event_as_dict(event: Event) -> dict[str, Any]:
    return {"id": event.pk, "phase": event.phase, "text": event.text, "data": event.data,
            "created_at": event.created_at.isoformat()}

