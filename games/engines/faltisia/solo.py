"""Solo Mode: the Classmate, an automaton that plays as the second student without being a seat.

Rulebook "Solo Mode" (shared/rules/faltisia-rulebook-en.txt, lines 526-604). The Classmate lives in
``state["classmate"]``: the same keys as a seat where the rules treat it like one (attributes, tokens,
Sterlings, notebook, items, graduation requirements), plus

  ``line``   its attribute tokens in order (colour indices, Rainbow 4): gains join the end, spending takes
             the leftmost usable tokens; ``tok`` keeps the counts in step, so the shared effect code works;
  ``stack``  its seven face-down action cards for the Round, the top is the last element;
  ``did``    what it did in the last term and this one, as short plain phrases stamped with round and term
             (for the web page and the email; public facts only).

Its two Graduation Requirements (``reqs``) and the stack's contents are hidden from the player until the
game ends: view.py shows only their counts, and no event names them before the final one.
Every random choice uses the game's seeded generator (``state["rng"]``).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..rng import Rng
from .cards import ATTRS, CARDS, CHOICE, COLORS, RAINBOW, count, printed_number
from .effects import ATTR_MAX, check, gain_attr, license_ok, resolve_effects
from .offcampus import buy_item, part_time_job

# Classmate Setup 4: "Place all of your Classmate's starting attribute scores on the same level".
DIFFICULTY = {"beginner": 3, "easy": 4, "medium": 5, "hard": 6, "nightmare": 7}
DEFAULT_DIFFICULTY = "medium"
LICENSE_STERLINGS = 2


def difficulty_of(players: int, options: Mapping[str, Any]) -> str | None:
    """The solo difficulty named by the options (None for a multi-player game); ValueError when invalid.

    Accepted: ``{"solo": {"difficulty": "hard"}}``, ``{"solo": "hard"}``, ``{"solo": true}`` or no option at
    all with one player (Medium).
    """
    if "solo" not in options:
        return DEFAULT_DIFFICULTY if players == 1 else None
    if players != 1:
        raise ValueError("the solo option needs exactly one player")
    raw = options["solo"]
    if raw is True or raw is None:
        return DEFAULT_DIFFICULTY
    if isinstance(raw, Mapping):
        if set(raw) - {"difficulty"}:
            raise ValueError(f"unknown solo settings: {sorted(set(raw) - {'difficulty'})}")
        raw = raw.get("difficulty", DEFAULT_DIFFICULTY)
    if not isinstance(raw, str) or raw.lower() not in DIFFICULTY:
        raise ValueError(f"solo difficulty must be one of {', '.join(DIFFICULTY)}")
    return raw.lower()


def new_classmate(rng: Rng, character: str, reqs: list[str], difficulty: str) -> dict:
    """Classmate Setup 1-5: character and Maid Ability, two face-down requirements, equal attributes,
    3 Sterlings and one token of each colour in a random line."""
    line = [0, 1, 2, 3]
    rng.shuffle(line)
    level = DIFFICULTY[difficulty]
    return {"kind": "classmate", "difficulty": difficulty, "char": character, "ability": character[1:],
            "lic": False, "attr": [level] * 4, "tok": [1, 1, 1, 1, 0], "line": line, "ster": 3, "mp": 0,
            "reqs": list(reqs), "stack": [], "up": [], "down": [], "items": [], "ongoing": [], "did": []}


def name(cm: dict) -> str:
    return f"The Classmate ({CARDS[cm['char']].name})"


def new_term(cm: dict) -> None:
    """A term begins: keep only what the Classmate did in the term just ended (mail sent at the next prompt
    can still tell it), so the record never grows."""
    if cm["did"]:
        last = (cm["did"][-1]["round"], cm["did"][-1]["term"])
        cm["did"] = [d for d in cm["did"] if (d["round"], d["term"]) == last]


def note(state: dict, cm: dict, what: str) -> str:
    """Record what the Classmate did this term (plain words for the surfaces) and return the event text."""
    cm["did"].append({"round": state["round"], "term": state["term"], "phase": state["qctx"] or state["phase"],
                      "text": what})
    return f"{name(cm)} {what}."


# ---- the token line ----

def spend_from_left(line: list[int], need) -> list[int] | None:
    """Positions of the tokens that pay ``need`` (per colour), leftmost first; None if it cannot be paid.

    "your Classmate always pays with the leftmost token(s) from their line": of all the sets of tokens that pay
    the whole cost (a Rainbow stands in for any colour), the one whose positions are lexicographically
    smallest. Reading left to right, a token joins the payment when it can pay something still owed and the
    tokens to its right can then still finish the payment; taking the earliest such token at every step
    gives that smallest set. (Which colour a Rainbow stood for never matters: only the positions are spent.)
    """
    owed = list(need[:4])
    if not _can_finish(owed, 0, line):
        return None
    taken: list[int] = []
    rainbows = 0  # Rainbows taken so far; each covers some colour still owed, decided at the end
    for pos, colour in enumerate(line):
        if len(taken) == sum(need[:4]):
            break
        if colour == RAINBOW:
            if _can_finish(owed, rainbows + 1, line[pos + 1:]):
                rainbows += 1
                taken.append(pos)
        elif owed[colour]:
            owed[colour] -= 1
            if _can_finish(owed, rainbows, line[pos + 1:]):
                taken.append(pos)
            else:
                owed[colour] += 1
    return taken


def _can_finish(owed: list[int], rainbows: int, rest: list[int]) -> bool:
    """Can tokens from ``rest`` complete a payment that still owes ``owed`` per colour once ``rainbows``
    Rainbows already taken are counted? Each Rainbow taken must cover something owed (the payment is exactly
    the cost), and what the exact tokens of ``rest`` cannot cover the Rainbows (taken or in ``rest``) must."""
    if rainbows > sum(owed):
        return False
    shortfall = sum(max(0, owed[c] - rest.count(c)) for c in range(4))
    return shortfall <= rainbows + rest.count(RAINBOW)


def remove_positions(cm: dict, taken: list[int]) -> None:
    """Spend the tokens at these line positions (back to the supply)."""
    line = cm["line"]
    for pos in sorted(taken, reverse=True):
        cm["tok"][line[pos]] -= 1
        del line[pos]


def next_training_set(cm: dict) -> tuple[int, list[int]] | None:
    """The next set of three tokens Maid Training spends, reading the line from the left.

    The leftmost coloured token whose attribute is below 15 and that, with the leftmost tokens of its colour
    or Rainbow, makes three, names the set (the rulebook's example: Red, Rainbow, Red raise Strength, then
    three Blue raise Intelligence). Three Rainbows with no colour to join raise the lowest attribute below 15
    (Strength first among equals): a decision, the rulebook's example has no such line.
    """
    line, attr = cm["line"], cm["attr"]
    for c in dict.fromkeys(x for x in line if x != RAINBOW):
        if attr[c] >= ATTR_MAX:
            continue
        taken = [pos for pos, x in enumerate(line) if x == c or x == RAINBOW][:3]
        if len(taken) == 3:
            return c, taken
    rainbows = [pos for pos, x in enumerate(line) if x == RAINBOW][:3]
    open_ = [i for i in range(4) if attr[i] < ATTR_MAX]
    if len(rainbows) == 3 and open_:
        return min(open_, key=lambda i: (attr[i], i)), rainbows
    return None


def train_attributes(cm: dict) -> list[str]:
    """Maid Training, Increase Attributes: "spend all sets of attribute tokens from left to right"."""
    raised = []
    while (nxt := next_training_set(cm)) is not None:
        c, taken = nxt
        remove_positions(cm, taken)
        gain_attr(cm, c, 1)
        raised.append(ATTRS[c].capitalize())
    return raised


# ---- decisions ----

def attends(cm: dict, colour: int) -> bool:
    """"If your Classmate already has a score of 15 for a particular attribute, they do not attend Lectures of
    that color and instead perform an Off-Campus action"."""
    return cm["attr"][colour] < ATTR_MAX


