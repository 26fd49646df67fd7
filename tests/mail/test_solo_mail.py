"""Email: a Solo Mode game played by email says what the Classmate did each term in plain
words, shows its token line, never names its face-down Graduation Requirements before the game is over, and
the game-over email reveals them."""

from __future__ import annotations

import re

import pytest

from games.engines.faltisia.cards import CARDS
from games.presentation.faltisia.mail import faltisia_situation
from games.models import Game
from tests.mail.helpers import mails_to, reply_round, start_game

pytestmark = pytest.mark.django_db


def _full(m) -> str:
    return m.subject + "\n" + m.body + "\n" + (m.alternatives[0][0] if m.alternatives else "")


def test_solo_game_by_email_tells_the_classmates_terms_and_hides_its_requirements_until_the_end():
    game, (user,) = start_game(players=1, engine="faltisia", seed=21, options={"solo": {"difficulty": "easy"}})
    secret = list(game.state["classmate"]["reqs"])
    pattern = re.compile("|".join([rf"\b{r}\b" for r in secret] + [re.escape(CARDS[r].name) for r in secret]))
    answered: set[str] = set()
    sent_before_last_reply = 0
    for _ in range(400):
        game.refresh_from_db()
        if game.status != "active":
            break
        sent_before_last_reply = len(mails_to(user.email))
        assert reply_round([user], answered) == 1
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished"
    mails = mails_to(user.email)
    during, after = mails[:sent_before_last_reply], mails[sent_before_last_reply:]
    assert len(during) > 50 and after
    for m in during:
        assert not pattern.search(_full(m)), m.subject
    # Plain words about each term: the prompt emails list the Classmate's events and its board.
    bodies = "\n".join(m.body for m in during)
    assert re.search(r"The Classmate \(.+\) attends the (red|blue|yellow|green) lecture", bodies)
    assert re.search(r"The Classmate \(.+\) plays [A-Z][^.]* face up", bodies)  # by name, no card number
    assert re.search(r"Round 1, term \d: the Classmate attends the \w+ lecture", bodies)
    assert "Token line, spent from the left:" in bodies and "in its face-down stack" in bodies
    # The game-over email reveals them.
    assert any(all(r in m.body for r in secret) and "the game is over" in m.body for m in after)


def test_situation_classmate_section_from_the_view_only():
    """The renderer reads the view; its requirement lines appear only when the view carries them."""
    from games.engines.faltisia.engine import FaltisiaEngine
    e = FaltisiaEngine()
    s = e.new_game(players=1, options={"solo": {"difficulty": "nightmare"}}, seed=2)
    view = e.view(s, 0)
    lines = dict(faltisia_situation(view, 0))["The Classmate"]
    assert any(line.startswith("Attributes: Strength 7") for line in lines)
    assert any("stay face down until the end" in line for line in lines)
    assert not any(r in "\n".join(lines) for r in s["classmate"]["reqs"])
    s["over"] = True
    lines = dict(faltisia_situation(e.view(s, 0), 0))["The Classmate"]
    assert all(r in "\n".join(lines) for r in s["classmate"]["reqs"])


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
