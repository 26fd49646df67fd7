"""Mage Knight's situation in a prompt email, as short plain-text sections, from ``engine.view(state, seat)`` only.

The map becomes a short list: the hexes within two spaces of the player's hero (terrain and its cost now, site,
shield, tokens, other heroes, in hexwords.py's words) and where a tile may be explored. Face-down tokens are named
by their colour only, because that is all the view holds. (What happened since the last prompt is the mail's own
section.)
"""

from __future__ import annotations

from typing import Any

from ..generic.mail import Section
from . import hexgeom as hg
from . import hexwords, labels
from .board import claimed_text, combat, pool

NEAR = 2  # how far around the hero the email lists the map


def _crystals(c: dict[str, Any] | None) -> str:
    c = c or {}
    parts = [f"{c[k]} {k}" for k in ("red", "blue", "green", "white") if c.get(k)]
    return ", ".join(parts) or "none"


def _units(units: list[dict[str, Any]]) -> str:
    return ", ".join(f"{u.get('name') or labels.words(u.get('id', ''))} ("
                     + ("wounded" if u.get("wounded") else "ready" if u.get("ready", True) else "spent")
                     + (f", with {_banner(u['banner'])}" if u.get("banner") else "") + ")"
                     for u in units) or "none"


def _effects(turn: dict[str, Any] | None) -> str:
    """The played cards' effects lasting the turn or the combat, one line."""
    effects = [str(e) for e in (turn or {}).get("effects") or []]
    return ("In effect: " + "; ".join(effects) + ".") if effects else ""


def _set_aside(h: dict[str, Any]) -> str:
    """Cards set aside for the Round (Time Bending), face up."""
    from .board import _played_names
    names = _played_names()
    return ", ".join(names.get(c) or labels.words(c) for c in h.get("set_aside") or [])


def _banner(b: dict[str, Any]) -> str:
    return (b.get("name") or labels.words(b.get("id", ""))) + (" (used)" if b.get("used") else "")


def _hex_line(h: dict[str, Any], time: str, me: int | None = None) -> str:
    """One hex with every detail: "1,0 Plains (costs 2) - Village, shield of seat 2 - hero of seat 1"."""
    name, cost = hexwords.terrain_cost(h, time)
    moves = "impassable" if cost is None else f"costs {cost}"
    return " - ".join([f"{h['q']},{h['r']} {name} ({moves})"] + hexwords.details(h, me))


def around(view: dict[str, Any], pos: str | None, me: int | None = None) -> list[str]:
    """The hexes near ``pos`` (nearest first), then the explore frontier."""
    vmap = view.get("map") or {}
    hexes = vmap.get("hexes") or []
    time = view.get("time") or "day"
    if pos:
        here = hg.parse(pos)
        near = [(hg.distance(here, (int(h["q"]), int(h["r"]))), h) for h in hexes]
        lines = [("You are at " if d == 0 else "") + _hex_line(h, time, me)
                 for d, h in sorted(near, key=lambda x: (x[0], x[1]["r"], x[1]["q"])) if d <= NEAR]
    else:
        lines = ["Your hero is not on the map yet."]
    explore = vmap.get("explore") or []
    if explore:
        lines.append("A new tile may be explored at (2 Move, from a space next to it): " + "; ".join(explore))
    if vmap.get("tiles_left") is not None:
        lines.append(f"Tiles left to explore: {vmap['tiles_left']}")
    return lines


def card_line(c: dict[str, Any]) -> str:
    colour = c.get("colour")
    head = c.get("name") or labels.words(c.get("id", ""))
    if colour and c.get("kind") != "wound":
        head += f" ({colour})"
    return head + (f": {c['text']}" if c.get("text") else "")


