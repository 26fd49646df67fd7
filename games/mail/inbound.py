"""One service for every inbound email (MTA pipe, SMTP server, provider webhook).

    raw bytes -> parse -> ignore machines and duplicates -> find the seat by its reply token
              -> pick / command through the games services -> answer the registered address

The reply token is the authority; the From header is never trusted alone: an answer always goes to
the seat's registered address (never to a mismatching From), and says so when the From differed.
Nothing here raises for bad input: it returns an InboundResult saying what was done and why.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.services import vacation_create
from accounts.vacation_caps import VacationLimitError
from games.engines.registry import get_engine
from games.errors import ErrorCode, GameError
from games.models import GameStatus, Prompt, Seat, SubmissionSource
from games.services import seat_standing_orders_set, submission_create
from games.services.undo import moves_in_words

from . import compose
from .chat_lines import talk_find, talk_post
from .commands import Command, command_parse, option_for, whole_number
from .models import (InboundMessage, InboundOutcome, Notification, NotificationKind, RetiredReplyToken,
                     SeatMailbox)
from .outbox import notification_queue
from .parser import MAX_PICK_LINES, GarbledMessage, ParsedMessage, parse_message
from .pick_lines import (AppliedPick, StoppedAt, applied_sentence, completed_steps_resolve, lines_apply, open_prompt,
                         take_back)
from .tokens import mailbox_for_token, retired_token

logger = logging.getLogger(__name__)

# Loop protection: error answers per mailbox per hour (a robot we failed to recognise stops getting
# them), any answers per mailbox per hour, answers to unknown addresses per From per hour.
ERROR_ANSWERS_PER_HOUR = 10
ANSWERS_PER_HOUR = 600
UNKNOWN_ANSWERS_PER_HOUR = 3
MAX_VACATION_DAYS = 30  # one vacation; all of them together are capped per year (accounts/vacation_caps.py)

HELP_LINES = [
    "Reply to a game email with one of these on the first line:",
    "  <number> or <option id>  - make that choice for the decision the email was about",
    "  status                   - your current situation and options",
    "  orders                   - list your standing orders and the ones this game offers",
    "  orders <id> [<id> ...]   - set standing orders (e.g. orders attend-all)",
    "  orders clear             - remove your standing orders",
    "  vacation <days>          - you are away: deadlines wait for you (1-30 days, 30 a year)",
    "  say <message>            - to the whole table: the rest of your reply (above the quoted part)",
    "  tell <seat> <message>    - privately to that seat (numbered from 1; several: tell 2,3 ...)",
    "  undo                     - take back your last choice of this turn (if it revealed nothing)",
    "  undo turn                - take back your choices back to the start of this turn",
    "  help                     - this text",
    "Several choices in one reply: put one per line, in the order you would make them, e.g.",
    "  2",
    "  3",
    "  Take a Transfer Student",
    "  Each line (just a number, an option id or an option's label, or the option line copied from",
    "  the email) is matched against the decision you have at that moment, after the lines before it:",
    "  a number means that decision's option number.",
    "  The first line that is not one of your options then stops: nothing after it is applied, and",
    f"  our answer says what was applied, where it stopped and what you are asked now. At most {MAX_PICK_LINES}",
    "  lines are read.",
    "Picks and a message may share one reply: your picks first, then the say or tell line.",
    "Blank lines, quoted text and signatures are ignored.",
]


@dataclass(frozen=True)
class InboundResult:
    outcome: str
    reason: str
    answered: bool = False
    detail: str = ""


@dataclass
class _Reply:
    ok: bool
    title: str
    lines: list[str]
    reason: str
    outcome: str = InboundOutcome.REFUSED
    show_prompt: bool = True
    show_situation: bool = False


def inbound_message_process(*, raw: bytes, recipient: str | None = None) -> InboundResult:
    """Handle one raw RFC 5322 message; ``recipient`` is the envelope recipient if the MTA gives it."""
    try:
        parsed = parse_message(raw, recipient=recipient, max_bytes=settings.MAIL_INBOUND_MAX_BYTES)
    except GarbledMessage as e:
        logger.info("inbound mail ignored: %s", e)
        return InboundResult(InboundOutcome.IGNORED, "garbled", detail=str(e))
    with transaction.atomic():
        mailbox = mailbox_for_token(parsed.targets[0].token) if parsed.targets else None
        inbound = _inbound_record(parsed, mailbox)
        if inbound is None:
            return InboundResult(InboundOutcome.IGNORED, "duplicate")
        if parsed.auto_reason:
            # Never answer a machine: that is how mail loops start.
            return _finish(inbound, InboundOutcome.IGNORED, f"auto:{parsed.auto_reason}")
        if mailbox is None:
            retired = retired_token(parsed.targets[0].token) if parsed.targets else None
            if retired is not None:
                return _answer_retired(inbound, parsed, retired)
            return _answer_unknown(inbound, parsed)
        player = mailbox.seat.user
        if player is not None and not player.is_active:
            return _answer_deactivated(inbound, player)
        reply = _handle(parsed, mailbox)
        return _answer(inbound, parsed, mailbox, reply)


def _inbound_record(parsed: ParsedMessage, mailbox: SeatMailbox | None) -> InboundMessage | None:
    try:
        with transaction.atomic():
            return InboundMessage.objects.create(
                mailbox=mailbox, message_key=parsed.message_key, from_address=parsed.from_address,
                subject=parsed.subject, outcome=InboundOutcome.IGNORED)
    except IntegrityError:
        return None  # this very message was handled before (an MTA retry, a provider redelivery)


def _finish(inbound: InboundMessage, outcome: str, reason: str, answered: bool = False,
            detail: str = "") -> InboundResult:
    inbound.outcome, inbound.reason, inbound.answered = outcome, reason[:60], answered
    inbound.save(update_fields=["outcome", "reason", "answered"])
    return InboundResult(outcome, reason, answered, detail)


def _recent(qs) -> int:
    return qs.filter(received_at__gte=timezone.now() - timedelta(hours=1), answered=True).count()


def _answer_unknown(inbound: InboundMessage, parsed: ParsedMessage) -> InboundResult:
    """No valid token: say so to the From (it is all we have), rarely, and reveal nothing about games."""
    reason = "unknown-token" if parsed.targets else "no-token"
    if not parsed.from_address or _recent(InboundMessage.objects.filter(
            from_address=parsed.from_address, mailbox__isnull=True)) >= UNKNOWN_ANSWERS_PER_HOUR:
        return _finish(inbound, InboundOutcome.REFUSED, reason)
    lines = ["We could not match your message to a game seat: the address you wrote to is not a valid reply "
             "address (it may be mistyped, or from an old game).",
             "Please reply to the latest email from your game, or play on the website."]
    queued = notification_queue(
        kind=NotificationKind.ANSWER, dedupe_key=f"answer:{inbound.pk}", address=parsed.from_address,
        render=lambda: compose.render_answer(seat=None, user=None, title="Unknown reply address", lines=lines,
                                             ok=False))
    return _finish(inbound, InboundOutcome.REFUSED, reason, answered=queued is not None)


def _answer_retired(inbound: InboundMessage, parsed: ParsedMessage, retired: RetiredReplyToken) -> InboundResult:
    """A reply to a seat's former address (the seat changed hands since): refuse it, kindly, and change nothing.

    The answer goes to the registered address of whoever held the seat when the address was retired (the
    sender, unless the From was forged), rarely, and says nothing about who holds the seat now.
    """
    user = retired.user
    if user is not None and not user.is_active:
        return _answer_deactivated(inbound, user)
    if user is None or not user.email or _recent(InboundMessage.objects.filter(
            from_address=parsed.from_address, mailbox__isnull=True)) >= UNKNOWN_ANSWERS_PER_HOUR:
        return _finish(inbound, InboundOutcome.REFUSED, "retired-token")
    lines = [f"The address you wrote to was the reply address of your seat in game #{retired.mailbox.seat.game_id}, "
             "but the seat has changed hands since that email was sent (it was given to another player, or to a "
             "bot, or back), so this address no longer belongs to you.",
             "Nothing was done: no choice, standing order or vacation was recorded.",
             "If you still play this game, reply to the newest email from it, or play on the website."]
    queued = notification_queue(
        kind=NotificationKind.ANSWER, dedupe_key=f"answer:{inbound.pk}", address=user.email, user_id=user.pk,
        render=lambda: compose.render_answer(seat=None, user=user, title="This address no longer belongs to you",
                                             lines=lines, ok=False))
    return _finish(inbound, InboundOutcome.REFUSED, "retired-token", answered=queued is not None,
                   detail=" ".join(lines))


DEACTIVATED_LINES = [
    "Your account on this server is deactivated, so messages from it are not played: nothing was recorded (no "
    "choice, standing order or vacation). Your seats' deadlines pass as they would for any absent player.",
    "If you think this is a mistake, write to the server's admins. We send this answer at most once a day; "
    "further messages get no answer.",
]


def _answer_deactivated(inbound: InboundMessage, user) -> InboundResult:
    """A message for a deactivated account's seat: it acts nowhere. Change nothing, and say so to
    the registered address at most once a day (one key per UTC day, and none within 24 hours of the last)."""
    now = timezone.now()
    keys = [f"deactivated:{user.pk}:{day:%Y-%m-%d}" for day in (now, now - timedelta(days=1))]
    answered_lately = Notification.objects.filter(dedupe_key__in=keys, created_at__gt=now - timedelta(days=1))
    if not user.email or user.email_verified_at is None or answered_lately.exists():
        return _finish(inbound, InboundOutcome.REFUSED, "deactivated")
    queued = notification_queue(
        kind=NotificationKind.ANSWER, dedupe_key=keys[0], address=user.email, user_id=user.pk,
        render=lambda: compose.render_answer(seat=None, user=user, title="Your account is deactivated",
                                             lines=DEACTIVATED_LINES, ok=False))
    return _finish(inbound, InboundOutcome.REFUSED, "deactivated", answered=queued is not None,
                   detail=" ".join(DEACTIVATED_LINES))


def _answer(inbound: InboundMessage, parsed: ParsedMessage, mailbox: SeatMailbox, reply: _Reply) -> InboundResult:
    seat = mailbox.seat
    user = seat.user
    limit_qs = InboundMessage.objects.filter(mailbox=mailbox)
    if not reply.ok:
        limit_qs = limit_qs.filter(outcome=InboundOutcome.REFUSED)
    limited = _recent(limit_qs) >= (ANSWERS_PER_HOUR if reply.ok else ERROR_ANSWERS_PER_HOUR)
    if user is None or not user.email or user.email_verified_at is None or limited:
        return _finish(inbound, reply.outcome, reply.reason + (":rate-limited" if limited else ":no-address"),
                       detail=" ".join(reply.lines))
    note = None
    if parsed.from_address and parsed.from_address != user.email.strip().lower():
        note = (f"this message came from {parsed.from_address}, not your registered address; it was accepted "
                "because it used your secret reply address. If that was not you, tell the game admin.")
    # The answer carries the seat's open decision (one mail per reply, not two): it is that decision's
    # mail, recorded on the row (its prompt), so no separate prompt mail follows (prompt_mails.prompt_mails_run).
    carried = open_prompt(seat) if reply.show_prompt else None
    queued = notification_queue(
        kind=NotificationKind.ANSWER, dedupe_key=f"answer:{inbound.pk}", address=user.email, user_id=user.pk,
        game=seat.game, seat=seat, prompt=carried,
        render=lambda: compose.render_answer(seat=seat, user=user, title=reply.title, lines=reply.lines, ok=reply.ok,
                                             show_prompt=reply.show_prompt, show_situation=reply.show_situation,
                                             note=note, prompt=carried))
    return _finish(inbound, reply.outcome, reply.reason, answered=queued is not None, detail=" ".join(reply.lines))


def _referenced_prompt(parsed: ParsedMessage, seat: Seat) -> tuple[Prompt | None, bool]:
    """The prompt the reply is about (from the reply address, else the email it answers); (prompt, given)."""
    pk = parsed.targets[0].prompt_pk if parsed.targets else None
    if pk is None and parsed.references:
        pk = (Notification.objects.filter(message_id__in=parsed.references, seat=seat, prompt__isnull=False)
              .order_by("-id").values_list("prompt_id", flat=True).first())
    if pk is None:
        return None, False
    return Prompt.objects.filter(pk=pk, seat=seat).first(), True


def _handle(parsed: ParsedMessage, mailbox: SeatMailbox) -> _Reply:
    seat = Seat.objects.select_related("game", "user").get(pk=mailbox.seat_id)
    if parsed.oversized:
        return _Reply(False, "Your message was too large",
                      [f"Messages over {settings.MAIL_INBOUND_MAX_BYTES // 1024} KB are not read. Nothing was "
                       "recorded. Reply with just the option number, without attachments."], "oversized")
    if parsed.unknown_charset:
        return _Reply(False, "We could not read your message",
                      ["We could not read your message's character set; reply in plain text UTF-8. Nothing was "
                       "recorded."], "unknown-charset")
    talk = talk_find(parsed.lines)
    if talk is None:
        return _commands(parsed, seat)
    # Table talk: the lines before the say/tell line are read as ever (picks, a command), then the
    # message is sent; one answer says both.
    before = replace(parsed, lines=parsed.lines[:talk.start], more_lines=False,
                     first_line=parsed.lines[0] if talk.start else None)
    if talk.start == 0:
        sent, lines = talk_post(seat=seat, talk=talk, capped=parsed.more_lines)
        return _Reply(sent, "Message sent" if sent else "Message not sent", lines, "chat" if sent else "chat-refused",
                      InboundOutcome.COMMAND if sent else InboundOutcome.REFUSED, show_prompt=False)
    reply = _commands(before, seat)  # the picks first, as the reply lists them
    sent, lines = talk_post(seat=seat, talk=talk, capped=parsed.more_lines)
    reply.lines.extend(lines)
    reply.reason += ":chat" if sent else ":chat-refused"
    return reply


def _commands(parsed: ParsedMessage, seat: Seat) -> _Reply:
    """A reply's commands or picks (no table talk in it)."""
    command = command_parse(parsed.first_line)
    if command.name == "help":
        return _Reply(True, "Help: playing by email", list(HELP_LINES), "help", InboundOutcome.COMMAND)
    if command.name == "status":
        return _Reply(True, "Your current situation", [], "status", InboundOutcome.COMMAND, show_situation=True)
    if command.name == "orders":
        return _orders(seat, command)
    if command.name == "vacation":
        return _vacation(seat, command)
    if command.name == "undo":
        return _undo(parsed, seat, command)
    if command.name == "empty":
        return _Reply(False, "We found no choice in your message",
                      ["Put the option number (or a command such as 'status' or 'help') on the first line, "
                       "above any quoted text."], "empty")
    return _pick(parsed, seat, command)


