"""The authorization matrix: every route of the URL conf x every role x every kind of game, so that
every door stays closed to whoever has no business there.

``MATRIX`` is the data: route name -> method -> variant -> the status each role gets, in the order of
``ROLES``: (anon, outsider, spectator, other seat's player, the seat's player, staff, deactivated).
A cell is one status, or a set when the contract allows either. The variant is a kind of game
(``world.GAME_KINDS``) for the per-game routes, "valid"/"forged" for routes whose path carries a signed token,
and "*" for all of them. The route names come from ``get_resolver()`` (tests/security/routes.py):
a route added without a row here, or a row whose route is gone, fails ``test_every_route_has_a_row``.

What the statuses say (the contract, ../shared/DESIGN.md):
- The API answers 401 without a token and to a deactivated account's token; the web sends
  both to the login page (302), a deactivated account's old session included.
- A private game answers 404 to everyone who is not seated (outsider, spectator) on every
  /api/games/{id}/... route and page, exactly as an unknown id does; staff see private
  games in the API (README) but are otherwise players: 403 "not your seat" where a seat is needed.
- Joining a private game by id without its invite is a 404; staff, who see private games,
  get 403 invite_required (the invite is still needed; nothing is disclosed to someone who sees the game).
- The other seat's player cannot act for the seat: a move with the seat's prompt id is a stale prompt
  for their own seat (409), nothing is stored for the seat (checked below); pause, resume and abandon
  belong to the creator (the seat's player here) and staff (403 for the others).
- Only staff get past the admin's login (302 to it for everyone else); one-click and unsubscribe links
  are their own authority (the signed token, not the session), so every role gets the same answer.
- Each inbound (and tracking) webhook under /mail/inbound/ refuses a junk body with a 4xx, never a 5xx.

The deactivated column for a deactivated account that holds a seat (its email replies, one-click links, standing
orders and vacation) is the table ``ACTS`` of test_deactivated_account.py.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse

from accounts.verification import email_verification_token

from games.models import Seat, Submission

from .routes import ADMIN_GROUP, GAME_ROUTES, admin_model_pages, body_of, route_keys, url_of, variants_of
from .world import ROLES, World, build_world, client_for

REFUSED = {401, 403}  # a wrong password (or a deactivated account's right one) at /api/auth/token/
# Never a 5xx, never served; a provider whose own settings (e.g. a signing key) are missing answers 404
# "webhook not available" (games/mail/inbound_providers.py), as the test settings leave them.
WEBHOOK_GET = (*[{400, 401, 403, 404, 405}] * 7,)
# An empty body is refused or acknowledged (an ESP retries refusals), never a 5xx; the caller's
# session gives no authority there.
WEBHOOK_POST = (*[{200, 400, 401, 403, 415}] * 7,)

# Only the game's creator (the seat's player) and staff; a private game is a 404 to those who may not see it.
CREATOR_OR_STAFF = {
    "public":       (401, 403, 403, 403, 200, 200, 401),
    "private":      (401, 404, 404, 403, 200, 200, 401),
    "public_open":  (401, 403, 403, 403, 200, 200, 401),
    "private_open": (401, 404, 404, 403, 200, 200, 401),
    "finished":     (401, 403, 403, 403, 200, 200, 401),
    "unknown":      (401, 404, 404, 404, 404, 404, 401),
}

MATRIX = {
    "admin:index": {
        "GET": {"*": (302, 302, 302, 302, 302, 200, 302)},
        "POST": {"*": (302, 302, 302, 302, 302, 200, 302)},
    },
    "admin:login": {
        "GET": {"*": (200, 200, 200, 200, 200, 302, 200)},
        "POST": {"*": (200, 200, 200, 200, 200, 200, 200)},
    },
    "admin:*": {
        "GET": {"*": (302, 302, 302, 302, 302, {200, 403}, 302)},
    },
    "api-schema": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 401)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 401)},
    },
    "auth-register": {
        "GET": {"*": (405, 405, 405, 405, 405, 405, 405)},
        "POST": {"*": (201, 201, 201, 201, 201, 201, 201)},
    },
    "auth-token": {
        "GET": {"*": (405, 405, 405, 405, 405, 405, 405)},
        "POST": {"*": (REFUSED, 200, 200, 200, 200, 200, REFUSED)},
    },
    # The caller's own webhook; the suite's URL is a loopback one, refused for everyone (400
    # address_not_allowed), and DELETE removes the caller's (none) for anyone logged in. POST rotates the
    # caller's own signing secret (the route names no one else's).
    "auth-webhook": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "PUT": {"*": (401, 400, 400, 400, 400, 400, 401)},
        "POST": {"*": (401, 200, 200, 200, 200, 200, 401)},
        "DELETE": {"*": (401, 204, 204, 204, 204, 204, 401)},
    },
    "games": {
        "GET": {"*": (401, 200, 200, 200, 200, 200, 401)},
        "POST": {"*": (401, 201, 201, 201, 201, 201, 401)},
    },
    "game-detail": {
        "GET": {
            "public":       (401, 200, 200, 200, 200, 200, 401),
            "private":      (401, 404, 404, 200, 200, 200, 401),
            "public_open":  (401, 200, 200, 200, 200, 200, 401),
            "private_open": (401, 404, 404, 200, 200, 200, 401),
            "finished":     (401, 200, 200, 200, 200, 200, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
        "POST": {"*": (401, 405, 405, 405, 405, 405, 401)},
    },
    "game-join": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "public":       (401, 409, 409, 200, 200, 409, 401),
            "private":      (401, 404, 404, 200, 200, 403, 401),
            "public_open":  (401, 200, 200, 200, 200, 200, 401),
            "private_open": (401, 404, 404, 200, 200, 403, 401),
            "finished":     (401, 409, 409, 200, 200, 409, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "game-moves": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "public":       (401, 403, 403, 409, 201, 403, 401),
            "private":      (401, 404, 404, 409, 201, 403, 401),
            "public_open":  (401, 403, 403, 409, 409, 403, 401),
            "private_open": (401, 404, 404, 409, 409, 403, 401),
            "finished":     (401, 403, 403, 409, 409, 403, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    # Only the seat's player may undo its picks; tinygame takes nothing back, so the seat gets 409
    # (cannot_undo while playing, game_not_active before the start and after the end), the other seat's player a
    # 409 too (the seat's prompt is not theirs: stale_prompt), and nothing changes for the seat.
    "game-undo": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "public":       (401, 403, 403, 409, 409, 403, 401),
            "private":      (401, 404, 404, 409, 409, 403, 401),
            "public_open":  (401, 403, 403, 409, 409, 403, 401),
            "private_open": (401, 404, 404, 409, 409, 403, 401),
            "finished":     (401, 403, 403, 409, 409, 403, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "game-log": {
        "GET": {
            "public":       (401, 200, 200, 200, 200, 200, 401),
            "private":      (401, 404, 404, 200, 200, 200, 401),
            "public_open":  (401, 200, 200, 200, 200, 200, 401),
            "private_open": (401, 404, 404, 200, 200, 200, 401),
            "finished":     (401, 200, 200, 200, 200, 200, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
        "POST": {"*": (401, 405, 405, 405, 405, 405, 401)},
    },
    "game-standing-orders": {
        "GET": {
            "public":       (401, 403, 403, 200, 200, 403, 401),
            "private":      (401, 404, 404, 200, 200, 403, 401),
            "public_open":  (401, 403, 403, 200, 200, 403, 401),
            "private_open": (401, 404, 404, 200, 200, 403, 401),
            "finished":     (401, 403, 403, 200, 200, 403, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
        "POST": {
            "public":       (401, 403, 403, 200, 200, 403, 401),
            "private":      (401, 404, 404, 200, 200, 403, 401),
            "public_open":  (401, 403, 403, 200, 200, 403, 401),
            "private_open": (401, 404, 404, 200, 200, 403, 401),
            "finished":     (401, 403, 403, 200, 200, 403, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "game-pause": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "public":       (401, 403, 403, 403, 200, 200, 401),
            "private":      (401, 404, 404, 403, 200, 200, 401),
            "public_open":  (401, 403, 403, 403, 409, 409, 401),
            "private_open": (401, 404, 404, 403, 409, 409, 401),
            "finished":     (401, 403, 403, 403, 409, 409, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "game-resume": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "public":       (401, 403, 403, 403, 409, 409, 401),
            "private":      (401, 404, 404, 403, 409, 409, 401),
            "public_open":  (401, 403, 403, 403, 409, 409, 401),
            "private_open": (401, 404, 404, 403, 409, 409, 401),
            "finished":     (401, 403, 403, 403, 409, 409, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "game-abandon": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "public":       (401, 403, 403, 403, 200, 200, 401),
            "private":      (401, 404, 404, 403, 200, 200, 401),
            "public_open":  (401, 403, 403, 403, 200, 200, 401),
            "private_open": (401, 404, 404, 403, 200, 200, 401),
            "finished":     (401, 403, 403, 403, 409, 409, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "game-reclaim": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "public":       (401, 403, 403, {200, 409}, {200, 409}, 403, 401),
            "private":      (401, 404, 404, {200, 409}, {200, 409}, 403, 401),
            "public_open":  (401, 403, 403, {200, 409}, {200, 409}, 403, 401),
            "private_open": (401, 404, 404, {200, 409}, {200, 409}, 403, 401),
            "finished":     (401, 403, 403, {200, 409}, {200, 409}, 403, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    # Table talk: every seat reads and posts (an open game's waiting room too), spectators of a
    # public game read the table and never post (not_a_player), a finished game takes no more (409); notes
    # are the seat's player's alone, staff's neither (403).
    "game-messages": {
        "GET": {
            "public":       (401, 200, 200, 200, 200, 200, 401),
            "private":      (401, 404, 404, 200, 200, 200, 401),
            "public_open":  (401, 200, 200, 200, 200, 200, 401),
            "private_open": (401, 404, 404, 200, 200, 200, 401),
            "finished":     (401, 200, 200, 200, 200, 200, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
        "POST": {
            "public":       (401, 403, 403, 201, 201, 403, 401),
            "private":      (401, 404, 404, 201, 201, 403, 401),
            "public_open":  (401, 403, 403, 201, 201, 403, 401),
            "private_open": (401, 404, 404, 201, 201, 403, 401),
            "finished":     (401, 403, 403, 409, 409, 403, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "game-notes": {
        "GET": {
            "public":       (401, 403, 403, 200, 200, 403, 401),
            "private":      (401, 404, 404, 200, 200, 403, 401),
            "public_open":  (401, 403, 403, 200, 200, 403, 401),
            "private_open": (401, 404, 404, 200, 200, 403, 401),
            "finished":     (401, 403, 403, 200, 200, 403, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
        "PUT": {
            "public":       (401, 403, 403, 200, 200, 403, 401),
            "private":      (401, 404, 404, 200, 200, 403, 401),
            "public_open":  (401, 403, 403, 200, 200, 403, 401),
            "private_open": (401, 404, 404, 200, 200, 403, 401),
            "finished":     (401, 403, 403, 200, 200, 403, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
        "POST": {"*": (401, 405, 405, 405, 405, 405, 401)},
    },
    # Moderation: whoever may read a message may report it (a public game's table: everyone signed
    # in); the game's creator (the seat's player) and staff mute seat 1's player at the table, others are
    # not_moderator (403); anyone who sees the game may block seat 1's player, who cannot block themself (400).
    "game-message-report": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "public":       (401, 201, 201, 201, 201, 201, 401),
            "private":      (401, 404, 404, 201, 201, 201, 401),
            "public_open":  (401, 201, 201, 201, 201, 201, 401),
            "private_open": (401, 404, 404, 201, 201, 201, 401),
            "finished":     (401, 201, 201, 201, 201, 201, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "game-seat-mute": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "PUT": CREATOR_OR_STAFF,
        "DELETE": CREATOR_OR_STAFF,
    },
    "game-seat-block": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "PUT": {
            "public":       (401, 200, 200, 400, 200, 200, 401),
            "private":      (401, 404, 404, 400, 200, 200, 401),
            "public_open":  (401, 200, 200, 400, 200, 200, 401),
            "private_open": (401, 404, 404, 400, 200, 200, 401),
            "finished":     (401, 200, 200, 400, 200, 200, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
        "DELETE": {
            "public":       (401, 200, 200, 200, 200, 200, 401),
            "private":      (401, 404, 404, 200, 200, 200, 401),
            "public_open":  (401, 200, 200, 200, 200, 200, 401),
            "private_open": (401, 404, 404, 200, 200, 200, 401),
            "finished":     (401, 200, 200, 200, 200, 200, 401),
            "unknown":      (401, 404, 404, 404, 404, 404, 401),
        },
    },
    "signup": {
        "GET": {"*": (200, 302, 302, 302, 302, 302, 200)},
        "POST": {"*": (200, 302, 302, 302, 302, 302, 200)},
    },
    "verify-resend": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (200, 200, 200, 200, 200, 200, 200)},
    },
    "verify-email": {
        "GET": {"*": (400, 400, 400, 400, 400, 400, 400)},
        "POST": {"*": (400, 400, 400, 400, 400, 400, 400)},
    },
    "login": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (200, 200, 200, 200, 200, 200, 200)},
    },
    "account-token": {
        "GET": {"*": (302, 200, 200, 200, 200, 200, 302)},
        "POST": {"*": (302, 302, 302, 302, 302, 302, 302)},
    },
    "account-preferences": {
        "GET": {"*": (302, 200, 200, 200, 200, 200, 302)},
        "POST": {"*": (302, 200, 200, 200, 200, 200, 302)},
    },
    "account-vacations": {
        "GET": {"*": (302, 200, 200, 200, 200, 200, 302)},
        "POST": {"*": (302, 200, 200, 200, 200, 200, 302)},
    },
    "account-vacation-cancel": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {"*": (302, 302, 302, 302, 302, 302, 302)},
    },
    "logout": {
        "GET": {"*": (405, 405, 405, 405, 405, 405, 405)},
        "POST": {"*": (302, 302, 302, 302, 302, 302, 302)},
    },
    "password_change": {
        "GET": {"*": (302, 200, 200, 200, 200, 200, 302)},
        "POST": {"*": (302, 200, 200, 200, 200, 200, 302)},
    },
    "password_change_done": {
        "GET": {"*": (302, 200, 200, 200, 200, 200, 302)},
        "POST": {"*": (302, 405, 405, 405, 405, 405, 302)},
    },
    "password_reset": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (302, 302, 302, 302, 302, 302, 302)},
    },
    "password_reset_done": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 405)},
    },
    "password_reset_confirm": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (200, 200, 200, 200, 200, 200, 200)},
    },
    "password_reset_complete": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 405)},
    },
    "web:lobby": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (200, 200, 200, 200, 200, 200, 200)},
    },
    "web:game-new": {
        "GET": {"*": (302, 200, 200, 200, 200, 200, 302)},
        "POST": {"*": (302, 200, 200, 200, 200, 200, 302)},
    },
    "web:game": {
        "GET": {
            "public":       (302, 200, 200, 200, 200, 200, 302),
            "private":      (302, 404, 404, 200, 200, 404, 302),
            "public_open":  (302, 200, 200, 200, 200, 200, 302),
            "private_open": (302, 404, 404, 200, 200, 404, 302),
            "finished":     (302, 200, 200, 200, 200, 200, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
        "POST": {"*": (302, 405, 405, 405, 405, 405, 302)},
    },
    "web:game-live": {
        "GET": {
            "public":       (302, 200, 200, 200, 200, 200, 302),
            "private":      (302, 404, 404, 200, 200, 404, 302),
            "public_open":  (302, 200, 200, 200, 200, 200, 302),
            "private_open": (302, 404, 404, 200, 200, 404, 302),
            "finished":     (302, 200, 200, 200, 200, 200, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
        "POST": {"*": (302, 405, 405, 405, 405, 405, 302)},
    },
    "web:game-move": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    # The page's Undo buttons: like a pick, every answer redirects back to the page (a refusal, such
    # as a spectator's undo or tinygame's cannot_undo, is a message on it); a 404 where the page is one.
    "web:game-undo": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    "web:game-orders": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    # The game page's table talk: the panel's poll answers the messages after ?since= (the world
    # has one table message per game; 204 while nothing is new, tests/web/test_chat_views.py) and a 404 where the page is; every form redirects back to the page, refused or not (a refusal
    # is a message on the page: a spectator's post, a stranger's mute), and is a 404 where the page is.
    "web:game-chat": {
        "GET": {
            "public":       (302, 200, 200, 200, 200, 200, 302),
            "private":      (302, 404, 404, 200, 200, 404, 302),
            "public_open":  (302, 200, 200, 200, 200, 200, 302),
            "private_open": (302, 404, 404, 200, 200, 404, 302),
            "finished":     (302, 200, 200, 200, 200, 200, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    "web:chat-unread": {  # the signed-in player's own counts: nothing of anyone else's
        "GET": {"*": (302, 200, 200, 200, 200, 200, 302)},
        "POST": {"*": (302, 405, 405, 405, 405, 405, 302)},
    },
    "web:chat-report": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    "web:game-notes": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    "web:game-mute": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    "web:game-block": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    "web:game-replay": {
        "GET": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 200, 200, 200, 200, 200, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
        "POST": {"*": (302, 405, 405, 405, 405, 405, 302)},
    },
    "web:game-join": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    "web:game-invite": {
        "GET": {
            "public":       (302, 302, 302, 200, 200, 302, 302),
            "private":      (302, 404, 404, 200, 200, 404, 302),
            "public_open":  (302, 302, 302, 200, 200, 302, 302),
            "private_open": (302, 404, 404, 200, 200, 404, 302),
            "finished":     (302, 302, 302, 200, 200, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
        "POST": {
            "public":       (302, 302, 302, 302, 302, 302, 302),
            "private":      (302, 404, 404, 302, 302, 404, 302),
            "public_open":  (302, 302, 302, 302, 302, 302, 302),
            "private_open": (302, 404, 404, 302, 302, 404, 302),
            "finished":     (302, 302, 302, 302, 302, 302, 302),
            "unknown":      (302, 404, 404, 404, 404, 404, 302),
        },
    },
    "web:invite": {
        "GET": {
            "valid":        (302, 200, 200, 200, 200, 200, 302),
            "forged":       (302, 400, 400, 400, 400, 400, 302),
        },
        "POST": {
            "valid":        (302, 302, 302, 302, 302, 302, 302),
            "forged":       (302, 400, 400, 400, 400, 400, 302),
        },
    },
    "web:game-rules": {  # public: the rules hide nothing
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 405)},
    },
    "web:favicon": {  # a permanent redirect to the static icon, whatever the method
        "GET": {"*": (301, 301, 301, 301, 301, 301, 301)},
        "POST": {"*": (301, 301, 301, 301, 301, 301, 301)},
    },
    "web:player": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 405)},
    },
    "tournaments": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 401)},
        "POST": {"*": (401, 403, 403, 403, 403, 201, 401)},
    },
    # A proposal (TOURNAMENT_KINDS) is 404 to all but staff and its proposer (the seat's player), on every
    # route, exactly as an unknown tournament: its existence is nobody else's business.
    "tournament-detail": {
        "GET": {
            "open":         (200, 200, 200, 200, 200, 200, 401),
            "proposal":     (404, 404, 404, 404, 200, 200, 401),
        },
        "POST": {"*": (405, 405, 405, 405, 405, 405, 401)},
    },
    "tournament-standings": {
        "GET": {
            "open":         (200, 200, 200, 200, 200, 200, 401),
            "proposal":     (404, 404, 404, 404, 200, 200, 401),
        },
        "POST": {"*": (405, 405, 405, 405, 405, 405, 401)},
    },
    "tournament-register": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "open":         (401, 201, 201, 201, 201, 201, 401),
            "proposal":     (401, 404, 404, 404, 409, 409, 401),
        },
        "DELETE": {
            "open":         (401, 403, 403, 403, 204, 403, 401),
            "proposal":     (401, 404, 404, 404, 403, 403, 401),
        },
    },
    "tournament-start": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "open":         (401, 403, 403, 403, 403, 400, 401),
            "proposal":     (401, 404, 404, 404, 403, 409, 401),
        },
    },
    "tournament-cancel": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "open":         (401, 403, 403, 403, 403, 200, 401),
            "proposal":     (401, 404, 404, 404, 403, 200, 401),
        },
    },
    "tournament-drop": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "open":         (401, 403, 403, 403, 409, 409, 401),
            "proposal":     (401, 404, 404, 404, 403, 403, 401),
        },
    },
    "tournament-replace": {
        "GET": {"*": (401, 405, 405, 405, 405, 405, 401)},
        "POST": {
            "open":         (401, 403, 403, 403, 403, 200, 401),
            "proposal":     (401, 404, 404, 404, 403, 403, 401),
        },
    },
    "leaderboard": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 401)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 401)},
    },
    "player-ratings": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 401)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 401)},
    },
    # The tournament pages: a deactivated account's old session is no session (it is anonymous there).
    "tournaments-index": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 405)},
    },
    "tournament-propose": {
        "GET": {"*": (302, 200, 200, 200, 200, 200, 302)},
        "POST": {"*": (302, 302, 302, 302, 302, 302, 302)},
    },
    "tournament-page": {
        "GET": {
            "open":         (200, 200, 200, 200, 200, 200, 200),
            "proposal":     (404, 404, 404, 404, 200, 200, 404),
        },
        "POST": {"*": (405, 405, 405, 405, 405, 405, 405)},
    },
    "tournament-join": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "open":         (302, 302, 302, 302, 302, 302, 302),
            "proposal":     (302, 404, 404, 404, 302, 302, 302),
        },
    },
    "tournament-withdraw": {
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "open":         (302, 302, 302, 302, 302, 302, 302),
            "proposal":     (302, 404, 404, 404, 302, 302, 302),
        },
    },
    "tournament-approve": {  # staff only: 404 to everyone else, as if the page did not exist
        "GET": {"*": (302, 405, 405, 405, 405, 405, 302)},
        "POST": {
            "open":         (302, 404, 404, 404, 404, 302, 302),
            "proposal":     (302, 404, 404, 404, 404, 302, 302),
        },
    },
    "leaderboard-page": {
        "GET": {"*": (200, 200, 200, 200, 200, 200, 200)},
        "POST": {"*": (405, 405, 405, 405, 405, 405, 405)},
    },
    "mail-pick": {
        "GET": {
            "valid":        (200, 200, 200, 200, 200, 200, 200),
            "forged":       (400, 400, 400, 400, 400, 400, 400),
        },
        "POST": {
            "valid":        (200, 200, 200, 200, 200, 200, 200),
            "forged":       (400, 400, 400, 400, 400, 400, 400),
        },
    },
    "mail-unsubscribe": {
        "GET": {
            "valid":        (200, 200, 200, 200, 200, 200, 200),
            "forged":       (400, 400, 400, 400, 400, 400, 400),
        },
        "POST": {
            "valid":        (200, 200, 200, 200, 200, 200, 200),
            "forged":       (400, 400, 400, 400, 400, 400, 400),
        },
    },
    # The providers' inbound webhooks (games/mail/inbound_providers.py), mounted without a namespace; the test
    # settings mount every provider and set no ANYMAIL_WEBHOOK_SECRET, so each refuses.
    **{f"{esp}_inbound_webhook": {"GET": {"*": WEBHOOK_GET}, "POST": {"*": WEBHOOK_POST}} for esp in (
        "amazon_ses", "brevo", "mailersend", "mailgun", "mailjet", "mailtrap", "postal", "postmark", "resend",
        "sendgrid", "sendinblue", "sparkpost")},
    "api-not-found": {  # the catch-all after every /api/ route: the API's JSON 404, whoever asks
        "GET": {"*": (404, 404, 404, 404, 404, 404, 404)},
        "POST": {"*": (404, 404, 404, 404, 404, 404, 404)},
    },
}


def _expected(key: str, method: str, variant: str, role: str):
    variants = MATRIX[key][method]
    row = variants.get(variant, variants.get("*"))
    cell = row[ROLES.index(role)]
    return cell if isinstance(cell, (set, frozenset)) else {cell}


def _seat0_state(key: str, world: World, variant: str) -> tuple:
    """What only the seat's player may change: seat 0's submissions, and who sits at the game."""
    game_id = world.game_id(variant)
    return (Submission.objects.filter(game_id=game_id, seat__position=0).count(),
            sorted(Seat.objects.filter(game_id=game_id, user__isnull=False).values_list("user_id", flat=True)))


def _call(world: World, key: str, method: str, variant: str, role: str, url: str) -> tuple[int, tuple, tuple]:
    """One cell: the role's request, rolled back afterwards so every cell starts from the same world."""
    api = url.startswith("/api/")
    client = client_for(world, role, api=api)
    client.raise_request_exception = False  # a 500 is a cell's answer here, not a crash of the suite
    body = body_of(key, method, variant, world, role)
    with transaction.atomic():
        cache.clear()  # rate limits and lockouts count per test, not across cells
        before = _seat0_state(key, world, variant) if key in GAME_ROUTES else ()
        send = getattr(client, method.lower())
        if method == "GET":
            response = send(url)
        elif api:
            response = send(url, body, format="json")
        else:
            response = send(url, body)
        after = _seat0_state(key, world, variant) if key in GAME_ROUTES else ()
        transaction.set_rollback(True)
    return response.status_code, before, after


