"""The fallback board for games without a drawing: the view as labelled, nested data."""

from __future__ import annotations

from typing import Any


def _node(key: str | None, value: Any) -> dict[str, Any]:
    label = None if key is None else str(key).replace("_", " ")
    if isinstance(value, dict):
        return {"label": label, "kind": "map", "children": [_node(k, v) for k, v in value.items()]}
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return {"label": label, "kind": "chips", "items": ["—" if v is None else v for v in value]}
        return {"label": label, "kind": "list", "children": [_node(f"#{i + 1}", v) for i, v in enumerate(value)]}
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return {"label": label, "kind": "value", "value": "—" if value is None else value}


def board(*, view: dict[str, Any], seats: list[dict[str, Any]], prompt_options) -> dict[str, Any]:
    return {"template": "web/boards/generic.html", "tree": _node(None, view), "option_cards": {}, "view": view}
