"""A game's terms are explained and its card text reads like English, not code: MP, Sterlings, rainbow tokens,
the licence and clubs have a glossary shown on hover/tap; card text is in plain English with correct plurals
(never "attr total >= 36" or "1 Sterlings"); card ids are kept out of the way.

Every card of every game is rendered as a player sees it and scanned; the game pages of both games carry the
glossary, its terms marked where they appear and reachable by keyboard (links) and without JavaScript.
"""

from __future__ import annotations

import html
import re

import pytest
from django.template.loader import render_to_string

from games.engines.faltisia import cards as falt
from games.engines.faltisia.base_opts import opt
from games.engines.miskatonic import cards as misk
from games.presentation.glossary import Glossary, GlossaryError, Term, parse
from games.presentation.registry import presentation_for
from tests.web.test_event_wording import start_three_seats

# What a person must never read on a card: operators, field names, wrong plurals.
CODE_SPEAK = re.compile(r">=|<=|\battr\b|attr_|_total|_min|_max|mp_tokens|\b1 Sterlings\b|\b1 MPs\b|\bMPs\b|"
                        r"\b1 (?:red|blue|yellow|green|rainbow) tokens\b|(?<!Stage )\b1 tokens\b")  # "Stage 1 tokens" is a name
TAGS = re.compile(r"<[^>]+>")
TITLE = re.compile(r'\stitle="[^"]*"')


def face_text(rendered: str) -> str:
    """What a card face shows: its markup without tags and without tooltips (a title may name the number)."""
    return html.unescape(TAGS.sub(" ", TITLE.sub("", rendered)))


def all_faltisia_cards() -> list[str]:
    return sorted(falt.CARDS)


def test_every_faltisia_card_reads_as_plain_english_with_correct_plurals():
    """"card text in plain English with correct plurals ("1 Sterling", not "1 Sterlings")" for every card,
    base game and Battle for London, and no card number on its face."""
    glossary = presentation_for("faltisia").glossary()
    assert len(all_faltisia_cards()) > 190
    for cid in all_faltisia_cards():
        card = falt.card_dict(cid)
        assert not CODE_SPEAK.search(card["text"]), (cid, card["text"])
        rendered = render_to_string("games/faltisia/card.html", {"card": card, "glossary": glossary})
        face = face_text(rendered)
        assert card["name"] in face and not CODE_SPEAK.search(face), (cid, face)
        assert not re.search(rf"\b{re.escape(cid)}\b", face), (cid, face)  # the id is in the tooltip at most
        assert f"card no. {cid}" in rendered  # ... where it still says the order of play


def test_singular_and_plural_are_right_on_real_cards():
    """"1 Sterling", not "1 Sterlings"; "+1 red token", "+3 red tokens"; conditions in words ("attr total >= 36"
    was the Top of the Class requirement)."""
    assert "Cost: 1 Sterling." in falt.CARDS["1101"].text
    assert "+3 red tokens" in falt.CARDS["0001"].text and "+1 red token" in falt.CARDS["1101"].text
    assert falt.CARDS["B0005"].text == "At the end: +5 MP if you have attributes adding up to 36 or more, else -5 MP"
    assert "every attribute at 7 or more" in falt.CARDS["3410"].text
    assert falt.count(1, "Sterling") == "1 Sterling" and falt.count(0, "Sterling") == "0 Sterlings"


def test_option_labels_and_log_lines_name_cards_without_their_numbers():
    """"card ids on every card and log line": a pick's label names the card, not its number."""
    for cid in all_faltisia_cards():
        c = falt.CARDS[cid]
        heads = {"action": ("play", "draft", "discard"), "item": ("shop",), "ability": ("ability",),
                 "character": ("char",), "requirement": ("discard",)}[c.kind]
        for head in heads:
            label = opt(f"{head}:{cid}").label
            assert c.name in label and not re.search(rf"\b{re.escape(cid)}\b", label), label
            assert not CODE_SPEAK.search(label), label


def test_every_miskatonic_card_reads_as_plain_english():
    for cid, card in misk.CARDS.items():
        rendered = render_to_string("games/miskatonic/card.html",
                                    {"card": misk.card_dict(cid), "glossary": presentation_for("miskatonic").glossary()})
        face = face_text(rendered)
        assert card.name in face and not CODE_SPEAK.search(face), (cid, face)
        assert not re.search(rf"\b{re.escape(cid)}\b", face), (cid, face)


