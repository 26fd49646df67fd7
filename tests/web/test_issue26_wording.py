"""Issue 26 item 6, wording and small things on the pages and in the mails: plurals instead of "(s)", the forced
pick's log line as sentences, a Mage Knight turn as one history group (never under a "Tactics" heading), Mage
Knight's glossary, the solo end screens (the automaton beside the player, the win or loss, no lone "#1"), and the
phone's score table and invite link.
"""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

import pytest

from games.models import Event
from games.presentation.registry import presentation_for
from games.services.turn import forced_pick_note
from games.web.selectors import history_by_round

ROOT = Path(__file__).resolve().parents[2]


def _ev(step: int, text: str, **data) -> Event:
    return Event(phase=step, text=text, data=data)


# --- plurals --------------------------------------------------------------------------------------------------

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


# --- the forced pick --------------------------------------------------------------------------------------------

class _Row:
    def __init__(self, text, options):
        self.text, self.options = text, options


@pytest.mark.parametrize("text, label, said", [
    ("Your turn", "end turn", "Your turn. Only one choice, picked for you: end turn."),
    ("Rest: discard", "discard Stamina", "Rest: discard. Only one choice, picked for you: discard Stamina."),
    ("Which does she produce?", "1 Friendship Point",
     "Which does she produce? Only one choice, picked for you: 1 Friendship Point."),
    ("Pick a card.", "Card 7.", "Pick a card. Only one choice, picked for you: Card 7.")])
def test_the_forced_pick_line_is_sentences(text, label, said):
    """Issue 26 item 6: "Your turn Only one choice: end turn (picked for you)." read as one run-on line."""
    note = forced_pick_note(_Row(text, [{"id": "x", "label": label}]), position=0, option_id="x")
    assert note.text == said and note.seats == (0,)


# --- Mage Knight's history ---------------------------------------------------------------------------------------

SEATS = [{"position": 0, "player": "alice", "is_bot": False}, {"position": 1, "player": "bob", "is_bot": False}]


def _mk_steps(events):
    mk = presentation_for("mage_knight")
    rounds = history_by_round(events, step_label=mk.step_labeller(SEATS), opens_step=mk.opens_step)
    return [(s.label, [e.text for e in s.events]) for r in rounds for s in r.steps]


def test_a_mage_knight_turn_is_one_group_from_begins_to_ends():
    """The pick that ends bob's turn writes "alice's turn begins" in its step; alice's turn runs over the next
    steps (each pick a step) and ends in the last: one group headed "alice's turn", no one-line groups."""
    events = [_ev(3, "bob's turn ends.", seat=1, kind="turn_end"),
              _ev(3, "alice's turn begins.", seat=0, kind="turn_start"),
              _ev(4, "alice moves to 1,0.", seat=0),
              _ev(5, "alice fights the Diggers.", seat=0),
              _ev(5, "You draw March.", ),  # the seat's private draw: no seat in its data
              _ev(6, "alice's turn ends.", seat=0, kind="turn_end"),
              _ev(6, "bob's turn begins.", seat=1, kind="turn_start"),
              _ev(7, "bob rests.", seat=1)]
    steps = _mk_steps(events)
    assert steps == [("bob's turn", ["bob's turn ends."]),
                     ("alice's turn", ["alice's turn begins.", "alice moves to 1,0.", "alice fights the Diggers.",
                                       "You draw March.", "alice's turn ends."]),
                     ("bob's turn", ["bob's turn begins.", "bob rests."])]


