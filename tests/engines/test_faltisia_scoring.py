"""Exams phase and final Scoring (rulebook "[C] Exams Phase", "Scoring", the two tables)."""

from __future__ import annotations

from games.engines.faltisia.scoring import attribute_points, breakdown, final_result
from games.engines.faltisia.setup import new_seat

from tests.engines.faltisia_helpers import E, at, at_action, drive, finish, new, picks


def _seat(**kw):
    s = new_seat()
    s.update(char="C0001", attr=[1, 1, 1, 1], ster=0, tok=[0] * 5)
    s.update(kw)
    return s


def _exam_state(rnd, attrs):
    s = drive(new(len(attrs), seed=3), at("action", rnd, 7))
    for x, a in zip(s["seats"], attrs):
        x["attr"] = list(a)
        x["mp"], x["ster"] = 0, 0
    for i in range(len(attrs)):
        picks(s, i, "play:" + s["seats"][i]["hand"][0], "down", "study")
    finish(s)
    return s


def test_exams_round_1_attribute_mp_and_total_sterlings_ties_all_gain():
    """Exams 1: "For each attribute in which your character has the highest score, you gain MP: Round 1: 1 MP
    ... If players tie, each player receives the full MP amount." Exams 2: highest total gains 1 Sterling
    (Round 1), ties all gain."""
    s = _exam_state(1, [(5, 5, 1, 1), (5, 1, 5, 1), (2, 2, 2, 5)])
    assert [x["mp"] for x in s["seats"]] == [2, 2, 1]
    assert [x["ster"] for x in s["seats"]] == [1, 1, 0]
    assert s["phase"] == "draft" and s["round"] == 2


def test_exams_round_2_and_3_amounts():
    """Exams: Round 2: 1 MP / 3 Sterlings; Round 3: 2 MP / 6 Sterlings."""
    s = _exam_state(2, [(9, 1, 1, 1), (2, 2, 2, 2)])
    assert [x["mp"] for x in s["seats"]] == [1, 3] and [x["ster"] for x in s["seats"]] == [3, 0]
    s = _exam_state(3, [(9, 1, 1, 1), (2, 2, 2, 2)])
    assert [x["mp"] for x in s["seats"]] == [2, 6] and [x["ster"] for x in s["seats"]] == [6, 0]
    assert E.is_over(s)


def test_attribute_scoring_table_and_rulebook_example():
    """Attribute Scoring: 6+ 1 MP, 10+ 2, 13+ 5, 15 10. "this player scores MP for their attributes as follows,
    for a total of 17 MP. Strength: 2 MP. Intelligence: 5 MP. Beauty: 0 MP. Purity: 10 MP." (Strength 2 MP
    means 10..12, Intelligence 5 MP 13..14, Beauty 0 MP 1..5, Purity 15.)"""
    assert [attribute_points(v) for v in range(1, 16)] == [0] * 5 + [1] * 4 + [2] * 3 + [5] * 2 + [10]
    assert breakdown(_seat(attr=[11, 13, 4, 15]))["attributes"] == 17
    assert breakdown(_seat(attr=[12, 14, 5, 15]))["attributes"] == 17


def test_extracurricular_table():
    """Extracurricular Scoring: A 0,1,2,4,7; B -2,0,3,5,6; C 0,-2,2,7,12 for 0,1,2,3,4+ cards."""
    a = ["1501", "1504", "1507", "2501", "2504"]  # club A cards
    b = ["1502"]
    assert breakdown(_seat(up=[]))["extracurricular"] == -2  # no B cards: -2
    assert breakdown(_seat(up=a[:2] + b))["extracurricular"] == 2 + 0 + 0
    assert breakdown(_seat(up=a[:3] + b))["extracurricular"] == 4 + 0 + 0
    assert breakdown(_seat(up=a + b))["extracurricular"] == 7 + 0 + 0
    c = ["1503", "1506", "1509"]
    assert breakdown(_seat(up=c[:1]))["extracurricular"] == -2 - 2
    assert breakdown(_seat(up=c))["extracurricular"] == -2 + 7


def test_graduation_requirements_gain_or_lose():
    """Graduation Requirement cards: "If you fulfill them, score the MP depicted ... If you don't, you lose the
    depicted MP instead." (B0004 Purity 10+: 4 MP; B0007 licensed: 2 MP.)"""
    assert breakdown(_seat(reqs=["B0004", "B0007"], attr=[1, 1, 1, 10]))["graduation"] == 4 - 2
    assert breakdown(_seat(reqs=["B0004", "B0007"], attr=[1, 1, 1, 9], lic=True))["graduation"] == -4 + 2


def test_cards_items_character_sterlings_and_mp_tokens():
    """Scoring: Organization and Assignment MP, Special Evaluation by their effects, Items' MP, the flipped
    character (3 MP), one MP per three Sterlings rounded down, and MP gained during play."""
    seat = _seat(up=["1101", "1402", "2305", "2301", "1501", "1504"], items=["S001", "S019"], lic=True,
                 ster=11, mp=4)
    b = breakdown(seat)
    assert b["organization"] == 1 and b["assignment"] == 3
    assert b["special_evaluation"] == (1 + 1) + (2 + 2)  # 2305: 1 MP + 1 per Organization; 2301: 2 + 1 per club card
    assert b["items"] == 2 + 2  # S001 2 MP; S019 1 MP per Extracurricular card
    assert b["character"] == 3 and b["sterlings"] == 3 and b["mp_tokens"] == 4


def test_ranking_mp_then_combined_attributes_then_shared():
    """Scoring: "If tied, the player with the highest combined attribute score is the winner. If still tied, the
    players share the victory." """
    st = {"seats": [_seat(mp=10, attr=[5, 5, 5, 5]), _seat(mp=10, attr=[5, 5, 5, 6]),
                    _seat(mp=10, attr=[5, 5, 5, 6]), _seat(mp=2)]}
    r = final_result(st)
    assert r["ranks"] == [3, 1, 1, 4] and r["tiebreak"] == [20, 21, 21, 4]
    assert all(sum(b.values()) == sc for b, sc in zip(r["breakdown"], r["scores"]))


def test_result_via_protocol_after_a_whole_game():
    """The Result carries scores, ranks, per-category breakdown and the tie-break (combined attributes)."""
    s = drive(new(3, seed=11), lambda st: st["over"])
    r = E.result(s)
    assert len(r.scores) == 3 and min(r.ranks) == 1
    assert set(r.breakdown[0]) == {"graduation", "organization", "extracurricular", "assignment",
                                   "special_evaluation", "items", "character", "attributes", "sterlings",
                                   "mp_tokens"}
    assert r.tiebreak == tuple(sum(x["attr"]) for x in s["seats"])
    assert E.pending(s) == [] and E.prompt(s, 0) is None and not E.is_step_complete(s)


def test_licence_leftover_card_carries_to_next_round():
    """Licence (JA): the Maid Ability card goes to the hand, so the player has one card more than terms; a
    leftover card joins the next Round's hand (Registration B1)."""
    s = at_action(2)
    me = s["seats"][0]
    me["hand"].append(me["ability"])
    me["ability"] = None
    me["lic"] = True
    s = drive(s, at("draft", 2))
    assert len(me["hand"]) == 1
    s = drive(s, at("lecture", 2, 1))
    assert len(me["hand"]) == 8
