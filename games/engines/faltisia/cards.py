"""Load and validate the card set (cards.csv) into module-level lookup tables.

Vocabulary (``;`` joins effects, ``&`` joins conditions; colours red/blue/yellow/green/rainbow,
attributes strength/intelligence/beauty/purity, which are the same four indices 0..3):

  cost        sterlings:N ; <colour>:N                     (rainbow tokens may stand in for any colour)
  condition   attr:<attribute>>=N  attr_total>=N  attr_min>=N  attr_max>=N  face_up:<type|action|club_a..c>>=N
              items>=N  sterlings>=N  mp_tokens>=N  licensed
              checkpoints>=N  controls>=N  attendance>=1   (Battle for London: tokens on the Peacekeeping card,
                                                            Control Points broken, Attendance Award face up)
  instant     tokens:<colour>:N  tokens_choice:N  sterlings:N  mp:N  attr:<attribute|all>:N
              remedial:<colour>:<self>:<others>
  ongoing     on_attend:<colour|any>:<instant>  on_job:<instant>  on_study:<instant>
  end game    mp_per:face_up:<type>:N  mp_per:items:N  mp_per:attr_at_least:V:N  mp_per:sterlings:K:N
              mp_if:<condition>:N

A new card needs a new row, not new code, as long as it speaks this vocabulary.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass

COLORS = ("red", "blue", "yellow", "green", "rainbow")
ATTRS = ("strength", "intelligence", "beauty", "purity")
RAINBOW = 4
COLOR_INDEX = {c: i for i, c in enumerate(COLORS)} | {a: i for i, a in enumerate(ATTRS)}
ACTION_TYPES = ("organization", "focus", "special", "assignment", "extracurricular", "remedial")
ROUND_TYPES = {1: {"organization", "focus", "assignment", "extracurricular", "remedial"},
               2: set(ACTION_TYPES),
               3: {"focus", "special", "assignment", "extracurricular", "remedial"}}
KINDS = ("character", "ability", "action", "item", "requirement")
TYPE_LABEL = {"organization": "Organization", "focus": "Focus", "special": "Special Evaluation",
              "assignment": "Assignment", "extracurricular": "Extracurricular", "remedial": "Remedial",
              "ability": "Maid Ability", "item": "Item", "requirement": "Graduation Requirement",
              "character": "Character"}
FACE_UP_KEYS = set(ACTION_TYPES) | {"action", "ability", "club_a", "club_b", "club_c"}
PER_ROUND = 44
# Action cards per Round by player icon: 21 without icon, 7 3+, 16 5+. A Solo Mode Round deals 7 + 2 x 7 = 21
# cards from the 2-player deck; 3-4 players need 21/28 of the 28, 5-6 players 35/42 of the 44.
TIERS = {0: 21, 3: 7, 5: 16}

CSV_PATH = os.path.join(os.path.dirname(__file__), "cards.csv")
# The Battle for London cards (7 Maid Abilities L0001-L0007, requirements B0019-B0024): same format, own file.
BFL_CSV_PATH = os.path.join(os.path.dirname(__file__), "cards_bfl.csv")
BFL = "battle_for_london"
EXPANSION_COUNTS = {BFL: {"ability": 7, "requirement": 6}}


class CardDataError(ValueError):
    """The card file breaks a rule of the format; the message names the row."""


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    kind: str
    round: int
    type: str
    name: str
    players: int
    num: int  # ordering number (C0003 -> 3)
    cost_s: int
    cost_t: tuple[int, int, int, int]
    cost: str
    condition: str
    effect: str
    cond: tuple
    effects: tuple
    mp: int
    club: str
    text: str
    expansion: str = ""  # "" for the base game, else the expansion that adds the card


_COND_RE = re.compile(r"^([a-z_]+)(?::([a-z_]+))?(>=|<=)(\d+)$")


def parse_condition(text: str) -> tuple:
    """Parse ``a&b`` into a tuple of (kind, arg, op, n) clauses."""
    out = []
    for part in filter(None, (p.strip() for p in text.split("&"))):
        if part == "licensed":
            out.append(("licensed", None, ">=", 1))
            continue
        m = _COND_RE.match(part)
        if not m:
            raise CardDataError(f"bad condition {part!r}")
        kind, arg, op, n = m.group(1), m.group(2), m.group(3), int(m.group(4))
        if kind == "attr":
            if arg not in COLOR_INDEX or COLOR_INDEX[arg] == RAINBOW:
                raise CardDataError(f"bad attribute in {part!r}")
            arg = COLOR_INDEX[arg]
        elif kind == "face_up":
            if arg not in FACE_UP_KEYS:
                raise CardDataError(f"bad face_up type in {part!r}")
        elif kind in ("attr_total", "attr_min", "attr_max", "items", "sterlings", "mp_tokens", "checkpoints",
                      "controls", "attendance"):
            if arg is not None:
                raise CardDataError(f"unexpected argument in {part!r}")
        else:
            raise CardDataError(f"unknown condition {part!r}")
        out.append((kind, arg, op, n))
    return tuple(out)


def _color(name: str, allow_rainbow: bool = True, allow_all: bool = False) -> int:
    if allow_all and name in ("all", "any"):
        return -1
    if name not in COLOR_INDEX or (not allow_rainbow and COLOR_INDEX[name] == RAINBOW):
        raise CardDataError(f"bad colour/attribute {name!r}")
    return COLOR_INDEX[name]


def _instant(parts: list[str]) -> tuple:
    k = parts[0]
    try:
        if k == "tokens" and len(parts) == 3:
            return ("tokens", _color(parts[1]), int(parts[2]))
        if k == "tokens_choice" and len(parts) == 2:
            return ("tokens_choice", int(parts[1]))
        if k in ("sterlings", "mp") and len(parts) == 2:
            return (k, int(parts[1]))
        if k == "attr" and len(parts) == 3:
            return ("attr", _color(parts[1], False, True), int(parts[2]))
        if k == "remedial" and len(parts) == 4:
            return ("remedial", _color(parts[1], False), int(parts[2]), int(parts[3]))
    except CardDataError:
        raise
    except ValueError as exc:
        raise CardDataError(f"bad number in {':'.join(parts)!r}") from exc
    raise CardDataError(f"unknown effect {':'.join(parts)!r}")


def parse_effects(text: str) -> tuple:
    """Parse ``e1;e2`` into effect tuples (see the module docstring)."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        parts = part.split(":")
        k = parts[0]
        if k == "on_attend":
            sub = _instant(parts[2:])
            if sub[0] in ("remedial", "tokens_choice"):
                raise CardDataError(f"ongoing effect cannot be {sub[0]}: {part!r}")
            out.append(("on_attend", _color(parts[1], False, True), sub))
        elif k in ("on_job", "on_study"):
            sub = _instant(parts[1:])
            if sub[0] in ("remedial", "tokens_choice"):
                raise CardDataError(f"ongoing effect cannot be {sub[0]}: {part!r}")
            out.append((k, sub))
        elif k == "mp_per":
            what = parts[1] if len(parts) > 1 else ""
            if what == "face_up" and len(parts) == 4 and parts[2] in FACE_UP_KEYS:
                out.append(("mp_per", "face_up", parts[2], int(parts[3])))
            elif what == "items" and len(parts) == 3:
                out.append(("mp_per", "items", None, int(parts[2])))
            elif what in ("attr_at_least", "sterlings") and len(parts) == 4:
                out.append(("mp_per", what, int(parts[2]), int(parts[3])))
            else:
                raise CardDataError(f"bad mp_per effect {part!r}")
        elif k == "mp_if":
            cond, _, n = part[len("mp_if:"):].rpartition(":")
            out.append(("mp_if", parse_condition(cond), int(n)))
        else:
            out.append(_instant(parts))
    return tuple(out)


