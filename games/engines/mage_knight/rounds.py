"""Rounds: prepare, choose tactics (reverse Fame), turns in tactic order, the end-of-round announcement, the last
turns, and First Reconnaissance's end (a city revealed: everyone, the revealer too, takes one last turn).

``advance(state, ev)`` runs the game until some seat must decide and leaves that decision in ``state["dec"]``
(kinds: tactic, rethink, preparation, mana_steal, turn, skill, advanced); engine.py applies picks.
The Dummy Player is ``-1`` in ``state["order"]``; its turns need no pick (dummy.py).
"""

from __future__ import annotations

import csv
import os

from ..base import Event
from ..rng import Rng
from . import cards, dummy, tactic_turn, units
from .colours import BASIC
from .mana import new_source
from .scoring import score
from .tiles import CITY_TILES
from .unit_rules import drop_banner

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "tactics.csv"), encoding="utf-8") as _f:
    TACTICS: dict[str, dict] = {r["id"]: {**r, "number": int(r["number"])} for r in csv.DictReader(_f)}

# Tactics taken out of the game at the end of each Day or Night (scenario data, mkd tactic_removal_mode): solo
# "all_used" (the player's and the Dummy's), 2 players "remove_two" (both used), 3 players "remove_one" (the
# lowest-numbered used card), 4 players none. Reading recorded in docs/rules-decisions/mage-knight.md.
REMOVE = {1: "all", 2: "all", 3: "lowest", 4: "none"}


def tactics_of(time: str) -> list[str]:
    return [t for t, row in TACTICS.items() if row["time"] == time]


def name(seat: int) -> str:
    return "the Dummy Player" if seat < 0 else f"Seat {seat + 1}"


# ---------------------------------------------------------------------------------------------------- tactics


def open_tactics(state: dict) -> None:
    """2. "Players choose Tactic Cards in reverse Fame order (or reverse round order for ties)"."""
    pos = {s: i for i, s in enumerate(state["order"])}
    humans = range(state["players"])
    state["tactic_queue"] = sorted(humans, key=lambda s: (state["seats"][s]["fame"], -pos.get(s, s)))
    state["phase"] = "tactics"


def take_tactic(state: dict, seat: int, tactic: str, ev: list) -> None:
    """The seat takes the tactic; on-take effects (Great Start draws; Rethink, Preparation, Mana Steal ask)."""
    state["tactics"]["available"].remove(tactic)
    state["tactics"]["chosen"][str(seat)] = tactic
    state["tactic_queue"].remove(seat)
    ev.append(Event(f"{name(seat)} takes the tactic {TACTICS[tactic]['name']}", None,
                    {"seat": seat, "tactic": tactic}))
    s = state["seats"][seat]
    if tactic == "great_start":
        draw(state, seat, 2)
    elif tactic == "rethink":
        state["effect"] = {"seat": seat, "kind": "rethink", "set_aside": []}
    elif tactic == "preparation" and s["deck"]:
        state["effect"] = {"seat": seat, "kind": "preparation"}
    elif tactic == "mana_steal" and any(d in BASIC for i, d in enumerate(state["source"]["dice"])):
        state["effect"] = {"seat": seat, "kind": "mana_steal"}


def draw(state: dict, seat: int, n: int) -> int:
    """Draw up to n cards from the top of the seat's deed deck (no reshuffle within a round)."""
    s = state["seats"][seat]
    k = min(n, len(s["deck"]))
    for _ in range(k):
        s["hand"].append(s["deck"].pop())
    return k


def rethink_done(state: dict, seat: int, rng: Rng) -> None:
    """Rethink: "discard up to 3 cards (Wounds allowed), draw as many, then shuffle discard pile into the Deed deck"."""
    eff = state["effect"]
    s = state["seats"][seat]
    s["discard"] += eff["set_aside"]
    draw(state, seat, len(eff["set_aside"]))
    s["deck"] += s["discard"]
    s["discard"] = []
    rng.shuffle(s["deck"])
    state["effect"] = None


