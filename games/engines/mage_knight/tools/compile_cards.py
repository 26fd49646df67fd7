"""Regenerate ../cards.csv from the shared component data (/work/shared/data/mage-knight).

Run: python games/engines/mage_knight/tools/compile_cards.py [data_dir]

One row per deed card of the base set: the standard 16-card deck, the four base heroes' replacement
cards, the base advanced actions, spells and artifacts, and the wound. Effects are written in the
README's effect vocabulary. Structured effects convert mechanically; effects the sources keep as an
MKD tree (or that the vocabulary cannot say) come from SIMPLIFIED below: either a `special NAME`
that an effect module (specials_*.py, banners.py) implements, or the nearest honest vocabulary effect. Every SIMPLIFIED row with a
non-empty reason is listed in docs/rules-decisions/mage-knight.md ("Cards, mana and the turn").
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3]))  # the repo root, for the describer in card_text.py

# importing the package registers every special (and loads the current cards.csv)
from games.engines.mage_knight import card_text  # noqa: E402

OUT = HERE.parent / "cards.csv"
DEFAULT_DATA = Path("/work/shared/data/mage-knight")

BASE_HEROES = ("Arythea", "Tovak", "Goldyx", "Norowas")

# id -> (basic, powered, reason the effect differs from the printed card; "" = exact).
# Specials are implemented in the effect modules (specials_registry.SPECIALS).
SIMPLIFIED: dict[str, tuple[str, str, str]] = {
    # standard deck
    "crystallize": ("special crystallize", "crystal red | crystal blue | crystal green | crystal white", ""),
    "mana_draw": ("special extra_die", "special mana_draw 2", ""),
    "concentration": ("mana blue | mana white | mana red", "special concentration 2", ""),
    "improvisation": ("special discard_card + (move 3 | influence 3 | attack 3 | block 3)",
                      "special discard_card + (move 5 | influence 5 | attack 5 | block 5)", ""),
    # hero cards
    "tovak_cold_toughness": ("attack 2 ice | block 3 ice", "block 5 ice + special cold_toughness", ""),
    "goldyx_will_focus": ("mana blue | mana white | mana red | crystal green", "special concentration 3", ""),
    "norowas_noble_manners": ("influence 2 + special noble_manners 1 0", "influence 4 + special noble_manners 1 1",
                              ""),
    # advanced actions
    "crystal_mastery": ("special crystal_mastery", "special crystal_return", ""),
    "frost_bridge": ("move 2 + special terrain_set swamp 1",
                     "move 4 + special terrain_set swamp 1 + special terrain_set lake 1", ""),
    "ice_shield": ("block 3 ice", "block 3 ice + special ice_shield", ""),
    "magic_talent": ("special magic_talent", "special learn_spell", ""),
    "pure_magic": ("special pure_magic 4", "special pure_magic 7", ""),
    "steady_tempo": ("move 2 + special steady_tempo 0", "move 4 + special steady_tempo 1", ""),
    "ambush": ("move 2 + special ambush 1 2", "move 4 + special ambush 2 4", ""),
    "in_need": ("special in_need 3 1", "special in_need 5 2", ""),  # MKD's 3 / 5 (rules-decisions: In Need)
    "path_finding": ("move 2 + special terrain_minus all 1 2", "move 4 + special terrain_set all 2", ""),
    "refreshing_walk": ("move 2 + heal 1", "move 4 + heal 2", ""),
    "regeneration": ("heal 1 + special ready_unit 2", "heal 2 + special ready_unit 3", ""),
    "training": ("special training", "special training_hand", ""),
    "blood_ritual": ("wound 1 + crystal red + mana any",
                     "wound 1 + mana any + mana any + mana any + special token_to_crystal 3", ""),
    "decompose": ("special decompose", "special decompose_powered", ""),
    "into_the_heat": ("special into_the_heat 2", "special into_the_heat 3", ""),
    "maximal_effect": ("special maximal_effect 3 0", "special maximal_effect 2 1", ""),
    "agility": ("special agility 2 0", "special agility 4 1", ""),
    "diplomacy": ("special diplomacy 2 0", "special diplomacy 4 1", ""),
    "heroic_tale": ("influence 3 + special recruit_reputation", "influence 6 + special recruit_glory", ""),
    "learning": ("influence 2 + special learning 6 0", "influence 4 + special learning 9 1", ""),
    "mana_storm": ("special mana_storm", "special mana_storm_powered", ""),
    "song_of_wind": ("move 2 + special terrain_minus open 1 0",
                     "move 2 + special terrain_minus open 2 0 + special lake_crossing", ""),
    "chill": ("special chill", "special lethal_chill", ""),
    "mana_bolt": ("special mana_bolt 8", "special mana_bolt 11", ""),
    "mana_claim": ("special mana_claim 0", "special mana_claim 1", ""),
    "space_bending": ("special space_bending", "special time_bending", ""),
    "energy_flow": ("special ready_unit 4 + special energy_spend 2 1",
                    "special ready_unit 4 + special heal_unit + special energy_spend 3 0", ""),
    "meditation": ("special meditation", "special trance", ""),
    "restoration": ("special restoration", "special restoration + special ready_budget 3 5", ""),
    "tremor": ("special tremor_one | special tremor_all", "special earthquake_one | special earthquake_all", ""),
    "underground_travel": ("special underground 0", "special underground 1", ""),
    "burning_shield": ("block 4 fire + special burning_shield", "block 4 fire + special exploding_shield", ""),
    "demolish": ("special demolish", "special disintegrate + special disintegrate_others", ""),
    "fireball": ("ranged 5 fire", "wound 1 + siege 8 fire", ""),
    "flame_wall": ("attack 5 fire | block 7 fire", "special flame_wave 5 7 2", ""),
    "mana_meltdown": ("special meltdown", "special radiance", ""),
    "call_to_arms": ("special call_to_arms", "special free_recruit", ""),
    "expose": ("special expose + ranged 2",
               "(special mass_expose_fortifications | special mass_expose_resistances) + ranged 3", ""),
    "mind_read": ("special mind_read 0", "special mind_read 1", ""),
    "whirlwind": ("special whirlwind", "special tornado", ""),
    "wings_of_wind": ("special flight", "special wings_of_night", ""),
    "snowstorm": ("ranged 5 ice", "wound 1 + siege 8 ice", ""),
    # artifacts (powered = thrown away)
    "sapphire_ring": ("mana blue + crystal blue + fame 1", "special endless_mana blue", ""),
    "emerald_ring": ("mana green + crystal green + fame 1", "special endless_mana green", ""),
    "ruby_ring": ("mana red + crystal red + fame 1", "special endless_mana red", ""),
    "diamond_ring": ("mana white + crystal white + fame 1", "special endless_mana white", ""),
    "amulet_of_darkness": ("mana any + special amulet dark", "mana any + mana any + mana any + special amulet dark", ""),
    "amulet_of_the_sun": ("mana gold + special amulet sun", "mana gold + mana gold + mana gold + special amulet sun", ""),
    "banner_of_courage": ("special banner courage", "special ready_all_units", ""),
    "banner_of_fear": ("special banner fear", "special fear_all 3", ""),
    "banner_of_glory": ("special banner glory", "special glory_all", ""),
    "banner_of_protection": ("special banner protection", "special protection_all", ""),
    "book_of_wisdom": ("special training_hand", "special book_spell", ""),
    "endless_bag_of_gold": ("influence 4 + fame 2", "influence 9 + fame 3", ""),
    "endless_gem_pouch": ("special gem_pouch", "mana red + mana blue + mana green + mana white + special "
                          "day_night_token",
                          ""),
    "golden_grail": ("special grail 2 0", "special grail 6 1", ""),
    "horn_of_wrath": ("siege 5 + special risk_wound 1", "siege 5 + special horn 5", ""),
    "sword_of_justice": ("special sword_justice 3", "special sword_powered", ""),
}

ELEMENT_WORD = {"physical": "", "fire": " fire", "ice": " ice", "cold_fire": " cold_fire"}


class NotVocabulary(Exception):
    pass


def to_vocab(e, top: bool = True) -> str:
    """A structured effect (the data's compact dict) as a vocabulary string; raise if it has no form."""
    if not isinstance(e, dict):
        raise NotVocabulary(repr(e))
    if "mkd_effect" in e or "special" in e or "if" in e or "none" in e:
        raise NotVocabulary(json.dumps(e)[:60])
    if "choose_one" in e:
        s = " | ".join(to_vocab(x, False) for x in e["choose_one"])
        return s if top else f"({s})"
    if "all_of" in e:
        s = " + ".join(to_vocab(x, False) for x in e["all_of"])
        return s if top else f"({s})"
    elem = ELEMENT_WORD.get(e.get("element", "physical"), "")
    for key, word in (("attack", "attack"), ("ranged_attack", "ranged"), ("siege_attack", "siege"),
                      ("block", "block")):
        if key in e:
            return f"{word} {e[key]}{elem}"
    for key, word in (("move", "move"), ("influence", "influence"), ("heal", "heal"), ("draw_cards", "draw"),
                      ("reputation", "reputation"), ("fame", "fame"), ("take_wound", "wound")):
        if key in e:
            return f"{word} {e[key]}"
    if "gain_mana_token" in e:
        return " + ".join([f"mana {e['gain_mana_token']}"] * int(e.get("amount", 1)))
    if "gain_crystal" in e:
        return f"crystal {e['gain_crystal']}"
    raise NotVocabulary(json.dumps(e)[:60])


def _text(card: dict, basic: str, powered: str, kind: str) -> str:
    """Plain English from the effects the engine plays (card_text.card_text): the same describer as the option
    labels, so what a card says is what it does (the data's summaries describe the printed cards, which the
    simplified ones differ from)."""
    colour = card.get("colour") if card.get("colour") in ("red", "blue", "green", "white") else ""
    return card_text.card_text(kind, colour, card_text.parse(basic) if basic else None,
                               card_text.parse(powered) if powered else None, card.get("powered_name") or "")


def row(card: dict, kind: str, copies: int) -> dict:
    cid = card["id"]
    if cid in SIMPLIFIED:
        basic, powered, _ = SIMPLIFIED[cid]
    else:
        basic, powered = to_vocab(card["basic"]), to_vocab(card["powered"])
    colour = card.get("colour") or ""
    if colour not in ("red", "blue", "green", "white"):
        colour = ""
    return {"id": cid, "name": card["name"], "kind": kind, "colour": colour, "copies": copies,
            "basic": basic, "powered": powered, "text": _text(card, basic, powered, kind)}


def compile_rows(data: Path) -> list[dict]:
    rows: list[dict] = []
    basic = json.loads((data / "basic_actions.json").read_text())
    for c in basic["standard_deck"]:
        rows.append(row(c, "basic", int(c.get("copies") or 1)))
    wanted = {r["card_id"]: r["replaces"] for h in basic["hero_replacements"] if h["hero"] in BASE_HEROES
              for r in h["replacements"] if r.get("edition") == "base game"}
    for c in basic["hero_cards"]:
        if c["id"] in wanted:
            r = row(c, "basic", 1)
            r["text"] = f"{c.get('hero')}'s card (replaces {wanted[c['id']]}). " + r["text"]
            rows.append(r)
    for fname, kind in (("advanced_actions.json", "advanced"), ("spells.json", "spell"),
                        ("artifacts.json", "artifact")):
        for c in json.loads((data / fname).read_text())["cards"]:
            if c.get("set") == "base":
                rows.append(row(c, kind, int(c.get("copies") or 1)))
    rows.append({"id": "wound", "name": "Wound", "kind": "wound", "colour": "", "copies": 0, "basic": "",
                 "powered": "", "text": card_text.card_text("wound", "", None, None)})
    return rows


def main(argv: list[str]) -> None:
    data = Path(argv[1]) if len(argv) > 1 else DEFAULT_DATA
    rows = compile_rows(data)
    with OUT.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["id", "name", "kind", "colour", "copies", "basic", "powered", "text"],
                           lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} cards -> {OUT}")


if __name__ == "__main__":
    main(sys.argv)
