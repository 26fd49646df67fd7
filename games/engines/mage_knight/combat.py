"""A combat with enemy tokens, from reveal to outcome, as short picks (rules: "Combat with Enemies").

turn.py starts a combat and merges ``options`` into the seat's prompt; card and unit plays add to
``state["turn"]["pool"]`` while ``allowed`` says which entries the current phase takes. combat.py spends
the pool when the player commits an attack or a block, and whatever is left when a phase ends is lost
("You may not save Attack points for later use"). The contract is in README.md, "Combat contract".

Phases: ranged (ranged/siege attacks) -> block -> damage -> attack -> outcome. Reveal happens in ``start``.
Every phase has "c-next" (end the phase), so a combat can always be finished; in the damage phase it
assigns every remaining point of damage to the hero, which the rules allow in every case.

This module is the flow; the rules it asks along the way live beside it: what an enemy's own icons do
(fortification, resistances, Swift, Brutal, Poison, Paralyze, Summon) in enemy_abilities.py, what cards and
units do to enemies for the rest of the combat in enemy_effects.py (which calls ``defeat`` and ``finish`` here).
"""

from __future__ import annotations

from games.engines.base import Event, IllegalPick, Option

from . import enemies as enemy_data
from . import unit_rules  # a Unit's Armor and resistances with its Banner
from . import units as unit_data
from .enemies import resists
from .enemy_abilities import (FORTIFIED_SITES, armor_of, attack_value, block_against, block_needed, enemy_entry,
                              fortification, hero_wounded, resistances_of, summon, unblocked_damage, unit_hit)
from .hero import discard_non_wounds, note_wounds

NEXT = "c-next"
PHASES = ("ranged", "block", "damage", "attack")
ELEMENTS = ("physical", "fire", "ice", "cold_fire")
RAMPAGING_KINDS = frozenset({"rampaging", "provoked", "challenge"})
# "Dungeon, Tomb, or Monastery: Discard the enemy" when it is not defeated; units may not fight there.
DISCARD_SITES = frozenset({"dungeon", "tomb", "monastery"})
NO_UNIT_SITES = frozenset({"dungeon", "tomb"})
# "gain Reputation (+1 for each orc marauders, +2 for each draconum)"
RAMPAGING_REPUTATION = {"green": 1, "red": 2}
REPUTATION_RANGE = (-7, 7)


# ---------------------------------------------------------------- start / phase flow

def start(state: dict, seat: int, tokens: list[dict], context: dict, events: list[Event]) -> None:
    """Open a combat against ``tokens`` (face up or down; on the map or freshly drawn) and reveal them.

    A token standing on a map hex (``token["hex"]`` or ``context["hex"]``) is lifted off the map for the
    combat; the outcome discards it (defeated) or puts it back face up (undefeated, where the site keeps it).
    """
    context = dict(context)
    combat = {"seat": seat, "phase": "ranged", "context": context, "enemies": [], "targets": [],
              "wounds": 0, "units_hit": [], "knocked_out": False, "destroyed_units": [], "fame": 0,
              "hand_wounds": state["seats"][seat]["hand"].count("wound")}
    for token in tokens:
        where = token.get("hex") or context.get("hex")
        on_map = _lift_from_map(state, where, token)
        rampaging = bool(token.get("rampaging")) if "rampaging" in token else (
            on_map["rampaging"] if on_map is not None else context["kind"] in RAMPAGING_KINDS)
        combat["enemies"].append(enemy_entry(token, where if on_map is not None else None, rampaging))
    state["combat"] = combat
    # "Any unspent Healing points disappear when entering combat"; attack and block start from nothing.
    pool = state["turn"]["pool"]
    pool["heal"] = 0
    state["turn"].pop("grail_points", None)  # Golden Grail's points were in the Heal pool
    _clear(pool, ("melee", "ranged", "siege"), block=True)
    _end_unit_modifiers(state["turn"])
    names = ", ".join(enemy_name(e) for e in combat["enemies"]) or "no enemies"
    events.append(Event(f"Seat {seat + 1} fights; the enemies are revealed: {names}.",
                        data={"kind": "combat_start", "seat": seat, "enemies": [e["id"] for e in combat["enemies"]]}))
    if not alive(combat):
        finish(state, events)


