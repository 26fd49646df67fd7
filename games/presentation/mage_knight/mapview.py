"""The map as drawing instructions for templates/map.html: hexes, sites, tokens, figures, the explore frontier and
the hexes a move option leads to.

Input is the engine's view only (its "map" part, README "View"): a face-down enemy there carries its colour and
nothing else, a face-down ruins token nothing but face_up=False, so this module cannot draw what the viewer may not
know. It still never reads an id or a name of a face-down token, so a view that leaked one would not show it.
"""

from __future__ import annotations

import re
from typing import Any

from . import hexgeom as hg
from . import hexwords, labels

# A pick that puts a hero (or a tile) somewhere names the place as "q,r" in its id or label: turn.py's
# "t-move:1,-1" and "t-explore:2,1", or a label "move to 1,-1 (2)". Only these verbs become clickable hexes; every pick stays a button too.
PLACE = re.compile(r"^(?:t-)?(move|explore)\b\D*?(-?\d+)\s*,\s*(-?\d+)", re.I)


def place_of(option: dict[str, str]) -> tuple[str, tuple[int, int]] | None:
    """(verb, (q, r)) for a move or explore pick, None for any other."""
    for text in (option.get("id") or "", option.get("label") or ""):
        m = PLACE.match(text.strip())
        if m:
            return m.group(1).lower(), (int(m.group(2)), int(m.group(3)))
    return None


COST = re.compile(r"\((\d+)\)\s*$")


def tap_action(opts: list[dict[str, Any]], where: str) -> dict[str, Any] | None:
    """What tapping a hex (or an explorable tile) does: the first move/explore pick there, exactly as offered (its
    option id is posted through the map's form like the decision box's button), with its Move cost and a name
    for screen readers. None: the hex is inert."""
    if not opts:
        return None
    o = opts[0]
    m = COST.search(o["label"] or "")
    cost = int(m.group(1)) if m else None
    verb = o["verb"].capitalize()
    spoken = f"{verb} {'to' if o['verb'] == 'move' else 'at'} {where}" + (f", cost {cost} Move" if cost is not None else "")
    return {"id": o["id"], "verb": verb, "cost": cost, "aria": spoken}


def text_line(h: dict[str, Any]) -> str:
    """The hex in words, for the map's text equivalent: terrain, place, site and owner, tokens, heroes, what a tap
    does. Face-down tokens are their back's colour only (drawn from the view, as the map is)."""
    parts = [h["title"]]
    for t in h["tokens"]:
        if t.get("ruins"):
            parts.append(f"ruins token {t['name']}" if t["face_up"] else "face-down ruins token")
        elif t["face_up"]:
            parts.append("enemy " + hexwords.enemy_words(t["name"], t["armor"], t["attacks"]))
        else:
            parts.append(f"face-down {t['back']} enemy token")
    for f in h["heroes"]:
        parts.append(f"hero of seat {f['number']}" + (" (you)" if f["me"] else ""))
    if h.get("go"):
        parts.append(h["go"]["aria"].lower())
    return "; ".join(parts)


def enemy_token(e: dict[str, Any]) -> dict[str, Any]:
    """A token as drawn: face-down shows its back's colour only; face-up its name, armor and attacks."""
    colour = e.get("colour")
    token = {"face_up": bool(e.get("face_up")), "colour": colour,
             "fill": labels.ENEMY_COLOURS.get(colour, "#999"), "back": labels.ENEMY_COLOUR_NAMES.get(colour, colour)}
    if token["face_up"]:
        token.update(name=e.get("name") or labels.words(e.get("id", "")), armor=e.get("armor"),
                     attacks=labels.attacks_text(e.get("attacks")), attacks_short=labels.attacks_short(e.get("attacks")),
                     abilities=", ".join(labels.words(a) for a in e.get("abilities") or []),
                     resistances=", ".join(labels.words(a) for a in e.get("resistances") or []),
                     fame=e.get("fame"))
    return token


def ruins_token(ruins: dict[str, Any] | None) -> dict[str, Any] | None:
    if not ruins:
        return None
    if ruins.get("face_up"):
        return {"face_up": True, "name": labels.words(ruins.get("id") or "ruins token")}
    return {"face_up": False}


def _row(n: int, cx: float, y: float, gap: float) -> list[tuple[float, float]]:
    """n positions in a row centred on cx."""
    return [(cx + (i - (n - 1) / 2) * gap, y) for i in range(n)]


