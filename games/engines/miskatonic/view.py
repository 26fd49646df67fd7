"""What a seat (or a spectator) may see: the one function every surface goes through.

Public: Sanity (and its colour band), the Purchase Pile, Discard pile, Classroom and Locker of every House (all are
face up: purchases are made in the open), the shelves, the sizes of every Deck and hand, the Class in progress.
Secret: a hand (its owner only), the order of every deck (nobody: only counts), the points the current player has
left (derived from their hand; owner only).
"""

from __future__ import annotations

from .cards import CARDS, card_dict
from .flow import BANDS, band

_CACHE: dict[str, dict] = {}


def card(cid: str) -> dict:
    d = _CACHE.get(cid)
    if d is None:
        d = _CACHE[cid] = card_dict(cid)
    return dict(d)


def cards(ids) -> list[dict]:
    return [card(c) for c in ids]


def _seat(state: dict, i: int) -> dict:
    s = state["seats"][i]
    dec = state["dec"]
    return {"seat": i, "house": CARDS[s["house"]].name, "sanity": s["sanity"],
            "band": BANDS[band(s["sanity"])] if s["sanity"] > 0 else "insane",
            "eliminated": s["out"] is not None, "deck_count": len(s["deck"]), "hand_count": len(s["hand"]),
            "purchase": cards(s["purchase"]), "discard": cards(s["discard"]), "classroom": cards(s["classroom"]),
            "locker": cards(s["locker"]), "deciding": dec is not None and dec["seat"] == i}


def view(state: dict, seat: int | None) -> dict:
    store = state["store"]
    cls = state["cls"]
    out = {
        "game": "miskatonic", "players": state["players"], "step": state["step"], "round": state["round"],
        "first": state["first"], "current": state["cur"], "phase": "over" if state["over"] else state["phase"],
        "store": {w: {"shelf": [card(c) if c else None for c in store[w]["shelf"]], "deck_count": len(store[w]["deck"]),
                      "discard": cards(store[w]["discard"])} for w in ("student", "faculty")},
        "transfers_left": len(state["transfers"]), "substitutes_left": len(state["substitutes"]),
        # Sorted: an eliminated player's Deck leaves play here, and its order stays nobody's business.
        "removed": cards(sorted(state["removed"])),
        "seats": [_seat(state, i) for i in range(state["players"])],
        "class": None if cls is None else {"seat": cls["seat"], "bffs": cards(cls["bffs"]), "pets": cards(cls["pets"]),
                                           "girl_power": cls["gp"], "girl_power_left": cls["left"],
                                           "resolve": cls["res"], "defeating": cards(cls["hit"])},
        "over": state["over"], "result": state["result"], "you": None,
    }
    if seat is not None and 0 <= seat < state["players"]:
        s = state["seats"][seat]
        mine = state["cur"] == seat and not state["over"]
        dec = state["dec"] if state["dec"] is not None and state["dec"]["seat"] == seat else None
        out["you"] = {"seat": seat, "hand": cards(s["hand"]),
                      "points": ({"friendship": state["pts"][0], "nightmare": state["pts"][1]}
                                 if mine and state["phase"] in ("student", "faculty") else None),
                      "production": dict(state["prod"]) if mine else {},
                      "decision": None if dec is None else {k: v for k, v in dec.items() if k != "seat"}}
    return out
