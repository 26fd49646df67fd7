"""Mails per player per step in a seeded 3-player Faltisia game.

    .venv/bin/python benchmarks/mail_per_step.py --players 3 --seed 11 --source email
    .venv/bin/python benchmarks/mail_per_step.py --engine mage_knight --players 2 --seed 8 --source web --present

``--present`` makes a web player stay on the game's page (a presence sign before every pick, as the
page's live updates give): their mails per player per step should be <= 0.05, reminders aside. For an
``email`` player it prints the prompt mails per decision shown (target 1: each decision mailed once).

Plays a whole Faltisia game on a throw-away test database: every seat is a person (confirmed address,
default preferences) whose picks the greedy bot chooses, submitted through the services with the given
source (``email``: an inbox player, every prompt mailed at once; ``api`` or ``web``: follow-ups held
back). Mail tasks run in-process (eager), as in the embedded mode. Then counts the outbox (Notification
rows) by kind per player, the steps played (resolutions), the most mails one player got about one step,
the results of step N queued after the same player's prompt of a later step (the wrong order), and the
prompts each player was shown (those the server picked itself, a single option, left out).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import _django  # noqa: E402


def play(*, players: int, seed: int, source: str, engine_slug: str = "faltisia", present: bool = False) -> None:
    from games.engines.bots import make_bot
    from games.engines.registry import get_engine
    from games.mail.models import MailJob, Notification, NotificationKind
    from games.models import Game, Prompt, Seat, Submission, SubmissionSource
    from games.services import submission_create
    from accounts.presence import presence_record
    from tests.factories import make_started_game

    game, users = make_started_game(players=players, engine=engine_slug, seed=seed)
    engine, bot = get_engine(engine_slug), make_bot(engine_slug, "greedy")
    for _ in range(20_000):
        prompt = Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position").first()
        if prompt is None:
            break
        game = Game.objects.get(pk=game.pk)
        if present:  # the player is on the page: its live updates sign it (accounts/presence.py)
            from django.core.cache import cache
            cache.clear()  # the sign's write throttle: each pick comes a moment after the last here
            for u in users:
                presence_record(user_id=u.pk, game_id=game.pk)
        option = bot.choose(engine, game.state, prompt.seat.position)
        submission_create(seat=Seat.objects.get(pk=prompt.seat_id), prompt_id=prompt.prompt_id,
                          option_id=option, source=source)
    game.refresh_from_db()
    steps = MailJob.objects.filter(game=game, kind="result").count()
    rows = list(Notification.objects.filter(game=game).select_related("prompt").order_by("id"))
    print(f"game {game.pk} ({engine_slug}): {game.status}, {steps} steps resolved, source={source}, seed={seed}"
          + (", players on the page" if present else ""))
    kinds = (NotificationKind.PROMPT, NotificationKind.RESULT, NotificationKind.FINISHED)
    totals: Counter = Counter()
    for user in users:
        mine = [r for r in rows if r.user_id == user.pk]
        by_kind = Counter(r.kind for r in mine)
        totals.update(by_kind)
        # The step a result mail opens is the one after the step it reports (its dedupe key says which).
        prompt_steps = [r.prompt.phase for r in mine if r.kind == NotificationKind.PROMPT]
        result_steps = [int(r.dedupe_key.split(":")[2]) + 1 for r in mine if r.kind == NotificationKind.RESULT]
        both = len(set(result_steps) & set(prompt_steps))
        # A result of step N reaches a player not asked in N+1: it counts for N+1, as a prompt of N+1 would.
        per_step = Counter(prompt_steps + result_steps)
        picks = Counter(Submission.objects.filter(game=game, seat__user=user).values_list("source", flat=True))
        forced = picks[SubmissionSource.FORCED]
        shown = sum(picks.values()) - forced
        late, seen = 0, []
        for r in mine:  # in the order they were queued
            if r.kind == NotificationKind.PROMPT:
                seen.append(r.prompt.phase)
            elif r.kind == NotificationKind.RESULT:
                late += any(s >= int(r.dedupe_key.split(":")[2]) + 1 for s in seen)
        print(f"  {user.username}: " + ", ".join(f"{k} {by_kind[k]}" for k in kinds)
              + f"; mails per step {sum(by_kind[k] for k in kinds) / max(steps, 1):.2f};"
              f" most mails about one step {max(per_step.values(), default=0)};"
              f" steps with both a result and a prompt mail {both}; results queued after a later prompt {late};"
              f" prompts shown {shown}, single options picked by the server {forced}")
    sent = [r for r in rows if r.status == "sent" and r.kind in kinds]
    shown_total = Submission.objects.filter(game=game).exclude(source=SubmissionSource.FORCED).count()
    prompt_sent = sum(1 for r in sent if r.kind == NotificationKind.PROMPT)
    print("  total: " + ", ".join(f"{k} {totals[k]}" for k in kinds)
          + f"; mails per player per step {sum(totals.values()) / players / max(steps, 1):.2f}")
    print(f"  sent (reminders aside): {len(sent)}; mails sent per player per step "
          f"{len(sent) / players / max(steps, 1):.3f}; decisions shown {shown_total}; "
          f"prompt mails sent per decision {prompt_sent / max(shown_total, 1):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--source", choices=("email", "api", "web"), default="email")
    ap.add_argument("--engine", default="faltisia")
    ap.add_argument("--present", action="store_true", help="the players stay on the game's page")
    args = ap.parse_args()
    old = _django.setup()
    try:
        play(players=args.players, seed=args.seed, source=args.source, engine_slug=args.engine, present=args.present)
    finally:
        _django.teardown(old)


if __name__ == "__main__":
    main()
