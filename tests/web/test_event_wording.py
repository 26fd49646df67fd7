"""Events in plain English, never Python. Every surface that shows an event's text (the game page's
history and "since your last visit", the replay, the emails, the API log's ``text``) says it in plain English
with the players' names: "alice (Kaede), bob (Nicole) and Bot 3 (...) attended the yellow lecture: +1 Beauty".
Never a Python list ("seats [0, 1, 2]"), never a 0-based "seat 0", a bot is "Bot 3 (...)", never "bot (bot)".
The API keeps the structured data with 0-based positions. Hidden information is unchanged: a canary card in
bob's hand reaches none of alice's surfaces (the pattern of tests/mail/test_privacy.py).
"""

from __future__ import annotations

import html
import re

import pytest
from django.core import mail
from django.test import TestCase

from games.engines.bots import make_bot
from games.engines.faltisia.cards import CARDS
from games.engines.registry import get_engine
from games.models import Game, GameStatus, Prompt
from games.services import game_create, game_join
from tests.factories import UserFactory
from tests.games.helpers import pick
from tests.mail.test_privacy import unique_unused_card
from tests.web.conftest import client_for
from tests.web.miskatonic_helpers import greedy_pick

pytestmark = pytest.mark.django_db

PYTHON_SPEAK = re.compile(r"[\[\]]|\bseats \[|\b[Ss]eat 0\b|\bbot \(bot\)|\bBot 0\b")
EVENT_LIST = re.compile(r'<(?:ol|ul) class="events"[^>]*>(.*?)</(?:ol|ul)>', re.S)
ITEM = re.compile(r"<li>(.*?)</li>", re.S)
MAIL_EVENT = re.compile(r"^  - (.*)$", re.M)  # "what happened" lines of the text emails (templates/email/*.txt)


def page_event_texts(body: str) -> list[str]:
    """Every event text in the history lists of a game page or a replay page."""
    return [html.unescape(t).strip() for block in EVENT_LIST.findall(body) for t in ITEM.findall(block)]


def mail_event_texts(address: str) -> list[str]:
    return [t for m in mail.outbox if address in m.to for t in MAIL_EVENT.findall(m.body)]