@pytest.mark.parametrize("slug, words", [
    ("faltisia", ["MP", "Sterling", "Rainbow token", "licence", "Club A", "attributes"]),
    ("miskatonic", ["Sanity", "Friendship", "Girl Power", "Faculty", "BFF", "Locker"]),
])
def test_each_game_has_a_glossary_of_its_terms_as_data(slug, words):
    """One glossary per game in its presentation package (data, not code), naming the game's own terms."""
    glossary = presentation_for(slug).glossary()
    assert glossary is not None
    for word in words:
        term = glossary.term_for(word)
        assert term.means and term.rules
    assert presentation_for("no-such-game").glossary() is None


def test_the_gloss_escapes_and_marks_whole_words_longest_first():
    g = Glossary([Term("class", "Class", "A class.", ("Class",)), Term("pre", "Pre-Class", "Before.", ("Pre-Class",))])
    out = str(g.gloss("Pre-Class, then Class in the Classroom <b>"))
    assert out.count('class="term"') == 2 and 'href="#gl-pre"' in out and 'href="#gl-class"' in out
    assert "Classroom" in out and "&lt;b&gt;" in out and "<b>" not in out
    assert 'aria-describedby="gl-class"' in out and 'aria-hidden="true"' in out


def test_a_broken_glossary_file_is_refused_with_its_name(tmp_path):
    path = tmp_path / "glossary.toml"
    path.write_text('[[term]]\nkey = "mp"\nname = "MP"\nmeans = "x"\nforms = ["MP"]\n'
                    '[[term]]\nkey = "mp2"\nname = "MP again"\nmeans = "y"\nforms = ["MP"]\n')
    with pytest.raises(GlossaryError, match="glossary.toml"):
        parse(path)


def _game_page(client, game) -> str:
    return client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["faltisia", "miskatonic"])
def test_the_game_page_explains_the_terms_where_they_appear(slug, login):
    """"a glossary shown on hover/tap ... wherever they appear on the game page", accessible: each marked term is
    a link (keyboard reachable) described by an entry of the page's glossary, which a tap reaches without
    JavaScript, and which links to the rules page."""
    game, alice, bob = start_three_seats(slug, seed=5)
    page = _game_page(login(alice), game)
    assert 'id="glossary"' in page and "web/glossary.js" in page
    described = set(re.findall(r'<a class="term" href="#(gl-[a-z0-9-]+)" aria-describedby="(gl-[a-z0-9-]+)"', page))
    assert described, "no term marked on the page"
    entries = set(re.findall(r'<dd id="(gl-[a-z0-9-]+)"', page))
    for href, described_by in described:
        assert href == described_by and href in entries
    assert f'href="/games/{slug}/rules/#' in page
    live = login(alice).get(f"/games/{game.pk}/live/").json()["html"]
    assert 'class="term"' in live  # the live updates keep the marks


@pytest.mark.django_db
def test_the_faltisia_mat_names_a_bot_seat_like_the_history_and_counts_seats_from_one(login):
    """Bots are "Bot 1 (Kaede)", never "bot"; seats are shown 1-based."""
    game, alice, bob = start_three_seats("faltisia", seed=5)
    page = _game_page(login(alice), game)
    mat = page[page.index('id="student-2"'):]
    mat = mat[:mat.index("</header>")]
    assert "Bot 3" in mat and "· seat 3" in mat and ">bot<" not in mat
    assert "You play seat 1" in page


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["faltisia", "miskatonic"])
def test_the_rules_page_lists_every_term_with_an_anchor(slug, client):
    page = client.get(f"/games/{slug}/rules/").content.decode()
    glossary = presentation_for(slug).glossary()
    assert 'id="glossary"' in page
    for term in glossary.terms:
        assert f'id="term-{term.key}"' in page and f'id="{term.rules}"' in page, term.key
    assert not CODE_SPEAK.search(TAGS.sub(" ", page))


def test_mage_knight_has_a_glossary_from_its_rulebook(client, db):
    """Mage Knight's rules page has a glossary drawn from its rulebook, as Faltisia's has: every term listed, each
    "More" link landing on a rules section, and the terms marked where they appear in a log line."""
    glossary = presentation_for("mage_knight").glossary()
    keys = {t.key for t in glossary.terms}
    assert len(keys) >= 30
    assert {"move", "influence", "attack", "block", "ranged-siege", "fame", "reputation", "armor", "hand-limit",
            "crystals", "mana-source", "wound", "rampaging", "fortified", "resistances", "level-up", "unit",
            "sideways", "day-night", "explore", "tactics", "dummy-player"} <= keys
    html = client.get("/games/mage_knight/rules/").content.decode()
    assert html.count('<dt id="term-') == len(keys) and 'id="term-dummy-player"' in html
    sections = set(re.findall(r'id="(rules-[\w-]+)"', html))
    assert {t.rules for t in glossary.terms} <= sections  # every "More" link lands on a section
    assert "gl-rest" in glossary.gloss("Seat 1 rests.") and "gl-ranged-siege" in glossary.gloss("Ranged Attack 3")
