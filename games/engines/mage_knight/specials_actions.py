"""Action cards whose effect lasts the turn or reaches other cards: Noble Manners, Meditation / Trance, Steady
Tempo, Maximal Effect, Call to Arms, Magic Talent, Learning.
"""

from __future__ import annotations

from ..base import Event
from ..rng import Rng
from . import combat, mana
from .cards import ACTION_KINDS, CARDS, name
from .card_text import describe, joined_with_or, plural, WOUND
from .hero import hero_name, throw_away
from .resolver import hand_without, in_combat, make_ctx, usable, usable_after_paying
from .specials_registry import always, register, Special
from .unit_rules import unit_abilities, unit_name


def _noble_do(state, seat, args, choice, events):
    """Noble Manners: the Fame (and Reputation) waits for an interaction that uses this Influence (a purchase
    after the card is played: interaction._spend moves it to ``noble_earned``); endturn.finish gives it."""
    state["turn"].setdefault("noble", []).append(list(args))


def noble_label(args) -> str:
    gain = f"Fame +{args[0]}" + (f" and Reputation +{args[1]}" if args[1] else "")
    return f"at the end of the turn {gain}, if this Influence is used in an interaction"


# Meditation / Trance: two cards of the discard pile (random / chosen) go on top or at the bottom of the deed deck,
# then "draw 2 over Hand limit at end of turn" (turn["hand_bonus"], endturn.finish). The cards stay in the discard
# pile, listed in turn["meditation"], until they are placed (card conservation holds at every pick).
MEDITATION_CARDS = 2


def _meditation_usable(state, seat, args, ctx):
    s = state["seats"][seat]
    return bool(s["discard"] or s["deck"])  # something to put back, or to draw with the larger hand limit


def _meditation_left(state, seat):
    left = list(state["seats"][seat]["discard"])
    for c in state["turn"].get("meditation", []):
        left.remove(c)
    return left


def _meditation_do(state, seat, args, choice, events):
    """Meditation: "put 2 random cards from discard pile" (a random draw without replacement)."""
    turn = state["turn"]
    pile = list(state["seats"][seat]["discard"])
    rng = Rng(state["rng"])
    picked = []
    for _ in range(min(MEDITATION_CARDS, len(pile))):
        picked.append(pile.pop(rng.below(len(pile))))
    state["rng"] = rng.state
    turn["meditation"] = picked
    if picked:
        events.append(Event("You pick " + " and ".join(name(c) for c in picked) + " at random.", (seat,),
                            {"cards": picked}))
    turn["queue"].insert(0, ["atom", "special", "meditation_place"])


def _trance_choices(state, seat, args):
    return [(c, f"choose {name(c)}") for c in dict.fromkeys(_meditation_left(state, seat))] or None


def _trance_do(state, seat, args, choice, events):
    """Trance: "as basic but you choose the 2 cards" (one pick each)."""
    turn = state["turn"]
    held = turn.setdefault("meditation", [])
    if choice is not None:
        held.append(choice)
    if choice is not None and len(held) < MEDITATION_CARDS and _meditation_left(state, seat):
        turn["queue"].insert(0, ["atom", "special", "trance"])
    else:
        turn["queue"].insert(0, ["atom", "special", "meditation_place"])


def _place_choices(state, seat, args):
    n = len(state["turn"].get("meditation", []))
    if not n:
        return None
    what = "the card" if n == 1 else f"the {n} cards"
    return [("top", f"put {what} on top of your deed deck"), ("bottom", f"put {what} at the bottom of your deed deck")]


def _place_do(state, seat, args, choice, events):
    turn = state["turn"]
    s = state["seats"][seat]
    held = turn.pop("meditation", [])
    for c in held:
        s["discard"].remove(c)
        if choice == "top":
            s["deck"].append(c)  # the deck's top is its end: the last one placed is drawn first
        else:
            s["deck"].insert(0, c)
    if held:
        events.append(Event(f"{hero_name(state, seat)} puts {plural(len(held), 'card')} from the discard pile "
                            f"{'on top of' if choice == 'top' else 'at the bottom of'} the deed deck.", None,
                            {"seat": seat}))
    turn["hand_bonus"] = turn.get("hand_bonus", 0) + 2


