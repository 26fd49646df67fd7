"""Each game in one place: each game's presentation (board presenter and
templates, mail situation, log headings, rules page, lobby option fields) lives in one package that a
registry finds by the engine's slug, with a generic fallback for an engine without one.

The proof that adding a game touches only its two folders and one registry line: tinygame
(tests/fake_engine.py) gets a package under tests/tinygame_presentation/ and one ``register`` line, and its
board, mail, rules page, log headings and lobby options appear, while nothing in games/ or templates/ names it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import TemplateDoesNotExist
from django.template.loader import get_template

from games.engines.faltisia.solo import DIFFICULTY
from games.engines.registry import ENGINES, get_engine
from games.mail.compose import render_prompt
from games.models import Game, Prompt
from games.presentation import registry
from games.presentation.faltisia import FaltisiaPresentation
from tests.factories import UserFactory
from tests.web.conftest import play_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tiny_package():
    """tinygame's presentation: the one registry line a game kept outside games/presentation/ needs."""
    registry.register("tinygame", "tests.tinygame_presentation")
    yield registry.presentation_for("tinygame")
    registry.PACKAGES.pop("tinygame")
    registry._loaded.pop("tinygame", None)


def test_the_registry_finds_each_games_package_by_its_slug_and_falls_back_to_the_generic_one():
    """The registry finds games/presentation/<slug>/ with no line of its own; others are generic."""
    assert "faltisia" not in registry.PACKAGES  # found by the convention, not listed
    assert isinstance(registry.presentation_for("faltisia"), FaltisiaPresentation)
    for slug in ENGINES:
        has_folder = (ROOT / "games" / "presentation" / slug / "__init__.py").exists()
        assert registry.has_package(slug) == has_folder, slug
        if not has_folder:
            assert registry.presentation_for(slug) is registry.GENERIC
    assert registry.presentation_for("tinygame") is registry.GENERIC  # an engine without a package
    assert get_template("games/faltisia/board.html") and get_template("games/generic/board.html")


def test_a_presentation_template_name_never_leaves_its_packages_templates_folder():
    """The per-game template loader only serves files inside a package's templates/ folder."""
    for name in ("games/faltisia/../board.py", "games/faltisia/../../../faltisia/settings.py",
                 "games/nosuchgame/board.html", "games/faltisia/"):
        with pytest.raises(TemplateDoesNotExist):
            get_template(name)


def test_a_second_game_with_only_its_package_and_a_registry_line_gets_its_board_mail_rules_and_options(
        db, login, tiny_package):
    """tinygame's own package draws its board, writes its mail situation and log headings, serves its
    rules page and declares its lobby options; none of it is in the shared modules."""
    shared = [p for folder in ("games", "templates") for p in (ROOT / folder).rglob("*")
              if p.suffix in (".py", ".html", ".txt") and "engines" not in p.parts]
    assert shared and not [p for p in shared if "tinygame" in p.read_text()]
    user = UserFactory()
    c = login(user)
    form = c.get("/games/new/").content.decode()
    tiny_block = form[form.index('data-games="tinygame"'):]
    tiny_block = tiny_block[:tiny_block.index("</fieldset>")]
    assert 'name="tiny_rounds"' in tiny_block and "2-4 players" in tiny_block
    assert 'name="extra_options"' not in tiny_block
    # The declared field makes the engine's option; the engine's own message refuses a bad seat count.
    r = c.post("/games/new/", {"game": "tinygame", "seats": 5, "clock": "none", "tiny_rounds": 1})
    assert "Tiny Game takes 2-4 players" in r.content.decode() and not Game.objects.exists()
    r = c.post("/games/new/", {"game": "tinygame", "seats": 2, "bots": 1, "clock": "none", "is_public": "on",
                               "tiny_rounds": 1})
    game = Game.objects.get()
    assert r.status_code == 302 and game.options == {"rounds": 1}
    play_until(game, lambda g: g.phase >= 1)
    page = c.get(f"/games/{game.pk}/").content.decode()
    hand = game.state["hands"][0]
    assert 'id="tiny-board"' in page and "Game state (your view)" not in page
    assert f"Your tiny cards: {', '.join(map(str, hand))}" in page
    assert "<h4 class=\"step-label\">Tiny step 0</h4>" in page  # its log heading
    assert f'href="/games/tinygame/rules/"' in page
    rules = c.get("/games/tinygame/rules/").content.decode()
    assert "Tiny rules: play your highest card" in rules and "Always bet low" in rules
    prompt = Prompt.objects.get(game=game, closed_at__isnull=True, seat__position=0)  # step 1: seat 0 first
    mail = render_prompt(prompt=prompt, user=user)
    assert "Your tiny hand" in mail.text and ", ".join(f"card {c}" for c in hand) in mail.text
    assert "Tiny step" in mail.text and "/games/tinygame/rules/" in mail.text


