"""A player's turn as picks (rules: "Your Turn: Actions and Rest", "Playing Cards", "Movement").

engine.py calls:
    start(state, seat, events)                 open the turn (state["turn"])
    options(state, seat) -> (text, [Option])   what the seat may pick now
    apply(state, seat, option_id, events)      apply a pick (engine.py checked it is among options())
    default(state, seat) -> option id          the safe pick at a deadline
The turn is over when state["turn"] is None.

First level: "play <card>", "move to <hex>", "explore", "interact", "enter <site>", "challenge",
"burn the monastery", "use <unit>", "rest", "announce the end of the round", "end turn". A card
opens a second level: how to play it (basic / powered, paying with ... / sideways as ...). Choices
inside an effect ("Attack 2 or Block 2") are a further pick (resolver.effect_options). In combat the
seat sees combat.py's picks plus the card and unit plays the phase allows (combat.allowed). This module is the
turn's flow; what may be played and playing it is plays.py's, moving and exploring movement.py's, entering a site,
challenging, burning and plundering site_actions.py's, the end of the turn endturn.py's.

Option ids: "t-..." (this module and plays.py), "fx:..." (an effect choice, resolver.py), "i-..." (a purchase,
interaction.py), "c-..." (combat.py).
"""

from __future__ import annotations

from ..base import Event, Option
from . import cards, combat, endturn, hexmap, interaction, movement, plays, resolver, site_actions, tactic_turn
from . import sites as site_facts
from .banners import courage_units, use_courage, use_fear
from .card_text import WOUND
from .hero import wounds_in_hand
from .pool import empty_pool
from .specials_combat import agility_convert, diplomacy_convert
from .unit_rules import unit_level, unit_name, unit_wounds

# ---------------------------------------------------------------- start

def new_turn(seat: int) -> dict:
    return {"seat": seat, "mode": "regular", "acted": False, "action": None, "started": False,
            "moved_from": [], "die_taken": False, "dice_used": 0, "dice_allowed": 1, "tokens": [],
            "pool": empty_pool(), "pending": None, "queue": [], "boost": 0, "rewards": [],
            "rep_applied": False, "combat_result": None}


def start(state, seat: int, events: list) -> None:
    state["turn"] = new_turn(seat)
    state["turn"]["first_pick"] = state.get("n", 0)  # picks so far in the game: bots count a turn's picks from it
    events.append(Event(f"Seat {seat + 1}'s turn begins.", None, {"seat": seat, "kind": "turn_start"}))
    _, cell = interaction.site_here(state, seat)
    if cell and cell.get("site") == "magical_glade":  # start of turn: a gold (day) / black (night) token
        state["turn"]["tokens"].append("gold" if state["time"] == "day" else "black")
    claim = state["seats"][seat].get("claimed")
    if claim and claim.get("each_turn"):  # Mana Claim: "1 token each turn for the rest of the Round"
        state["turn"]["tokens"].append(claim["colour"])


# ---------------------------------------------------------------- options

def options(state, seat: int) -> tuple[str, list[Option]]:
    turn = state["turn"]
    pending = turn.get("pending")
    if pending is not None:
        kind = pending["kind"]
        if kind in ("choose", "special"):
            return "Choose the effect", [Option(i, lab) for i, lab in resolver.effect_options(state, seat)]
        if kind == "card":
            card = pending["card"]
            modes = plays.card_modes(state, seat, card)
            if pending.get("talent"):  # Magic Talent: a Spell of the offer is cast, never played sideways
                modes = [(i, lab) for i, lab in modes if not i.startswith("t-side")]
            return (f"How do you play {cards.name(card)}?",
                    [Option(i, lab) for i, lab in modes] + [Option("t-back", "back")])
        if kind == "rest":
            return "Rest: discard", [Option(i, lab) for i, lab in rest_options(state, seat)]
        if kind == "interact":
            return ("Interact: spend Influence", [Option(i, lab) for i, lab in interaction.options(state, seat)]
                    + [Option("t-back", "done")])
        if kind == "reward":
            return "Choose your reward", [Option(i, lab) for i, lab in endturn.reward_options(state, seat)]
        if kind == "protect":
            return "End of turn: Banner of Protection", [Option(i, lab) for i, lab in
                                                        endturn.protection_options(state, seat)]
        if kind == "tempo":
            return "End of turn: Steady Tempo", [Option(i, lab) for i, lab in endturn.tempo_options(state, seat)]
        if kind in ("meditate", "search"):
            return tactic_turn.pending_options(state, seat)
    if state.get("combat") is not None:
        opts = list(combat.options(state, seat))
        opts += plays.play_options(state, seat) + plays.unit_options(state, seat) + plays.skill_options(state, seat)
        opts += plays.conversion_options(state, seat)
        opts += plays.wings_options(state, seat)
        return "Combat", opts
    return "Your turn", first_level(state, seat)


