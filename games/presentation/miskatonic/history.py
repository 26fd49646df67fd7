"""Headings of the history's steps: whose turn (or whose Class) a step is, in plain English.

A step's heading comes from the public data of its first event that names who acts (games/engines/miskatonic/turn.py stamps
``{"kind": "turn", "seat", "round"}`` on the event that starts a turn, classroom.py ``{"kind": "class", "seat"}``
on a Class an Aggressive Faculty forces on another player).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..wording import seat_label

# Event kind -> heading. A step is one seat's run of picks, and its heading names that seat: the first event
# that says who acts (a turn starting, a purchase or Pre-Class on their turn, a Class's picks) gives it.
HEADINGS = {"turn": "{who} turn", "buy": "{who} turn", "preclass": "{who} turn",
            "class": "{who} Class", "pet": "{who} Class", "bff": "{who} Class", "defeat": "{who} Class",
            "damage": "{who} Class", "game_over": "Game over"}


def seat_name(seats: list[dict[str, Any]] | None, seat: int) -> str:
    """A seat as people know it: its player's name, "Bot 2" for a bot, "Seat 2" when nobody is known
    (1-based, as people count seats)."""
    for s in seats or ():
        if s.get("position") == seat:
            return seat_label(position=seat, username=s.get("player"), is_bot=bool(s.get("is_bot")))
    return seat_label(position=seat, username=None, is_bot=False)


def step_label(data: Mapping[str, Any], seats: list[dict[str, Any]] | None = None) -> str:
    kind, seat = data.get("kind"), data.get("seat")
    if kind not in HEADINGS:
        return ""
    who = f"{seat_name(seats, seat)}'s" if isinstance(seat, int) else "A"
    label = HEADINGS[kind].format(who=who)
    rnd = data.get("round")
    if kind == "turn" and isinstance(rnd, int):
        return f"Round {rnd} · {label}"
    return label


def labeller(seats: list[dict[str, Any]]) -> Callable[[Mapping[str, Any]], str]:
    return lambda data: step_label(data, seats)
