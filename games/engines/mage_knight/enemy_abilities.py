"""What an enemy token's own icons do in a combat, one rule each: fortification (the site's and the Fortified
ability), resistances, elemental attacks, Swift, Brutal, Poison, Paralyze and Summon (enemies.ABILITIES).

combat.py runs the phases and asks these rules at the moments the rulebook names; the token's facts come from
enemies.csv. Cards and units change an enemy for the rest of a combat through enemy_effects.py, which leaves its
marks on the enemy's entry ("armor_mod", "lost", "unfortified", "skip"): the readers here (``fortification``,
``armor_of``, ``resistances_of``) apply them, so every rule sees the enemy as it is now.
"""

from __future__ import annotations

from games.engines.base import Event

from . import enemies as enemy_data
from . import unit_rules  # a destroyed Unit's Banner goes to the discard pile
from .enemies import resists
from .hero import discard_non_wounds, note_wounds

# Sites whose defenders are fortified ("keep", "mage_tower"; a city fortifies its defenders too).
FORTIFIED_SITES = frozenset({"keep", "mage_tower", "city"})


def enemy_entry(token: dict, where: str | None, rampaging: bool, summoned_by: int | None = None) -> dict:
    """An enemy as a combat holds it (``combat["enemies"]``): the token, where it stood, and the marks the phases
    and the effects on it start without."""
    return {"id": token["id"], "colour": token["colour"], "hex": where, "rampaging": rampaging,
            "defeated": False, "blocked": False, "summoned_by": summoned_by, "gone": False,
            "damage": 0, "skip": False, "armor_mod": 0, "lost": [], "unfortified": False}


# ---------------------------------------------------------------- fortification, armor, resistances

def fortification(combat: dict, index: int) -> int:
    """0, 1 or 2: the site's fortification (its own defenders only) plus the Fortified ability."""
    e = combat["enemies"][index]
    if e.get("unfortified"):
        return 0  # Expose: "loses fortification ... this combat"
    ctx = combat["context"]
    # A site fortifies its defenders once (a city too); twice only with the token's own Fortified ability.
    site_level = 1 if ctx.get("fortified") or (ctx.get("kind") == "site" and ctx.get("site") in FORTIFIED_SITES) else 0
    if combat.get("site_unfortified"):
        site_level = 0  # Demolish: "ignore site fortifications this turn"
    defends_site = not e["rampaging"] and e["summoned_by"] is None
    level = (site_level if defends_site else 0) + (1 if enemy_data.enemy(e["id"]).has("fortified") else 0)
    return min(2, level)


def site_fortified(combat: dict, index: int) -> bool:
    """Whether the site, not only the token's own ability, fortifies this enemy now (what Demolish lifts)."""
    e = combat["enemies"][index]
    return fortification(combat, index) > (1 if enemy_data.enemy(e["id"]).has("fortified") else 0)


def armor_of(combat: dict, index: int) -> int:
    """The enemy's armor with combat effects applied; a reduced armor never goes below 1 ("min 1")."""
    e = combat["enemies"][index]
    armor = enemy_data.enemy(e["id"]).armor
    return max(1, armor + e["armor_mod"]) if e.get("armor_mod") else armor


def resistances_of(combat: dict, index: int) -> frozenset:
    """The enemy's resistances less those a card took away this combat (Chill, Expose)."""
    e = combat["enemies"][index]
    resistances = enemy_data.enemy(e["id"]).resistances
    return resistances - set(e["lost"]) if e.get("lost") else resistances


def attack_value(state: dict, combat: dict, targets: list[int]) -> tuple[int, str]:
    """The pool's attack against these targets, inefficient elements halved; and the attack types counted."""
    pool = state["turn"]["pool"]["attack"]
    if combat["phase"] == "ranged":
        kinds = ("siege",) if any(fortification(combat, i) for i in targets) else ("ranged", "siege")
    else:
        kinds = ("melee", "ranged", "siege")
    resistances = [resistances_of(combat, i) for i in targets]
    # Sword of Justice thrown away: "physical attacks in your Attack phase count double"
    double = combat["phase"] == "attack" and bool(state["turn"].get("sword_double"))
    efficient = inefficient = 0
    for kind in kinds:
        for element, amount in pool.get(kind, {}).items():
            if double and element == "physical":
                amount *= 2
            # "all attacks of a type that match a resistance icon are inefficient" if any target resists
            if any(resists(r, element) for r in resistances):
                inefficient += amount
            else:
                efficient += amount
    return efficient + inefficient // 2, "/".join(kinds)


# ---------------------------------------------------------------- elemental attacks and Swift: blocking

def block_value(block_pool: dict, attack_element: str) -> int:
    """Total block against an attack of this element: inefficient blocks summed, halved, rounded down."""
    efficient = inefficient = 0
    for element, amount in block_pool.items():
        if _block_efficient(element, attack_element):
            efficient += amount
        else:
            inefficient += amount
    return efficient + inefficient // 2


