"""Small wording helpers every engine (and the presentation) may share: plain Python, nothing of Django.

No "(s)" in a generated label, log line or mail: the count decides the form of the noun.
"""

from __future__ import annotations


def noun(n: int, word: str, many: str | None = None) -> str:
    """The form of ``word`` for ``n`` things: "Pet Teacher" for 1, "Pet Teachers" for 0 or 2 (``many`` when
    the plural is not the word + "s": noun(2, "hex", "hexes"))."""
    return word if n == 1 else (many or word + "s")


def plural(n: int, word: str, many: str | None = None) -> str:
    """The count and its noun: "1 Friendship Point", "2 Friendship Points", "0 cards"."""
    return f"{n} {noun(n, word, many)}"


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop unless it already ends with one (or with
    "?", "!", ":"): "Your turn" -> "Your turn."; "Which does she produce?" stays as it is."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".?!:" else text + "."
