"""The table options a game takes, declared in one place per engine, so a create request's options are checked
against what the engine declares (unbounded values refused).

Each engine lists its options as ``OptionSpec`` rows (``Engine.option_specs``): a name and what values it
allows. ``check_options`` refuses, with the engine's own message, any option not declared and any value not
allowed, and returns only the declared options it read, so what a game stores is exactly what was
validated. It never calls ``str()`` or ``int()`` on what it is given and reads a list only up to its declared
length: a 2 MB string or a huge list is refused by its type or size, not copied. The engine's cross-checks
(an option that needs a player count, two options that do not combine) stay in its ``validate_options``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

MAX_OPTIONS = 16  # more options than any game declares: refused before each is looked at


@dataclass(frozen=True)
class OptionSpec:
    """One option: ``choices`` are its allowed values exactly (True is not 1; a dict is compared whole);
    ``kind`` int/float with ``low``..``high``; or ``items``: a list of distinct values from ``items``, at
    most ``max_items`` long. ``help`` says what it does, for error messages and the docs."""

    name: str
    help: str
    choices: tuple[Any, ...] = ()
    kind: type | None = None
    low: float | None = None
    high: float | None = None
    items: tuple[str, ...] = ()
    max_items: int = 0

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not allowed (None: it is)."""
        if self.items:
            if not isinstance(value, list) or len(value) > self.max_items:
                return f"a list of at most {self.max_items} of {_listed(self.items)}"
            if any(not isinstance(v, str) or v not in self.items for v in value):
                return f"a list of names from {_listed(self.items)}"
            return None
        if self.kind is not None:
            # bool is an int subclass in Python; an option that wants a number refuses true/false.
            if isinstance(value, bool) or not isinstance(value, (int, float) if self.kind is float else int):
                return f"a whole number from {self.low:g} to {self.high:g}" if self.kind is int else \
                    f"a number from {self.low:g} to {self.high:g}"
            if not self.low <= value <= self.high:
                return f"from {self.low:g} to {self.high:g}"
            return None
        if not any(type(value) is type(c) and value == c for c in self.choices):
            return f"one of {_listed(self.choices)}"
        return None


def _listed(values) -> str:
    import json
    return ", ".join(json.dumps(v) for v in values)


def check_options(game: str, specs: tuple[OptionSpec, ...], options: Any) -> dict[str, Any]:
    """The options, checked against ``specs``: a new dict of the declared ones; ValueError naming the first
    option that is unknown or has a value not allowed."""
    if not isinstance(options, Mapping):
        raise ValueError("options must be an object")
    known = {s.name: s for s in specs}
    if len(options) > MAX_OPTIONS or any(not isinstance(k, str) or k not in known for k in options):
        unknown = [k for k in list(options)[:MAX_OPTIONS] if k not in known]
        shown = ", ".join(repr(k)[:40] for k in unknown[:3]) or f"more than {MAX_OPTIONS}"
        if not known:
            raise ValueError(f"{game} has no options (got {shown})")
        raise ValueError(f"{game} has no option {shown}; its options: {', '.join(known)}")
    checked = {}
    for name, value in options.items():
        problem = known[name].problem(value)
        if problem is not None:
            raise ValueError(f"{game} option {name!r} ({known[name].help}) must be {problem}")
        checked[name] = value
    return checked
