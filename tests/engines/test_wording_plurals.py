"""Plurals: no "(s)" in a label or log line an engine writes; the count decides the noun's form
(games/engines/wording.py, shared by the engines and the presentation, nothing of Django). Nor anywhere else a
player reads: labels, log lines, mails and pages (Django's pluralize outside the engines)."""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

import pytest

from games.engines.miskatonic import turn
from games.engines.wording import noun, plural, sentence

from tests.engines.miskatonic_helpers import clear_hand_and_deck, go, put, table, texts
from tests.engines.test_miskatonic_class import in_class
from tests.engines.test_miskatonic_turn import rich_turn


@pytest.mark.parametrize("n, word, many, out", [
    (1, "Friendship Point", None, "1 Friendship Point"), (2, "Friendship Point", None, "2 Friendship Points"),
    (0, "card", None, "0 cards"), (1, "hex", "hexes", "1 hex"), (3, "hex", "hexes", "3 hexes")])
def test_plural_takes_the_count(n, word, many, out):
    assert plural(n, word, many) == out
    assert noun(n, word, many) == out.split(" ", 1)[1]


@pytest.mark.parametrize("text, out", [("Your turn", "Your turn."), ("your turn", "Your turn."),
                                       ("Which does she produce?", "Which does she produce?"),
                                       ("Done.", "Done."), ("", "")])
def test_sentence_ends_with_a_stop(text, out):
    assert sentence(text) == out


def test_miskatonic_produce_labels_have_no_parenthesised_plural():
    """3. "Some cards have numbers in both the Friendship and Nightmare Point areas; these cards only produce one or
    the other (your choice)": Asenath Waite shows 1 and 1, so "1 Friendship Point", "1 Nightmare Point"."""
    s = rich_turn(hand=("S40", "C1AW1"), deck=("C1NP1", "C1NP2", "C1NP3"))
    go(s)
    labels = [o.label for o in turn.options(s, s["dec"])[1]]
    assert labels == ["1 Friendship Point", "1 Nightmare Point"]


@pytest.mark.parametrize("bought, said", [((), "They take 0 cards from their Purchase Pile and hold 5 cards."),
                                          (("S40",), "They take 1 card from their Purchase Pile and hold 5 cards."),
                                          (("S40", "S41"),
                                           "They take 2 cards from their Purchase Pile and hold 5 cards.")])
def test_the_turn_line_counts_the_purchase_pile(bought, said):
    """1. "Draw your Purchase Pile into your hand, then draw from your Deck until you have 5 total cards"."""
    s = table(3)
    clear_hand_and_deck(s, 0)
    put(s, 0, "purchase", *bought)
    put(s, 0, "deck", "C1NP1", "C1NP2", "C1NP3", "C1SG1", "C1SG2")
    said_all = texts(go(s))
    assert said in said_all and "(s)" not in said_all, said_all


@pytest.mark.parametrize("deck, said", [(("F10",), "and Pet Teacher Nurse Shantak."),
                                        (("F10", "F01"), "and Pet Teachers Coach Dagon, Nurse Shantak.")])
def test_the_class_line_names_one_pet_teacher_or_several(deck, said):
    """5. "Faculty cards drawn are called Pet Teachers"."""
    s = in_class(faculty=("F25", "F28") if len(deck) == 2 else ("F25",), deck=deck)
    said_all = texts(go(s))
    assert said in said_all and "(s)" not in said_all, said_all


# --- nowhere else either -----------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def _string_literals(path: Path):
    """(line, text) of each one-line string literal of a Python file (f-strings included); docstrings and other
    triple-quoted strings are documentation, not text a player reads."""
    with path.open("rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type == tokenize.STRING and not tok.string.lstrip("rbfuRBFU").startswith(('"""', "'''")):
                yield tok.start[0], tok.string


def test_no_parenthesised_plural_is_generated_anywhere():
    """No "word(s)" is built into a label, a log line, a mail or a page: the count picks the form (the engines'
    games/engines/wording.py, Django's pluralize elsewhere). Log messages for operators and "http(s)" are not
    words to count."""
    pattern = re.compile(r"[A-Za-z]\(s\)")
    offenders = []
    for path in [*ROOT.joinpath("games").rglob("*.py"), *ROOT.joinpath("accounts").rglob("*.py")]:
        if "migrations" in path.parts:
            continue
        lines = path.read_text().splitlines()
        for n, text in _string_literals(path):
            if pattern.search(text) and "http(s)" not in text and "logger." not in lines[n - 1]:
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {text}")
    for path in [*ROOT.joinpath("templates").rglob("*.*"), *ROOT.joinpath("games").rglob("*.html"),
                 *ROOT.joinpath("games").rglob("*.txt")]:
        text = re.sub(r"{[{%#].*?[}%#]}", "", path.read_text(errors="ignore"), flags=re.S)
        offenders += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in re.finditer(r"\w+\(s\)", text)
                      if m.group(0) != "http(s)"]
    assert offenders == []