def first_level(state, seat: int) -> list[Option]:
    turn = state["turn"]
    s = state["seats"][seat]
    m = state["map"]
    out: list[Option] = []
    fresh = not turn["started"]
    if fresh and s["hand"]:
        out.append(Option("t-rest", "rest"))
    if fresh and not s["deck"] and state.get("end_announced_by") is None:
        out.append(Option("t-announce", "announce the end of the round"))
    out += tactic_turn.first_level(state, seat)
    if site_actions.can_plunder(state, seat):
        out.append(Option("t-plunder", "plunder the village (draw 2 cards, Reputation -1)"))
    out += plays.play_options(state, seat)
    if not turn["acted"]:
        pos = s["pos"]
        for n in movement.move_targets(state, seat):
            out.append(Option(f"t-move:{n}", f"move to {n} ({movement.move_cost(state, n)})"))
        if turn["pool"]["move"] >= hexmap.EXPLORE_COST:
            far = {"far": True} if turn.get("bending") else {}  # Space Bending: "2 away count as adjacent"
            for c in hexmap.explore_options(m, pos, **far):
                out.append(Option(f"t-explore:{c}", f"explore at {c} (2)"))
    out += plays.lake_options(state, seat)
    if interaction.can_interact(state, seat):
        out.append(Option("t-interact", "interact"))
    out += plays.learning_options(state, seat)
    if not turn["acted"]:
        site = site_actions.enterable_site(state, seat)
        if site:
            out.append(Option("t-enter", f"enter the {site_facts.site(site)['name']}"))
        for h in hexmap.adjacent_rampaging(m, s["pos"]) if s["pos"] else []:
            out.append(Option(f"t-challenge:{h}", f"challenge the enemies at {h}"))
        if site_actions.can_burn(state, seat):
            out.append(Option("t-burn", "burn the monastery"))
    out += plays.unit_options(state, seat) + plays.skill_options(state, seat)
    for u in courage_units(state, seat):
        out.append(Option(f"t-courage:{u['uid']}", f"flip Banner of Courage: ready {unit_name(u['id'])}"))
    for u in s["units"]:
        if u.get("wounded") and turn["pool"]["heal"] >= unit_level(u["id"]):
            more = " (one of its 2 wounds: poisoned)" if unit_wounds(u) > 1 else ""
            out.append(Option(f"t-healunit:{u['uid']}", f"heal {unit_name(u['id'])}{more}"))
    if not turn["queue"]:
        out.append(Option("t-end", "end turn"))
    if fresh and s["hand"] and all(c == WOUND for c in s["hand"]):
        # Only Wounds in hand: no card can be played, and the full rulebook says "you have to play or discard at
        # least one card during or at the end of your turn", so the turn is a Slow Recovery ("If your hand consists
        # only of Wounds, discard one Wound"). What may come "before you decide whether you are taking a Regular
        # turn or Resting" stays: the tactic's effects, plundering, skills. Why it matters: the Wound supply never
        # runs out, so a hero allowed to fight on with such a hand could gather Wounds without end, never draw
        # again, and the Round would never end.
        out = [o for o in out if o.id in ("t-rest", "t-announce", "t-plunder") or o.id.startswith(("t-tactic:",
                                                                                                   "t-skill:"))]
    return out


# ---------------------------------------------------------------- apply

def apply(state, seat: int, option_id: str, events: list) -> None:
    turn = state["turn"]
    if option_id.startswith("fx:"):
        resolver.effect_pick(state, seat, option_id, events)
    elif option_id.startswith("c-"):
        combat.apply(state, seat, option_id, events)
    elif option_id.startswith("i-"):
        interaction.apply(state, seat, option_id, events)
    else:
        _apply_turn(state, seat, option_id, events)
    if turn is not None and turn.get("curse_events"):  # Mana Curse's Wounds, taken while paying (same turn dict)
        events += [Event(text, None, data) for text, data in turn.pop("curse_events")]
    turn = state["turn"]
    if turn is not None and state.get("combat") is None and turn.get("combat_result"):
        site_actions.after_combat(state, seat, events)


