"""Final scoring: Fame plus the standard achievements (scenario data "scoring"); no titles in the solo variant."""

from __future__ import annotations

from games.engines.mage_knight import scoring
from games.engines.mage_knight.engine import MageKnightEngine

E = MageKnightEngine()


def _blank(players):
    s = E.new_game(players=players, options={}, seed=1)
    for seat in s["seats"]:
        seat["deck"], seat["hand"], seat["discard"], seat["play_area"] = [], [], [], []
    for h in s["map"]["hexes"].values():
        h["owner"] = None
    return s


def _own(s, seat, site):
    key = next(k for k, h in s["map"]["hexes"].items() if h.get("site") is None and h.get("owner") is None)
    s["map"]["hexes"][key].update(site=site, owner=seat)


def test_achievement_points():
    """"spell": 2, "advanced_action": 1; "unit_level": 1, a wounded unit "counts half its level, rounded down";
    "shield_on_adventure_site": 2; "artifact": 2, "crystal_pair": 1; "shield_on_keep_mage_tower_or_monastery": 2;
    "wound_in_deck": -2."""
    s = _blank(2)
    me = s["seats"][0]
    me["deck"] = ["fireball", "ice_bolt", "wound", "rage"]
    me["hand"] = ["wound", "banner_of_glory"]
    me["units"] = [{"id": "utem_guardsmen", "ready": True, "wounded": False, "uid": 1},
                   {"id": "peasants", "ready": True, "wounded": True, "uid": 2}]
    me["crystals"] = {"red": 3, "blue": 2, "green": 0, "white": 0}
    _own(s, 0, "dungeon")
    _own(s, 0, "keep")
    _own(s, 0, "monastery")
    p = scoring.achievement_points(s, 0)
    assert p == {"greatest_knowledge": 3, "greatest_leader": 2, "greatest_adventurer": 2, "greatest_loot": 4,
                 "greatest_conqueror": 4, "greatest_beating": -4}


def test_titles_and_ties():
    """"title_bonus": 3, "tie_bonus": 1 (no bonus when the best is 0); Greatest Beating: -3 / -1 each when tied."""
    pts = [{c: 0 for c in scoring.CATEGORIES} for _ in range(3)]
    pts[0]["greatest_knowledge"] = 4
    pts[1]["greatest_leader"] = pts[2]["greatest_leader"] = 2
    pts[1]["greatest_beating"] = -4
    pts[2]["greatest_beating"] = -2
    t = scoring.titles(pts)
    assert t[0] == {"greatest_knowledge": 3}
    assert t[1] == {"greatest_leader": 1, "greatest_beating": -3} and t[2] == {"greatest_leader": 1}


def test_fame_plus_achievements_and_shared_victory():
    """"winner": "most Fame after scoring; ties share the victory"."""
    s = _blank(2)
    s["seats"][0]["fame"], s["seats"][1]["fame"] = 7, 5
    s["seats"][1]["deck"] = ["fireball"]  # 2 + the Greatest Knowledge title 3
    r = scoring.score(s)
    assert r["scores"] == [7, 10] and r["ranks"] == [2, 1]
    s["seats"][0]["hand"] = ["ice_bolt", "swift_bolt", "fireball"]  # 4, title 3 ... seat 1 no title now
    r = scoring.score(s)
    assert r["breakdown"][0]["greatest_knowledge"] == 7 and r["scores"] == [14, 7]
    s["seats"][0]["fame"] = 0
    r = scoring.score(s)
    assert r["scores"] == [7, 7] and r["ranks"] == [1, 1]


def test_no_titles_in_solo():
    """"in the solo variant no titles are awarded"."""
    s = _blank(1)
    s["seats"][0]["fame"] = 4
    s["seats"][0]["deck"] = ["fireball", "wound"]
    r = scoring.score(s)
    assert r["scores"] == [4 + 2 - 2] and r["titles"] == [[]]
