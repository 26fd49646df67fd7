"""Headings of the history's steps, in plain English: "alice's turn", "Tactics · Bot 2's choice", "Round 2 begins".

A step is one seat's run of picks (a tactic choice, or a whole turn), and the history keeps the first non-empty
heading among its events. The engine's events carry public data (games/engines/mage_knight/): ``{"seat", "tactic"}``
for a tactic taken, ``{"seat", "kind": "tactic_use", "tactic"}`` for one used during a turn (a move of that turn,
so never a "Tactics" heading), ``{"seat", "kind": "turn_start"}`` when a turn begins, ``{"seat", "announce": True}``
for the end of the round announced, ``{"round", "time"}`` when a round begins, ``{"result"}`` at the end; most others name
the acting ``seat``. Seat -1 is the Dummy Player.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .board import seat_name

# Event kinds that never start a step of their own, so never head one (a combat's blow-by-blow inside a turn
# names the seat too, but the turn's first event has already given the heading).
NO_HEADING = {"block", "wounds", "damage"}


def _seat(data: Mapping[str, Any]) -> int | None:
    seat = data.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def _tactic_taken(data: Mapping[str, Any]) -> bool:
    return "tactic" in data and data.get("kind") != "tactic_use"


def step_label(data: Mapping[str, Any], seats: list[dict[str, Any]] | None = None) -> str:
    if "result" in data:
        return "Game over"
    rnd = data.get("round")
    if isinstance(rnd, int) and data.get("time") in ("day", "night"):
        return f"Round {rnd} begins ({data['time'].capitalize()})"
    seat = _seat(data)
    if seat is None or data.get("kind") in NO_HEADING:
        return ""
    if seat < 0:
        return "The Dummy Player's turn" if not _tactic_taken(data) else "Tactics · the Dummy Player's choice"
    who = seat_name(seats, seat)
    if _tactic_taken(data):
        return f"Tactics · {who}'s choice"
    return f"{who}'s turn"


def opens_step(data: Mapping[str, Any]) -> bool:
    """A turn that begins (the Dummy Player's is its one flip event) or a tactic taken heads a group of its own:
    the pick that ends one turn writes the next seat's "turn begins" (and the Dummy's whole turn) in its step.
    The group goes on through the next steps while their events name the same seat (games/web/selectors.py), so
    a turn is one group, its "turn begins" and "turn ends" included; a tactic used mid-turn opens none."""
    if _seat(data) is None:
        return False
    return data.get("kind") == "turn_start" or _tactic_taken(data) or (_seat(data) == -1 and "flipped" in data)


def labeller(seats: list[dict[str, Any]]) -> Callable[[Mapping[str, Any]], str]:
    return lambda data: step_label(data, seats)
