"""Take-backs by email: a reply line `undo` (and `undo turn`) works like the API, in a multi-pick reply too,
in order; the same service as ``POST /api/games/{id}/undo/``, so the same rule: a
secret pick of a simultaneous step may be changed until the step resolves, and nothing is taken back twice.
"""

from __future__ import annotations

import pytest

from games.mail.commands import command_parse, undo_target
from games.models import Game, Prompt, Submission
from tests.mail import helpers
from tests.mail.helpers import latest_prompt_mail, mails_to, reply_bytes, start_game

pytestmark = pytest.mark.django_db


def answer_text(user) -> str:
    return [m for m in mails_to(user.email) if m.extra_headers.get("Auto-Submitted") == "auto-replied"][-1].body


def picks_of(game: Game, position: int) -> list[str]:
    return list(Submission.objects.filter(game=game, seat__position=position, phase=Game.objects.get(pk=game.pk).phase)
                .order_by("id").values_list("option_id", flat=True))


@pytest.mark.parametrize("line, target", [("undo", "last"), ("Undo.", "last"), ("undo last", "last"),
                                          ("UNDO TURN", "turn"), ("undo turn!", "turn")])
def test_take_back_lines_are_read(line, target):
    assert undo_target(line) == target
    assert command_parse(line).name == "undo" and command_parse(line).args == (target,)


@pytest.mark.parametrize("line", ["undo 3", "undone", "undo the last two", "2 undo"])
def test_other_lines_are_not_take_backs(line):
    assert undo_target(line) is None
    assert command_parse(line).name != "undo"


def test_a_secret_pick_changed_by_email_until_the_step_resolves():
    game, users = start_game(players=3, engine="faltisia", seed=5)
    first = latest_prompt_mail(users[0].email)
    options = Prompt.objects.get(game=game, seat__position=0, closed_at__isnull=True).options
    assert helpers.pipe(reply_bytes(first, "1")).startswith("recorded")
    assert picks_of(game, 0) == [options[0]["id"]]

    helpers.pipe(reply_bytes(first, "undo"))  # a reply to the same decision mail: the prompt it answered
    assert picks_of(game, 0) == []
    assert Prompt.objects.filter(game=game, seat__position=0, closed_at__isnull=True).exists()
    assert "Done: you took back 1 move." in answer_text(users[0])

    helpers.pipe(reply_bytes(first, "undo"))  # nothing left to take back: said, nothing changes
    assert "Nothing was taken back" in answer_text(users[0]) and picks_of(game, 0) == []

    # In order, in one reply: pick 1, take it back, pick 2.
    assert helpers.pipe(reply_bytes(first, "1\nundo\n2")).startswith("recorded")
    assert picks_of(game, 0) == [options[1]["id"]]
    text = answer_text(users[0])
    assert "Applied: 1. " in text and "2. undo: took back 1 move; 3. " in text
    # The other seats read that the seat changed its decision, never what it was.
    game.refresh_from_db()
    public = [e.text for e in game.events.filter(visibility__isnull=True)]
    assert any("changed their decision" in t for t in public)
    assert not any(options[0]["label"] in t for t in public if "changed" in t)


def test_undo_after_the_step_resolved_takes_nothing_back():
    """The step resolved (every seat made every pick of it): its secret picks are final; a late "undo" to the
    step's first mail changes nothing and says so."""
    game, users = start_game(players=3, engine="faltisia", seed=5)
    first = latest_prompt_mail(users[0].email)
    answered: set[str] = set()
    while Game.objects.get(pk=game.pk).phase == 1:
        assert helpers.reply_round(users, answered) > 0, "the first step never resolved"
    game.refresh_from_db()
    state, submissions = game.state, Submission.objects.filter(game=game).count()
    helpers.pipe(reply_bytes(first, "undo"))
    game.refresh_from_db()
    assert "Nothing was taken back" in answer_text(users[0])
    assert (game.state, Submission.objects.filter(game=game).count()) == (state, submissions)