def _game_over(seat: Seat) -> _Reply:
    scores = (seat.game.result or {}).get("scores")
    lines = [f"Game #{seat.game_id} is {seat.game.status}; nothing can be chosen any more."]
    if scores:
        lines.append(f"Final scores by seat: {scores}.")
    return _Reply(False, "This game is over", lines, "game-over", show_prompt=False)


def _pick(parsed: ParsedMessage, seat: Seat, command: Command) -> _Reply:
    game = seat.game
    prompt, given = _referenced_prompt(parsed, seat)
    current = Prompt.objects.filter(seat=seat, closed_at__isnull=True).first()
    if game.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
        return _game_over(seat)
    if not given:
        return _Reply(False, "Which decision is this for?",
                      ["Your message did not say which decision it answers. Reply to the email of the decision "
                       "(its reply address carries it), or reply to this one."], "no-prompt")
    if prompt is None:
        return _Reply(False, "Unknown decision",
                      ["The decision your message refers to does not exist for your seat."], "unknown-prompt")
    option = option_for(command, prompt.options)
    if option is None:
        if prompt.closed_at is not None:
            return _stale(prompt, current)
        return _Reply(False, "That is not one of the options",
                      [f"'{command.text[:80]}' is not one of the options of this decision. "
                       f"Valid: the numbers 1-{len(prompt.options)} or the option ids listed below."], "not-an-option")
    try:
        submission = submission_create(seat=seat, prompt_id=prompt.prompt_id, option_id=option["id"],
                                       source=SubmissionSource.EMAIL)
    except GameError as e:
        if e.code == ErrorCode.STALE_PROMPT:
            return _stale(prompt, current)
        if e.code == ErrorCode.GAME_NOT_ACTIVE:
            game.refresh_from_db()
            if game.status == GameStatus.FINISHED:
                return _game_over(seat)
            return _Reply(False, "The game is not running", [f"Game #{game.pk} is {game.status}: {e.detail}."],
                          "game-not-active", show_prompt=False)
        return _Reply(False, "Your choice was not recorded", [e.detail], e.code.value)
    number = prompt.options.index(option) + 1
    if not submission.is_new:
        lines = [f"You had already chosen {number}. {option['label']} for \"{prompt.text}\"; nothing changed."]
        if len(parsed.lines) > 1:  # a resent reply: its later lines were meant after that pick, long ago
            lines.append(StoppedAt(2, parsed.lines[1], "your message repeats a choice already recorded").sentence())
        return _Reply(True, "Already recorded", lines, "already-recorded", InboundOutcome.COMMAND, show_prompt=False)
    if len(parsed.lines) > 1:
        return _several_picks(parsed, seat, AppliedPick(number, option["label"]))
    # Resolve what the pick completed here (as for several picks: pick_lines), so the answer carries the
    # next decision if the seat has one now (one mail per reply).
    completed_steps_resolve(game_id=seat.game_id)
    lines = [f"Your choice for \"{prompt.text}\": {number}. {option['label']}."]
    if open_prompt(seat) is None:
        lines.append("Nothing to decide now; we will email you when you have a decision to make.")
    return _Reply(True, "Recorded", lines, "recorded", InboundOutcome.RECORDED, show_prompt=True)


