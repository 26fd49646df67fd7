"""What the game signals turn into: prompt, reminder, result, digest and game-over emails.

Each function is safe to call twice (the outbox's dedupe key) and checks the player's preferences.
They render, so they run in a worker (tasks.py), never in the request that made a pick.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from django.conf import settings
from django.db import transaction
from django.db.models import Max, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import NotificationPreferences, User
from games.models import Event, Game, GameStatus, Prompt, Seat, Submission, SubmissionSource
from games.presentation.worded_events import worded_events_for_game

from . import chat_mail, compose, player_hooks, reminders, wants
from .models import Channel, Notification, NotificationKind
from .relevance import NOT_BEFORE_TOLERANCE
from .outbox import notification_queue, sweep_grace
from .prompt_rows import open_prompts_for_mail, write_prompt_ids
from .recipients import address_confirmed, loaded_preferences, mailable, reads_results
from .tokens import holder_generation_suffix

logger = logging.getLogger(__name__)

# The prompt sweep looks for open prompts without a prompt email over this window (a held-back follow-up
# now due, or a prompt whose on-commit task was lost: broker down). Older ones are left to the deadline
# reminders, so the sweep's cost stays bounded.
MISSING_PROMPT_WINDOW = timedelta(hours=24)
MISSING_PROMPT_BATCH = 200
MAX_PROMPT_BATCHES_PER_SWEEP = 25  # a larger backlog (a long broker outage) waits for the next sweep
STALE_SETTLE_BATCH = 1000


def followup_delay() -> timedelta:
    return timedelta(seconds=getattr(settings, "MAIL_FOLLOWUP_DELAY_SECONDS", 600))


# A seat's next prompt in a step is emailed at once after none of its picks in that step ("": its first
# prompt of the step) or after a pick by email (the player is in their inbox). After any other pick it is
# a follow-up the player is clicking through (web, API), or one they did not make themselves (a standing
# order, a default): held back by the follow-up delay, and never sent if answered meanwhile.
AT_ONCE_AFTER = ("", SubmissionSource.EMAIL)


def previous_pick_source() -> Coalesce:
    """Annotation: the source of the seat's latest pick in the prompt's step, "" if it made none.

    ``Submission.phase`` is the step its prompt belonged to (a pick is applied within its step), so the
    lookup walks the seat's own picks only (the submission seat index), not the prompts.
    """
    latest = (Submission.objects.filter(seat_id=OuterRef("seat_id"), phase=OuterRef("phase"))
              .exclude(source=SubmissionSource.FORCED)  # the server's pick, not the player's (issue 11 item 3)
              .order_by("-id").values("source")[:1])
    return Coalesce(Subquery(latest), Value(""))


def prompt_due_at(*, opened_at: datetime, previous_source: str) -> datetime:
    """When a prompt's email is due: at once, or after the follow-up delay (AT_ONCE_AFTER)."""
    return opened_at if previous_source in AT_ONCE_AFTER else opened_at + followup_delay()


def prompt_dedupe_key(prompt: Prompt) -> str:
    """One prompt email per prompt and holder of the seat: after the seat changed hands (its mailbox
    rotated, tokens.mailbox_rotate) the open prompt is emailed again, to the new holder at the new address."""
    return f"prompt:{prompt.pk}:seat{prompt.seat_id}" + holder_generation_suffix(prompt.seat)


@dataclass(frozen=True)
class PromptMails:
    """What one prompt-mail run did: the emails it queued, and the prompts whose "when away" email falls due
    later, by due time (not rendered: the prompt sweep finds them then, if still open)."""
    queued: list[Notification]
    later: dict[datetime, list[Prompt]]


def prompt_notifications_queue(*, prompt_ids: list[int], now: datetime | None = None) -> list[Notification]:
    """The emails prompt_mails_run queued (the rows)."""
    return prompt_mails_run(prompt_ids=prompt_ids, now=now).queued


