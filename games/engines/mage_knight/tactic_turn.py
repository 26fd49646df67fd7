"""Tactics used during a seat's own turns (tactics.csv "when" other than on_take): offered as short optional picks.

turn.py asks:
    first_level(state, seat) -> [Option]        the tactic picks open at the turn's first level
    pending_options(state, seat) -> (text, ops)  inside a tactic's own pick ("meditate", "search")
    apply(state, seat, arg, events)              a "t-tactic:<arg>" pick
endturn.py asks ``hand_limit_bonus`` (Planning); rounds.py reads ``state["tactics"]["extra_turn"]`` (The Right
Moment) and returns Sparing Power's stored cards at the end of the round.

Public state: ``seat["tactic_used"]`` (a once-a-round tactic is spent, or Sparing Power flipped),
``turn["tactic_done"]`` (a once-a-turn tactic is spent this turn), ``state["tactics"]["extra_turn"]``.
Hidden: ``seat["stored"]``, the cards under Sparing Power (view.py shows only their count).
A tactic used mid-turn is logged with ``{"seat", "kind": "tactic_use", "tactic"}`` (the history keeps it in the
turn's group; a tactic *taken*, rounds.py, has no kind and heads a "Tactics" group of its own).
"""

from __future__ import annotations

from ..base import Event, Option
from ..rng import Rng
from . import cards, mana
from .hero import draw

MEDITATE_MAX = 5  # Midnight Meditation: "shuffle up to 5 hand cards"
SEARCH_MAX = 2    # Mana Search: "reroll up to 2 Source dice"
LONG_NIGHT_CARDS = 3


def tactic(state, seat: int) -> str | None:
    return state["tactics"]["chosen"].get(str(seat))


def _shuffle(state, pile: list) -> None:
    rng = Rng(state["rng"])
    rng.shuffle(pile)
    state["rng"] = rng.state


def hand_limit_bonus(state, seat: int) -> int:
    """Planning: "if you hold 2+ cards before drawing, draw as if Hand limit were 1 higher"."""
    return 1 if tactic(state, seat) == "planning" and len(state["seats"][seat]["hand"]) >= 2 else 0


def _free_dice(state) -> list[int]:
    return [i for i in range(len(state["source"]["dice"])) if i not in state["source"]["taken"]]


def _search_choices(state, chosen: list[int]) -> list[int]:
    """Dice Mana Search may still pick: "gold/depleted ones first". Depleted = unusable now (black by day, gold by
    night); gold dice are always in the first group too."""
    dice = state["source"]["dice"]
    free = [i for i in _free_dice(state) if i not in chosen]
    bad = "black" if state["time"] == "day" else "gold"
    first = [i for i in free if dice[i] in ("gold", bad)]
    return first or free


def first_level(state, seat: int) -> list[Option]:
    turn = state["turn"]
    s = state["seats"][seat]
    t = tactic(state, seat)
    fresh = not turn["started"]
    used = s.get("tactic_used", False)
    out: list[Option] = []
    if t == "the_right_moment" and not used and state.get("end_announced_by") is None \
            and state.get("final_turns") is None:
        out.append(Option("t-tactic:moment", "The Right Moment: take another turn right after this one"))
    elif t == "long_night" and not used and not s["deck"] and s["discard"]:
        out.append(Option("t-tactic:night", "Long Night: shuffle your discard pile and put 3 random cards back "
                                            "as your deed deck"))
    elif t == "mana_search" and not turn.get("tactic_done") and not turn.get("die_taken") and _free_dice(state):
        out.append(Option("t-tactic:search", "Mana Search: reroll up to 2 Source dice"))
    elif t == "midnight_meditation" and not used and fresh and s["hand"]:
        out.append(Option("t-tactic:meditate", "Midnight Meditation: shuffle up to 5 hand cards into your deed "
                                               "deck and draw as many"))
    elif t == "sparing_power" and fresh and not used and not turn.get("tactic_done"):
        if s["deck"]:
            out.append(Option("t-tactic:store", "Sparing Power: store the top card of your deed deck"))
        if s.get("stored"):
            out.append(Option("t-tactic:flip", f"Sparing Power: flip it and take the {len(s['stored'])} "
                                               "stored cards into your hand"))
    return out