def allowed(state: dict) -> set[str]:
    """Which pool entries card and unit plays may add now ("sideways": a non-wound card as physical 1)."""
    combat = state.get("combat")
    if not combat:
        return set()
    return {"ranged": {"ranged", "siege"}, "block": {"block", "sideways"}, "damage": set(),
            "attack": {"melee", "ranged", "siege", "sideways"}}[combat["phase"]]


def units_allowed(state: dict) -> bool:
    """False in a dungeon or tomb and when burning a monastery: "units_allowed: false" (sites.json)."""
    combat = state.get("combat")
    if not combat:
        return True
    ctx = combat["context"]
    return not (ctx.get("kind") == "burn" or ctx.get("site") in NO_UNIT_SITES)


def default_option(state: dict) -> str:
    return NEXT


def options(state: dict, seat: int) -> list[Option]:
    """Combat's own picks for the seat in combat: ending the phase always comes first (the safe default)."""
    combat = state.get("combat")
    if not combat or combat["seat"] != seat:
        return []
    phase = combat["phase"]
    if phase in ("ranged", "attack"):
        return _attack_options(state, combat)
    if phase == "block":
        return _block_options(state, combat)
    return _damage_options(state, combat)


def apply(state: dict, seat: int, option_id: str, events: list[Event]) -> bool:
    """Apply one of combat's picks; False if the id is not combat's. An illegal combat pick raises IllegalPick."""
    if not option_id.startswith("c-"):
        return False
    combat = state.get("combat")
    if not combat or combat["seat"] != seat or option_id not in {o.id for o in options(state, seat)}:
        raise IllegalPick(f"{option_id} is not a combat option now")
    _check_knock_out(state, combat, events)  # wounds a card effect put into the hand since the last pick
    if option_id == NEXT:
        _end_phase(state, events)
        return True
    kind, rest = option_id[2], option_id[3:]
    if kind == "t":
        combat["targets"].append(int(rest))
    elif kind == "u":
        combat["targets"].remove(int(rest))
    elif kind == "a":
        _commit_attack(state, combat, events)
    elif kind == "b":
        _commit_block(state, combat, int(rest), events)
    elif kind == "h":
        _damage_hero(state, combat, int(rest), events)
    elif kind == "d":
        index, uid = rest.split("-")
        _damage_unit(state, combat, int(index), int(uid), events)
    return True


def _end_phase(state: dict, events: list[Event]) -> None:
    combat = state["combat"]
    pool = state["turn"]["pool"]
    phase = combat["phase"]
    combat["targets"] = []
    if phase == "ranged":
        _clear(pool, ("melee", "ranged", "siege"))
        _begin_block(state, combat, events)
    elif phase == "block":
        _clear(pool, (), block=True)
        combat.pop("riders", None)  # block riders of a block never made lapse with its points
        combat.pop("swift_block", None)
        _begin_damage(state, combat, events)
    elif phase == "damage":
        pending = _damage_pending(combat)
        for index in pending:
            _damage_hero(state, combat, index, events)  # the last one opens the attack phase
        if not pending:
            _begin_attack(state, combat, events)
    else:
        finish(state, events)


def _begin_block(state: dict, combat: dict, events: list[Event]) -> None:
    if not alive(combat):
        return finish(state, events)
    combat["phase"] = "block"
    summon(state, combat, events)  # summoned monsters attack in their summoners' place
    if not _attackers(combat):
        _begin_damage(state, combat, events)


def _begin_damage(state: dict, combat: dict, events: list[Event]) -> None:
    combat["phase"] = "damage"
    for index in _attackers(combat):
        e = combat["enemies"][index]
        if not e["blocked"]:
            e["damage"] = unblocked_damage(e["id"])
    if not _damage_pending(combat):
        _begin_attack(state, combat, events)


