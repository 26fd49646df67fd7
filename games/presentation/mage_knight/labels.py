"""Words and colours for Mage Knight's pieces: terrains, sites, enemy and mana colours, seats, tactics, scoring.

Names follow the rulebook's words (/work/shared/rules/mage-knight-rules.txt) and the component data; an id the
tables do not know is shown as its words ("monster_den" -> "Monster den"), so a newer engine never breaks a page.
"""

from __future__ import annotations

from typing import Any

# terrain -> (name, fill colour, day cost, night cost); None cost: impassable (rules: "Spaces marked with 'X'").
TERRAINS = {
    "plains": ("Plains", "#c8df8e", 2, 2),
    "hills": ("Hills", "#d2b377", 3, 3),
    "forest": ("Forest", "#5f9a52", 3, 5),
    "wasteland": ("Wasteland", "#a59a80", 4, 4),
    "desert": ("Desert", "#ecd592", 5, 3),
    "swamp": ("Swamp", "#6f8f74", 5, 5),
    "lake": ("Lake", "#7fb4e0", None, None),
    "mountain": ("Mountain", "#9a9590", None, None),
    "ocean": ("Ocean", "#3f79b5", None, None),
    "city": ("City", "#d9d2c5", 2, 2),
}
UNKNOWN_TERRAIN = ("Unknown", "#dddddd", None, None)

# site -> (name, short label on the map)
SITES = {
    "village": ("Village", "Village"), "monastery": ("Monastery", "Monast."), "keep": ("Keep", "Keep"),
    "mage_tower": ("Mage Tower", "Tower"), "city": ("City", "City"), "dungeon": ("Dungeon", "Dungeon"),
    "tomb": ("Tomb", "Tomb"), "monster_den": ("Monster Den", "Den"), "spawning_grounds": ("Spawning Grounds", "Spawn"),
    "ancient_ruins": ("Ancient Ruins", "Ruins"), "mine": ("Crystal Mine", "Mine"),
    "magical_glade": ("Magical Glade", "Glade"), "portal": ("Portal", "Portal"),
    "orc_marauders": ("Marauding Orcs", "Orcs"), "draconum": ("Draconum", "Draconum"),
}

# enemy token backs (rules: "seven face-down piles"; the data's colours)
ENEMY_COLOURS = {"green": "#3f9d5a", "gray": "#8a8f98", "grey": "#8a8f98", "brown": "#8b5a2b",
                 "violet": "#7b4fa0", "white": "#f2f2ee", "red": "#c0392b"}
ENEMY_COLOUR_NAMES = {"green": "Orcs (green)", "gray": "Keep garrison (grey)", "grey": "Keep garrison (grey)",
                      "brown": "Dungeon monster (brown)", "violet": "Mage Tower (violet)",
                      "white": "City garrison (white)", "red": "Draconum (red)"}
MANA = {"red": "#d64545", "blue": "#3a72d6", "green": "#3f9d5a", "white": "#f4f1ea", "gold": "#d8b13a",
        "black": "#2a2a2e"}
CARD_KINDS = {"basic": "Basic action", "advanced": "Advanced action", "spell": "Spell", "artifact": "Artifact",
              "wound": "Wound"}
ELEMENTS = {"physical": "", "fire": "fire", "ice": "ice", "cold_fire": "cold fire"}

# One colour per seat for figures and shields; the Dummy Player's is grey.
SEAT_COLOURS = ("#c0392b", "#2e6fd0", "#2f9d57", "#d89b12")
DUMMY_COLOUR = "#7d7f88"

TACTICS = {
    "early_bird": ("Early Bird", 1), "rethink": ("Rethink", 2), "mana_steal": ("Mana Steal", 3),
    "planning": ("Planning", 4), "great_start": ("Great Start", 5), "the_right_moment": ("The Right Moment", 6),
    "from_the_dusk": ("From the Dusk", 1), "long_night": ("Long Night", 2), "mana_search": ("Mana Search", 3),
    "midnight_meditation": ("Midnight Meditation", 4), "preparation": ("Preparation", 5),
    "sparing_power": ("Sparing Power", 6),
}