def prompt_mails_run(*, prompt_ids: list[int], now: datetime | None = None) -> PromptMails:
    """Render and store the email of each of these prompts that is due; returns the rows queued and the
    prompts whose email falls due later.

    Skipped: closed prompts, inactive games, bots, players without an address, those whose mode for the
    game mails no prompts (digest only, never: wants.py), prompts an answer to a reply carried, emails
    queued before (the dedupe key). Held for the prompt sweep, not rendered: follow-ups still held back
    (prompt_due_at), and prompts of a player mailed "when away" who is on the game's page now (the sweep
    looks again each run, and mails it once they are gone). A "when away" prompt's mail is due at opened +
    MAIL_PROMPT_DELAY_SECONDS: before then nothing is rendered (issue 28: most prompts of a player at the
    table are answered within the delay, and an email rendered for them was thrown away at its send); the
    prompt is returned in ``later`` and stays pending: the prompt sweep finds it once due, if still open.
    Once due it is stored with ``away_only``: its send re-checks that the prompt is open and the
    player away (delivery.py). "Every decision" is mailed at once. The prompts,
    seats, users, preferences and previous picks are read in one query whatever the number of prompts,
    the games' own modes, the presence signs and whether an answer carried the prompt in the same query;
    each email's render reads what it shows.
    """
    now = now or timezone.now()
    prompts = open_prompts_for_mail(prompt_ids)
    rows = []
    held_back = set()
    later: dict[datetime, list[Prompt]] = {}
    for prompt in prompts:
        if prompt.carried:
            continue
        user = prompt.seat.user if not prompt.seat.is_bot else None
        if user is None or not user.is_active:
            continue
        mode = wants.mode_with_own_choice(loaded_preferences(user), game_id=prompt.game_id, own_mode=prompt.own_mode)
        hook_due = player_hooks.webhook_wanted(user)
        if mailable(prompt.seat) is None or mode not in wants.WANTS_PROMPTS:
            mode = None  # no mail; a webhook may still go
            if not hook_due:
                continue
        due_at = prompt_due_at(opened_at=prompt.opened_at, previous_source=prompt.previous_source)
        if mode != wants.EVERY and now < due_at - NOT_BEFORE_TOLERANCE:
            held_back.add(prompt.pk)  # a follow-up the player is clicking through: the sweep, once due
            continue
        away_only = mode != wants.EVERY
        if away_only and now < prompt.opened_at + wants.prompt_delay() - NOT_BEFORE_TOLERANCE:
            held_back.add(prompt.pk)  # not due yet: nothing rendered before it is (PromptMails.later)
            later.setdefault(prompt.opened_at + wants.prompt_delay(), []).append(prompt)
            continue
        if away_only and wants.away_from_signs(seen_at=prompt.seen_at, web_pick_at=prompt.web_pick_at, now=now):
            held_back.add(prompt.pk)  # on the page now: nothing rendered; the sweep looks again
            continue
        if hook_due:
            player_hooks.prompt_webhook_queue(prompt=prompt, user=user, away_only=away_only)
        if mode is None:
            continue
        chat_carried_now: list = []  # the table talk the email carries, read only if it is rendered (issue 23)

        def render(p=prompt, u=user, carried=chat_carried_now):
            carried.append(chat_mail.chat_for_mail(seat=p.seat, user=u) if chat_mail.wants_chat_mail(p.seat) else None)
            return compose.render_prompt(prompt=p, user=u, chat=carried[0])

        row = notification_queue(
            kind=NotificationKind.PROMPT, dedupe_key=prompt_dedupe_key(prompt),
            address=user.email, user_id=user.pk, game=prompt.game, seat=prompt.seat, prompt=prompt,
            render=render, away_only=away_only)
        if row is not None:
            rows.append(row)
            # the next chat batch does not mail these again
            chat_mail.chat_carried(chat_carried_now[0] if chat_carried_now else None)
    # Settled (emailed now or before, or no email owed: closed, game not active, bot, no address, opted
    # out, carried by an answer): the prompt sweep no longer looks at them. Held ones stay for the sweep.
    settled = [pk for pk in prompt_ids if pk not in held_back]
    if settled:
        Prompt.objects.filter(pk__in=settled, mail_pending=True).update(mail_pending=False)
    return PromptMails(queued=rows, later=later)


