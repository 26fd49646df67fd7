"""The Undo buttons on the game page, one beside the decision (with what it takes back) and "Undo to start of
turn": they say what they take back, post to the same service as the API, and
show only to the seat that may take something back."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, TakeBack
from tests.factories import UserFactory
from tests.undo.helpers import frozen, open_prompt
from tests.games.test_undo import _mk, _two_free_picks

pytestmark = pytest.mark.django_db


def _page(client: Client, game: Game) -> str:
    return client.get(reverse("web:game", args=[game.pk])).content.decode()


def test_the_buttons_say_what_they_take_back_and_take_it_back():
    game, users = _mk()
    s0, s1, s2 = _two_free_picks(game)
    client = Client()
    client.force_login(users[0])
    html = _page(client, game)
    last = TakeBack.objects.filter(game=game, phase=game.phase).order_by("id").last().label
    moves = TakeBack.objects.filter(game=game, phase=game.phase).count()
    assert f"Undo: {last}" in html
    assert f"Undo to start of turn ({moves} moves)" in html
    prompt = re.search(r'class="decision-form undo-form".*?name="prompt" value="([^"]+)"', html, re.S).group(1)
    assert prompt == open_prompt(game, 0).prompt_id

    answer = client.post(reverse("web:game-undo", args=[game.pk]), {"prompt": prompt, "to": "last"}, follow=True)
    game.refresh_from_db()
    assert frozen(game.state) == s1
    assert "Taken back: 1 move." in answer.content.decode()

    prompt = open_prompt(game, 0).prompt_id
    client.post(reverse("web:game-undo", args=[game.pk]), {"prompt": prompt, "to": "turn"})
    game.refresh_from_db()
    assert TakeBack.objects.filter(game=game, phase=game.phase).count() == 0
    assert 'class="decision-form undo-form"' not in _page(client, game)  # nothing left to take back: no button


def test_a_stale_or_foreign_undo_changes_nothing_and_spectators_see_no_button():
    game, users = _mk()
    _two_free_picks(game)
    game.refresh_from_db()
    before = frozen(game.state)
    client = Client()
    client.force_login(users[0])
    answer = client.post(reverse("web:game-undo", args=[game.pk]), {"prompt": "0.0.0", "to": "last"}, follow=True)
    assert "already made" in answer.content.decode()
    client.post(reverse("web:game-undo", args=[game.pk]), {"prompt": open_prompt(game, 0).prompt_id, "to": "sideways"})
    client.post(reverse("web:game-undo", args=[game.pk]), {"prompt": "\x00", "to": "last"})
    watcher = Client()
    watcher.force_login(UserFactory())
    assert 'class="decision-form undo-form"' not in _page(watcher, game)
    watcher.post(reverse("web:game-undo", args=[game.pk]), {"prompt": open_prompt(game, 0).prompt_id, "to": "last"})
    game.refresh_from_db()
    assert frozen(game.state) == before
