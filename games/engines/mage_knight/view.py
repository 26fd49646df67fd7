"""What a seat may see: the only way anything leaves the engine (README "View").

Public: the map (face-down enemy tokens and ruins show only their colour / that they are there), every hero's
public track and counts, units, crystals, the Source, the offers, tactics, the running totals of the turn, the
combat. Private to the viewer: their own hand and mana tokens. Never: deck orders, the tile deck's order, skill
piles, another seat's hand, set-aside cards.
"""

from __future__ import annotations

from typing import Any

from . import cards, combat, enemies, hexmap, units
from .heroes import HEROES
from .levels import SKILLS
from .rounds import TACTICS
from .specials_combat import turn_effects


def card_name(card_id: str) -> str:
    return cards.name(card_id)


def unit_name(unit_id: str) -> str:
    u = units.UNITS.get(unit_id)
    return u.name if u else unit_id


def _enemy(token: dict) -> dict[str, Any]:
    if not token.get("face_up"):
        return {"colour": token["colour"], "face_up": False}
    e = enemies.enemy(token["id"])
    return {"colour": token["colour"], "face_up": True, "id": e.id, "name": e.name, "armor": e.armor,
            "attacks": [{"summon": e.summon} if e.summon else {"value": e.attack, "element": e.element}],
            "abilities": sorted(e.abilities), "resistances": sorted(e.resistances), "fame": e.fame}


def _hex(key: str, h: dict, heroes: dict[str, list[int]]) -> dict[str, Any]:
    q, r = (int(x) for x in key.split(","))
    ruins = h.get("ruins")
    return {"q": q, "r": r, "key": key, "terrain": h["terrain"], "site": h.get("site"), "owner": h.get("owner"),
            "rampaging": bool(h.get("rampaging")), "burned": bool(h.get("burned")),
            "conquered": bool(h.get("conquered")), "mine_colour": h.get("mine_colour"),
            "city_colour": h.get("city_colour"), "tile": h.get("tile"),
            "enemies": [_enemy(t) for t in h.get("enemies", ())],
            "ruins": None if ruins is None else ({"face_up": True, "id": ruins["id"]} if ruins.get("face_up")
                                                 else {"face_up": False}),
            "heroes": heroes.get(key, [])}


def _current(state: dict) -> int | None:
    d = state["dec"] or state.get("held")
    return None if d is None else d["seat"]


def _hero(state: dict, i: int) -> dict[str, Any]:
    s = state["seats"][i]
    return {"seat": i, "hero": s["hero"], "name": HEROES[s["hero"]]["name"], "pos": s["pos"], "fame": s["fame"],
            "reputation": s["reputation"], "level": s["level"], "armor": s["armor"], "hand_limit": s["hand_limit"],
            "command": s["command"],
            "units": [{"id": u["id"], "name": unit_name(u["id"]), "ready": u["ready"], "wounded": u["wounded"],
                       # an attached Banner lies face up beside its Unit (public), flipped once used
                       "banner": ({"id": u["banner"], "name": card_name(u["banner"]), "used": bool(u.get("banner_used"))}
                                  if u.get("banner") else None)}
                      for u in s["units"]],
            "crystals": dict(s["crystals"]), "deck_count": len(s["deck"]), "hand_count": len(s["hand"]),
            "discard_count": len(s["discard"]), "play_area": list(s["play_area"]),
            "tactic": state["tactics"]["chosen"].get(str(i)), "tactic_die": s.get("tactic_die"),
            "tactic_used": bool(s.get("tactic_used")), "stored_count": len(s.get("stored", ())),
            "set_aside": list(s.get("set_aside", ())),
            "claimed_die": dict(s["claimed"]) if s.get("claimed") else None,  # Mana Claim / Curse: public  # Time Bending, face up until the Round ends
            "skills": [{"id": k, "name": SKILLS[k]["name"], "used": k in s["skills_used"]}
                       for k in s["skills"] if k in SKILLS]}


def view(state: dict, seat: int | None) -> dict[str, Any]:
    m = state["map"]
    at: dict[str, list[int]] = {}
    for i, s in enumerate(state["seats"]):
        if s["pos"]:
            at.setdefault(s["pos"], []).append(i)
    cur = _current(state)
    explore = []
    if cur is not None and state["turn"] is not None and state["combat"] is None:
        explore = hexmap.explore_options(m, state["seats"][cur]["pos"])
    t = state["turn"]
    d = state["dummy"]
    out: dict[str, Any] = {
        "game": "mage_knight", "players": state["players"], "solo": state["solo"],
        "round": state["round"], "rounds_total": state["rounds_total"], "time": state["time"],
        "phase": state["phase"], "current": cur, "order": list(state["order"]),
        "end_announced_by": state["end_announced_by"], "final_turns": state["final_turns"] is not None,
        "over": state["over"], "result": state["result"],
        "map": {"hexes": [_hex(k, h, at) for k, h in m["hexes"].items()], "explore": explore,
                "tiles_left": hexmap.tiles_left(m)},
        "heroes": [_hero(state, i) for i in range(state["players"])],
        "dummy": None if d is None else {"hero": d["hero"], "name": HEROES[d["hero"]]["name"],
                                         "deck_count": len(d["deck"]), "discard_count": len(d["discard"]),
                                         "crystals": dict(d["crystals"]), "tactic": d["tactic"]},
        "source": [{"colour": c, "taken": i in state["source"]["taken"]}
                   for i, c in enumerate(state["source"]["dice"])],
        "offers": {"units": [{"id": u, "name": unit_name(u)} for u in state["offers"]["units"]],
                   "advanced": [{"id": c, "name": card_name(c)} for c in state["offers"]["advanced"]],
                   "spells": [{"id": c, "name": card_name(c)} for c in state["offers"]["spells"]]},
        "skill_offer": [{"id": k, "name": SKILLS[k]["name"]} for k in state["skill_offer"] if k in SKILLS],
        "tactics": {"available": sorted(state["tactics"]["available"], key=lambda x: TACTICS[x]["number"]),
                    "chosen": dict(state["tactics"]["chosen"]), "removed": list(state["tactics"]["removed"]),
                    "extra_turn": state["tactics"].get("extra_turn")},
        "turn": None if t is None else {"seat": t["seat"], "pool": t["pool"], "acted": t["acted"],
                                        "mode": t["mode"], "tactic_done": bool(t.get("tactic_done")),
                                        "effects": turn_effects(t)},
        "combat": _combat_view(state),
        "me": None,
    }
    if seat is not None and 0 <= seat < state["players"]:
        s = state["seats"][seat]
        out["me"] = {"seat": seat,
                     "hand": [{"id": c, "name": card_name(c), "kind": _card(c, "kind"), "colour": _card(c, "colour"),
                               "text": _card(c, "text")} for c in s["hand"]],
                     "tokens": list(t["tokens"]) if t is not None and t["seat"] == seat else []}
    return out


def _card(card_id: str, field: str) -> str:
    c = cards.CARDS.get(card_id)
    return getattr(c, field) if c else ""


def _combat_view(state: dict):
    if state["combat"] is None:
        return None
    return combat.public_view(state)
