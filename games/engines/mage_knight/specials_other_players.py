"""Special effects on the other players: Mind Read / Mind Steal, Mana Meltdown, Mana Radiance.
"""

from __future__ import annotations

from ..base import Event
from ..rng import Rng
from . import mana
from .cards import ACTION_KINDS, CARDS, name
from .hero import hero_name, take_wounds
from .resolver import run
from .specials_registry import always, register, Special


# Mind Read / Mind Steal: "choose a colour, gain a crystal of it; each other player discards a Spell/Action of that
# colour or shows they have none"; powered: "you may keep one discarded Action card (not a Spell) in your hand".
# state["mind_read"] walks the other seats in seat order; a seat with two or more different such cards picks one
# (engine.py's decision "mind_read", state["effect"]), the others are settled at once. The Dummy has no hand.
MIND_COLOURS = ("red", "blue", "green", "white")


def _mind_candidates(state, seat: int, colour: str) -> list[str]:
    return [c for c in dict.fromkeys(state["seats"][seat]["hand"])
            if c in CARDS and CARDS[c].kind in ("basic", "advanced", "spell") and CARDS[c].colour == colour]


def _mind_read_choices(state, seat, args):
    others = "each other player" if state["players"] > 1 else ""
    return [(c, f"a {c} crystal" + (f"; {others} discards a {c} Spell or Action card or shows none" if others else ""))
            for c in MIND_COLOURS]


def _mind_read_do(state, seat, args, choice, events):
    mana.crystal_gain(state["seats"][seat], choice, state["turn"])
    events.append(Event(f"{hero_name(state, seat)} reads minds: {choice}.", None, {"seat": seat, "colour": choice}))
    others = [(seat + k) % state["players"] for k in range(1, state["players"])]
    state["mind_read"] = {"caster": seat, "colour": choice, "steal": bool(args[0]), "queue": others,
                          "discarded": []}
    mind_read_next(state, events)


def mind_read_options(state, seat: int) -> list[tuple[str, str]]:
    mr = state["mind_read"]
    return [(f"discard:{c}", f"discard {name(c)} (Mind Read)") for c in _mind_candidates(state, seat, mr["colour"])]


def mind_read_discard(state, seat: int, card: str, events: list) -> None:
    s = state["seats"][seat]
    s["hand"].remove(card)
    s["discard"].append(card)
    state["mind_read"]["discarded"].append([seat, card])
    events.append(Event(f"Seat {seat + 1} discards {name(card)} (Mind Read).", None, {"seat": seat, "card": card}))


def mind_read_next(state, events: list) -> None:
    """Settle the next seats of a Mind Read; stop at a seat that must choose (state["effect"])."""
    mr = state["mind_read"]
    state["effect"] = None
    while mr["queue"]:
        other = mr["queue"].pop(0)
        found = _mind_candidates(state, other, mr["colour"])
        if len(found) > 1:
            state["effect"] = {"seat": other, "kind": "mind_read"}
            return
        if found:
            mind_read_discard(state, other, found[0], events)
        else:  # "or reveal their hand to show that they have none"
            hand = state["seats"][other]["hand"]
            shown = ", ".join(name(c) for c in hand) or "no cards"
            events.append(Event(f"Seat {other + 1} has no {mr['colour']} Spell or Action card and shows their hand: "
                                f"{shown}.", None, {"seat": other, "revealed": list(hand)}))
    caster = mr["caster"]
    state.pop("mind_read")
    stealable = [[o, c] for o, c in mr["discarded"] if CARDS[c].kind in ACTION_KINDS]
    if mr["steal"] and stealable and state.get("turn") is not None:
        state["turn"]["steal"] = stealable
        state["turn"]["queue"].insert(0, ["atom", "special", "mind_steal"])
        run(state, caster, events)


def _steal_choices(state, seat, args):
    return [("none", "steal nothing")] + [(f"{o}>{c}", f"steal {name(c)} from Seat {o + 1} into your hand")
                                         for o, c in state["turn"].get("steal", [])]


def _steal_do(state, seat, args, choice, events):
    state["turn"].pop("steal", None)
    if choice == "none":
        return
    other, card = choice.split(">")
    o = state["seats"][int(other)]
    o["discard"].remove(card)
    o.setdefault("stolen_out", []).append(card)  # invariants.py: a basic card that changed hands
    me = state["seats"][seat]
    me["hand"].append(card)
    me.setdefault("stolen_in", []).append(card)
    events.append(Event(f"{hero_name(state, seat)} steals {name(card)} from Seat {int(other) + 1} (Mind Steal).", None,
                        {"seat": seat, "card": card}))