def _side_effects_wrong(key: str, variant: str, role: str, before: tuple, after: tuple) -> list[str]:
    """Whatever the status said: a move stored for seat 0 by anyone but its player, or a seat taken in a
    private game without its invite, is wrong."""
    if not before:
        return []
    problems = []
    if after[0] != before[0] and role != "seat":
        problems.append("stored a move for seat 0")
    if key in ("game-join", "web:game-join") and variant.startswith("private") and after[1] != before[1]:
        problems.append("took a seat in a private game without its invite")
    return problems


def _cells(world: World, key: str):
    """(method, variant, role, url) of every cell of the route."""
    for method in MATRIX[key]:
        variants = variants_of(key)
        for variant in variants:
            urls = admin_model_pages() if key == ADMIN_GROUP else [url_of(key, variant, world)]
            for url in urls:
                for role in ROLES:
                    yield method, variant, role, url


def cell_count() -> int:
    """Routes x methods x variants x roles (each admin model page counted once per role)."""
    pages = len(admin_model_pages())
    return sum(len(ROLES) * (pages if key == ADMIN_GROUP else len(variants_of(key)))
               for key, methods in MATRIX.items() for _ in methods)


@pytest.mark.django_db
def test_every_route_has_a_row():
    """The matrix is generated from the URL conf, so a new route without a
    row (or a row for a route that is gone) fails here."""
    routes = route_keys()
    missing, stale = sorted(routes - MATRIX.keys()), sorted(MATRIX.keys() - routes)
    assert not missing, f"routes with no row in the authorization matrix: {missing}"
    assert not stale, f"rows for routes the URL conf no longer has: {stale}"
    for key, methods in MATRIX.items():
        for method, variants in methods.items():
            assert set(variants) <= set(variants_of(key)) | {"*"}, (key, method, variants)
            assert "*" in variants or set(variants) == set(variants_of(key)), (key, method, "variants missing")
            for row in variants.values():
                assert len(row) == len(ROLES), (key, method, row)
    print(f"\nauthorization matrix: {len(routes)} routes, {cell_count()} cells (route x method x variant x role)")


