"""Engines by slug. The server knows games only through this registry and the protocol in base.py."""

from __future__ import annotations

from importlib import import_module

from .base import Engine

# slug -> "module:Class"; imported lazily so that a broken or slow game never blocks the others.
ENGINES: dict[str, str] = {
    "faltisia": "games.engines.faltisia.engine:FaltisiaEngine",
    "miskatonic": "games.engines.miskatonic.engine:MiskatonicEngine",
    "mage_knight": "games.engines.mage_knight.engine:MageKnightEngine",
}

_loaded: dict[str, Engine] = {}


def register(slug: str, path: str) -> None:
    """Add an engine (tests register a tiny one)."""
    ENGINES[slug] = path
    _loaded.pop(slug, None)


def get_engine(slug: str) -> Engine:
    """Return the engine for ``slug``; KeyError if there is none."""
    if slug not in _loaded:
        module_name, class_name = ENGINES[slug].split(":")
        _loaded[slug] = getattr(import_module(module_name), class_name)()
    return _loaded[slug]


def slugs() -> list[str]:
    return sorted(ENGINES)


def game_name(slug: str) -> str:
    """A game's real name from the registry (the slug if the engine is gone), for pages that list games."""
    try:
        return get_engine(slug).name
    except (KeyError, ImportError, AttributeError):
        return slug
