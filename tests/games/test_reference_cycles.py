"""The hot routes (a player's view, a pick) leave no reference cycles behind.

An object in a cycle is not freed when its request ends but by Python's garbage collector, which walks every
young object again and again to find it: with the token and its user, the seats and their open prompts, a pick's
Submission with its prompt and its take-back point each pointing at the other, that was ~150 objects a pick and
~3.5% of a web process's CPU under the load benchmark (perf; 2.5 s of a worker's 45 s run in collections). Each
request here goes through Django's WSGI handler as gunicorn calls it, with a real token, and the collector saves
what it would have freed (DEBUG_SAVEALL) so the test can say what it was.
"""

from __future__ import annotations

import gc
import json
import random
from collections import Counter

import pytest
from celery import Task
from django.core.handlers.wsgi import WSGIHandler
from django.test import RequestFactory
from rest_framework.authtoken.models import Token

from games.models import Game, TakeBack
from games.services.resolution import phase_resolve
from games.tasks import resolve_phase
from tests.factories import make_started_game


def _garbage_of(call):
    """What ``call()`` left to the garbage collector (by type name), and its result."""
    gc.collect()
    gc.garbage.clear()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        result = call()
        gc.collect()
    finally:
        gc.set_debug(0)
    found = Counter(type(o).__qualname__ for o in gc.garbage)
    gc.garbage.clear()
    return found, result


@pytest.mark.django_db(transaction=True)
def test_views_and_picks_of_a_whole_step_leave_nothing_for_the_garbage_collector(monkeypatch):
    # The broker: tasks wait for the workers (the test resolves each step outside the requests), as in production,
    # instead of running in the request as the tests' eager tasks do.
    queued = []
    monkeypatch.setattr(Task, "apply_async", lambda task, args=None, kwargs=None, **options: queued.append(
        (task.name, tuple(args or ()))))
    game, users = make_started_game(players=4, engine="faltisia")
    tokens = [Token.objects.get_or_create(user=u)[0].key for u in users]
    handler, factory, rng = WSGIHandler(), RequestFactory(), random.Random(5)

    def request(token, path, body=None):
        headers = {"HTTP_AUTHORIZATION": f"Token {token}"}
        made = (factory.get(path, **headers) if body is None else
                factory.post(path, json.dumps(body), content_type="application/json", **headers))
        status = []
        content = b"".join(handler(made.environ, lambda s, h, e=None: status.append(s)))
        assert status[0][:3] in ("200", "201"), (status, content[:300])
        return json.loads(content)

    picks, points_seen = 0, 0
    for _ in range(3):  # three steps: compound decisions (follow-up prompts), take-back points, a step's last pick
        phase = Game.objects.get(pk=game.pk).phase
        for token in tokens:
            left, view = _garbage_of(lambda: request(token, f"/api/games/{game.pk}/"))
            assert not left, f"a view left {dict(left)}"
            prompt = view["prompt"]
            while prompt is not None:
                option = rng.choice(prompt["options"])["id"]
                left, answer = _garbage_of(lambda: request(token, f"/api/games/{game.pk}/moves/",
                                                           {"prompt": prompt["id"], "option": option}))
                assert not left, f"a pick left {dict(left)}"
                picks, prompt = picks + 1, answer["prompt"]
                points_seen = max(points_seen, TakeBack.objects.filter(game=game).count())
        if Game.objects.get(pk=game.pk).resolve_requested_at is not None:  # else the last pick resolved it
            assert (resolve_phase.name, (game.pk, phase)) in queued
            phase_resolve(game_id=game.pk, phase=phase)
        assert Game.objects.get(pk=game.pk).phase > phase
    # Every seat decided three steps, and picks stored take-back points (the Submission's one-to-one) on the way.
    assert picks >= 12 and points_seen > 0