def parse_cost(text: str) -> tuple[int, tuple[int, int, int, int]]:
    ster, toks = 0, [0, 0, 0, 0]
    for part in filter(None, (p.strip() for p in text.split(";"))):
        k, _, n = part.partition(":")
        if not n.isdigit():
            raise CardDataError(f"bad cost {part!r}")
        if k == "sterlings":
            ster += int(n)
        else:
            toks[_color(k, False)] += int(n)
    return ster, tuple(toks)


def count(n: int, word: str, plural: str | None = None) -> str:
    """"1 Sterling", "3 Sterlings", "1 red token": a number with its noun in the right number (card texts and
    log lines are read by people, not parsed). MP is an abbreviation and stays as it is: "1 MP", "3 MP"."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _join(parts: list[str]) -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _gain(e: tuple) -> str:
    """What an instant effect gives, in words ("+3 red tokens", "+1 Sterling", "+1 to every attribute")."""
    k = e[0]
    if k == "tokens":
        return f"+{count(e[2], f'{COLORS[e[1]]} token')}"
    if k == "tokens_choice":
        return f"+{count(e[1], 'token')} of one colour of your choice"
    if k == "sterlings":
        return f"+{count(e[1], 'Sterling')}"
    if k == "mp":
        return f"+{e[1]} MP"
    if k == "attr":
        return f"+{e[2]} to every attribute" if e[1] < 0 else f"+{e[2]} {ATTRS[e[1]].capitalize()}"
    return k


def _describe_one(e: tuple) -> str:
    k = e[0]
    if k == "remedial":
        return (f"Remedial {COLORS[e[1]]} lecture: everyone attends it; you gain {e[2]} "
                f"{ATTRS[e[1]].capitalize()}, everyone else {e[3]}")
    if k == "on_attend":
        lecture = "lecture" if e[1] < 0 else f"{COLORS[e[1]]} lecture"
        return f"Ongoing: each {lecture} you attend, {_gain(e[2])}"
    if k == "on_job":
        return f"Ongoing: each Part-Time Job, {_gain(e[1])}"
    if k == "on_study":
        return f"Ongoing: each Study, {_gain(e[1])}"
    if k == "mp_per":
        if e[1] == "face_up":
            return f"At the end: {e[3]} MP per {_face_up_kind(e[2])} card face up"
        if e[1] == "items":
            return f"At the end: {e[3]} MP per Item"
        if e[1] == "attr_at_least":
            return f"At the end: {e[3]} MP per attribute at {e[2]} or more"
        return f"At the end: {e[3]} MP per {count(e[2], 'Sterling')}"
    if k == "mp_if":
        return f"At the end: {e[2]} MP if you have {describe_condition(e[1])}"
    return _gain(e)


def _face_up_kind(key: str) -> str:
    """A face_up condition's card kind in words: "Extracurricular", "Club A", "action"."""
    if key.startswith("club_"):
        return f"Club {key[-1].upper()}"
    return TYPE_LABEL.get(key, key)


