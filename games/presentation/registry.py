"""Presentations by engine slug: each game's package, or the generic fallback for a game without one.

A game's presentation lives in ``games/presentation/<slug>/`` and is found there by its slug, so adding a
game needs no line here: its engine's line in games/engines/registry.py is the one registry line. A package
kept elsewhere (a test game's, under tests/) is named with ``register``.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType

from .base import Presentation

PACKAGE_ROOT = __name__.rpartition(".")[0]  # "games.presentation"

# slug -> package module path, for packages outside games/presentation/ (none in production).
PACKAGES: dict[str, str] = {}

GENERIC = Presentation()
GENERIC_TEMPLATES = Path(__file__).resolve().parent / "generic" / "templates"

_loaded: dict[str, ModuleType | None] = {}


def register(slug: str, package: str) -> None:
    """Name the presentation package of ``slug`` explicitly (a package kept outside games/presentation/)."""
    PACKAGES[slug] = package
    _loaded.pop(slug, None)


def _package(slug: str) -> ModuleType | None:
    """The slug's package, imported once; None if it has none. A package that fails to import raises:
    a broken presentation should be seen, not silently replaced by the generic one."""
    if slug not in _loaded:
        name = PACKAGES.get(slug)
        if name is None and slug.isidentifier() and slug != "generic":
            candidate = f"{PACKAGE_ROOT}.{slug}"
            name = candidate if find_spec(candidate) is not None else None
        _loaded[slug] = import_module(name) if name else None
    return _loaded[slug]


def presentation_for(slug: str) -> Presentation:
    """The game's Presentation (its package's ``presentation``), or the generic one."""
    package = _package(slug)
    return GENERIC if package is None else package.presentation


def has_package(slug: str) -> bool:
    return _package(slug) is not None


def templates_dir(slug: str) -> Path | None:
    """The folder holding the templates named ``games/<slug>/...``; None for an unknown slug."""
    if slug == "generic":
        return GENERIC_TEMPLATES
    package = _package(slug)
    return None if package is None else Path(package.__file__).resolve().parent / "templates"