# Mana Meltdown: "each other player loses a random crystal (or takes a Wound if they have none); you may gain one lost
# crystal"; Mana Radiance: "choose a basic colour; every player incl. you takes a Wound per crystal of that colour; you
# gain 2 crystals of it". The Dummy Player is no player here (the rules count players "excluding the dummy").
def _other_seats(state, seat) -> list[int]:
    n = len(state["seats"])
    return [(seat + k) % n for k in range(1, n)]


def _meltdown_usable(state, seat, args, ctx):
    """Of use whenever there is another player: they lose a crystal, or take a Wound (the supply never runs out)."""
    return bool(_other_seats(state, seat))


def _meltdown_do(state, seat, args, choice, events):
    lost = []
    for o in _other_seats(state, seat):
        cr = state["seats"][o]["crystals"]
        held = [c for c in mana.BASIC for _ in range(cr[c])]
        if held:  # "a random crystal": each crystal held alike, drawn with the state's rng
            rng = Rng(state["rng"])
            colour = held[rng.below(len(held))]
            state["rng"] = rng.state
            cr[colour] -= 1
            lost.append(colour)
            events.append(Event(f"Seat {o + 1} loses a {colour} crystal (Mana Meltdown).", None,
                                {"seat": o, "lost_crystal": colour}))
        else:
            events.append(Event(f"Seat {o + 1} has no crystal and takes a Wound (Mana Meltdown).", None,
                                {"seat": o, "meltdown_wound": 1}))
            take_wounds(state, o, 1, events)
    if lost:
        state["turn"]["meltdown_lost"] = lost
        state["turn"]["queue"].insert(0, ["atom", "special", "meltdown_gain"])


def _meltdown_gain_choices(state, seat, args):
    """"You may gain one lost crystal": "none" first (the default), then each colour lost."""
    cr = state["seats"][seat]["crystals"]
    return [("none", "gain none of the lost crystals")] + [
        (c, f"gain a lost {c} crystal" + (" (you hold 3: a token instead)" if cr[c] >= mana.CRYSTAL_MAX else ""))
        for c in dict.fromkeys(state["turn"].get("meltdown_lost", []))]


def _meltdown_gain_do(state, seat, args, choice, events):
    state["turn"].pop("meltdown_lost", None)
    if choice in mana.BASIC:
        mana.crystal_gain(state["seats"][seat], choice, state["turn"])
        events.append(Event(f"{hero_name(state, seat)} gains a lost {choice} crystal (Mana Meltdown).", None,
                            {"seat": seat, "crystal": choice}))


def _radiance_choices(state, seat, args):
    """A basic colour, the one the caster holds fewest crystals of first (the default: the fewest own Wounds)."""
    cr = state["seats"][seat]["crystals"]
    others = _other_seats(state, seat)
    out = []
    for c in sorted(mana.BASIC, key=lambda c: cr[c]):
        theirs = ", ".join(f"Seat {o + 1} {state['seats'][o]['crystals'][c]}" for o in others)
        out.append((c, f"{c}: Wounds for you {cr[c]}" + (f", {theirs}" if theirs else "") + f"; gain 2 {c} crystals"))
    return out


def _radiance_do(state, seat, args, choice, events):
    """Every player, the caster first then the others in seat order, takes a Wound per crystal of the colour (the
    crystals stay); then the caster gains 2 crystals of it (the cap keeps extras as tokens)."""
    events.append(Event(f"{hero_name(state, seat)} casts Mana Radiance: {choice}.", None,
                        {"seat": seat, "colour": choice}))
    for o in [seat] + _other_seats(state, seat):
        n = state["seats"][o]["crystals"][choice]
        if n:
            take_wounds(state, o, n, events)
    for _ in range(2):
        mana.crystal_gain(state["seats"][seat], choice, state["turn"])


OTHER_PLAYER_SPECIALS: dict[str, Special] = {
    "mind_read": Special(lambda a: "choose a colour: gain a crystal of it; each other player discards a Spell or "
                                   "Action card of that colour or shows that they have none" +
                                   ("; you may steal one discarded Action card into your hand" if a[0] else ""),
                         always, _mind_read_do, _mind_read_choices),
    "meltdown": Special(lambda a: "each other player loses a random crystal (or takes a Wound if they have none); "
                                  "you may gain one lost crystal", _meltdown_usable, _meltdown_do),
    "meltdown_gain": Special(lambda a: "you may gain one lost crystal", lambda *a: False, _meltdown_gain_do,
                             _meltdown_gain_choices),
    "radiance": Special(lambda a: "choose a basic colour: every player, you too, takes a Wound per crystal of that "
                                  "colour; you gain 2 crystals of it", always, _radiance_do, _radiance_choices),
    "mind_steal": Special(lambda a: "you may steal one discarded Action card into your hand", always, _steal_do,
                          _steal_choices),
}

register(OTHER_PLAYER_SPECIALS)
