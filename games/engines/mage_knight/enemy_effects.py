"""What cards and unit abilities do to enemies for the rest of a combat: one enemy as a pick (``TARGET_EFFECTS``:
Freeze, Chill, Tremor, Expose, Tornado...) or every enemy at once (``ALL_EFFECTS``: Earthquake, Demolish, Mass
Expose...). An effect that would change nothing for an enemy is not offered against it.

An effect leaves its marks on the enemy's combat entry ("skip", "armor_mod", "lost", "unfortified"), which
enemy_abilities.py's readers apply; a "destroy" effect defeats the enemy through combat.py, as an attack would.
The specials that call these (specials_combat.py, specials_movement.py, banners.py, resolver.py) own when a card
or unit may use them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines.base import Event, IllegalPick

from . import combat as combat_flow
from . import enemies as enemy_data
from .enemy_abilities import armor_of, fortification, resistances_of, site_fortified


@dataclass(frozen=True)
class EnemyEffect:
    """A modifier a card or unit puts on one enemy (``TARGET_EFFECTS``, a pick) or on every enemy
    (``ALL_EFFECTS``) for the rest of the combat."""
    skip: bool = False             # "does not attack this combat" (it can still be attacked)
    armor: int = 0                 # Armor change, never below 1
    armor_fortified: int | None = None  # Earthquake: the change for a fortified enemy
    lose: tuple = ()               # resistances it loses this combat
    unfortify: bool = False        # it loses its fortification (site and ability) this combat
    destroy: bool = False          # "destroy target enemy": defeated, with its Fame
    immune: str | None = None      # enemies with this resistance are not affected (blue: ice, red: fire)
    unfortified_only: bool = False  # Illusionists: "one unfortified enemy"
    phases: tuple = ("ranged", "block", "attack")


ALL_RESISTANCES = ("physical", "fire", "ice")
TARGET_EFFECTS = {
    # Amotep Freezers (blue mana): "one enemy does not attack and gets Armor -3 (min 1)"; rulebook: a blue unit
    # ability's non-attack effect "[has] no effect when targeting enemies with Ice resistance".
    "freeze_enemy": EnemyEffect(skip=True, armor=-3, immune="ice", phases=("ranged", "block")),
    # Illusionists (white mana): "one unfortified enemy does not attack this combat".
    "illusion": EnemyEffect(skip=True, unfortified_only=True, phases=("ranged", "block")),
    # Tremor: "one enemy Armor -3 ... (min 1)"; Earthquake: "one enemy Armor -3 (-6 if fortified)".
    "tremor_one": EnemyEffect(armor=-3),
    "earthquake_one": EnemyEffect(armor=-3, armor_fortified=-6),
    # Chill: "one enemy does not attack this combat; it loses fire resistance"; Lethal Chill: "one enemy does not
    # attack and gets Armor -4 (min 1)"; a blue spell: ice resistant enemies are not affected (MKD exclude ice).
    "chill": EnemyEffect(skip=True, lose=("fire",), immune="ice"),
    "lethal_chill": EnemyEffect(skip=True, armor=-4, immune="ice"),
    # Whirlwind: "one enemy does not attack this combat"; Tornado: "Attack phase only; destroy one enemy".
    "whirlwind": EnemyEffect(skip=True),
    "tornado": EnemyEffect(destroy=True, phases=("attack",)),
    # Expose: "one enemy loses fortification and resistances this combat".
    "expose": EnemyEffect(unfortify=True, lose=ALL_RESISTANCES),
    # Disintegrate: "Attack phase only; destroy one enemy" (a red spell: fire resistant enemies are immune).
    "disintegrate": EnemyEffect(destroy=True, immune="fire", phases=("attack",)),
    # Banner of Fear thrown away: "up to 3 enemies do not attack this combat" (one pick each); attached: "in the
    # Block phase spend the Unit to cancel one enemy attack".
    "fear": EnemyEffect(skip=True, phases=("ranged", "block")),
    "fear_banner": EnemyEffect(skip=True, phases=("block",)),
}
ALL_EFFECTS = {
    # Tremor: "all enemies Armor -2 (min 1)"; Earthquake: "all enemies Armor -2 (-4 if fortified), min 1".
    "tremor_all": EnemyEffect(armor=-2),
    "earthquake_all": EnemyEffect(armor=-2, armor_fortified=-4),
    # Mass Expose: "all enemies lose either fortifications or resistances this combat".
    "mass_expose_fortifications": EnemyEffect(unfortify=True),
    "mass_expose_resistances": EnemyEffect(lose=ALL_RESISTANCES),
    # Demolish: "all enemies Armor -1 (min 1)"; Disintegrate: "other enemies Armor -1 (min 1)"; fire resistant
    # enemies are not affected (MKD exclude_resistance fire). Demolish also ignores site fortifications.
    "demolish": EnemyEffect(armor=-1, immune="fire"),
    "disintegrate_others": EnemyEffect(armor=-1, immune="fire", phases=("attack",)),
    # Sword of Justice thrown away: "enemies lose physical resistance this turn".
    "sword_physical": EnemyEffect(lose=("physical",)),
}


def _armor_change(combat: dict, index: int, fx: EnemyEffect) -> int:
    """The Armor change for this enemy (Earthquake changes a fortified enemy's more)."""
    if fx.armor_fortified is not None and fortification(combat, index):
        return fx.armor_fortified
    return fx.armor


def _affected(combat: dict, index: int, fx: EnemyEffect) -> bool:
    """Whether the effect may touch this enemy now (alive, not immune, the summoner rule)."""
    e = combat["enemies"][index]
    if e["defeated"] or e["gone"]:
        return False
    if combat["phase"] == "block" and enemy_data.enemy(e["id"]).summon:
        return False  # "No effect can target the summoning enemy during these phases"
    if fx.immune and fx.immune in resistances_of(combat, index):
        return False
    return not (fx.unfortified_only and fortification(combat, index))


def _of_use(combat: dict, index: int, fx: EnemyEffect) -> bool:
    """Would the effect change anything for this enemy in this combat from now on?"""
    e = combat["enemies"][index]
    phase = combat["phase"]
    attackable = e["summoned_by"] is None  # a summoned monster is never attacked
    if fx.destroy:
        return attackable
    if fx.skip and phase in ("ranged", "block") and not e["blocked"] and not e.get("skip"):
        return True  # it would still attack (a summoner through the monster it summons)
    if attackable and _armor_change(combat, index, fx) and armor_of(combat, index) > 1:
        return True
    if attackable and set(fx.lose) & set(resistances_of(combat, index)):
        return True
    return attackable and fx.unfortify and phase == "ranged" and fortification(combat, index) > 0


def enemy_targets(state: dict, effect: str) -> list[tuple[int, str]]:
    """The enemies a TARGET_EFFECTS effect may target now and would change, as (index, label); [] outside
    combat or outside the effect's phases. "Effects of no use now are not offered": a target only if the
    effect would change something for it (an attack it still makes, an Armor above 1, a resistance it has, a
    fortification in the ranged/siege phase)."""
    combat = state.get("combat")
    fx = TARGET_EFFECTS[effect]
    if not combat or combat["phase"] not in fx.phases:
        return []
    out = []
    for index, e in enumerate(combat["enemies"]):
        if _affected(combat, index, fx) and _of_use(combat, index, fx):
            facts = enemy_data.enemy(e["id"])
            out.append((index, f"{facts.name} (armor {armor_of(combat, index)}, Attack {facts.attack})"))
    return out


def target_enemy(state: dict, effect: str, index: int, events: list[Event]) -> None:
    """Apply a TARGET_EFFECTS effect to one enemy (the caller offered ``enemy_targets``)."""
    if index not in {i for i, _ in enemy_targets(state, effect)}:
        raise IllegalPick(f"{effect} cannot target enemy {index} now")
    _modify(state, state["combat"], index, TARGET_EFFECTS[effect], effect, events)


def all_enemies_of_use(state: dict, effect: str) -> bool:
    """An ALL_EFFECTS effect is of use now if it changes something for at least one enemy (Demolish also
    when it would lift a site's fortification in the ranged/siege phase)."""
    combat = state.get("combat")
    fx = ALL_EFFECTS[effect]
    if not combat or combat["phase"] not in fx.phases:
        return False
    if effect == "demolish" and combat["phase"] == "ranged" and not combat.get("site_unfortified"):
        if any(site_fortified(combat, i) for i in combat_flow.alive(combat)):
            return True
    return any(_affected(combat, i, fx) and _of_use(combat, i, fx) for i in range(len(combat["enemies"])))


def affect_all_enemies(state: dict, effect: str, events: list[Event]) -> None:
    """Apply an ALL_EFFECTS effect to every enemy it may touch (nothing outside combat)."""
    combat = state.get("combat")
    fx = ALL_EFFECTS[effect]
    if not combat or combat["phase"] not in fx.phases:
        return
    if effect == "demolish" and not combat.get("site_unfortified"):
        combat["site_unfortified"] = True  # "ignore site fortifications this turn" (the turn's combat)
        events.append(Event("Site fortifications are ignored this turn.",
                            data={"kind": "enemy_effect", "effect": effect}))
    for index in range(len(combat["enemies"])):
        if _affected(combat, index, fx) and combat["enemies"][index]["summoned_by"] is None:
            _modify(state, combat, index, fx, effect, events)


def _modify(state: dict, combat: dict, index: int, fx: EnemyEffect, effect: str, events: list[Event]) -> None:
    """Put the effect's marks on one enemy and say what changed; a destroy effect defeats it as an attack would."""
    e = combat["enemies"][index]
    if fx.destroy:
        if index in combat["targets"]:
            combat["targets"].remove(index)  # a destroyed enemy leaves the attack group being formed
        combat_flow.defeat(state, combat, index, events, how="destroyed")
        if not combat_flow.alive(combat):
            combat_flow.finish(state, events)
        return
    parts = []
    if fx.skip and not e.get("skip"):
        e["skip"] = True
        parts.append("does not attack this combat")
    change = _armor_change(combat, index, fx)
    if change:
        e["armor_mod"] = e.get("armor_mod", 0) + change
        parts.append(f"gets Armor {change:+d} (now {armor_of(combat, index)})")
    lost = [r for r in fx.lose if r in resistances_of(combat, index)]
    if lost:
        e["lost"] = sorted(set(e.get("lost", [])) | set(lost))
        parts.append("loses its " + " and ".join(combat_flow.element_words(r) for r in lost) + " resistance")
    if fx.unfortify and fortification(combat, index):
        e["unfortified"] = True
        parts.append("loses its fortification")
    if parts:
        events.append(Event(f"{combat_flow.enemy_name(e)} " + ", ".join(parts) + ".",
                            data={"kind": "enemy_effect", "effect": effect, "enemy": e["id"]}))
