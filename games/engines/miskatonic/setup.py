"""Set-Up and Preparation: the state of a new game (rulebook "Set-Up and Preparation")."""

from __future__ import annotations

from typing import Any, Mapping

from ..rng import Rng, seed_state
from .cards import CARDS, HOUSES, TWO_PLAYER_REMOVED, of_kind, starting_class

MIN_PLAYERS, MAX_PLAYERS = 2, 4
START_SANITY = 20


def new_seat(house: str, deck: list[str]) -> dict:
    return {"house": house, "sanity": START_SANITY, "deck": deck, "hand": [], "purchase": [], "discard": [],
            "classroom": [], "locker": [], "out": None}


def new_state(players: int, options: Mapping[str, Any], seed: int) -> dict:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Miskatonic School for Girls takes {MIN_PLAYERS}-{MAX_PLAYERS} players")
    if options:
        raise ValueError(f"Miskatonic School for Girls has no options (got {sorted(options)})")
    rng = Rng(seed_state(seed))
    seats, box = [], []
    for i, house in enumerate(HOUSES):
        deck = starting_class(house)
        if i < players:
            rng.shuffle(deck)  # "These cards are shuffled and placed face down on the player's House Board"
            seats.append(new_seat(house, deck))
        else:
            box += deck  # unused Houses stay in the box
    faculty = of_kind("faculty") + of_kind("faculty_event")
    if players == 2:  # 2-Player Game Special Rule #1
        box += [c for c in faculty if CARDS[c].name in TWO_PLAYER_REMOVED]
        faculty = [c for c in faculty if CARDS[c].name not in TWO_PLAYER_REMOVED]
    students = of_kind("student") + of_kind("student_event")
    rng.shuffle(faculty)
    rng.shuffle(students)
    first = rng.below(players)  # "Randomly figure out who takes the first turn."
    return {
        "game": "miskatonic", "players": players, "rng": rng.state, "step": 1, "n": 0,
        "seats": seats, "box": box,
        "store": {"student": {"deck": students, "shelf": [None, None, None], "discard": []},
                  "faculty": {"deck": faculty, "shelf": [None, None, None], "discard": []}},
        "transfers": of_kind("transfer"), "substitutes": of_kind("substitute"),  # face up piles
        "removed": [],  # events that left the game, cards of eliminated players
        "first": first, "cur": first, "round": 1, "phase": "start",
        "prod": {}, "pts": [0, 0], "used": [], "locker_new": [], "cls": None,
        "owner": first, "dec": None, "held": None, "moment": 0, "over": False, "result": None,
    }
