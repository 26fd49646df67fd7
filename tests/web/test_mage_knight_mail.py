"""Mage Knight by email, saying what the board and the API view say: the prompt email's situation
(the hexes around the hero and the explore options, the hand, the pools, a combat), its heading line, the game-over
email's score labels, and the canaries (another seat's hand card, a face-down enemy's and ruins token's identity)
never in another seat's email.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import TestCase

from games.mail.compose import render_prompt
from games.models import Prompt
from games.presentation import registry

from .test_mage_knight_board import (HAND_CANARY, assert_no_canary, drive, in_combat, mid_game, mk_game, needs_engine,
                                     plant_canaries, register_canaries, sample_view)

pytestmark = pytest.mark.django_db


def prompt_mail(game, seat: int) -> str:
    prompt = Prompt.objects.get(game=game, seat__position=seat, closed_at__isnull=True)
    user = prompt.seat.user
    rendered = render_prompt(prompt=prompt, user=user)
    return rendered.subject + "\n" + rendered.text + "\n" + rendered.html


def test_the_situation_sections_in_order_for_a_player():
    """The mail says what the page shows: the hero's tracks, the hand, this turn's pool, the map around the hero,
    the source, the offers and the other heroes."""
    sections = registry.presentation_for("mage_knight").mail_sections(sample_view(0), 0)
    assert [title for title, _ in sections] == ["Your hero", "Your hand", "This turn", "Around you",
                                                "Mana source", "Offers", "The other heroes"]
    others = dict(sections)["The other heroes"]
    assert others == ["Seat 2 Arythea at 1,-1: Fame 4, Reputation -2, level 1; hand 5, deed deck 8; "
                      "units: Guardian Golems (wounded)"]
    assert dict(sections)["Mana source"] == ["red (taken), black, blue, gold",
                                             "Night: black mana powers spells, gold cannot be used."]


def test_the_tactics_section_appears_while_tactics_are_chosen():
    """Rules "Choose Tactic Cards": the cards still to choose, with their numbers."""
    view = sample_view(0)
    view["phase"] = "tactics"
    sections = dict(registry.presentation_for("mage_knight").mail_sections(view, 0))
    assert sections["Tactics"] == ["Still to choose: Mana Search (3), Preparation (5)"]
    mk = registry.presentation_for("mage_knight")
    assert mk.where(view) == "Round 2 of 3 (Night): tactics, you choose"  # the reader's own choice
    assert mk.where(sample_view(1) | {"phase": "tactics"}) == "Round 2 of 3 (Night): tactics, seat 1 chooses"
    assert mk.where(sample_view(None)) == "Round 2 of 3 (Night): seat 1's turn"  # a spectator's digest


@needs_engine
def test_a_real_prompt_email_has_the_situation_and_the_options(db):
    """The prompt email lists the map around the player and the explore options, hand, pools."""
    game, users = mk_game()
    drive(game, mid_game)
    seat = game.state["dec"]["seat"]
    text = prompt_mail(game, seat)
    for title in ("Your hero", "Your hand", "Around you", "Mana source", "Offers"):
        assert title in text, title
    assert "You are at " in text and f"Round {game.state['round']} of {game.state['rounds_total']}" in text
    pos = game.state["seats"][seat]["pos"]
    assert f"You are at {pos} " in text


@needs_engine
def test_a_combat_prompt_email_has_the_combat_section(db):
    """Rules "Combat Phases": the email names the phase and each enemy's armor and attacks."""
    game, users = mk_game(seed=11)
    drive(game, in_combat, limit=6000)
    seat = game.state["dec"]["seat"]
    text = prompt_mail(game, seat)
    assert "Combat" in text and "armor" in text and "attack" in text


@needs_engine
def test_no_email_shows_another_seats_hand_or_a_face_down_token(monkeypatch):
    """Canaries by email: seat 0's prompt email never holds seat 1's hand card, a face-down enemy's
    identity or a face-down ruins token's; seat 1's own email shows its hand card (so the check can fail)."""
    register_canaries(monkeypatch)
    game, users = mk_game()
    drive(game, lambda s: mid_game(s) and s["dec"]["seat"] == 0)
    plant_canaries(game)
    assert_no_canary(prompt_mail(game, 0), "seat 0's prompt email")
    from games.engines.registry import get_engine
    view = get_engine("mage_knight").view(game.state, 1)
    text = str(registry.presentation_for("mage_knight").mail_sections(view, 1))
    assert HAND_CANARY[1] in text
    assert_no_canary(text, "seat 1's situation", own_hand=True)


@needs_engine
def test_the_game_over_email_names_the_achievements(db):
    """Rules "Scoring" in the game-over email: Fame and the achievements in words, not keys."""
    from games.mail.compose import render_finished
    from games.models import Seat
    game, users = mk_game(seed=5)
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        drive(game, lambda s: False, limit=20000)
    game.refresh_from_db()
    seat = Seat.objects.get(game=game, position=0)
    text = render_finished(game=game, seat=seat, user=seat.user).text
    assert "Fame" in text and "greatest_" not in text
