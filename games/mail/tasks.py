"""Thin Celery entry points of the email layer: take ids, call a service, return quietly.

The queue_* tasks are what the games signals turn into (receivers.py): they render and store the
emails in a worker, so a pick's HTTP request never pays for it; the prompt sweep (beat) emails what no
task was enqueued for (a held-back follow-up once due) or whose task was lost, and the job sweep runs the
result and game-over mail jobs whose task was lost (jobs.py). Each is idempotent through the outbox's
dedupe keys, so running one twice (acks_late redelivery, the sweep) sends nothing twice.

Each task declares its priority (priorities.py): what leads to a prompt or a reminder is TIME_BOUND, what
renders results, game-overs and digests is NEWS. The send tasks (mail.send_notification(s)) are not here
but in send_tasks.py, below the outbox that enqueues them; a send task takes its row's kind's priority.
The options every mail task shares (its route to the mail queue, late acks, no result, time limits) are
mail_task's (task_options.py).

The top of games.mail: this module imports the services, and only the signal receivers (receivers.py)
import it, to enqueue a task by its object.
"""

from __future__ import annotations

import logging
from datetime import datetime

from . import chat_mail, digests, finished_mails, jobs, outbox, prompt_mails, prune, reminders, result_mails, send_tasks
from .models import MailJobKind
from .priorities import NEWS, TIME_BOUND
from .prompt_rows import write_prompt_ids
from .task_options import mail_task

logger = logging.getLogger(__name__)

@mail_task("mail.queue_prompt_notifications", priority=TIME_BOUND)
def queue_prompt_notifications(game_id: int, opened_at: str) -> int:
    """Render and store the emails of the prompts one write opened (receivers.on_prompts_opened): the
    game's prompts still open with this ``opened_at`` (ISO 8601). Returns how many were queued; a "when
    away" email not due yet is left to the prompt sweep."""
    ids = write_prompt_ids(game_id=game_id, opened_at=datetime.fromisoformat(opened_at))
    return len(prompt_mails.prompt_notifications_queue(prompt_ids=ids)) if ids else 0


@mail_task("mail.queue_prompt_notification", priority=TIME_BOUND, time_limit=60, soft_time_limit=50)
def queue_prompt_notification(prompt_id: int) -> bool:
    """The one-prompt task the receiver enqueued before queue_prompt_notifications: kept so that messages
    still in a broker queue at a deploy are handled (same rules; a held-back follow-up is left to the
    prompt sweep)."""
    return bool(prompt_mails.prompt_notifications_queue(prompt_ids=[prompt_id]))


@mail_task("mail.queue_result_notifications", priority=NEWS)
def queue_result_notifications(game_id: int, phase: int, event_ids: list[int]) -> int:
    """Render and store each result reader's email about a resolved step: run the mail job the
    resolution recorded (jobs.py; nothing if it is done or another worker runs it)."""
    queued = jobs.write_job_run(kind=MailJobKind.RESULT, game_id=game_id, phase=phase)
    if queued is None and not jobs.job_recorded(kind=MailJobKind.RESULT, game_id=game_id, phase=phase):
        # A message enqueued before mail jobs existed (still in the broker at a deploy): run it as it says.
        return result_mails.result_notifications_queue(game_id=game_id, phase=phase, event_ids=event_ids)
    return queued or 0


@mail_task("mail.queue_finished_notifications", priority=NEWS)
def queue_finished_notifications(game_id: int) -> int:
    """Render and store each player's game-over email: run the finish's mail job (as above)."""
    queued = jobs.write_job_run(kind=MailJobKind.FINISHED, game_id=game_id)
    if queued is None and not jobs.job_recorded(kind=MailJobKind.FINISHED, game_id=game_id):
        return finished_mails.finished_notifications_queue(game_id=game_id)  # a message from before mail jobs
    return queued or 0


@mail_task("mail.sweep_mail_jobs", priority=NEWS, time_limit=300, soft_time_limit=270)
def sweep_mail_jobs() -> int:
    """Beat (every MAIL_JOB_SWEEP_SECONDS): run the result and game-over mail jobs whose task was lost
    or failed, once due (jobs.jobs_sweep). Returns how many ran."""
    return jobs.jobs_sweep()


@mail_task("mail.sweep_prompt_notifications", priority=TIME_BOUND)
def sweep_prompt_notifications() -> int:
    """Beat (every MAIL_PROMPT_SWEEP_SECONDS): email the held-back follow-ups now due and still open, and
    the prompts whose task was lost (broker down)."""
    return prompt_mails.due_prompt_notifications_queue()


@mail_task("mail.send_due_reminders", priority=TIME_BOUND)
def send_due_reminders(continued: bool = False) -> int:
    """Beat: queue due deadline reminders, and re-enqueue outbox rows whose send task was lost (delayed
    rows only once due). A run works for at most MAIL_REMINDER_RUN_SECONDS (reminders.py); one that stops
    there with reminders still due enqueues its continuation (``continued``: no outbox sweep) at the back
    of the mail queue's time-bound mail, so the prompt mails and reminder sends run in between. In the
    eager mode the next beat run goes on."""
    result = reminders.reminders_due_run()
    if not continued:
        outbox.outbox_sweep(enqueue=send_tasks.send_task_enqueue)
    if not result.done and not send_due_reminders.app.conf.task_always_eager:
        # A beat run that meets a backlog starts MAIL_REMINDER_PARALLEL_RUNS chains of continuations (their
        # claims skip each other's rows); each chain ends with the first of its runs that finds no work left.
        for _ in range(1 if continued else reminders.parallel_runs()):
            send_due_reminders.apply_async(kwargs={"continued": True}, retry=False)
    return result.queued


@mail_task("mail.send_digests", priority=NEWS, time_limit=600, soft_time_limit=550)
def send_digests() -> int:
    """Beat (hourly): each digest reader gets at most one digest a day."""
    return digests.digests_queue()


@mail_task("mail.send_chat_batches", priority=NEWS)
def send_chat_batches() -> int:
    """Beat (every CHAT_MAIL_SWEEP_SECONDS): each seat whose table-talk window has passed gets its one email
    of the messages it has not read (chat_mail.py). Returns how many were queued."""
    return chat_mail.chat_batches_send()


@mail_task("mail.prune_mail_records", priority=NEWS, time_limit=360, soft_time_limit=300)
def prune_mail_records() -> dict[str, int]:
    """Beat (daily, MAIL_PRUNE_INTERVAL_SECONDS): delete the outbox rows, mail jobs, inbound messages and
    used links nothing needs any more (prune.py); rows deleted per table."""
    deleted = prune.mail_records_prune()
    logger.info("pruned mail records: %s", deleted)
    return deleted
