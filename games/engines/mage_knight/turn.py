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
inside an effect ("Attack 2 or Block 2") are a further pick (effect_options). In combat the
seat sees combat.py's picks plus the card and unit plays the phase allows (combat.allowed).

Option ids: "t-..." (this module), "fx:..." (an effect choice, cards.py), "i-..." (a purchase,
interaction.py), "c-..." (combat.py).
"""

from __future__ import annotations

from ..base import Event, Option
from . import cards, combat, endturn, hexmap, interaction, mana, movement, resolver, site_actions, tactic_turn
from . import sites as site_facts
from .banners import courage_units, fear_units, glory_bonus, use_courage, use_fear
from .card_text import describe, EffectError, parse, WOUND
from .hero import take_from_offer, wounds_in_hand
from .pool import add_pool, ambush_bonus, empty_pool
from .specials_actions import talent_castable
from .specials_combat import AGILITY_RATE, agility_convert, diplomacy_convert, grail_unit_heal
from .specials_movement import may_move, wings_night_target
from .unit_rules import banner_of, heal_unit_wound, unit_abilities, unit_level, unit_name, unit_wounds

SIDEWAYS = ("move", "influence", "attack", "block")


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
            modes = card_modes(state, seat, card)
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
        opts += _play_options(state, seat) + _unit_options(state, seat) + _skill_options(state, seat)
        opts += conversion_options(state, seat)
        opts += wings_options(state, seat)
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
    out += _play_options(state, seat)
    if not turn["acted"]:
        pos = s["pos"]
        for n in movement.move_targets(state, seat):
            out.append(Option(f"t-move:{n}", f"move to {n} ({movement.move_cost(state, n)})"))
        if turn["pool"]["move"] >= hexmap.EXPLORE_COST:
            far = {"far": True} if turn.get("bending") else {}  # Space Bending: "2 away count as adjacent"
            for c in hexmap.explore_options(m, pos, **far):
                out.append(Option(f"t-explore:{c}", f"explore at {c} (2)"))
    out += lake_options(state, seat)
    if interaction.can_interact(state, seat):
        out.append(Option("t-interact", "interact"))
    out += learning_options(state, seat)
    if not turn["acted"]:
        site = site_actions.enterable_site(state, seat)
        if site:
            out.append(Option("t-enter", f"enter the {site_facts.site(site)['name']}"))
        for h in hexmap.adjacent_rampaging(m, s["pos"]) if s["pos"] else []:
            out.append(Option(f"t-challenge:{h}", f"challenge the enemies at {h}"))
        if site_actions.can_burn(state, seat):
            out.append(Option("t-burn", "burn the monastery"))
    out += _unit_options(state, seat) + _skill_options(state, seat)
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


def _play_options(state, seat: int) -> list[Option]:
    hand = state["seats"][seat]["hand"]
    # Any non-wound card can go sideways when some sideways use is open: no need to price every mode then.
    sideways = any(sideways_ok(state, stat) for stat in SIDEWAYS)
    out = [Option(f"t-play:{c}", f"play {cards.name(c)}") for c in dict.fromkeys(hand)
           if c != WOUND and (sideways or card_modes(state, seat, c))]
    turn = state["turn"]
    if turn.get("talent"):
        out += [Option(f"t-talent:{sp}", f"cast {cards.name(sp)} from the Spell offer (Magic Talent)")
                for sp in talent_castable(state, seat, turn["talent"])]
    return out


def conversion_options(state, seat: int) -> list[Option]:
    """Combat picks of played cards: Agility's Move into Attack, Diplomacy's Influence into Block, Banner of Fear's
    Unit cancelling an attack."""
    turn = state["turn"]
    pool = turn["pool"]
    out = []
    for kind in resolver.agility_kinds(state):
        rate = AGILITY_RATE[kind]
        word = "Attack" if kind == "melee" else "Ranged Attack"
        if pool["move"] >= rate:
            out.append(Option(f"t-agility:{kind}:1", f"spend {rate} Move for {word} 1 (Agility)"))
        if pool["move"] >= 2 * rate:
            n = pool["move"] // rate
            out.append(Option(f"t-agility:{kind}:all", f"spend {n * rate} Move for {word} {n} (Agility)"))
    if resolver.diplomacy_open(state) and pool["influence"] >= 1:
        elem = turn["diplomacy"]
        word = "Block" if elem == "physical" else f"{elem.title()} Block"
        out.append(Option("t-diplomacy:1", f"spend Influence 1 for {word} 1 (Diplomacy)"))
        if pool["influence"] >= 2:
            out.append(Option("t-diplomacy:all", f"spend Influence {pool['influence']} for {word} "
                                                 f"{pool['influence']} (Diplomacy)"))
    for u in fear_units(state, seat):
        out.append(Option(f"t-fear:{u['uid']}", f"spend {unit_name(u['id'])} (Banner of Fear): cancel one "
                                                f"enemy attack, Fame +1"))
    return out


def learning_options(state, seat: int) -> list[Option]:
    """Learning: the once-a-turn purchase of an Advanced Action from the offer, paid from the Influence pool."""
    turn = state["turn"]
    learning = turn.get("learning")
    if not learning or turn.get("learned") or state.get("combat") is not None:
        return []
    cost, to_hand = learning
    if turn["pool"]["influence"] < cost:
        return []
    offer = [c for c in dict.fromkeys(state["offers"].get("advanced", [])) if c in cards.CARDS]
    where = "hand" if to_hand else "discard pile"
    return [Option(f"t-learn:{c}", f"learn {cards.name(c)} for Influence {cost} (Learning, into your {where})")
            for c in offer]


def learn(state, seat: int, card_id: str, events: list) -> None:
    turn = state["turn"]
    cost, to_hand = turn.pop("learning")
    turn["learned"] = True
    turn["pool"]["influence"] -= cost
    take_from_offer(state, "advanced", card_id)
    state["seats"][seat]["hand" if to_hand else "discard"].append(card_id)
    events.append(Event(f"Seat {seat + 1} learns {cards.name(card_id)} (Learning).", None,
                        {"seat": seat, "card": card_id}))


def lake_options(state, seat: int) -> list[Option]:
    """Song of Wind powered: "may pay a blue mana to cross lakes at cost 0 this turn" -- offered while moving is
    open, once, with a lake next to the hero (two away too under Space Bending)."""
    turn = state["turn"]
    if not turn.get("lake_mana") or turn.get("lakes_paid") or not may_move(state, seat):
        return []
    pos = state["seats"][seat]["pos"]
    hexes = state["map"]["hexes"]
    near = hexmap.neighbours(pos) + (hexmap.ring2(pos) if turn.get("bending") else [])
    if not any(hexes.get(k, {}).get("terrain") == "lake" for k in near):
        return []
    return [Option(f"t-lakes:{src}", f"pay {mana.label(state, src)}: lakes cost 0 this turn (Song of Wind)")
            for src in mana.sources_for(state, seat, "blue")]


def pay_lakes(state, seat: int, src: str, events: list) -> None:
    turn = state["turn"]
    mana.pay(state, seat, src)
    turn["lakes_paid"] = True
    turn.setdefault("terrain", []).append(["set", "lake", 0])
    events.append(Event(f"Seat {seat + 1} pays a blue mana: lakes cost 0 this turn (Song of Wind).", None,
                        {"seat": seat}))


def wings_options(state, seat: int) -> list[Option]:
    """Wings of Night: "extra enemies cost 1, 2, 3... Move points each" -- one more enemy that does not attack, while
    the Move pool pays the next cost (Move cards may be played in combat for it)."""
    cost = resolver.wings_cost(state)
    if cost is None or state["turn"]["pool"]["move"] < cost:
        return []
    return [Option(f"t-wings:{i}", f"Wings of Night: {lab} does not attack (Move {cost})")
            for i, lab in resolver.wings_targets(state)]


def wings_more(state, seat: int, index: int, events: list) -> None:
    turn = state["turn"]
    turn["pool"]["move"] -= turn["wings_night"]
    turn["wings_night"] += 1
    wings_night_target(state, seat, index, events)


def sideways_ok(state, stat: str) -> bool:
    turn = state["turn"]
    if stat == "move" and state.get("combat") is not None:
        return "sideways" in resolver.combat_allowed(state) and resolver.wings_cost(state) is not None
    if state.get("combat") is None:
        if stat == "move":
            return not turn["acted"]
        if stat == "influence":
            return not turn["acted"] or turn.get("action") == "interact"
        return False
    allowed = resolver.combat_allowed(state)
    if "sideways" not in allowed:
        return False
    return (stat == "attack" and "melee" in allowed) or (stat == "block" and "block" in allowed)


def card_modes(state, seat: int, card_id: str) -> list[tuple[str, str]]:
    """The ways to play a card now: (option id, label)."""
    card = cards.CARDS[card_id]
    if card.kind == WOUND:
        return []  # "Wound Cards: Cannot be played unless explicitly stated"
    ctx = resolver.make_ctx(state, seat, exclude=card_id)
    out: list[tuple[str, str]] = []
    basic_ok = resolver.usable(state, seat, card.basic, ctx)
    power_ok = resolver.usable(state, seat, card.powered, ctx)
    if card.kind in cards.ACTION_KINDS:
        if basic_ok:
            out.append(("t-basic", f"basic: {describe(card.basic)}"))
        if power_ok:
            boost = state["turn"].get("boost", 0)
            if boost:
                out.append(("t-pw", f"powered for free: {describe(card.powered)} (+{boost} on one Move, "
                                    f"Influence, Attack or Block)"))
            else:
                for combo in mana.payments(state, seat, [card.colour]):
                    if resolver.usable_after_paying(state, seat, card.powered, combo, ctx):
                        out.append(("t-pw:" + "/".join(combo), f"powered: {describe(card.powered)}, paying "
                                                               f"with {mana.labels(state, combo)}"))
    elif card.kind == "spell":
        # "Spell Cards: Powered by one corresponding Mana for their basic effect. At night, they can be
        # powered with Mana and one Black Mana for a stronger effect."
        if basic_ok:
            for combo in mana.payments(state, seat, [card.colour]):
                if resolver.usable_after_paying(state, seat, card.basic, combo, ctx):
                    out.append(("t-basic:" + "/".join(combo),
                                f"{describe(card.basic)}, paying with {mana.labels(state, combo)}"))
        if power_ok and (state["time"] == "night" or state["turn"].get("amulet") == "dark"):  # Amulet of Darkness
            for combo in mana.payments(state, seat, [card.colour, "black"]):
                if resolver.usable_after_paying(state, seat, card.powered, combo, ctx):
                    out.append(("t-pw:" + "/".join(combo), f"powered: {describe(card.powered)}, paying "
                                                           f"with {mana.labels(state, combo)}"))
    elif card.kind == "artifact":
        if basic_ok:
            out.append(("t-basic", f"basic: {describe(card.basic)}"))
        if power_ok:
            out.append(("t-pw", f"throw away: {describe(card.powered)}"))
    for stat in SIDEWAYS:  # "Any Non-Wound Card: Can be played sideways for 1 Move, Influence, Attack, or Block"
        if sideways_ok(state, stat):
            out.append((f"t-side:{stat}", f"sideways as {stat.title()} 1"))
    return out


def _unit_options(state, seat: int) -> list[Option]:
    if state.get("combat") is not None and not combat.units_allowed(state):
        return []
    out = []
    for u in state["seats"][seat]["units"]:
        if not u["ready"] or u.get("wounded"):
            continue
        for i, (tree, colour) in enumerate(unit_abilities(u["id"])):
            if tree is None or not resolver.usable(state, seat, tree):
                continue
            if colour and not mana.sources_for(state, seat, colour):
                continue
            label = f"use {unit_name(u['id'])}: {describe(tree)}"
            if colour:
                label += f" (paying {mana.label(state, mana.sources_for(state, seat, colour)[0])})"
            out.append(Option(f"t-unit:{u['uid']}:{i}", label))
    return out


_SKILLS: dict[str, dict] = {}


def skill_rows() -> dict[str, dict]:
    """skills.csv (mkcore's file) read once: id -> row with the parsed effect (None if not implemented)."""
    if not _SKILLS:
        import csv
        import os
        with open(os.path.join(os.path.dirname(__file__), "skills.csv"), newline="") as f:
            for row in csv.DictReader(f):
                try:
                    row["tree"] = parse(row["effect"])
                except EffectError:
                    row["tree"] = None
                _SKILLS[row["id"]] = row
    return _SKILLS


def _skill_options(state, seat: int) -> list[Option]:
    """A learned skill, once a turn or once a round as its token says, when its effect is of use now."""
    s = state["seats"][seat]
    turn = state["turn"]
    fighting = state.get("combat") is not None
    out = []
    for sk in s.get("skills", []):
        row = skill_rows().get(sk)
        if not row or row["tree"] is None or row["usage"] == "passive":
            continue
        if sk in (turn.get("skills_used", []) if row["usage"] == "once_per_turn" else s.get("skills_used", [])):
            continue
        if (row["phase"] == "no_combat" and fighting) or (row["phase"] == "combat_only" and not fighting):
            continue
        if resolver.usable(state, seat, row["tree"]):
            out.append(Option(f"t-skill:{sk}", f"use {row['name']}: {row['summary']}"))
    return out


def use_skill(state, seat: int, sk: str, events: list) -> None:
    row = skill_rows()[sk]
    state["turn"]["from_card"] = False
    if row["usage"] == "once_per_turn":
        state["turn"].setdefault("skills_used", []).append(sk)
    else:
        state["seats"][seat].setdefault("skills_used", []).append(sk)
    events.append(Event(f"Seat {seat + 1} uses {row['name']}.", None, {"seat": seat, "skill": sk}))
    resolver.start(state, seat, row["tree"], events)


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
        learn(state, seat, arg, events)
    elif verb in ("basic", "pw", "side"):
        play_card(state, seat, turn["pending"]["card"], verb, arg, events)
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
        use_unit(state, seat, arg, events)
    elif verb == "skill":
        use_skill(state, seat, arg, events)
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
        pay_lakes(state, seat, arg, events)
    elif verb == "wings":
        wings_more(state, seat, int(arg), events)
    elif verb == "healunit":
        heal_unit(state, seat, int(arg), events)
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


# ---------------------------------------------------------------- playing cards

def play_card(state, seat: int, card_id: str, verb: str, arg: str, events: list) -> None:
    turn = state["turn"]
    s = state["seats"][seat]
    card = cards.CARDS[card_id]
    talent = bool((turn.get("pending") or {}).get("talent"))
    turn["pending"] = None
    turn["from_card"] = True
    if talent:  # Magic Talent: "That card remains in the Spells offer"
        turn.pop("talent", None)
        for src in (arg.split("/") if arg else []):
            mana.pay(state, seat, src)
        tree = card.powered if verb == "pw" else card.basic
        turn.setdefault("played", []).append([card_id, "offer"])
        events.append(Event(f"Seat {seat + 1} casts {card.name} from the Spell offer (Magic Talent).", None,
                            {"seat": seat, "card": card_id, "mode": "offer"}))
        resolver.start(state, seat, tree, events)
        return
    s["hand"].remove(card_id)
    if verb == "side":
        s["play_area"].append(card_id)
        add_pool(turn, arg, 1 + (ambush_bonus(turn, arg) if arg in ("attack", "block") else 0))
        events.append(Event(f"Seat {seat + 1} plays {card.name} sideways for {arg.title()} 1.", None,
                            {"seat": seat, "card": card_id, "mode": "sideways"}))
        return
    for src in (arg.split("/") if arg else []):
        mana.pay(state, seat, src)
    powered = verb == "pw"
    tree = card.powered if powered else card.basic
    if powered and card.kind in cards.ACTION_KINDS and not arg and turn.get("boost"):
        turn["bonus"] = turn["boost"]  # added once, to the first Move/Influence/Attack/Block (add_pool)
        turn["boost"] = 0
    if powered and card.kind == "artifact":
        s["removed"].append(card_id)  # "thrown away (removed from the game) for a stronger effect"
    else:
        s["play_area"].append(card_id)
    how = ("thrown away" if card.kind == "artifact" else "powered") if powered else "basic"
    turn.setdefault("played", []).append([card_id, how])
    events.append(Event(f"Seat {seat + 1} plays {card.name} ({how}).", None,
                        {"seat": seat, "card": card_id, "mode": how}))
    resolver.start(state, seat, tree, events)


def use_unit(state, seat: int, arg: str, events: list) -> None:
    uid, index = (int(x) for x in arg.split(":"))
    unit = next(u for u in state["seats"][seat]["units"] if u["uid"] == uid)
    tree, colour = unit_abilities(unit["id"])[index]
    if colour:
        mana.pay(state, seat, mana.sources_for(state, seat, colour)[0])
    unit["ready"] = False
    state["turn"]["unit_uid"] = uid
    state["turn"]["from_card"] = False
    bonus = glory_bonus(state, seat, unit)
    if state.get("combat") is not None:
        bonus += state["turn"].get("heat", 0)  # Into the Heat: "+2 Attack and +2 Block this combat"
    if bonus:  # Banner of Glory: +1 to the Unit's attacks and blocks, Fame +1 when it attacks or blocks
        state["turn"]["unit_bonus"] = {"n": bonus, "uid": uid, "attached": banner_of(unit) == "banner_of_glory"}
    events.append(Event(f"Seat {seat + 1} uses {unit_name(unit['id'])}.", None, {"seat": seat, "unit": uid}))
    resolver.start(state, seat, tree, events)


def heal_unit(state, seat: int, uid: int, events: list) -> None:
    unit = next(u for u in state["seats"][seat]["units"] if u["uid"] == uid)
    # "Healing a Unit costs Healing points equal to its level", once per wound: a poisoned Unit twice.
    state["turn"]["pool"]["heal"] -= unit_level(unit["id"])
    heal_unit_wound(unit)
    grail_unit_heal(state, seat, unit_level(unit["id"]), events)  # Golden Grail's Fame per point
    events.append(Event(f"Seat {seat + 1} heals {unit_name(unit['id'])}.", None, {"seat": seat}))


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