# Maximal Effect: "play with another Action card: use its basic effect 3 times (powered: its powered effect twice
# for free), then throw that card away". args = [times, powered]; the card is thrown away as its effect is queued.
def _maximal_tree(card_id, args):
    return CARDS[card_id].powered if args[1] else CARDS[card_id].basic


def _maximal_targets(state, seat, args, ctx):
    hand = hand_without(state, seat, ctx)
    return [c for c in dict.fromkeys(hand) if CARDS[c].kind in ACTION_KINDS and usable(
        state, seat, _maximal_tree(c, args), dict(ctx, exclude=[x for x in (ctx.get("exclude"), c) if x]))]


def _maximal_choices(state, seat, args):
    n = "3 times" if args[0] == 3 else ("twice" if args[0] == 2 else f"{args[0]} times")
    return [(c, f"throw away {name(c)}: {describe(_maximal_tree(c, args))}, {n}")
            for c in _maximal_targets(state, seat, args, make_ctx(state, seat))]


def _maximal_do(state, seat, args, choice, events):
    throw_away(state, seat, choice)
    events.append(Event(f"{hero_name(state, seat)} throws away {name(choice)} (Maximal Effect).", None,
                        {"seat": seat, "card": choice}))
    state["turn"]["queue"][:0] = [_maximal_tree(choice, args)] * args[0]


def _maximal_label(args):
    times = "3 times" if args[0] == 3 else ("twice" if args[0] == 2 else f"{args[0]} times")
    which = "powered effect" if args[1] else "basic effect"
    return f"use another Action card's {which} {times}{' for free' if args[1] else ''}, then throw that card away"


# Call to Arms: "use the ability of one Unit in the Unit offer this turn as if you had it (cannot assign damage to
# it)": an ability of an offered Unit, its own mana paid as for a Unit of one's own; the Unit stays in the offer.
def _mentions(tree, special):
    if tree[0] == "atom":
        return tree[1] == "special" and tree[2] == special
    return any(_mentions(t, special) for t in tree[1])


def _call_abilities(state, seat, ctx):
    if in_combat(state) and not combat.units_allowed(state):
        return []
    out = []
    for u in dict.fromkeys(state["offers"].get("units", [])):
        if u in CARDS:
            continue  # a monastery's Advanced Action in the offer
        for i, (tree, colour) in enumerate(unit_abilities(u)):
            if tree is None or _mentions(tree, "wound_self") or not usable(state, seat, tree, ctx):
                continue  # an ability that wounds the Unit itself needs a Unit that can take the wound
            srcs = mana.sources_for(state, seat, colour) if colour else [None]
            if srcs:
                out.append((u, i, tree, srcs[0]))
    return out


def _call_choices(state, seat, args):
    return [(f"{u}>{i}", f"{unit_name(u)}: {describe(tree)}" + (f" (paying {mana.label(state, src)})" if src else ""))
            for u, i, tree, src in _call_abilities(state, seat, make_ctx(state, seat))]


def _call_do(state, seat, args, choice, events):
    u, i = choice.split(">")
    tree, colour = unit_abilities(u)[int(i)]
    if colour:
        mana.pay(state, seat, mana.sources_for(state, seat, colour)[0])
    state["turn"]["unit_uid"] = None  # not a Unit of one's own: nothing of it can be wounded
    events.append(Event(f"{hero_name(state, seat)} calls on the {unit_name(u)} of the Unit offer.", None,
                        {"seat": seat, "unit": u}))
    state["turn"]["queue"].insert(0, tree)


