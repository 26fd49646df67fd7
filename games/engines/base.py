"""The engine protocol: what every game tells the turn server, and nothing more.

An engine is a deterministic function of (player count, options, seed, ordered picks). Its state is
plain JSON data (dicts, lists, str, int, bool, None) that the engine mutates in place; the server
stores it as a snapshot. Every decision is a pick from an enumerated list of options (DESIGN.md,
"The decision protocol"); a compound decision is a short sequence of picks within one step.

Life of a step, as the server and the simulator drive it:

    prompt = engine.prompt(state, seat)            # for each seat in engine.pending(state)
    events = engine.apply(state, seat, option_id)  # validated pick; may open the next pick
    if engine.is_step_complete(state):
        events += engine.resolve(state)            # advances engine.step(state)

Seats are numbered 0..players-1. Secrets stay inside the state; only ``view`` and the events'
``seats`` field decide what leaves the engine, and every surface goes through them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from .options import OptionSpec, check_options

State = dict[str, Any]


class IllegalPick(ValueError):
    """A pick that is not among the seat's current options (or the seat has no prompt)."""


@dataclass(frozen=True, slots=True)
class Option:
    id: str
    label: str

    def as_dict(self) -> dict[str, str]:
        return {"id": self.id, "label": self.label}


@dataclass(frozen=True, slots=True)
class Prompt:
    """One pick a seat must make now. ``id`` changes whenever the options change.

    A prompt with a single option is picked by the server at once (DESIGN.md); ``ask_anyway`` marks the
    rare one a player must see all the same (e.g. a card they should notice they cannot play).
    """

    id: str
    text: str
    options: tuple[Option, ...]
    ask_anyway: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "options": [o.as_dict() for o in self.options]}

    def option_ids(self) -> set[str]:
        return {o.id for o in self.options}


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``seats`` is None when everyone (spectators too) may see it,
    otherwise the tuple of seats allowed to see it."""

    text: str
    seats: tuple[int, ...] | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "seats": None if self.seats is None else list(self.seats),
                "data": dict(self.data)}


@dataclass(frozen=True, slots=True)
class Result:
    """Final standing. ``ranks[seat]`` is 1 for the winner(s); tied seats share a rank."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...]  # per seat: category -> points
    tiebreak: tuple[int, ...] = ()  # per seat: the game's own tie-break value, if it has one

    @classmethod
    def from_dict(cls, r: Mapping[str, Any]) -> "Result":
        return cls(tuple(r["scores"]), tuple(r["ranks"]), tuple(dict(b) for b in r["breakdown"]),
                   tuple(r.get("tiebreak", ())))

    def as_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "breakdown": [dict(b) for b in self.breakdown],
            "tiebreak": list(self.tiebreak),
        }


