"""Invitations to a game: a signed link anyone holding it may open to join (public or private games).

Both surfaces use it (the web's invite page, the API's ``invite`` token), so it sits below them in the core.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import User
from games.models import Game

SALT = "games.web.invite"  # the module's old path: links already sent stay valid


class InviteError(ValueError):
    """The invite link is broken or expired, or its game is gone."""


def invite_token(*, game: Game) -> str:
    return signing.dumps({"g": game.pk}, salt=SALT)


def invite_url(*, game: Game, base_url: str) -> str:
    return base_url.rstrip("/") + reverse("web:invite", args=[invite_token(game=game)])


def invite_game(*, token: str) -> Game:
    """The game an invite token names; InviteError if the link is not valid."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.INVITE_MAX_AGE)
    except signing.SignatureExpired:
        raise InviteError("This invitation has expired; ask for a new link.")
    except signing.BadSignature:
        raise InviteError("This invitation link is not valid.")
    game = Game.objects.filter(pk=data.get("g")).first()
    if game is None:
        raise InviteError("The game of this invitation no longer exists.")
    return game


def invite_email_send(*, game: Game, by: User, to: str, base_url: str, note: str = "") -> None:
    """Mail an invitation link through Django's email backend once the transaction commits."""
    body = render_to_string("web/invite_email.txt", {
        "game": game, "by": by, "note": note, "link": invite_url(game=game, base_url=base_url)})
    subject = f"{by.username} invites you to a game of {game_title(game)}"
    transaction.on_commit(lambda: send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to]))


def game_title(game: Game) -> str:
    from games.engines.registry import get_engine
    try:
        return get_engine(game.engine).name
    except (KeyError, ImportError, AttributeError):
        return game.engine
