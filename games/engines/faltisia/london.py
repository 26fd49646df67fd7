"""The Battle for London expansion (option ``{"expansion": "battle_for_london"}``): the board pieces as data
(london.csv), the expansion's setup, and Peacekeeping, Control Points, Big Ben and the Attendance Award.

Rulebook "Expansion Content: The Battle for London" to "Expansion Scoring" (shared/rules/faltisia-rulebook-en.txt
lines 404-524). What the engine keeps:

  ``state["london"]`` = {"spaces": {"A": [token | None] * 4, ...},   checkpoint tokens still on each route
                         "paladins": [tile, tile, tile],             the Support Character of Rounds 1-3
                         "big_ben": {bonus: seat | None, ...}}       the six Big Ben bonus spaces
  ``seat["bfl"]``      = {"offer": [ability, ability] until the secret pick, "aside": the set-aside ability (None
                          once played at Big Ben), "award": the Attendance Award face up, "route": "A".."F" | None,
                          "pos": moves made (0 start, 1-4 the checkpoint spaces, 5 Big Ben), "tokens": checkpoint
                          tokens taken, "controls": Control Points broken, "bonus": the Big Ben bonus taken | None}

A route is, from its start: two Stage 1 checkpoints, Control Point 1, a Stage 2 checkpoint, Control Point 2,
a Stage 2 checkpoint, Control Point 3, Big Ben (12 + 12 checkpoint spaces, three Control Points per route).
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

from ..rng import Rng
from .cards import ATTRS, BFL, CARDS, CardDataError, expansion_ability, parse_condition, parse_effects
from .effects import apply_simple, gain_attr, resolve_effects

DATA_PATH = os.path.join(os.path.dirname(__file__), "london.csv")
ROUTES = "ABCDEF"
SPACE_STAGES = (1, 1, 2, 2)  # the four checkpoint spaces of a route, in route order
CONTROL_ON_MOVE = {3: 0, 4: 1, 5: 2}  # move number -> the Control Point it breaks through (0-based)
BIG_BEN_MOVE = 5
BIG_BEN_RAISE = 4  # "Increase your character's attribute scores by a total of 4"
# The rulebook's two bonus lists, each token printed twice (12 per stage).
STAGE_BONUSES = {1: ["tokens:red:3", "tokens:green:3", "tokens:blue:3", "sterlings:5", "tokens:yellow:3", "mp:2"],
                 2: ["attr:strength:2", "attr:purity:2", "attr:intelligence:2", "sterlings:10", "attr:beauty:2",
                     "mp:5"]}


@dataclass(frozen=True, slots=True)
class Piece:
    kind: str
    id: str
    group: str
    name: str
    price: int
    requirement: tuple  # parsed condition (Control Points)
    effect: str
    effects: tuple  # parsed card-vocabulary effects (checkpoints, Big Ben) or (kind, arg, n) boosts (Paladins)


def _paladin_effects(text: str) -> tuple:
    out = []
    for part in text.split(";"):
        bits = part.split(":")
        if bits[0] == "boost" and len(bits) == 3 and (bits[1] == "all" or bits[1] in ATTRS):
            out.append(("boost", -1 if bits[1] == "all" else ATTRS.index(bits[1]), int(bits[2])))
        elif bits[0] == "discount" and len(bits) == 2:
            out.append(("discount", None, int(bits[1])))
        else:
            raise CardDataError(f"bad Paladin effect {part!r}")
    return tuple(out)


def load(path: str = DATA_PATH) -> dict[str, dict[str, Piece]]:
    """Read and validate the board pieces; raise CardDataError naming the problem."""
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(ln for ln in fh if ln.strip() and not ln.startswith("#")))
    out: dict[str, dict[str, Piece]] = {k: {} for k in ("checkpoint", "paladin", "control", "bigben", "award")}
    for row in rows:
        kind, pid, eff = row["kind"].strip(), row["id"].strip(), row["effect"].strip()
        try:
            if kind not in out:
                raise CardDataError(f"unknown kind {kind!r}")
            if pid in out[kind]:
                raise CardDataError("duplicate id")
            req: tuple = ()
            if kind == "paladin":
                effects = _paladin_effects(eff)
            elif kind == "bigben" and eff in ("play_aside", f"raise:{BIG_BEN_RAISE}"):
                effects = ()
            elif kind == "control":
                req = parse_condition(row["requirement"])
                if len(req) != 1 or req[0][0] != "attr" or int(row["price"]) <= 0:
                    raise CardDataError("a Control Point has a price and one attribute requirement")
                effects = ()
            else:
                effects = parse_effects(eff)
                if any(e[0] not in ("tokens", "sterlings", "mp", "attr") for e in effects):
                    raise CardDataError(f"bad bonus {eff!r}")
            out[kind][pid] = Piece(kind, pid, row["group"].strip(), row["name"].strip(),
                                   int(row["price"] or 0), req, eff, effects)
        except (ValueError, KeyError) as exc:
            raise CardDataError(f"{path}: {kind} {pid!r}: {exc}") from exc
    _validate(out, path)
    return out


def _validate(p: dict[str, dict[str, Piece]], path: str) -> None:
    problems = []
    for stage, bonuses in STAGE_BONUSES.items():
        got = sorted(x.effect for x in p["checkpoint"].values() if x.group == str(stage))
        if got != sorted(bonuses * 2):
            problems.append(f"Stage {stage} checkpoints must be two of each of {bonuses}")
    if len(p["paladin"]) != 4:
        problems.append("four Support Characters expected")
    for r in ROUTES:
        if [x.id for x in p["control"].values() if x.group == r] != [f"{r}1", f"{r}2", f"{r}3"]:
            problems.append(f"route {r} needs Control Points {r}1, {r}2, {r}3 in order")
    if len(p["control"]) != 18:
        problems.append("18 Control Points expected (three per route A-F)")
    if len(p["bigben"]) != 6:
        problems.append("six Big Ben bonuses expected")
    if set(p["award"]) != {"attendance", "four_checkpoints"}:
        problems.append("award rows: attendance and four_checkpoints")
    if problems:
        raise CardDataError(f"{path}: " + "; ".join(problems))


PIECES = load()
CHECKPOINTS = PIECES["checkpoint"]
PALADINS = PIECES["paladin"]
CONTROLS = {r: [PIECES["control"][f"{r}{k}"] for k in (1, 2, 3)] for r in ROUTES}
BIG_BEN = PIECES["bigben"]
ATTENDANCE_MP = PIECES["award"]["attendance"].effects[0][1]
FOUR_CHECKPOINTS_MP = PIECES["award"]["four_checkpoints"].effects[0][1]


def enabled(options) -> bool:
    """Is the Battle for London on? ValueError for an expansion this engine does not know."""
    name = options.get("expansion")
    if name in (None, "", False):
        return False
    if name != BFL:
        raise ValueError(f"unknown expansion {name!r}; the one built is {BFL!r}")
    return True


# ---- setup (Expansion Setup 1-5, and the New Student Orientation change) ----

def new_board(rng: Rng) -> dict:
    """Checkpoint tokens shuffled face up onto their stage's spaces; a random Paladin per Round (one to the box)."""
    spaces = {r: [None] * 4 for r in ROUTES}
    for stage in (1, 2):
        tokens = sorted(t for t, x in CHECKPOINTS.items() if x.group == str(stage))
        rng.shuffle(tokens)
        for r in ROUTES:
            for k, st in enumerate(SPACE_STAGES):
                if st == stage:
                    spaces[r][k] = tokens.pop()
    tiles = sorted(PALADINS)
    rng.shuffle(tiles)
    return {"spaces": spaces, "paladins": tiles[:3], "big_ben": dict.fromkeys(BIG_BEN)}


