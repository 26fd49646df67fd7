"""Reads. Everything a player sees goes through the engine's view and the events' visibility."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import User

from .engines.registry import get_engine
from .models import Event, Game, GameStatus, Prompt, Seat


def games_for_user(*, user: User) -> QuerySet[Game]:
    """Games the user plays in, and open public games with a free seat they may join."""
    joinable = Q(status=GameStatus.OPEN, is_public=True, seats__user__isnull=True, seats__is_bot=False)
    return (Game.objects.filter(Q(seats__user=user) | joinable).distinct().order_by("-id"))


def game_visible_to(*, game: Game, user: User) -> bool:
    """Public games are open to spectators; private ones only to their players and staff."""
    return game.is_public or user.is_staff or seat_for_user(game=game, user=user) is not None


def seat_for_user(*, game: Game, user: User) -> Seat | None:
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()


def open_prompt_for_seat(*, seat: Seat) -> Prompt | None:
    return Prompt.objects.filter(seat=seat, closed_at__isnull=True).first()


def prompt_as_dict(prompt: Prompt | None) -> dict[str, Any] | None:
    if prompt is None:
        return None
    return {"id": prompt.prompt_id, "text": prompt.text, "options": prompt.options,
            "deadline": prompt.deadline.isoformat() if prompt.deadline else None}


def game_view_for_seat(*, game: Game, seat: Seat | None) -> dict[str, Any]:
    """The engine's view for the seat (None: spectator); a lobby summary before the game starts."""
    if game.state is None:
        taken = Seat.objects.filter(game=game).filter(Q(user__isnull=False) | Q(is_bot=True)).count()
        return {"waiting_for_players": game.players - taken}
    return get_engine(game.engine).view(game.state, None if seat is None else seat.position)


def seats_summary(*, game: Game) -> list[dict[str, Any]]:
    return [{"position": s.position, "player": s.user.username if s.user else None, "is_bot": s.is_bot,
             "missed_deadlines": s.missed_deadlines}
            for s in Seat.objects.filter(game=game).select_related("user").order_by("position")]


def game_detail_for_user(*, game: Game, user: User) -> dict[str, Any]:
    seat = seat_for_user(game=game, user=user)
    prompt = open_prompt_for_seat(seat=seat) if seat is not None and game.status == GameStatus.ACTIVE else None
    return {
        "id": game.pk, "game": game.engine, "status": game.status, "phase": game.phase, "players": game.players,
        "options": game.options, "clock": game.clock, "is_public": game.is_public,
        "created_by": game.created_by.username if game.created_by else None,
        "seat": None if seat is None else seat.position,
        "standing_orders": [] if seat is None else seat.standing_orders,
        "seats": seats_summary(game=game),
        "view": game_view_for_seat(game=game, seat=seat),
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

