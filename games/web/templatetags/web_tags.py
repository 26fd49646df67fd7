"""Small template helpers for the game pages."""

from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping|get_item:key`` — a dict lookup with a variable key (None if absent)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def option_kind(option_id: str) -> str:
    """The part of an option id before its first colon (``draft:1406`` -> ``draft``), for styling."""
    return str(option_id).split(":", 1)[0]
