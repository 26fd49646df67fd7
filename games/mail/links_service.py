"""Using a one-click pick link: check it, mark it used (once), record the pick via the games services."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from games.errors import GameError
from games.models import Prompt, SubmissionSource
from games.services import submission_create

from .links import LinkError, PickLink, pick_link_read
from .models import SeatMailbox, UsedLink

REVOKED_TEXT = ("This link no longer belongs to you: the seat it was for has changed hands (a new player, or a "
                "bot) since the email was sent. Nothing was recorded. If you still play this game, use the "
                "newest email from it or the website.")

DEACTIVATED_TEXT = ("The account this link was sent to is deactivated, so it cannot play: nothing was recorded. If "
                    "you think this is a mistake, write to the server's admins.")


@dataclass(frozen=True)
class LinkTarget:
    link: PickLink
    prompt: Prompt
    option: dict


def link_target(token: str) -> LinkTarget:
    """What a link would do (for the GET confirm page); LinkError if forged, expired, revoked, used or moot."""
    link = pick_link_read(token)
    prompt = Prompt.objects.select_related("seat", "seat__user", "game").filter(pk=link.prompt_pk).first()
    if prompt is None:
        raise LinkError("unknown", "This link refers to a decision that no longer exists.")
    option = next((o for o in prompt.options if o["id"] == link.option_id), None)
    if option is None:
        raise LinkError("forged", "This link names an option that was never offered.")
    generation = SeatMailbox.objects.filter(seat_id=prompt.seat_id).values_list("generation", flat=True).first()
    if link.generation != (generation or 0):
        raise LinkError("revoked", REVOKED_TEXT)
    player = prompt.seat.user
    if player is not None and not player.is_active:
        raise LinkError("deactivated", DEACTIVATED_TEXT)
    if UsedLink.objects.filter(nonce=link.nonce).exists():
        raise LinkError("used", "This link has already been used; each link works once.")
    return LinkTarget(link, prompt, option)


@transaction.atomic
def link_use(*, token: str):
    """Record the link's pick (POST). The UsedLink row and the submission commit together or not at all."""
    target = link_target(token)
    try:
        with transaction.atomic():
            UsedLink.objects.create(nonce=target.link.nonce, prompt=target.prompt, option_id=target.option["id"])
    except IntegrityError:
        raise LinkError("used", "This link has already been used; each link works once.") from None
    try:
        submission = submission_create(seat=target.prompt.seat, prompt_id=target.prompt.prompt_id,
                                       option_id=target.option["id"], source=SubmissionSource.EMAIL)
    except GameError as e:
        transaction.set_rollback(True)  # the link stays unused: nothing at all changed
        raise LinkError(e.code.value, _game_error_text(e)) from None
    return target, submission


def _game_error_text(e: GameError) -> str:
    if e.code.value == "stale_prompt":
        return "That decision is already closed (answered, or the game moved on); nothing was recorded."
    if e.code.value == "game_not_active":
        return f"The game is not running ({e.detail}); nothing was recorded."
    return f"Nothing was recorded: {e.detail}"
