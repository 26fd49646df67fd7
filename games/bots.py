"""Pick for a seat that a bot plays.

A game may ship a greedy bot as ``games.engines.<slug>.bots`` exposing ``choose(engine, state, seat)
-> option_id`` (or the registry may map slugs to such callables in a ``BOTS`` dict). Without one, the
bot plays the engine's default option, which is always legal.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from importlib import import_module
from typing import Callable

from .engines import registry
from .engines.base import Engine, State

logger = logging.getLogger(__name__)

BotChoose = Callable[[Engine, State, int], str]


@lru_cache(maxsize=None)
def bot_for(slug: str) -> BotChoose | None:
    """The game's own bot, if it has one."""
    path = getattr(registry, "BOTS", {}).get(slug)
    try:
        if path:
            module_name, attr = path.split(":")
            return getattr(import_module(module_name), attr)
        engine_module = registry.ENGINES.get(slug, "").split(":")[0]
        package = engine_module.rsplit(".", 1)[0]
        if package.startswith("games.engines."):
            return getattr(import_module(f"{package}.bots"), "choose", None)
    except ImportError:
        pass
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