def prompts_due_without_mail(*, now: datetime):
    """Open prompts of the last day whose email is due but was never queued; newest first.

    Due means: a prompt emailed at once whose task had the sweep grace to run (if it was lost, the broker
    being down, it is queued here), or a held-back follow-up whose delay has passed (nothing was
    enqueued for it when it opened: it is emailed here, or never if answered before).
    """
    # A held-back follow-up is due when its delay has passed (with no delay its task was enqueued at
    # once, as for any other prompt, and gets the same grace to run). A prompt older than both is due
    # whatever the seat's previous pick, so the previous pick is looked up only for the prompts between.
    # A prompt emailed at once is due a grace after it opened, or once its "when away" delay has passed
    # (before, prompt_mails_run would hold it again: nothing rendered, the prompt looked at for nothing).
    grace = sweep_grace()
    at_once_by, held_back_by = now - max(grace, wants.prompt_delay()), now - (followup_delay() or grace)
    at_once = Q(previous_source__in=AT_ONCE_AFTER)
    due = (Q(opened_at__lte=min(at_once_by, held_back_by)) | (Q(opened_at__lte=at_once_by) & at_once)
           | (Q(opened_at__lte=held_back_by) & ~at_once))
    # Only the prompts whose email is not settled yet, through the partial index prompt_mail_pending
    # (its predicate word for word): the rest (emailed, or found needless: bots, no address, opted out)
    # left it when they were settled, so the sweep's cost grows with the prompts opened lately.
    # Newest first (issue 22 item 10): the emails falling due now (a follow-up's delay just passed, a task
    # lost a minute ago) go before a backlog of older pending prompts (most of them found already mailed),
    # which a sweep works through after them; the index is read backwards, as fast.
    return (Prompt.objects
            .filter(closed_at__isnull=True, mail_pending=True, opened_at__gt=now - MISSING_PROMPT_WINDOW,
                    opened_at__lte=max(at_once_by, held_back_by))
            .alias(previous_source=previous_pick_source())
            .filter(due)
            .order_by("-opened_at", "-pk"))


def _stale_prompts_settle(*, now: datetime) -> int:
    """Prompts still unsettled after the sweep's window are left to the reminders: settle them in
    batches (after a long outage, or the migration that added the flag), so the index stays small."""
    settled = 0
    while True:
        stale = (Prompt.objects.filter(closed_at__isnull=True, mail_pending=True,
                                       opened_at__lte=now - MISSING_PROMPT_WINDOW)
                 .order_by("opened_at").values("pk")[:STALE_SETTLE_BATCH])
        n = Prompt.objects.filter(pk__in=Subquery(stale)).update(mail_pending=False)
        settled += n
        if n < STALE_SETTLE_BATCH:
            return settled


def due_prompt_notifications_queue(*, now: datetime | None = None) -> int:
    """The prompt sweep (beat, every MAIL_PROMPT_SWEEP_SECONDS): queue the due prompt emails never queued.

    Walks the partial index of prompts whose email is not settled (``mail_pending``: games.Prompt,
    issue 16 item 1), so it costs what the prompts opened since the last sweep cost, not every open
    prompt; each prompt it looks at is settled (emailed, or found to need none: bot, no address, opted
    out) and not looked at again. It renders here (it runs on the mail worker), MISSING_PROMPT_BATCH
    prompts a batch, newest first, at most MAX_PROMPT_BATCHES_PER_SWEEP batches; the next sweep takes
    the rest. Then it settles the prompts left pending past the window (they are left to the reminders).
    """
    now = now or timezone.now()
    queued = 0
    after = None  # (opened_at, pk) of the last prompt looked at: a prompt held (its player on the page) stays
    for _ in range(MAX_PROMPT_BATCHES_PER_SWEEP):  # pending, so the next batch starts after it, not with it
        due = prompts_due_without_mail(now=now)
        if after is not None:
            due = due.filter(Q(opened_at__lt=after[0]) | Q(opened_at=after[0], pk__lt=after[1]))
        found = list(due.values_list("pk", "opened_at")[:MISSING_PROMPT_BATCH])
        ids = [pk for pk, _ in found]
        queued += len(prompt_notifications_queue(prompt_ids=ids, now=now)) if ids else 0
        if len(ids) < MISSING_PROMPT_BATCH:
            break
        after = (found[-1][1], found[-1][0])
    # After the due emails (issue 22 item 10): the prompts past the window are never emailed here, so
    # settling them (in batches of 1,000) never holds one back.
    _stale_prompts_settle(now=now)
    return queued