@pytest.mark.django_db
@pytest.mark.parametrize("key", sorted(MATRIX))
def test_route_answers_each_role_as_the_matrix_says(key):
    """Every cell of the route: each role gets the status its row says, and no side effect it should not."""
    world = build_world()
    wrong = []
    for method, variant, role, url in _cells(world, key):
        status, before, after = _call(world, key, method, variant, role, url)
        expected = _expected(key, method, variant, role)
        if status not in expected:
            wrong.append(f"{method} {url} [{variant}] as {role}: {status}, expected {sorted(expected)}")
        for problem in _side_effects_wrong(key, variant, role, before, after):
            wrong.append(f"{method} {url} [{variant}] as {role}: {problem}")
    assert not wrong, f"{len(wrong)} cell(s) of {key!r} differ from the matrix:\n" + "\n".join(wrong)


def test_private_games_answer_like_unknown_ids():
    """For everyone not seated, each API route's private-game cells equal its
    unknown-id cells (the matrix cannot drift into disclosing a private game's existence)."""
    for key in GAME_ROUTES:
        if not key.startswith("game-"):
            continue  # the web pages: the same rule, checked cell by cell above
        for method, variants in MATRIX[key].items():
            if "*" in variants:
                continue
            for role in ("anon", "outsider", "spectator", "deactivated"):
                unknown = _expected(key, method, "unknown", role)
                for kind in ("private", "private_open"):
                    assert _expected(key, method, kind, role) == unknown, (key, method, kind, role)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["deactivated", "staff"])
def test_a_verification_link_opens_no_door(role):
    """The deactivated account's own verification link neither reactivates it
    nor logs it in (and its old token stays refused); a staff account's link is no login either."""
    world = build_world()
    user = world.users[role]
    client = Client(raise_request_exception=False)
    response = client.get(reverse("verify-email", kwargs={"token": email_verification_token(user=user)}))
    assert response.status_code < 500
    user.refresh_from_db()
    assert "_auth_user_id" not in client.session, f"the {role} account's verification link logged it in"
    if role == "deactivated":
        assert not user.is_active, "a deactivated account reactivated itself with its verification link"
        api = client_for(world, role, api=True)
        assert api.get("/api/games/").status_code == 401