def _at_least(n: int, op: str) -> str:
    return f"{n} or {'more' if op == '>=' else 'less'}"


def describe_condition(cond: tuple) -> str:
    """A card's condition in plain English ("Strength 4 or more", "attributes adding up to 30 or more"), with no
    operators or field names (not "attr total >= 36": players read it)."""
    out = []
    for kind, arg, op, n in cond:
        bound = _at_least(n, op)
        if kind == "licensed":
            out.append("the Provisional Maid's License")
        elif kind == "attr":
            out.append(f"{ATTRS[arg].capitalize()} {bound}")
        elif kind == "attr_total":
            out.append(f"attributes adding up to {bound}")
        elif kind == "attr_min":
            out.append(f"every attribute at {bound}")
        elif kind == "attr_max":
            out.append(f"an attribute at {bound}")
        elif kind == "face_up":
            out.append(f"{bound} {_face_up_kind(arg)} cards face up")
        elif kind == "items":
            out.append(f"{bound} Items")
        elif kind == "sterlings":
            out.append(f"{bound} Sterlings")
        elif kind == "mp_tokens":
            out.append(f"{bound} MP tokens")
        elif kind == "checkpoints":
            out.append(f"{bound} checkpoint tokens")
        elif kind == "controls":
            out.append(f"{bound} Control Points broken")
        elif kind == "attendance":
            out.append("the Attendance Award face up")
        else:  # a condition word added to the vocabulary without words here: still no operator on the card
            out.append(f"{kind.replace('_', ' ')} {bound}")
    return _join(out) if out else ""


def describe_cost(cost_s: int, cost_t) -> str:
    """"1 Sterling and 2 red tokens"; "" for a free card."""
    parts = [count(cost_s, "Sterling")] if cost_s else []
    parts += [count(n, f"{COLORS[i]} token") for i, n in enumerate(cost_t) if n]
    return _join(parts) if parts else ""


def _describe(card_cost_s: int, cost_t, cond, effects, mp: int, club: str) -> str:
    bits = []
    cost = describe_cost(card_cost_s, cost_t)
    if cost:
        bits.append("Cost: " + cost)
    if cond:
        bits.append("Needs " + describe_condition(cond))
    bits.extend(_describe_one(e) for e in effects)
    if club:
        bits.append(f"Club {club}")
    if mp:
        bits.append(f"Worth {mp} MP")
    return ". ".join(bits) if bits else "No effect"


