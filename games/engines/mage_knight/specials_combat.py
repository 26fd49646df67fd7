"""Special effects in combat: Unit abilities on enemies (enemy_effects.TARGET_EFFECTS / ALL_EFFECTS, ENEMY_SPECIALS),
Ambush, the combat cards (Into the Heat, Agility, Diplomacy, Flame Wave, Sword of Justice, Horn of Wrath, Golden
Grail) and the turn's lasting combat effects for the view.
"""

from __future__ import annotations

from ..base import Event
from . import combat, enemy_effects, mana
from . import enemies as enemy_data
from .cards import CARDS, name
from .card_text import COMBAT, plural
from .hero import heal, hero_name, take_wounds, wounds_in_hand
from .pool import add_pool
from .resolver import atom_usable, combat_allowed, in_combat
from .specials_registry import register, Special
from .unit_rules import unit_abilities, units_of


def _ambush(state, seat, args, choice, events):
    state["turn"]["ambush"] = [args[0], args[1]]


# Unit abilities that act on one enemy (enemy_effects.TARGET_EFFECTS) or on all the seat's units for the combat.

def _target_usable(effect):
    def ok(state, seat, args, ctx):
        return in_combat(state) and bool(enemy_effects.enemy_targets(state, effect))
    return ok


def _target_choices(effect):
    def choices(state, seat, args):
        return [(str(i), lab) for i, lab in enemy_effects.enemy_targets(state, effect)]
    return choices


def _target_do(effect):
    def do(state, seat, args, choice, events):
        enemy_effects.target_enemy(state, effect, int(choice), events)
    return do


def _all_usable(effect):
    def ok(state, seat, args, ctx):
        return in_combat(state) and enemy_effects.all_enemies_of_use(state, effect)
    return ok


def _all_do(effect):
    def do(state, seat, args, choice, events):
        enemy_effects.affect_all_enemies(state, effect, events)
    return do


def _target_special(effect, label):
    return Special(lambda a: label, _target_usable(effect), _target_do(effect), _target_choices(effect))


def _all_special(effect, label):
    return Special(lambda a: label, _all_usable(effect), _all_do(effect))


def _rider(name, label):
    """A block card's effect that acts on the enemy its block stops (combat.add_block_rider); never a use by
    itself: the card's Block is."""
    def do(state, seat, args, choice, events):
        combat.add_block_rider(state, name)
    return Special(lambda a: label, lambda *a: False, do)


def _swift_block_do(state, seat, args, choice, events):
    bonus = (state["turn"].get("unit_bonus") or {}).get("n", 0)  # Glory / Into the Heat raised the Block: it counts too
    combat.add_swift_block(state, args[0] + bonus)


ENEMY_SPECIALS = {
    "tremor_one": _target_special("tremor_one", "one enemy gets Armor -3 (at least 1) this combat"),
    "tremor_all": _all_special("tremor_all", "all enemies get Armor -2 (at least 1) this combat"),
    "earthquake_one": _target_special("earthquake_one", "one enemy gets Armor -3, or -6 if it is fortified "
                                                        "(at least 1), this combat"),
    "earthquake_all": _all_special("earthquake_all", "all enemies get Armor -2, or -4 if fortified (at least 1), "
                                                     "this combat"),
    "chill": _target_special("chill", "one enemy without ice resistance does not attack this combat and loses "
                                      "its fire resistance"),
    "lethal_chill": _target_special("lethal_chill", "one enemy without ice resistance does not attack this combat "
                                                    "and gets Armor -4 (at least 1)"),
    "whirlwind": _target_special("whirlwind", "one enemy does not attack this combat"),
    "tornado": _target_special("tornado", "in the Attack phase, destroy one enemy"),
    "expose": _target_special("expose", "one enemy loses its fortification and resistances this combat"),
    "mass_expose_fortifications": _all_special("mass_expose_fortifications",
                                               "all enemies lose their fortifications this combat"),
    "mass_expose_resistances": _all_special("mass_expose_resistances",
                                            "all enemies lose their resistances this combat"),
    "demolish": _all_special("demolish", "ignore site fortifications this turn; all enemies without fire "
                                         "resistance get Armor -1 (at least 1) this combat"),
    "disintegrate": _target_special("disintegrate", "in the Attack phase, destroy one enemy without fire "
                                                    "resistance"),
    "disintegrate_others": _all_special("disintegrate_others", "the other enemies without fire resistance get "
                                                               "Armor -1 (at least 1) this combat"),
    "ice_shield": _rider("ice_shield", "the enemy it blocks gets Armor -3 (at least 1) unless ice resistant"),
    "cold_toughness": _rider("cold_toughness", "+1 Ice Block per ability, attack colour and resistance of the "
                                               "blocked enemy"),
    "burning_shield": _rider("burning_shield", "Fire Attack 4 in the Attack phase if the block succeeds"),
    "exploding_shield": _rider("exploding_shield", "the blocked enemy is destroyed if the block succeeds "
                                                   "(unless fire resistant)"),
    "swift_block": Special(lambda a: "this Block counts twice against Swift enemies", lambda *a: False,
                           _swift_block_do),
}


