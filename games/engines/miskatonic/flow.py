"""The rulebook's mechanics that need no decision: piles, drawing, the School Store, Sanity, events, elimination.

Every function takes the state and an ``ev`` list of base.Event to append to (what the log shows).
"""

from __future__ import annotations

from string import Formatter

from ..base import Event
from ..rng import Rng
from .cards import CARDS

SHELF = 3
MAX_SANITY = 20
BANDS = ("green", "yellow", "orange", "red")  # Sanity 20-16, 15-11, 10-6, 5-1 ("4 different colors")


def band(sanity: int) -> int:
    return min(3, (MAX_SANITY - sanity) // 5)


def name(cid: str) -> str:
    return CARDS[cid].name


def _seats_in_words(seats: int | list[int]) -> str:
    nums = [str(s + 1) for s in ([seats] if isinstance(seats, int) else seats)]
    if len(nums) == 1:
        return f"seat {nums[0]}"
    return "seats " + ", ".join(nums[:-1]) + " and " + nums[-1]


def seat_event(wording: str, *, seats: tuple[int, ...] | None = None, **data) -> Event:
    """An event whose sentence names seats as ``{key}``, each key a data field holding a 0-based position (or a
    list of them), so every surface can name the players instead of seat numbers. Its text says "seat 2" (1-based, as people count); the presentation
    fills in the players' names from ``data["wording"]`` (games/presentation/wording.py)."""
    keys = {k for _, k, _, _ in Formatter().parse(wording) if k}
    text = wording.format(**{k: _seats_in_words(data[k]) for k in keys})
    return Event(text[:1].upper() + text[1:], seats=seats, data={**data, "wording": wording})


def shuffle(state: dict, items: list) -> None:
    rng = Rng(state["rng"])
    rng.shuffle(items)
    state["rng"] = rng.state


def alive(state: dict) -> list[int]:
    return [i for i, s in enumerate(state["seats"]) if s["out"] is None]


def left_of(state: dict, seat: int) -> int:
    """The next player still in the game clockwise (seat order is clockwise; your left is who plays next)."""
    n = state["players"]
    for k in range(1, n + 1):
        j = (seat + k) % n
        if state["seats"][j]["out"] is None:
            return j
    return seat


def draw(state: dict, seat: int, ev: list) -> str | None:
    """One card from the seat's Deck; "If your deck has no cards in it any time you need to draw a card, shuffle up
    your Discard pile". None if both are empty."""
    s = state["seats"][seat]
    if not s["deck"]:
        if not s["discard"]:
            return None
        s["deck"], s["discard"] = s["discard"], []
        shuffle(state, s["deck"])
        ev.append(seat_event("{seat} shuffles their Discard pile into a new Deck.",
                             kind="reshuffle", seat=seat, cards=len(s["deck"])))
    return s["deck"].pop()


# --- Sanity ---------------------------------------------------------------------------------------------------

def gain(state: dict, seat: int, n: int, ev: list, why: str) -> None:
    s = state["seats"][seat]
    if n <= 0 or s["out"] is not None:
        return
    before = s["sanity"]
    s["sanity"] = min(MAX_SANITY, before + n)  # the tracker stops at 20
    if s["sanity"] != before:
        ev.append(seat_event(f"{{seat}} regains {s['sanity'] - before} Sanity ({why}): {s['sanity']}.",
                             kind="sanity", seat=seat, change=s["sanity"] - before, sanity=s["sanity"], why=why))
        _cackle(state, seat, before, ev)


def lose(state: dict, seats: list[int], n: int, ev: list, why: str) -> None:
    """Every seat in ``seats`` loses ``n`` Sanity at the same moment (one effect); players reaching 0 are
    eliminated together, and share their place in the ranking."""
    if n <= 0:
        return
    state["moment"] += 1
    for seat in seats:
        s = state["seats"][seat]
        if s["out"] is not None:
            continue
        before = s["sanity"]
        s["sanity"] = max(0, before - n)
        ev.append(seat_event(f"{{seat}} loses {before - s['sanity']} Sanity ({why}): {s['sanity']}.",
                             kind="sanity", seat=seat, change=s["sanity"] - before, sanity=s["sanity"], why=why))
        if s["sanity"] > 0:
            _cackle(state, seat, before, ev)
    for seat in seats:
        if state["seats"][seat]["out"] is None and state["seats"][seat]["sanity"] == 0:
            eliminate(state, seat, ev)


def _cackle(state: dict, seat: int, before: int, ev: list) -> None:
    """"Any turn you move your sanity tracker from one color to another, you must laugh/cackle"."""
    now = state["seats"][seat]["sanity"]
    if band(before) != band(now):
        ev.append(seat_event(f"{{seat}}'s Sanity moves from {BANDS[band(before)]} to {BANDS[band(now)]}: "
                             "the Mad Cackle! Bwa-ha-ha!",
                             kind="cackle", seat=seat, **{"from": BANDS[band(before)], "to": BANDS[band(now)]}))


PILES = ("deck", "hand", "purchase", "discard", "classroom", "locker")


def eliminate(state: dict, seat: int, ev: list) -> None:
    """"When a player loses their last point of Sanity, the player is eliminated from the game." The seat stays (a
    spectator); all its cards leave play (removed from the game), so nothing it owned acts again."""
    s = state["seats"][seat]
    s["out"] = state["moment"]
    for pile in PILES:
        state["removed"] += s[pile]
        s[pile] = []
    cls = state["cls"]
    if cls is not None and cls["seat"] == seat:
        state["removed"] += cls["pets"]
        cls["pets"] = []
    ev.append(seat_event("{seat} has gone completely insane and is eliminated.", kind="eliminated", seat=seat))
    left = alive(state)
    if len(left) <= 1:
        finish(state, ev)


def finish(state: dict, ev: list) -> None:
    """"The last player with any Sanity left wins!" Ranks follow elimination order; a moment's eliminations tie."""
    n = state["players"]
    when = [s["out"] if s["out"] is not None else 1 << 30 for s in state["seats"]]
    ranks = [1 + sum(1 for j in range(n) if when[j] > when[i]) for i in range(n)]
    outlasted = [sum(1 for j in range(n) if when[j] < when[i]) for i in range(n)]
    state["over"] = True
    state["dec"] = state["held"] = None
    state["result"] = {"scores": outlasted, "ranks": ranks,
                       "breakdown": [{"outlasted": outlasted[i], "sanity": state["seats"][i]["sanity"]}
                                     for i in range(n)], "tiebreak": []}
    winners = [i for i in range(n) if ranks[i] == 1]
    ev.append(seat_event("Game over: {winners} resisted insanity the longest.",
                         kind="game_over", winners=winners, ranks=ranks))


# --- The School Store ------------------------------------------------------------------------------------------

def store_draw(state: dict, which: str, ev: list) -> str | None:
    st = state["store"][which]
    if not st["deck"]:
        if not st["discard"]:
            return None
        st["deck"], st["discard"] = st["discard"], []  # "If the Faculty or Student deck ever run out, reshuffle"
        shuffle(state, st["deck"])
        ev.append(Event(f"The {which.capitalize()} Store Discard Pile is reshuffled into the {which.capitalize()} Deck.",
                        data={"kind": "store_reshuffle", "shelf": which}))
    return st["deck"].pop()


def stock(state: dict, ev: list) -> None:
    """Step 2: each shelf gets 3 cards. A full shelf discards its end card first; cards slide to the end; the early
    slots fill from the deck. An Event flipped onto a shelf resolves at once, then the whole shelf is discarded and
    3 new cards are put out."""
    text, data = [], {"kind": "shelf"}
    for which in ("student", "faculty"):
        st = state["store"][which]
        shelf = st["shelf"]
        a, b, c = shelf
        dropped = None
        if a and b and c:
            dropped = c
            st["discard"].append(c)
            a, b, c = None, a, b
        else:  # slide towards the end
            if c is None:
                b, c = None, b
            if c is None:
                a, c = None, a
            if b is None:
                a, b = None, a
        shelf[0], shelf[1], shelf[2] = a, b, c
        new = _fill(state, which, ev)
        if state["over"]:
            return
        text.append((f"{CARDS[dropped].name} at the end of the {which} shelf is discarded, n" if dropped else "N")
                    + f"ew on the {which} shelf: " + (", ".join([CARDS[c].name for c in new]) or "nothing") + ".")
        data[which] = {"discarded": dropped, "new": new, "shelf": list(shelf)}
    ev.append(Event(" ".join(text), data=data))  # one event for both shelves


def _fill(state: dict, which: str, ev: list) -> list[str]:
    """Fill the empty slots from the deck; return the cards put out."""
    st = state["store"][which]
    shelf = st["shelf"]
    new = []
    for slot in range(SHELF):
        if shelf[slot] is not None:
            continue
        cid = store_draw(state, which, ev)
        if cid is None:
            return new  # deck and discard both empty: the slot stays empty
        if CARDS[cid].is_event:
            resolve_event(state, cid, ev)
            for k in range(SHELF):
                if shelf[k] is not None:
                    st["discard"].append(shelf[k])
                    shelf[k] = None
            if state["over"]:
                return []
            return _fill(state, which, ev)
        shelf[slot] = cid
        new.append(cid)
    return new


def resolve_event(state: dict, cid: str, ev: list) -> None:
    card = CARDS[cid]
    cur = state["cur"]
    ev.append(Event(f"Event: {card.name}. {card.text}", data={"kind": "event", "card": cid, "seat": cur}))
    for key, n in card.abilities:
        if key == "event:all_gain":
            for seat in alive(state):
                gain(state, seat, n, ev, card.name)
        elif key == "event:you_gain":
            gain(state, cur, n, ev, card.name)
        elif key == "event:all_lose":
            lose(state, alive(state), n, ev, card.name)
        elif key == "event:you_lose":
            lose(state, [cur], n, ev, card.name)
    if card.has("event:locker") and state["seats"][cur]["out"] is None:
        state["seats"][cur]["locker"].append(cid)
        state["locker_new"].append(cid)  # like a bought Locker card, it produces nothing this turn
    else:
        state["removed"].append(cid)  # "Events that don't go to Lockers are removed from the game."


# --- Points and Locker -----------------------------------------------------------------------------------------

def dual(cid: str) -> bool:
    c = CARDS[cid]
    return c.nightmare > 0 and c.friendship > 0


def points(state: dict) -> list[int]:
    """[Friendship, Nightmare] from the hand (a dual card gives what the player chose) and the Locker (but not from
    Locker cards that arrived this turn)."""
    s = state["seats"][state["cur"]]
    f = nm = 0
    for cid in s["hand"]:
        c = CARDS[cid]
        if c.nightmare and c.friendship:
            if state["prod"].get(cid) == "nightmare":
                nm += c.nightmare
            else:
                f += c.friendship
        else:
            f += c.friendship
            nm += c.nightmare
    for cid in s["locker"]:
        if cid in state["locker_new"]:
            continue
        for eff, n in CARDS[cid].amount("locker"):
            if eff == "produce:f":
                f += n
            elif eff == "produce:n":
                nm += n
    return [f, nm]


def locker_bonus(state: dict, seat: int, what: str) -> int:
    return sum(n for cid in state["seats"][seat]["locker"] for eff, n in CARDS[cid].amount("locker") if eff == what)
