"""The hostile-input suite's small world and its one rule: never a 5xx, and a refused request changes
nothing."""

from __future__ import annotations

from dataclasses import dataclass

from django.test import Client, TestCase
from rest_framework.test import APIClient

from accounts.models import User, Vacation
from accounts.services import user_create
from games.chat.models import ChatMessage, ChatReport, SeatNote, TableMute, UserBlock
from games.mail.models import InboundMessage
from games.models import Game, Prompt, Seat, Submission
from games.tournaments.models import Entry, Tournament
from tests.factories import make_started_game


@dataclass
class Arena:
    game: Game  # a started public 2-seat tinygame
    users: list[User]  # its two players; users[0] created it
    staff: User
    prompt: Prompt  # users[0]'s open prompt

    def api(self, user: User | None = None) -> APIClient:
        return api_client(user or self.users[0])

    def web(self, user: User | None = None) -> Client:
        return web_client(user or self.users[0])

    def anon_web(self) -> Client:
        return web_client(None)

    def move(self) -> dict:
        return {"prompt": self.prompt.prompt_id, "option": self.prompt.options[0]["id"]}


def api_client(user: User) -> APIClient:
    """An API client with ``user``'s token; a 500 is an answer here, not an exception."""
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


def web_client(user: User | None) -> Client:
    """A browser with ``user``'s session (None: signed out)."""
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def arena_build() -> Arena:
    with TestCase.captureOnCommitCallbacks(execute=True):
        game, users = make_started_game(players=2, options={"rounds": 1})
    staff = user_create(username="hostile-staff", email="staff@example.org", password="Correct-Horse-42")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    prompt = Prompt.objects.get(game=game, seat__position=0, closed_at__isnull=True)
    return Arena(game=game, users=users, staff=staff, prompt=prompt)


def snapshot() -> dict[str, int]:
    """What a refused request must leave as it was: accounts, games, seats taken, picks, mail."""
    return {
        "users": User.objects.count(), "active users": User.objects.filter(is_active=True).count(),
        "games": Game.objects.count(), "seats taken": Seat.objects.filter(user__isnull=False).count(),
        "submissions": Submission.objects.count(), "tournaments": Tournament.objects.count(),
        "entries": Entry.objects.count(), "vacations": Vacation.objects.count(),
        "inbound mails": InboundMessage.objects.count(),
        # table talk: a refused message, note, report, mute or block stores nothing
        "chat messages": ChatMessage.objects.count(), "notes": SeatNote.objects.exclude(text="").count(),
        "reports": ChatReport.objects.count(), "mutes": TableMute.objects.count(),
        "blocks": UserBlock.objects.count(),
    }


def assert_held(response, before: dict[str, int], *, refused: bool | None = None) -> None:
    """No 5xx; a refused request (4xx, or ``refused=True`` whatever its status) changed nothing."""
    status = response.status_code
    assert status < 500, f"{status}: {getattr(response, 'content', b'')[:300]!r}"
    if refused:
        assert 400 <= status < 500, f"expected a clear 4xx, got {status}: {response.content[:300]!r}"
    if refused or 400 <= status < 500:
        assert snapshot() == before, f"a refused request ({status}) changed something"
