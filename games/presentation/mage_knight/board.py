"""Mage Knight's board for one viewer: the map (mapview.py), each hero's area, the viewer's hand, the mana
source, the offers, the tactics, the running turn's totals, a combat in progress and the final table.

Input is the engine's view (games/engines/mage_knight/view.py; the shape is README "View") and the seats' public rows;
nothing else. Another seat's hand is only ever a count there, decks only counts; this module only arranges them.
"""

from __future__ import annotations

from typing import Any

from ..wording import seat_label
from . import labels
from .mapview import map_context, place_of


def seat_name(seats: list[dict[str, Any]] | None, seat: int | None) -> str:
    """A seat as people know it ("alice", "Bot 2", "Seat 2"; 1-based)."""
    if not isinstance(seat, int) or seat < 0:  # the engine's seat -1 is the Dummy Player
        return "the Dummy Player"
    for s in seats or ():
        if s.get("position") == seat:
            return seat_label(position=seat, username=s.get("player"), is_bot=bool(s.get("is_bot")))
    return seat_label(position=seat, username=None, is_bot=False)


def card(c: dict[str, Any]) -> dict[str, Any]:
    """A deed card as drawn: name, colour band, kind in words, plain-English text."""
    kind = c.get("kind") or ""
    colour = c.get("colour") or ("wound" if kind == "wound" else "none")
    return {"id": c.get("id"), "name": c.get("name") or labels.words(c.get("id", "")), "colour": colour,
            "kind": labels.CARD_KINDS.get(kind, labels.words(kind)) if kind else "",
            "text": c.get("text") or "", "wound": kind == "wound" or c.get("id") == "wound"}


def offer_item(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        out = dict(item)
        out.setdefault("name", labels.words(item.get("id", "")))
        return out
    return {"id": item, "name": labels.words(item)}


def unit(u: dict[str, Any]) -> dict[str, Any]:
    state = "wounded" if u.get("wounded") else ("ready" if u.get("ready", True) else "spent")
    return dict(u, name=u.get("name") or labels.words(u.get("id", "")), state=state)


def crystals(c: dict[str, Any] | None) -> list[dict[str, Any]]:
    c = c or {}
    return [{"colour": k, "n": int(c.get(k) or 0), "fill": labels.MANA[k]} for k in ("red", "blue", "green", "white")]


def hero_area(h: dict[str, Any], seats, me: int | None, view: dict[str, Any],
              card_names: dict[str, str] | None = None) -> dict[str, Any]:
    card_names = card_names or {}
    seat = h["seat"]
    row = next((s for s in seats or () if s.get("position") == seat), {})
    return {
        "seat": seat, "number": seat + 1, "name": seat_name(seats, seat), "username": row.get("player"),
        "is_bot": bool(row.get("is_bot")), "deciding": bool(row.get("deciding")), "is_me": seat == me,
        "is_current": seat == view.get("current") and not view.get("over"), "fill": labels.seat_colour(seat),
        "hero": h.get("name") or labels.words(h.get("hero", "")), "pos": h.get("pos"),
        "fame": h.get("fame", 0), "reputation": h.get("reputation", 0), "level": h.get("level", 1),
        "armor": h.get("armor"), "hand_limit": h.get("hand_limit"), "command": h.get("command"),
        "units": [unit(u) for u in h.get("units") or []], "crystals": crystals(h.get("crystals")),
        "deck_count": h.get("deck_count", 0), "hand_count": h.get("hand_count", 0),
        "discard_count": h.get("discard_count", 0), "tactic": labels.tactic(h.get("tactic")),
        "skills": [labels.words(s) if not isinstance(s, dict) else s.get("name") or labels.words(s.get("id"))
                   for s in h.get("skills") or []],
        "played": [card_names.get(c) or labels.words(c) for c in h.get("play_area") or []],
        "set_aside": [card_names.get(c) or labels.words(c) for c in h.get("set_aside") or []],
        "claimed": claimed_text(h.get("claimed_die")),
    }


def claimed_text(claim: dict[str, Any] | None) -> str | None:
    """A Source die kept until the end of the Round (Mana Claim / Mana Curse), in words (public)."""
    if not claim:
        return None
    text = f"{claim.get('colour')} die (" + ("Mana Curse" if claim.get("curse") else "Mana Claim")
    return text + (", a token each turn)" if claim.get("each_turn") else ")")


def source(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"colour": d.get("colour"), "taken": bool(d.get("taken")), "fill": labels.MANA.get(d.get("colour"), "#999"),
             "name": labels.words(d.get("colour", ""))} for d in view.get("source") or []]


