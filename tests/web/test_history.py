"""History by round on the game page.

Contract: events are grouped by ``event.data["round"]`` when the engine stamps it (Faltisia: round 0
is setup), server events without it stay in the round under way, and engines without round data
fall back to the "Round N:" announcement text; each step is labelled from its events' term/phase.
"""

from __future__ import annotations

import re
from pathlib import Path

from games.models import Event
from games.presentation.registry import presentation_for
from games.web.selectors import history_by_round
from tests.web.conftest import play_until


def _ev(step: int, text: str, **data) -> Event:
    return Event(phase=step, text=text, data=data)


def test_history_groups_by_the_round_in_event_data_not_the_text():
    events = [
        _ev(1, "The game begins."),  # the server's own event: no data
        _ev(2, "Starting attributes revealed.", round=0, term=0, phase="setup"),
        _ev(2, "Store restocked; drafting begins.", round=1, term=0, phase="registration"),
        _ev(9, "Red lecture attended.", round=1, term=1, phase="lecture"),
        _ev(9, "Admin boss paused the game.", admin="boss", action="pause"),  # stays in round 1
        _ev(10, "Round 9: a card names a round in its text.", round=1, term=1, phase="action"),
        _ev(11, "Exams, strength.", round=1, term=7, phase="exams"),
        _ev(11, "New store; drafting again.", round=2, term=0, phase="registration"),
    ]
    # The step headings' wording is Faltisia's presentation package's (the page passes it the same way).
    rounds = history_by_round(events, step_label=presentation_for("faltisia").step_label)
    assert [r.title for r in rounds] == ["Setup", "Round 1", "Round 2"]
    assert [[e.text[:5] for s in r.steps for e in s.events] for r in rounds] == [
        ["The g", "Start"], ["Store", "Red l", "Admin", "Round", "Exams"], ["New s"]]
    labels = [s.label for s in rounds[1].steps]
    assert labels == ["Registration", "Term 1 · Lecture", "Term 1 · Action", "Exams"]


def test_a_mage_knight_turn_is_headed_by_its_own_seat_though_the_turn_before_wrote_its_first_event():
    """What did the others do? The pick that ends alice's turn writes "Bot 2's turn begins"
    in the same step; the history gives Bot 2's turn its own group and heading, and alice's ending stays hers."""
    mk = presentation_for("mage_knight")
    seats = [{"position": 0, "player": "alice", "is_bot": False}, {"position": 1, "player": None, "is_bot": True}]
    events = [
        _ev(5, "alice's turn begins.", seat=0, kind="turn_start"),
        _ev(5, "alice plays March.", seat=0),
        _ev(6, "alice's turn ends.", seat=0),
        _ev(6, "Bot 2's turn begins.", seat=1, kind="turn_start"),
        _ev(7, "Bot 2 moves.", seat=1),
        _ev(7, "The Dummy Player flips 3 cards.", seat=-1, flipped=["march", "rage", "swiftness"]),
    ]
    steps = history_by_round(events, step_label=mk.step_labeller(seats), opens_step=mk.opens_step)[0].steps
    # A turn is one group, its "turn begins" and "turn ends" included, across the steps.
    assert [[e.text[:8] for e in s.events] for s in steps] == [
        ["alice's ", "alice pl", "alice's "], ["Bot 2's ", "Bot 2 mo"], ["The Dumm"]]
    assert [s.label for s in steps] == ["alice's turn", "Bot 2's turn", "The Dummy Player's turn"]
    # Without the game's hook the step is the only grouping (the generic presentation's behaviour).
    assert len(history_by_round(events)[0].steps) == 3


def test_engines_without_round_data_fall_back_to_the_announcement_text():
    events = [_ev(1, "The game begins."), _ev(1, "Round 1: go."), _ev(2, "Something."), _ev(3, "Round 2: again.")]
    assert [r.title for r in history_by_round(events)] == ["Setup", "Round 1", "Round 2"]
    assert [r.title for r in history_by_round([_ev(1, "a"), _ev(2, "b")])] == ["Game log"]


def test_the_faltisia_game_page_shows_history_by_round_from_event_data(db, login, faltisia2):
    game, users = faltisia2
    play_until(game, lambda g: (g.state or {}).get("round") == 2 and g.state.get("term", 0) >= 1)
    # The engine's events (not the server's own, e.g. a forced pick's note).
    stamped = [d for d in Event.objects.filter(game=game).exclude(data={}).values_list("data", flat=True)
               if d.get("action") != "forced"]
    assert stamped and all({"round", "term", "phase"} <= set(d) for d in stamped)
    assert {d["round"] for d in stamped} == {0, 1, 2}
    page = login(users[0]).get(f"/games/{game.pk}/").content.decode()
    history = page[page.index('id="history"'):]
    assert history.index("<summary>Round 2</summary>") < history.index("<summary>Round 1</summary>") \
        < history.index("<summary>Setup</summary>")  # newest first
    assert "Term 1 · Lecture" in history and "Exams" in history


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
    """A fight is never listed under a "Tactics" heading: a tactic *taken* (rounds.py) heads "Tactics · alice's
    choice"; one *used* during the turn (Long Night, tactic_turn.py) is part of the turn, and the fight after it
    too."""
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
