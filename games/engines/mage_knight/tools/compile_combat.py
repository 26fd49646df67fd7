"""Regenerate enemies.csv and units.csv from the shared component data (base game only).

Usage: python games/engines/mage_knight/tools/compile_combat.py [/work/shared/data/mage-knight]

The JSON already settles the sources' disagreements (majority of sources, see each row's ``conflicts``);
this script only reshapes the rows and writes the unit abilities in the README's effect vocabulary.
Abilities the vocabulary has no atom for become ``special NAME`` (docs/rules-decisions/mage-knight.md,
"Combat, enemies and units").
"""

from __future__ import annotations

import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.dirname(HERE)
DEFAULT_SOURCE = "/work/shared/data/mage-knight"
ENEMY_FIELDS = ["id", "name", "colour", "copies", "armor", "attack", "abilities", "resistances", "fame", "reputation"]
UNIT_FIELDS = ["id", "name", "tier", "level", "cost", "armor", "copies", "recruit_sites", "resistances", "abilities"]

# Unit abilities with no plain atom. Keys: (unit id, index of the ability in units.json). Values: effect strings;
# an empty string drops the slot (its content is folded into another entry).
UNIT_SPECIALS = {
    ("amotep_freezers", 2): "special freeze_enemy",  # one enemy does not attack, armor -3 (min 1); not ice resistant
    ("altem_guardians", 1): "block 8 + special swift_block 8",  # "Block 8, counts double against Swift"
    ("altem_guardians", 2): "special all_resistances",  # all your units gain all resistances this turn
    ("altem_mages", 0): "mana any + mana any",
    ("altem_mages", 1): "attack 5 cold_fire | block 5 cold_fire",
    ("altem_mages", 2): "special cold_fire_or_siege",  # this combat all your attacks become cold fire, or siege
    # Foresters also make forests, hills and swamps cost 1 less this turn: not modelled (no terrain modifiers).
    ("foresters", 1): "move 2",
    ("herbalist", 1): "special ready_unit 2",  # cards.py's ready_unit, up to level II
    ("illusionists", 1): "special illusion",  # one unfortified enemy does not attack this combat
    ("utem_guardsmen", 1): "block 4 + special swift_block 4",  # Block 4 that counts twice against Swift
    ("utem_swordsmen", 2): "attack 6 + special wound_self | block 6 + special wound_self",
}
# Mana costs the data leaves open or gets from one source only (decisions, see the rules-decisions section).
UNIT_MANA = {
    ("altem_guardians", 2): "green",  # printed card and blood8879; MKD has it free
    ("altem_mages", 2): "black",
}
# Extra slots: Altem Mages' cold fire attack/block is 7 when paid with blue or red mana.
UNIT_EXTRA = {
    "altem_mages": [("attack 7 cold_fire | block 7 cold_fire", "blue"),
                    ("attack 7 cold_fire | block 7 cold_fire", "red")],
}
ATOMS = {"attack": "attack", "block": "block", "ranged_attack": "ranged", "siege_attack": "siege",
         "influence": "influence", "move": "move", "heal": "heal"}


def _atom(effect: dict) -> str:
    """One JSON effect dict -> one vocabulary string (raises on a shape this script does not know)."""
    if "all_of" in effect:
        return " + ".join(_atom(e) for e in effect["all_of"])
    if "gain_mana_token" in effect:
        return f"mana {effect['gain_mana_token']}"
    if "gain_crystal" in effect:
        return f"crystal {effect['gain_crystal']}"
    for key, word in ATOMS.items():
        if key in effect:
            element = effect.get("element", "physical")
            return f"{word} {effect[key]}" + ("" if element in (None, "physical") else f" {element}")
    raise ValueError(f"no vocabulary for {effect!r}")


def unit_abilities(unit: dict) -> list[tuple[str, str | None]]:
    out = []
    for i, ability in enumerate(unit["abilities"]):
        key = (unit["id"], i)
        effect = {k: v for k, v in ability.items() if k != "mana_cost"}
        text = UNIT_SPECIALS[key] if key in UNIT_SPECIALS else _atom(effect)
        if text:
            out.append((text, UNIT_MANA.get(key, ability.get("mana_cost"))))
    out.extend(UNIT_EXTRA.get(unit["id"], []))
    return out


def enemy_row(e: dict) -> dict:
    (attack,) = e["attacks"]  # every base-game enemy has exactly one attack
    attack_text = f"summon {attack['summon']}" if "summon" in attack else f"{attack['value']} {attack['element']}"
    return {"id": e["id"], "name": e["name"].replace(" (gray)", ""), "colour": e["colour"], "copies": e["copies"],
            "armor": e["armor"],
            "attack": attack_text, "abilities": " ".join(e["abilities"]), "resistances": " ".join(e["resistances"]),
            "fame": e["fame"], "reputation": e["reputation_on_defeat"] or 0}


def unit_row(u: dict) -> dict:
    abilities = ";".join(text + (f"@{mana}" if mana else "") for text, mana in unit_abilities(u))
    return {"id": u["id"], "name": u["name"], "tier": u["tier"], "level": u["level"], "cost": u["influence_cost"],
            "armor": u["armor"], "copies": u["copies"], "recruit_sites": " ".join(u["recruit_sites"]),
            "resistances": " ".join(u["resistances"] or []), "abilities": abilities}


def _write(path: str, header: str, fields: list[str], rows: list[dict]) -> None:
    with open(path, "w", newline="") as fh:
        fh.write(header)
        writer = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main(source: str = DEFAULT_SOURCE) -> None:
    with open(os.path.join(source, "enemies.json")) as fh:
        enemies = json.load(fh)["base_game"]
    with open(os.path.join(source, "units.json")) as fh:
        units = [u for u in json.load(fh)["units"] if u.get("set") == "base"]
    _write(os.path.join(ENGINE, "enemies.csv"),
           "# Generated by tools/compile_combat.py from shared/data/mage-knight/enemies.json (base game). "
           "Do not edit.\n# attack: 'N element' or 'summon colour'; abilities and resistances space-separated; "
           "reputation on defeat.\n",
           ENEMY_FIELDS, [enemy_row(e) for e in enemies])
    _write(os.path.join(ENGINE, "units.csv"),
           "# Generated by tools/compile_combat.py from shared/data/mage-knight/units.json (base game). Do not edit.\n"
           "# abilities: ';'-separated effect strings (README vocabulary), '@colour' = mana paid to activate.\n",
           UNIT_FIELDS, [unit_row(u) for u in units])


if __name__ == "__main__":
    main(*sys.argv[1:])
