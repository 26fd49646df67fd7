"""Moderation of table talk: reports, staff hiding and restoring messages, mutes, blocks.

Every act of a moderator is logged (ModerationAction) in its own transaction; hiding and restoring tell
the message's author once it commits (signals.message_moderated).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat

from .errors import ChatError, ChatErrorCode
from .limits import REPORT_REASON_MAX, text_problem
from .models import ChatMessage, ChatReport, ModerationAction, ModerationKind, TableMute, UserBlock
from .selectors import Reader, message_for
from .signals import message_moderated

REASON_MAX = 200  # a moderator's reason, as logged and told to the author
SEAT_POSITION_MAX = 32767  # Seat.position is a small integer


def _reason(text: str, limit: int, *, optional: bool = False) -> str:
    """The reason as stored, by the rule of every free text; ``optional``: an empty one is fine."""
    problem = text_problem(text, limit=limit, allow_empty=optional)
    if problem is not None:
        raise ChatError(problem.code, f"reason: {problem.detail}")
    return text.strip()


@transaction.atomic
def message_report(*, reader: Reader, message_id: int, reason: str) -> ChatReport:
    """Report a message the reader may read to staff; reporting it again updates the reason."""
    message = message_for(reader=reader, message_id=message_id) if 0 < message_id < 2**63 else None
    if message is None:
        raise ChatError(ChatErrorCode.NO_SUCH_MESSAGE, "no such message here")
    report, _ = ChatReport.objects.update_or_create(
        message=message, reporter=reader.user,
        defaults={"reason": _reason(reason, REPORT_REASON_MAX), "settled_at": None})
    return report


def _check_staff(user: User) -> None:
    if not user.is_staff:
        raise ChatError(ChatErrorCode.NOT_MODERATOR, "only staff hide and restore messages")


def _moderated(message: ChatMessage, *, kind: str, by: User, reason: str) -> None:
    ModerationAction.objects.create(kind=kind, game_id=message.game_id, message=message, target_id=message.author_id,
                                    actor=by, reason=reason)
    ChatReport.objects.filter(message=message, settled_at__isnull=True).update(settled_at=timezone.now())
    transaction.on_commit(lambda: message_moderated.send_robust(
        sender=ChatMessage, message=message, kind=kind, actor=by, reason=reason))


@transaction.atomic
def message_hide(*, message: ChatMessage, by: User, reason: str) -> ChatMessage:
    """Hide a message from everyone but its author (staff only); hiding a hidden one changes nothing."""
    _check_staff(by)
    message = ChatMessage.objects.select_for_update().get(pk=message.pk)
    if message.hidden_at is not None:
        return message
    reason = _reason(reason, REASON_MAX)
    message.hidden_at, message.hidden_reason = timezone.now(), reason
    message.save(update_fields=["hidden_at", "hidden_reason"])
    _moderated(message, kind=ModerationKind.HIDE, by=by, reason=reason)
    return message


@transaction.atomic
def message_restore(*, message: ChatMessage, by: User, reason: str = "") -> ChatMessage:
    """Show a hidden message again (staff only); restoring a shown one changes nothing."""
    _check_staff(by)
    message = ChatMessage.objects.select_for_update().get(pk=message.pk)
    if message.hidden_at is None:
        return message
    message.hidden_at, message.hidden_reason = None, ""
    message.save(update_fields=["hidden_at", "hidden_reason"])
    _moderated(message, kind=ModerationKind.RESTORE, by=by, reason=_reason(reason, REASON_MAX, optional=True))
    return message


def _check_table_moderator(game: Game, by: User) -> None:
    if not (by.is_staff or (by.is_active and game.created_by_id == by.pk)):
        raise ChatError(ChatErrorCode.NOT_MODERATOR, "only the game's creator or staff mute players here")


def seated_player(game: Game, position: int) -> User:
    """The player at the seat ``position`` (400 bad_recipients if no player sits there)."""
    # A path's digits may be any size: beyond a small integer there is no seat (and the query would overflow).
    seat = (Seat.objects.filter(game=game, position=position).select_related("user").first()
            if 0 <= position <= SEAT_POSITION_MAX else None)
    if seat is None or seat.user is None:
        raise ChatError(ChatErrorCode.BAD_RECIPIENTS, f"no player sits at seat position {position}")
    return seat.user


@transaction.atomic
def player_mute(*, game: Game, position: int, by: User, reason: str = "") -> TableMute:
    """Mute the player at ``position`` at this table (the game's creator or staff); logged."""
    _check_table_moderator(game, by)
    reason = _reason(reason, REASON_MAX, optional=True)
    target = seated_player(game, position)
    if target.pk == by.pk:
        raise ChatError(ChatErrorCode.BAD_RECIPIENTS, "you cannot mute yourself")
    mute, created = TableMute.objects.get_or_create(game=game, user=target, defaults={"muted_by": by})
    if created:
        ModerationAction.objects.create(kind=ModerationKind.MUTE, game=game, target=target, actor=by, reason=reason)
    return mute


@transaction.atomic
def player_unmute(*, game: Game, position: int, by: User) -> None:
    """Let the player at ``position`` post again (the game's creator or staff); logged."""
    _check_table_moderator(game, by)
    target = seated_player(game, position)
    deleted, _ = TableMute.objects.filter(game=game, user=target).delete()
    if deleted:
        ModerationAction.objects.create(kind=ModerationKind.UNMUTE, game=game, target=target, actor=by)


@transaction.atomic
def user_block(*, blocker: User, blocked: User) -> UserBlock:
    """``blocker`` no longer sees anything ``blocked`` writes, at any table (and gets no private message)."""
    if blocker.pk == blocked.pk:
        raise ChatError(ChatErrorCode.BAD_RECIPIENTS, "you cannot block yourself")
    block, _ = UserBlock.objects.get_or_create(blocker=blocker, blocked=blocked)
    return block


@transaction.atomic
def user_unblock(*, blocker: User, blocked: User) -> None:
    UserBlock.objects.filter(blocker=blocker, blocked=blocked).delete()