# Magic Talent basic: "Discard a card of any color. You may play one Spell card of the same color in the Spells offer
# this turn as if it were in your hand. That card remains in the Spells offer." turn["talent"] holds the colour;
# turn.py offers the offer's Spells of that colour (t-talent:<spell>) and plays them without taking them.
def talent_castable(state, seat, colour: str) -> list[str]:
    """The offer's Spells of ``colour`` that could be cast now (an effect of use and its mana payable)."""
    out = []
    ctx = make_ctx(state, seat)
    for sp in dict.fromkeys(state["offers"].get("spells", [])):
        card = CARDS.get(sp)
        if not card or card.colour != colour:
            continue
        ok = usable(state, seat, card.basic, ctx) and any(
            usable_after_paying(state, seat, card.basic, combo, ctx) for combo in mana.payments(state, seat, [colour]))
        if not ok and state["time"] == "night" and usable(state, seat, card.powered, ctx):
            ok = any(usable_after_paying(state, seat, card.powered, combo, ctx)
                     for combo in mana.payments(state, seat, [colour, "black"]))
        if ok:
            out.append(sp)
    return out


def _talent_choices(state, seat, args, ctx=None):
    ctx = ctx or make_ctx(state, seat)
    out = []
    for c in dict.fromkeys(hand_without(state, seat, ctx)):
        colour = CARDS[c].colour if c in CARDS else ""
        if c == WOUND or not colour:
            continue  # "a card of any color": Wounds and colourless Artifacts have none
        spells = talent_castable(state, seat, colour)
        if spells:
            out.append((c, f"discard {name(c)}: cast {joined_with_or([name(x) for x in spells])} from the Spell "
                           f"offer"))
    return out


def _talent_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    s["hand"].remove(choice)
    s["discard"].append(choice)
    state["turn"]["talent"] = CARDS[choice].colour
    events.append(Event(f"{hero_name(state, seat)} discards {name(choice)} (Magic Talent: a "
                        f"{CARDS[choice].colour} Spell of the offer may be cast this turn).", None, {"seat": seat}))


# Learning: "Once during this turn, you may pay Influence 6 to gain an Advanced Action card from the Advanced Actions
# offer to your discard pile" (powered: Influence 9, to your hand). turn["learning"] = [cost, to_hand]; turn.py
# offers the purchase (t-learn:<card>) while the Influence pool pays for it.
def _learning_do(state, seat, args, choice, events):
    turn = state["turn"]
    if not turn.get("learned"):
        turn["learning"] = list(args)


def learning_label(args) -> str:
    where = "your hand" if args[1] else "your discard pile"
    return f"once this turn you may pay Influence {args[0]} for an Advanced Action from the offer into {where}"


ACTION_SPECIALS: dict[str, Special] = {
    "meditation": Special(lambda a: "put 2 random cards of your discard pile on top or at the bottom of your deed "
                                    "deck, and your Hand limit is 2 higher at the end of the turn",
                          _meditation_usable, _meditation_do),
    "trance": Special(lambda a: "put 2 cards of your discard pile (your choice) on top or at the bottom of your "
                                "deed deck, and your Hand limit is 2 higher at the end of the turn",
                      _meditation_usable, _trance_do, _trance_choices),
    "meditation_place": Special(lambda a: "put the cards on top or at the bottom of your deed deck", always, _place_do,
                                _place_choices),
    "steady_tempo": Special(lambda a: "at the end of the turn you may put this card " + (
                                "on top of your deed deck" if a[0] else "at the bottom of your deed deck (if it is "
                                                                        "not empty)") + " instead of discarding it",
                            lambda *a: False, lambda *a: None),
    "maximal_effect": Special(_maximal_label, lambda st, se, a, ctx: bool(_maximal_targets(st, se, a, ctx)),
                              _maximal_do, _maximal_choices),
    "call_to_arms": Special(lambda a: "use the ability of a Unit in the Unit offer as if it were yours",
                            lambda st, se, a, ctx: bool(_call_abilities(st, se, ctx)), _call_do, _call_choices,
                            pays=True),
    "magic_talent": Special(lambda a: "discard a card: you may cast one Spell of its colour from the Spell offer this "
                                      "turn (it stays in the offer)",
                            lambda st, se, a, ctx: bool(_talent_choices(st, se, a, ctx)), _talent_do,
                            lambda st, se, a: _talent_choices(st, se, a)),
    "learning": Special(learning_label, lambda *a: False, _learning_do),
    "noble_manners": Special(noble_label, lambda *a: False, _noble_do),
}

register(ACTION_SPECIALS)