def pool(turn: dict[str, Any] | None) -> dict[str, Any] | None:
    """The running totals of the turn being played (public: played cards are face up)."""
    if not turn:
        return None
    p = turn.get("pool") or {}
    attack = p.get("attack") or {}
    if not isinstance(attack, dict) or not any(k in attack for k in ("melee", "ranged", "siege")):
        attack = {"melee": attack}
    parts = [{"kind": kind, "label": label, "total": labels.elem_total(attack.get(kind)),
              "text": labels.elem_text(attack.get(kind))}
             for kind, label in (("melee", "Attack"), ("ranged", "Ranged"), ("siege", "Siege"))]
    return {
        "move": p.get("move", 0), "influence": p.get("influence", 0), "heal": p.get("heal", 0),
        "attack": parts, "block": labels.elem_total(p.get("block")), "block_text": labels.elem_text(p.get("block")),
        "mode": turn.get("mode"), "acted": bool(turn.get("acted")),
        "effects": [str(e) for e in turn.get("effects") or []],  # played cards' effects lasting the turn
    }


def _armor_text(e: dict[str, Any]) -> str:
    """ "3 (-2)": the armor now, with the change cards made this combat (never below 1)."""
    armor, base = e.get("armor"), e.get("base_armor")
    if base is None or armor == base:
        return f"{armor}"
    return f"{armor} ({armor - base:+d})"


def enemy_modifiers(e: dict[str, Any]) -> list[str]:
    """What cards and units did to this enemy for the rest of the combat, in short words (public: played cards
    are public): "does not attack", "no fire resistance", "fortification removed"."""
    out = []
    if e.get("skip"):
        out.append("does not attack")
    lost = e.get("lost_resistances") or []
    if lost:
        names = [labels.words(r).lower() for r in lost]
        out.append("no " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1])
                   + " resistance")
    if e.get("unfortified"):
        out.append("fortification removed")
    return out


def combat(view: dict[str, Any]) -> dict[str, Any] | None:
    c = view.get("combat")
    if not c:
        return None
    enemies = []
    targets = set(c.get("targets") or [])
    for i, e in enumerate(c.get("enemies") or []):
        if e.get("gone"):  # a summoned monster sent back, or a summoner standing aside: not in the fight now
            continue
        face_up = e.get("face_up", True)
        row = {"face_up": face_up, "colour": e.get("colour"), "fill": labels.ENEMY_COLOURS.get(e.get("colour"), "#999")}
        if face_up:
            row.update(name=e.get("name") or labels.words(e.get("id", "")), armor=e.get("armor"),
                       armor_text=_armor_text(e), modifiers=enemy_modifiers(e),
                       attacks=labels.attacks_text(e.get("attacks")),
                       abilities=", ".join(labels.words(a) for a in e.get("abilities") or []),
                       resistances=", ".join(labels.words(a) for a in e.get("resistances") or []),
                       fortified=e.get("fortified"), fame=e.get("fame"),
                       blocked=bool(e.get("blocked")), defeated=bool(e.get("defeated")),
                       targeted=e.get("index", i) in targets, summoned=bool(e.get("summoned")))
        enemies.append(row)
    ctx = c.get("context") or {}
    kind = ctx.get("kind")
    return {
        "phase": labels.COMBAT_PHASES.get(c.get("phase"), labels.words(c.get("phase") or "")), "enemies": enemies,
        "kind": {"rampaging": "Rampaging enemies", "provoked": "Provoked rampaging enemies", "site": "Site",
                 "challenge": "Challenge", "burn": "Burning a Monastery"}.get(kind, labels.words(kind or "combat")),
        "hex": ctx.get("hex"), "site": labels.site_name(ctx.get("site")) if ctx.get("site") else "",
        "fortified": ctx.get("fortified"), "site_unfortified": bool(c.get("site_unfortified")),
        "wounds": c.get("wounds_taken", c.get("wounds")),
        "knocked_out": bool(c.get("knocked_out")),
    }