def close_tactics(state: dict, rng: Rng, ev: list) -> None:
    """The Dummy takes a random remaining tactic; "the player with the lowest Tactic number goes first"."""
    if state["solo"]:
        left = state["tactics"]["available"]
        t = left[rng.below(len(left))]
        left.remove(t)
        state["dummy"]["tactic"] = t
        ev.append(Event(f"The Dummy Player takes the tactic {TACTICS[t]['name']}", None, {"seat": -1, "tactic": t}))
    chosen = {int(k): v for k, v in state["tactics"]["chosen"].items()}
    if state["solo"]:
        chosen[-1] = state["dummy"]["tactic"]
    state["order"] = sorted(chosen, key=lambda s: TACTICS[chosen[s]]["number"])
    state["phase"], state["turn_at"], state["acting"] = "turn", -1, None
    # The wording names the players (games/presentation/wording.py); with the Dummy Player (-1) in the order
    # the engine's own text stands.
    ev.append(Event("Round order: " + ", ".join(name(s) for s in state["order"]), None,
                    {"order": list(state["order"]), "wording": "Round order: {order}"}))


# ------------------------------------------------------------------------------------------------------- turns


def next_actor(state: dict) -> int | None:
    """The next entry of the round order still owed a turn, or None when the round is over."""
    order = state["order"]
    owed = None
    if state["end_announced_by"] is not None:
        owed = set(state["last_turns"])
    if state["final_turns"] is not None:
        owed = set(state["final_turns"]) if owed is None else owed & set(state["final_turns"])
    if owed is not None and not owed:
        return None
    extra = state["tactics"].pop("time_bent", None)  # Time Bending: "take another turn immediately"
    if extra is None:
        extra = state["tactics"].pop("extra_turn", None)
    if extra is not None and owed is None:
        return extra  # The Right Moment: "take another turn right after it" (turn_at stays: the order goes on after)
    i = state["turn_at"]
    for _ in range(len(order)):
        i = (i + 1) % len(order)
        if owed is None or order[i] in owed:
            state["turn_at"] = i
            return order[i]
    return None


def announce(state: dict, who: int, ev: list | None) -> None:
    """"a player with an empty Deed Deck announces the end of the round ... all other players take one last turn".

    A seat announces through turn.py's pick (which sets ``end_announced_by``); the Dummy through dummy.py."""
    state["end_announced_by"] = who
    state["last_turns"] = [s for s in state["order"] if s != who]
    state["announce_seen"] = True
    if ev is not None:
        ev.append(Event(f"{name(who)} announces the end of the round; everyone else takes one last turn", None,
                        {"seat": who, "announce": True}))


def turn_over(state: dict, who: int, ev: list) -> None:
    """Bookkeeping after a turn (or an announcement): last turns, the scenario's final turns."""
    state["turns_taken"] += 1
    state["cur"] = who
    if state["end_announced_by"] == who and not state.get("announce_seen"):
        announce(state, who, None)  # turn.py told the table already
    if who in state["last_turns"]:
        state["last_turns"].remove(who)
    if state["final_turns"] is not None and who in state["final_turns"]:
        state["final_turns"].remove(who)
    if state["city_revealed_by"] is None and _city_out(state):
        state["city_revealed_by"] = who
    if state["city_revealed_by"] is not None and state["final_turns"] is None:
        # "a player reveals a city tile: every player, including the revealer, takes one last turn"
        state["final_turns"] = list(state["order"])
        ev.append(Event(f"A city is revealed: every player, {name(state['city_revealed_by'])} too, takes one "
                        "last turn", None, {"final_turns": True, "revealer": state["city_revealed_by"],
                                            "wording": "A city is revealed: every player, {revealer} too, takes "
                                                       "one last turn"}))


def _city_out(state: dict) -> bool:
    """A city tile on the map (turn.py also names the revealer when it explores one)."""
    return any(t["id"] in CITY_TILES for t in state["map"]["tiles"])


