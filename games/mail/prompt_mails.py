"""Prompt emails (and the player's webhook call) for open prompts: queued once due, and the prompt sweep.

    prompt_notifications_queue / prompt_mails_run   the deliveries of some prompts that are due now (the
                                                    write's task, a resolution's result job, the sweep)
    due_prompt_notifications_queue                  the prompt sweep: the prompts whose email is due and was
                                                    never queued (a held-back follow-up, a "when away" email
                                                    once its delay has passed, a lost task)

Who is owed what is prompt_owed.py's one rule; this module decides when. Each run is safe to repeat (the
outbox's dedupe key). They render, so they run in a worker (tasks.py), never in the request that made a pick.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Prompt, Submission, SubmissionSource

from . import chat_mail, compose, player_hooks, wants
from .models import Notification, NotificationKind
from .outbox import notification_queue, sweep_grace
from .prompt_owed import prompt_owed
from .prompt_rows import open_prompts_for_mail
from .relevance import NOT_BEFORE_TOLERANCE
from .tokens import holder_generation_suffix

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
              .exclude(source=SubmissionSource.FORCED)  # a forced pick is the server's, not the player's
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

    Skipped: closed prompts, inactive games, prompts an answer to a reply carried, seats owed nothing
    (prompt_owed.py: bots, inactive accounts, players without an address or webhook, or whose mode for the
    game mails no prompts), emails queued before (the dedupe key). Held for the prompt sweep, not rendered:
    follow-ups still held back (prompt_due_at), and prompts of a player mailed "when away" who is on the
    game's page now (the sweep looks again each run, and mails it once they are gone). A "when away"
    prompt's mail is due at opened + MAIL_PROMPT_DELAY_SECONDS: before then nothing is rendered (most
    prompts of a player at the table are answered within the delay, and an email rendered for them would
    be thrown away at its send); the prompt is returned in ``later`` and stays pending: the prompt sweep
    finds it once due, if still open. Once due it is stored with ``away_only``: its send re-checks that the
    prompt is open and the player away (delivery.py). "Every decision" is mailed at once. The prompts,
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
        owed = prompt_owed(prompt.seat, own_mode=prompt.own_mode)
        if not owed.anything:
            continue
        due_at = prompt_due_at(opened_at=prompt.opened_at, previous_source=prompt.previous_source)
        if owed.away_only and now < due_at - NOT_BEFORE_TOLERANCE:
            held_back.add(prompt.pk)  # a follow-up the player is clicking through: the sweep, once due
            continue
        if owed.away_only and now < prompt.opened_at + wants.prompt_delay() - NOT_BEFORE_TOLERANCE:
            held_back.add(prompt.pk)  # not due yet: nothing rendered before it is (PromptMails.later)
            later.setdefault(prompt.opened_at + wants.prompt_delay(), []).append(prompt)
            continue
        if owed.away_only and wants.away_from_signs(seen_at=prompt.seen_at, web_pick_at=prompt.web_pick_at,
                                                    now=now):
            held_back.add(prompt.pk)  # on the page now: nothing rendered; the sweep looks again
            continue
        user = prompt.seat.user
        if owed.webhook:
            player_hooks.prompt_webhook_queue(prompt=prompt, user=user, away_only=owed.away_only)
        if owed.mail_mode is None:
            continue
        chat_carried_now: list = []  # the table talk the email carries, read only if it is rendered

        def render(p=prompt, u=user, carried=chat_carried_now):
            carried.append(chat_mail.chat_for_mail(seat=p.seat, user=u) if chat_mail.wants_chat_mail(p.seat) else None)
            return compose.render_prompt(prompt=p, user=u, chat=carried[0])

        row = notification_queue(
            kind=NotificationKind.PROMPT, dedupe_key=prompt_dedupe_key(prompt),
            address=user.email, user_id=user.pk, game=prompt.game, seat=prompt.seat, prompt=prompt,
            render=render, away_only=owed.away_only)
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
    # Newest first: the emails falling due now (a follow-up's delay just passed, a task lost a minute
    # ago) go before a backlog of older pending prompts (most of them found already mailed), which a
    # sweep works through after them; the index is read backwards, as fast.
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

    Walks the partial index of prompts whose email is not settled (``mail_pending``: games.Prompt), so it
    costs what the prompts opened since the last sweep cost, not every open prompt; each prompt it looks at
    is settled (emailed, or found to need none: bot, no address, opted out) and not looked at again. It
    renders here (it runs on the mail worker), MISSING_PROMPT_BATCH prompts a batch, newest first, at most
    MAX_PROMPT_BATCHES_PER_SWEEP batches; the next sweep takes the rest. Then it settles the prompts left
    pending past the window (they are left to the reminders).
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
    # After the due emails: the prompts past the window are never emailed here, so settling them (in
    # batches of 1,000) never holds one back.
    _stale_prompts_settle(now=now)
    return queued
