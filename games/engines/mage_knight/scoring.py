"""Final scoring: Fame plus the standard achievements of the scenario data (scenario_first_reconnaissance.json).

Each achievement adds points per item; the title goes to the best seat (+3, or +1 to each tied seat; Greatest Beating
is -3 / -1 each for the most Wounds). No title for a best score of 0 (the data's tie notes, read for every title).
"In the solo variant no titles are awarded". Winner: "most Fame after scoring; ties share the victory".
"""

from __future__ import annotations

from . import cards, units

ADVENTURE = frozenset({"dungeon", "tomb", "monster_den", "spawning_grounds", "ancient_ruins"})
CONQUEST = frozenset({"keep", "mage_tower", "monastery"})
CATEGORIES = ("greatest_knowledge", "greatest_leader", "greatest_adventurer", "greatest_loot", "greatest_conqueror",
              "greatest_beating")
TITLE, TIE = 3, 1


def deed_cards(s: dict) -> list[str]:
    """Every deed card the seat owns (deck, hand, discard, play area, and any still under Sparing Power)."""
    return s["deck"] + s["hand"] + s["discard"] + s["play_area"] + s.get("stored", []) + s.get("set_aside", [])


def achievement_points(state: dict, seat: int) -> dict[str, int]:
    s = state["seats"][seat]
    owned = deed_cards(s)
    kinds = [cards.CARDS[c].kind if c in cards.CARDS else "" for c in owned]
    shields = {"adventure": 0, "conquest": 0}
    for h in state["map"]["hexes"].values():
        if h.get("owner") == seat and h.get("site"):
            if h["site"] in ADVENTURE:
                shields["adventure"] += 1
            elif h["site"] in CONQUEST:
                shields["conquest"] += 1
    leader = 0
    for u in s["units"]:
        lv = units.UNITS[u["id"]].level if u["id"] in units.UNITS else 1
        leader += lv // 2 if u.get("wounded") else lv
    banners = sum(1 for u in s["units"] if u.get("banner"))
    return {
        "greatest_knowledge": 2 * kinds.count("spell") + kinds.count("advanced"),
        "greatest_leader": leader,
        "greatest_adventurer": 2 * shields["adventure"],
        "greatest_loot": 2 * (kinds.count("artifact") + banners) + sum(s["crystals"].values()) // 2,
        "greatest_conqueror": 2 * shields["conquest"],
        "greatest_beating": -2 * kinds.count("wound"),
    }


def titles(points: list[dict[str, int]]) -> list[dict[str, int]]:
    """Title bonuses per seat and category (multiplayer only)."""
    out = [{} for _ in points]
    for cat in CATEGORIES:
        vals = [p[cat] for p in points]
        best = min(vals) if cat == "greatest_beating" else max(vals)
        if best == 0:
            continue
        winners = [i for i, v in enumerate(vals) if v == best]
        bonus = TITLE if len(winners) == 1 else TIE
        for i in winners:
            out[i][cat] = -bonus if cat == "greatest_beating" else bonus
    return out


def score(state: dict) -> dict:
    """The result dict stored in ``state["result"]`` (engine.py turns it into a base.Result)."""
    n = state["players"]
    points = [achievement_points(state, i) for i in range(n)]
    bonus = titles(points) if n > 1 else [{} for _ in points]
    breakdown, scores = [], []
    for i in range(n):
        b = {"fame": state["seats"][i]["fame"]}
        for cat in CATEGORIES:
            b[cat] = points[i][cat] + bonus[i].get(cat, 0)
        breakdown.append(b)
        scores.append(sum(b.values()))
    ranks = [1 + sum(1 for o in scores if o > sc) for sc in scores]
    return {"scores": scores, "ranks": ranks, "breakdown": breakdown,
            "titles": [sorted(t) for t in bonus]}