class Engine(ABC):
    """One game's rules. Stateless: every method takes the game state."""

    slug: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @abstractmethod
    def new_game(self, *, players: int, options: Mapping[str, Any], seed: int) -> State:
        """Set up a game; raise ValueError for an unsupported player count or option."""

    @abstractmethod
    def step(self, state: State) -> int:
        """The step (phase) counter: increases every time ``resolve`` opens a new step."""

    @abstractmethod
    def pending(self, state: State) -> list[int]:
        """Seats whose decision for the current step is not yet complete, in seat order."""

    @abstractmethod
    def prompt(self, state: State, seat: int) -> Prompt | None:
        """The pick ``seat`` must make now, or None if it has nothing to decide."""

    @abstractmethod
    def apply(self, state: State, seat: int, option_id: str) -> list[Event]:
        """Apply one pick of ``seat``; raise IllegalPick (changing nothing) if it is not an option."""

    @abstractmethod
    def is_step_complete(self, state: State) -> bool:
        """True when every decision of the current step is in and ``resolve`` may run."""

    @abstractmethod
    def resolve(self, state: State) -> list[Event]:
        """Resolve the complete step and advance to the next step that needs a decision (or the end)."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator). Never another seat's secrets."""

    @abstractmethod
    def default_option(self, state: State, seat: int) -> str:
        """The pick made for ``seat`` when its deadline passes (deterministic, always legal)."""

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """Final scores, ranks and breakdown once the game is over, else None."""

    # Optional: take-backs (docs/games.md "Take-backs"). A pick is a checkpoint when it made something new known or
    # random (a card drawn, a tile or enemy revealed, a die rolled, a deck reshuffled, another seat asked or
    # affected); a seat may take back its own picks of the step back to its last checkpoint.
    def checkpoint_key(self, state: State, seat: int) -> Any:
        """What a pick of ``seat`` that can be taken back leaves unchanged: a value (not a view into ``state``,
        which the pick mutates) of the generator, every hidden zone, every other seat's part and who decides.
        The server compares it before and after each pick of the seat: a change makes the pick a checkpoint.
        None (the default): this game takes nothing back, every pick is a checkpoint."""
        return None

    # Optional: standing orders a player may set ahead ("attend every lecture").
    def standing_orders(self) -> tuple[Option, ...]:
        """The standing orders this game offers (none by default)."""
        return ()

    def standing_order_pick(self, state: State, seat: int, order_id: str) -> str | None:
        """The option a standing order picks for the seat's current prompt, or None to ask the player."""
        return None

    # The options this game takes, each with the values it allows (games/engines/options.py); none by default.
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()

    def clean_options(self, players: int, options: Any) -> dict[str, Any]:
        """The options a new game is created and stored with: each declared in ``option_specs`` with an allowed
        value, then the engine's cross-checks (``validate_options``); ValueError with the engine's message."""
        checked = check_options(self.name, self.option_specs, options)
        self.validate_options(players, checked)
        return checked

    def validate_options(self, players: int, options: Mapping[str, Any]) -> None:
        """Raise ValueError if the game cannot be created with these (declared, allowed) settings: the checks
        that need the player count or combine options."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} takes {self.min_players}-{self.max_players} players")


class ConventionalStateMixin:
    """The protocol methods that only read an engine state's conventional keys: ``step`` (the step counter),
    ``over`` (bool) and ``result`` (None, or ``Result.as_dict()``'s shape once the game is over). Put it before
    ``Engine`` in the bases: ``class MyEngine(ConventionalStateMixin, Engine)``."""

    def step(self, state: State) -> int:
        return state["step"]

    def is_over(self, state: State) -> bool:
        return state["over"]

    def result(self, state: State) -> Result | None:
        r = state["result"]
        return None if r is None else Result.from_dict(r)


class OneSeatAtATimeMixin(ConventionalStateMixin, ABC):
    """The protocol of a sequential game, where one seat decides at a time: the open decision is
    ``state["dec"]`` (None, or a dict with its ``"seat"``), ``state["n"]`` counts the picks and a step is
    complete when no decision is open (the next one is held for ``resolve``). The engine builds a decision's
    options in ``decision_options(state, dec) -> (text, [Option])``; the prompt built last is kept, so the pick
    that follows it is checked without building the options again. ``take_pick`` checks a pick and closes the
    decision it answers, returned for the engine to perform."""

    _last: tuple | None = None  # (state, n, step, Prompt) of the last prompt built

    @abstractmethod
    def decision_options(self, state: State, dec: dict) -> tuple[str, list[Option]]:
        """The open decision's prompt text and options (the engine's own)."""

    def pending(self, state: State) -> list[int]:
        d = state["dec"]
        return [] if d is None else [d["seat"]]

    def prompt(self, state: State, seat: int) -> Prompt | None:
        d = state["dec"]
        if d is None or d["seat"] != seat:
            return None
        last = self._last
        if last is not None and last[0] is state and last[1] == state["n"] and last[2] == state["step"]:
            return last[3]
        text, ops = self.decision_options(state, d)
        p = Prompt(f"{state['step']}.{seat}.{state['n']}", text, tuple(ops))
        self._last = (state, state["n"], state["step"], p)
        return p

    def take_pick(self, state: State, seat: int, option_id: str) -> dict:
        """Raise IllegalPick unless ``option_id`` is an option of the seat's open decision; then close it."""
        p = self.prompt(state, seat) if isinstance(seat, int) and 0 <= seat < state["players"] else None
        if p is None:
            raise IllegalPick(f"seat {seat} has nothing to decide")
        if option_id not in p.option_ids():
            raise IllegalPick(f"{option_id!r} is not an option for seat {seat} now")
        d = state["dec"]
        state["dec"] = None
        state["n"] += 1
        self._last = None
        return d

    def is_step_complete(self, state: State) -> bool:
        return not state["over"] and state["dec"] is None
