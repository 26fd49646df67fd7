"""New game: decks by player count, characters, requirements, the class schedule (Game Set Up)."""

from __future__ import annotations

from typing import Any, Mapping

from ..options import OptionSpec
from ..rng import Rng, seed_state
from . import london
from .cards import BFL, deck_for
from .solo import DIFFICULTY, difficulty_of, new_classmate

# The table options (checked at create, games/engines/options.py); new_state still reads the old forms stored
# games were created with.
OPTION_SPECS = (
    OptionSpec("choose_characters", "players choose their characters instead of drawing them", choices=(True, False)),
    OptionSpec("expansion", "the Battle for London expansion, 2-6 players", choices=(BFL, None, "", False)),
    # Solo Mode's difficulty (1 player): {"difficulty": level}, the level alone, or true for Medium.
    OptionSpec("solo", "Solo Mode's difficulty, 1 player",
               choices=(True, None, *DIFFICULTY, *({"difficulty": level} for level in DIFFICULTY))),
)
KNOWN_OPTIONS = {spec.name for spec in OPTION_SPECS}
# Items per Round; solo: "place two Item cards in the Academy Store per Round".
RESTOCK = {1: 2, 2: 2, 3: 2, 4: 3, 5: 4, 6: 5}
# Solo Mode is set up as a 2-player game: "with your Classmate playing as the second player", and Faculty
# Preparations "as usual" removes the 3+ and 5+ action and Item cards. The 2-player action deck holds the
# 21 cards a solo Round deals (7 to the Classmate's stack, 2 x 7 to the player): see cards.TIERS and the docs.
SOLO_DECK_PLAYERS = 2
# Board X spaces (no lecture); the rulebook prints them but does not list them: see the decisions doc.
X_TERMS = {1: (), 2: (4, 7), 3: (2, 4, 6, 7)}


def make_schedule(rng: Rng) -> list[list[int]]:
    """Class Schedule Assignment, the rulebook's three steps; -1 marks an X space."""
    bag = [0, 0, 1, 1, 2, 2, 3, 3]
    rng.shuffle(bag)
    r1, leftover = bag[:7], bag[7]
    bag2 = [0, 1, 2, 3, leftover]
    rng.shuffle(bag2)
    bag3 = [0, 1, 2, 3]
    rng.shuffle(bag3)  # bag3[3] is the last leftover, returned to the supply
    out = [r1]
    for rnd, tokens in ((2, bag2), (3, bag3[:3])):
        it = iter(tokens)
        out.append([-1 if t in X_TERMS[rnd] else next(it) for t in range(1, 8)])
    return out


def new_seat() -> dict:
    return {"char": None, "ability": None, "lic": False, "attr": None, "tok": [1, 1, 1, 1, 0], "ster": 3,
            "mp": 0, "offer": [], "reqs": [], "hand": [], "pack": [], "picked": [], "played": None,
            "up": [], "down": [], "items": [], "ongoing": [], "n": 0, "dec": None, "plan": None,
            "kind": "player"}  # the solo Classmate is not a seat: state["classmate"] (solo.py)


def new_state(players: int, options: Mapping[str, Any], seed: int) -> dict:
    """Build the state up to (not including) the first decision."""
    if not 1 <= players <= 6:
        raise ValueError("Faltisia takes 1 player (solo mode) or 2-6 players")
    unknown = set(options) - KNOWN_OPTIONS
    if unknown:
        raise ValueError(f"unknown options: {sorted(unknown)}")
    difficulty = difficulty_of(players, options)
    solo = difficulty is not None
    bfl = london.enabled(options)
    if bfl and solo:
        # The rulebook gives the Classmate no Peacekeeping, route or Attendance Award rules (docs: expansion).
        raise ValueError("the Battle for London expansion does not combine with Solo Mode (2-6 players)")
    exp = BFL if bfl else ""
    rng = Rng(seed_state(seed))
    box: list[str] = []
    decks = {}
    for r in (1, 2, 3):
        d = deck_for("action", SOLO_DECK_PLAYERS if solo else players, r)
        rng.shuffle(d)
        decks[str(r)] = d
    used = set(decks["1"] + decks["2"] + decks["3"])
    box += [c for c in deck_for("action", 6) if c not in used]
    items = deck_for("item", SOLO_DECK_PLAYERS if solo else players)
    used = set(items)
    box += [c for c in deck_for("item", 6) if c not in used]
    rng.shuffle(items)
    reqs = deck_for("requirement", 6, expansion=exp)  # the expansion adds B0019-B0024
    rng.shuffle(reqs)
    chars = deck_for("character", 6)
    seats = [new_seat() for _ in range(players)]
    for s in seats:
        s["offer"] = [reqs.pop(), reqs.pop(), reqs.pop()]
    classmate_reqs = [reqs.pop(), reqs.pop()] if solo else []  # "Randomly deal two ... face down"
    box += reqs
    schedule = make_schedule(rng)
    choose = bool(options.get("choose_characters"))
    if not choose:
        rng.shuffle(chars)
        for s in seats:
            s["char"] = chars.pop()
            s["ability"] = s["char"][1:]
    board = None
    if bfl:  # after the base draws; each seat takes its character's two Maid Ability cards to choose from
        board = london.new_board(rng)
        for s in seats:
            s["bfl"] = london.new_seat_part(s["ability"])
            s["ability"] = None
    classmate = None
    if solo:  # after every multi-player draw, so 2-6 player games keep their seeded sequence
        classmate = new_classmate(rng, chars.pop(rng.below(len(chars))), classmate_reqs, difficulty)
    if not choose:
        box += chars + [c[1:] for c in chars] + ([london.expansion_ability(c[1:]) for c in chars] if bfl else [])
    return {
        "game": "faltisia", "version": 1, "players": players, "options": dict(options), "rng": rng.state,
        "step": 0, "phase": "setup", "round": 0, "term": 0, "pick": 0, "lecture": None,
        "schedule": schedule, "decks": decks, "item_deck": items, "store": [], "box": box,
        "chars_free": chars if choose else [], "seats": seats, "classmate": classmate, "london": board, "queue": [], "qctx": None,
        "decisions": [], "over": False, "result": None,
    }
