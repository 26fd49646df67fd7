"""Option objects built once per id (their labels depend on the id alone), for cheap prompts."""

from __future__ import annotations

from ..base import Option
from .cards import ATTRS, CARDS, COLORS, TYPE_LABEL, count
from .london import BIG_BEN, CONTROLS, describe_control

_CACHE: dict[str, Option] = {}

_FIXED = {
    "attend": "Attend the lecture",
    "skip": "Skip the lecture (off-campus action)",
    "up": "Turn it face up: pay the cost and resolve it",
    "down": "Keep it face down: take an off-campus action",
    "study": "Study: take 1 Rainbow token",
    "job": "Part-Time Job: take Sterlings",
    "train": "Maid Training: raise attributes and/or apply for the licence",
    "license": "Apply for the Provisional Maid's License",
    "done": "Finish Maid Training",
    "peace": "Peacekeeping: advance one space on your route",
}


def _label(oid: str) -> str:
    if oid in _FIXED:
        return _FIXED[oid]
    head, _, arg = oid.partition(":")
    if oid == "fb:peace":
        return "Fallback: " + _FIXED["peace"]
    if head == "fb":
        return "Fallback: " + _label(arg)
    if head in ("play", "draft"):
        c = CARDS[arg]
        # No card number in a label: the name is unique, and the page draws the card itself.
        return f"{'Play' if head == 'play' else 'Draft'} {c.name} ({TYPE_LABEL[c.type]}: {c.text})"
    if head == "shop":
        c = CARDS[arg]
        return f"Shopping: buy {c.name} for {count(c.cost_s, 'Sterling')} ({c.text})"
    if head == "study":
        return f"Study: take 1 Rainbow and 1 {arg} token"
    if head == "raise":
        return f"Raise {ATTRS[COLORS.index(arg)].capitalize()} by 1 (3 {arg} tokens)"
    if head == "rb":
        return f"Use {arg} Rainbow token{'s' if arg != '1' else ''}"
    if head == "col":
        return f"Take {arg} tokens"  # arg is the colour: "Take red tokens"
    if head == "med":
        return f"Meditation: return 3 {arg} tokens for 1 token of another colour"
    if head == "medto":
        return f"Take 1 {arg} token"
    if head == "discard":
        c = CARDS[arg]
        return f"Discard {c.name} ({c.text})"
    if head in ("str", "int", "bea"):
        return f"{ {'str': 'Strength', 'int': 'Intelligence', 'bea': 'Beauty'}[head]} {arg}"
    if head == "char":
        return CARDS[arg].name
    if head == "ability":
        c = CARDS[arg]
        return f"Keep Maid Ability {c.name} ({c.text}); the other is set aside for Big Ben"
    if head in ("route", "bb", "bbup"):
        return _london_label(head, arg)
    return oid


def _london_label(head: str, arg: str) -> str:
    if head == "route":
        return f"Route {arg} (Control Points: " + "; ".join(describe_control(c) for c in CONTROLS[arg]) + ")"
    if head == "bb":
        return f"Big Ben bonus: {BIG_BEN[arg].name}"
    return f"+1 {ATTRS[COLORS.index(arg)].capitalize()}"


def opt(oid: str) -> Option:
    o = _CACHE.get(oid)
    if o is None:
        o = _CACHE[oid] = Option(oid, _label(oid))
    return o
