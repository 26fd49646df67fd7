"""A step's result emails: after a resolution, one email per player for the step.

    result_notifications_queue   run by the resolution's mail job (jobs.py): a seat the resolution asks to
                                 decide gets its prompt email, which opens with what happened
                                 (seats_asked_by_resolution); a seat with nothing to decide by email gets a
                                 result email if its player reads them (recipients.reads_results)

Safe to run twice (the outbox's dedupe key). It renders, so it runs in a worker (tasks.py, jobs.py).
"""

from __future__ import annotations

from django.utils import timezone

from accounts.models import NotificationPreferences
from games.models import Event, Game, GameStatus, Prompt, Seat

from . import compose, wants
from .models import Channel, Notification, NotificationKind
from .outbox import notification_queue
from .prompt_mails import prompt_mails_run
from .recipients import loaded_preferences, reads_results


def resolution_prompt_ids(*, game_id: int, phase: int) -> list[int]:
    """The prompts the resolution of step ``phase`` opened: the first ones of the next step (a write opens
    all its prompts at its own time; those a bot, standing order or forced pick answered at once too)."""
    first = (Prompt.objects.filter(game_id=game_id, phase__gt=phase).order_by("phase", "opened_at")
             .values("phase", "opened_at").first())
    if first is None:
        return []
    return list(Prompt.objects.filter(game_id=game_id, **first).values_list("pk", flat=True))


def seats_asked_by_resolution(*, game_id: int, phase: int) -> set[int]:
    """The seats whose prompt email carries step ``phase``'s result, so that a seat gets one email of the
    step: those the resolution asked to decide, by an email queued now or before.

    The prompt emails owed for the resolution's prompts still open are queued here, with the same rules
    and dedupe keys as the write's prompt task (whichever runs first queues each email once), so a seat's
    one email of the step says what happened (the events since its previous prompt email), then what it
    must decide. A seat whose "when away" email is not due yet is asked too: that email, rendered once due,
    says it. A seat whose prompt was answered before any email (on the web, by a standing order or a
    forced pick) or whose player takes no prompt emails is not asked by email: it may get a result email.
    """
    prompt_ids = resolution_prompt_ids(game_id=game_id, phase=phase)
    if not prompt_ids:
        return set()
    # skips the closed ones, held-back follow-ups, opt-outs; a "when away" email not due yet will say it
    mails = prompt_mails_run(prompt_ids=prompt_ids)
    return ({p.seat_id for prompts in mails.later.values() for p in prompts}
            | set(Notification.objects.filter(prompt_id__in=prompt_ids, kind=NotificationKind.PROMPT,
                                              channel=Channel.MAIL)
                  .values_list("seat_id", flat=True)))


def result_notifications_queue(*, game_id: int, phase: int, event_ids: list[int]) -> int:
    """After a resolution: one email per player for the step.

    A seat asked to decide next gets its prompt email, which opens with what happened
    (seats_asked_by_resolution); a seat with nothing to decide gets a result email if its player wants one
    per event (email_results, not a digest). Once the game is over the game-over email says what happened
    last, so none is sent.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
        return 0  # over: the game-over email says what happened last (a paused game still gets results)
    # Each seat's player and preferences in the one query (not a query per player: this runs per resolution).
    seats = (Seat.objects.filter(game=game).select_related("user", "user__notification_preferences", "game")
             .annotate(**wants.seat_presence_annotations()))
    readers = [seat for seat in seats if reads_results(seat)]
    if not readers:
        return 0  # nobody reads results by email (the default): the prompt task or sweep mails the prompts
    asked = seats_asked_by_resolution(game_id=game.pk, phase=phase)
    events = list(Event.objects.filter(game=game, pk__in=event_ids).order_by("id"))
    sent = 0
    for seat in readers:
        if seat.pk in asked:
            continue
        user = seat.user
        prefs = loaded_preferences(user)
        visible = [e for e in events if e.visible_to(seat.position)]
        if not visible or _watching_the_page(prefs, seat=seat):
            continue
        if notification_queue(kind=NotificationKind.RESULT, dedupe_key=f"result:{game.pk}:{phase}:user{user.pk}",
                              address=user.email, user_id=user.pk, game=seat.game, seat=seat,
                              render=lambda s=seat, u=user, v=visible: compose.render_result(
                                  game=s.game, seat=s, user=u, phase=phase, events=v)):
            sent += 1
    return sent


def _watching_the_page(prefs: NotificationPreferences, *, seat: Seat) -> bool:
    """Whether a player who is mailed "when away" is on the game's page now: its live update shows them what
    happened, so no result email follows them there. "Every decision" still gets it. ``seat`` carries
    wants.seat_presence_annotations."""
    mode = wants.mode_with_own_choice(prefs, game_id=seat.game_id, own_mode=seat.own_mode)
    return mode != wants.EVERY and wants.away_from_signs(seen_at=seat.seen_at, web_pick_at=seat.web_pick_at,
                                                        now=timezone.now()) is not None
