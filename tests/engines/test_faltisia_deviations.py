"""Base-game rules once simplified, now played as written: face-down card numbers announced, Meditation offered
mid-payment.

Rulebook lines cited from shared/rules/faltisia-rulebook-en.txt (EN).
"""

from __future__ import annotations

from tests.engines.faltisia_helpers import E, at_action, finish, ids, picks


def test_face_down_card_numbers_announced_in_resolution_order():
    """EN line 318: "If multiple players kept their action cards face down, they announce
    the card number of their played card and perform their Off-Campus actions in order from lowest to highest.
    They do not, however, reveal their cards." The public event names each number, lowest first; never the
    card's name."""
    s = at_action(3, seed=2)
    seats = s["seats"]
    seats[0]["hand"][0], seats[1]["hand"][0], seats[2]["hand"][0] = "1601", "1502", "1101"
    picks(s, 0, "play:1601", "down", "job")
    picks(s, 1, "play:1502", "down", "job")
    picks(s, 2, "play:1101", "down", "job")
    events = finish(s)
    announce = [e for e in events if e.text.startswith("Face-down cards")]
    assert len(announce) == 1 and announce[0].seats is None  # public
    text = announce[0].text
    # Seats 1-based in the text, as a person reads them (data keeps 0-based: s2, s1, s0).
    import re
    order = re.findall(r"Seat (\d) \([^)]*\) announces (\d+)", text)
    assert order == [("3", "1101"), ("2", "1502"), ("1", "1601")]
    from games.engines.faltisia.cards import CARDS
    assert not any(CARDS[c].name in text for c in ("1601", "1502", "1101"))


def _paying(seat_tok, card="2207"):
    """Seat 0 about to pay ``card`` (2207: 1 red; 3204: 2 blue) with a real Rainbow choice."""
    s = at_action(2, seed=3)
    x = s["seats"][0]
    x["hand"][0] = card
    x["tok"] = list(seat_tok)
    picks(s, 0, "play:" + card, "up")
    return s, x


def test_meditation_offered_while_choosing_rainbow_tokens():
    """EN line 193: "[C] Meditation: at any point during the game, you may return three
    attribute tokens of a single color to the supply in exchange for one attribute token of any color". The
    Rainbow-count pick of a payment offers it too; after it the payment starts over with the new tokens."""
    s, x = _paying([1, 3, 0, 0, 1])
    ops = ids(s, 0)
    assert "rb:0" in ops and "rb:1" in ops and "med:blue" in ops
    picks(s, 0, "med:blue", "medto:red")
    assert x["tok"] == [2, 0, 0, 0, 1]
    assert x["dec"]["st"] == "rb" and "rb:0" in ids(s, 0)  # asked again, from the new tokens
    picks(s, 0, "rb:1")
    picks(s, 1, *(["play:" + s["seats"][1]["hand"][0], "down", "job"]))
    finish(s)
    assert x["tok"] == [2 + 2, 0, 0, 0, 0] and x["up"] == ["2207"]  # paid 1 Rainbow; 2207 gives 2 red


def test_meditation_that_breaks_the_payment_returns_to_the_face_choice():
    """Meditation mid-payment (decision recorded in docs/rules-decisions/faltisia.md): meditating away the tokens
    a half-chosen payment needed sends the seat back to the face-up/face-down choice, where face up is offered
    only if the card can still be paid."""
    s, x = _paying([0, 1, 0, 0, 3], card="3204")
    assert x["dec"]["st"] == "rb" and "med:rainbow" in ids(s, 0)
    picks(s, 0, "med:rainbow", "medto:red")
    assert x["tok"] == [1, 1, 0, 0, 0] and x["dec"]["st"] == "face"
    assert ids(s, 0) == ["down"]  # 2 blue can no longer be paid
    picks(s, 0, "down", "job")
    assert x["plan"]["k"] == "down"


def test_meditation_mid_raise_withdraws_the_raise():
    """Meditation mid-raise: during Maid Training's Rainbow pick for a raise (EN line 200 "For every three
    tokens of a single color you spend, increase the corresponding score by one"), Meditation is offered;
    the half-chosen raise is withdrawn and the training list is offered again."""
    s = at_action(2, seed=3)
    x = s["seats"][0]
    x["tok"] = [2, 3, 0, 0, 2]
    picks(s, 0, "play:" + x["hand"][0], "down", "train", "raise:red")
    assert x["dec"]["st"] == "rb" and "med:blue" in ids(s, 0)
    picks(s, 0, "med:blue", "medto:red")
    assert x["dec"]["st"] == "train" and x["tok"] == [3, 0, 0, 0, 2]
    assert "raise:red" in ids(s, 0)