def _resist_all_usable(state, seat, args, ctx):
    """Altem Guardians: "all your Units gain all resistances" for this combat; of use before damage is dealt."""
    c = state.get("combat")
    return bool(c) and c["phase"] in ("ranged", "block", "damage") and not state["turn"].get("units_resist_all")


def _resist_all_do(state, seat, args, choice, events):
    state["turn"]["units_resist_all"] = True
    events.append(Event(f"{hero_name(state, seat)}'s Units gain all resistances this combat.", None, {"seat": seat}))


def _attack_modifier_usable(state, seat, args, ctx):
    """Altem Mages (black mana): "this combat all your attacks become Cold Fire, or all become Siege"."""
    return in_combat(state) and not state["turn"].get("attack_modifier")


def _attack_modifier_do(state, seat, args, choice, events):
    turn = state["turn"]
    turn["attack_modifier"] = choice
    attack = turn["pool"]["attack"]
    held = [(kind, elem, n) for kind in ("melee", "ranged", "siege") for elem, n in attack[kind].items() if n]
    for kind in ("melee", "ranged", "siege"):
        attack[kind] = {}
    live = {k: turn.pop(k) for k in ("bonus", "unit_bonus") if k in turn}  # no bonus for points already counted
    for kind, elem, n in held:  # the attacks already in the pool change too
        add_pool(turn, {"melee": "attack"}.get(kind, kind), n, elem)
    turn.update(live)
    events.append(Event(f"{hero_name(state, seat)}'s attacks become " +
                        ("cold fire" if choice == "cold_fire" else "siege attacks") + " this combat.", None,
                        {"seat": seat}))


# ---------------------------------------------------------------- combat cards (second batch)

def _fighting_units(state, seat):
    """Own Units that could still attack or block this combat (ready, unwounded, units allowed here)."""
    if not in_combat(state) or not combat.units_allowed(state):
        return []
    out = []
    for u in units_of(state, seat):
        if u["ready"] and not u.get("wounded") and any(
                tree is not None and _has_combat_atom(tree) for tree, _ in unit_abilities(u["id"])):
            out.append(u)
    return out


def _has_combat_atom(tree) -> bool:
    if tree[0] == "atom":
        return tree[1] in COMBAT
    return any(_has_combat_atom(t) for t in tree[1])


# Into the Heat: "at start of combat: all your Units get +2 Attack and +2 Block this combat; no damage may be assigned
# to Units this turn" (powered +3). turn["heat"] (this combat; combat.py clears it) is added to every Attack/Block atom
# of an own Unit's ability (turn.use_unit); turn["no_unit_damage"] (this turn) keeps damage off the Units.
def _heat_usable(state, seat, args, ctx):
    c = state.get("combat")
    return bool(c) and c["phase"] == "ranged" and not state["turn"].get("heat") and bool(_fighting_units(state, seat))


def _heat_do(state, seat, args, choice, events):
    turn = state["turn"]
    turn["heat"] = args[0]
    turn["no_unit_damage"] = True
    events.append(Event(f"{hero_name(state, seat)}'s Units get +{args[0]} to their attacks and blocks this combat; "
                        f"no damage may be assigned to Units this turn (Into the Heat).", None, {"seat": seat}))


# Agility: "Move 2; in combat this turn leftover Move may be spent as Attack 1:1" (powered: "Move 4; ... as Attack 1:1
# or as Ranged Attack 2:1"). turn["agility"] = 1 (Attack) or 2 (also Ranged); turn.py offers the conversions
# (t-agility:melee|ranged:1|all) and, while a conversion is open, Move cards are of use in combat.
AGILITY_RATE = {"melee": 1, "ranged": 2}


def _agility_usable(state, seat, args, ctx):
    if not in_combat(state):
        return not state["turn"].get("acted")
    allowed = ctx["allowed"]
    return "melee" in allowed or (bool(args[1]) and "ranged" in allowed)