def situation(view: dict[str, Any], seat: int) -> list[Section]:
    heroes = {h["seat"]: h for h in view.get("heroes") or []}
    me = heroes.get(seat) or {}
    mine = view.get("me") or {}
    sections: list[Section] = []
    sections.append(("Your hero", [
        f"{me.get('name') or labels.words(me.get('hero', ''))} (seat {seat + 1})" + (f" at {me['pos']}" if me.get("pos") else ""),
        f"Fame {me.get('fame', 0)}, Reputation {me.get('reputation', 0)}, level {me.get('level', 1)}, "
        f"armor {me.get('armor')}, hand limit {me.get('hand_limit')}, command {me.get('command')}",
        f"Deed deck {me.get('deck_count', 0)} cards, discard pile {me.get('discard_count', 0)}",
        f"Crystals: {_crystals(me.get('crystals'))}" + (f"; mana tokens this turn: {', '.join(mine['tokens'])}"
                                                       if mine.get("tokens") else ""),
        f"Units: {_units(me.get('units') or [])}",
    ] + ([f"Set aside this Round: {_set_aside(me)}"] if me.get("set_aside") else [])
      + ([f"Keeps the {claimed_text(me['claimed_die'])} until the end of the Round"] if me.get("claimed_die") else [])
      + ([f"Tactic: {labels.tactic(me['tactic'])['name']}"] if me.get("tactic") else [])))
    sections.append(("Your hand", [card_line(c) for c in mine.get("hand") or []] or ["(empty)"]))
    p = pool(view.get("turn"))
    if p:
        attack = ", ".join(f"{a['label']} {a['text']}" for a in p["attack"] if a["total"]) or "Attack 0"
        turn_seat = view["turn"].get("seat")
        title = "This turn" if turn_seat == seat else f"This turn (seat {turn_seat + 1}'s)"
        sections.append((title, [
            f"Move {p['move']}, Influence {p['influence']}, {attack}, Block {p['block_text']}"
            + (f", Heal {p['heal']}" if p["heal"] else "") + (" (resting)" if p["mode"] == "rest" else "")]
            + ([_effects(view["turn"])] if p["effects"] else [])))
    c = combat(view)
    if c:
        lines = [f"{c['kind']}{' at ' + c['hex'] if c['hex'] else ''}{' (' + c['site'] + ')' if c['site'] else ''}: "
                 f"{c['phase']}" + ("; site fortifications ignored this turn" if c.get("site_unfortified") else "")]
        for e in c["enemies"]:
            if not e["face_up"]:
                lines.append(hexwords.face_down_enemy(e["colour"]))
                continue
            state = [s for s, on in (("blocked", e["blocked"]), ("defeated", e["defeated"])) if on]
            state += e.get("modifiers") or []
            lines.append(f"{e['name']}: armor {e.get('armor_text', e['armor'])}, attack {e['attacks']}"
                         + (f"; {e['abilities']}" if e["abilities"] else "")
                         + (f"; resists {e['resistances']}" if e["resistances"] else "")
                         + (f" [{', '.join(state)}]" if state else ""))
        sections.append(("Combat", lines))
    sections.append(("Around you", around(view, me.get("pos"), seat)))
    dice = [d.get("colour", "?") + (" (taken)" if d.get("taken") else "") for d in view.get("source") or []]
    time = view.get("time") or "day"
    sections.append(("Mana source", [", ".join(dice) or "no dice",
                                     "Night: black mana powers spells, gold cannot be used." if time == "night"
                                     else "Day: gold counts as any basic colour, black cannot be used."]))
    offers = view.get("offers") or {}

    def names(items):
        return ", ".join(i.get("name") or labels.words(i.get("id", "")) if isinstance(i, dict) else labels.words(i)
                         for i in items) or "none"
    sections.append(("Offers", [f"Units: {names(offers.get('units') or [])}",
                                f"Advanced actions: {names(offers.get('advanced') or [])}",
                                f"Spells: {names(offers.get('spells') or [])}"]))
    tactics = view.get("tactics") or {}
    if view.get("phase") == "tactics" and tactics.get("available"):
        sections.append(("Tactics", ["Still to choose: " + ", ".join(
            f"{t['name']} ({t['number']})" if t["number"] else t["name"]
            for t in (labels.tactic(x) for x in tactics["available"]))]))
    others = []
    for s, h in sorted(heroes.items()):
        if s == seat:
            continue
        others.append(f"Seat {s + 1} {h.get('name') or labels.words(h.get('hero', ''))}"
                      + (f" at {h['pos']}" if h.get("pos") else "")
                      + f": Fame {h.get('fame', 0)}, Reputation {h.get('reputation', 0)}, level {h.get('level', 1)}; "
                      f"hand {h.get('hand_count', 0)}, deed deck {h.get('deck_count', 0)}; units: {_units(h.get('units') or [])}"
                      + (f"; set aside this Round: {_set_aside(h)}" if h.get("set_aside") else "")
                      + (f"; keeps the {claimed_text(h['claimed_die'])}" if h.get("claimed_die") else ""))
    dummy = view.get("dummy")
    if dummy:
        others.append(f"Dummy Player {labels.words(dummy.get('hero', ''))}: deed deck {dummy.get('deck_count', 0)}, "
                      f"crystals {_crystals(dummy.get('crystals'))}")
    if others:
        sections.append(("The other heroes", others))
    return sections


