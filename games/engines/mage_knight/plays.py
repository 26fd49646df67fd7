"""What a seat may play during its turn, and playing it: a card (basic, powered with each way to pay, sideways), a
Unit's ability, a skill; and the picks the played cards open for the rest of the turn (Agility's and Diplomacy's
conversions, Banner of Fear, Wings of Night's further enemies, Song of Wind's lakes, Learning's purchase, Magic
Talent's Spell), healing a Unit from the Heal pool.

turn.py puts these options into the seat's prompt and hands their picks here; the effects themselves resolve in
resolver.py (``resolver.start``).
"""

from __future__ import annotations

import csv
import os

from ..base import Event, Option
from . import cards, combat, hexgrid, mana, resolver
from .banners import fear_units, glory_bonus
from .card_text import describe, EffectError, parse, WOUND
from .hero import take_from_offer
from .pool import add_pool, ambush_bonus
from .specials_actions import talent_castable
from .specials_combat import AGILITY_RATE, grail_unit_heal
from .specials_movement import may_move, wings_night_target
from .unit_rules import banner_of, heal_unit_wound, unit_abilities, unit_level, unit_name

SIDEWAYS = ("move", "influence", "attack", "block")


# ---------------------------------------------------------------- what may be played now

def play_options(state, seat: int) -> list[Option]:
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
    near = hexgrid.neighbours(pos) + (hexgrid.ring2(pos) if turn.get("bending") else [])
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


def unit_options(state, seat: int) -> list[Option]:
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
        with open(os.path.join(os.path.dirname(__file__), "skills.csv"), newline="") as f:
            for row in csv.DictReader(f):
                try:
                    row["tree"] = parse(row["effect"])
                except EffectError:
                    row["tree"] = None
                _SKILLS[row["id"]] = row
    return _SKILLS


def skill_options(state, seat: int) -> list[Option]:
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
