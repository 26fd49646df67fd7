"""Headings of the history's steps: whose turn or whose tactic a step is, with the round, in plain English.

A step's heading comes from the public data of its first event that says who acts: the engine stamps
``{"kind": ..., "seat", "round"}`` on its events (games/engines/mage_knight/; the kinds below are the ones that
open a step). A kind it does not list gives no heading, so the next event's does.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .board import seat_name

HEADINGS = {"turn": "{who} turn", "tactic": "Tactics · {who} choice", "rest": "{who} turn", "move": "{who} turn",
            "explore": "{who} turn", "play": "{who} turn", "combat": "{who} turn", "announce": "{who} turn",
            "round": "Round {round} begins", "round_end": "Round {round} ends", "game_over": "Game over",
            "dummy": "The Dummy Player's turn"}


def step_label(data: Mapping[str, Any], seats: list[dict[str, Any]] | None = None) -> str:
    kind, seat, rnd = data.get("kind"), data.get("seat"), data.get("round")
    if kind not in HEADINGS:
        return ""
    if "{round}" in HEADINGS[kind]:
        return HEADINGS[kind].format(round=rnd) if isinstance(rnd, int) else ""
    who = f"{seat_name(seats, seat)}'s" if isinstance(seat, int) and not isinstance(seat, bool) else "A"
    label = HEADINGS[kind].format(who=who)
    if isinstance(rnd, int) and kind not in ("game_over", "dummy"):
        return f"Round {rnd} · {label}"
    return label


def labeller(seats: list[dict[str, Any]]) -> Callable[[Mapping[str, Any]], str]:
    return lambda data: step_label(data, seats)