def where_in_game(view: dict[str, Any]) -> str:
    """A short "round, day or night, whose turn" line for the subject and heading (seats 1-based)."""
    if view.get("over"):
        return "Game over"
    head = f"Round {view.get('round')} of {view.get('rounds_total')} ({(view.get('time') or 'day').capitalize()})"
    current = view.get("current")
    mine = isinstance(current, int) and current == (view.get("me") or {}).get("seat")
    if view.get("phase") == "tactics":
        return f"{head}: tactics, " + ("you choose" if mine else f"{_who(current)} chooses")
    return f"{head}: " + ("your turn" if mine else f"{_who(current)}'s turn")


def _who(current: Any) -> str:
    return f"seat {current + 1}" if isinstance(current, int) and current >= 0 else "the Dummy Player"


# --- the short situation of a decision mail ---------------------------------------------------------------------
#
# A decision mail has to be read at a glance, so a typical one stays under 40 lines.
# The same facts as ``situation`` in fewer lines: most sections are one line ("Title: line" in the text part),
# the map only within one space of the hero, its hexes grouped by terrain, the hand by name (the card texts
# are in the "status" answer and on the page). Hidden information stays hidden as in ``situation``: it reads
# the same view, and a face-down token is named by its colour only.

SHORT_NEAR = 1


def _hex_short(h: dict[str, Any], me: int | None) -> str:
    """One hex without its terrain: "3,-3 Village, hero of seat 2" (the terrain heads its group)."""
    parts = hexwords.details(h, me, brief=True)
    return f"{h['q']},{h['r']}" + (" " + ", ".join(parts) if parts else "")


def around_short(view: dict[str, Any], pos: str | None, me: int | None = None) -> list[str]:
    """Where the hero stands, then the spaces next to it grouped by terrain with the Move cost now, then the
    explore frontier and the tiles left: at most three lines."""
    vmap = view.get("map") or {}
    hexes = vmap.get("hexes") or []
    time = view.get("time") or "day"
    lines: list[str] = []
    if pos:
        here = hg.parse(pos)
        groups: dict[str, list[str]] = {}
        for h in sorted(hexes, key=lambda x: (x["r"], x["q"])):
            d = hg.distance(here, (int(h["q"]), int(h["r"])))
            if d > SHORT_NEAR:
                continue
            name, moves = hexwords.terrain_cost(h, time)
            cost = "impassable" if moves is None else f"{moves}"
            if d == 0:
                lines.append(f"You are at {_hex_short(h, me)}: {name} ({cost})")
                continue
            groups.setdefault(f"{name} ({cost})", []).append(_hex_short(h, me))
        if groups:
            lines.append("Next to you: " + "; ".join(f"{k} {', '.join(v)}" for k, v in groups.items()))
    else:
        lines.append("Your hero is not on the map yet.")
    explore = vmap.get("explore") or []
    tail = []
    if explore:
        tail.append("a new tile may be explored (2 Move, from a space next to it) at " + ", ".join(explore))
    if vmap.get("tiles_left") is not None:
        tail.append(f"tiles left to explore: {vmap['tiles_left']}")
    if tail:
        lines.append("; ".join(tail)[:1].upper() + "; ".join(tail)[1:])
    return lines


def _card_short(c: dict[str, Any]) -> str:
    head = c.get("name") or labels.words(c.get("id", ""))
    colour = c.get("colour")
    return head + (f" ({colour})" if colour and c.get("kind") != "wound" else "")