def new_seat_part(ability: str | None) -> dict:
    """The Peacekeeping card, Attendance Award (7 MP side up) and markers; the two abilities to choose from."""
    return {"offer": [ability, expansion_ability(ability)] if ability else [], "aside": None, "award": True,
            "route": None, "pos": 0, "tokens": [], "controls": 0, "bonus": None}


def choose_ability(seat: dict, chosen: str) -> None:
    """The secret pick: the chosen card goes on the Portrait (it joins the hand with the licence), the other is
    set aside, hidden, for Big Ben."""
    pk = seat["bfl"]
    pk["offer"].remove(chosen)
    seat["ability"], pk["aside"], pk["offer"] = chosen, pk["offer"][0], []


# ---- play ----

def paladin(state: dict) -> str | None:
    """The Support Character aiding everyone this Round (None before Round 1)."""
    rnd = state["round"]
    return state["london"]["paladins"][rnd - 1] if 1 <= rnd <= 3 else None


def boosted(attr: list[int], tile: str | None) -> list[int]:
    """Attribute scores as a Control Point sees them, with the Paladin's boost (may exceed 15: only compared)."""
    out = list(attr)
    for kind, a, n in (PALADINS[tile].effects if tile else ()):
        if kind == "boost":
            for i in (range(4) if a < 0 else (a,)):
                out[i] += n
    return out