def affordable_items(state: dict, cm: dict) -> list[str]:
    return [i for i in state["store"] if CARDS[i].cost_s <= cm["ster"]]


def choose_offcampus(state: dict, cm: dict) -> str:
    """The first available action of the Classmate's priority list (it never Studies):
    (1) licence, (2) Shopping, (3) Part-Time Job if items but none affordable, (4) raise attributes if the
    store is empty, (5) Part-Time Job."""
    if not cm["lic"] and license_ok(cm["attr"]):
        return "license"
    if affordable_items(state, cm):
        return "shop"
    if state["store"]:
        return "job"
    if next_training_set(cm) is not None:
        return "train"
    return "job_fallback"


def offcampus(state: dict) -> str:
    """Carry out the Classmate's off-campus action; return its event text."""
    cm = state["classmate"]
    kind = choose_offcampus(state, cm)
    if kind == "license":
        cm["lic"] = True
        cm["ster"] += LICENSE_STERLINGS
        cm["stack"].append(cm["ability"])  # on top: played in the next Action phase
        cm["ability"] = None
        return note(state, cm, "does Maid Training and obtains the Provisional Maid's License (+2 Sterlings; "
                               "its Maid Ability card goes on top of its stack)")
    if kind == "shop":
        items = affordable_items(state, cm)
        top = max(CARDS[i].cost_s for i in items)
        item = next(i for i in items if CARDS[i].cost_s == top)  # leftmost of the most expensive
        return note(state, cm, f"goes Shopping and {buy_item(state, cm, item)} for {count(top, 'Sterling')}")
    if kind == "train":
        raised = train_attributes(cm)
        return note(state, cm, "does Maid Training: " + ", ".join(f"+1 {a}" for a in raised))
    part_time_job(cm)
    return note(state, cm, f"works a Part-Time Job ({5 if cm['lic'] else 3} Sterlings)")