def _undo(parsed: ParsedMessage, seat: Seat, command: Command) -> _Reply:
    """A reply whose first line is "undo" or "undo turn": take back from the decision the reply is
    about (a stale one is refused, as in the API), then apply the later lines as picks."""
    if seat.game.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
        return _game_over(seat)
    prompt, given = _referenced_prompt(parsed, seat)
    if given and prompt is None:
        return _Reply(False, "Unknown decision",
                      ["The decision your message refers to does not exist for your seat."], "unknown-prompt")
    taken = take_back(seat, to=command.args[0], prompt_id=prompt.prompt_id if prompt is not None else None)
    if isinstance(taken, str):
        return _Reply(False, "Nothing was taken back", [taken.capitalize() + "."], "cannot-undo")
    done = f"took back {moves_in_words(taken)}"
    if len(parsed.lines) > 1:
        return _several_picks(parsed, seat, AppliedPick(0, f"undo: {done}"))
    lines = [f"Done: you {done}."]
    if open_prompt(seat) is None:
        lines.append("Nothing to decide now; we will email you when you have a decision to make.")
    return _Reply(True, "Taken back", lines, "undo", InboundOutcome.RECORDED, show_prompt=True)


def _several_picks(parsed: ParsedMessage, seat: Seat, first: AppliedPick) -> _Reply:
    """A reply with more lines after its first pick: apply them one by one (pick_lines), then say what was
    applied, where it stopped and what is asked now (the answer lists the seat's own open prompt only)."""
    run = lines_apply(seat=seat, lines=parsed.lines[1:], first_line_no=2)
    applied = (first, *run.applied)
    lines = [applied_sentence(applied)]
    if run.stopped is not None:
        lines.append(run.stopped.sentence())
    elif parsed.more_lines:
        lines.append(f"Only the first {MAX_PICK_LINES} lines of your message were read; nothing after line "
                     f"{MAX_PICK_LINES} was applied.")
    if open_prompt(seat) is None:
        lines.append("Nothing to decide now; we will email you when you have a decision to make.")
    reason = f"recorded:{len(applied)}" + (f":stopped-at-{run.stopped.line_no}" if run.stopped else "") \
        + (":capped" if parsed.more_lines and run.stopped is None else "")
    return _Reply(True, "Recorded", lines, reason, InboundOutcome.RECORDED, show_prompt=True)


