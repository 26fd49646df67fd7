"""Mage Knight end of turn (endturn.py): "End of Turn" and the rewards claimed then."""

from __future__ import annotations

from games.engines.mage_knight import endturn, site_actions, turn
from tests.engines.test_mk_turn import cell, ids, make_state, pick, play, started


def test_forced_withdrawal_one_wound_per_space():
    """"If you are not on a safe space ..., backtrack your move until you are on a safe space, taking one
    Wound per space." Two other heroes stand on the last two spaces of the path."""
    st = make_state(players=3, hand=("march",), deck=())
    st["seats"][1]["pos"] = "1,0"
    st["seats"][2]["pos"] = "2,0"
    st["map"]["hexes"]["2,0"] = cell()
    turn.start(st, 0, [])
    st["seats"][0]["pos"] = "2,0"
    st["turn"]["moved_from"] = ["0,0", "1,0"]
    st["turn"]["started"] = True
    pick(st, "t-end")
    s = st["seats"][0]
    assert s["pos"] == "0,0"
    assert s["hand"].count("wound") == 2


def test_no_withdrawal_on_a_safe_space():
    st = started(hand=("march",), deck=())
    st["turn"]["moved_from"] = ["1,0"]
    pick(st, "t-end")
    assert st["seats"][0]["pos"] == "0,0" and "wound" not in st["seats"][0]["hand"]


def test_played_cards_are_discarded_and_the_hand_refilled():
    """End of turn: played cards to the discard pile; draw up to the hand limit."""
    st = started(hand=("march", "rage"), deck=("a1", "a2", "a3", "a4", "a5", "a6"))
    st["seats"][0]["deck"] = ["swiftness"] * 6
    play(st, "march", "t-basic")
    pick(st, "t-end")
    s = st["seats"][0]
    assert s["discard"] == ["march"] and s["play_area"] == []
    assert len(s["hand"]) == 5 and len(s["deck"]) == 2


def test_crystal_mine_gives_a_crystal():
    """Crystal mine: end of turn, a crystal of its colour, "unless you already hold 3"."""
    st = started(hexes={"0,0": cell("hills", "mine", mine_colour="blue")}, deck=())
    pick(st, "t-end")
    assert st["seats"][0]["crystals"]["blue"] == 1
    st = started(hexes={"0,0": cell("hills", "mine", mine_colour="blue")}, deck=(), crystals={"blue": 3})
    pick(st, "t-end")
    assert st["seats"][0]["crystals"]["blue"] == 3


def test_magical_glade_throws_away_a_wound():
    st = started(hexes={"0,0": cell("forest", "magical_glade")}, hand=("wound", "march"), deck=())
    assert st["turn"]["tokens"] == ["gold"]  # start of turn by Day
    pick(st, "t-end")
    assert "wound" not in st["seats"][0]["hand"]


def test_spell_reward_is_chosen_from_the_offer_and_drawn():
    """"Fortified Site: ... Claim reward (e.g., a Spell for a Mage Tower) at turn end" -- to the top of the deck."""
    st = started(hand=("march",), deck=())
    st["turn"]["rewards"] = ["spell"]
    st["turn"]["started"] = True
    pick(st, "t-end")
    assert sorted(ids(st)) == ["t-reward:fireball", "t-reward:snowstorm", "t-reward:whirlwind"]
    assert turn.default(st, 0) in ids(st)
    pick(st, "t-reward:snowstorm")
    assert st["turn"] is None
    assert "snowstorm" in st["seats"][0]["hand"]  # top of the deck, then drawn up to the hand limit
    assert "snowstorm" not in st["offers"]["spells"]


def test_artifact_reward_comes_from_the_artifact_deck():
    """"Monastery: Mark with a shield. Claim an Artifact at turn end." """
    st = started(hand=("march",), deck=())
    st["turn"]["rewards"] = ["artifact"]
    pick(st, "t-end")
    assert "golden_grail" in st["seats"][0]["hand"] and st["decks"]["artifacts"] == ["ruby_ring"]


