"""The Battle for London on Faltisia's page and in its emails: the Peacekeeping board, the Support Characters
(Paladins), each seat's Attendance Award and checkpoint tokens, and the viewer's own set-aside Maid Ability.

Input is the engine's view only (``view["london"]``, each seat's ``"london"`` part and ``view["you"]``; shapes in
games/engines/faltisia/view.py). The set-aside Maid Ability comes from ``view["you"]`` (the viewer's own card) or
from a seat's public part, which the engine fills only once the game is over: nothing here can show another
seat's card earlier.
"""

from __future__ import annotations

from typing import Any

# A route as printed, from its start: the marker's position n (moves made) sits on the space with that number.
# ("start", 0) (stage-1 space, 1) (stage-1, 2) Control Point 1, (stage-2, 3) Control Point 2, (stage-2, 4)
# Control Point 3, (Big Ben, 5).
ROUTE_CELLS = (("start", 0), ("space", 1), ("space", 2), ("control", 0), ("space", 3), ("control", 1),
               ("space", 4), ("control", 2), ("big_ben", 5))
ATTENDANCE_MP = 7  # Expansion Scoring: shown on the tile's face-up side


def paladin_words(effect: str) -> str:
    """"boost:all:2" -> "+2 to every attribute at Control Points"; "discount:2" -> "mercenaries 2 Sterlings
    cheaper" (the Support Character tiles' texts, from the engine's data)."""
    out = []
    for part in effect.split(";"):
        bits = part.split(":")
        if bits[0] == "boost":
            what = "every attribute" if bits[1] == "all" else bits[1].capitalize()
            out.append(f"+{bits[2]} {what}")
        elif bits[0] == "discount":
            out.append(f"mercenaries {bits[1]} Sterlings cheaper")
        else:
            out.append(part)
    words = ", ".join(out)
    return words + (" at Control Points" if effect.startswith("boost") else "")


