"""Hero skills (skills.csv `special <skill id>`): SKILL_SPECIALS.
"""

from __future__ import annotations

from . import mana
from .cards import name
from .card_text import COMBAT, WOUND
from .hero import draw, wounds_in_hand
from .pool import add_pool
from .resolver import apply_atom, atom_usable, in_combat
from .specials_registry import always, register, Special
from .unit_rules import heal_unit_wound, unit_name, units_of


# ---------------------------------------------------------------- skills (skills.csv `special <skill id>`)

def _by_time(day_kind, day_n, night_n, elem="physical"):
    """A skill giving one amount by Day and another at Night (Dark Paths, Bright Negotiation, ...)."""
    def tree(state):
        n = day_n if state["time"] == "day" else night_n
        return ["atom", day_kind, n, elem] if day_kind in COMBAT else ["atom", day_kind, n]

    def ok(state, seat, args, ctx):
        return atom_usable(state, seat, tree(state), ctx)

    def do(state, seat, args, choice, events):
        apply_atom(state, seat, tree(state), events)
    return Special(lambda a: f"{day_kind.title()} {day_n} by Day, {night_n} at Night", ok, do)


def _dark_fire_do(state, seat, args, choice, events):
    mana.crystal_gain(state["seats"][seat], "red", state["turn"])
    state["turn"]["tokens"].append(choice)


def _invocation_choices(state, seat, args):
    out = []
    for c in dict.fromkeys(state["seats"][seat]["hand"]):
        for colour in (("red", "black") if c == WOUND else ("white", "green")):
            out.append((f"{c}>{colour}", f"discard {name(c)} for a {colour} token"))
    return out


def _invocation_do(state, seat, args, choice, events):
    card, colour = choice.split(">")
    s = state["seats"][seat]
    s["hand"].remove(card)
    s["discard"].append(card)
    state["turn"]["tokens"].append(colour)


def _no_pain_do(state, seat, args, choice, events):
    s = state["seats"][seat]
    s["hand"].remove(WOUND)
    s["discard"].append(WOUND)
    draw(state, seat, 1, events)


def _glitter_do(state, seat, args, choice, events):
    add_pool(state["turn"], "influence", sum(1 for v in state["seats"][seat]["crystals"].values() if v > 0))


def _ready_units(state, seat):
    return sum(1 for u in units_of(state, seat) if u["ready"] and not u.get("wounded"))


def _forward_march_do(state, seat, args, choice, events):
    add_pool(state["turn"], "move", min(3, _ready_units(state, seat)))


def _inspiration_choices(state, seat, args):
    return ([(f"r{u['uid']}", f"ready {unit_name(u['id'])}") for u in units_of(state, seat) if not u["ready"]] +
            [(f"h{u['uid']}", f"heal {unit_name(u['id'])}") for u in units_of(state, seat) if u.get("wounded")])


def _inspiration_do(state, seat, args, choice, events):
    for u in units_of(state, seat):
        if str(u["uid"]) == choice[1:]:
            if choice[0] == "r":
                u["ready"] = True
            else:
                heal_unit_wound(u)


def _motivation(colour):
    def do(state, seat, args, choice, events):
        draw(state, seat, 2, events)
        fames = [s["fame"] for s in state["seats"]]
        mine = fames[seat]
        if fames.count(mine) == 1 and mine == min(fames) and len(fames) > 1:  # "if you alone have the least Fame"
            state["turn"]["tokens"].append(colour)
    return Special(lambda a: "draw 2 cards", lambda st, se, a, ctx: bool(st["seats"][se]["deck"]), do)


SKILL_SPECIALS = {
    "arythea_dark_paths": _by_time("move", 1, 2),
    "arythea_dark_negotiation": _by_time("influence", 2, 3),
    "tovak_double_time": _by_time("move", 2, 1),
    "tovak_night_sharpshooting": _by_time("ranged", 1, 2),
    "norowas_day_sharpshooting": _by_time("ranged", 2, 1),
    "norowas_bright_negotiation": _by_time("influence", 3, 2),
    "arythea_dark_fire_magic": Special(lambda a: "a red crystal and a red or black token", always, _dark_fire_do,
                                       lambda st, se, a: [("red", "red token"), ("black", "black token")]),
    "arythea_invocation": Special(lambda a: "discard a card for a mana token",
                                  lambda st, se, a, ctx: bool(st["seats"][se]["hand"]), _invocation_do,
                                  _invocation_choices),
    "tovak_i_feel_no_pain": Special(lambda a: "discard a Wound and draw a card",
                                    lambda st, se, a, ctx: not in_combat(st) and wounds_in_hand(st["seats"][se]) > 0,
                                    _no_pain_do),
    "goldyx_glittering_fortune": Special(lambda a: "Influence 1 per crystal colour",
                                         lambda st, se, a, ctx: atom_usable(st, se, ["atom", "influence", 1], ctx)
                                         and any(v > 0 for v in st["seats"][se]["crystals"].values()), _glitter_do),
    "norowas_forward_march": Special(lambda a: "Move 1 per ready Unit (max 3)",
                                     lambda st, se, a, ctx: _ready_units(st, se) > 0 and atom_usable(
                                         st, se, ["atom", "move", 1], ctx), _forward_march_do),
    "norowas_inspiration": Special(lambda a: "ready or heal a Unit",
                                   lambda st, se, a, ctx: not in_combat(st) and bool(_inspiration_choices(st, se, a)),
                                   _inspiration_do, _inspiration_choices),
    "arythea_motivation": _motivation("red"),
    "tovak_motivation": _motivation("blue"),
    "goldyx_motivation": _motivation("green"),
    "norowas_motivation": _motivation("white"),
}

register(SKILL_SPECIALS)
