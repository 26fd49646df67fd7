"""Interpret the card vocabulary: conditions, costs, instant and ongoing effects on a seat's state."""

from __future__ import annotations

from .cards import CARDS, ON_ATTEND, ON_JOB, ON_STUDY, ONGOING, RAINBOW, TYPE

ATTR_MIN, ATTR_MAX = 1, 15


def license_ok(attr: list[int]) -> bool:
    """The Provisional Maid's License: all four attributes 7+, or any one 12+ (JA instructions)."""
    return min(attr) >= 7 or max(attr) >= 12


def expansion_count(seat: dict, kind: str) -> int:
    """Checkpoint tokens on the Peacekeeping card, Control Points broken, or 1 for a face-up Attendance Award."""
    pk = seat.get("bfl")
    if pk is None:
        return 0
    if kind == "checkpoints":
        return len(pk["tokens"])
    if kind == "controls":
        return pk["controls"]
    return 1 if pk["award"] else 0


def face_up_count(seat: dict, key: str) -> int:
    up = seat["up"]
    if key == "action":
        return len(up)
    if key.startswith("club_"):
        club = key[-1].upper()
        return sum(1 for c in up if CARDS[c].club == club)
    return sum(1 for c in up if TYPE[c] == key)


def check(seat: dict, cond: tuple) -> bool:
    """True if the seat meets every clause of a parsed condition."""
    for kind, arg, op, n in cond:
        if kind == "attr":
            v = seat["attr"][arg]
        elif kind == "licensed":
            v = 1 if seat["lic"] else 0
        elif kind == "attr_total":
            v = sum(seat["attr"])
        elif kind == "attr_min":
            v = min(seat["attr"])
        elif kind == "attr_max":
            v = max(seat["attr"])
        elif kind == "face_up":
            v = face_up_count(seat, arg)
        elif kind == "items":
            v = len(seat["items"])
        elif kind == "sterlings":
            v = seat["ster"]
        elif kind == "mp_tokens":
            v = seat["mp"]
        else:  # Battle for London: checkpoints, controls, attendance (0 outside the expansion)
            v = expansion_count(seat, kind)
        if (v < n) if op == ">=" else (v > n):
            return False
    return True


def shortfall(tok: list[int], need) -> int:
    """Rainbow tokens needed to cover what the exact colours cannot."""
    s = 0
    for i in range(4):
        if need[i] > tok[i]:
            s += need[i] - tok[i]
    return s


def can_pay(seat: dict, tok: list[int], cost_s: int, cost_t) -> bool:
    return seat["ster"] >= cost_s and shortfall(tok, cost_t) <= tok[RAINBOW]


def default_rainbows(tok: list[int], need) -> list[int]:
    """Spend exact colours first; Rainbow covers only the shortfall."""
    return [need[i] - tok[i] if need[i] > tok[i] else 0 for i in range(4)]


def pay_tokens(tok: list[int], need, rb) -> None:
    """Pay a colour cost, ``rb[i]`` Rainbow tokens standing in for colour i."""
    for i in range(4):
        if need[i]:
            tok[i] -= need[i] - rb[i]
            tok[RAINBOW] -= rb[i]


def gain_attr(seat: dict, ai: int, n: int) -> None:
    """Raise an attribute (or all with ai=-1); gains past 15 are lost."""
    attr = seat["attr"]
    for i in (range(4) if ai < 0 else (ai,)):
        v = attr[i] + n
        attr[i] = ATTR_MAX if v > ATTR_MAX else (ATTR_MIN if v < ATTR_MIN else v)


def students(state: dict) -> list[dict]:
    """Everyone who attends lectures: the seats, and in a solo game the Classmate (a non-seat automaton)."""
    cm = state.get("classmate")
    return state["seats"] if cm is None else [*state["seats"], cm]


def gain_tokens(seat: dict, ci: int, n: int) -> None:
    """Take tokens; the solo Classmate's join the end of its token line (Solo Mode, Classmate Setup 5)."""
    seat["tok"][ci] += n
    line = seat.get("line")
    if line is not None:
        line.extend([ci] * n)


def apply_simple(seat: dict, e: tuple, choice: int | None = None) -> None:
    """Apply one self-targeted instant effect (everything but remedial lectures)."""
    k = e[0]
    if k == "tokens":
        gain_tokens(seat, e[1], e[2])
    elif k == "sterlings":
        seat["ster"] += e[1]
    elif k == "mp":
        seat["mp"] += e[1]
    elif k == "attr":
        gain_attr(seat, e[1], e[2])
    elif k == "tokens_choice":
        gain_tokens(seat, choice if choice is not None else 0, e[1])


def attend(seat: dict, ci: int, n: int = 1) -> None:
    """Attend a lecture of colour ``ci``: +n to that attribute, then Organization/Item triggers."""
    gain_attr(seat, ci, n)
    for cid in seat["ongoing"]:
        for col, sub in ON_ATTEND.get(cid, ()):
            if col < 0 or col == ci:
                apply_simple(seat, sub)


def on_job(seat: dict) -> None:
    for cid in seat["ongoing"]:
        for sub in ON_JOB.get(cid, ()):
            apply_simple(seat, sub)


def on_study(seat: dict) -> None:
    for cid in seat["ongoing"]:
        for sub in ON_STUDY.get(cid, ()):
            apply_simple(seat, sub)


def card_playable(seat: dict, cid: str) -> bool:
    """Can this card be turned face up now (cost payable, condition met)?"""
    c = CARDS[cid]
    if c.cond and not check(seat, c.cond):
        return False
    return can_pay(seat, seat["tok"], c.cost_s, c.cost_t)


def resolve_card(state: dict, si: int, cid: str, pay_rb, choice) -> None:
    """Pay a face-up card's cost, then resolve its instant effects; the card joins the notebook."""
    seat = state["seats"][si]
    c = CARDS[cid]
    seat["ster"] -= c.cost_s
    if any(c.cost_t):
        pay_tokens(seat["tok"], c.cost_t, pay_rb or default_rainbows(seat["tok"], c.cost_t))
    resolve_effects(state, seat, cid, choice)


def resolve_effects(state: dict, seat: dict, cid: str, choice) -> None:
    """A paid face-up card joins the notebook and its instant effects resolve (the seat's or the Classmate's)."""
    seat["up"].append(cid)
    if cid in ONGOING:
        seat["ongoing"].append(cid)
    for e in CARDS[cid].effects:
        if e[0] == "remedial":
            # The student who played it attends at e[2], everyone else at e[3] (all must attend).
            for other in students(state):
                attend(other, e[1], e[2] if other is seat else e[3])
        else:
            apply_simple(seat, e, choice)
