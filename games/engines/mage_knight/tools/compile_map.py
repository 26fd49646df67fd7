"""Regenerate ../tiles.csv and ../sites.json from the shared component data (/work/shared/data/mage-knight).

Run: python games/engines/mage_knight/tools/compile_map.py [data_dir]

tiles.csv: one row per hex of the base tiles (starting A and B, countryside 1-11, core 1-4, city cores 5-8),
with the Move cost of its terrain by Day and by Night (empty = inaccessible). Terrain costs follow the
rulebook transcription where the sources disagree (only Desert and Forest change between Day and Night;
MKD's higher night costs for plains, hills and wasteland are not used), and a city space always costs 2
("The cost to move into a city is always 2, regardless of the terrain shown on its space").

sites.json: the site facts the engine uses (fortified, safe space, what is placed when revealed, enemies
drawn on entry, conquest rewards, interactions, start/end of turn effects), the two rampaging enemy types,
the base ruins tokens and the city garrison table. Prose and source notes are dropped.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT_TILES = HERE.parent / "tiles.csv"
OUT_SITES = HERE.parent / "sites.json"
DEFAULT_DATA = Path("/work/shared/data/mage-knight")

TILE_IDS = (["starting_a", "starting_b"] + [f"countryside_{n}" for n in range(1, 12)]
            + [f"core_{n}" for n in range(1, 9)])
KINDS = {"starting": "starting", "countryside": "countryside", "core_non_city": "core", "core_city": "city"}
POSITIONS = ("C", "NE", "E", "SE", "SW", "W", "NW")
CITY_MOVE_COST = 2  # rulebook transcription: terrain._about.rules_from_rulebook_transcription.city_space_move_cost
COLUMNS = ("tile", "kind", "position", "dq", "dr", "terrain", "day_cost", "night_cost", "site", "mine_colour",
           "city_colour", "rampaging")

# The ruins tokens of the base game (yav ids 1-12; 13-15 are Lost Legion). Enemy-token rewards keep the data's
# chosen values; "crystals4" is renamed "four_crystals" (one crystal of each basic colour, as the token shows).
BASE_RUINS = tuple(str(n) for n in range(1, 13))
REWARD_NAMES = {"crystals4": "four_crystals"}


def _cost(value):
    return "" if value is None else str(value)


def compile_tiles(data: Path) -> list[dict]:
    terrains = {t["terrain"]: t for t in json.loads((data / "terrain.json").read_text())["terrains"]}
    tiles = {t["id"]: t for t in json.loads((data / "tiles.json").read_text())["tiles"]}
    rows = []
    for tile_id in TILE_IDS:
        tile = tiles[tile_id]
        by_pos = {h["position"]: h for h in tile["hexes"]}
        if set(by_pos) != set(POSITIONS):
            raise SystemExit(f"{tile_id}: expected the seven positions, got {sorted(by_pos)}")
        for pos in POSITIONS:
            h = by_pos[pos]
            terrain = terrains[h["terrain"]]
            day, night = terrain["day_cost"], terrain["night_cost"]
            if h["site"] == "city":
                day = night = CITY_MOVE_COST
            rows.append({
                "tile": tile_id, "kind": KINDS[tile["kind"]], "position": pos, "dq": h["q"], "dr": h["r"],
                "terrain": h["terrain"], "day_cost": _cost(day), "night_cost": _cost(night),
                "site": h["site"] or "", "mine_colour": h.get("mine_colour") or "",
                "city_colour": h.get("city_colour") or tile.get("city_colour") or "" if h["site"] == "city" else "",
                "rampaging": " ".join(h["rampaging"] or []),
            })
    return rows


def _reward_list(reward: dict) -> list[str]:
    out: list[str] = []
    for key, value in reward.items():
        if key == "crystal_rolls":
            out += ["crystal_roll"] * value
        elif key == "roll_mana_die":
            out.append("dungeon_roll")  # gold or black: a Spell, any other colour: an Artifact
        else:
            out += [key] * int(value)
    return out


def compile_sites(data: Path) -> dict:
    raw = json.loads((data / "sites.json").read_text())
    sites = {}
    for s in raw["sites"]:
        sid = s["id"]
        safe = s.get("safe_space", True)
        if sid == "keep":
            safe = "if_owned"  # "only when conquered by you"
        elif sid in ("mage_tower", "city"):
            safe = "if_conquered"
        elif safe is True or not s.get("fortified"):
            safe = "always"  # not fortified: an adventure site space is an ordinary space until entered
        on_reveal = None
        reveal = s.get("on_reveal") or {}
        if "place_enemy" in reveal:
            p = reveal["place_enemy"]
            on_reveal = {"enemies": [p["colour"]] * p["count"], "face_up": p["face_up"],
                         "revealed_by_day_when_adjacent": True}
        elif "add_advanced_action_to_unit_offer" in reveal:
            on_reveal = {"advanced_action_to_unit_offer": reveal["add_advanced_action_to_unit_offer"]}
        elif reveal.get("place_ruins_token"):
            on_reveal = {"ruins_token": True, "face_up_by_day": True}
        elif "garrison" in reveal:
            on_reveal = {"city_garrison": True}
        entry = None
        if s.get("enemies") and not s["enemies"].get("only_if_burned"):
            e = s["enemies"]
            rules = s.get("combat_rules") or {}
            entry = {"enemies": [e["colour"]] * e["count"], "units_allowed": rules.get("units_allowed", True),
                     "night_rules": rules.get("night_rules", False),
                     "discard_undefeated": sid in ("dungeon", "tomb"),
                     "replace_defeated": sid == "spawning_grounds"}
        conquest = None
        if s.get("conquest"):
            conquest = {"shield": s["conquest"].get("mark_shield", False),
                        "reward": _reward_list(s["conquest"].get("reward", {}))}
            if sid == "keep":
                conquest["owner"] = True
        interactions = s.get("interactions")
        if isinstance(interactions, list):
            interactions = [dict(i) for i in interactions]
        entry_out = {
            "name": s["name"], "category": s["category"], "fortified": bool(s.get("fortified")), "safe": safe,
            "on_reveal": on_reveal, "on_entry": entry, "conquest": conquest, "interactions": interactions or [],
            "adventure": s["category"] == "adventure",
            "inhabited": s["category"] == "inhabited",
            "start_of_turn": s.get("start_of_turn"), "end_of_turn": s.get("end_of_turn"),
        }
        if s.get("assault"):  # "Every time you make an assault, you lose 1 Reputation" (keep, mage tower, city)
            entry_out["assault"] = {"reputation": s["assault"].get("reputation", -1)}
        if s.get("passive"):  # the keep's hand limit bonus
            entry_out["passive"] = s["passive"]
        if sid == "monastery":
            burn = next(i for i in s["interactions"] if i["type"] == "burn")
            entry_out["burn"] = {"reputation": burn["reputation"], "enemies": [burn["fight"]["colour"]],
                                 "units_allowed": burn["units_allowed"], "reward": ["artifact"]}
        if sid == "city":
            entry_out["move_cost"] = s["move_cost"]
            entry_out["colour_bonuses"] = s["colour_bonuses"]
            entry_out["garrison"] = s["city_garrison_by_colour_and_level"]
        if sid == "ancient_ruins":
            tokens = []
            for t in s["ruins_tokens"]:
                if t["yav_id"] not in BASE_RUINS:
                    continue
                token = {"id": f"ruins_{t['yav_id']}", "kind": t["kind"]}
                if t["kind"] == "altar":
                    token["pay_mana"] = t["pay_mana"]
                    token["fame"] = t["reward"]["fame"]
                else:
                    token["enemies"] = t["enemies"]
                    token["reward"] = [REWARD_NAMES.get(r, r) for r in t["reward"]]
                tokens.append(token)
            entry_out["tokens"] = tokens
            # "defeating the last one gives the token reward and a shield"; an altar: pay, shield and Fame.
            entry_out["on_entry"] = {"enemies_from_token": True, "units_allowed": True, "night_rules": False,
                                     "discard_undefeated": False, "replace_defeated": False}
            entry_out["conquest"] = {"shield": True, "reward": ["ruins_token"]}
        if sid == "portal":
            entry_out["many_heroes"] = True
        sites[sid] = entry_out
    rampaging = {}
    for r in raw["rampaging_enemies"]:
        rampaging[r["enemy_colour"]] = {"id": r["id"], "name": r["name"],
                                         "reputation": r["reward"]["reputation_per_token"]}
    return {"_about": "Compiled by tools/compile_map.py from shared/data/mage-knight/sites.json; do not edit.",
            "sites": sites, "rampaging": rampaging}


def main(argv: list[str]) -> None:
    data = Path(argv[1]) if len(argv) > 1 else DEFAULT_DATA
    rows = compile_tiles(data)
    with OUT_TILES.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    OUT_SITES.write_text(json.dumps(compile_sites(data), indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(rows)} hexes to {OUT_TILES.name} and {OUT_SITES.name}")


if __name__ == "__main__":
    main(sys.argv)
