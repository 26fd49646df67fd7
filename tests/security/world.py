"""The world the attack suite plays in: one of each role, one game of each kind, and a request per cell.

Everything is built through the services, as real code does, so the
suite sees the server exactly as a client would. Roles (``ROLES``, in the order the matrix lists them):

- ``anon``: no credentials at all.
- ``outsider``: a signed-in user with no seat in any game.
- ``spectator``: a signed-in user who plays elsewhere (a seat in another game) and watches this one; a
  seat somewhere must not open another game's doors.
- ``other``: the player of another seat of the game (seat 1).
- ``seat``: the seat's own player (seat 0), who also created the game (the creator's rights: pause,
  resume, abandon) and proposed the unapproved tournament.
- ``staff``: ``is_staff`` and ``is_superuser`` (the operator): sees private games in the API, the
  admin; otherwise a player like any other.
- ``deactivated``: ``is_active=False``, with an API token and a session made before the ban.

API routes (``/api/...``) are called with the role's token, everything else with its session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.test import Client, TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import token_for_user, vacation_create
from games.mail.links import pick_link_token, unsubscribe_token
from games.mail.tokens import mailbox_for_seat
from games.chat.models import ChatMessage
from games.models import Game, GameStatus, Prompt, Seat
from games.services import game_create, game_join
from games.services.admin_actions import game_create_seated
from games.tournaments.models import Tournament
from games.tournaments.services import tournament_create, tournament_propose, tournament_register
from games.invites import invite_token
from tests.factories import UserFactory
from tests.games.helpers import play_step

ROLES = ("anon", "outsider", "spectator", "other", "seat", "staff", "deactivated")

# Kinds of game a per-game route is tried on. "unknown" is an id no game has: a private game must answer
# every non-seated caller exactly as this one does.
GAME_KINDS = ("public", "private", "public_open", "private_open", "finished", "unknown")
UNKNOWN_GAME_ID = 987654321
# Kinds of tournament a per-tournament route is tried on: one open for registration, and a player's
# proposal staff have not approved yet, which only staff and its proposer (the seat's player) may see.
TOURNAMENT_KINDS = ("open", "proposal")


@dataclass
class World:
    users: dict[str, User | None]
    games: dict[str, int]
    tournament: Tournament
    proposal: Tournament  # proposed by the seat's player, not approved
    vacation_id: int
    pick_token: str  # a valid one-click link of seat 0's open prompt in the public game
    unsubscribe_token: str  # seat 0's player's
    invite_tokens: dict[str, str] = field(default_factory=dict)  # per game kind
    message_ids: dict[str, int] = field(default_factory=dict)  # per game kind: a table message by seat 1's player

    def message_id(self, kind: str) -> int:
        return self.message_ids.get(kind, self.message_ids["public"])  # "unknown": a message of another game

    def game_id(self, kind: str) -> int:
        return UNKNOWN_GAME_ID if kind == "unknown" else self.games[kind]

    def tournament_id(self, kind: str) -> int:
        return self.proposal.pk if kind == "proposal" else self.tournament.pk


def _two_seats_taken(*, creator: User, other: User, public: bool) -> Game:
    """An open 3-seat game: seat 0 the creator, seat 1 ``other``, seat 2 free (joinable)."""
    game = game_create(created_by=creator, engine="tinygame", players=3, options={"rounds": 1}, clock={},
                       is_public=public, seed=7)
    game_join(game=game, user=other)
    return game


def _started(*, creator: User, other: User, third: User, public: bool) -> Game:
    return game_create_seated(created_by=creator, engine="tinygame", users=[creator, other, third],
                              options={"rounds": 1}, seed=7, is_public=public)


def _table_message(game: Game, author: User) -> int:
    """A message to the whole table by ``author`` (seat 1), stored directly: the finished game takes no more."""
    seat = Seat.objects.get(game=game, user=author)
    return ChatMessage.objects.create(game=game, seat=seat, position=seat.position, author=author, text="gg",
                                      phase=game.phase, created_at=timezone.now()).pk


def build_world() -> World:
    """Every role and every kind of game; run inside the test's database transaction."""
    users: dict[str, User | None] = {"anon": None}
    for role in ROLES[1:]:
        users[role] = UserFactory(username=f"role-{role}")
    staff = users["staff"]
    staff.is_staff = staff.is_superuser = True
    staff.save(update_fields=["is_staff", "is_superuser"])
    third = UserFactory(username="role-third")  # the third player of the started games, in no role
    deactivated = users["deactivated"]
    token_for_user(user=deactivated)  # the token exists before the ban
    deactivated.is_active = False
    deactivated.save(update_fields=["is_active"])

    seat, other = users["seat"], users["other"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        games = {
            "public": _started(creator=seat, other=other, third=third, public=True),
            "private": _started(creator=seat, other=other, third=third, public=False),
            "public_open": _two_seats_taken(creator=seat, other=other, public=True),
            "private_open": _two_seats_taken(creator=seat, other=other, public=False),
            "finished": _started(creator=seat, other=other, third=third, public=True),
        }
        # The spectator plays elsewhere: a game of their own, where the other roles have no seat.
        _started(creator=users["spectator"], other=UserFactory(), third=UserFactory(), public=True)
        for _ in range(20):
            play_step(games["finished"])
            games["finished"].refresh_from_db()
            if games["finished"].status == GameStatus.FINISHED:
                break
    assert games["finished"].status == GameStatus.FINISHED, "the finished game did not finish"

    prompt = Prompt.objects.get(game=games["public"], seat__position=0, closed_at__isnull=True)
    now = timezone.now()
    vacation = vacation_create(user=seat, starts=now + timedelta(days=10), ends=now + timedelta(days=12))
    tournament = tournament_create(created_by=staff, name="Matrix cup", engine="tinygame", format="round_robin",
                                   table_size=2, options={"rounds": 1})
    tournament_register(tournament=tournament, user=seat)
    proposal = tournament_propose(proposed_by=seat, name="Seat's proposal", engine="tinygame",
                                  format="round_robin", table_size=2)
    return World(
        users=users, games={k: g.pk for k, g in games.items()}, tournament=tournament, proposal=proposal,
        vacation_id=vacation.pk,
        pick_token=pick_link_token(prompt_pk=prompt.pk, option_id=prompt.options[0]["id"],
                               generation=mailbox_for_seat(seat=prompt.seat).generation),
        unsubscribe_token=unsubscribe_token(user_id=seat.pk),
        invite_tokens={k: invite_token(game=g) for k, g in games.items()},
        message_ids={k: _table_message(g, other) for k, g in games.items()},
    )


def client_for(world: World, role: str, *, api: bool):
    """The role's client: its token for API routes, its session for everything else."""
    user = world.users[role]
    if api:
        client = APIClient()
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
        return client
    client = Client()
    if user is not None:
        client.force_login(user)  # for the deactivated account: the session it had before the ban
    return client
