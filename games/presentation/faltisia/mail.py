"""Faltisia's situation in a prompt email, as short text sections, from ``engine.view(state, seat)`` only.

Input is the view (already stripped of other seats' secrets), never the raw state.
"""

from __future__ import annotations

from typing import Any

from ..generic.mail import Section
from . import london


def _card(c: dict) -> str:
    return f"{c['number']} {c['name']} ({c['type_label']}: {c['text']})"


def _tokens(tokens: dict[str, int]) -> str:
    return ", ".join(f"{n} {colour}" for colour, n in tokens.items()) or "none"


def faltisia_situation(view: dict[str, Any], seat: int) -> list[Section]:
    me_public = view["seats"][seat]
    you = view.get("you") or {}
    sections: list[Section] = []
    lines = []
    if me_public.get("character"):
        lines.append(f"Character: {me_public['character']['name']}"
                     + (" (Provisional Maid's License)" if me_public["licensed"] else ""))
    if me_public.get("attributes"):
        lines.append("Attributes: " + ", ".join(f"{k.capitalize()} {v}" for k, v in me_public["attributes"].items()))
    lines.append(f"Tokens: {_tokens(me_public['tokens'])}")
    lines.append(f"Sterlings: {me_public['sterlings']}; MP tokens: {me_public['mp_tokens']}")
    if me_public["face_up"]:
        lines.append("Face up: " + "; ".join(c["name"] for c in me_public["face_up"]))
    if me_public["items"]:
        lines.append("Items: " + "; ".join(c["name"] for c in me_public["items"]))
    sections.append(("You", lines))
    hand = [("" if c.get("playable") else "(not playable now) ") + _card(c) for c in you.get("hand", [])]
    sections.append(("Your hand", hand or ["(empty)"]))
    notebook = []
    if you.get("requirements"):
        notebook.append("Graduation requirements: " + "; ".join(_card(c) for c in you["requirements"]))
    if you.get("requirement_offer"):
        notebook.append("Requirements on offer: " + "; ".join(_card(c) for c in you["requirement_offer"]))
    if you.get("face_down"):
        notebook.append("Face down: " + "; ".join(c["name"] for c in you["face_down"]))
    if you.get("draft_pack"):
        notebook.append("Draft pack: " + "; ".join(_card(c) for c in you["draft_pack"]))
    if you.get("drafted"):
        notebook.append("Drafted: " + "; ".join(c["name"] for c in you["drafted"]))
    if you.get("ability_card"):
        notebook.append("Maid Ability: " + _card(you["ability_card"]))
    if notebook:
        sections.append(("Notebook", notebook))
    if view.get("store"):
        sections.append(("Academy Store", [_card(c) for c in view["store"]]))
    table = []
    for s in view["seats"]:
        if s["seat"] == seat:
            continue
        name = s["character"]["name"] if s.get("character") else f"Seat {s['seat'] + 1}"
        attrs = ", ".join(f"{k[:3].capitalize()} {v}" for k, v in (s.get("attributes") or {}).items())
        table.append(f"Seat {s['seat'] + 1} {name}: {attrs or 'attributes hidden'}; {s['sterlings']} Sterlings; "
                     f"{len(s['face_up'])} face up, {s['face_down_count']} face down, hand {s['hand_size']}")
    if table:
        sections.append(("The table", table))
    if view.get("classmate"):
        sections.append(("The Classmate", classmate_lines(view["classmate"])))
    if view.get("london"):  # Battle for London: the Peacekeeping board and each seat's pieces, in words
        sections.append(("Peacekeeping", london.mail_lines(view, seat)))
    return sections


def classmate_lines(cm: dict[str, Any]) -> list[str]:
    """Faltisia Solo Mode: the Classmate's public board and what it did, in plain words (view only: its
    requirements appear here only once the view reveals them at the end)."""
    lines = [f"{cm['character']['name']} ({cm['difficulty'].capitalize()})"
             + (", Provisional Maid's License" if cm["licensed"] else ""),
             "Attributes: " + ", ".join(f"{k.capitalize()} {v}" for k, v in cm["attributes"].items()),
             "Token line, spent from the left: " + (", ".join(cm["token_line"]) or "empty"),
             f"Sterlings: {cm['sterlings']}; MP tokens: {cm['mp_tokens']}; {len(cm['face_up'])} face up, "
             f"{cm['face_down_count']} face down, {cm['stack_count']} in its face-down stack"]
    if cm["items"]:
        lines.append("Items: " + "; ".join(c["name"] for c in cm["items"]))
    term = None
    for a in cm.get("actions") or []:
        if (a["round"], a["term"]) != term:
            term = (a["round"], a["term"])
            lines.append(f"Round {a['round']}, term {a['term']}: the Classmate {a['text']}.")
        else:
            lines[-1] = lines[-1][:-1] + f"; then {a['text']}."
    if cm.get("requirements"):
        lines.append("Its graduation requirements (revealed): " + "; ".join(_card(c) for c in cm["requirements"]))
    else:
        lines.append(f"Its {cm['requirements_count']} graduation requirements stay face down until the end.")
    return lines


# Battle for London: the steps of their own a licence and Big Ben open, in words for the email heading.
LONDON_STEPS = {"route": "choosing a Peacekeeping route", "bigben": "choosing a Big Ben bonus"}


def where_in_game(view: dict[str, Any]) -> str:
    """A short "round, term, phase" line for the subject and heading."""
    phase = view.get("phase", "")
    phase = LONDON_STEPS.get(phase, phase)
    return f"Round {view.get('round')}, term {view.get('term')}, {phase} (step {view.get('step')})"
