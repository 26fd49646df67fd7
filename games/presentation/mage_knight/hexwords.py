"""A map hex in words, written once: its terrain and Move cost now, its site, the tokens on it and the other heroes.

The mail describes the hexes around the hero twice over, every detail in the "status" answer (``mail.situation``)
and grouped by terrain in a decision mail (``mail.short_situation``), and the map's text equivalent names the
same tokens (mapview.py). They all take their words from here, so a site, an enemy token, a ruins token or a
hero reads the same wherever it appears; the two mail forms differ only in punctuation (``brief``).

Input is the engine's view of a hex (README "View"): a face-down token there carries its colour and nothing else,
so a face-down token is named by that colour only.
"""

from __future__ import annotations

from typing import Any

from . import labels


def terrain_cost(h: dict[str, Any], time: str) -> tuple[str, int | None]:
    """The terrain's name and what entering the hex costs now (by Day or by Night); None: impassable."""
    name, _, day, night = labels.terrain(h.get("terrain"))
    return name, None if day is None else (night if time == "night" else day)


def enemy_words(name: Any, armor: Any, attacks: str) -> str:
    """A face-up enemy token: "Prowlers (armor 3, attack 4)"."""
    return f"{name} (armor {armor}, attack {attacks})"


def face_down_enemy(colour: Any) -> str:
    """A face-down enemy token, by its back's colour (all anyone may know of it): "a face-down green enemy"."""
    return f"a face-down {colour} enemy"


def token_words(e: dict[str, Any]) -> str:
    """An enemy token of the view: its name, armor and attacks face up, its colour face down."""
    if e.get("face_up"):
        return enemy_words(e.get("name") or labels.words(e.get("id", "")), e.get("armor"),
                           labels.attacks_text(e.get("attacks")))
    return face_down_enemy(e.get("colour"))


def details(h: dict[str, Any], me: int | None, *, brief: bool = False) -> list[str]:
    """What is on the hex, one part each: its site (with its owner's shield, burned), the enemy tokens, the ruins
    token, the heroes other than ``me``. ``brief``: the decision mail's punctuation (owner and burned in
    brackets, enemies joined with "and"), else the status answer's."""
    parts = []
    if h.get("site"):
        site = labels.site_name(h["site"])
        if isinstance(h.get("owner"), int):
            site += f" (shield of seat {h['owner'] + 1})" if brief else f", shield of seat {h['owner'] + 1}"
        if h.get("burned"):
            site += " (burned)" if brief else ", burned"
        parts.append(site)
    foes = [token_words(e) for e in h.get("enemies") or []]
    if foes:
        if brief:
            parts.append(("rampaging " if h.get("rampaging") else "enemies: ") + " and ".join(foes))
        else:
            parts.append(("rampaging: " if h.get("rampaging") else "enemies: ") + "; ".join(foes))
    ruins = h.get("ruins")
    if ruins:
        parts.append(f"ruins token {labels.words(ruins.get('id', ''))}" if ruins.get("face_up")
                     else "a face-down ruins token")
    heroes = [s for s in h.get("heroes") or [] if s != me]
    if heroes:
        parts.append("hero" + ("es" if len(heroes) > 1 else "") + " of seat " + ", ".join(str(s + 1) for s in heroes))
    return parts
