"""Helpers for the Miskatonic engine tests: build a table, move cards by hand, make picks."""

from __future__ import annotations

from games.engines.miskatonic import turn
from games.engines.miskatonic.cards import CARDS
from games.engines.miskatonic.engine import MiskatonicEngine
from games.engines.miskatonic.flow import PILES
from games.engines.miskatonic.setup import new_state

E = MiskatonicEngine()


def table(players: int = 3, seed: int = 1, events: bool = False) -> dict:
    """A new game before its first turn, seat 0 to play; without Events in the store decks unless asked (so that a
    later turn's random stocking cannot change what a test measures)."""
    s = new_state(players, {}, seed)
    s["first"] = s["cur"] = s["owner"] = 0
    if not events:
        for st in s["store"].values():
            s["box"] += [c for c in st["deck"] if CARDS[c].is_event]
            st["deck"] = [c for c in st["deck"] if not CARDS[c].is_event]
    return s


def take(state: dict, cid: str) -> None:
    """Remove a card from wherever it is (so that every card stays in exactly one place)."""
    for st in state["store"].values():
        for key in ("deck", "discard"):
            if cid in st[key]:
                st[key].remove(cid)
                return
        if cid in st["shelf"]:
            st["shelf"][st["shelf"].index(cid)] = None
            return
    for key in ("transfers", "substitutes", "removed", "box"):
        if cid in state[key]:
            state[key].remove(cid)
            return
    for s in state["seats"]:
        for pile in PILES:
            if cid in s[pile]:
                s[pile].remove(cid)
                return
    raise AssertionError(f"{cid} is nowhere")


def put(state: dict, seat: int, pile: str, *cids: str) -> None:
    """Move cards onto a seat's pile (for "deck", the last card given is drawn first)."""
    for cid in cids:
        take(state, cid)
        state["seats"][seat][pile].append(cid)


def clear_hand_and_deck(state: dict, seat: int) -> None:
    """Move the seat's starting class out of the way (into the box), leaving an empty deck and hand."""
    s = state["seats"][seat]
    for pile in ("deck", "hand", "discard"):
        state["box"] += s[pile]
        s[pile] = []


def shelf(state: dict, which: str, *cids) -> None:
    """Set a shelf (None for an empty slot)."""
    st = state["store"][which]
    for i, cid in enumerate(cids):
        if st["shelf"][i] is not None:
            st["discard"].append(st["shelf"][i])
            st["shelf"][i] = None
        if cid is not None:
            take(state, cid)
            st["shelf"][i] = cid


def go(state: dict) -> list:
    """Run the turn machine to the next pick."""
    ev: list = []
    turn.advance(state, ev)
    return ev


def option_ids(state: dict) -> list[str]:
    d = state["dec"] or state["held"]
    return [o.id for o in turn.options(state, d)[1]]


def pick(state: dict, option: str) -> list:
    """Make a pick for whoever decides now (resolving the step first if the pick is held for the next step)."""
    if state["dec"] is None:
        E.resolve(state)
    turn._last[:] = [None, None, None]  # the test may have edited the state since the options were built
    E._last = None
    seat = state["dec"]["seat"]
    return E.apply(state, seat, option)


def texts(events) -> str:
    return "\n".join(e.text for e in events)