def _agility_do(state, seat, args, choice, events):
    turn = state["turn"]
    add_pool(turn, "move", args[0])
    turn["agility"] = max(turn.get("agility", 0), 2 if args[1] else 1)


def agility_convert(state, seat, kind: str, how: str, events) -> None:
    turn = state["turn"]
    rate = AGILITY_RATE[kind]
    n = 1 if how == "1" else turn["pool"]["move"] // rate
    turn["pool"]["move"] -= n * rate
    add_pool(turn, "attack" if kind == "melee" else "ranged", n)
    events.append(Event(f"{hero_name(state, seat)} spends {n * rate} Move for "
                        f"{'Attack' if kind == 'melee' else 'Ranged Attack'} {n} (Agility).", None, {"seat": seat}))


# Diplomacy: "Influence 2; Influence may be used as Block this turn" (powered: "Influence 4; choose Ice or Fire:
# Influence may be used as Block of that element this turn"). turn["diplomacy"] = the Block's element; turn.py offers
# t-diplomacy:1|all in the block phase, and Influence cards are of use then.


def _diplomacy_usable(state, seat, args, ctx):
    if not in_combat(state):
        turn = state["turn"]
        return not turn.get("acted") or turn.get("action") == "interact"
    return "block" in ctx["allowed"]


def _diplomacy_choices(state, seat, args):
    if not args[1]:
        return None
    order = ["ice", "fire"]
    c = state.get("combat")
    if c:  # the element that blocks more of the attacks still coming first: Ice against fire, Fire against ice
        attacks = [enemy_data.enemy(e["id"]).element for e in c["enemies"]
                   if not e["defeated"] and not e["gone"] and not e["blocked"] and not e.get("skip")]
        if attacks.count("ice") > attacks.count("fire"):
            order.reverse()
    return [(e, f"Influence may be spent as {e.title()} Block this turn") for e in order]


def _diplomacy_do(state, seat, args, choice, events):
    turn = state["turn"]
    add_pool(turn, "influence", args[0])
    if choice or not turn.get("diplomacy"):
        turn["diplomacy"] = choice or "physical"


def diplomacy_convert(state, seat, how: str, events) -> None:
    turn = state["turn"]
    n = 1 if how == "1" else turn["pool"]["influence"]
    elem = turn["diplomacy"]
    turn["pool"]["influence"] -= n
    add_pool(turn, "block", n, elem)
    events.append(Event(f"{hero_name(state, seat)} spends Influence {n} as Block {n}"
                        f"{'' if elem == 'physical' else ' (' + elem + ')'} (Diplomacy).", None, {"seat": seat}))


# Flame Wall powered (Flame Wave): "Fire Attack 5 or Fire Block 7, +2 per enemy token faced": the tokens of the combat
# still in play (summoned ones included while they stand).
def enemies_faced(state) -> int:
    c = state.get("combat")
    return sum(1 for e in c["enemies"] if not e["defeated"] and not e["gone"]) if c else 0


def _wave_choices(state, seat, args):
    allowed = combat_allowed(state)
    bonus = args[2] * enemies_faced(state)
    out = []
    if "melee" in allowed:
        out.append(("attack", f"Attack {args[0] + bonus} (fire)"))
    if "block" in allowed:
        out.append(("block", f"Block {args[1] + bonus} (fire)"))
    return out


def _wave_do(state, seat, args, choice, events):
    bonus = args[2] * enemies_faced(state)
    add_pool(state["turn"], choice, (args[0] if choice == "attack" else args[1]) + bonus, "fire")


# Sword of Justice: basic "discard any number of cards: Attack 3 each; Fame +1 per enemy defeated this turn"; powered
# "physical attacks in your Attack phase count double; enemies lose physical resistance this turn; Fame +1 per enemy
# defeated". The cards are those of a colour (MKD attacks_by_color: not Wounds, not colourless Artifacts), one pick
# each, "done" first (the safe default). The Fame: +1 for each enemy already defeated this turn, then at each defeat
# (combat.defeat reads turn["sword_fame"]).
def _sword_fame(state, seat, events):
    turn = state["turn"]
    if turn.get("sword_fame"):
        return
    turn["sword_fame"] = True
    n = turn.get("defeats", 0)
    if n:
        state["seats"][seat]["fame"] += n
        events.append(Event(f"{hero_name(state, seat)} gains {n} Fame (Sword of Justice).", None,
                            {"seat": seat, "fame": n}))


def _sword_do(state, seat, args, choice, events):
    _sword_fame(state, seat, events)
    state["turn"]["queue"].insert(0, ["atom", "special", "sword_discard", args[0]])


