"""Faltisia's board: class schedule with the time marker, registration boards, store, hand and notebook.

Input is the engine's view (games/engines/faltisia/view.py documents its shape); nothing else.
"""

from __future__ import annotations

from typing import Any

from ..wording import seat_label
from . import london

ATTRIBUTES = (("strength", "red"), ("intelligence", "blue"), ("beauty", "yellow"), ("purity", "green"))
TOKEN_COLOURS = ("red", "blue", "yellow", "green", "rainbow")
TRACK = range(1, 16)
# Attribute points at the end (6+ 1 MP, 10+ 2, 13+ 5, 15 10): marked on the tracks like on the board.
THRESHOLDS = {6: 1, 10: 2, 13: 5, 15: 10}
PHASES = {"characters": "Choosing characters", "setup": "Registration", "draft": "Drafting",
          "lecture": "Lecture", "action": "Action", "reprompt": "Off-campus actions", "over": "Game over",
          # Battle for London: the steps of their own a licence (route) and Big Ben (bonus) open
          "route": "Peacekeeping: choosing a route", "bigben": "Big Ben: choosing a bonus"}
CATEGORY_LABELS = {"graduation": "Graduation", "organization": "Organization", "extracurricular": "Clubs",
                   "assignment": "Assignments", "special_evaluation": "Special Eval.", "items": "Items",
                   "character": "Character", "attributes": "Attributes", "sterlings": "Sterlings",
                   "mp_tokens": "MP tokens",
                   # Battle for London (Expansion Scoring)
                   "attendance_award": "Attendance Award", "checkpoints": "Checkpoints"}


def schedule_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    marker = view.get("time_marker") or {}
    now_round, now_term = marker.get("round", 0), marker.get("term", 0)
    rows = []
    for row in view["schedule"]:
        r = row["round"]
        cells = []
        for t, colour in enumerate(row["lectures"], start=1):
            past = r < now_round or (r == now_round and t < now_term)
            cells.append({"term": t, "colour": colour, "is_x": colour == "X", "past": past,
                          "current": r == now_round and t == now_term})
        rows.append({"round": r, "cells": cells, "current": r == now_round})
    return rows


def mp_so_far(seat: dict[str, Any]) -> dict[str, int]:
    """MP a player can already count: MP tokens, printed MP of face-up cards and items, a flipped character.

    (Graduation requirements, clubs and attributes are scored only at the end; they stay out.)
    """
    printed = sum(int(c.get("mp") or 0) for c in seat["face_up"] + seat["items"])
    character = int((seat.get("character") or {}).get("mp") or 0) if seat["licensed"] else 0
    return {"total": seat["mp_tokens"] + printed + character, "tokens": seat["mp_tokens"],
            "cards": printed + character}


def seat_board(seat: dict[str, Any], players: dict[int, dict[str, Any]], me: int | None) -> dict[str, Any]:
    attrs = seat.get("attributes")
    tracks = attribute_tracks(attrs)
    player = players.get(seat["seat"], {})
    character = seat.get("character")
    return {
        "seat": seat["seat"], "is_me": seat["seat"] == me,
        "name": character["name"] if character else f"Seat {seat['seat'] + 1}",
        # "Bot 3" as in the history, never a bare "bot" (a game may have several)
        "character": character, "player": player.get("player") or (
            seat_label(position=seat["seat"], username=None, is_bot=True) if player.get("is_bot") else "—"),
        "username": player.get("player"),  # for the profile link; None for bots and free seats
        "deciding": player.get("deciding", seat.get("deciding", False)),
        "licensed": seat["licensed"], "tracks": tracks, "hidden_attributes": attrs is None,
        "tokens": [{"colour": c, "count": seat["tokens"].get(c, 0)} for c in TOKEN_COLOURS],
        "sterlings": seat["sterlings"], "mp": mp_so_far(seat),
        "face_up": seat["face_up"], "items": seat["items"],
        "face_down_backs": range(seat["face_down_count"]), "face_down_count": seat["face_down_count"],
        "hand_size": seat["hand_size"], "requirements_count": seat["requirements_count"],
    }


def attribute_tracks(attrs: dict[str, int] | None) -> list[dict[str, Any]]:
    tracks = []
    for name, colour in ATTRIBUTES:
        value = None if attrs is None else attrs[name]
        tracks.append({"name": name, "colour": colour, "value": value,
                       "cells": [{"n": n, "on": value == n, "threshold": THRESHOLDS.get(n)} for n in TRACK]})
    return tracks


def classmate_actions(cm: dict[str, Any]) -> list[dict[str, Any]]:
    """What the Classmate did, grouped by term: [{"round", "term", "texts": [...]}], oldest first."""
    out: list[dict[str, Any]] = []
    for a in cm.get("actions") or []:
        if not out or (out[-1]["round"], out[-1]["term"]) != (a["round"], a["term"]):
            out.append({"round": a["round"], "term": a["term"], "texts": []})
        out[-1]["texts"].append(a["text"])
    return out