def describe_requirement(cond: tuple, mp: int) -> str:
    """A Graduation Requirement: "+4 MP if you have Strength 10 or more at the end, else -4 MP"."""
    return f"At the end: +{mp} MP if you have {describe_condition(cond)}, else -{mp} MP"


def load(path: str = CSV_PATH, expansion: str = "") -> dict[str, Card]:
    """Read and validate the card file (the base set, or an expansion's cards); raise CardDataError."""
    cards: dict[str, Card] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        lines = [ln for ln in fh if ln.strip() and not ln.startswith("#")]
    reader = csv.DictReader(lines)
    for row in reader:
        try:
            cid = row["number"].strip()
            kind = row["kind"].strip()
            if kind not in KINDS:
                raise CardDataError(f"unknown kind {kind!r}")
            if cid in cards:
                raise CardDataError("duplicate card number")
            typ = row["type"].strip()
            rnd = int(row["round"] or 0)
            players = int(row["players"] or 0)
            if players not in (0, 3, 5):
                raise CardDataError("players must be 0, 3 or 5")
            cost_s, cost_t = parse_cost(row["cost"])
            cond = parse_condition(row["condition"])
            effects = parse_effects(row["effect"])
            mp = int(row["mp"] or 0)
            club = row["club"].strip()
            if kind == "action":
                if typ not in ROUND_TYPES.get(rnd, ()):
                    raise CardDataError(f"type {typ!r} not allowed in round {rnd}")
                if not (cid.isdigit() and len(cid) == 4 and int(cid[0]) == rnd):
                    raise CardDataError("action card numbers are 4 digits starting with their round")
                if (typ == "extracurricular") != (club in ("A", "B", "C")):
                    raise CardDataError("Extracurricular cards (and only they) have club A, B or C")
                if mp and typ not in ("organization", "assignment", "special"):
                    raise CardDataError(f"{typ} cards score no printed MP")
                num = int(cid)
            elif kind == "ability":
                if cost_s or any(cost_t):
                    raise CardDataError("Maid Ability cards have no cost")
                if any(e[0] not in ("tokens", "sterlings", "mp", "attr") for e in effects):
                    # Big Ben plays a set-aside ability "immediately", with no pick to make.
                    raise CardDataError("Maid Ability effects are tokens, sterlings, mp or attr only")
                num = int(cid[1:] if expansion else cid)  # L0003 keeps its printed number 0003
            elif kind == "character":
                num = int(cid[1:])
            elif kind == "requirement":
                if not cond or not cid.startswith("B"):
                    raise CardDataError("requirements need a B number and a condition")
                num = int(cid[1:])
            else:
                num = int(cid[1:])
            if kind != "action":
                typ = kind
            text = _describe(cost_s, cost_t, () if kind == "requirement" else cond, effects, mp, club)
            if kind == "requirement":
                text = describe_requirement(cond, mp)
            cards[cid] = Card(cid, kind, rnd, typ, row["name"].strip(), players, num, cost_s, cost_t,
                              row["cost"].strip(), row["condition"].strip(), row["effect"].strip(),
                              cond, effects, mp, club, text, expansion)
        except (CardDataError, ValueError, KeyError) as exc:
            raise CardDataError(f"{path}: card {row.get('number')!r}: {exc}") from exc
    if expansion:
        _validate_expansion(cards, path, expansion)
    else:
        _validate_set(cards, path)
    return cards


def _validate_expansion(cards: dict[str, Card], path: str, expansion: str) -> None:
    """Battle for London: one more Maid Ability per character (L000n for C000n), requirements B0019-B0024."""
    problems = []
    for kind, n in EXPANSION_COUNTS[expansion].items():
        if sum(1 for c in cards.values() if c.kind == kind) != n:
            problems.append(f"{n} {kind} cards expected")
    if sorted(c.id for c in cards.values() if c.kind == "ability") != [f"L{i:04d}" for i in range(1, 8)]:
        problems.append("abilities must be L0001-L0007")
    if sorted(c.id for c in cards.values() if c.kind == "requirement") != [f"B{i:04d}" for i in range(19, 25)]:
        problems.append("requirements must be B0019-B0024")
    if any(c.kind not in EXPANSION_COUNTS[expansion] for c in cards.values()):
        problems.append("only ability and requirement rows belong here")
    if problems:
        raise CardDataError(f"{path}: " + "; ".join(problems))


