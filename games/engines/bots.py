"""Bots that play any engine through the protocol alone: a seeded random bot and the greedy interface."""

from __future__ import annotations

from abc import ABC, abstractmethod
from importlib import import_module

from .base import Engine, Prompt, State
from .rng import Rng, seed_state

# slug -> "module:Class" of that game's greedy bot.
GREEDY = {"faltisia": "games.engines.faltisia.bots:GreedyBot",
          "miskatonic": "games.engines.miskatonic.bots:GreedyBot",
          "mage_knight": "games.engines.mage_knight.bots:GreedyBot"}


class Bot(ABC):
    """Pick one option id from the seat's current prompt."""

    @abstractmethod
    def choose(self, engine: Engine, state: State, seat: int, prompt: Prompt | None = None) -> str:
        """``prompt`` may be passed when the caller already has the seat's current prompt."""


class RandomBot(Bot):
    """Uniform among the options, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed_state(seed))

    def choose(self, engine: Engine, state: State, seat: int, prompt: Prompt | None = None) -> str:
        ops = (prompt or engine.prompt(state, seat)).options
        return ops[self.rng.below(len(ops))].id


def make_bot(slug: str, kind: str, seed: int = 0) -> Bot:
    """A bot by kind: "random" or "greedy"."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        module, cls = GREEDY[slug].split(":")
        return getattr(import_module(module), cls)()
    raise ValueError(f"unknown bot {kind!r}")


def play(engine: Engine, state: State, bots: list[Bot], on_step=None, max_decisions: int = 100_000) -> int:
    """Drive a game to its end; return the number of decisions made. ``on_step(state)`` runs after each resolve."""
    decisions = 0
    pending, prompt, apply, complete, resolve = (engine.pending, engine.prompt, engine.apply,
                                                 engine.is_step_complete, engine.resolve)
    while not engine.is_over(state):
        for seat in pending(state):
            p = prompt(state, seat)
            while p is not None:
                apply(state, seat, bots[seat].choose(engine, state, seat, p))
                decisions += 1
                if decisions > max_decisions:
                    raise RuntimeError("game did not end")
                p = prompt(state, seat)
        if complete(state):
            resolve(state)
            if on_step is not None:
                on_step(state)
    return decisions
