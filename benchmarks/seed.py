"""Fill the benchmark database with many active games quickly (bulk_create), and make some of them due.

The games are real Faltisia deals: each is a copy of one of a few engine states, with one open Prompt
row per seat built from ``engine.prompt``, so the server resolves them exactly as it would a played
game. Seats have no user (nobody logs in to them) and the clock never extends a missed deadline, so a
due deadline means: default picks for every seat, resolve, open the next step's prompts.
"""

from __future__ import annotations

import copy
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.engines.registry import get_engine
from games.models import Game, GameStatus, Prompt, Seat

SEEDED_CLOCK = {"type": "fixed", "step_seconds": 2 * 24 * 3600, "extensions": 0, "bot_after_misses": 0}


def _templates(engine, players: int, seed: int, count: int):
    out = []
    for i in range(count):
        state = engine.new_game(players=players, options={}, seed=seed * 1000 + i)
        prompts = {p: engine.prompt(state, p) for p in range(players)}
        out.append((seed * 1000 + i, state, engine.step(state), prompts))
    return out


def seed_active_games(*, count: int, players: int = 4, seed: int = 1, batch: int = 1000,
                      slug: str = "faltisia") -> list[int]:
    """Create ``count`` active games with open prompts due in two days; return their ids."""
    engine = get_engine(slug)
    templates = _templates(engine, players, seed, 16)
    now = timezone.now()
    far = now + timedelta(days=2)
    ids: list[int] = []
    for start in range(0, count, batch):
        n = min(batch, count - start)
        with transaction.atomic():
            chosen = [templates[(start + i) % len(templates)] for i in range(n)]
            games = Game.objects.bulk_create([
                Game(engine=slug, options={}, seed=t[0], players=players, state=copy.deepcopy(t[1]), phase=t[2],
                     status=GameStatus.ACTIVE, clock=SEEDED_CLOCK, is_public=False, started_at=now)
                for t in chosen])
            seats = Seat.objects.bulk_create([Seat(game=g, position=p) for g in games for p in range(players)])
            prompts = []
            for gi, (g, t) in enumerate(zip(games, chosen)):
                for p in range(players):
                    wanted = t[3][p]
                    if wanted is None:
                        continue
                    prompts.append(Prompt(game=g, seat=seats[gi * players + p], prompt_id=wanted.id, phase=t[2],
                                          text=wanted.text, options=[o.as_dict() for o in wanted.options],
                                          deadline=far, opened_at=now,
                                          # Seats without a user: no email, no reminder is owed, as the
                                          # mail layer's jobs would settle them.
                                          mail_pending=False, reminder_planned=True))
            Prompt.objects.bulk_create(prompts)
        ids.extend(g.pk for g in games)
    return ids


def make_due(*, game_ids: list[int], first: datetime, spread_seconds: float) -> dict[int, datetime]:
    """Set the open prompts' deadlines of ``game_ids`` evenly over [first, first + spread]; return them."""
    deadlines = {}
    n = max(1, len(game_ids) - 1)
    with transaction.atomic():
        for i, gid in enumerate(game_ids):
            deadlines[gid] = first + timedelta(seconds=spread_seconds * i / n)
            Prompt.objects.filter(game_id=gid, closed_at__isnull=True).update(deadline=deadlines[gid])
    return deadlines
