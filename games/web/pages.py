"""The game page's context: board, decision, who is deciding, history; shared by the page and its fragment."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse

from games.engines.registry import get_engine
from games.models import Game, GameStatus
from games.presentation.registry import presentation_for
from games.presentation.worded_events import worded_events_for_game
from games.selectors import events_for_user, game_view_for_seat, open_prompt_for_seat
from games.services import seat_web_seen_set
from games.services.undo_points import undo_offer

from games.invites import game_title, invite_url
from .selectors import Viewer, history_newest_first, page_version, seats_for_page, since_last_visit


def board_context(*, engine: str, view: dict[str, Any], seats: list[dict[str, Any]],
                  prompt_options: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The board template and its context for the game's view, from the game's presentation package."""
    return presentation_for(engine).board(view=view, seats=seats, prompt_options=prompt_options or [])


def game_context(*, request, game: Game, viewer: Viewer, visit: bool = False) -> dict[str, Any]:
    """The page's context; ``visit``: a full page load, which shows "since your last visit".

    Every rendering that shows the history (the page, its live fragment) moves the seat's "seen" marker,
    so what a player watched arrive live is not news at their next visit.
    """
    prompt = (open_prompt_for_seat(seat=viewer.seat)
              if viewer.is_player and game.status == GameStatus.ACTIVE else None)
    seats = seats_for_page(game=game)
    view = game_view_for_seat(game=game, seat=viewer.seat)
    started = game.state is not None
    board = board_context(engine=game.engine, view=view, seats=seats,
                          prompt_options=prompt.options if prompt else None) if started else None
    # Plain English with the players' names, seats 1-based as people count them.
    events = worded_events_for_game(events_for_user(game=game, user=request.user), game=game)
    since = since_last_visit(seat=viewer.seat, events=events) if visit else None
    if viewer.is_player and events:
        seat_web_seen_set(seat=viewer.seat, event_id=events[-1].pk)
    engine = get_engine(game.engine)
    orders = engine.standing_orders() if viewer.is_player else ()
    presentation = presentation_for(game.engine)
    return {
        "game": game, "title": game_title(game), "viewer": viewer, "seats": seats, "view": view,
        "prompt": prompt, "board": board, "started": started,
        # What the Undo buttons would take back; their prompt: the open one, else the one answered.
        "undo": _undo_buttons(game, viewer, prompt),
        "deciding": [s for s in seats if s["deciding"] and s["position"] != viewer.position],
        "history": history_newest_first(events, step_label=presentation.step_labeller(seats),
                                        opens_step=presentation.opens_step),
        "event_count": len(events), "since_last_visit": since,
        # Read from the game row loaded before everything above: never newer than what the page shows (a
        # write committed meanwhile only costs one more fragment at the next poll).
        "version": page_version(game=game, viewer=viewer, user=request.user),
        "live_url": reverse("web:game-live", args=[game.pk]),
        "poll_ms": settings.WEB_POLL_INTERVAL_MS,
        "invite_link": (invite_url(game=game, base_url=request.build_absolute_uri("/"))
                        if viewer.is_player and game.status == GameStatus.OPEN else None),
        "standing_orders": [{"id": o.id, "label": o.label, "on": o.id in (viewer.seat.standing_orders or [])}
                            for o in orders] if viewer.is_player else [],
        "waiting_for_players": view.get("waiting_for_players") if not started else 0,
        # The game's terms, explained where they appear; the list itself is in game.html.
        "glossary": presentation_for(game.engine).glossary(),
        "rules_url": reverse("web:game-rules", args=[game.engine]),
    }


def _undo_buttons(game: Game, viewer: Viewer, prompt) -> dict[str, Any] | None:
    if not viewer.is_player or game.status != GameStatus.ACTIVE:
        return None
    offer = undo_offer(game=game, seat_id=viewer.seat.pk)
    if offer is None:
        return None
    return {**offer, "prompt": prompt.prompt_id if prompt is not None else offer["last_prompt"]}
