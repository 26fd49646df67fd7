"""The card set file and its loader (Components; Cards Overview; the authored vocabulary)."""

from __future__ import annotations

import pytest

from games.engines.faltisia import cards as C


def test_component_counts():
    """Components: characters x7, Maid Ability x7, 44 action cards per Round, Items x20, Graduation
    Requirements x18; numbers are unique (Cards Overview D: "No two cards in the game have the same card number")."""
    kinds = {}
    for c in C.CARDS.values():
        if not c.expansion:  # the Battle for London cards are counted in test_faltisia_london_data.py
            kinds[c.kind] = kinds.get(c.kind, 0) + 1
    assert kinds == {"character": 7, "ability": 7, "action": 132, "item": 20, "requirement": 18}
    for r in (1, 2, 3):
        cards = [c for c in C.CARDS.values() if c.kind == "action" and c.round == r]
        assert len(cards) == 44 and all(c.id[0] == str(r) for c in cards)
        assert {c.type for c in cards} == C.ROUND_TYPES[r]
        assert [sum(1 for c in cards if c.players == t) for t in (0, 3, 5)] == [21, 7, 16]
    names = {c.id: c.name for c in C.CARDS.values() if c.kind == "character"}
    assert names["C0001"] == "Giulia Engelini" and names["C0007"] == "Kaede"


def test_types_by_round_as_the_rulebook_lists_them():
    """Action Cards: Organization (Rounds 1, 2), Focus (1, 2, 3), Special Evaluation (2, 3), Assignment, Extracurricular
    and Remedial (1, 2, 3); Extracurricular cards are A, B or C; Maid Ability cards have no cost."""
    for c in C.CARDS.values():
        if c.type == "organization":
            assert c.round in (1, 2)
        if c.type == "special":
            assert c.round in (2, 3)
        if c.type == "extracurricular":
            assert c.club in ("A", "B", "C")
        if c.kind == "ability":
            assert c.cost_s == 0 and not any(c.cost_t)
        if c.type == "assignment":
            assert c.cond and c.mp > 0
    assert all(C.CARDS[n].type == "focus" and n in C.CHOICE for n in ("2201", "2202", "2203", "2204"))


def test_file_says_it_is_authored_for_this_implementation():
    with open(C.CSV_PATH, encoding="utf-8") as fh:
        first = fh.readline()
    assert first.startswith("#") and "not the publisher" in first


@pytest.mark.parametrize("old,new,msg", [
    ("tokens:rainbow:2", "tokens:purple:2", "colour"),
    ("on_job:sterlings:1", "on_nap:sterlings:1", "unknown effect"),
    ("attr:purity>=10", "attr:luck>=10", "attribute"),
    ("1101,action,1", "1102,action,1", "duplicate"),
    ("2201,action,2,focus", "2201,action,2,special", "2201"),
])
def test_loader_fails_loudly(tmp_path, old, new, msg):
    """The loader validates counts, unique numbers and the vocabulary, naming the problem."""
    text = open(C.CSV_PATH, encoding="utf-8").read()
    assert old in text
    p = tmp_path / "cards.csv"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(C.CardDataError, match=msg):
        C.load(str(p))


def test_missing_rows_fail_the_count_check(tmp_path):
    lines = open(C.CSV_PATH, encoding="utf-8").read().splitlines()
    p = tmp_path / "cards.csv"
    p.write_text("\n".join(ln for ln in lines if not ln.startswith("3509,")) + "\n", encoding="utf-8")
    with pytest.raises(C.CardDataError, match="round 3"):
        C.load(str(p))


def test_vocabulary_parses():
    assert C.parse_effects("tokens:red:2;sterlings:3") == (("tokens", 0, 2), ("sterlings", 3))
    assert C.parse_effects("on_attend:blue:tokens:blue:1") == (("on_attend", 1, ("tokens", 1, 1)),)
    assert C.parse_effects("mp_per:face_up:assignment:1") == (("mp_per", "face_up", "assignment", 1),)
    assert C.parse_condition("attr:purity>=10&licensed") == (("attr", 3, ">=", 10), ("licensed", None, ">=", 1))
    assert C.parse_cost("sterlings:2;red:1;blue:2") == (2, (1, 2, 0, 0))