def _block_efficient(block: str, attack: str) -> bool:
    """ "Any type of Block is efficient against a physical attack. Only Ice or Cold Fire Blocks are efficient
    against Fire Attacks. Only Fire or Cold Fire Blocks are efficient against Ice Attacks. Only Cold Fire
    Blocks are efficient against Cold Fire Attacks." """
    if attack == "physical":
        return True
    if attack == "fire":
        return block in ("ice", "cold_fire")
    if attack == "ice":
        return block in ("fire", "cold_fire")
    return block == "cold_fire"


def block_needed(enemy_id: str) -> int:
    facts = enemy_data.enemy(enemy_id)
    return facts.attack * (2 if facts.has("swift") else 1)  # Swift: "Attack value is doubled for blocking"


def block_against(state: dict, combat: dict, index: int) -> int:
    """The block pool's worth against this enemy's attack, with the block riders of the cards and units in it:
    Utem Guardsmen's / Altem Guardians' Block "counts twice against Swift", Cold Toughness' "+1 Ice Block per
    ability, attack colour and resistance" of the blocked enemy."""
    facts = enemy_data.enemy(combat["enemies"][index]["id"])
    pool = dict(state["turn"]["pool"]["block"])
    if facts.has("swift"):
        for element, amount in combat.get("swift_block", {}).items():
            pool[element] = pool.get(element, 0) + amount
    if "cold_toughness" in combat.get("riders", []):
        pool["ice"] = pool.get("ice", 0) + cold_toughness_bonus(facts)
    return block_value(pool, facts.element)


def cold_toughness_bonus(facts) -> int:
    """ "+1 Ice Block per ability, attack colour and resistance shown on the blocked enemy" (the token's own
    icons; a fire, ice or cold fire attack is one colour)."""
    return len(facts.abilities) + (facts.element != "physical") + len(facts.resistances)


# ---------------------------------------------------------------- Brutal, Poison, Paralyze: damage

def unblocked_damage(enemy_id: str) -> int:
    """The damage an unblocked enemy deals: "Brutal ... twice as much damage"."""
    facts = enemy_data.enemy(enemy_id)
    return facts.attack * (2 if facts.has("brutal") else 1)


def hero_wounded(state: dict, seat: dict, facts, wounds: int) -> str:
    """Poison and Paralyze on a hero who just took ``wounds`` Wounds from this enemy; the words they add to the
    wounds' event ("" when the enemy has neither)."""
    text = ""
    if facts.has("poison"):
        # "put one Wound card into their discard pile for each Wound card added to their hand"
        note_wounds(state["turn"], wounds)
        seat["discard"].extend(["wound"] * wounds)
        text += f" and {wounds} more into the discard pile (poison)"
    if facts.has("paralyze"):
        # "A Hero assigned damage by a Paralyzing enemy must immediately discard any non-Wound cards"
        discard_non_wounds(seat)
        text += "; paralyzed, they discard every non-wound card in hand"
    return text


def unit_hit(combat: dict, seat: dict, unit: dict, unit_name: str, facts) -> str:
    """A Unit assigned this enemy's damage (after its resistance, if any, left damage to take): Paralyze destroys
    it, Poison gives it two wounds, any other enemy one. The event's words."""
    if facts.has("paralyze"):
        # "it is immediately destroyed (remove it from the game)"
        seat["units"].remove(unit)
        unit_rules.drop_banner(seat, unit)  # its Banner goes to the discard pile
        combat["destroyed_units"].append(unit["id"])
        return f"{unit_name} is destroyed by {facts.name} (paralyze)"
    # Poison: "it is given two Wound cards instead". A unit's wounds are its flag and count, not cards
    # held anywhere (docs/rules-decisions/mage-knight.md): healing code only clears the flag.
    wounds = 2 if facts.has("poison") else 1
    unit["wounded"] = True
    unit["wounds"] = wounds
    return f"{unit_name} is wounded by {facts.name}" + (" (poison: two wounds)" if wounds == 2 else "")


# ---------------------------------------------------------------- Summon

def summon(state: dict, combat: dict, events: list[Event]) -> None:
    """The start of the block phase: "For each enemy with the Summon icon, draw a brown enemy token"; it attacks
    in the summoner's place (a summoner that does not attack this combat summons nothing)."""
    for index, e in enumerate(list(combat["enemies"])):
        facts = enemy_data.enemy(e["id"])
        if e["defeated"] or e["summoned_by"] is not None or not facts.summon or e.get("skip"):
            continue
        token = enemy_data.draw(state, facts.summon)
        if token is None:
            events.append(Event(f"{facts.name} finds nothing to summon (the {facts.summon} pile is empty)."))
            continue
        combat["enemies"].append(enemy_entry(token, None, False, summoned_by=index))
        events.append(Event(f"{facts.name} summons {enemy_data.enemy(token['id']).name}.",
                            data={"kind": "summon", "enemy": token["id"]}))