def _apply_turn(state, seat: int, option_id: str, events: list) -> None:
    turn = state["turn"]
    verb, _, arg = option_id[2:].partition(":")
    if verb not in ("rest", "end", "announce", "play", "talent", "back", "interact", "plunder", "tactic"):
        turn["started"] = True  # something was done: resting is no longer an option
    if verb == "back":
        turn["pending"] = None
    elif verb == "play":
        turn["pending"] = {"kind": "card", "card": arg}
    elif verb == "talent":
        turn["pending"] = {"kind": "card", "card": arg, "talent": True}
    elif verb == "learn":
        plays.learn(state, seat, arg, events)
    elif verb in ("basic", "pw", "side"):
        plays.play_card(state, seat, turn["pending"]["card"], verb, arg, events)
    elif verb == "move":
        movement.move(state, seat, arg, events)
    elif verb == "explore":
        movement.explore(state, seat, arg, events)
    elif verb == "interact":
        turn["pending"] = {"kind": "interact"}
    elif verb == "enter":
        site_actions.enter_site(state, seat, events)
    elif verb == "challenge":
        site_actions.challenge(state, seat, arg, events)
    elif verb == "burn":
        site_actions.burn(state, seat, events)
    elif verb == "plunder":
        site_actions.plunder(state, seat, events)
    elif verb == "tactic":
        tactic_turn.apply(state, seat, arg, events)
    elif verb == "unit":
        plays.use_unit(state, seat, arg, events)
    elif verb == "skill":
        plays.use_skill(state, seat, arg, events)
    elif verb == "courage":
        use_courage(state, seat, int(arg), events)
    elif verb == "agility":
        kind, how = arg.split(":")
        agility_convert(state, seat, kind, how, events)
    elif verb == "diplomacy":
        diplomacy_convert(state, seat, arg, events)
    elif verb == "fear":
        use_fear(state, seat, int(arg), events)
    elif verb == "lakes":
        plays.pay_lakes(state, seat, arg, events)
    elif verb == "wings":
        plays.wings_more(state, seat, int(arg), events)
    elif verb == "healunit":
        plays.heal_unit(state, seat, int(arg), events)
    elif verb == "rest":
        turn["started"] = True
        turn["mode"] = "rest"
        turn["pending"] = {"kind": "rest", "step": "first"}
        events.append(Event(f"Seat {seat + 1} rests.", None, {"seat": seat}))
    elif verb in ("rd", "rw", "rdone"):
        rest_pick(state, seat, verb, arg, events)
    elif verb == "announce":
        # "a player with an empty Deed Deck announces the end of the round instead of taking a turn"
        state["end_announced_by"] = seat
        events.append(Event(f"Seat {seat + 1} announces the end of the round.", None,
                            {"seat": seat, "kind": "round_end_announced"}))
        state["turn"] = None
    elif verb == "reward":
        endturn.reward_pick(state, seat, arg, events)
    elif verb == "protect":
        endturn.protection_pick(state, seat, arg, events)
    elif verb == "tempo":
        endturn.tempo_pick(state, seat, arg, events)
    elif verb == "end":
        endturn.begin(state, seat, events)


# ---------------------------------------------------------------- rest

def rest_options(state, seat: int) -> list[tuple[str, str]]:
    """Standard Rest: "If you have at least one non-wound card in hand, discard one non-wound card and any
    number of Wounds." Slow Recovery: "If your hand consists only of Wounds, discard one Wound"."""
    s = state["seats"][seat]
    step = state["turn"]["pending"]["step"]
    non_wounds = [c for c in dict.fromkeys(s["hand"]) if c != WOUND]
    if step == "first":
        if non_wounds:
            return [(f"t-rd:{c}", f"discard {cards.name(c)}") for c in non_wounds]
        return [("t-rw:slow", "discard a Wound (slow recovery)")]
    out = [("t-rdone", "finish resting")]
    if wounds_in_hand(s):
        n = wounds_in_hand(s)
        out.insert(0, ("t-rw:all", f"discard all {n} Wounds" if n > 1 else "discard the Wound"))
        if wounds_in_hand(s) > 1:
            out.insert(1, ("t-rw:one", "discard one Wound"))
    return out


def rest_pick(state, seat: int, verb: str, arg: str, events: list) -> None:
    s = state["seats"][seat]
    turn = state["turn"]
    if verb == "rd":
        s["hand"].remove(arg)
        s["discard"].append(arg)
        events.append(Event(f"Seat {seat + 1} discards {cards.name(arg)} to rest.", None, {"seat": seat}))
        if wounds_in_hand(s):
            turn["pending"] = {"kind": "rest", "step": "wounds"}
            return
    elif verb == "rw":
        n = {"slow": 1, "one": 1, "all": wounds_in_hand(s)}[arg]
        for _ in range(n):
            s["hand"].remove(WOUND)
            s["discard"].append(WOUND)
        events.append(Event(f"Seat {seat + 1} discards {n} Wound{'s' if n > 1 else ''} to rest.", None,
                            {"seat": seat}))
        if arg == "one" and wounds_in_hand(s):
            return
    turn["pending"] = None
    endturn.begin(state, seat, events)


# ---------------------------------------------------------------- default

def default(state, seat: int) -> str:
    """Rest at the start of a turn (if possible), else end it safely."""
    turn = state["turn"]
    pending = turn.get("pending")
    text, opts = options(state, seat)
    ids = [o.id for o in opts]
    if pending is not None:
        if "t-back" in ids:
            return "t-back"
        if "t-rdone" in ids:
            return "t-rdone"
        return ids[0]
    if state.get("combat") is not None:
        return combat.default_option(state)
    if "t-rest" in ids:
        return "t-rest"
    if "t-end" in ids:
        return "t-end"
    return ids[0]
