"""Miskatonic card set as data; each test cites the rulebook line it checks
(shared/rules/miskatonic-school-for-girls-rules.txt)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.miskatonic import cards as C


def test_component_counts_follow_game_contents():
    """Game Contents: "40 Starting Class Cards / 51 Student Cards, 4 Student Event Cards / 46 Faculty Cards,
    4 Faculty Event Cards / 18 Transfer Student Cards / 20 Substitute Cards / 4 House Boards"."""
    kinds = Counter(c.kind for c in C.CARDS.values())
    assert kinds == {"starting": 40, "student": 51, "student_event": 4, "faculty": 46, "faculty_event": 4,
                     "transfer": 18, "substitute": 20, "house": 4}


@pytest.mark.parametrize("house", ["H1", "H2", "H3", "H4"])
def test_starting_class_copies_per_player(house):
    """Set-Up: "two copies of each students from the Starting Class except for Keziah Mason (only one copy) and
    Natalie Peaslee (three copies)"."""
    names = Counter(C.CARDS[c].name for c in C.starting_class(house))
    assert names["Keziah Mason"] == 1 and names["Natalie Peaslee"] == 3
    assert sorted(n for k, n in names.items() if k not in ("Keziah Mason", "Natalie Peaslee")) == [2, 2, 2]
    assert sum(names.values()) == 10


def test_two_player_special_rule_cards_are_in_the_faculty_deck():
    """2-Player Game Special Rule #1: 'Remove all copies of the "Grace Traceofyith" and the "Whipper' Wills" from
    the Faculty Deck' -- so they must be Faculty cards."""
    names = {C.CARDS[c].name for c in C.of_kind("faculty")}
    assert {"Grace Traceofyith", "Whipper' Wills"} <= names


def test_file_says_it_is_authored():
    """The card file says it is authored for this implementation (no card list of the published game is public)."""
    with open(C.CSV_PATH) as fh:
        assert "AUTHORED FOR THIS IMPLEMENTATION" in fh.readline()


def test_every_keyword_of_the_rulebook_appears():
    """Keywords and Abilities: "Locker," "Aggressive," "Friendly," "BFF Ability," "Defeat," and "Survive"; A Turn
    step 4 "Pre-Class abilities"; Event Cards."""
    keys = {k.split(":")[0] for c in C.CARDS.values() for k, _ in c.abilities}
    assert {"locker", "aggressive", "friendly", "bff", "defeat", "survive", "preclass", "event"} <= keys


def test_loader_refuses_a_wrong_count(tmp_path):
    """Game Contents counts are enforced: a file with one Substitute too few fails loudly."""
    lines = open(C.CSV_PATH).read().splitlines()
    bad = [ln for ln in lines if not ln.startswith("U20,")]
    p = tmp_path / "cards.csv"
    p.write_text("\n".join(bad) + "\n")
    with pytest.raises(C.CardDataError, match="substitute"):
        C.load(str(p))


def test_loader_refuses_an_unknown_ability(tmp_path):
    """The ability vocabulary is closed (cards.py docstring): a typo names the row."""
    text = open(C.CSV_PATH).read().replace("bff:sanity:1", "bff:insanity:1", 1)
    p = tmp_path / "cards.csv"
    p.write_text(text)
    with pytest.raises(C.CardDataError, match="unknown ability"):
        C.load(str(p))


def test_starting_class_wrong_copies_refused(tmp_path):
    """Set-Up copies per house are enforced (Natalie Peaslee three copies)."""
    text = open(C.CSV_PATH).read().replace("C1NP3,starting,Natalie Peaslee", "C1NP3,starting,Sonia Greene", 1)
    p = tmp_path / "cards.csv"
    p.write_text(text)
    with pytest.raises(C.CardDataError, match="H1"):
        C.load(str(p))
