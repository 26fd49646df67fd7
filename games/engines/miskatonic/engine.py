"""MiskatonicEngine: Miskatonic School for Girls (2-4 players) behind the engine protocol of base.py.

A sequential game: one seat decides at a time. A step is a run of picks by one seat (a player's turn, or the Class
an Aggressive Faculty forces on another player); when the next pick belongs to another seat the step is complete,
and ``resolve`` hands it over.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Engine, Event, IllegalPick, OneSeatAtATimeMixin, Option, State
from . import takebacks, turn
from .setup import new_state
from .view import view as _view


class MiskatonicEngine(OneSeatAtATimeMixin, Engine):
    slug = "miskatonic"
    name = "Miskatonic School for Girls"
    min_players = 2
    max_players = 4

    def new_game(self, *, players: int, options: Mapping[str, Any], seed: int) -> State:
        state = new_state(players, options or {}, seed)
        state["phase"], state["cur"], state["round"] = "done", (state["first"] - 1) % players, 0  # the first turn starts as a resolution
        self.resolve(state)
        state["step"] = 1
        return state

    def validate_options(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate_options(players, options)
        new_state(players, options or {}, 0)

    def decision_options(self, state: State, dec: dict) -> tuple[str, list[Option]]:
        return turn.cached_options(state, dec)

    def apply(self, state: State, seat: int, option_id: str) -> list[Event]:
        d = self.take_pick(state, seat, option_id)
        ev: list[Event] = []
        turn.perform(state, d, option_id, ev)
        turn.advance(state, ev)
        return ev

    def resolve(self, state: State) -> list[Event]:
        if not self.is_step_complete(state):
            raise IllegalPick("the step is not complete")
        state["step"] += 1
        d, state["held"] = state["held"], None
        if d is not None:  # the next pick is another seat's (an Aggressive Faculty's Class, or back from it)
            state["dec"], state["owner"] = d, d["seat"]
            return []
        ev: list[Event] = []
        while not state["over"] and state["dec"] is None and state["held"] is None:
            turn.next_turn(state, ev)  # a turn without a single choice is part of this resolution
        if state["held"] is not None:
            state["dec"], state["owner"], state["held"] = state["held"], state["held"]["seat"], None
        return ev

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def checkpoint_key(self, state: State, seat: int) -> str:
        return takebacks.checkpoint_key(state, seat)

    def default_option(self, state: State, seat: int) -> str:
        from .bots import GreedyBot  # the greedy bot is the deadline default
        return GreedyBot().choose(self, state, seat)

    def standing_orders(self) -> tuple[Option, ...]:
        return (Option("always-friendship", "Always produce Friendship from cards showing both points"),
                Option("auto-girl-power", "Auto-distribute Girl Power to defeat the most Faculty"),
                Option("pets-to-healthiest", "Send Pet Teachers to the player with the most Sanity"))

    def standing_order_pick(self, state: State, seat: int, order_id: str) -> str | None:
        d = state["dec"]
        if d is None or d["seat"] != seat:
            return None
        if order_id == "always-friendship" and d["kind"] == "produce":
            return "friendship"
        if order_id == "auto-girl-power" and d["kind"] == "gp":
            p = self.prompt(state, seat)
            return "auto" if "auto" in p.option_ids() else "done"
        if order_id == "pets-to-healthiest" and d["kind"] == "pet":
            p = self.prompt(state, seat)
            seats = [int(o.id[4:]) for o in p.options]
            others = [i for i in seats if i != seat] or seats
            return f"pet:{max(others, key=lambda i: (state['seats'][i]['sanity'], -i))}"
        return None