def mercenary_price(control: Piece, tile: str | None) -> int:
    off = sum(n for kind, _, n in (PALADINS[tile].effects if tile else ()) if kind == "discount")
    return max(0, control.price - off)


def next_control(seat: dict) -> Piece | None:
    """The Control Point the next Peacekeeping move breaks through, if any."""
    pk = seat["bfl"]
    k = CONTROL_ON_MOVE.get(pk["pos"] + 1)
    return None if k is None or pk["route"] is None else CONTROLS[pk["route"]][k]


def can_peacekeep(seat: dict) -> bool:
    """Peacekeeping is offered with the licence, a route chosen and Big Ben not yet recaptured."""
    pk = seat.get("bfl")
    return pk is not None and seat["lic"] and pk["route"] is not None and pk["pos"] < BIG_BEN_MOVE


def control_outcome(state: dict, seat: dict, control: Piece) -> str:
    """How the marker passes: "requirement" (met, with the Paladin), "payment" (mercenaries), or "fail".
    Meeting the requirement costs nothing, so it is used first; mercenaries only when it is not met."""
    tile = paladin(state)
    _, a, _, n = control.requirement[0]
    if boosted(seat["attr"], tile)[a] >= n:
        return "requirement"
    return "payment" if seat["ster"] >= mercenary_price(control, tile) else "fail"


def free_routes(state: dict) -> list[str]:
    """Routes with no marker: "You may not choose a route in which another player's marker is already present."""
    taken = {s["bfl"]["route"] for s in state["seats"]}
    return [r for r in ROUTES if r not in taken]


def free_bonuses(state: dict) -> list[str]:
    return [b for b, who in state["london"]["big_ben"].items() if who is None]


def pending_choice(seat: dict) -> str | None:
    """A decision of its own the seat owes right now: its route on getting the licence, or its Big Ben bonus."""
    pk = seat.get("bfl")
    if pk is None:
        return None
    if seat["lic"] and pk["route"] is None:
        return "route"
    if pk["pos"] == BIG_BEN_MOVE and pk["bonus"] is None:
        return "bigben"
    return None


def describe_control(control: Piece) -> str:
    _, a, _, n = control.requirement[0]
    return f"{control.price} Sterlings or {ATTRS[a].capitalize()} {n}"


def take_route(state: dict, si: int, route: str) -> tuple[str, dict]:
    seat = state["seats"][si]
    if route not in free_routes(state):
        raise AssertionError(f"route {route} is taken")
    seat["bfl"]["route"] = route
    return (f"places a marker on the start of route {route}",
            {"kind": "route", "seat": si, "route": route})


def peacekeeping(state: dict, si: int) -> tuple[str, dict]:
    """One Peacekeeping action: move one space (breaking a Control Point when the move crosses one), take that
    space's checkpoint bonus, or reach Big Ben; or fail and stay. Returns (text, structured data)."""
    seat = state["seats"][si]
    pk = seat["bfl"]
    route, move = pk["route"], pk["pos"] + 1
    data: dict = {"kind": "peacekeeping", "seat": si, "route": route, "from": pk["pos"], "paladin": paladin(state)}
    bits = []
    control = next_control(seat)
    if control is not None:
        how = control_outcome(state, seat, control)
        data.update(control=control.id, passed_by=how)
        if how == "fail":
            data["to"] = pk["pos"]
            return (f"attempts Peacekeeping on route {route} but cannot break Control Point {control.id} "
                    f"({describe_control(control)}): the marker stays", data)
        if how == "payment":
            price = mercenary_price(control, paladin(state))
            seat["ster"] -= price
            data["paid"] = price
            bits.append(f"hires mercenaries for {price} Sterlings at Control Point {control.id}")
        else:
            bits.append(f"meets the requirement of Control Point {control.id} ({describe_control(control)})")
        pk["controls"] += 1
    pk["pos"] = move
    data["to"] = move
    if move == BIG_BEN_MOVE:
        bits.append("recaptures Big Ben")
        data["big_ben"] = True
    else:
        token = state["london"]["spaces"][route][move - 1]
        state["london"]["spaces"][route][move - 1] = None
        pk["tokens"].append(token)
        for e in CHECKPOINTS[token].effects:
            apply_simple(seat, e)
        data["checkpoint"] = token
        bits.append(f"takes checkpoint {token} ({CHECKPOINTS[token].name})")
    return f"does Peacekeeping on route {route}: " + ", ".join(bits), data


