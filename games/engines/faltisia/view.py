"""What a seat (or a spectator) may see: the one function every surface goes through.

Shape (keys are stable; cards are dicts ``{number, name, type, type_label, text, cost, condition, effect,
mp[, club]}`` so that a page renders without the CSV)::

    {
      "game": "faltisia", "players": 4, "step": 17, "phase": "lecture" | "action" | "draft" | "setup" |
               "characters" | "reprompt" | "over",
      "round": 1, "term": 3, "draft_pick": 0,
      "time_marker": {"round": 1, "term": 3, "phase": "lecture"},
      "schedule": [{"round": 1, "lectures": ["red", "X", ...]}, ...],      # 7 entries per round
      "lecture": "red" | None,                                              # this term's lecture
      "store": [card, ...], "item_deck_count": 11, "deck_counts": {"1": 0, "2": 16, "3": 16},
      "seats": [{"seat": 0, "character": card | None, "licensed": bool,
                 "attributes": {"strength": 2, ...} | None (before the reveal),
                 "tokens": {"red": 1, "blue": 0, "yellow": 2, "green": 1, "rainbow": 0},
                 "sterlings": 3, "mp_tokens": 0, "face_up": [card, ...], "items": [card, ...],
                 "face_down_count": 2, "hand_size": 7, "requirements_count": 2, "deciding": bool}, ...],
      "decisions": [...recorded rulings, e.g. character collisions...],
      "classmate": None (multi-player) | {"character": card, "difficulty": "medium", "licensed": bool,
                    "attributes": {...}, "token_line": ["red", "rainbow", ...] (left to right, spent from the
                    left), "tokens": {...}, "sterlings": 3, "mp_tokens": 0, "face_up": [card], "items": [card],
                    "face_down_count": 0, "stack_count": 7, "requirements_count": 2,
                    "actions": [{"round": 1, "term": 3, "text": "attends the red lecture ..."}, ...]
                               (what it did in the last term and this one, in plain words),
                    "requirements": [card] only once the game is over},
      "london": None (base game) | the Battle for London board: {"routes": [{"route": "A", "seat": 2 | None,
                 "position": 0-5 | None, "spaces": [{"stage": 1, "checkpoint": {id, name, effect} | None}] x4,
                 "control_points": [{id, name, price, requirement: {attribute, at_least}, text}] x3}] x6,
                 "layout": [...], "paladins": [{round, id, name, effect}] x3, "current_paladin": {...} | None,
                 "big_ben": [{"id": "mp", "name": ..., "seat": None | seat}] x6},
        and each seat gains "london": {"attendance_award": bool, "route", "position", "checkpoints": [...],
                 "control_points_broken", "big_ben_bonus", "set_aside_ability": card | None (only once over)},
      "over": bool, "result": {"scores", "ranks", "breakdown", "tiebreak"} | None,
      "you": None (spectator) | {"seat": 0, "hand": [card + {"playable": bool}], "draft_pack": [card],
              "drafted": [card], "requirements": [card], "requirement_offer": [card],
              "face_down": [card], "ability_card": card | None, "plan": {...} | None,
              "decision": {...stage being decided...} | None,
              Battle for London only: "ability_offer": [card, card] (before the secret pick),
              "set_aside_ability": card | None (your own, hidden from everyone else until played or over)},
    }
"""

from __future__ import annotations

from . import london
from .cards import ATTRS, COLORS, card_dict
from .effects import card_playable

_CARD_CACHE: dict[str, dict] = {}


def _card(cid: str) -> dict:
    d = _CARD_CACHE.get(cid)
    if d is None:
        d = _CARD_CACHE[cid] = card_dict(cid)
    return dict(d)


def _tokens(tok: list[int]) -> dict[str, int]:
    return {COLORS[i]: tok[i] for i in range(5)}


def public_seat(state: dict, i: int) -> dict:
    s = state["seats"][i]
    revealed = s["attr"] is not None
    return {
        "seat": i,
        "character": _card(s["char"]) if s["char"] else None,
        "licensed": s["lic"],
        "attributes": {ATTRS[a]: s["attr"][a] for a in range(4)} if revealed else None,
        "tokens": _tokens(s["tok"]),
        "sterlings": s["ster"],
        "mp_tokens": s["mp"],
        "face_up": [_card(c) for c in s["up"]],
        "items": [_card(c) for c in s["items"]],
        "face_down_count": len(s["down"]),
        "hand_size": len(s["hand"]),
        "requirements_count": len(s["reqs"]) or len(s["offer"]),
        "deciding": s["dec"] is not None,
        **({"london": _london_seat(state, i)} if "bfl" in s else {}),
    }