def seat_name(view: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return ""
    character = view["seats"][seat].get("character")
    # 1-based, as people count seats; the view's positions are 0-based.
    return f"{character['name']} (seat {seat + 1})" if character else f"Seat {seat + 1}"


def route_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each route A-F as the cells of a track: its marker, the checkpoints still on it, its Control Points (price,
    requirement, broken or not) and Big Ben."""
    rows = []
    for r in view["london"]["routes"]:
        holder = r["seat"]
        part = view["seats"][holder]["london"] if holder is not None else {}
        broken = part.get("control_points_broken", 0)
        position = r["position"] if holder is not None else None
        cells = []
        for kind, n in ROUTE_CELLS:
            cell: dict[str, Any] = {"kind": kind, "marker": position == n and kind != "control"}
            if kind == "space":
                space = r["spaces"][n - 1]
                cell.update(stage=space["stage"], checkpoint=space["checkpoint"])
            elif kind == "control":
                cp = r["control_points"][n]
                cell.update(control=cp, broken=n < broken,
                            requirement=f"{cp['requirement']['attribute'].capitalize()} "
                                        f"{cp['requirement']['at_least']}")
            cells.append(cell)
        rows.append({"route": r["route"], "seat": holder, "holder": seat_name(view, holder), "position": position,
                     "cells": cells, "checkpoints_left": sum(1 for s in r["spaces"] if s["checkpoint"]),
                     "controls_broken": broken})
    return rows


def big_ben_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"id": b["id"], "name": b["name"], "seat": b["seat"], "taken_by": seat_name(view, b["seat"])}
            for b in view["london"]["big_ben"]]


def paladin_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The Support Character of each Round, the current Round's marked."""
    now = view["london"].get("current_paladin") or {}
    return [{"round": p["round"], "name": p["name"], "words": paladin_words(p["effect"]),
             "current": p["round"] == view.get("round") and p["id"] == now.get("id")}
            for p in view["london"]["paladins"]]


def seat_part(view: dict[str, Any], seat: dict[str, Any]) -> dict[str, Any] | None:
    """A seat's expansion pieces for its player mat: Attendance Award, checkpoints, route, Big Ben bonus and,
    for the viewer's own seat, the set-aside Maid Ability (everyone's once the engine reveals it at the end)."""
    part = seat.get("london")
    if part is None:
        return None
    you = view.get("you") or {}
    aside = part.get("set_aside_ability")
    if aside is None and you.get("seat") == seat["seat"]:
        aside = you.get("set_aside_ability")
    bonus = next((b["name"] for b in view["london"]["big_ben"] if b["id"] == part["big_ben_bonus"]), None)
    return {"award_up": part["attendance_award"], "award_mp": ATTENDANCE_MP if part["attendance_award"] else 0,
            "checkpoints": part["checkpoints"], "route": part["route"], "position": part["position"],
            "controls_broken": part["control_points_broken"], "big_ben_bonus": bonus, "set_aside": aside,
            "aside_played": part["big_ben_bonus"] == "ability"}


def london_board(view: dict[str, Any]) -> dict[str, Any] | None:
    """The expansion's part of the board context, or None in a base game."""
    if not view.get("london"):
        return None
    routes = route_rows(view)
    return {"routes": routes, "big_ben": big_ben_rows(view), "paladins": paladin_rows(view),
            "free_routes": [r["route"] for r in routes if r["seat"] is None],  # folded on the page unless choosing
            "current_paladin": next((p for p in paladin_rows(view) if p["current"]), None)}


# ---- the email's "Peacekeeping" section ----

def _route_line(row: dict[str, Any]) -> str:
    controls = "; ".join(
        f"{c['control']['id']} {c['control']['price']} Sterlings or {c['requirement']}"
        + (" (broken)" if c["broken"] else "") for c in row["cells"] if c["kind"] == "control")
    who = (f"{row['holder']}, {row['position']} of 5 moves" if row["seat"] is not None else "free")
    return f"Route {row['route']}: {who}; {row['checkpoints_left']} checkpoints left; Control Points {controls}."


def mail_lines(view: dict[str, Any], seat: int) -> list[str]:
    """The Peacekeeping board and the expansion pieces in plain words, for the prompt email."""
    board = london_board(view)
    lines = []
    for p in board["paladins"]:
        lines.append(f"Round {p['round']} Support Character: {p['name']} ({p['words']})"
                     + (" - this Round" if p["current"] else "") + ".")
    mine = seat_part(view, view["seats"][seat])
    if mine["route"]:
        lines.append(f"Your route: {mine['route']}, {mine['position']} of 5 moves, "
                     f"{mine['controls_broken']} Control Point{'s' if mine['controls_broken'] != 1 else ''} broken"
                     + (f", Big Ben bonus {mine['big_ben_bonus']}" if mine["big_ben_bonus"] else "") + ".")
    else:
        lines.append("Your route: none yet (you place your marker when you get the licence).")
    if mine["set_aside"] and not mine["aside_played"]:
        c = mine["set_aside"]
        lines.append(f"Your set-aside Maid Ability (hidden from the others): {c['number']} {c['name']} ({c['text']}).")
    for s in view["seats"]:
        part = seat_part(view, s)
        who = "You" if s["seat"] == seat else seat_name(view, s["seat"])
        tokens = ", ".join(t["name"] for t in part["checkpoints"]) or "no checkpoints"
        lines.append(f"{who}: Attendance Award {'face up (7 MP)' if part['award_up'] else 'flipped (0 MP)'}; "
                     f"{len(part['checkpoints'])} checkpoint token{'s' if len(part['checkpoints']) != 1 else ''} "
                     f"({tokens}).")
    lines += [_route_line(r) for r in board["routes"]]
    lines.append("Big Ben bonuses: " + "; ".join(
        f"{b['name']} ({'taken by ' + b['taken_by'] if b['seat'] is not None else 'free'})"
        for b in board["big_ben"]) + ".")
    return lines


# ---- the decision box: route, Big Ben and Peacekeeping options drawn as cards ----

def _route_text(row: dict[str, Any]) -> str:
    spaces = [c["checkpoint"]["name"] for c in row["cells"] if c["kind"] == "space" and c["checkpoint"]]
    controls = [f"{c['control']['id']} £{c['control']['price']} or {c['requirement']}"
                for c in row["cells"] if c["kind"] == "control"]
    return f"Checkpoints: {', '.join(spaces) or 'none'}. Control Points: {'; '.join(controls)}."


def _next_move_text(row: dict[str, Any], position: int) -> str:
    """What the next Peacekeeping move does on the viewer's route: moves 3-5 first break Control Point 1-3."""
    move = position + 1
    cells = dict(zip(ROUTE_CELLS, row["cells"]))
    bits = []
    control = cells.get(("control", move - 3))
    if control is not None:
        bits.append(f"break Control Point {control['control']['id']} (£{control['control']['price']} or "
                    f"{control['requirement']}, with this Round's Support Character)")
    if move == 5:
        bits.append("recapture Big Ben and choose a bonus")
    else:
        checkpoint = cells[("space", move)]["checkpoint"]
        bits.append(f"take {checkpoint['name'] if checkpoint else 'nothing'}")
    return f"Route {row['route']}, move {move} of 5: " + ", then ".join(bits) + "."


def _card(number: str, name: str, text: str, kind: str) -> dict[str, Any]:
    return {"number": number, "name": name, "type": kind, "type_label": "Battle for London", "text": text}


def option_cards(view: dict[str, Any], options: list[dict[str, str]]) -> dict[str, dict]:
    """Option id -> {"card", "verb"} for the expansion's picks: a route to take (its checkpoints and Control
    Points), a Big Ben bonus, and the Peacekeeping off-campus action (what the next move does)."""
    board = london_board(view)
    if board is None:
        return {}
    routes = {r["route"]: r for r in board["routes"]}
    bonuses = {b["id"]: b for b in board["big_ben"]}
    you = view.get("you") or {}
    mine = view["seats"][you["seat"]]["london"] if you else {}
    out = {}
    for o in options:
        head, _, arg = o["id"].partition(":")
        if head == "route" and arg in routes:
            out[o["id"]] = {"card": _card(f"Route {arg}", f"Route {arg}", _route_text(routes[arg]), "route"),
                            "verb": "Place my marker here"}
        elif head == "bb" and arg in bonuses:
            out[o["id"]] = {"card": _card("Big Ben", bonuses[arg]["name"], "Taken at once; no one else may take it.",
                                          "bigben"), "verb": "Take this bonus"}
        elif o["id"] in ("peace", "fb:peace") and mine.get("route") in routes:
            text = _next_move_text(routes[mine["route"]], mine["position"])
            out[o["id"]] = {"card": _card("Off-campus", "Peacekeeping", text, "route"),
                            "verb": "Fallback: Peacekeeping" if head == "fb" else "Do Peacekeeping"}
    return out
