"""Off-campus actions: Study, Part-Time Job, Shopping, Maid Training (and the licence).

An action is planned as a small JSON list and executed at its turn in the resolution order:
``["study", colour or -1]``, ``["job"]``, ``["shop", item]``, ``["train", [[colour, rainbows], ...], licence]``.
Expansions add kinds here (Battle for London's Peacekeeping) without touching the rest.
"""

from __future__ import annotations

from .cards import ATTRS, CARDS, COLORS, ONGOING, RAINBOW
from .effects import apply_simple, gain_attr, license_ok, on_job, on_study

STUDY_STERLINGS = (3, 5)  # Part-Time Job: unlicensed, licensed


def grant_license(seat: dict) -> None:
    """Flip the character (3 MP at the end), take 2 Sterlings, the Maid Ability card joins the hand."""
    seat["lic"] = True
    seat["ster"] += 2
    if seat["ability"] is not None:
        seat["hand"].append(seat["ability"])
        seat["ability"] = None


def is_legal(state: dict, seat: dict, act: list) -> bool:
    """Can this planned action still be taken (only Shopping depends on other players)?"""
    if act[0] == "shop":
        item = act[1]
        return item in state["store"] and seat["ster"] >= CARDS[item].cost_s
    return True


def buy_item(state: dict, seat: dict, item: str) -> str:
    """Shopping: pay, take the Item from the store, resolve its instant effects; return a description."""
    c = CARDS[item]
    seat["ster"] -= c.cost_s
    state["store"].remove(item)
    seat["items"].append(item)
    if item in ONGOING:
        seat["ongoing"].append(item)
    for e in c.effects:
        apply_simple(seat, e)
    return f"buys {c.name}"


def part_time_job(seat: dict) -> str:
    seat["ster"] += STUDY_STERLINGS[1 if seat["lic"] else 0]
    on_job(seat)
    return "works a Part-Time Job"


def execute(state: dict, si: int, act: list) -> str:
    """Carry out a planned off-campus action; return a public description."""
    seat = state["seats"][si]
    k = act[0]
    if k == "study":
        seat["tok"][RAINBOW] += 1
        if seat["lic"] and act[1] >= 0:
            seat["tok"][act[1]] += 1
        on_study(seat)
        return "studies" + (f" (+1 Rainbow, +1 {COLORS[act[1]]})" if seat["lic"] and act[1] >= 0 else " (+1 Rainbow)")
    if k == "job":
        return part_time_job(seat)
    if k == "shop":
        return buy_item(state, seat, act[1])
    # Maid Training: the raises were planned against this seat's own tokens, which nobody else touches.
    tok = seat["tok"]
    bits = []
    for ci, rb in act[1]:
        tok[ci] -= 3 - rb
        tok[RAINBOW] -= rb
        gain_attr(seat, ci, 1)
        bits.append(f"+1 {ATTRS[ci].capitalize()}")
    if act[2] and not seat["lic"] and license_ok(seat["attr"]):
        grant_license(seat)
        bits.append("obtains the Provisional Maid's License")
    return "trains" + (": " + ", ".join(bits) if bits else "")
