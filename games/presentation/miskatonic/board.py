"""Miskatonic's board: each House Board (Sanity track 20..0 in its colour bands, piles, Classroom, Locker), the
School Store's two shelves, the Transfers and Substitutes left, the Class in progress and the viewer's own hand.

Input is the engine's view (games/engines/miskatonic/view.py documents its shape) and the seats' public rows;
nothing else. The view already leaves out other hands and every deck's order, and this module only counts decks.
"""

from __future__ import annotations

from typing import Any

from games.engines.miskatonic.flow import BANDS, MAX_SANITY, band

from .history import seat_name

# The engine's Mad Cackle bands (flow.BANDS: 20-16 green, 15-11 yellow, 10-6 orange, 5-1 red), and 0: insane.
BAND_RANGES = [{"colour": c, "high": MAX_SANITY - 5 * i, "low": MAX_SANITY - 5 * i - 4} for i, c in enumerate(BANDS)]
PHASES = {"start": "Go to the Bank", "produce": "Pay tuition", "student": "Pay tuition", "faculty": "Pay tuition",
          "preclass": "Pre-Class", "class": "Class", "end": "Class dismissed", "done": "Class dismissed",
          "over": "Game over"}
KIND_LABELS = {"starting": "Starting Class", "student": "Student", "faculty": "Faculty", "transfer": "Transfer Student",
               "substitute": "Substitute", "student_event": "Student Event", "faculty_event": "Faculty Event",
               "house": "House Board"}
SHELVES = (("student", "Student shelf"), ("faculty", "Faculty shelf"))


def sanity_track(sanity: int) -> list[dict[str, Any]]:
    """The track's 21 spaces, 20 down to 0, each with its band colour and whether the tracker stands on it."""
    return [{"n": n, "colour": BANDS[band(n)] if n > 0 else "insane", "on": n == sanity}
            for n in range(MAX_SANITY, -1, -1)]


def phase_label(view: dict[str, Any]) -> str:
    """The turn's step in the rulebook's words. A Class in progress is "Class" whatever the turn's phase says (the
    engine marks the turn "end" before its Class starts, and an Aggressive Faculty's Class interrupts Tuition)."""
    if view.get("class") and not view.get("over"):
        return "Class"
    return PHASES.get(view["phase"], view["phase"].replace("_", " ").capitalize())


def is_faculty(card: dict[str, Any]) -> bool:
    return card["kind"] in ("faculty", "substitute", "faculty_event")


def house_board(seat: dict[str, Any], seats: list[dict[str, Any]], me: int | None, current: int) -> dict[str, Any]:
    row = next((s for s in seats if s.get("position") == seat["seat"]), {})
    return {
        "seat": seat["seat"], "is_me": seat["seat"] == me, "house": seat["house"],
        "name": seat_name(seats, seat["seat"]), "username": row.get("player"), "is_bot": row.get("is_bot", False),
        "deciding": row.get("deciding", seat["deciding"]), "is_current": seat["seat"] == current,
        "sanity": seat["sanity"], "band": seat["band"], "eliminated": seat["eliminated"],
        "track": sanity_track(seat["sanity"]), "deck_count": seat["deck_count"], "hand_count": seat["hand_count"],
        "purchase": seat["purchase"], "discard": seat["discard"], "classroom": seat["classroom"],
        "locker": seat["locker"],
    }


def store(view: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for key, title in SHELVES:
        shelf = view["store"][key]
        out.append({"key": key, "title": title, "slots": shelf["shelf"], "deck_count": shelf["deck_count"],
                    "discard_count": len(shelf["discard"])})
    return out


def buy_verb(card: dict[str, Any]) -> str:
    """Where a purchase goes, in the rulebook's words (Locker, Friendly and Aggressive send it elsewhere)."""
    keywords = card.get("keywords") or []
    if "locker" in keywords:
        return "Buy for your Locker"
    if is_faculty(card):
        return ("Buy: straight to the next player's Classroom" if "aggressive" in keywords
                else "Buy for the next player's Purchase Pile")
    return "Buy: straight to your Classroom" if "friendly" in keywords else "Buy for your Purchase Pile"


def option_cards(view: dict[str, Any], options: list[dict[str, str]]) -> dict[str, dict[str, Any]]:
    """Option id -> the card it is about: a purchase is drawn as the shelf's card, a Pre-Class use as the hand's."""
    shelf_cards = {c["id"]: c for key, _ in SHELVES for c in view["store"][key]["shelf"] if c}
    hand = {c["id"]: c for c in (view.get("you") or {}).get("hand") or []}
    out: dict[str, dict[str, Any]] = {}
    for o in options:
        kind, _, cid = o["id"].partition(":")
        if kind == "buy" and cid in shelf_cards:
            card = shelf_cards[cid]
            out[o["id"]] = {"card": card, "verb": buy_verb(card)}
        elif kind == "use" and cid in hand:
            out[o["id"]] = {"card": hand[cid], "verb": "Use: " + o["label"].partition(": ")[2]}
    return out


def result_table(view: dict[str, Any], boards: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The final ranking: elimination order (the last one sane first), with the Sanity each kept."""
    result = view.get("result")
    if not result:
        return None
    rows = [{"seat": b["seat"], "name": b["name"], "username": b["username"], "house": b["house"],
             "is_me": b["is_me"], "rank": result["ranks"][b["seat"]],
             "outlasted": result["breakdown"][b["seat"]].get("outlasted", 0), "sanity": b["sanity"]}
            for b in boards]
    rows.sort(key=lambda r: (r["rank"], r["seat"]))
    return {"rows": rows}


def the_class(view: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    cls = view.get("class")
    if not cls:
        return None
    return dict(cls, name=seat_name(seats, cls["seat"]))


def board(*, view: dict[str, Any], seats: list[dict[str, Any]], prompt_options) -> dict[str, Any]:
    you = view.get("you")
    me = None if you is None else you["seat"]
    boards = [house_board(s, seats, me, view["current"]) for s in view["seats"]]
    ordered = sorted(boards, key=lambda b: (not b["is_me"], b["eliminated"], b["seat"]))
    return {
        "template": "games/miskatonic/board.html", "status_template": "games/miskatonic/status.html",
        "option_card_template": "games/miskatonic/card.html", "result_template": "games/miskatonic/result.html",
        "phase_label": phase_label(view),
        "current_name": seat_name(seats, view["current"]),
        "boards": ordered, "you": you, "me_eliminated": me is not None and view["seats"][me]["eliminated"],
        "store": store(view), "transfers_left": view["transfers_left"], "substitutes_left": view["substitutes_left"],
        "removed_count": len(view.get("removed") or []), "class": the_class(view, seats),
        "bands": BAND_RANGES, "kind_labels": KIND_LABELS,
        "option_cards": option_cards(view, prompt_options), "result": result_table(view, boards),
        "view": view,
        # the page's layout on a phone: every Miskatonic decision is about the hand (production, Classroom, Locker),
        # which comes right under the decision box; the board before the players list and standing orders
        "phone_focus": "my-hand" if prompt_options and you and you.get("hand") is not None else None,
        "phone_board_first": True,
    }


def rules_context() -> dict[str, Any]:
    return {"bands": BAND_RANGES}