def test_an_engine_without_a_package_is_served_by_the_generic_presentation(db, login, game2):
    """The documented fallback: any engine's view as structured data on the web, by mail and a rules
    page, so a new engine (Miskatonic) is playable before its own package exists."""
    game, users = game2
    c = login(users[0])
    page = c.get(f"/games/{game.pk}/").content.decode()
    assert "Game state (your view)" in page and 'id="tiny-board"' not in page
    mail = render_prompt(prompt=Prompt.objects.get(game=game, seat__position=0, closed_at__isnull=True),
                         user=users[0])
    assert "Your view of the game" in mail.text and f"hand: {game.state['hands'][0]}" in mail.text
    rules = c.get("/games/tinygame/rules/").content.decode()
    assert "Tiny Game" in rules and "no summary of this game" in rules and "2-4 players" in rules
    form = c.get("/games/new/").content.decode()
    json_block = form[form.index('name="extra_options"') - 600:form.index('name="extra_options"')]
    assert 'data-games="tinygame"' in json_block  # the JSON box: only for the games without fields


def test_the_faltisia_rules_page_is_public_and_linked_from_the_game_page_and_the_prompt_email(db, client, login,
                                                                                           faltisia2):
    """A rules page per game for players, linked from the game page and the prompt email footer."""
    r = client.get("/games/faltisia/rules/")  # anonymous: the rules hide nothing
    page = r.content.decode()
    assert r.status_code == 200 and get_engine("faltisia").name in page
    for words in ("Provisional Maid's License", "Graduation Requirements", "Solo Mode", "Meditation",
                  "2-6 players, or 1 for Solo Mode", get_engine("faltisia").standing_orders()[0].label):
        assert words in page, words
    assert client.get("/games/nosuchgame/rules/").status_code == 404
    game, users = faltisia2
    assert 'href="/games/faltisia/rules/"' in login(users[0]).get(f"/games/{game.pk}/").content.decode()
    prompt = Prompt.objects.filter(game=game, seat__position=0, closed_at__isnull=True).first()
    mail = render_prompt(prompt=prompt, user=users[0])
    assert "How to play: " in mail.text and mail.text.count("/games/faltisia/rules/") == 1
    assert 'href="http' in mail.html and "/games/faltisia/rules/\">How to play</a>" in mail.html


def test_faltisia_options_are_fields_declared_by_its_package_with_the_engines_choices(db, login):
    """The lobby shows Faltisia's options as its package's fields (players 2-6 or solo with a
    difficulty from the engine's list) instead of the JSON box, validated on the server."""
    c = login(UserFactory())
    form = c.get("/games/new/").content.decode()
    block = form[form.index('data-games="faltisia"'):]
    block = block[:block.index("</fieldset>")]
    assert "2-6 players, or 1 for Solo Mode" in block and 'name="choose_characters"' in block
    assert [d for d in DIFFICULTY if f'value="{d}"' in block] == list(DIFFICULTY)
    assert 'name="extra_options"' not in block
    json_block = form[form.index('name="extra_options"') - 600:form.index('name="extra_options"')]
    assert "faltisia" not in json_block.split("data-games=")[-1].split(">")[0]
    r = c.post("/games/new/", {"game": "faltisia", "seats": 1, "clock": "none", "solo_difficulty": "godlike"})
    assert r.status_code == 200 and "Select a valid choice" in r.content.decode() and not Game.objects.exists()


def test_faltisia_history_headings_are_worded_by_its_package():
    """The log's step headings come from the game's package (the page passes the game's own hook;
    tests/web/test_history.py shows them on a played Faltisia page); the generic wording is for the rest."""
    faltisia = registry.presentation_for("faltisia")
    assert faltisia.step_label({"round": 1, "term": 3, "phase": "lecture"}) == "Term 3 · Lecture"
    assert faltisia.step_label({"round": 1, "term": 7, "phase": "exams"}) == "Exams"
    assert faltisia.step_label({"phase": "over"}) == "Game over"
    assert registry.GENERIC.step_label({"phase": "over"}) == "Over"
    assert registry.GENERIC.step_label({"phase": "pay_tuition", "term": 2}) == "Term 2 · Pay tuition"
    assert registry.GENERIC.step_label({}) == ""
