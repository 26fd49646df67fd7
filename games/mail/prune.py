"""Old mail records are deleted once nothing can need them (beat, daily: mail.prune_mail_records).

The outbox keeps a row per email and the mail layer a row per mail job, inbound message and used
one-click link; at a million active games that is millions of rows a week, kept for ever before this.
Each is kept while it does a job:

- an outbox row (Notification) while pending, while its prompt is open (its dedupe key stops a second
  prompt mail or reminder for it), and for MAIL_KEEP_DAYS after it was queued (the admin's record of
  what was mailed). A closed prompt is never mailed again, a resolved step's results are queued once by
  its job, a digest's key is its day: a deleted row's key is never asked for again.
- a mail job while pending, and for MAIL_KEEP_DAYS after it was recorded (done or failed: never run
  again either way).
- an inbound message for MAIL_KEEP_DAYS (duplicates and the answers' rate limits look back hours; an
  MTA gives up retrying within days).
- a used one-click link for MAIL_LINK_MAX_AGE_SECONDS after its use: by then the link itself has
  expired (it was issued before it was used), so its signature refuses it before its nonce is looked at.

A run deletes in batches of PRUNE_BATCH rows by primary key, oldest first, for at most
MAIL_PRUNE_RUN_SECONDS; what is left waits for the next run. It finds the old rows by walking the primary
key up from the lowest (ids grow with time) and stops at the first row young enough to keep, so a run
reads the rows it deletes plus the few old ones kept (pending, open prompts), whatever the table's size.
Deleting is idempotent: two runs at once delete each row once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Model, Q
from django.utils import timezone

from .budget import TimeBudget
from .models import InboundMessage, MailJob, MailJobStatus, Notification, NotificationStatus, UsedLink

PRUNE_BATCH = 1000


def _first_young_pk(model: type[Model], time_field: str, cutoff: datetime) -> int | None:
    """The lowest primary key of a row of ``model`` too young to prune (None: every row is old). Walks the
    primary key from the lowest: the rows it passes are the old ones (to delete, or kept for a reason)."""
    return (model.objects.filter(**{f"{time_field}__gte": cutoff}).order_by("pk")
            .values_list("pk", flat=True).first())


def _rules(now: datetime) -> dict[str, tuple[type[Model], str, datetime, Q]]:
    """Per table: (model, its time field, the cutoff, what makes an old row done). ``done`` filters the
    row (and joins by key), never excludes: an exclusion over a relation becomes a NOT IN over every
    open prompt."""
    keep_until = now - timedelta(days=settings.MAIL_KEEP_DAYS)
    settled_prompt = Q(prompt__isnull=True) | Q(prompt__closed_at__isnull=False)
    return {
        "notifications": (Notification, "created_at", keep_until,
                          ~Q(status=NotificationStatus.PENDING) & settled_prompt),
        "mail_jobs": (MailJob, "created_at", keep_until, ~Q(status=MailJobStatus.PENDING)),
        "inbound_messages": (InboundMessage, "received_at", keep_until, Q()),
        "used_links": (UsedLink, "used_at", now - timedelta(seconds=settings.MAIL_LINK_MAX_AGE_SECONDS), Q()),
    }


def prunable(table: str, *, now: datetime):
    """The rows of ``table`` (a key of _rules) a run may delete, oldest first."""
    model, time_field, cutoff, done = _rules(now)[table]
    old = model.objects.filter(done, **{f"{time_field}__lt": cutoff})
    young = _first_young_pk(model, time_field, cutoff)
    if young is not None:
        old = old.filter(pk__lt=young)
    return old.order_by("pk")


def _prune(table: str, *, now: datetime, budget: TimeBudget) -> int:
    """Delete ``table``'s prunable rows a batch at a time until none is left or the budget is spent;
    how many were deleted."""
    old, deleted = prunable(table, now=now), 0
    while True:
        ids = list(old.values_list("pk", flat=True)[:PRUNE_BATCH])
        if ids:
            deleted += old.model.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < PRUNE_BATCH or budget.spent():
            return deleted


def mail_records_prune(*, now: datetime | None = None, budget_seconds: float | None = None) -> dict[str, int]:
    """One run: delete the mail records nothing needs any more (the module's rules), for at most
    ``budget_seconds`` (None: MAIL_PRUNE_RUN_SECONDS; 0: no budget; each table gets at least one batch);
    rows deleted per table."""
    now = now or timezone.now()
    budget = TimeBudget(settings.MAIL_PRUNE_RUN_SECONDS if budget_seconds is None else budget_seconds)
    return {table: _prune(table, now=now, budget=budget) for table in _rules(now)}
