"""Pick for a seat that a bot plays.

The game's own greedy bot is used when one is registered, looked up in this order:
  1. ``games.engines.bots.GREEDY[slug]`` = "module:Class", a class whose instances have
     ``choose(engine, state, seat, prompt=None) -> option_id`` (the engines' own bot registry);
  2. ``games.engines.registry.BOTS[slug]`` = "module:attr", a class as above or a plain function
     ``(engine, state, seat) -> option_id``.
Without one, the bot plays the engine's default option, which is always legal.
"""

from __future__ import annotations

import inspect
import logging
from functools import lru_cache
from importlib import import_module
from typing import Callable

from .engines import registry
from .engines.base import Engine, State

logger = logging.getLogger(__name__)

BotChoose = Callable[[Engine, State, int], str]


def _bot_paths(slug: str) -> list[str]:
    paths = []
    try:
        paths.append(getattr(import_module("games.engines.bots"), "GREEDY", {}).get(slug))
    except ImportError:
        pass
    paths.append(getattr(registry, "BOTS", {}).get(slug))
    return [p for p in paths if p]


@lru_cache(maxsize=None)
def bot_for(slug: str) -> BotChoose | None:
    """The game's own bot as a function (engine, state, seat) -> option id, if it has one."""
    for path in _bot_paths(slug):
        try:
            module_name, attr = path.split(":")
            target = getattr(import_module(module_name), attr)
        except (ImportError, AttributeError, ValueError):
            logger.warning("bot %s for %s cannot be loaded", path, slug)
            continue
        if inspect.isclass(target):
            return target().choose
        return target
    return None


def bot_pick(*, slug: str, engine: Engine, state: State, seat: int) -> str:
    """The option a bot picks for ``seat`` now (falls back to the engine's default)."""
    choose = bot_for(slug)
    if choose is not None:
        try:
            return choose(engine, state, seat)
        except Exception:  # a buggy bot must never stall a game
            logger.exception("bot for %s failed; using the default option", slug)
    return engine.default_option(state, seat)
