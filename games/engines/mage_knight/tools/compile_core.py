"""Regenerate heroes.csv, tactics.csv, skills.csv and levels.csv from the shared component data.

    python games/engines/mage_knight/tools/compile_core.py [/work/shared/data/mage-knight]

The engine reads only its own folder, so the facts it needs are compiled here once and committed; this script keeps
the derivation reproducible. Readings where the sources disagree: docs/rules-decisions/mage-knight.md, section
"Setup, rounds, Dummy Player, levels and scoring".
"""

from __future__ import annotations

import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SRC = "/work/shared/data/mage-knight"

# The Dummy Player's three crystals "matching the hero card's depiction": not in the shared data; taken from the hero
# cards as transcribed by mage-knight-digital (packages/core/src/types/hero.ts, crystalColors).
CRYSTALS = {"Arythea": "red red white", "Tovak": "blue red white", "Goldyx": "blue blue white",
            "Norowas": "green green white"}


def _load(src: str, name: str) -> dict:
    with open(os.path.join(src, name), encoding="utf-8") as f:
        return json.load(f)


def _write(name: str, fields: list[str], rows: list[dict]) -> None:
    with open(os.path.join(HERE, name), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def heroes(src: str) -> None:
    """The four base-game heroes: the standard 16-card deck with the base-game hero card replacing one card."""
    data = _load(src, "basic_actions.json")
    standard: list[str] = []
    for c in data["standard_deck"]:
        standard += [c["id"]] * c["copies"]
    by_name = {c["name"]: c["id"] for c in data["standard_deck"]}
    rows = []
    for h in data["hero_replacements"]:
        if not h["base_game_hero"]:
            continue
        rep = next(r for r in h["replacements"] if r.get("edition") == "base game")
        deck = list(standard)
        deck[deck.index(by_name[rep["replaces"]])] = rep["card_id"]
        assert len(deck) == 16
        rows.append({"id": h["hero"].lower(), "name": h["hero"], "replaces": by_name[rep["replaces"]],
                     "card": rep["card_id"], "crystals": CRYSTALS[h["hero"]], "deck": " ".join(deck)})
    _write("heroes.csv", ["id", "name", "replaces", "card", "crystals", "deck"], rows)


def tactics(src: str) -> None:
    rows = [{"id": t["id"], "name": t["name"], "time": t["time"], "number": t["turn_order"], "when": t["when"],
             "summary": t["summary"]} for t in _load(src, "tactics.json")["tactics"]]
    _write("tactics.csv", ["id", "name", "time", "number", "when", "summary"], rows)


_ATOMS = {"move": "move", "influence": "influence", "attack": "attack", "ranged_attack": "ranged",
          "siege_attack": "siege", "block": "block", "heal": "heal", "draw_cards": "draw", "reputation": "reputation",
          "fame": "fame", "take_wound": "wound"}


def effect_text(e) -> str | None:
    """An effect dict in the README's vocabulary, or None when it needs code (``special``)."""
    if not isinstance(e, dict) or len(e) == 0:
        return None
    if "choose_one" in e or "all_of" in e:
        sep, parts = (" | ", e["choose_one"]) if "choose_one" in e else (" + ", e["all_of"])
        texts = [effect_text(p) for p in parts]
        if any(t is None or " | " in t or " + " in t for t in texts):
            return None  # no parentheses in the vocabulary: a nested combination stays special
        return sep.join(texts)
    if "gain_mana_token" in e:
        return " + ".join([f"mana {e['gain_mana_token']}"] * e.get("amount", 1))
    if "gain_crystal" in e:
        return f"crystal {e['gain_crystal']}"
    keys = [k for k in e if k in _ATOMS]
    if len(keys) != 1 or set(e) - {keys[0], "element"}:
        return None
    k = keys[0]
    elem = e.get("element", "physical")
    return f"{_ATOMS[k]} {e[k]}" + ("" if elem == "physical" else f" {elem}")


def skills(src: str) -> None:
    """Each base hero's skill tokens for a competitive game: the cooperative interactive token is left out."""
    rows = []
    for h in _load(src, "skills.json")["heroes"]:
        if not h["base_game_hero"]:
            continue
        for s in h["skills"]:
            if "id" not in s or "cooperative" in s.get("summary", ""):
                continue
            text = effect_text(s["effect"]) or f"special {s['id']}"
            rows.append({"id": s["id"], "hero": h["hero"].lower(), "name": s["name"], "usage": s["usage"],
                         "phase": s["phase_restriction"], "effect": text, "summary": s["summary"]})
    _write("skills.csv", ["id", "hero", "name", "usage", "phase", "effect", "summary"], rows)


def levels(src: str) -> None:
    """Fame thresholds from the printed Fame track (3, 8, 15, 24, 35, 48, 63, 80, 99: blood8879), see the decisions."""
    rows = []
    for lv in _load(src, "levels.json")["levels"]:
        n = lv["level"]
        reward = "none" if n == 1 else ("skill advanced" if n % 2 == 0 else "token")
        rows.append({"level": n, "fame": lv["fame_threshold"]["b8"], "armor": lv["armor"],
                     "hand_limit": lv["hand_limit"], "command": lv["command_tokens"], "reward": reward})
    _write("levels.csv", ["level", "fame", "armor", "hand_limit", "command", "reward"], rows)


def main(argv: list[str]) -> int:
    src = argv[1] if len(argv) > 1 else DEFAULT_SRC
    heroes(src)
    tactics(src)
    skills(src)
    levels(src)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