def resolution_prompt_ids(*, game_id: int, phase: int) -> list[int]:
    """The prompts the resolution of step ``phase`` opened: the first ones of the next step (a write opens
    all its prompts at its own time; those a bot, standing order or forced pick answered at once too)."""
    first = (Prompt.objects.filter(game_id=game_id, phase__gt=phase).order_by("phase", "opened_at")
             .values("phase", "opened_at").first())
    if first is None:
        return []
    return list(Prompt.objects.filter(game_id=game_id, **first).values_list("pk", flat=True))


def seats_asked_by_resolution(*, game_id: int, phase: int) -> set[int]:
    """The seats whose prompt email carries step ``phase``'s result (issue 11 item 4): those the
    resolution asked to decide, by an email queued now or before.

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
    """After a resolution: one email per player for the step (issue 11 item 4).

    A seat asked to decide next gets its prompt email, which opens with what happened
    (seats_asked_by_resolution); a seat with nothing to decide gets a result email if its player wants one per event (email_results,
    not a digest). Once the game is over the game-over email says what happened last, so none is sent.
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
    """Whether a player who is mailed "when away" is on the game's page now (issue 25): its live update shows
    them what happened, so no result email follows them there. "Every decision" still gets it. ``seat`` carries
    wants.seat_presence_annotations."""
    mode = wants.mode_with_own_choice(prefs, game_id=seat.game_id, own_mode=seat.own_mode)
    return mode != wants.EVERY and wants.away_from_signs(seen_at=seat.seen_at, web_pick_at=seat.web_pick_at,
                                                        now=timezone.now()) is not None


def finished_notifications_queue(*, game_id: int) -> int:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    sent = 0
    for seat in Seat.objects.filter(game=game).select_related("user", "user__notification_preferences", "game"):
        user = mailable(seat)
        if user is None:
            continue
        prefs = loaded_preferences(user)
        if not (prefs.email_prompts or prefs.email_results or prefs.digest):
            continue  # unsubscribed from everything
        if notification_queue(kind=NotificationKind.FINISHED, dedupe_key=f"finished:{game.pk}:user{user.pk}",
                              address=user.email, user_id=user.pk, game=seat.game, seat=seat,
                              render=lambda s=seat, u=user: compose.render_finished(game=s.game, seat=s, user=u)):
            sent += 1
    return sent


def reminders_due_queue(*, now: datetime | None = None) -> int:
    """Queue the deadline reminders due now (reminders.py: through each open prompt's stored next
    reminder time, issue 16 item 1); returns how many."""
    return reminders.reminders_due_queue(now=now)


DIGEST_BATCH = 200  # readers claimed per transaction
DIGEST_EVERY = timedelta(hours=23)  # at most one digest a day (the hourly run after 23 hours)


def _digest_games(*, user: User, since: datetime) -> list[dict]:
    """What one reader's digest shows: each game of theirs with events they may see since ``since``."""
    games = []
    seats = (Seat.objects.filter(user=user).filter(Q(game__status=GameStatus.ACTIVE) | Q(game__finished_at__gt=since))
             .select_related("game"))
    for seat in seats:
        events = [e for e in Event.objects.filter(game=seat.game, created_at__gt=since).order_by("id")
                  if e.visible_to(seat.position)]
        if not events:
            continue
        waiting = Prompt.objects.filter(seat=seat, closed_at__isnull=True).exists()
        view = compose.game_view_for_seat(game=seat.game, seat=seat)
        games.append({"title": compose.game_title(seat.game),
                      "where": compose.where_in_game(view, engine_slug=seat.game.engine),
                      "events": worded_events_for_game(events[-50:], game=seat.game), "waiting": waiting})
    return games