def playable(cm: dict, cid: str) -> list[int] | None:
    """The line positions that pay the card ([] when free), or None if it cannot be played face up."""
    c = CARDS[cid]
    if c.cond and not check(cm, c.cond):
        return None
    if cm["ster"] < c.cost_s:
        return None
    return spend_from_left(cm["line"], c.cost_t) if any(c.cost_t) else []


def action(state: dict) -> list[str]:
    """Action Phase step 2: the top card of the stack, face up if it can pay, else face down and off campus.
    Returns the event texts (the face-down number is announced, as every player's is)."""
    cm = state["classmate"]
    card = cm["stack"].pop()
    taken = playable(cm, card)
    if taken is None:
        cm["down"].append(card)
        return [note(state, cm, f"plays a card face down (announces {printed_number(card)})"), offcampus(state)]
    c = CARDS[card]
    cm["ster"] -= c.cost_s
    remove_positions(cm, taken)
    choice = None
    if card in CHOICE:  # 2201-2204: "choose the color randomly"
        rng = Rng(state["rng"])
        choice = rng.below(4)
        state["rng"] = rng.state
    resolve_effects(state, cm, card, choice)
    extra = f" (colour drawn at random: {COLORS[choice]})" if choice is not None else ""
    return [note(state, cm, f"plays {c.name} face up{extra}")]


def discard_stack(state: dict) -> str | None:
    """Exams: "If your Classmate has a remaining action card at the end of Round 1 or Round 2 ... discard it"."""
    cm = state["classmate"]
    if not cm["stack"] or state["round"] >= 3:
        return None
    n = len(cm["stack"])
    state["box"] += cm["stack"]
    cm["stack"] = []
    return f"{name(cm)} discards the {n} card{'s' if n != 1 else ''} left in its stack."