def _sword_discard_choices(state, seat, args):
    return [("done", "discard no more cards")] + [
        (c, f"discard {name(c)}: Attack {args[0]}") for c in dict.fromkeys(state["seats"][seat]["hand"])
        if c in CARDS and CARDS[c].colour]


def _sword_discard_do(state, seat, args, choice, events):
    if choice in (None, "done"):
        return
    s = state["seats"][seat]
    s["hand"].remove(choice)
    s["discard"].append(choice)
    events.append(Event(f"{hero_name(state, seat)} discards {name(choice)} (Sword of Justice).", None, {"seat": seat}))
    add_pool(state["turn"], "attack", args[0])
    state["turn"]["queue"].insert(0, ["atom", "special", "sword_discard", args[0]])


def _sword_powered_usable(state, seat, args, ctx):
    c = state.get("combat")
    return bool(c) and c["phase"] in ("ranged", "block", "attack") and not state["turn"].get("sword_double")


def _sword_powered_do(state, seat, args, choice, events):
    state["turn"]["sword_double"] = True
    events.append(Event(f"{hero_name(state, seat)}'s physical attacks count double in the Attack phase this turn "
                        f"(Sword of Justice).", None, {"seat": seat}))
    enemy_effects.affect_all_enemies(state, "sword_physical", events)
    _sword_fame(state, seat, events)


# Horn of Wrath: basic "Siege Attack 5, roll a mana die: take a Wound for each red or black"; powered "Siege Attack 5,
# add up to +5; roll a die per +1, take a Wound per black or red".
def _risk_wound(state, seat, args, choice, events):
    """Roll ``args[0]`` mana dice (not the Source's): a Wound for each red or black."""
    faces = [mana.roll(state) for _ in range(args[0])]
    bad = sum(1 for f in faces if f in ("black", "red"))
    events.append(Event(f"{hero_name(state, seat)} rolls {', '.join(faces)}.", None, {"seat": seat}))
    if bad:
        take_wounds(state, seat, bad, events)


def _horn_choices(state, seat, args):
    return [("0", "no more (no dice rolled)")] + [
        (str(k), f"Siege Attack +{k}, rolling {plural(k, 'mana die', 'mana dice')}: a wound for each red or black")
        for k in range(1, args[0] + 1)]


def _horn_do(state, seat, args, choice, events):
    k = int(choice or 0)
    if k:
        add_pool(state["turn"], "siege", k)
        _risk_wound(state, seat, [k], None, events)


# Golden Grail: basic "Heal 2; Fame +1 per healing point of this card used this turn" (on a Wound in hand at once; the
# points left over in the Heal pool give their Fame when they heal a Unit, counted before other points:
# turn["grail_points"], turn.heal_unit); powered "Heal 6; draw a card each time you heal a Wound from hand this turn"
# (turn["grail_draw"], hero.heal).
def _grail_usable(state, seat, args, ctx):
    return atom_usable(state, seat, ["atom", "heal", args[0]], ctx)


def _grail_do(state, seat, args, choice, events):
    turn = state["turn"]
    s = state["seats"][seat]
    if args[1]:
        turn["grail_draw"] = True
    before = wounds_in_hand(s)
    heal(state, seat, args[0], events)
    if not args[1]:
        healed = before - wounds_in_hand(s)
        turn["grail_points"] = turn.get("grail_points", 0) + args[0] - healed
        grail_fame(state, seat, healed, events)


def grail_fame(state, seat, n, events) -> None:
    if n:
        state["seats"][seat]["fame"] += n
        events.append(Event(f"{hero_name(state, seat)} gains {n} Fame (Golden Grail).", None, {"seat": seat, "fame": n}))


def grail_unit_heal(state, seat, cost, events) -> None:
    """A Unit healed from the Heal pool: the Grail's points are spent first, Fame +1 each."""
    turn = state["turn"]
    n = min(turn.get("grail_points", 0), cost)
    if n:
        turn["grail_points"] -= n
        grail_fame(state, seat, n, events)


