"""The turn as a machine: it runs the rulebook's steps until someone must choose, offers that choice as a pick with
enumerated options, and carries on from the pick. A choice with a single option is made without asking.

A decision is ``{"seat", "kind", ...}``: produce (a card showing both points), student, faculty (what to buy),
preclass (use a Pre-Class ability, or done), pet (where a Pet Teacher goes), gp (give Girl Power to a Faculty, or
auto, or done).
"""

from __future__ import annotations

from ..base import Event, Option
from ..wording import plural
from . import classroom
from .cards import CARDS
from .flow import draw, gain, left_of, name, points, seat_event, stock

HAND = 5


# The options last built, for the decision object they were built for: the prompt that follows reuses them.
_last: list = [None, None, None]  # [state, decision, (text, options)]


def cached_options(state: dict, d: dict) -> tuple[str, list[Option]]:
    if _last[0] is state and _last[1] is d:
        return _last[2]
    built = options(state, d)
    _last[:] = [state, d, built]
    return built


def advance(state: dict, ev: list) -> None:
    """Run until a pick is needed (it becomes ``dec`` for the step's owner, else ``held`` for the next step)."""
    while not state["over"]:
        d = _next(state, ev)
        if d is None:
            continue
        if d is STOP:
            return
        only = forced(state, d)
        if only is None:
            text, ops = cached_options(state, d)
            only = ops[0].id if len(ops) == 1 else None
        if only is not None:
            perform(state, d, only, ev)
            continue
        if d["seat"] == state["owner"]:
            state["dec"] = d
        else:
            state["held"] = d
        return


def _next(state: dict, ev: list) -> dict | None:
    cls = state["cls"]
    if cls is not None:
        if cls["pets"]:
            return {"seat": cls["seat"], "kind": "pet"}
        return {"seat": cls["seat"], "kind": "gp"}
    cur = state["cur"]
    s = state["seats"][cur]
    phase = state["phase"]
    if phase == "done":
        return STOP
    if s["out"] is not None and phase != "end":
        phase = state["phase"] = "end"
    if phase == "start":
        _draw_hand(state, cur, ev)
        stock(state, ev)
        state["phase"] = "produce"
    elif phase == "produce":
        for cid in s["hand"]:
            c = CARDS[cid]
            if c.nightmare and c.friendship and cid not in state["prod"]:
                return {"seat": cur, "kind": "produce", "card": cid}
        state["pts"] = points(state)  # shown to the player in view()["you"]["points"] and in the prompt text
        state["phase"] = "student"
    elif phase in ("student", "faculty", "preclass"):
        return {"seat": cur, "kind": phase}
    elif phase == "class":
        state["phase"] = "end"
        room = s["classroom"]
        if any(CARDS[c].is_faculty for c in room):
            classroom.begin(state, cur, "end", ev)
        else:  # no Faculty: no cards to draw, no Girl Power to give, no Damage; Class dismissed at once
            s["discard"] += room
            s["classroom"] = []
    else:  # "end": the turn is over; the step is complete and ``next_turn`` (from resolve) starts the next one
        state["phase"] = "done"
        return STOP
    return None


STOP = {"kind": "stop"}  # _next's signal that the player's turn has ended


def next_turn(state: dict, ev: list) -> None:
    """The next player still in the game, clockwise, takes a turn (run until their first pick)."""
    cur = state["cur"]
    nxt = left_of(state, cur)
    n = state["players"]
    if 0 < (state["first"] - cur) % n <= (nxt - cur) % n:  # the turn passes the first player's chair: a new round
        state["round"] += 1
    state.update(cur=nxt, owner=nxt, phase="start", prod={}, pts=[0, 0], used=[], locker_new=[])
    advance(state, ev)


def _draw_hand(state: dict, seat: int, ev: list) -> None:
    """1. "Draw your Purchase Pile into your hand, then draw from your Deck until you have 5 total cards"."""
    s = state["seats"][seat]
    bought = s["purchase"]
    s["hand"] += bought
    s["purchase"] = []
    need, deck = HAND - len(s["hand"]), s["deck"]
    if 0 < need <= len(deck):  # the common case in one slice: the top of the Deck is its end
        s["hand"] += deck[:-need - 1:-1]
        del deck[-need:]
    while len(s["hand"]) < HAND:
        cid = draw(state, seat, ev)
        if cid is None:
            break
        s["hand"].append(cid)
    ev.append(seat_event(f"Round {state['round']}: {{seat}}'s turn. They take {plural(len(bought), 'card')} from "
                         f"their Purchase Pile and hold {plural(len(s['hand']), 'card')}.",
                         kind="turn", seat=seat, round=state["round"], purchase=len(bought), hand=len(s["hand"])))
    ev.append(Event("Your hand: " + ", ".join(name(c) for c in s["hand"]) + ".", seats=(seat,),
                    data={"kind": "hand", "seat": seat, "cards": list(s["hand"])}))


