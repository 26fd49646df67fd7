"""A card that cannot be turned face up says why ("face up needs 1 red; you have none")."""

from games.engines.faltisia.cards import CARDS
from games.engines.faltisia.decisions import base_options


def _seat(**kw):
    seat = {"ster": 0, "tok": [0, 0, 0, 0, 0], "attr": [9, 9, 9, 9], "up": [], "lic": False, "ongoing": [],
            "hand": []}
    seat.update(kw)
    return seat


def _card(*, tokens: bool):
    return next(c for c, card in CARDS.items() if not card.cond and not card.cost_s and any(card.cost_t) == tokens)


def test_an_unpayable_card_offers_face_down_only_and_says_what_is_missing():
    card = _card(tokens=True)
    colour = next(i for i, n in enumerate(CARDS[card].cost_t) if n)
    text, ops = base_options({}, _seat(), {"st": "face", "card": card})
    assert [o.id for o in ops] == ["down"]
    assert "face up needs" in text and "you have 0" in text and "rainbow" in text
    assert ("red", "blue", "yellow", "green")[colour] in text


def test_a_payable_card_offers_both_sides_without_an_excuse():
    card = _card(tokens=True)
    text, ops = base_options({}, _seat(tok=[5, 5, 5, 5, 0]), {"st": "face", "card": card})
    assert [o.id for o in ops] == ["up", "down"] and "needs" not in text
