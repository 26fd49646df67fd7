"""Which decisions a player wants mailed, and whether they are away from the game's page.

    prompt_modes(...)  the player's choice for a game: every decision / when away (default) / digest / never
                       (the game's own choice, accounts.GamePromptMail, over the account's prompt_mail;
                       the master switch email_prompts off is "never")
    away_from(...)     None if the player is away now, else until when they count as on the page
                       (a sign from the page or its live updates, or a pick on the web, within a minute)

A prompt mailed "when away" waits MAIL_PROMPT_DELAY_SECONDS (the player may answer it on the page first),
and its send re-checks both (delivery.py): so a player who plays on the page gets no prompt mail at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings

from django.db.models import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from accounts.models import GamePresence, GamePromptMail, NotificationPreferences, PromptMail
from accounts.presence import last_seen, present_until_signs
from games.models import Submission, SubmissionSource

EVERY, AWAY, DIGEST, NEVER = PromptMail.EVERY, PromptMail.AWAY, PromptMail.DIGEST, PromptMail.NEVER
WANTS_PROMPTS = (EVERY, AWAY)  # the modes that mail prompts and deadline reminders


def prompt_delay() -> timedelta:
    """How long a prompt mailed "when away" waits for an answer on the page (MAIL_PROMPT_DELAY_SECONDS)."""
    return timedelta(seconds=settings.MAIL_PROMPT_DELAY_SECONDS)


def game_overrides(pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """{(user id, game id): mode} of the games among ``pairs`` that have their own choice: one query."""
    pairs = set(pairs)
    if not pairs:
        return {}
    users, games = {u for u, _ in pairs}, {g for _, g in pairs}
    rows = GamePromptMail.objects.filter(user_id__in=users, game_id__in=games).values_list("user_id", "game_id", "mode")
    return {(u, g): m for u, g, m in rows if (u, g) in pairs}


def effective_mode(prefs: NotificationPreferences, *, game_id: int | None,
                   overrides: dict[tuple[int, int], str] | None = None) -> str:
    """The player's mode for this game; the master switch off wins over a game's own choice."""
    if not prefs.email_prompts:
        return NEVER
    if game_id is not None:
        if overrides is None:
            overrides = game_overrides([(prefs.user_id, game_id)])
        own = overrides.get((prefs.user_id, game_id))
        if own:
            return own
    return prefs.prompt_mail or AWAY


def mode_with_own_choice(prefs: NotificationPreferences, *, game_id: int, own_mode: str) -> str:
    """effective_mode for a game whose own choice (``own_mode``, "" for none) the caller read with its rows."""
    return effective_mode(prefs, game_id=game_id, overrides={(prefs.user_id, game_id): own_mode})


def last_web_pick_at(*, seat_id: int) -> datetime | None:
    """The seat's latest pick made on the game page (a sign of presence the page gave by itself)."""
    return (Submission.objects.filter(seat_id=seat_id, source=SubmissionSource.WEB).order_by("-id")
            .values_list("created_at", flat=True).first())


def away_from(*, user_id: int, game_id: int, seat_id: int | None, now: datetime) -> datetime | None:
    """None if the player is away from the game's page at ``now``; else the time they stop counting as there."""
    web_pick = last_web_pick_at(seat_id=seat_id) if seat_id is not None else None
    return away_from_signs(seen_at=last_seen(user_id=user_id, game_id=game_id), web_pick_at=web_pick, now=now)


def away_from_signs(*, seen_at: datetime | None, web_pick_at: datetime | None, now: datetime) -> datetime | None:
    """away_from for signs the caller read already (annotations of a batch: prompt_mails.py, result_mails.py)."""
    until = present_until_signs(seen_at, web_pick_at)
    return until if until is not None and until > now else None


def seat_presence_annotations() -> dict[str, Subquery]:
    """Annotations of a Seat query: its player's own mode for the game, last sign on the page, latest pick on
    the page (as games/mail/prompt_rows.py reads them for prompts, for the seats a resolution's result emails walk)."""
    return {"own_mode": Coalesce(Subquery(GamePromptMail.objects.filter(user_id=OuterRef("user_id"),
                                                                        game_id=OuterRef("game_id")).values("mode")[:1]),
                                 Value("")),
            "seen_at": Subquery(GamePresence.objects.filter(user_id=OuterRef("user_id"), game_id=OuterRef("game_id"))
                                .values("seen_at")[:1]),
            "web_pick_at": Subquery(Submission.objects.filter(seat_id=OuterRef("pk"), source=SubmissionSource.WEB)
                                    .order_by("-id").values("created_at")[:1])}