def classmate_board(view: dict[str, Any]) -> dict[str, Any] | None:
    """Solo Mode: the Classmate's registration board, its token line in order (spent from the left), its
    face-down stack by count; its Graduation Requirements by count until the view reveals them at the end."""
    cm = view.get("classmate")
    if not cm:
        return None
    return {
        "name": cm["character"]["name"], "character": cm["character"], "difficulty": cm["difficulty"],
        "licensed": cm["licensed"], "tracks": attribute_tracks(cm["attributes"]),
        "token_line": cm["token_line"], "sterlings": cm["sterlings"], "mp": mp_so_far(cm),
        "face_up": cm["face_up"], "items": cm["items"], "face_down_backs": range(cm["face_down_count"]),
        "face_down_count": cm["face_down_count"], "stack_count": cm["stack_count"],
        "stack_backs": range(cm["stack_count"]), "requirements_count": cm["requirements_count"],
        "requirements": cm.get("requirements"), "actions": classmate_actions(cm),
    }


VERBS = {"draft": "Keep this card", "play": "Play this card", "shop": "Buy this item", "discard": "Discard this",
         "ability": "Keep this Maid Ability"}


def option_cards(view: dict[str, Any], options: list[dict[str, str]]) -> dict[str, dict]:
    """Option id -> the card it is about, so a draft, play, shop or discard pick is drawn as that card."""
    you = view.get("you") or {}
    cards = {c["number"]: c for c in (view.get("store") or [])}
    for key in ("hand", "draft_pack", "requirement_offer", "ability_offer"):
        cards.update({c["number"]: c for c in you.get(key) or []})
    out = {}
    for o in options:
        kind, _, number = o["id"].partition(":")
        if kind in VERBS and number in cards:
            out[o["id"]] = {"card": cards[number], "verb": VERBS[kind]}
    return out


def phone_focus(view: dict[str, Any], options: list[dict[str, str]]) -> str | None:
    """The part of the board the viewer's decision is about, for the phone's layout (base.Presentation.board): a
    card to play or discard -> the hand; an item to buy -> the store; a route, a Big Ben bonus or a Peacekeeping
    move -> the Peacekeeping board. A draft pick draws its cards in the decision box itself: no focus."""
    ids = {o["id"] for o in options or ()}
    kinds = {i.partition(":")[0] for i in ids}
    if view.get("london") and (kinds & {"route", "bb"} or ids & {"peace", "fb:peace"}):
        return "peacekeeping"
    if kinds & {"play", "discard"}:
        return "my-hand"
    if "shop" in kinds:
        return "store"
    return None


def result_table(view: dict[str, Any], boards: list[dict[str, Any]]) -> dict[str, Any] | None:
    result = view.get("result")
    if not result:
        return None
    categories = list(result["breakdown"][0].keys()) if result["breakdown"] else []
    rows = []
    for i, b in enumerate(boards):
        rows.append({"seat": i, "name": b["name"], "player": b["player"], "username": b["username"],
                     "is_me": b["is_me"],
                     "score": result["scores"][i], "rank": result["ranks"][i],
                     "tiebreak": result["tiebreak"][i] if result.get("tiebreak") else None,
                     "points": [result["breakdown"][i].get(c, 0) for c in categories]})
    classmate = result.get("classmate")
    if classmate:  # Solo Mode: the Classmate is ranked against the player (rank 1 unless the player won)
        rows.append({"seat": None, "name": f"The Classmate ({view['classmate']['character']['name']})",
                     "player": "automaton", "username": None, "is_me": False, "score": classmate["score"],
                     "rank": 2 if result.get("outcome") == "win" else 1, "tiebreak": classmate["tiebreak"],
                     "points": [classmate["breakdown"].get(c, 0) for c in categories]})
    rows.sort(key=lambda r: (r["rank"], r["seat"] is None, r["seat"] or 0))
    return {"outcome": result.get("outcome"), "rows": rows,
            "categories": [CATEGORY_LABELS.get(c, c.replace("_", " ").title()) for c in categories]}


def board(*, view: dict[str, Any], seats: list[dict[str, Any]], prompt_options) -> dict[str, Any]:
    you = view.get("you")
    me = None if you is None else you["seat"]
    players = {s["position"]: s for s in seats}
    boards = [seat_board(s, players, me) for s in view["seats"]]
    for b, s in zip(boards, view["seats"]):
        b["london"] = london.seat_part(view, s)  # None in a base game
    # My own board first, then the others in seat order.
    ordered = sorted(boards, key=lambda b: (not b["is_me"], b["seat"]))
    return {
        "template": "games/faltisia/board.html", "status_template": "games/faltisia/status.html",
        "option_card_template": "games/faltisia/card.html", "result_template": "games/faltisia/result.html",
        "phase_label": PHASES.get(view["phase"], view["phase"].title()),
        "schedule": schedule_rows(view), "boards": ordered, "you": you,
        "store": view["store"], "item_deck_count": view["item_deck_count"], "deck_counts": view["deck_counts"],
        "lecture": view.get("lecture"), "decisions": view.get("decisions") or [],
        "option_cards": {**option_cards(view, prompt_options), **london.option_cards(view, prompt_options)},
        "result": result_table(view, boards),
        "classmate": classmate_board(view), "london": london.london_board(view),
        "phone_focus": phone_focus(view, prompt_options),
        "choosing_route": any(o["id"].startswith("route:") for o in prompt_options or ()),
        "view": view,
    }
