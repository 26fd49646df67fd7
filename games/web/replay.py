"""Replay a game from its log: the board after each step, rebuilt through the engine protocol only.

An engine is a deterministic function of (players, options, seed, ordered picks), and every pick that
changed the state is a Submission row (players, deadline defaults, bots, standing orders alike), so
applying them in order and resolving each complete step reproduces the game. The frame for step N is
the state right after step N resolved, shown through ``view(state, seat)`` like any live page.
"""

from __future__ import annotations

import logging
from typing import Any

from games.engines.base import IllegalPick
from games.engines.registry import get_engine
from games.models import Game, Seat, Submission

logger = logging.getLogger(__name__)


def state_after_step(*, game: Game, phase: int) -> dict[str, Any] | None:
    """The engine state right after step ``phase`` resolved (or the last state, if it never did).

    None if the log does not replay (a changed engine, a corrupt row): the page then shows events only.
    """
    engine = get_engine(game.engine)
    try:
        state = engine.new_game(players=game.players, options=game.options, seed=game.seed)
        picks = Submission.objects.filter(game=game).order_by("id").values_list("seat__position", "option_id")
        for position, option_id in picks.iterator():
            if engine.step(state) > phase or engine.is_over(state):
                break
            engine.apply(state, position, option_id)
            if engine.is_step_complete(state):
                engine.resolve(state)
        return state
    except (IllegalPick, ValueError, KeyError, IndexError, TypeError) as e:
        logger.warning("game %s does not replay at step %s: %s", game.pk, phase, e)
        return None


def replay_seat(requested: str | None, *, default: int | None, players: int) -> int | None:
    """Whose view the replay shows: ``?as=<position>`` if it names a seat, else the viewer's own."""
    try:
        position = int(requested)
    except (TypeError, ValueError):
        return default
    return position if 0 <= position < players else default


HOW_PICKED = {"web": "on the web", "api": "through the API", "email": "by email",
              "default": "the deadline's default", "bot": "played by a bot", "standing": "a standing order",
              "forced": "the only choice"}


def picks_in_step(*, game: Game, seat: Seat | None, phase: int) -> list[dict[str, str]]:
    """The viewer's own picks in one step, worded as the prompt offered them (none for a spectator)."""
    if seat is None:
        return []
    rows = (Submission.objects.filter(game=game, seat=seat, phase=phase)
            .select_related("prompt_row").order_by("id"))
    picks = []
    for sub in rows:
        labels = {o["id"]: o["label"] for o in sub.prompt_row.options}
        picks.append({"prompt": sub.prompt_row.text, "label": labels.get(sub.option_id, sub.option_id),
                      "how": HOW_PICKED.get(sub.source, sub.source)})
    return picks