def pending_options(state, seat: int) -> tuple[str, list[Option]]:
    pending = state["turn"]["pending"]
    s = state["seats"][seat]
    if pending["kind"] == "meditate":
        n = len(pending["set_aside"])
        what = "no cards" if n == 0 else f"{n} card{'' if n == 1 else 's'}"
        ops = [Option("t-tactic:done", f"done: shuffle {what} in and draw as many")]
        if n < MEDITATE_MAX:
            ops += [Option(f"t-tactic:card:{c}", f"shuffle in {cards.name(c)}") for c in dict.fromkeys(s["hand"])]
        return "Midnight Meditation: choose up to 5 cards", ops
    n = len(pending["dice"])
    ops = [Option("t-tactic:done", "done: reroll no dice" if n == 0 else f"done: reroll {n} di{'e' if n == 1 else 'ce'}")]
    if n < SEARCH_MAX:
        dice = state["source"]["dice"]
        seen = set()
        for i in _search_choices(state, pending["dice"]):
            if dice[i] not in seen:
                seen.add(dice[i])
                ops.append(Option(f"t-tactic:die:{i}", f"reroll a {dice[i]} die"))
    return "Mana Search: choose up to 2 dice to reroll", ops


def apply(state, seat: int, arg: str, events: list) -> None:
    turn = state["turn"]
    s = state["seats"][seat]
    who = f"Seat {seat + 1}"
    if arg == "moment":
        s["tactic_used"] = True
        state["tactics"]["extra_turn"] = seat
        events.append(Event(f"{who} uses The Right Moment: another turn follows this one", None,
                            {"seat": seat, "kind": "tactic_use", "tactic": "the_right_moment"}))
    elif arg == "night":
        s["tactic_used"] = True
        _shuffle(state, s["discard"])
        k = min(LONG_NIGHT_CARDS, len(s["discard"]))
        s["deck"] = s["discard"][:k]
        s["discard"] = s["discard"][k:]
        events.append(Event(f"{who} uses Long Night: {k} card{'' if k == 1 else 's'} from the discard pile become "
                            "the deed deck", None, {"seat": seat, "kind": "tactic_use", "tactic": "long_night"}))
    elif arg == "search":
        turn["tactic_done"] = True
        turn["pending"] = {"kind": "search", "dice": []}
    elif arg == "meditate":
        s["tactic_used"] = True
        turn["pending"] = {"kind": "meditate", "set_aside": []}
    elif arg.startswith("card:"):
        card = arg.split(":", 1)[1]
        s["hand"].remove(card)
        turn["pending"]["set_aside"].append(card)
    elif arg.startswith("die:"):
        turn["pending"]["dice"].append(int(arg.split(":", 1)[1]))
    elif arg == "done":
        _done(state, seat, events)
    elif arg == "store":
        turn["tactic_done"] = True
        s.setdefault("stored", []).append(s["deck"].pop())
        events.append(Event(f"{who} stores a card under Sparing Power", None,
                            {"seat": seat, "kind": "tactic_use", "tactic": "sparing_power",
                             "stored": len(s["stored"])}))
    elif arg == "flip":
        turn["tactic_done"] = True
        s["tactic_used"] = True
        got = s.pop("stored", [])
        s["hand"] += got
        events.append(Event(f"{who} flips Sparing Power and takes {len(got)} stored card{'' if len(got) == 1 else 's'}",
                            None, {"seat": seat, "kind": "tactic_use", "tactic": "sparing_power", "took": len(got)}))
        if got:
            events.append(Event("You take " + ", ".join(cards.name(c) for c in got) + ".", (seat,), {"cards": got}))


def _done(state, seat: int, events: list) -> None:
    turn = state["turn"]
    s = state["seats"][seat]
    pending, turn["pending"] = turn["pending"], None
    if pending["kind"] == "meditate":
        aside = pending["set_aside"]
        s["deck"] += aside
        _shuffle(state, s["deck"])
        events.append(Event(f"Seat {seat + 1} uses Midnight Meditation on {len(aside)} card"
                            f"{'' if len(aside) == 1 else 's'}", None,
                            {"seat": seat, "kind": "tactic_use", "tactic": "midnight_meditation", "cards": len(aside)}))
        draw(state, seat, len(aside), events)
        return
    dice = state["source"]["dice"]
    for i in pending["dice"]:
        dice[i] = mana.roll(state)
    events.append(Event(f"Seat {seat + 1} uses Mana Search: the Source now shows " + ", ".join(dice), None,
                        {"seat": seat, "kind": "tactic_use", "tactic": "mana_search",
                         "rerolled": len(pending["dice"])}))


def end_of_round(seat_state: dict) -> None:
    """The round's tactic state ends; cards still under Sparing Power go back with the rest (the deed deck)."""
    seat_state.pop("tactic_used", None)
    seat_state["deck"] += seat_state.pop("stored", [])
