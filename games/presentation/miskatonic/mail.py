"""Miskatonic's situation in a prompt email, as short text sections, from ``engine.view(state, seat)`` only.

Input is the view (already stripped of other seats' secrets: another hand, any deck order), never the raw state.
(What happened since the seat's last prompt is the mail's own "since" section, games/mail/compose.py.)
"""

from __future__ import annotations

from typing import Any

from games.engines.wording import plural

from ..generic.mail import Section
from .board import is_faculty, phase_label


def card_line(c: dict[str, Any]) -> str:
    stats = [f"{label} {c[key]}" for key, label in (
        ("friendship", "Friendship"), ("nightmare", "Nightmare"), ("girl_power", "Girl Power"),
        ("resolve", "Resolve"), ("health", "Health"), ("damage", "Damage")) if c.get(key)]
    cost = [f"{c[key]} {label}" for key, label in (("cost_friendship", "Friendship"),
                                                    ("cost_nightmare", "Nightmare")) if c.get(key)]
    if cost:
        stats.append("costs " + " and ".join(cost))
    text = f" -- {c['text']}" if c.get("text") else ""
    return f"{c['name']} ({', '.join(stats) or 'no points'}){text}"


def names(cards: list[dict[str, Any]]) -> str:
    return ", ".join(c["name"] for c in cards) or "none"


def situation(view: dict[str, Any], seat: int) -> list[Section]:
    me = view["seats"][seat]
    you = view.get("you") or {}
    sections: list[Section] = []
    lines = [f"{me['house']}: Sanity {me['sanity']} of 20 ({me['band']})",
             f"Deck {plural(me['deck_count'], 'card')}; Purchase Pile: {names(me['purchase'])}; Discard pile {len(me['discard'])}",
             f"Classroom: {names(me['classroom'])}; Locker: {names(me['locker'])}"]
    if you.get("points"):
        lines.append(f"Points left this Tuition: {you['points']['friendship']} Friendship, "
                     f"{you['points']['nightmare']} Nightmare")
    sections.append(("Your House", lines))
    sections.append(("Your hand", [card_line(c) for c in you.get("hand") or []] or ["(empty)"]))
    cls = view.get("class")
    if cls and cls["seat"] == seat:
        sections.append(("Your Class", [
            f"BFFs: {names(cls['bffs'])}; Girl Power {cls['girl_power_left']} of {cls['girl_power']} left; "
            f"Resolve {cls['resolve']}",
            f"Faculty in the Classroom: {names([c for c in me['classroom'] if is_faculty(c)])}"]
            + ([f"Pet Teachers to place: {names(cls['pets'])}"] if cls["pets"] else [])))
    store = []
    for key, title in (("student", "Student shelf"), ("faculty", "Faculty shelf")):
        shelf = view["store"][key]
        cards = [card_line(c) for c in shelf["shelf"] if c]
        store.append(f"{title} ({shelf['deck_count']} in the deck): " + ("; ".join(cards) or "empty"))
    store.append(f"Transfer Students left: {view['transfers_left']}; Substitutes left: {view['substitutes_left']}")
    sections.append(("The School Store", store))
    table = []
    for s in view["seats"]:
        if s["seat"] == seat:
            continue
        if s["eliminated"]:
            table.append(f"Seat {s['seat'] + 1} {s['house']}: insane, out of the game")
            continue
        table.append(f"Seat {s['seat'] + 1} {s['house']}: Sanity {s['sanity']} ({s['band']}); hand {s['hand_count']}, "
                     f"deck {s['deck_count']}; Purchase Pile: {names(s['purchase'])}; "
                     f"Classroom: {names(s['classroom'])}; Locker: {names(s['locker'])}")
    if table:
        sections.append(("The other Houses", table))
    return sections


def where_in_game(view: dict[str, Any]) -> str:
    """A short "round, whose turn, which step" line for the subject and heading."""
    if view.get("over"):
        return "Game over"
    phase = phase_label(view)
    current = view.get("current")
    if isinstance(current, int) and current == (view.get("you") or {}).get("seat"):
        whose = "your turn"
    else:
        whose = f"seat {current + 1}'s turn" if isinstance(current, int) else "a turn"  # seats 1-based for people
    return f"Round {view.get('round')}, {whose}: {phase} (step {view.get('step')})"