def short_situation(view: dict[str, Any], seat: int) -> list[Section]:
    """``situation`` in about a dozen lines (see above)."""
    heroes = {h["seat"]: h for h in view.get("heroes") or []}
    me = heroes.get(seat) or {}
    mine = view.get("me") or {}
    sections: list[Section] = []
    hero = (f"{me.get('name') or labels.words(me.get('hero', ''))} (seat {seat + 1}), "
            f"Fame {me.get('fame', 0)}, Reputation {me.get('reputation', 0)}, level {me.get('level', 1)}, "
            f"armor {me.get('armor')}, hand limit {me.get('hand_limit')}, command {me.get('command')}"
            + (f"; tactic {labels.tactic(me['tactic'])['name']}" if me.get("tactic") else ""))
    sections.append(("Your hero", [hero]))
    kit = (f"deed deck {me.get('deck_count', 0)}, discard pile {me.get('discard_count', 0)}; "
           f"crystals {_crystals(me.get('crystals'))}"
           + (f"; mana tokens {', '.join(mine['tokens'])}" if mine.get("tokens") else "")
           + f"; units {_units(me.get('units') or [])}"
           + (f"; set aside this Round: {_set_aside(me)}" if me.get("set_aside") else "")
           + (f"; keeps the {claimed_text(me['claimed_die'])} until the end of the Round"
              if me.get("claimed_die") else ""))
    sections.append(("Your cards", [kit[:1].upper() + kit[1:]]))
    sections.append(("Your hand", [", ".join(_card_short(c) for c in mine.get("hand") or []) or "(empty)"]))
    p = pool(view.get("turn"))
    if p:
        attack = ", ".join(f"{a['label']} {a['text']}" for a in p["attack"] if a["total"]) or "Attack 0"
        turn_seat = view["turn"].get("seat")
        title = "This turn" if turn_seat == seat else f"This turn (seat {turn_seat + 1}'s)"
        sections.append((title, [
            f"Move {p['move']}, Influence {p['influence']}, {attack}, Block {p['block_text']}"
            + (f", Heal {p['heal']}" if p["heal"] else "") + (" (resting)" if p["mode"] == "rest" else "")
            + (f"; in effect: {'; '.join(p['effects'])}" if p["effects"] else "")]))
    c = combat(view)
    if c:
        foes = []
        for e in c["enemies"]:
            if not e["face_up"]:
                foes.append(hexwords.face_down_enemy(e["colour"]))
                continue
            state = [s for s, on in (("blocked", e["blocked"]), ("defeated", e["defeated"])) if on]
            state += e.get("modifiers") or []
            foes.append(f"{e['name']} (armor {e.get('armor_text', e['armor'])}, attack {e['attacks']}"
                        + (f"; {e['abilities']}" if e["abilities"] else "")
                        + (f"; resists {e['resistances']}" if e["resistances"] else "") + ")"
                        + (f" [{', '.join(state)}]" if state else ""))
        sections.append(("Combat", [
            f"{c['kind']}{' at ' + c['hex'] if c['hex'] else ''}{' (' + c['site'] + ')' if c['site'] else ''}, "
            f"{c['phase']}" + ("; site fortifications ignored this turn" if c.get("site_unfortified") else "")
            + (": " + "; ".join(foes) if foes else "")]))
    sections.append(("Around you", around_short(view, me.get("pos"), seat)))
    dice = [d.get("colour", "?") + (" (taken)" if d.get("taken") else "") for d in view.get("source") or []]
    time = view.get("time") or "day"
    sections.append(("Mana source", [(", ".join(dice) or "no dice") + (
        " (Night: black mana powers spells, gold cannot be used)" if time == "night"
        else " (Day: gold counts as any basic colour, black cannot be used)")]))
    offers = view.get("offers") or {}

    def names(items):
        return ", ".join(i.get("name") or labels.words(i.get("id", "")) if isinstance(i, dict) else labels.words(i)
                         for i in items) or "none"
    sections.append(("Offers", [f"units {names(offers.get('units') or [])}; "
                                f"advanced actions {names(offers.get('advanced') or [])}; "
                                f"spells {names(offers.get('spells') or [])}"]))
    tactics = view.get("tactics") or {}
    if view.get("phase") == "tactics" and tactics.get("available"):
        sections.append(("Tactics still to choose", [", ".join(
            f"{t['name']} ({t['number']})" if t["number"] else t["name"]
            for t in (labels.tactic(x) for x in tactics["available"]))]))
    others = []
    for s, h in sorted(heroes.items()):
        if s == seat:
            continue
        others.append(f"Seat {s + 1} {h.get('name') or labels.words(h.get('hero', ''))}"
                      + (f" at {h['pos']}" if h.get("pos") else "")
                      + f": Fame {h.get('fame', 0)}, Reputation {h.get('reputation', 0)}, level {h.get('level', 1)}; "
                      f"hand {h.get('hand_count', 0)}, deed deck {h.get('deck_count', 0)}; units {_units(h.get('units') or [])}"
                      + (f"; set aside this Round: {_set_aside(h)}" if h.get("set_aside") else "")
                      + (f"; keeps the {claimed_text(h['claimed_die'])}" if h.get("claimed_die") else ""))
    dummy = view.get("dummy")
    if dummy:
        others.append(f"Dummy Player {labels.words(dummy.get('hero', ''))}: deed deck {dummy.get('deck_count', 0)}, "
                      f"crystals {_crystals(dummy.get('crystals'))}")
    if others:
        sections.append(("The other heroes", others))
    return sections
