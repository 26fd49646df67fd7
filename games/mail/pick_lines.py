"""The further picks of a reply: one per line, each matched against the seat's prompt open at that moment.

A reply's first line is a pick at the prompt its reply address names (inbound._pick: the stale-prompt rule).
Each later line is a pick at the prompt the seat has open after the lines before it, made through the same
service as every pick (games.services.submission_create: the same validation, idempotency and game row
lock). The first line that names no option of that prompt stops the run: nothing after it is applied, even
a line that would match, because the player wrote it for a situation that did not come about.

A pick that completes the step resolves it itself (settings.RESOLVE_IN_PICK); a step left to the worker (one the
resolution's bots completed in turn, or every step with that setting off) is resolved here, in the reply's own
transaction, so the next line meets the prompt that resolution opens (a long sequential turn, a solo game, a
bot's turn in between). Resolving here is safe: phase_resolve locks the game row and re-checks the step, so the
resolution task enqueued on commit finds the step resolved and changes nothing; and if anything fails, the whole
reply (its InboundMessage row included) rolls back and the MTA's retry finds it new.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from games.errors import GameError
from games.models import Game, GameStatus, Prompt, Seat, SubmissionSource
from games.services import phase_resolve, submission_create
from games.services.undo import moves_in_words, undo_for_player

from .commands import option_for_line, undo_target

# Resolutions in a row between two lines: bots' turns before the seat's next prompt. A bound against a
# game that keeps resolving without this seat (it then waits for the resolution task, as after any pick).
MAX_RESOLUTIONS_BETWEEN_LINES = 12
QUOTED_LINE_CHARS = 80

NOT_AN_OPTION = "not an option now"
NOTHING_TO_DECIDE = "you have nothing to decide now"
GAME_OVER = "the game is over"


@dataclass(frozen=True)
class AppliedPick:
    number: int  # the option's number in its prompt's list, as the player saw it
    label: str


@dataclass(frozen=True)
class StoppedAt:
    line_no: int  # 1-based, counting the player's own lines (blank and quoted lines not counted)
    line: str
    why: str

    def sentence(self) -> str:
        shown = self.line if len(self.line) <= QUOTED_LINE_CHARS else self.line[:QUOTED_LINE_CHARS] + "..."
        return f"Stopped at line {self.line_no}: '{shown}' ({self.why}); nothing after it was applied."


@dataclass(frozen=True)
class LineRun:
    applied: tuple[AppliedPick, ...]
    stopped: StoppedAt | None


def open_prompt(seat: Seat) -> Prompt | None:
    return Prompt.objects.filter(seat=seat, closed_at__isnull=True).first()


def completed_steps_resolve(*, game_id: int) -> None:
    """Resolve the game's step while a pick (ours, a bot's, a standing order's) has completed it."""
    for _ in range(MAX_RESOLUTIONS_BETWEEN_LINES):
        game = Game.objects.only("phase", "status", "resolve_requested_at").get(pk=game_id)
        if game.status != GameStatus.ACTIVE or game.resolve_requested_at is None:
            return
        if not phase_resolve(game_id=game_id, phase=game.phase):
            return


def _line_apply(seat: Seat, line: str, line_no: int) -> AppliedPick | StoppedAt:
    completed_steps_resolve(game_id=seat.game_id)
    status = Game.objects.values_list("status", flat=True).get(pk=seat.game_id)
    if status != GameStatus.ACTIVE:
        return StoppedAt(line_no, line, GAME_OVER if status == GameStatus.FINISHED else f"the game is {status}")
    to = undo_target(line)
    if to is not None:
        return _undo_line_apply(seat, line, line_no, to)
    prompt = open_prompt(seat)
    if prompt is None:  # the step passed to another seat, or waits for the others: say no more than that
        return StoppedAt(line_no, line, NOTHING_TO_DECIDE)
    option = option_for_line(line, prompt.options)
    if option is None:
        return StoppedAt(line_no, line, NOT_AN_OPTION)
    try:
        submission = submission_create(seat=seat, prompt_id=prompt.prompt_id, option_id=option["id"],
                                       source=SubmissionSource.EMAIL)
    except GameError as e:
        return StoppedAt(line_no, line, f"not recorded: {e.detail}")
    if not submission.is_new:  # cannot happen at an open prompt; never count a pick twice if it did
        return StoppedAt(line_no, line, "already recorded")
    return AppliedPick(prompt.options.index(option) + 1, option["label"])


def take_back(seat: Seat, *, to: str, prompt_id: str | None) -> int | str:
    """A take-back line, through the same service as the API's undo: the picks taken back, or why none was.
    ``prompt_id``: the decision it is about (the reply's own, on its first line); None takes back from the
    seat's latest decision, as the lines before it left things."""
    if prompt_id is None:
        prompt_id = Prompt.objects.filter(seat=seat).order_by("-id").values_list("prompt_id", flat=True).first()
        if prompt_id is None:
            return "you have made no pick"
    try:
        return undo_for_player(game_id=seat.game_id, user=seat.user, prompt_id=prompt_id, to=to,
                               source=SubmissionSource.EMAIL).undo.moves
    except GameError as e:
        return e.detail


def _undo_line_apply(seat: Seat, line: str, line_no: int, to: str) -> AppliedPick | StoppedAt:
    taken = take_back(seat, to=to, prompt_id=None)
    if isinstance(taken, str):
        return StoppedAt(line_no, line, f"nothing taken back: {taken}")
    return AppliedPick(0, f"undo: took back {moves_in_words(taken)}")


def lines_apply(*, seat: Seat, lines: Sequence[str], first_line_no: int) -> LineRun:
    """Apply ``lines`` in order (the first is line ``first_line_no`` of the reply) until one does not match."""
    applied: list[AppliedPick] = []
    for offset, line in enumerate(lines):
        outcome = _line_apply(seat, line, first_line_no + offset)
        if isinstance(outcome, StoppedAt):
            return LineRun(tuple(applied), outcome)
        applied.append(outcome)
    completed_steps_resolve(game_id=seat.game_id)  # so the answer shows what is asked at the end
    return LineRun(tuple(applied), None)


def applied_sentence(applied: Sequence[AppliedPick]) -> str:
    return "Applied: " + "; ".join(f"{i}. {a.label}" for i, a in enumerate(applied, start=1)) + "."
