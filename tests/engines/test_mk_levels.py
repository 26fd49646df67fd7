"""Levels: Fame thresholds, level tokens (Armor, Hand limit, Command), the even levels' skill and Advanced Action."""

from __future__ import annotations

from games.engines.mage_knight import levels
from games.engines.mage_knight.engine import MageKnightEngine

E = MageKnightEngine()


def test_fame_thresholds_follow_the_printed_track():
    """levels.json (b8 thresholds, the printed Fame track): level 2 at 3 Fame, 3 at 8, 4 at 15, ... 10 at 99."""
    assert [levels.level_for(f) for f in (0, 2, 3, 7, 8, 14, 15, 98, 99, 150)] == [1, 1, 2, 2, 3, 3, 4, 9, 10, 10]


def test_odd_levels_change_the_level_token_and_add_a_command_token():
    """"odd levels (3,5,7,9) flip a level token (new Armor/Hand limit) and add a Command token"."""
    s = E.new_game(players=2, options={}, seed=1)
    me = s["seats"][0]
    me["fame"] = 8
    ev = []
    levels.gain(s, 0, ev)
    assert (me["level"], me["armor"], me["hand_limit"], me["command"]) == (3, 3, 5, 2)
    assert me["rewards"] == ["skill", "advanced"]  # level 2 on the way: a skill and an Advanced Action
    me["fame"] = 24
    levels.gain(s, 0, ev)
    assert (me["level"], me["armor"], me["hand_limit"], me["command"]) == (5, 3, 6, 3)
    assert me["rewards"].count("skill") == 2 and len(ev) == 4


def _to_turn(s):
    for t in ("early_bird", "planning"):
        if E.is_step_complete(s):
            E.resolve(s)
        E.apply(s, E.pending(s)[0], f"tactic:{t}")
    E.resolve(s)
    return E.pending(s)[0]


def test_even_level_choices_are_asked_after_the_turn():
    """"even levels give a Skill and an Advanced Action": after the turn the seat picks a skill (one of two drawn, the
    other to the common offer) and an Advanced Action from the offer (on top of the deed deck; the offer refills)."""
    s = E.new_game(players=2, options={}, seed=2)
    seat = _to_turn(s)
    me = s["seats"][seat]
    me["fame"] = 3
    E.apply(s, seat, "t-end")  # endturn.py calls levels.gain
    assert me["level"] == 2 and E.pending(s) == [seat]
    p = E.prompt(s, seat)
    drawn = [o.id for o in p.options if o.id.startswith("skill:")]
    assert len(drawn) == 2 and len(me["skill_pile"]) == 7
    E.apply(s, seat, drawn[1])
    assert me["skills"] == [drawn[1][6:]] and s["skill_offer"] == [drawn[0][6:]]
    offer = list(s["offers"]["advanced"])
    p = E.prompt(s, seat)
    assert [o.id for o in p.options] == [f"aa:{c}" for c in dict.fromkeys(offer)]
    E.apply(s, seat, f"aa:{offer[1]}")
    assert me["deck"][-1] == offer[1] and len(s["offers"]["advanced"]) == 3 and me["rewards"] == []
    assert E.is_step_complete(s)  # the turn's step ends with its level-up choices


def test_a_skill_may_come_from_the_common_offer():
    """Taking a skill from the common offer puts both drawn skills into it."""
    s = E.new_game(players=2, options={}, seed=3)
    me = s["seats"][0]
    s["skill_offer"] = ["tovak_shield_mastery"]
    me["rewards"] = ["skill"]
    ops = [o.id for o in levels.skill_options(s, 0)]
    assert "offer:tovak_shield_mastery" in ops
    drawn = list(me["skill_draw"])
    levels.take_skill(s, 0, "offer:tovak_shield_mastery", [])
    assert me["skills"] == ["tovak_shield_mastery"] and sorted(s["skill_offer"]) == sorted(drawn)