def _begin_attack(state: dict, combat: dict, events: list[Event]) -> None:
    # "After the attack, discard the summoned enemy token"; the summoner is back in play.
    for e in combat["enemies"]:
        if e["summoned_by"] is not None and not e["gone"]:
            _discard(state, e)
    combat["phase"] = "attack"
    for kind, amount, element in combat.pop("later_attacks", []):  # Burning Shield's Fire Attack 4
        bucket = state["turn"]["pool"]["attack"].setdefault(kind, {})
        bucket[element] = bucket.get(element, 0) + amount
    if not alive(combat):
        finish(state, events)


# ---------------------------------------------------------------- attacks (ranged/siege phase and attack phase)

def _attack_options(state: dict, combat: dict) -> list[Option]:
    ranged = combat["phase"] == "ranged"
    end = ("End the ranged and siege attack phase; enemies still standing attack next" if ranged
           else "End the attack phase and the combat")
    out = [Option(NEXT, end)]
    for index in alive(combat):
        if ranged and fortification(combat, index) >= 2:
            continue  # "Enemies that are fortified twice ... cannot be targeted at all in this phase"
        label = _describe_target(combat, index, ranged)
        if index in combat["targets"]:
            out.append(Option(f"c-u{index}", f"Stop targeting {label}"))
        else:
            out.append(Option(f"c-t{index}", f"Target {label}"))
    targets = combat["targets"]
    if targets:
        value, kinds = attack_value(state, combat, targets)
        armor = sum(armor_of(combat, i) for i in targets)
        if value >= armor:  # a weaker attack "has no effect": it is not offered
            names = " and ".join(enemy_name(combat["enemies"][i]) for i in targets)
            word = {"ranged/siege": "Ranged and Siege Attack", "siege": "Siege Attack"}.get(kinds, "Attack")
            out.append(Option("c-a", f"Defeat {names} (armor {armor}) with {word} {value}"))
    return out