def draw_hex(h: dict[str, Any], me: int | None, targets: dict[tuple[int, int], list[dict[str, Any]]]) -> dict[str, Any]:
    q, r = int(h["q"]), int(h["r"])
    cx, cy = hg.centre(q, r)
    tname, fill, day, night = labels.terrain(h.get("terrain"))
    site = h.get("site")
    owner = h.get("owner")
    enemies = [enemy_token(e) for e in h.get("enemies") or []]
    ruins = ruins_token(h.get("ruins"))
    tokens = enemies + ([dict(ruins, ruins=True)] if ruins else [])
    radius = 8 if len(tokens) <= 3 else 6
    for t, (x, y) in zip(tokens, _row(len(tokens), cx, cy, 2 * radius + 1.5)):
        t.update(x=round(x, 1), y=round(y, 1), r=radius)
    heroes = [{"seat": s, "number": s + 1, "fill": labels.seat_colour(s), "me": s == me}
              for s in h.get("heroes") or []]
    for f, (x, y) in zip(heroes, _row(len(heroes), cx, cy + 17, 13)):
        f.update(x=round(x, 1), y=round(y, 1))
    title = [f"{tname} ({q},{r})"]
    if day is not None:
        title.append(f"move cost {day} by day, {night} by night")
    if site:
        title.append(labels.site_name(site) + (f", shield of seat {owner + 1}" if isinstance(owner, int) else ""))
    if h.get("rampaging"):
        title.append("rampaging enemy")
    return {
        "q": q, "r": r, "key": f"{q},{r}", "x": round(cx, 1), "y": round(cy, 1), "points": hg.points(q, r),
        "terrain": h.get("terrain"), "terrain_name": tname, "fill": fill,
        "site": site, "site_name": labels.site_name(site) if site else "", "site_short": labels.site_short(site) if site else "",
        "owner": owner, "owner_fill": labels.seat_colour(owner) if isinstance(owner, int) else None,
        "conquered": bool(h.get("conquered")), "burned": bool(h.get("burned")), "rampaging": bool(h.get("rampaging")),
        "tokens": tokens, "heroes": heroes, "title": "; ".join(title),
        "target": bool(targets.get((q, r))),
        "go": tap_action(targets.get((q, r)) or [], f"{tname} {q},{r}"),
    }


def map_context(view: dict[str, Any], me: int | None, prompt_options: list[dict[str, str]]) -> dict[str, Any]:
    """Everything templates/map.html draws, with the viewBox around the known map and the open frontier."""
    vmap = view.get("map") or {}
    targets: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for o in prompt_options:
        place = place_of(o)
        if place:
            targets.setdefault(place[1], []).append({"id": o["id"], "label": o["label"], "verb": place[0]})
    hexes = [draw_hex(h, me, targets) for h in vmap.get("hexes") or []]
    known = {(h["q"], h["r"]) for h in hexes}
    frontier = []
    for key in vmap.get("explore") or []:
        q, r = hg.parse(key)
        cx, cy = hg.centre(q, r)
        frontier.append({"key": key, "x": round(cx, 1), "y": round(cy, 1),
                         "outlines": [hg.points(a, b) for a, b in hg.tile_hexes(q, r) if (a, b) not in known],
                         "go": tap_action([o for o in targets.get((q, r)) or [] if o["verb"] == "explore"],
                                          f"the unexplored tile {key}")})
    cells = set(known)
    for f in frontier:
        cells.update(hg.tile_hexes(*hg.parse(f["key"])))
    cells.update(targets)
    x0, y0, w, h = hg.view_box(cells)
    hex_w = hg.SIZE * hg.SQRT3
    clickable = []
    for (q, r), opts in sorted(targets.items()):
        cx, cy = hg.centre(q, r)
        for i, o in enumerate(opts):
            clickable.append({
                "id": o["id"], "label": o["label"], "verb": o["verb"].capitalize(), "key": f"{q},{r}",
                "left": round((cx - x0) / w * 100, 3), "top": round((cy - y0 + i * 14) / h * 100, 3),
                "width": round(hex_w * 0.8 / w * 100, 3),
            })
    legend = []
    seen = {h["terrain"] for h in hexes}
    for t, (name, fill, day, night) in labels.TERRAINS.items():
        if t in seen:
            legend.append({"terrain": t, "name": name, "fill": fill,
                           "cost": "impassable" if day is None else f"{day} by day, {night} by night"})
    revealed = [dict(t, at=h["key"], site=h["site_name"]) for h in hexes for t in h["tokens"] if t["face_up"]]
    for drawn in hexes:
        drawn["text"] = text_line(drawn)
    # On a touch screen the map keeps each hex at least 48 CSS px wide (it scrolls inside its frame instead).
    min_width = round(w / hex_w * 48)
    return {
        "min_width": min_width, "hexes": hexes, "frontier": frontier, "clickable": clickable, "legend": legend, "revealed": revealed,
        "view_box": f"{x0:.1f} {y0:.1f} {w:.1f} {h:.1f}", "aspect": round(w / h, 4) if h else 1,
        "tiles_left": vmap.get("tiles_left"),
        "face_down_count": sum(1 for h in hexes for t in h["tokens"] if not t["face_up"]),
    }