def core_out(state: dict) -> bool:
    return any(str(t["id"]).startswith("core_") for t in state["map"]["tiles"])


# ----------------------------------------------------------------------------------------------- round ends


def end_round(state: dict, rng: Rng, ev: list) -> None:
    """After the round: "Check Scenario for Game End"; otherwise prepare the next round and open its tactics."""
    ev.append(Event(f"Round {state['round']} ({state['time']}) ends", None, {"round": state["round"]}))
    if state["final_turns"] is not None or state["round"] >= state["rounds_total"]:
        finish(state, ev)
        return
    remove_used_tactics(state)
    state["round"] += 1
    prepare_round(state, rng, ev)
    if state.get("effect") is None:  # no Banner question open (banners_done opens the tactics then)
        open_tactics(state)


def finish(state: dict, ev: list) -> None:
    state["phase"], state["over"], state["dec"], state["turn"] = "over", True, None, None
    state["result"] = score(state)
    ev.append(Event("The game is over", None, {"result": state["result"]}))


def remove_used_tactics(state: dict) -> None:
    used = [v for v in state["tactics"]["chosen"].values()]
    if state["solo"] and state["dummy"]["tactic"]:
        used.append(state["dummy"]["tactic"])
    mode = REMOVE[state["players"]]
    if mode == "all":
        state["tactics"]["removed"] += used
    elif mode == "lowest" and used:
        state["tactics"]["removed"].append(min(used, key=lambda t: TACTICS[t]["number"]))


def prepare_round(state: dict, rng: Rng, ev: list) -> None:
    """1. Prepare: day/night, reroll, new unit offer, refresh the offers (and the Dummy's upkeep), tactics, players."""
    state["time"] = state["round_sequence"][state["round"] - 1]
    new_source(state, rng)
    new_unit_offer(state, rng)
    refresh_offers(state, rng)
    state["tactics"]["available"] = [t for t in tactics_of(state["time"]) if t not in state["tactics"]["removed"]]
    state["tactics"]["chosen"] = {}
    state["tactics"].pop("extra_turn", None)  # The Right Moment's turn never outlives its round
    state["tactics"].pop("time_bent", None)
    if state["dummy"] is not None:
        state["dummy"]["tactic"] = None
    # 6. "Flip any used Banners ... back to their ready side (you may discard Banners at this point)": a seat with a
    # Banner on a Unit is asked first (engine.py's decision "banners"), then every seat's cards are shuffled.
    asked = [i for i, s in enumerate(state["seats"]) if any(u.get("banner") for u in s["units"])]
    if asked:
        state["effect"] = {"seat": asked[0], "kind": "banners", "then": asked[1:]}
        return
    prepare_seats(state, rng, ev)


def banner_options(state: dict, seat: int) -> list[tuple[str, str]]:
    out = [("done", "Keep the Banners on your Units")]
    for u in state["seats"][seat]["units"]:
        if u.get("banner"):
            out.append((f"discard:{u['uid']}", f"Discard {cards.name(u['banner'])} from {units.unit(u['id']).name} "
                                               f"(it is shuffled into your deed deck)"))
    return out


def banner_pick(state: dict, seat: int, option_id: str, rng: Rng, ev: list) -> None:
    """A seat's answer at the round's preparation: discard one Banner (asked again) or keep the rest."""
    s = state["seats"][seat]
    if option_id.startswith("discard:"):
        u = next(x for x in s["units"] if str(x["uid"]) == option_id.split(":", 1)[1])
        banner = u["banner"]
        drop_banner(s, u)
        ev.append(Event(f"Seat {seat + 1} discards {cards.name(banner)}.", None, {"seat": seat, "banner": banner}))
        if any(x.get("banner") for x in s["units"]):
            return
    then = state["effect"]["then"]
    if then:
        state["effect"] = {"seat": then[0], "kind": "banners", "then": then[1:]}
        return
    state["effect"] = None
    prepare_seats(state, rng, ev)
    open_tactics(state)