def defeat(state: dict, combat: dict, index: int, events: list[Event], how: str = "defeated") -> None:
    """The enemy is defeated: discarded at once, Fame and Reputation for it (an attack, or a card that
    destroys it: "destroy target enemy" counts as a defeat). A summoned monster gives nothing."""
    seat = state["seats"][combat["seat"]]
    e = combat["enemies"][index]
    facts = enemy_data.enemy(e["id"])
    e["defeated"] = True
    _discard(state, e)  # "Defeated enemy tokens are immediately discarded"
    turn = state["turn"]
    turn["defeats"] = turn.get("defeats", 0) + 1  # Sword of Justice: "Fame +1 per enemy defeated this turn"
    if turn.get("sword_fame"):
        seat["fame"] += 1
        combat["fame"] += 1
        events.append(Event(f"Seat {combat['seat'] + 1} gains 1 Fame (Sword of Justice).",
                            data={"kind": "fame", "fame": 1}))
    if e["summoned_by"] is not None:
        events.append(Event(f"{facts.name} is {how}.", data={"kind": "defeat", "enemy": e["id"], "fame": 0,
                                                             "reputation": 0}))
        return
    # An opponent's keep: its defender gives "half (rounded up)" Fame (sites.json keep.other_players_keep).
    fame = -(-facts.fame // 2) if combat["context"].get("half_fame") and not e["rampaging"] else facts.fame
    combat["fame"] += fame
    seat["fame"] += fame
    reputation = facts.reputation + (RAMPAGING_REPUTATION.get(e["colour"], 0) if e["rampaging"] else 0)
    seat["reputation"] = max(REPUTATION_RANGE[0], min(REPUTATION_RANGE[1], seat["reputation"] + reputation))
    rep_text = f", Reputation {reputation:+d}" if reputation else ""
    events.append(Event(f"{facts.name} is {how}: Fame +{fame}{rep_text}.",
                        data={"kind": "defeat", "enemy": e["id"], "fame": fame, "reputation": reputation}))


def _commit_attack(state: dict, combat: dict, events: list[Event]) -> None:
    _, counted = attack_value(state, combat, combat["targets"])
    for index in combat["targets"]:
        defeat(state, combat, index, events)
    combat["targets"] = []
    # The counted points were assigned to this attack; ranged points a fortified target ignored stay for
    # another attack ("deal with the unfortified ones with a separate attack", rulebook).
    _clear(state["turn"]["pool"], tuple(counted.split("/")))
    if not alive(combat):
        finish(state, events)


# ---------------------------------------------------------------- block phase

def _block_options(state: dict, combat: dict) -> list[Option]:
    unblocked = [i for i in _attackers(combat) if not combat["enemies"][i]["blocked"]]
    out = [Option(NEXT, f"End the block phase; {len(unblocked)} unblocked "
                        f"{'enemy deals' if len(unblocked) == 1 else 'enemies deal'} damage")]
    for index in unblocked:
        facts = enemy_data.enemy(combat["enemies"][index]["id"])
        value, needed = block_against(state, combat, index), block_needed(facts.id)
        if value >= needed:  # a smaller block "has no effect": it is not offered
            swift = f", swift: needs Block {needed}" if facts.has("swift") else ""
            elem = "" if facts.element == "physical" else f", {element_words(facts.element)}"
            out.append(Option(f"c-b{index}", f"Block {facts.name} (Attack {facts.attack}{elem}{swift}) "
                                             f"with Block {value}"))
    return out


def _commit_block(state: dict, combat: dict, index: int, events: list[Event]) -> None:
    e = combat["enemies"][index]
    e["blocked"] = True
    _clear(state["turn"]["pool"], (), block=True)
    riders = combat.pop("riders", [])
    combat.pop("swift_block", None)
    events.append(Event(f"{_possessive(enemy_name(e))} attack is blocked.", data={"kind": "block", "enemy": e["id"]}))
    for rider in riders:  # the cards that were part of this block
        _block_rider(state, combat, index, rider, events)
    if e["summoned_by"] is not None and not e["gone"]:
        _discard(state, e)  # "If a summoned monster is successfully blocked, discard it ... (but gain no Fame)"
    if not alive(combat):
        finish(state, events)


def _block_rider(state: dict, combat: dict, index: int, rider: str, events: list[Event]) -> None:
    e = combat["enemies"][index]
    name = enemy_name(e)
    if rider == "ice_shield" and "ice" not in resistances_of(combat, index) and e["summoned_by"] is None:
        # Ice Shield: "an enemy blocked with it gets Armor -3 (min 1)"; blue: ice resistant enemies are immune
        e["armor_mod"] = e.get("armor_mod", 0) - 3
        events.append(Event(f"{name} gets Armor -3 (Ice Shield).", data={"kind": "enemy_effect",
                                                                         "effect": rider, "enemy": e["id"]}))
    elif rider == "burning_shield":
        # Burning Shield: "if part of a successful block, usable in the Attack phase as Fire Attack 4"
        combat.setdefault("later_attacks", []).append(["melee", 4, "fire"])
        events.append(Event("Burning Shield becomes Fire Attack 4 for the Attack phase.",
                            data={"kind": "enemy_effect", "effect": rider, "enemy": e["id"]}))
    elif rider == "exploding_shield" and "fire" not in resistances_of(combat, index) and not e["gone"]:
        # Exploding Shield: "if part of a successful block, the blocked enemy is destroyed" (red: not fire resistant)
        defeat(state, combat, index, events, how="destroyed by Exploding Shield")


def add_block_rider(state: dict, rider: str) -> None:
    """A card played in the block phase whose effect depends on the block it is part of (specials_combat.py: Ice Shield, Burning Shield, ...)."""
    combat = state.get("combat")
    if combat and combat["phase"] == "block":
        combat.setdefault("riders", []).append(rider)


def add_swift_block(state: dict, amount: int, element: str = "physical") -> None:
    """A unit's Block that "counts twice against Swift": these points are counted again against a swift enemy."""
    combat = state.get("combat")
    if combat and combat["phase"] == "block":
        bonus = combat.setdefault("swift_block", {})
        bonus[element] = bonus.get(element, 0) + amount


# ---------------------------------------------------------------- damage phase

def _damage_options(state: dict, combat: dict) -> list[Option]:
    seat = state["seats"][combat["seat"]]
    pending = _damage_pending(combat)
    total = sum(_hero_wounds(seat, combat["enemies"][i]["damage"]) for i in pending)
    out = [Option(NEXT, f"Take all remaining damage on the hero ({total} wound{'s' if total != 1 else ''}) "
                        f"and end the damage phase")]
    for index in pending:
        e = combat["enemies"][index]
        facts = enemy_data.enemy(e["id"])
        what = f"{_possessive(facts.name)} {e['damage']} damage ({element_words(facts.element)})"
        wounds = _hero_wounds(seat, e["damage"])
        out.append(Option(f"c-h{index}", f"Take {what} on the hero: {wounds} wound{'s' if wounds != 1 else ''}"))
        for unit in _damageable_units(state, combat):
            ufacts = unit_data.unit(unit["id"])
            armor = unit_rules.unit_armor(state, combat["seat"], unit)
            out.append(Option(f"c-d{index}-{unit['uid']}", f"Assign {what} to {ufacts.name} (armor {armor})"))
    return out


def _damageable_units(state: dict, combat: dict) -> list[dict]:
    """ "You can assign damage to a Unit as long as it is not Wounded" (spent ones too), once per combat."""
    if not units_allowed(state) or state["turn"].get("no_unit_damage"):
        return []  # Into the Heat: "no damage may be assigned to Units this turn"
    return [u for u in state["seats"][combat["seat"]]["units"]
            if not u["wounded"] and u["uid"] not in combat["units_hit"]]


def _hero_wounds(seat: dict, damage: int) -> int:
    armor = max(1, seat["armor"])
    return -(-damage // armor)  # one Wound per Armor points of damage, rounded up


def _damage_hero(state: dict, combat: dict, index: int, events: list[Event]) -> None:
    e = combat["enemies"][index]
    facts = enemy_data.enemy(e["id"])
    seat = state["seats"][combat["seat"]]
    wounds = _hero_wounds(seat, e["damage"])  # every one: the Wound supply never runs out
    note_wounds(state["turn"], wounds)  # Banner of Protection counts the Wounds received this turn
    e["damage"] = 0
    seat["hand"].extend(["wound"] * wounds)
    combat["wounds"] += wounds
    text = f"Seat {combat['seat'] + 1} takes {wounds} wound{'s' if wounds != 1 else ''} from {facts.name}"
    text += hero_wounded(state, seat, facts, wounds)  # Poison, Paralyze
    events.append(Event(text + ".", data={"kind": "wounds", "seat": combat["seat"], "wounds": wounds}))
    _check_knock_out(state, combat, events)
    _after_damage(state, combat, events)


def _check_knock_out(state: dict, combat: dict, events: list[Event]) -> None:
    """ "Knock out: If the number of Wound cards added to your hand during a combat equals or exceeds your
    unmodified Hand limit ... immediately discard all non-Wound cards from your hand." Rulebook: "Wounds
    received from other sources (for example: The effects of some cards played during combat) also count",
    so the count is the growth of the hand's wounds (none leave the hand during a combat: no healing)."""
    seat = state["seats"][combat["seat"]]
    added = max(combat["wounds"], seat["hand"].count("wound") - combat.get("hand_wounds", 0))
    if not combat["knocked_out"] and added >= seat["hand_limit"]:
        combat["knocked_out"] = True
        discard_non_wounds(seat)
        events.append(Event(f"Seat {combat['seat'] + 1} is knocked out and discards every non-wound card in hand.",
                            data={"kind": "knocked_out", "seat": combat["seat"]}))


def _damage_unit(state: dict, combat: dict, index: int, uid: int, events: list[Event]) -> None:
    e = combat["enemies"][index]
    facts = enemy_data.enemy(e["id"])
    seat = state["seats"][combat["seat"]]
    unit = next(u for u in seat["units"] if u["uid"] == uid)
    ufacts = unit_data.unit(unit["id"])
    armor = unit_rules.unit_armor(state, combat["seat"], unit)  # Banners of Glory / Protection: +1
    combat["units_hit"].append(uid)
    all_resistant = bool(state["turn"].get("units_resist_all"))  # Altem Guardians' ability, set by turn.py
    if all_resistant or resists(unit_rules.unit_resistances(state, combat["seat"], unit), facts.element):
        # Resistant: "First, reduce amount of the damage by the Unit's Armor (without Wounding the Unit)."
        e["damage"] = max(0, e["damage"] - armor)
        if e["damage"] == 0:
            events.append(Event(f"{ufacts.name} shrugs off {_possessive(facts.name)} attack (resistance)."))
            return _after_damage(state, combat, events)
    text = unit_hit(combat, seat, unit, ufacts.name, facts)  # Paralyze, Poison
    e["damage"] = max(0, e["damage"] - armor)
    events.append(Event(text + (f"; {e['damage']} damage remains." if e["damage"] else "."),
                        data={"kind": "unit_damage", "unit": unit["id"]}))
    _after_damage(state, combat, events)


def _after_damage(state: dict, combat: dict, events: list[Event]) -> None:
    if not _damage_pending(combat):
        _begin_attack(state, combat, events)


def _end_unit_modifiers(turn: dict) -> None:
    """Altem Guardians' resistances and Altem Mages' cold fire / siege last one combat (specials_combat.py sets them)."""
    turn.pop("units_resist_all", None)
    turn.pop("attack_modifier", None)
    turn.pop("heat", None)  # Into the Heat: "this combat"


# ---------------------------------------------------------------- outcome

def finish(state: dict, events: list[Event]) -> None:
    combat = state["combat"]
    ctx = combat["context"]
    seat_index = combat["seat"]
    _clear(state["turn"]["pool"], ("melee", "ranged", "siege"), block=True)
    _end_unit_modifiers(state["turn"])
    main = [e for e in combat["enemies"] if e["summoned_by"] is None]
    defenders = [e for e in main if not e["rampaging"]] if ctx.get("kind") in ("site", "burn") else main
    # A site is conquered when its defenders fall, "whether you defeated [the rampaging ones] or not".
    victory = all(e["defeated"] for e in (defenders or main))
    undefeated = []
    for e in main:
        if e["defeated"]:
            continue
        token = {"id": e["id"], "colour": e["colour"], "face_up": True}
        undefeated.append(token)
        if not e["rampaging"] and (ctx.get("kind") == "burn" or ctx.get("site") in DISCARD_SITES
                                   or ctx.get("opponents_keep")):  # an owned keep keeps no token
            _discard(state, e)  # "If you failed to defeat enemies drawn in a dungeon, tomb, or monastery, discard them"
        else:
            _put_on_map(state, e["hex"] or ctx.get("hex"), token)  # rampaging stay; dens, ruins, sites keep theirs
    for e in main:
        cell = state.get("map", {}).get("hexes", {}).get(e["hex"]) if e["hex"] else None
        if cell is not None and e["rampaging"] and not cell.get("enemies"):
            cell["rampaging"] = False  # "remove their tokens from the board ... treat it as an empty space"
    fortified_site = ctx.get("kind") == "site" and (ctx.get("fortified") or ctx.get("site") in FORTIFIED_SITES)
    if fortified_site and not victory and ctx.get("return_to"):
        state["seats"][seat_index]["pos"] = ctx["return_to"]  # "Withdraw to your attacking space"
        events.append(Event(f"The assault fails; Seat {seat_index + 1} withdraws to the space they attacked from."))
    defeated = [e["id"] for e in main if e["defeated"]]
    state["turn"]["combat_result"] = {
        "victory": victory, "defeated": defeated, "undefeated": undefeated, "context": ctx,
        "knocked_out": combat["knocked_out"], "wounds": combat["wounds"], "fame": combat["fame"],
        "destroyed_units": combat["destroyed_units"]}
    state["combat"] = None
    events.append(Event(("Victory" if victory else "The combat ends") +
                        f": {len(defeated)} enem{'y' if len(defeated) == 1 else 'ies'} defeated.",
                        data={"kind": "combat_end", "victory": victory}))


# ---------------------------------------------------------------- helpers

def alive(combat: dict) -> list[int]:
    """Indexes of enemies still in play that attacks may target (summoned monsters never are)."""
    return [i for i, e in enumerate(combat["enemies"])
            if not e["defeated"] and not e["gone"] and e["summoned_by"] is None]


def _attackers(combat: dict) -> list[int]:
    """Enemies that attack in the block and damage phases (a summoner attacks through its summoned monster)."""
    return [i for i, e in enumerate(combat["enemies"])
            if not e["defeated"] and not e["gone"] and not e.get("skip") and enemy_data.enemy(e["id"]).attack > 0]


def _damage_pending(combat: dict) -> list[int]:
    return [i for i, e in enumerate(combat["enemies"]) if not e["gone"] and not e["defeated"] and e["damage"] > 0]


def _discard(state: dict, e: dict) -> None:
    e["gone"] = True
    enemy_data.discard(state, {"id": e["id"], "colour": e["colour"]})


def _clear(pool: dict, attack_kinds: tuple[str, ...], block: bool = False) -> None:
    """Unspent points are lost: zero these pool entries (the dict keeps its keys)."""
    for kind in attack_kinds:
        bucket = pool["attack"].setdefault(kind, {})
        for element in list(bucket):
            bucket[element] = 0
    if block:
        for element in list(pool["block"]):
            pool["block"][element] = 0


def _lift_from_map(state: dict, where: str | None, token: dict) -> dict | None:
    """Remove the token from its hex if it stands there; return the hex (None if it was not on the map)."""
    hexes = state.get("map", {}).get("hexes", {})
    cell = hexes.get(where) if where else None
    if not cell:
        return None
    for i, placed in enumerate(cell.get("enemies", [])):
        if placed["id"] == token["id"] and placed["colour"] == token["colour"]:
            del cell["enemies"][i]
            return {"rampaging": bool(cell.get("rampaging"))}
    return None


def _put_on_map(state: dict, where: str | None, token: dict) -> None:
    hexes = state.get("map", {}).get("hexes", {})
    cell = hexes.get(where) if where else None
    if cell is None:
        enemy_data.discard(state, token)  # nowhere to stand (a hand-built state): keep the token counted
        return
    cell.setdefault("enemies", []).append(token)


def enemy_name(e: dict) -> str:
    return enemy_data.enemy(e["id"]).name


def _possessive(name: str) -> str:
    """"Werewolf's", "Cursed Hags'" (a plural name takes the apostrophe only)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def element_words(element: str) -> str:
    return element.replace("_", " ")


def _describe_target(combat: dict, index: int, ranged: bool) -> str:
    facts = enemy_data.enemy(combat["enemies"][index]["id"])
    notes = [f"armor {armor_of(combat, index)}"]
    if ranged and fortification(combat, index):
        notes.append("fortified: siege only")
    resistances = resistances_of(combat, index)
    if resistances:
        notes.append("resists " + " and ".join(element_words(r) for r in sorted(resistances)))
    return f"{facts.name} ({', '.join(notes)})"


def public_view(state: dict) -> dict | None:
    """What everyone may see of the combat (every enemy in it is face up), in the view's shape."""
    combat = state.get("combat")
    if not combat:
        return None
    shown = []
    for index, e in enumerate(combat["enemies"]):
        facts = enemy_data.enemy(e["id"])
        attack = {"summon": facts.summon} if facts.summon else {"value": facts.attack, "element": facts.element}
        shown.append({"index": index, "id": e["id"], "name": facts.name, "colour": e["colour"], "face_up": True,
                      "armor": armor_of(combat, index), "base_armor": facts.armor, "attack": facts.attack,
                      "element": facts.element, "attacks": [attack], "abilities": sorted(facts.abilities),
                      "resistances": sorted(resistances_of(combat, index)), "fame": facts.fame,
                      "lost_resistances": sorted(e.get("lost", [])), "unfortified": bool(e.get("unfortified")),
                      "fortified": fortification(combat, index), "defeated": e["defeated"],
                      "blocked": e["blocked"], "summoned": e["summoned_by"] is not None,
                      "summoned_by": e["summoned_by"], "gone": e["gone"], "skip": e.get("skip", False),
                      "damage": e["damage"]})
    return {"phase": combat["phase"], "enemies": shown, "targets": list(combat["targets"]),
            "context": combat["context"], "site_unfortified": bool(combat.get("site_unfortified")),
            "wounds": combat["wounds"], "knocked_out": combat["knocked_out"]}