# Result.breakdown keys (scoring.py: Fame + the scenario's standard achievements) in the rulebook's words.
SCORE_LABELS = {
    "fame": "Fame", "greatest_knowledge": "Greatest Knowledge", "greatest_leader": "Greatest Leader",
    "greatest_adventurer": "Greatest Adventurer", "greatest_loot": "Greatest Loot",
    "greatest_conqueror": "Greatest Conqueror", "greatest_beating": "Greatest Beating",
    "titles": "Titles",
}

PHASES = {"tactics": "Choosing tactics", "turn": "Turns", "over": "Game over"}
COMBAT_PHASES = {"reveal": "Reveal enemies", "ranged": "Ranged and siege attacks", "ranged_siege": "Ranged and siege attacks",
                 "block": "Block", "damage": "Assign damage", "attack": "Attack", "outcome": "Outcome"}


def words(ident: Any) -> str:
    """An id in words: "monster_den" -> "Monster den"."""
    text = str(ident).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def terrain(t: str | None) -> tuple[str, str, int | None, int | None]:
    return TERRAINS.get(t or "", (words(t or "unknown"), UNKNOWN_TERRAIN[1], None, None))


def site_name(site: str | None) -> str:
    return SITES[site][0] if site in SITES else words(site or "")


def site_short(site: str | None) -> str:
    return SITES[site][1] if site in SITES else words(site or "")[:8]


def seat_colour(seat: int | None) -> str:
    if not isinstance(seat, int) or seat < 0:
        return DUMMY_COLOUR
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def tactic(t: Any) -> dict[str, Any] | None:
    """A tactic (an id, or a dict with id/name/number) as {"id", "name", "number"}."""
    if t is None:
        return None
    if isinstance(t, dict):
        tid = t.get("id")
        name, number = TACTICS.get(tid, (t.get("name") or words(tid), t.get("number") or t.get("turn_order")))
        return {"id": tid, "name": t.get("name") or name, "number": t.get("number") or t.get("turn_order") or number}
    name, number = TACTICS.get(str(t), (words(t), None))
    return {"id": t, "name": name, "number": number}


def score_label(category: str) -> str:
    return SCORE_LABELS.get(category, words(category))


def attack_text(attack: Any) -> str:
    """An enemy attack ({"value", "element"} or {"summon": colour} or a number) in words: "4 fire", "summons"."""
    if isinstance(attack, dict):
        if "summon" in attack:
            return "summons a " + str(attack["summon"] or "brown") + " enemy"
        element = ELEMENTS.get(attack.get("element") or "physical", words(attack.get("element")))
        return f"{attack.get('value', '?')}" + (f" {element}" if element else "")
    return str(attack)


ELEMENT_LETTERS = {"physical": "", "fire": "F", "ice": "I", "cold_fire": "CF"}


def attacks_short(attacks: Any) -> str:
    """Attacks for a token's face: "3", "4F", "2/5I"; a summoner "S" (the legend and the title say more)."""
    if not isinstance(attacks, (list, tuple)):
        attacks = [attacks]
    out = []
    for a in attacks:
        if isinstance(a, dict):
            out.append("S" if "summon" in a else f"{a.get('value', '?')}{ELEMENT_LETTERS.get(a.get('element') or '', '')}")
        else:
            out.append(str(a))
    return "/".join(out)


def attacks_text(attacks: Any) -> str:
    if attacks is None:
        return ""
    if not isinstance(attacks, (list, tuple)):
        attacks = [attacks]
    return ", ".join(attack_text(a) for a in attacks) or "none"


def elem_total(pool_part: Any) -> int:
    """A pool entry (a number, or {element: n}) summed."""
    if isinstance(pool_part, dict):
        return sum(int(v) for v in pool_part.values() if isinstance(v, (int, float)))
    return int(pool_part or 0)


def elem_text(pool_part: Any) -> str:
    """{"physical": 3, "fire": 2} -> "3 + 2 fire"; a number as is."""
    if isinstance(pool_part, dict):
        parts = [f"{n}" + (f" {ELEMENTS.get(e, words(e))}" if ELEMENTS.get(e, e) else "")
                 for e, n in pool_part.items() if n]
        return " + ".join(parts) or "0"
    return str(pool_part or 0)