def forced(state: dict, d: dict) -> str | None:
    """The only option of the common one-option decisions, found without building labels (a fast path)."""
    kind = d["kind"]
    if kind == "gp":
        left = state["cls"]["left"]
        if not any(CARDS[f].health <= left for f in classroom.standing_faculty(state)):
            return "done"
    elif kind == "preclass":
        if not any("preclass" in CARDS[c].groups for c in state["seats"][d["seat"]]["hand"]):
            return "done"
    elif kind == "pet" and state["players"] == 2:
        return f"pet:{d['seat']}"
    elif kind == "student" or kind == "faculty":
        if not _affordable(state, kind):
            pile = state["transfers"] if kind == "student" else state["substitutes"]
            return ("transfer" if kind == "student" else "substitute") if pile else "none"
    return None


# --- Options ---------------------------------------------------------------------------------------------------

def _cost(c) -> str:
    parts = [f"{c.cost_friendship} Friendship"] if c.cost_friendship else []
    parts += [f"{c.cost_nightmare} Nightmare"] if c.cost_nightmare else []
    return " + ".join(parts) or "free"


def _affordable(state: dict, which: str) -> list[str]:
    f, n = state["pts"]
    return [c for c in state["store"][which]["shelf"]
            if c and CARDS[c].cost_friendship <= f and CARDS[c].cost_nightmare <= n]


def options(state: dict, d: dict) -> tuple[str, list[Option]]:
    kind = d["kind"]
    if kind == "produce":
        c = CARDS[d["card"]]
        return (f"{c.name} shows {c.friendship} Friendship and {c.nightmare} Nightmare: which does she produce?",
                [Option("friendship", plural(c.friendship, "Friendship Point")),
                 Option("nightmare", plural(c.nightmare, "Nightmare Point"))])
    if kind == "student":
        f, n = state["pts"]
        ops = [Option(f"buy:{c}", f"Buy {name(c)} ({_cost(CARDS[c])})") for c in _affordable(state, "student")]
        ops.append(Option("transfer", "Take a Transfer Student") if state["transfers"]
                   else Option("none", "Buy no Student (no Transfer Students left)"))
        return f"Pay your Tuition ({f} Friendship, {n} Nightmare): buy one Student?", ops
    if kind == "faculty":
        f, n = state["pts"]
        left = left_of(state, d["seat"])
        ops = [Option(f"buy:{c}", f"Buy {name(c)} ({_cost(CARDS[c])}) for seat {left + 1}")
               for c in _affordable(state, "faculty")]
        ops.append(Option("substitute", f"Give seat {left + 1} a Substitute") if state["substitutes"]
                   else Option("none", "Buy no Faculty (no Substitutes left)"))
        return f"Buy one Faculty for seat {left + 1} ({f} Friendship, {n} Nightmare left)?", ops
    if kind == "preclass":
        s = state["seats"][d["seat"]]
        faculty = [c for c in s["hand"] if CARDS[c].is_faculty]
        ops = []
        for cid in s["hand"]:
            if cid in state["used"]:
                continue
            for eff, n in CARDS[cid].amount("preclass"):
                if eff == "sanity":
                    ops.append(Option(f"use:{cid}", f"{name(cid)}: regain {n} Sanity"))
                elif eff == "dismiss":
                    ops += [Option(f"dismiss:{cid}:{fid}", f"{name(cid)}: send {name(fid)} to your Discard pile")
                            for fid in faculty]
        ops.append(Option("done", "Done: Faculty to the Classroom, Students to the Discard pile"))
        return "Pre-Class: use an ability from your hand?", ops
    if kind == "pet":
        cid = state["cls"]["pets"][0]
        return (f"Pet Teacher {name(cid)}: into whose Discard pile?",
                [Option(f"pet:{i}", "Your own Discard pile" if i == d["seat"] else f"Seat {i + 1}'s Discard pile")
                 for i in classroom.pet_targets(state)])
    # gp
    cls = state["cls"]
    fits = [f for f in classroom.standing_faculty(state) if CARDS[f].health <= cls["left"]]
    ops = [Option(f"defeat:{f}", f"Give {CARDS[f].health} Girl Power to {name(f)} (Damage {CARDS[f].damage}): "
                  "defeat her") for f in fits]
    if fits:
        ops.append(Option("auto", "Auto: defeat the most Faculty"))
    ops.append(Option("done", "Done: take the Damage of the Faculty still standing"))
    return f"Class: {cls['left']} of {cls['gp']} Girl Power left to give ({cls['res']} Resolve).", ops


# --- Performing a pick -----------------------------------------------------------------------------------------