def due_digest_readers(*, now: datetime, never_read: bool = False):
    """Digest readers whose digest is due, earliest first, through the partial index prefs_digest_due
    (``digest = true``); with ``never_read``, those never looked at (NULL), through prefs_digest_never_read
    (due now unless they had a digest before: _never_read_plan).
    Two queries rather than one with an OR: in next_digest_at order the NULLs come last, after every
    reader not due yet."""
    readers = NotificationPreferences.objects.filter(digest=True)
    if never_read:
        # The partial index prefs_digest_never_read's predicate; no order (by primary key the planner
        # would walk every preferences row looking for these).
        return readers.filter(next_digest_at__isnull=True).order_by()
    return readers.filter(next_digest_at__lte=now).order_by("next_digest_at")


def _never_read_plan(readers: list[NotificationPreferences], *, now: datetime) -> set[int]:
    """Readers never looked at (``next_digest_at`` NULL) who had a digest before (the setting switched
    off and on, a row the upgrade's backfill, accounts 0007, did not reach): their next digest is one
    period after the last, covering what happened since it, as for any reader. Sets both on these
    readers and returns the ids of those not due yet; one query for the batch. Readers without any
    digest on record are due now."""
    last = dict(Notification.objects.filter(kind=NotificationKind.DIGEST, user_id__in=[p.user_id for p in readers])
                .values("user_id").annotate(at=Max("created_at")).values_list("user_id", "at"))
    not_due = set()
    for prefs in readers:
        at = last.get(prefs.user_id)
        if at is None:
            continue
        prefs.digest_since = prefs.digest_since or at
        prefs.next_digest_at = at + DIGEST_EVERY
        if prefs.next_digest_at > now:
            not_due.add(prefs.pk)
    return not_due


def _digest_batch(*, now: datetime, never_read: bool) -> tuple[int, int]:
    """One batch of the readers whose digest is due, claimed (SKIP LOCKED) in one query through the
    partial index prefs_digest_due; (readers looked at, digests queued)."""
    queued = 0
    with transaction.atomic():
        readers = list(due_digest_readers(now=now, never_read=never_read).select_related("user")
                       .select_for_update(skip_locked=True, of=("self",))[:DIGEST_BATCH])
        not_due = _never_read_plan(readers, now=now) if never_read and readers else set()
        for prefs in readers:
            if prefs.pk in not_due:
                continue
            user = prefs.user
            since = prefs.digest_since or now - timedelta(hours=24)
            games = _digest_games(user=user, since=since) if address_confirmed(user) else []
            if games and notification_queue(
                    kind=NotificationKind.DIGEST, dedupe_key=f"digest:user{user.pk}:{now.date().isoformat()}",
                    address=user.email, user_id=user.pk,
                    render=lambda u=user, g=games: compose.render_digest(user=u, games=g)):
                queued += 1
                prefs.digest_since = now
            # Nothing to tell: the window stays open and is looked at again in a day, not every hour.
            prefs.next_digest_at = now + DIGEST_EVERY
        NotificationPreferences.objects.bulk_update(readers, ["next_digest_at", "digest_since"])
    return len(readers), queued


def digests_queue(*, now: datetime | None = None) -> int:
    """Once a day per digest reader: the events they may see since their previous digest. Reads only
    the readers whose digest is due (their stored ``next_digest_at``), a batch per query."""
    now = now or timezone.now()
    queued = 0
    for never_read in (True, False):
        while True:
            looked, sent = _digest_batch(now=now, never_read=never_read)
            queued += sent
            if looked < DIGEST_BATCH:
                break
    return queued


def preferences_unsubscribe(*, user_id: int) -> bool:
    """Stop every game email to the user (List-Unsubscribe); True if the user exists."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return False
    prefs, _ = NotificationPreferences.objects.get_or_create(user=user)
    prefs.email_prompts = prefs.email_results = prefs.digest = False
    prefs.save(update_fields=["email_prompts", "email_results", "digest"])
    return True


__all__ = ["prompt_notifications_queue", "prompt_due_at", "write_prompt_ids", "due_prompt_notifications_queue",
           "result_notifications_queue", "finished_notifications_queue", "reminders_due_queue", "digests_queue",
           "preferences_unsubscribe"]