def _stale(prompt: Prompt, current: Prompt | None) -> _Reply:
    lines = [f"Your reply was to an earlier decision (\"{prompt.text}\") that is already closed, so nothing was "
             "recorded."]
    lines.append("Your current decision is below: reply to this email with its option number."
                 if current is not None else "You have nothing to decide right now; we will email you when you do.")
    return _Reply(False, "That decision is closed", lines, "stale-prompt")


def _orders(seat: Seat, command: Command) -> _Reply:
    engine = get_engine(seat.game.engine)
    offered = {o.id: o.label for o in engine.standing_orders()}
    listing = [f"  {oid}: {label}" for oid, label in offered.items()] or ["  (this game offers none)"]
    args = [a.lower() for a in command.args]
    if not args:
        current = ", ".join(seat.standing_orders) or "none"
        return _Reply(True, "Your standing orders", [f"Current: {current}.", "Offered by this game:", *listing],
                      "orders", InboundOutcome.COMMAND, show_prompt=False)
    order_ids = [] if args in (["clear"], ["none"], ["off"]) else args
    if seat.game.status in (GameStatus.FINISHED, GameStatus.ABANDONED):
        return _game_over(seat)
    try:
        seat_standing_orders_set(seat=seat, order_ids=order_ids)
    except GameError as e:
        return _Reply(False, "Standing orders not changed", [e.detail, "Offered by this game:", *listing],
                      e.code.value, show_prompt=False)
    text = ", ".join(order_ids) if order_ids else "none (cleared)"
    return _Reply(True, "Standing orders set", [f"Your standing orders are now: {text}."], "orders-set",
                  InboundOutcome.COMMAND, show_prompt=False)


def _vacation(seat: Seat, command: Command) -> _Reply:
    days = (whole_number(command.args[0]) if command.args else None) or 0
    if not 1 <= days <= MAX_VACATION_DAYS:
        return _Reply(False, "Vacation not recorded",
                      [f"Write 'vacation <days>' with a whole number of days from 1 to {MAX_VACATION_DAYS}."],
                      "bad-vacation", show_prompt=False)
    if seat.user is None:
        return _Reply(False, "Vacation not recorded", ["This seat has no player."], "no-user", show_prompt=False)
    now = timezone.now()
    try:
        vacation = vacation_create(user=seat.user, starts=now, ends=now + timedelta(days=days))
    except VacationLimitError as e:
        return _Reply(False, "Vacation not recorded", [str(e)], "vacation-cap", show_prompt=False)
    until = compose.deadline_local(vacation.ends, seat.user)
    return _Reply(True, "Vacation recorded",
                  [f"You are away until {until}. Deadlines that fall while you are away wait for your return."],
                  "vacation", InboundOutcome.COMMAND, show_prompt=False)