def claim_big_ben(state: dict, si: int, bonus: str, raises: list[int]) -> tuple[str, dict]:
    """Take a free Big Ben bonus at once (``raises``: the attributes of the +4, one entry per point)."""
    seat = state["seats"][si]
    pk = seat["bfl"]
    if state["london"]["big_ben"][bonus] is not None:
        raise AssertionError(f"Big Ben bonus {bonus} is taken")
    state["london"]["big_ben"][bonus] = si
    pk["bonus"] = bonus
    data = {"kind": "big_ben", "seat": si, "bonus": bonus}
    piece = BIG_BEN[bonus]
    if piece.effect == "play_aside":
        card = pk["aside"]
        pk["aside"] = None
        resolve_effects(state, seat, card, None)
        data["card"] = card
        return f"takes the Big Ben bonus {piece.name}: plays {CARDS[card].name} ({CARDS[card].text})", data
    if raises:
        for a in raises:
            gain_attr(seat, a, 1)
        data["raises"] = [ATTRS[a] for a in raises]
        return (f"takes the Big Ben bonus {piece.name}: "
                + ", ".join(f"+1 {ATTRS[a].capitalize()}" for a in raises), data)
    for e in piece.effects:
        apply_simple(seat, e)
    return f"takes the Big Ben bonus {piece.name}", data


def flip_award(seat: dict) -> bool:
    """"If you skip a Lecture at any point during the game, immediately flip your Attendance Award tile to its
    0 MP side." True if it flipped now."""
    pk = seat.get("bfl")
    if pk is None or not pk["award"]:
        return False
    pk["award"] = False
    return True


# ---- scoring ----

def score(seat: dict) -> dict[str, int]:
    """Expansion Scoring: 7 MP for a face-up Attendance Award, 3 MP for four checkpoint tokens."""
    pk = seat["bfl"]
    return {"attendance_award": ATTENDANCE_MP if pk["award"] else 0,
            "checkpoints": FOUR_CHECKPOINTS_MP if len(pk["tokens"]) >= 4 else 0}


# ---- views ----

def piece_dict(p: Piece) -> dict:
    d = {"id": p.id, "name": p.name}
    if p.kind == "control":
        _, a, _, n = p.requirement[0]
        d.update(price=p.price, requirement={"attribute": ATTRS[a], "at_least": n}, text=describe_control(p))
    return d


def board_view(state: dict) -> dict:
    """The Peacekeeping board as everyone sees it (all of it is public)."""
    lon = state["london"]
    on_route = {s["bfl"]["route"]: i for i, s in enumerate(state["seats"]) if s["bfl"]["route"]}
    routes = []
    for r in ROUTES:
        who = on_route.get(r)
        routes.append({
            "route": r, "seat": who, "position": None if who is None else state["seats"][who]["bfl"]["pos"],
            "spaces": [{"stage": st, "checkpoint": None if t is None else dict(piece_dict(CHECKPOINTS[t]),
                                                                                 effect=CHECKPOINTS[t].effect)}
                       for st, t in zip(SPACE_STAGES, lon["spaces"][r])],
            "control_points": [piece_dict(c) for c in CONTROLS[r]],
        })
    tile = paladin(state)
    return {
        "routes": routes,
        "layout": ["stage1", "stage1", "control", "stage2", "control", "stage2", "control", "big_ben"],
        "paladins": [{"round": k + 1, "id": t, "name": PALADINS[t].name, "effect": PALADINS[t].effect}
                     for k, t in enumerate(lon["paladins"])],
        "current_paladin": None if tile is None else {"id": tile, "name": PALADINS[tile].name,
                                                      "effect": PALADINS[tile].effect},
        "big_ben": [{"id": b, "name": BIG_BEN[b].name, "seat": who} for b, who in lon["big_ben"].items()],
    }


def seat_view(state: dict, i: int) -> dict:
    """A seat's expansion pieces as everyone sees them: the set-aside Maid Ability only once the game is over
    (once played at Big Ben it is a face-up card like any other)."""
    pk = state["seats"][i]["bfl"]
    return {"attendance_award": pk["award"], "route": pk["route"], "position": pk["pos"],
            "checkpoints": [dict(piece_dict(CHECKPOINTS[t]), effect=CHECKPOINTS[t].effect) for t in pk["tokens"]],
            "control_points_broken": pk["controls"], "big_ben_bonus": pk["bonus"],
            "set_aside_ability": pk["aside"] if state["over"] else None}