def _london_seat(state: dict, i: int) -> dict:
    d = london.seat_view(state, i)
    if d["set_aside_ability"]:
        d["set_aside_ability"] = _card(d["set_aside_ability"])
    return d


def classmate_view(state: dict) -> dict | None:
    """The solo Classmate as everyone sees it. Its Graduation Requirements are face down ("You may not look
    at these cards until the end of the game") and its stack is face down: counts only until the game is over."""
    cm = state.get("classmate")
    if cm is None:
        return None
    out = {
        "character": _card(cm["char"]),
        "difficulty": cm["difficulty"],
        "licensed": cm["lic"],
        "attributes": {ATTRS[a]: cm["attr"][a] for a in range(4)},
        "token_line": [COLORS[c] for c in cm["line"]],
        "tokens": _tokens(cm["tok"]),
        "sterlings": cm["ster"],
        "mp_tokens": cm["mp"],
        "face_up": [_card(c) for c in cm["up"]],
        "items": [_card(c) for c in cm["items"]],
        "face_down_count": len(cm["down"]),
        "stack_count": len(cm["stack"]),
        "requirements_count": len(cm["reqs"]),
        "actions": [{"round": d["round"], "term": d["term"], "text": d["text"]} for d in cm["did"]],
    }
    if state["over"]:
        out["requirements"] = [_card(c) for c in cm["reqs"]]
    return out


def view(state: dict, seat: int | None) -> dict:
    """The redacted view for ``seat`` (None: a spectator, who sees only public information)."""
    rnd = state["round"]
    out = {
        "game": "faltisia",
        "players": state["players"],
        "step": state["step"],
        "phase": state["phase"],
        "round": rnd,
        "term": state["term"],
        "draft_pick": state["pick"],
        "time_marker": {"round": rnd, "term": state["term"], "phase": state["phase"]},
        "schedule": [{"round": r + 1, "lectures": ["X" if c < 0 else COLORS[c] for c in row]}
                     for r, row in enumerate(state["schedule"])],
        "lecture": None if state["lecture"] is None else COLORS[state["lecture"]],
        "store": [_card(c) for c in state["store"]],
        "item_deck_count": len(state["item_deck"]),
        "deck_counts": {k: len(v) for k, v in state["decks"].items()},
        "seats": [public_seat(state, i) for i in range(state["players"])],
        "decisions": [dict(d) for d in state["decisions"]],
        "classmate": classmate_view(state),
        "london": london.board_view(state) if state.get("london") is not None else None,
        "over": state["over"],
        "result": _jsonish(state["result"]),
        "you": None,
    }
    if seat is not None:
        s = state["seats"][seat]
        hand = []
        for c in s["hand"]:
            d = _card(c)
            d["playable"] = s["attr"] is not None and card_playable(s, c)
            hand.append(d)
        dec = s["dec"]
        out["you"] = {
            "seat": seat,
            "hand": hand,
            "draft_pack": [_card(c) for c in s["pack"]],
            "drafted": [_card(c) for c in s["picked"]],
            "requirements": [_card(c) for c in s["reqs"]],
            "requirement_offer": [_card(c) for c in s["offer"]],
            "face_down": [_card(c) for c in s["down"]],
            "ability_card": _card(s["ability"]) if s["ability"] else None,
            "plan": _jsonish(s["plan"]),
            "decision": _jsonish(dec),
        }
        if "bfl" in s:
            pk = s["bfl"]
            out["you"]["ability_offer"] = [_card(c) for c in pk["offer"]]
            out["you"]["set_aside_ability"] = _card(pk["aside"]) if pk["aside"] else None
    return out


def _jsonish(d):
    """A deep copy of plain JSON data (the view must not alias the state)."""
    if isinstance(d, dict):
        return {k: _jsonish(v) for k, v in d.items()}
    if isinstance(d, list):
        return [_jsonish(v) for v in d]
    return d