def result_table(view: dict[str, Any], heroes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The final table: rank, player, Fame and each achievement's points (scoring.py's breakdown)."""
    result = view.get("result")
    if not result:
        return None
    breakdown = result.get("breakdown") or [{} for _ in heroes]
    keys: list[str] = []
    for b in breakdown:
        keys += [k for k in b if k not in keys]
    columns = [{"key": k, "label": labels.score_label(k)} for k in keys]
    rows = []
    for h in heroes:
        s = h["seat"]
        b = breakdown[s] if s < len(breakdown) else {}
        rows.append({"seat": s, "name": h["name"], "username": h["username"], "hero": h["hero"], "is_me": h["is_me"],
                     "rank": result["ranks"][s], "score": result["scores"][s],
                     "cells": [b.get(k, 0) for k in keys]})
    rows.sort(key=lambda r: (r["rank"], r["seat"]))
    return {"rows": rows, "columns": columns}


def tactics(view: dict[str, Any], seats) -> dict[str, Any]:
    t = view.get("tactics") or {}
    chosen = t.get("chosen") or {}
    return {"available": [labels.tactic(x) for x in t.get("available") or []],
            "chosen": [{"seat": int(s), "name": seat_name(seats, int(s)) if str(s).lstrip("-").isdigit() else str(s),
                        "tactic": labels.tactic(x)} for s, x in chosen.items() if str(s).lstrip("-").isdigit()]}


def option_cards(view: dict[str, Any], options: list[dict[str, str]]) -> dict[str, dict[str, Any]]:
    """Option id -> the hand card it plays (turn.py's "t-play:<card id>"), so the decision box draws it as the card."""
    hand = {c.get("id"): c for c in ((view.get("me") or {}).get("hand") or [])}
    out: dict[str, dict[str, Any]] = {}
    for o in options:
        if place_of(o):
            continue
        kind, _, rest = o["id"].partition(":")
        cid = rest.split(":")[0]
        if kind in ("play", "t-play") and cid in hand:
            out[o["id"]] = {"card": card(hand[cid]), "verb": o["label"]}
    return out


def phone_focus(view: dict[str, Any], options: list[dict[str, str]]) -> str | None:
    """The part of the board the viewer's decision is about, for the phone's layout (base.Presentation.board):
    a fight -> the combat panel; a move or an explore -> the map; a Tactic -> the tactics; a card to play -> the
    hand. None without a decision."""
    if not options:
        return None
    if view.get("combat"):
        return "mk-combat"
    if any(place_of(o) for o in options):
        return "mk-map-panel"
    kinds = {o["id"].partition(":")[0] for o in options}
    if kinds & {"tactic", "t-tactic"}:
        return "mk-tactics"
    if kinds & {"play", "t-play"} and (view.get("me") or {}).get("hand"):
        return "my-hand"
    return None


def _played_names() -> dict[str, str]:
    """Card id -> name for cards in play areas (the view lists them by id; they are public once played)."""
    try:
        from games.engines.mage_knight.cards import CARDS
    except ImportError:  # an engine without its card table still draws, with the ids in words
        return {}
    return {cid: c.name for cid, c in CARDS.items()}


def board(*, view: dict[str, Any], seats: list[dict[str, Any]], prompt_options) -> dict[str, Any]:
    me_view = view.get("me") or None
    me = me_view.get("seat") if me_view else None
    heroes = [hero_area(h, seats, me, view, _played_names()) for h in view.get("heroes") or []]
    mine = next((h for h in heroes if h["is_me"]), None)
    ordered = sorted(heroes, key=lambda h: (not h["is_me"], h["seat"]))
    turn = view.get("turn")
    dummy = view.get("dummy")
    return {
        "template": "games/mage_knight/board.html", "status_template": "games/mage_knight/status.html",
        "result_template": "games/mage_knight/result.html",
        "option_card_template": "games/mage_knight/card.html",
        "map": map_context(view, me, prompt_options or []),
        "heroes": ordered, "mine": mine, "me": me_view,
        "hand": [card(c) for c in (me_view or {}).get("hand") or []],
        "tokens": [{"colour": c, "fill": labels.MANA.get(c, "#999")} for c in (me_view or {}).get("tokens") or []],
        "source": source(view), "offers": {k: [offer_item(x) for x in (view.get("offers") or {}).get(k) or []]
                                           for k in ("units", "advanced", "spells")},
        "tactics": tactics(view, seats), "pool": pool(turn),
        "turn_name": seat_name(seats, turn.get("seat")) if turn else "",
        "current_name": seat_name(seats, view.get("current")) if view.get("current") is not None else "",
        "phase_label": labels.PHASES.get(view.get("phase"), labels.words(view.get("phase") or "")),
        "dummy": dict(dummy, hero_name=dummy.get("name") or labels.words(dummy.get("hero", "")),
                      tactic=labels.tactic(dummy.get("tactic")),
                      crystals=crystals(dummy.get("crystals"))) if dummy else None,
        "combat": combat(view), "result": result_table(view, heroes),
        "option_cards": option_cards(view, prompt_options or []),
        "phone_focus": phone_focus(view, prompt_options or []),
        "view": view,
    }
