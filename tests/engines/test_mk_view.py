"""What leaves the engine (README "View"; DESIGN: "Another player's hand ... and the order of decks are secret"):
changing any hidden thing changes no other seat's view."""

from __future__ import annotations

import copy
import json

import pytest

from games.engines.bots import RandomBot
from games.engines.mage_knight.engine import MageKnightEngine

E = MageKnightEngine()


def midgame(players, seed, picks=150):
    s = E.new_game(players=players, options={}, seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    for _ in range(picks):
        if E.is_over(s):
            break
        if E.is_step_complete(s):
            E.resolve(s)
        seat = E.pending(s)[0]
        E.apply(s, seat, bots[seat].choose(E, s, seat))
    return s


def scramble(s, keep_seat):
    """Every secret changed: other seats' hands, Sparing Power's stored cards, every deck's order, face-down enemies and ruins, skill piles."""
    t = copy.deepcopy(s)
    for i, seat in enumerate(t["seats"]):
        seat["deck"].reverse()
        seat["skill_pile"].reverse()
        if seat.get("stored"):  # face down under Sparing Power: hidden from its owner too
            seat["stored"] = ["canary_card"] * len(seat["stored"])
        if i != keep_seat:
            seat["hand"] = ["wound"] * len(seat["hand"])
    for key in ("advanced", "spells", "artifacts", "units_regular", "units_elite"):
        t["decks"][key].reverse()
    if t["dummy"]:
        t["dummy"]["deck"].reverse()
    deck = t["map"]["tile_deck"]  # a tile's back (countryside / core) is public: reorder within each kind
    country = [x for x in deck if x.startswith("countryside")]
    t["map"]["tile_deck"] = country[::-1] + [x for x in deck if not x.startswith("countryside")][::-1]
    for pile in t["enemies"]["piles"].values():
        pile.reverse()
    t["ruins"]["pile"].reverse()
    for h in t["map"]["hexes"].values():
        for tok in h["enemies"]:
            if not tok["face_up"]:
                tok["id"] = "canary_enemy"
        if h.get("ruins") and not h["ruins"].get("face_up"):
            h["ruins"]["id"] = "canary_ruins"
    return t


@pytest.mark.parametrize("players,seed", [(1, 1), (2, 2), (3, 3), (4, 4)])
def test_no_secret_reaches_another_seat(players, seed):
    for picks in (0, 60, 200):
        s = midgame(players, seed, picks)
        for viewer in [None, *range(players)]:
            keep = viewer if viewer is not None else -1
            a = json.dumps(E.view(s, viewer), sort_keys=True)
            b = json.dumps(E.view(scramble(s, keep), viewer), sort_keys=True)
            assert a == b
            assert "canary" not in b and "skill_pile" not in b and "tile_deck" not in b


def test_the_viewer_sees_their_own_hand_only():
    s = midgame(2, 5, 40)
    for seat in (0, 1):
        v = E.view(s, seat)
        assert [c["id"] for c in v["me"]["hand"]] == s["seats"][seat]["hand"]
        assert all("hand" not in h for h in v["heroes"])
        assert v["heroes"][1 - seat]["hand_count"] == len(s["seats"][1 - seat]["hand"])
    assert E.view(s, None)["me"] is None


def test_face_down_enemies_show_only_their_colour():
    """Face-down enemy tokens: only their colour (the token's back) is public."""
    # The setup tiles (countryside 1 and 2) hold no garrison: a game where a third tile was explored.
    s = midgame(4, 4, 600)
    shown = [e for h in E.view(s, 0)["map"]["hexes"] for e in h["enemies"]]
    hidden = [e for e in shown if not e["face_up"]]
    assert hidden and all(set(e) == {"colour", "face_up"} for e in hidden)
    up = [e for e in shown if e["face_up"]]
    assert all({"id", "name", "armor", "attacks"} <= set(e) for e in up)


def test_the_view_has_the_readme_shape():
    v = E.view(E.new_game(players=1, options={}, seed=7), 0)
    for key in ("round", "rounds_total", "time", "phase", "current", "order", "end_announced_by", "over", "result",
                "map", "heroes", "dummy", "source", "offers", "tactics", "turn", "combat", "me"):
        assert key in v
    assert set(v["dummy"]) >= {"hero", "deck_count", "crystals", "tactic"} and "deck" not in v["dummy"]
    assert len(v["source"]) == 3 and v["map"]["tiles_left"] > 0
