"""A hero's cards and tracks, as effects and rules change them: its name in events, drawing, healing and taking
Wounds, Reputation, throwing a card away, taking a card from an offer, the Action cards in hand.

Plain state changes with their events; nothing here asks what an effect may do (resolver.py does).
"""

from __future__ import annotations

from ..base import Event
from .card_text import WOUND
from .cards import ACTION_KINDS, CARDS, name


def hero_name(state, seat: int) -> str:
    return f"Seat {seat + 1}"


def draw(state, seat: int, n: int, events: list | None) -> int:
    """Draw up to n cards from the top of the deed deck (the list's end, as setup.py deals); no reshuffle
    in the middle of a round."""
    s = state["seats"][seat]
    drawn = [s["deck"].pop() for _ in range(min(n, len(s["deck"])))]
    k = len(drawn)
    s["hand"].extend(drawn)
    if events is not None and k:
        events.append(Event(f"{hero_name(state, seat)} draws {k} card{'s' if k > 1 else ''}.", None,
                            {"seat": seat, "drew": k}))
        events.append(Event("You draw " + ", ".join(name(c) for c in drawn) + ".", (seat,), {"cards": drawn}))
    return k


def wounds_in_hand(seat_state) -> int:
    return sum(1 for c in seat_state["hand"] if c == WOUND)


def heal(state, seat: int, n: int, events: list) -> None:
    """Heal: each point throws a Wound card from the hand back to the (unlimited, uncounted) supply; spare points
    stay in the pool for healing Units (turn.py). Nothing during combat."""
    if state.get("combat") is not None:
        return
    s = state["seats"][seat]
    k = min(n, wounds_in_hand(s))
    for _ in range(k):
        s["hand"].remove(WOUND)
    if state.get("turn") is not None:
        state["turn"]["pool"]["heal"] += n - k
    if k:
        events.append(Event(f"{hero_name(state, seat)} heals {k} Wound{'s' if k > 1 else ''}.", None,
                            {"seat": seat, "healed": k}))
    if k and state.get("turn") is not None and state["turn"].get("grail_draw"):
        draw(state, seat, k, events)  # Golden Grail powered: "draw a card each time you heal a Wound from hand"


def take_wounds(state, seat: int, n: int, events: list, into: str = "hand") -> None:
    """n Wound cards into the seat's hand (or ``into`` another pile). The Wound supply never runs out: the rules
    ("Stack the Wound Cards face up") set no number, so every Wound is given and none is counted."""
    s = state["seats"][seat]
    for _ in range(n):
        s[into].append(WOUND)
    if state.get("turn") is not None and state["turn"].get("seat") == seat:
        note_wounds(state["turn"], n)
    events.append(Event(f"{hero_name(state, seat)} takes {n} Wound{'s' if n > 1 else ''}.", None,
                        {"seat": seat, "wounds": n}))


def note_wounds(turn, n: int) -> None:
    """Wounds the hero received this turn (Banner of Protection's thrown-away effect counts them)."""
    turn["wounds_received"] = turn.get("wounds_received", 0) + n


def discard_non_wounds(seat_state) -> None:
    """Every non-Wound card in hand goes to the discard pile, the Wounds stay (a knock-out, a Paralyzing enemy)."""
    kept = [c for c in seat_state["hand"] if c == "wound"]
    seat_state["discard"].extend(c for c in seat_state["hand"] if c != "wound")
    seat_state["hand"] = kept


def change_reputation(state, seat: int, n: int, events: list) -> None:
    s = state["seats"][seat]
    before = s["reputation"]
    s["reputation"] = max(-7, min(7, before + n))
    if s["reputation"] != before:
        events.append(Event(f"{hero_name(state, seat)}'s Reputation {'rises' if n > 0 else 'falls'} to "
                            f"{s['reputation']}.", None, {"seat": seat, "reputation": s["reputation"]}))


def throw_away(state, seat: int, card_id: str) -> None:
    s = state["seats"][seat]
    s["hand"].remove(card_id)
    s["removed"].append(card_id)


def action_cards_in_hand(state, seat: int) -> list[str]:
    return [c for c in dict.fromkeys(state["seats"][seat]["hand"]) if CARDS[c].kind in ACTION_KINDS]


def take_from_offer(state, offer: str, card_id: str) -> None:
    """Remove a card from an offer and refill it from its deck (new cards join at the top slot)."""
    state["offers"][offer].remove(card_id)
    deck = state["decks"].get(offer) or []
    if deck:
        state["offers"][offer].insert(0, deck.pop())  # the top of a deck is its end