def test_a_tactic_used_mid_turn_stays_in_the_turn_and_heads_no_tactics_group():
    """Issue 26 item 6: "Mage Knight history fights under a 'TACTICS' heading". A tactic *taken* (rounds.py) heads
    "Tactics · alice's choice"; one *used* during the turn (Long Night, tactic_turn.py) is part of the turn, and
    the fight after it too."""
    events = [_ev(1, "alice takes the tactic Long Night", seat=0, tactic="long_night"),
              _ev(2, "bob takes the tactic Rethink", seat=1, tactic="rethink"),
              _ev(2, "alice's turn begins.", seat=0, kind="turn_start"),
              _ev(3, "alice uses Long Night", seat=0, kind="tactic_use", tactic="long_night"),
              _ev(3, "alice attacks the Orcs.", seat=0),
              _ev(4, "alice's turn ends.", seat=0, kind="turn_end")]
    steps = _mk_steps(events)
    assert [label for label, _ in steps] == ["Tactics · alice's choice", "Tactics · bob's choice", "alice's turn"]
    assert steps[2][1] == ["alice's turn begins.", "alice uses Long Night", "alice attacks the Orcs.",
                           "alice's turn ends."]


def test_the_engine_marks_a_tactic_used_mid_turn():
    """tactic_turn.py: every tactic used during a turn is logged with kind "tactic_use" (rounds.py's tactic taken
    has none), so the history can tell the two apart."""
    from games.engines.mage_knight import tactic_turn

    src = Path(tactic_turn.__file__).read_text()
    uses = re.findall(r'\{"seat": seat, (?:"kind": "(\w+)", )?"tactic": "(\w+)"', src)
    assert uses and all(kind == "tactic_use" for kind, _ in uses), uses


def test_other_games_still_group_by_step():
    """Faltisia and Miskatonic have no opens_step: a step is a phase, as before."""
    events = [_ev(1, "a", seat=0), _ev(2, "b", seat=0), _ev(2, "c", seat=1)]
    assert [len(s.events) for s in history_by_round(events)[0].steps] == [1, 2]


# --- Mage Knight's glossary ---------------------------------------------------------------------------------------

def test_mage_knight_has_a_glossary_from_its_rulebook(client, db):
    """Issue 26 item 6: "the Mage Knight rules page has no glossary (0 terms, against 38 for Faltisia)"."""
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


# --- the solo end screens: the final mail ------------------------------------------------------------------------

def test_a_solo_faltisias_final_mail_names_the_classmate_and_the_outcome_not_a_place(db):
    """Solo Scoring: "the player or Classmate with the most MP wins the game" (faltisia-rulebook-en.txt). The
    game-over mail of a Solo Mode game says the win or loss and both scores, never "you placed 2nd" alone."""
    from games.mail.compose import render_finished
    from games.models import GameStatus, Seat
    from games.services import game_create
    from tests.factories import UserFactory
    from tests.web.conftest import play_until

    user = UserFactory()
    game = game_create(created_by=user, engine="faltisia", players=1, seed=5, is_public=True,
                       options={"solo": {"difficulty": "beginner"}})
    play_until(game, lambda g: g.status == GameStatus.FINISHED)
    game.refresh_from_db()
    mail = render_finished(game=game, seat=Seat.objects.get(game=game, position=0), user=user)
    assert "placed" not in mail.subject
    assert re.search(r"game over, (you beat the Classmate|the Classmate won|a draw with the Classmate), "
                     r"\d+ to \d+$", mail.subject), mail.subject
    assert "Solo game: " in mail.text and "Solo game: " in mail.html


def test_a_mage_knight_solo_finished_page_shows_the_dummy_player_not_a_lone_first_place(db, login):
    """First Reconnaissance's solo variant: the Dummy Player takes turns but scores no Fame and "no titles are
    awarded" (scenario data); the final table shows it beside the player, and no "#1" rank for one player."""
    from games.models import GameStatus
    from games.services import game_create
    from tests.factories import UserFactory
    from tests.web.conftest import play_until

    user = UserFactory()
    game = game_create(created_by=user, engine="mage_knight", players=1, seed=3, is_public=True, options={})
    play_until(game, lambda g: g.status == GameStatus.FINISHED, limit=20000)
    html = login(user).get(f"/games/{game.pk}/").content.decode()
    table = html[html.index('id="result"'):]
    table = table[:table.index("</section>")]
    assert 'id="solo-outcome"' in table and 'id="dummy-row"' in table and "The Dummy Player" in table
    assert 'class="rank rank-1"' not in table