def start_three_seats(engine: str, seed: int):
    """alice (seat 1), bob (seat 2) and a bot (seat 3), started through the services, first mails sent."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = game_create(created_by=alice, engine=engine, players=3, bots=1, seed=seed)
        game_join(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    return game, alice, bob


def greedy_faltisia_pick(game: Game, avoid: str | None = None) -> bool:
    """The first seat with an open prompt picks what the greedy bot would (never an option naming ``avoid``)."""
    prompt = Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position").first()
    if prompt is None:
        return False
    position = prompt.seat.position
    option = make_bot("faltisia", "greedy", position).choose(get_engine("faltisia"), game.state, position)
    if avoid and avoid in option:
        option = next(o["id"] for o in prompt.options if avoid not in o["id"])
    pick(game, position, option)
    return True


def assert_plain_english(texts: list[str], where: str) -> None:
    assert texts, f"no event text on {where}"
    bad = [t for t in texts if PYTHON_SPEAK.search(t)]
    assert not bad, (where, bad[:5])


def test_a_whole_faltisia_game_reads_in_plain_english_with_the_players_names_everywhere():
    """Never "Yellow lecture attended by seats [0, 1, 2]" nor "Seat 0 (...)": names, and seats 1-based."""
    game, alice, bob = start_three_seats("faltisia", seed=5)
    web, api = client_for(alice), client_for(alice)
    # Play until bob holds a hand in an action phase; plant a canary there (tests/mail/test_privacy.py).
    for _ in range(2000):
        game.refresh_from_db()
        if game.state["phase"] == "action" and game.state["seats"][1]["hand"]:
            break
        assert greedy_faltisia_pick(game)
    canary = unique_unused_card(game.state)
    game.state["seats"][1]["hand"].append(canary)
    game.state["box"].remove(canary)
    game.save(update_fields=["state"])
    secret = re.compile(rf"(\b{re.escape(canary)}\b|{re.escape(CARDS[canary].name)})")
    alice_mails_before = len([m for m in mail.outbox if alice.email in m.to])
    for _ in range(12):  # a few steps with the canary in bob's hand, bob never playing it
        game.refresh_from_db()
        greedy_faltisia_pick(game, avoid=canary)
    game.refresh_from_db()
    assert canary in game.state["seats"][1]["hand"]  # still secret: the check below can fail for real
    page = web.get(f"/games/{game.pk}/").content.decode()
    log = api.get(f"/api/games/{game.pk}/log/").json()["events"]
    alice_new_mails = [m for m in mail.outbox if alice.email in m.to][alice_mails_before:]
    assert alice_new_mails
    assert not secret.search(page)
    assert not any(secret.search(e["text"]) for e in log)
    assert not any(secret.search(m.body) for m in alice_new_mails)
    # Play to the end.
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        assert greedy_faltisia_pick(game, avoid=canary)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED

    surfaces = {}
    for user in (alice, bob):
        c = client_for(user)
        surfaces[f"{user.username}'s page"] = page_event_texts(c.get(f"/games/{game.pk}/").content.decode())
        body = c.get(f"/api/games/{game.pk}/log/").json()["events"]
        surfaces[f"{user.username}'s API log"] = [e["text"] for e in body]
        surfaces[f"{user.username}'s emails"] = mail_event_texts(user.email)
    replay = []
    phases = sorted({e["phase"] for e in api.get(f"/api/games/{game.pk}/log/").json()["events"]})
    for phase in phases[::7] + phases[-1:]:
        replay += page_event_texts(web.get(f"/games/{game.pk}/replay/?step={phase}").content.decode())
    surfaces["alice's replay"] = replay
    for where, texts in surfaces.items():
        assert_plain_english(texts, where)

    log_texts = surfaces["alice's API log"]
    joined = "\n".join(log_texts)
    # The players' names with their characters, the bot as "Bot 3 (...)", seats 1-based.
    assert re.search(r"\balice \([A-Z][^)]*\)", joined) and re.search(r"\bbob \([A-Z][^)]*\)", joined)
    assert re.search(r"\bBot 3 \([A-Z][^)]*\)", joined)
    assert not re.search(r"\b(Alice|Bob)\b", joined)  # a name is written as its player wrote it
    assert any(re.search(r"attended the (red|blue|yellow|green|white|black|purple) lecture: \+1 ", t)
               for t in log_texts), log_texts[:20]
    assert any(t.startswith("Starting attributes revealed: alice (") for t in log_texts)
    assert any(t.startswith("Game over: 1st ") for t in log_texts)
    # The API keeps the structured data with 0-based positions.
    log = api.get(f"/api/games/{game.pk}/log/").json()["events"]
    lecture = next(e for e in log if "lecture:" in e["text"] and "attendees" in e["data"])
    assert all(isinstance(s, int) and 0 <= s <= 2 for s in lecture["data"]["attendees"])
    # The stored text is the engine's own, already plain English (the fallback for a game without names).
    stored = list(game.events.values_list("text", flat=True))
    assert_plain_english(stored, "the stored texts")


def test_an_old_event_without_a_wording_keeps_its_text(db):
    """Events stored before the wording existed still render, as their own text."""
    game, alice, _ = start_three_seats("faltisia", seed=2)
    game.events.create(phase=game.phase, text="An old event from before.", data={"round": 0, "term": 0})
    game.events.create(phase=game.phase, text="Old wording naming a seat nobody sits at.",
                       data={"wording": "{seat} did it.", "seat": 7})
    texts = [e["text"] for e in client_for(alice).get(f"/api/games/{game.pk}/log/").json()["events"]]
    assert "An old event from before." in texts and "Old wording naming a seat nobody sits at." in texts


def test_a_miskatonic_game_reads_in_plain_english_with_the_players_names():
    """Miskatonic: "Round 2: alice's turn", "Bot 3 buys ...", never "seat 0"."""
    game, alice, bob = start_three_seats("miskatonic", seed=3)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        assert greedy_pick(game)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    c = client_for(alice)
    page = page_event_texts(c.get(f"/games/{game.pk}/").content.decode())
    log = [e["text"] for e in c.get(f"/api/games/{game.pk}/log/").json()["events"]]
    mails = mail_event_texts(alice.email) + mail_event_texts(bob.email)
    for where, texts in (("page", page), ("API log", log), ("emails", mails)):
        assert_plain_english(texts, where)
    joined = "\n".join(log)
    assert "alice's turn" in joined and "bob's turn" in joined and "Bot 3's turn" in joined
    assert "Game over: " in joined


def test_a_mage_knight_game_reads_in_plain_english_with_the_players_names():
    """Mage Knight: every event that names a seat names its player ("alice fights; the enemies
    are revealed", "Round order: alice, bob and Bot 3", "bob takes 2 wounds from Prowlers"), never "Seat 1"."""
    engine = get_engine("mage_knight")
    game, alice, bob = start_three_seats("mage_knight", seed=4)
    for _ in range(3000):
        game.refresh_from_db()
        prompt = Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position").first()
        if game.status != GameStatus.ACTIVE or prompt is None:
            break
        position = prompt.seat.position
        pick(game, position, make_bot("mage_knight", "greedy", position).choose(engine, game.state, position))
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    log = [e["text"] for e in client_for(alice).get(f"/api/games/{game.pk}/log/").json()["events"]]
    assert_plain_english(log, "API log")
    assert not [t for t in log if re.search(r"\bSeat \d", t)], [t for t in log if re.search(r"\bSeat \d", t)][:5]
    joined = "\n".join(log)
    assert "Round order: " in joined and "alice" in joined and "bob" in joined and "Bot 3" in joined
