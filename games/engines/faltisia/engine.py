"""FaltisiaEngine: the base game (2-6 players) and Solo Mode (1 player against the Classmate automaton,
option ``{"solo": {"difficulty": "medium"}}``) behind the engine protocol of base.py."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ConventionalStateMixin, Engine, Event, IllegalPick, Option, Prompt, State
from . import flow, takebacks
from .decisions import apply_pick, options
from .setup import OPTION_SPECS, new_state
from .view import view as _view


def _fingerprint(state: State, s: dict) -> tuple:
    """What a seat's options depend on, cheaply: guards the prompt cache against outside edits."""
    return (state["step"], s["n"], s["ster"], len(s["hand"]), len(state["store"]), *s["tok"], *(s["attr"] or ()),
            s["lic"], len(s["dec"]))


class FaltisiaEngine(ConventionalStateMixin, Engine):
    slug = "faltisia"
    name = "Maid Knight Saga: The Story of Faltisia"
    # min_players is the multi-player minimum (tournaments seat tables with it); one player is Solo Mode,
    # accepted by validate_options on its own.
    min_players = 2
    max_players = 6
    solo_players = 1
    option_specs = OPTION_SPECS
    # The last prompt built (a strong reference, so the state's id cannot be reused while cached).
    _last: tuple | None = None

    def new_game(self, *, players: int, options: Mapping[str, Any], seed: int) -> State:
        state = new_state(players, options or {}, seed)
        flow.start(state)
        return state

    def validate_options(self, players: int, options: Mapping[str, Any]) -> None:
        if players != self.solo_players and not self.min_players <= players <= self.max_players:
            # The protocol's message would leave Solo Mode out ("takes 2-6 players"); the lobby shows this one.
            raise ValueError(f"{self.name} takes {self.min_players}-{self.max_players} players, "
                             f"or {self.solo_players} for Solo Mode")
        new_state(players, options or {}, 0)

    def pending(self, state: State) -> list[int]:
        return [i for i, s in enumerate(state["seats"]) if s["dec"] is not None]

    def prompt(self, state: State, seat: int) -> Prompt | None:
        s = state["seats"][seat]
        if s["dec"] is None:
            return None
        text, ops = options(state, s)
        # step.seat.pick-counter: changes whenever this seat's options can have changed.
        p = Prompt(f"{state['step']}.{seat}.{s['n']}", text, tuple(ops))
        self._last = (state, seat, _fingerprint(state, s), p)
        return p

    def apply(self, state: State, seat: int, option_id: str) -> list[Event]:
        if not 0 <= seat < state["players"]:
            raise IllegalPick(f"no seat {seat}")
        s = state["seats"][seat]
        if s["dec"] is None:
            raise IllegalPick(f"seat {seat} has nothing to decide")
        last = self._last
        if last is not None and last[0] is state and last[1] == seat and last[2] == _fingerprint(state, s):
            ops = last[3].options  # the prompt just shown for this very state: no need to rebuild it
        else:
            _, ops = options(state, s)
        self._last = None
        for o in ops:
            if o.id == option_id:
                break
        else:
            raise IllegalPick(f"{option_id!r} is not an option for seat {seat} now")
        s["n"] += 1
        apply_pick(state, s, option_id)
        return []

    def apply_prompted(self, state: State, seat: int, prompt_id: str, option_id: str) -> list[Event]:
        """Apply a pick made against a given prompt id; IllegalPick if that prompt is stale."""
        p = self.prompt(state, seat)
        if p is None or p.id != prompt_id:
            raise IllegalPick(f"stale prompt {prompt_id!r}")
        return self.apply(state, seat, option_id)

    def is_step_complete(self, state: State) -> bool:
        if state["over"]:
            return False
        for s in state["seats"]:
            if s["dec"] is not None:
                return False
        return True

    def resolve(self, state: State) -> list[Event]:
        if not self.is_step_complete(state):
            raise IllegalPick("the step is not complete")
        return flow.resolve(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def checkpoint_key(self, state: State, seat: int) -> str:
        return takebacks.checkpoint_key(state, seat)

    def default_option(self, state: State, seat: int) -> str:
        from .bots import GreedyBot  # the greedy bot is the deadline default
        return GreedyBot().choose(self, state, seat)

    def standing_orders(self) -> tuple[Option, ...]:
        return (Option("attend-all", "Attend every lecture"),)

    def standing_order_pick(self, state: State, seat: int, order_id: str) -> str | None:
        s = state["seats"][seat]
        if order_id == "attend-all" and s["dec"] is not None and s["dec"]["st"] == "lec" and "med" not in s["dec"]:
            return "attend"
        return None
