"""Small template helpers for the game pages."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from games.engines.registry import game_name as registry_name

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping|get_item:key`` — a dict lookup with a variable key (None if absent)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def nth(items, index):
    """``items|nth:i`` — a list item with a variable index (None if absent)."""
    try:
        return items[int(index)]
    except (TypeError, ValueError, IndexError, KeyError):
        return None


@register.filter
def option_kind(option_id: str) -> str:
    """The part of an option id before its first colon (``draft:1406`` -> ``draft``), for styling."""
    return str(option_id).split(":", 1)[0]


@register.simple_tag
def player_link(username):
    """A player's name linked to their profile; empty names (bots, free seats) stay plain text."""
    if not username:
        return ""
    return format_html('<a class="player-link" href="{}">{}</a>', reverse("web:player", args=[username]), username)


@register.filter
def gloss(text, glossary):
    """The text with the game's terms explained on hover, focus and tap (games/presentation/glossary.py);
    plain (escaped) text where the page has no glossary."""
    if glossary is None or not text:
        return text
    return glossary.gloss(text)


@register.filter
def game_name(slug: str) -> str:
    """A game's real name from its slug ("mage_knight" -> "Mage Knight"), as the engine registry names it, never
    a title-cased slug ("Mage_Knight")."""
    return registry_name(str(slug))