def perform(state: dict, d: dict, pick: str, ev: list) -> None:
    kind, seat = d["kind"], d["seat"]
    s = state["seats"][seat]
    if kind == "produce":
        state["prod"][d["card"]] = pick
    elif kind == "student":
        _buy_student(state, seat, pick, ev)
        state["phase"] = "faculty"
    elif kind == "faculty":
        state["phase"] = "preclass"
        _buy_faculty(state, seat, pick, ev)
    elif kind == "preclass":
        if pick == "done":
            _to_class(state, seat, ev)
            state["phase"] = "class"
        elif pick.startswith("use:"):
            cid = pick[4:]
            state["used"].append(cid)
            ev.append(seat_event(f"{{seat}} uses {name(cid)}'s Pre-Class ability.", kind="preclass", seat=seat,
                                 card=cid))
            for eff, n in CARDS[cid].amount("preclass"):
                if eff == "sanity":
                    gain(state, seat, n, ev, name(cid))
        else:
            _, cid, fid = pick.split(":")
            state["used"].append(cid)
            s["hand"].remove(fid)
            s["discard"].append(fid)
            ev.append(seat_event(f"{{seat}} uses {name(cid)}'s Pre-Class ability: {name(fid)} goes to the Discard "
                                 "pile.", kind="preclass", seat=seat, card=cid, faculty=fid))
    elif kind == "pet":
        classroom.send_pet(state, int(pick[4:]), ev)
    else:  # gp
        if pick.startswith("defeat:"):
            classroom.hit(state, pick[7:])
            return
        if pick == "auto":
            for f in classroom.best_defeats(classroom.standing_faculty(state), state["cls"]["left"],
                                            classroom.most_defeated):
                classroom.hit(state, f)
        classroom.finish(state, ev)


def _take_from_shelf(state: dict, store: str, pick: str):
    """Take the picked card ("buy:<id>") off a store's shelf and pay its cost from the turn's points."""
    cid = pick[4:]
    c = CARDS[cid]
    shelf = state["store"][store]["shelf"]
    shelf[shelf.index(cid)] = None
    state["pts"][0] -= c.cost_friendship
    state["pts"][1] -= c.cost_nightmare
    return cid, c


def _buy_student(state: dict, seat: int, pick: str, ev: list) -> None:
    s = state["seats"][seat]
    if pick == "none":
        return
    if pick == "transfer":
        cid = state["transfers"].pop()
        s["purchase"].append(cid)
        ev.append(seat_event("{seat} adds a Transfer Student to their Purchase Pile.",
                             kind="buy", seat=seat, card=cid, to="purchase"))
        return
    cid, c = _take_from_shelf(state, "student", pick)
    if c.has("locker"):
        s["locker"].append(cid)
        state["locker_new"].append(cid)  # "don't work the turn they are purchased"
        to = "Locker"
    elif c.has("friendly"):
        s["classroom"].append(cid)  # "send it straight to your Classroom where they are used in that turn's class"
        to = "Classroom (Friendly)"
    else:
        s["purchase"].append(cid)
        to = "Purchase Pile"
    ev.append(seat_event(f"{{seat}} buys {c.name} ({_cost(c)}) into their {to}.",
                         kind="buy", seat=seat, card=cid, to=to.split()[0].lower()))


def _buy_faculty(state: dict, seat: int, pick: str, ev: list) -> None:
    if pick == "none":
        return
    left = left_of(state, seat)
    target = state["seats"][left]
    if pick == "substitute":
        cid = state["substitutes"].pop()
        target["purchase"].append(cid)
        ev.append(seat_event("{seat} adds a Substitute Teacher to {for}'s Purchase Pile.",
                             kind="buy", seat=seat, card=cid, to="purchase", **{"for": left}))
        return
    cid, c = _take_from_shelf(state, "faculty", pick)
    if c.has("aggressive"):
        target["classroom"].append(cid)
        ev.append(seat_event(f"{{seat}} buys {c.name} ({_cost(c)}) for {{for}}: Aggressive! They have Class at once.",
                             kind="buy", seat=seat, card=cid, to="classroom", **{"for": left}))
        classroom.begin(state, left, "preclass", ev)
    else:
        target["purchase"].append(cid)
        ev.append(seat_event(f"{{seat}} buys {c.name} ({_cost(c)}) into {{for}}'s Purchase Pile.",
                             kind="buy", seat=seat, card=cid, to="purchase", **{"for": left}))


def _to_class(state: dict, seat: int, ev: list) -> None:
    """End of step 4: "move all Faculty members in your hand to the Classroom, then move all Student cards in your
    hand to your Discard pile"."""
    s = state["seats"][seat]
    faculty = [c for c in s["hand"] if CARDS[c].is_faculty]
    s["classroom"] += faculty
    s["discard"] += [c for c in s["hand"] if not CARDS[c].is_faculty]
    s["hand"] = []  # (the Class event names the Faculty in the Classroom; discarded Students are routine)