def test_crystal_roll_reward():
    """Monster den: "roll a mana die per crystal: basic colour = that crystal, gold = crystal of your choice,
    black = Fame +1 instead"."""
    st = started(hand=("march",), deck=())
    st["turn"]["rewards"] = ["crystal_roll", "crystal_roll"]
    pick(st, "t-end")
    s = st["seats"][0]
    assert sum(s["crystals"].values()) + s["fame"] == 2


def test_level_up_is_handed_to_levels():
    """The end of the turn hands the Fame gained to levels.gain (level 2 at 3 Fame, levels.csv)."""
    st = started(hand=("march",), deck=())
    st["seats"][0]["fame"] = 5
    pick(st, "t-end")
    assert st["seats"][0]["level"] == 2


def test_site_victory_queues_its_reward():
    """"Adventure Site: Mark with a shield. Claim indicated reward at turn end." (tomb: spell and artifact)"""
    st = started(hexes={"0,0": cell("hills", "tomb")}, deck=())
    st["turn"]["combat_result"] = {"victory": True, "defeated": ["fire_dragon"], "undefeated": [],
                                   "context": {"kind": "site", "hex": "0,0", "site": "tomb"},
                                   "knocked_out": False}
    site_actions.after_combat(st, 0, [])
    assert st["turn"]["rewards"] == ["spell", "artifact"]
    assert st["map"]["hexes"]["0,0"]["owner"] == 0 and st["seats"][0]["shields"] == 1


def test_withdraw_stops_at_the_path_start():
    """Backtracking stops when the path is used up."""
    st = make_state(players=2, hand=(), deck=())
    st["seats"][1]["pos"] = "0,0"
    turn.start(st, 0, [])
    assert endturn.withdraw(st, 0, []) == 0


def test_steady_tempo_returns_to_the_deck():
    """Steady Tempo: "at end of turn may put this card on the bottom of a non-empty Deed deck" (powered: on top)."""
    st = started(hand=("steady_tempo", "march", "rage", "rage", "rage"), deck=("swiftness",), dice=("blue",))
    play(st, "steady_tempo", "t-basic")
    play(st, "march", "t-basic")
    pick(st, "t-end")
    pick(st, "t-tempo:yes")  # the "may" is asked (test_mk_card_effects.py)
    s = st["seats"][0]
    assert s["discard"] == ["march"] and "steady_tempo" in s["hand"] + s["deck"]
    st = started(hand=("steady_tempo",), deck=(), dice=("blue",))
    play(st, "steady_tempo", "t-pw:die:0")
    pick(st, "t-end")
    pick(st, "t-tempo:yes")
    assert st["seats"][0]["hand"] == ["steady_tempo"]  # on top, then drawn


def test_an_owned_keep_raises_the_hand_limit_for_the_draw():
    """Keep (sites.json passive): "if ending turn on/adjacent to an owned keep: + number of keeps you own"."""
    st = started(hand=("march",), hexes={"1,0": cell("hills", "keep", conquered=True, owner=0),
                                          "5,5": cell("hills", "keep", conquered=True, owner=0)})
    st["seats"][0]["deck"] = ["swiftness"] * 8
    pick(st, "t-end")
    assert len(st["seats"][0]["hand"]) == 5 + 2


def test_no_keep_bonus_far_from_it_or_for_another_players_keep():
    st = started(hand=("march",), hexes={"1,0": cell("hills", "keep", conquered=True, owner=1)}, players=2)
    st["seats"][0]["deck"] = ["swiftness"] * 8
    pick(st, "t-end")
    assert len(st["seats"][0]["hand"]) == 5


def test_a_unit_reward_with_no_free_command_token_disbands_a_unit():
    """Rulebook: with no free Command token "you may disband one of your Units to make room" -- for a Unit
    reward too (the disbanded Unit is removed from the game)."""
    st = started(hand=("march",), deck=())
    st["seats"][0]["units"] = [{"id": "herbalist", "ready": True, "wounded": False, "uid": 5}]
    st["turn"]["rewards"] = ["unit"]
    st["turn"]["started"] = True
    pick(st, "t-end")
    assert sorted(ids(st)) == ["t-reward:peasants>5", "t-reward:utem_guardsmen>5"]
    pick(st, "t-reward:utem_guardsmen>5")
    assert [u["id"] for u in st["seats"][0]["units"]] == ["utem_guardsmen"] and st["turn"] is None