def turn_effects(turn: dict | None) -> list[str]:
    """The effects of played cards lasting the turn or the combat, for the view (played cards are public)."""
    if not turn:
        return []
    out = []
    if turn.get("heat"):
        out.append(f"Into the Heat: Units +{turn['heat']} to their attacks and blocks this combat")
    if turn.get("no_unit_damage"):
        out.append("Into the Heat: no damage may be assigned to Units this turn")
    if turn.get("agility"):
        out.append("Agility: Move may be spent as Attack 1:1" + (" or as Ranged Attack 2:1" if turn["agility"] > 1
                                                                   else "") + " in combat this turn")
    if turn.get("diplomacy"):
        elem = turn["diplomacy"]
        out.append("Diplomacy: Influence may be spent as " + ("" if elem == "physical" else elem.title() + " ")
                   + "Block this turn")
    if turn.get("sword_double"):
        out.append("Sword of Justice: physical attacks count double in the Attack phase; enemies lose physical "
                   "resistance")
    if turn.get("sword_fame"):
        out.append("Sword of Justice: Fame +1 per enemy defeated this turn")
    if turn.get("grail_points"):
        out.append(f"Golden Grail: Fame +1 for each of its {turn['grail_points']} healing points still used")
    if turn.get("grail_draw"):
        out.append("Golden Grail: draw a card for each Wound healed from the hand this turn")
    return out


COMBAT_SPECIALS: dict[str, Special] = {
    "freeze_enemy": Special(lambda a: "one enemy without ice resistance does not attack this combat and gets "
                                      "Armor -3 (at least 1)", _target_usable("freeze_enemy"),
                            _target_do("freeze_enemy"), _target_choices("freeze_enemy")),
    "illusion": Special(lambda a: "one unfortified enemy does not attack this combat", _target_usable("illusion"),
                        _target_do("illusion"), _target_choices("illusion")),
    "all_resistances": Special(lambda a: "all your Units gain all resistances this combat", _resist_all_usable,
                               _resist_all_do),
    "cold_fire_or_siege": Special(lambda a: "all your attacks become cold fire, or all become siege attacks, this "
                                            "combat", _attack_modifier_usable, _attack_modifier_do,
                                  lambda st, se, a: [("cold_fire", "all attacks become cold fire"),
                                                     ("siege", "all attacks become siege attacks")]),
    "ambush": Special(lambda a: f"the first Attack card played this turn gets +{a[0]}, or the first Block card +{a[1]}",
                      lambda *a: False,
                      _ambush),
    "into_the_heat": Special(lambda a: f"all your Units get +{a[0]} to their attacks and blocks this combat; no damage "
                                       f"may be assigned to Units this turn (play at the start of combat)",
                             _heat_usable, _heat_do),
    "agility": Special(lambda a: f"Move {a[0]}; in combat this turn you may spend Move as Attack 1 per point" +
                                 (" or 2 Move per Ranged Attack 1" if a[1] else ""), _agility_usable, _agility_do),
    "diplomacy": Special(lambda a: f"Influence {a[0]}; this turn you may spend Influence as " +
                                   ("Ice or Fire Block (choose one)" if a[1] else "Block"),
                         _diplomacy_usable, _diplomacy_do, _diplomacy_choices),
    "flame_wave": Special(lambda a: f"Attack {a[0]} (fire) or Block {a[1]} (fire), +{a[2]} per enemy token faced",
                          lambda st, se, a, ctx: bool(_wave_choices(st, se, a)), _wave_do, _wave_choices),
    "sword_justice": Special(lambda a: f"discard any number of cards of a colour: Attack {a[0]} each; Fame +1 per "
                                       f"enemy defeated this turn",
                             lambda st, se, a, ctx: "melee" in ctx["allowed"], _sword_do),
    "sword_discard": Special(lambda a: f"discard a card of a colour: Attack {a[0]}", lambda *a: False,
                             _sword_discard_do, _sword_discard_choices),
    "sword_powered": Special(lambda a: "your physical attacks count double in the Attack phase this turn, all enemies "
                                       "lose physical resistance, and Fame +1 per enemy defeated this turn",
                             _sword_powered_usable, _sword_powered_do),
    "horn": Special(lambda a: f"add up to Siege Attack +{a[0]}: roll a mana die per +1, take a wound for each red "
                              f"or black", lambda *a: False, _horn_do, _horn_choices),
    "grail": Special(lambda a: f"Heal {plural(a[0], 'wound')}; " + (
                         "draw a card for each Wound you heal from your hand this turn" if a[1] else
                         "Fame +1 for each of these healing points used this turn"), _grail_usable, _grail_do),
    "fear_banner": _target_special("fear_banner", "one enemy attack is cancelled"),
    "risk_wound": Special(lambda a: f"roll {plural(a[0], 'mana die', 'mana dice')}: take a wound for each red or black",
                          lambda *a: False, _risk_wound),
}

register(COMBAT_SPECIALS)
register(ENEMY_SPECIALS)
