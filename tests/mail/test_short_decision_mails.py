"""Short decision mails: the options first (numbered, one line each), then the situation, then the legend; one
link to the decision page instead of one per option in the plain text (per-option buttons may stay in HTML);
under 40 lines for a typical Mage Knight decision. Card and site names as in the rules.

A whole 2-player Mage Knight game is played through the services (the greedy bot's picks); at every decision
the seat is asked, its prompt mail is rendered as it would be sent (compose.render_prompt), and so is the
answer to an email reply that carries that decision ("recorded, your next decision"). Every one of them stays
under 40 lines of plain text, with the options first, the situation next, the legend last, one link to the
decision page and none per option; and shows no id held only in hidden places (the rules: enemy tokens "face
down", the shuffled tile and deed decks). The "status" answer keeps the whole situation, card texts included.
"""

from __future__ import annotations

import re

import pytest
from django.test import TestCase

from games.engines.bots import make_bot
from games.engines.registry import get_engine
from games.mail import compose
from games.models import Game, Prompt, Seat
from games.presentation.mage_knight import labels
from games.services import submission_create
from tests.mail.helpers import start_game
from tests.games.test_mage_knight_api import named_enemies, secret_ids

pytestmark = pytest.mark.django_db

LIMIT = 40
OPTION_LINE = re.compile(r"^  (\d+)\. .+  \[(\S+)\]$")
URL = re.compile(r"https?://\S+")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # an engine id ("magical_glade") where a name belongs


def check_decision_text(text: str, *, prompt: Prompt, game: Game, state: dict) -> None:
    lines = text.splitlines()
    assert len(lines) < LIMIT, (len(lines), text)
    # Options first: the decision heads the mail (a reminder's one line may come before it), one line each.
    start = next(i for i, line in enumerate(lines) if line.startswith("YOUR DECISION: "))
    assert start <= 1, text
    options = [OPTION_LINE.match(line) for line in lines[start + 1:start + 1 + len(prompt.options)]]
    assert all(options), text
    assert [m.group(2) for m in options] == [o["id"] for o in prompt.options]
    # Then the situation, then the legend (the reply commands and the rules' link), last.
    hero = lines.index(next(line for line in lines if line.startswith("Your hero: ")))
    legend = lines.index("--")
    assert start + len(prompt.options) < hero < legend and legend >= len(lines) - 3, text
    # One link to the decision page; none per option (the only other link is the rules').
    decision = compose.decision_url(game)
    urls = URL.findall(text)
    assert urls.count(decision) == 1 and "/mail/l/" not in text, urls
    assert set(urls) - {decision} <= {u for u in urls if "/rules/" in u}, urls
    # Card and site names as the rules write them, never the engine's ids (outside the [option id]s and links).
    words = URL.sub("", re.sub(r"  \[\S+\]$", "", text, flags=re.MULTILINE))
    assert not SNAKE.findall(words), SNAKE.findall(words)
    # Nothing the seat may not know.
    ids = secret_ids(state)
    assert not [i for i in ids if re.search(rf"\b{re.escape(i)}\b", text)]
    assert not named_enemies(text, ids)


def test_every_mage_knight_decision_mail_of_a_played_game_is_short():
    engine, bot = get_engine("mage_knight"), make_bot("mage_knight", "greedy")
    game, users = start_game(players=2, engine="mage_knight", seed=8)
    counts: list[int] = []
    sites_seen: set[str] = set()
    for _ in range(2000):
        prompt = (Prompt.objects.filter(game=game, closed_at__isnull=True).select_related("seat__user", "game")
                  .order_by("seat__position").first())
        if prompt is None:
            break
        game = Game.objects.get(pk=game.pk)
        user = prompt.seat.user
        mail = compose.render_prompt(prompt=prompt, user=user)
        check_decision_text(mail.text, prompt=prompt, game=game, state=game.state)
        counts.append(len(mail.text.splitlines()))
        assert mail.subject.startswith(f"Mage Knight #{game.pk}: your turn")
        # The HTML part keeps a button per option and the whole situation (card texts with the hand).
        assert mail.html.count("/mail/l/") == len(prompt.options)
        answer = compose.render_answer(seat=prompt.seat, user=user, title="Recorded", lines=["Recorded: 1."],
                                       ok=True, show_prompt=True, prompt=prompt)
        assert answer.subject == f"Mage Knight #{game.pk}: recorded, your next decision"
        head, _, rest = answer.text.partition("\n\n")
        assert head == "Recorded\nRecorded: 1.", answer.text
        check_decision_text(rest, prompt=prompt, game=game, state=game.state)
        assert len(answer.text.splitlines()) < LIMIT
        sites_seen |= {name for name, _ in labels.SITES.values() if name in mail.text}
        option = bot.choose(engine, game.state, prompt.seat.position)
        with TestCase.captureOnCommitCallbacks(execute=True):  # the step's resolution, as the worker runs it
            submission_create(seat=Seat.objects.get(pk=prompt.seat_id), prompt_id=prompt.prompt_id,
                              option_id=option, source="web")
    game.refresh_from_db()
    assert game.state["over"], "the game did not end"
    counts.sort()
    assert len(counts) >= 150, len(counts)  # many decisions, every kind the game asks
    assert counts[-1] < LIMIT and counts[len(counts) // 2] <= 35, (counts[len(counts) // 2], counts[-1])
    assert len(sites_seen) >= 3, sites_seen  # the map near the hero named its sites ("Magical Glade", ...)


def test_the_status_answer_keeps_the_whole_situation_with_the_card_texts():
    game, (user, _) = start_game(players=2, engine="mage_knight", seed=8)
    seat = Seat.objects.get(game=game, position=0)
    status = compose.render_answer(seat=seat, user=user, title="Your current situation", lines=[], ok=True,
                                   show_prompt=False, show_situation=True)
    assert "\nYour hand\n" in status.text and "Powered (" in status.text, status.text
    prompt = Prompt.objects.filter(game=game, closed_at__isnull=True).select_related("seat__user").first()
    short = compose.render_prompt(prompt=prompt, user=prompt.seat.user)
    assert "Your hand: " in short.text and "Powered (" not in short.text
    assert "Powered (" in short.html  # the HTML part keeps the card texts