def prepare_seats(state: dict, rng: Rng, ev: list) -> None:
    """The rest of the preparation, for each player (after any Banner question): banners, skills and Units ready,
    deed cards shuffled into the deed deck, the hand drawn; the Dummy's deck; the round's announcement."""
    for i, s in enumerate(state["seats"]):
        for u in s["units"]:
            if u.get("banner"):
                u["banner_used"] = False
        tactic_turn.end_of_round(s)
        s["skills_used"] = []
        for u in s["units"]:
            u["ready"] = True
        s["deck"] += s["hand"] + s["discard"] + s["play_area"] + s.pop("set_aside", [])  # Time Bending's card
        s["hand"], s["discard"], s["play_area"] = [], [], []
        rng.shuffle(s["deck"])
        draw(state, i, s["hand_limit"])
        s.pop("tactic_die", None)
        s.pop("claimed", None)  # Mana Claim's die is back in the Source (rolled anew with the others)
    if state["dummy"] is not None:
        dummy.reshuffle(state, rng)
    state["end_announced_by"], state["last_turns"], state["turn_at"] = None, [], -1
    state["announce_seen"] = False
    ev.append(Event(f"Round {state['round']} of {state['rounds_total']} begins: "
                    f"{'Day' if state['time'] == 'day' else 'Night'}", None,
                    {"round": state["round"], "time": state["time"]}))


def new_unit_offer(state: dict, rng: Rng) -> None:
    """3. Old offer back to its decks; players+2 new: Regular only until a Core tile is out, then Elite, Regular...

    First Reconnaissance does not use Elite Units (scenario special rules) unless the table's option
    ``elite_units`` is on."""
    decks = state["decks"]
    for u in state["offers"]["units"]:
        if u in units.UNITS:
            decks["units_elite" if units.is_elite(u) else "units_regular"].insert(0, u)  # the bottom
    monastery_offer(state)
    n = state["players"] + 2
    alternate = state["options"].get("elite_units") and core_out(state)
    offer = []
    for i in range(n):
        key = "units_elite" if alternate and i % 2 == 0 else "units_regular"
        if not decks[key]:
            key = "units_regular" if key == "units_elite" else "units_elite"
            if not decks[key] or (key == "units_elite" and not alternate):
                continue
        offer.append(decks[key].pop())
    state["offers"]["units"] = offer


def monastery_offer(state: dict) -> None:
    """A new Unit offer renews the Advanced Actions beside it: one per unburned monastery on the map (turn.py adds
    one when a monastery is revealed; the old ones go to the bottom of the Advanced Action deck)."""
    deck = state["decks"]["advanced"]
    old = [c for c in state["offers"]["units"] if c not in _unit_ids()] + state["offers"].get("monastery", [])
    deck[:0] = old
    n = sum(1 for h in state["map"]["hexes"].values() if h.get("site") == "monastery" and not h.get("burned"))
    state["offers"]["monastery"] = [deck.pop() for _ in range(min(n, len(deck)))]


def _unit_ids():
    return units.UNITS


def refresh_offers(state: dict, rng: Rng) -> None:
    """4. "Discard the lowest valued Advanced Action and Spell cards ... draw new cards to replenish the top slots".

    The offer is a list whose first entry is the top slot and last the lowest. Discarded cards go to the bottom of
    their deck; with the Dummy, the lowest Advanced Action goes into its deck and it gains a crystal of the lowest
    spell's colour (no limit)."""
    d = state["dummy"]
    for key in ("advanced", "spells"):
        offer, deck = state["offers"][key], state["decks"][key]
        if offer:
            low = offer.pop()
            if d is not None and key == "advanced":
                d["deck"].append(low)
            else:
                deck.insert(0, low)
            if d is not None and key == "spells":
                colour = cards.colour(low)
                if colour in d["crystals"]:
                    d["crystals"][colour] += 1
        while len(offer) < 3 and deck:
            offer.insert(0, deck.pop())


def start_round_one(state: dict) -> None:
    open_tactics(state)
    state["turn_at"], state["acting"], state["effect"] = -1, None, None
