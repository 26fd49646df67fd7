"""Step 5, Class! (and step 6, Class dismissed) for one seat: drawing BFFs and Pet Teachers, Expel, BFF Abilities,
defeating Faculty, losing Sanity, Survive abilities. The same Class serves an Aggressive Faculty's immediate Class.

``state["cls"]`` holds the Class in progress: {"seat", "stage": "pets" | "gp", "bffs": [drawn students, in draw
order], "pets": [Pet Teachers waiting for a destination], "gp": total Girl Power, "left": Girl Power not yet given,
"res": total Resolve, "hit": [Faculty given enough Girl Power, in order], "resume": the turn phase after it}.
"""

from __future__ import annotations

from itertools import combinations

from ..base import Event
from ..wording import noun
from .cards import CARDS
from .flow import draw, gain, locker_bonus, lose, name, seat_event


def begin(state: dict, seat: int, resume: str, ev: list) -> None:
    """Draw one card per Faculty in the Classroom; Students are BFFs, Faculty are Pet Teachers."""
    s = state["seats"][seat]
    room = s["classroom"]
    faculty = [c for c in room if CARDS[c].is_faculty]
    bffs, pets = [], []
    for _ in range(len(faculty)):
        cid = draw(state, seat, ev)
        if cid is None:
            break  # Deck and Discard both empty: nothing more to draw
        if CARDS[cid].is_faculty:
            pets.append(cid)
        else:
            bffs.append(cid)
            room.append(cid)
    ev.append(seat_event(f"Class for {{seat}}: {', '.join([name(c) for c in faculty])} in the Classroom; draws "
                         + (", ".join(name(c) for c in bffs) or "no BFFs")
                         + (f" and {noun(len(pets), 'Pet Teacher')} {', '.join(name(c) for c in pets)}" if pets else "") + ".",
                         kind="class", seat=seat, faculty=faculty, bffs=list(bffs), pets=list(pets)))
    # Expel: each Expel Faculty sends the first remaining BFF to the Discard before BFF Abilities resolve
    # ("If the Student is removed from the classroom before its effect resolves, the effect is canceled").
    for fid in faculty:
        if CARDS[fid].has("expel") and bffs:
            gone = bffs.pop(0)
            room.remove(gone)
            s["discard"].append(gone)
            ev.append(seat_event(f"{name(fid)} expels {name(gone)} to {{seat}}'s Discard pile; her BFF Ability is "
                                 "cancelled.", kind="expel", seat=seat, faculty=fid, card=gone))
    gp = locker_bonus(state, seat, "gp")
    res = locker_bonus(state, seat, "resolve")
    for cid in room:
        c = CARDS[cid]
        if c.is_student:  # drawn BFFs and Friendly Students alike
            gp += c.girl_power
            res += c.resolve
    for cid in bffs:
        for eff, n in CARDS[cid].amount("bff"):
            ev.append(Event(f"BFF Ability of {name(cid)}.", data={"kind": "bff", "seat": seat, "card": cid}))
            if eff == "gp":
                gp += n
            elif eff == "resolve":
                res += n
            elif eff == "sanity":
                gain(state, seat, n, ev, name(cid))
    state["cls"] = {"seat": seat, "stage": "pets", "bffs": bffs, "pets": pets, "gp": gp, "left": gp, "res": res,
                    "hit": [], "resume": resume}


def pet_targets(state: dict) -> list[int]:
    """Where a Pet Teacher may go: any player's Discard pile; with two players, your own (Special Rule #2)."""
    seat = state["cls"]["seat"]
    if state["players"] == 2:
        return [seat]
    return [i for i, s in enumerate(state["seats"]) if s["out"] is None]


def send_pet(state: dict, target: int, ev: list) -> None:
    cls = state["cls"]
    cid = cls["pets"].pop(0)
    state["seats"][target]["discard"].append(cid)
    ev.append(seat_event(f"{{seat}} sends Pet Teacher {name(cid)} to {{to}}'s Discard pile.",
                         kind="pet", seat=cls["seat"], card=cid, to=target))


def standing_faculty(state: dict) -> list[str]:
    """Faculty in the Classroom not yet given enough Girl Power."""
    cls = state["cls"]
    return [c for c in state["seats"][cls["seat"]]["classroom"] if CARDS[c].is_faculty and c not in cls["hit"]]


def hit(state: dict, fid: str) -> None:
    cls = state["cls"]
    cls["hit"].append(fid)
    cls["left"] -= CARDS[fid].health


def best_defeats(faculty: list[str], power: int, key) -> list[str]:
    """The set of Faculty whose Health fits in ``power`` that maximises ``key(subset)``; ties by card order."""
    best, best_key = [], key([])
    fitting = [f for f in faculty if CARDS[f].health <= power]
    if len(fitting) > 12:  # a huge Classroom: cheapest first is good enough and stays fast
        chosen, left = [], power
        for f in sorted(fitting, key=lambda f: (CARDS[f].health, -CARDS[f].damage)):
            if CARDS[f].health <= left:
                chosen.append(f)
                left -= CARDS[f].health
        return chosen
    for r in range(1, len(fitting) + 1):
        for combo in combinations(fitting, r):
            if sum(CARDS[f].health for f in combo) <= power:
                k = key(list(combo))
                if k > best_key:
                    best, best_key = list(combo), k
    return best


def most_defeated(subset: list[str]) -> tuple:
    """"Auto-distribute Girl Power to defeat the most Faculty", then the most Damage removed."""
    return (len(subset), sum(CARDS[f].damage for f in subset))


def finish(state: dict, ev: list) -> None:
    """Defeats (and Defeat abilities), Sanity loss = Damage - Resolve (never a gain), Survive, Class dismissed."""
    cls = state["cls"]
    seat = cls["seat"]
    s = state["seats"][seat]
    for fid in cls["hit"]:
        s["classroom"].remove(fid)
        s["discard"].append(fid)
        ev.append(seat_event(f"{{seat}} defeats {name(fid)}.", kind="defeat", seat=seat, card=fid))
    for fid in cls["hit"]:
        for eff, n in CARDS[fid].amount("defeat"):
            if state["over"]:
                break
            if eff == "sanity":
                gain(state, seat, n, ev, f"Defeat: {name(fid)}")
            elif eff == "others_lose":
                lose(state, [i for i, x in enumerate(state["seats"]) if x["out"] is None and i != seat], n, ev,
                     f"Defeat: {name(fid)}")
    if state["over"]:
        return
    remaining = [c for c in s["classroom"] if CARDS[c].is_faculty]
    damage = sum(CARDS[c].damage for c in remaining)
    loss = max(0, damage - cls["res"])
    ev.append(seat_event(f"{{seat}}: remaining Faculty deal {damage} Damage against {cls['res']} Resolve.",
                         kind="damage", seat=seat, damage=damage, resolve=cls["res"], loss=loss))
    lose(state, [seat], loss, ev, "Class")
    for fid in remaining:
        if state["over"] or s["out"] is not None:
            break
        for eff, n in CARDS[fid].amount("survive"):
            if eff == "lose":
                lose(state, [seat], n, ev, f"Survive: {name(fid)}")
            elif eff == "all_lose":
                lose(state, [i for i, x in enumerate(state["seats"]) if x["out"] is None], n, ev,
                     f"Survive: {name(fid)}")
    if state["over"]:
        return
    if s["out"] is None:  # 6. Class Dismissed
        s["discard"] += s["classroom"]
        s["classroom"] = []
    state["phase"] = cls["resume"]
    state["cls"] = None

