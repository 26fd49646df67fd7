"""The fallback board for games without a drawing: the view as labelled, nested data."""

from __future__ import annotations

from typing import Any


def view_tree(value: Any, key: str | None = None) -> dict[str, Any]:
    """A view (or any JSON-like value) as a tree of labelled nodes for games/generic/node.html."""
    label = None if key is None else str(key).replace("_", " ")
    if isinstance(value, dict):
        return {"label": label, "kind": "map", "children": [view_tree(v, k) for k, v in value.items()]}
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return {"label": label, "kind": "chips", "items": ["—" if v is None else v for v in value]}
        return {"label": label, "kind": "list", "children": [view_tree(v, f"#{i + 1}") for i, v in enumerate(value)]}
    if isinstance(value, bool):
        value = "yes" if value else "no"
    return {"label": label, "kind": "value", "value": "—" if value is None else value}