def _validate_set(cards: dict[str, Card], path: str) -> None:
    def count(kind, **kw):
        return sum(1 for c in cards.values() if c.kind == kind and all(getattr(c, k) == v for k, v in kw.items()))
    problems = []
    for kind, n in (("character", 7), ("ability", 7), ("item", 20), ("requirement", 18)):
        if count(kind) != n:
            problems.append(f"{n} {kind} cards expected, found {count(kind)}")
    for i in range(1, 8):
        if f"C{i:04d}" not in cards or f"{i:04d}" not in cards:
            problems.append(f"character C{i:04d} and ability {i:04d} both required")
    for r in (1, 2, 3):
        for tier, n in TIERS.items():
            if count("action", round=r, players=tier) != n:
                problems.append(f"round {r}: {n} action cards with players={tier} expected")
    for p in range(2, 7):
        items = sum(1 for c in cards.values() if c.kind == "item" and c.players <= p)
        if items < 3 * {2: 2, 3: 2, 4: 3, 5: 4, 6: 5}[p]:
            problems.append(f"{p} players: the store would run dry")
    for n in ("2201", "2202", "2203", "2204"):
        c = cards.get(n)
        if c is None or c.type != "focus" or not any(e[0] == "tokens_choice" for e in c.effects):
            problems.append(f"{n} must be a Round 2 Focus card with a tokens_choice effect")
    if problems:
        raise CardDataError(f"{path}: " + "; ".join(problems))


CARDS: dict[str, Card] = load()
_clash = set(CARDS) & set(_bfl := load(BFL_CSV_PATH, BFL))
if _clash:
    raise CardDataError(f"{BFL_CSV_PATH}: numbers already in the base set: {sorted(_clash)}")
CARDS.update(_bfl)

# Hot-path lookups (plain dicts of plain values).
NUM = {c.id: c.num for c in CARDS.values()}
TYPE = {c.id: c.type for c in CARDS.values()}
ON_ATTEND: dict[str, tuple] = {}
ON_JOB: dict[str, tuple] = {}
ON_STUDY: dict[str, tuple] = {}
for _c in CARDS.values():
    for _e in _c.effects:
        if _e[0] == "on_attend":
            ON_ATTEND.setdefault(_c.id, ())
            ON_ATTEND[_c.id] += ((_e[1], _e[2]),)
        elif _e[0] == "on_job":
            ON_JOB[_c.id] = ON_JOB.get(_c.id, ()) + (_e[1],)
        elif _e[0] == "on_study":
            ON_STUDY[_c.id] = ON_STUDY.get(_c.id, ()) + (_e[1],)
ONGOING = set(ON_ATTEND) | set(ON_JOB) | set(ON_STUDY)
CHOICE = {c.id for c in CARDS.values() if any(e[0] == "tokens_choice" for e in c.effects)}


def card_dict(cid: str) -> dict:
    """The public description of a card for views (so a page renders without the CSV)."""
    c = CARDS[cid]
    d = {"number": c.id, "name": c.name, "type": c.type, "type_label": TYPE_LABEL[c.type], "text": c.text,
         "cost": c.cost, "condition": c.condition, "effect": c.effect, "mp": c.mp}
    if c.club:
        d["club"] = c.club
    return d


_DECKS: dict[tuple[str, int, int, str], tuple[str, ...]] = {}


def deck_for(kind: str, players: int, rnd: int = 0, expansion: str = "") -> list[str]:
    """Card ids of a kind in use at this player count (base cards, plus an expansion's when named), in number
    order then id (a fresh list)."""
    key = (kind, players, rnd, expansion)
    if key not in _DECKS:
        _DECKS[key] = tuple(sorted((c.id for c in CARDS.values()
                                    if c.kind == kind and c.players <= players and (not rnd or c.round == rnd)
                                    and c.expansion in ("", expansion)),
                                   key=lambda i: (NUM[i], i)))
    return list(_DECKS[key])


def printed_number(cid: str) -> str:
    """The card number printed on the card, as a face-down announcement says it (EN: players "announce the card
    number of their played card ... They do not, however, reveal their cards").

    The same as the id, except for the Battle for London Maid Abilities: EN prints them 0001-0007 like the base
    ones, so L0003 is announced as 0003 and the announcement never tells which of the two was played."""
    card = CARDS[cid]
    return f"{card.num:04d}" if card.kind == "ability" else cid


def expansion_ability(ability: str) -> str:
    """The Battle for London Maid Ability of the same character (0003 -> L0003)."""
    return "L" + ability
