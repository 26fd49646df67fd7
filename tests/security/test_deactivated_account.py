"""A deactivated account acts nowhere: the authorization matrix's deactivated-account column
for the ways a person acts without a route of their own, or with a route whose signed token is its authority.

``ACTS`` is the data: each way a seat's player acts -> what it does (active player, the same player once
deactivated). The matrix (test_authorization_matrix.py) covers the routes for a deactivated account that holds
no seat; here the deactivated account holds the seat, with its reply address, one-click links, standing orders
and a vacation all made before the ban, as an admin banning a live player meets them. Each deactivated cell also
checks that nothing was stored: no pick, no standing order, no vacation.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client, TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Vacation
from accounts.services import vacation_create
from games.errors import ErrorCode, GameError
from games.mail.models import Notification
from games.mail.pick_lines import completed_steps_resolve
from games.models import Prompt, Seat, Submission, SubmissionSource
from games.services import due_phases_sweep, phase_resolve, seat_standing_orders_set, submission_create
from tests.games.helpers import open_prompt, play_step
from tests.mail.helpers import latest_prompt_mail, mails_to, pipe, reply_bytes, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.security]

# One-click links are the HTML part's buttons; the text has one link to the game's page.
LINK = re.compile(r'href="https?://[^/"]+(/mail/l/[^"]+/)"')
CLOCK = {"type": "fixed", "step_seconds": 3600, "extensions": 0, "bot_after_misses": 3}
REFUSED_BY_MAIL = "refused deactivated answered"  # the first refusal of the day is answered...
REFUSED_QUIETLY = "refused deactivated"  # ...later ones the same day are not

# way -> (active player, deactivated player)
ACTS = {
    "email reply: a pick": ("recorded recorded answered", REFUSED_BY_MAIL),
    "email reply: several picks": ("recorded recorded:2 answered", REFUSED_BY_MAIL),
    "email reply: orders": ("command orders-set answered", REFUSED_BY_MAIL),
    "email reply: vacation": ("command vacation answered", REFUSED_BY_MAIL),
    "email reply: status": ("command status answered", REFUSED_BY_MAIL),
    "one-click link: confirm page (GET)": (200, 403),
    "one-click link: pick (POST)": (200, 403),
    "API: pick with the old token": (201, 401),
    "web: pick with the old session": ("302 to the game", "302 to the login page"),
}


class Table:
    """A started 2-player Faltisia game with a clock; seat 0's player (``alice``) has had mail, so holds a
    reply address and one-click links; ``ban`` deactivates her as an admin would."""

    def __init__(self):
        self.game, (self.alice, self.bob) = start_game(players=2, engine="faltisia", seed=11, clock=CLOCK)
        self.seat = Seat.objects.get(game=self.game, user=self.alice)
        self.mail = latest_prompt_mail(self.alice.email)
        self.links = LINK.findall(self.mail.alternatives[0][0])
        self.api = APIClient()
        self.api.credentials(HTTP_AUTHORIZATION=f"Token {self.api_token()}")
        self.web = Client()
        self.web.force_login(self.alice)

    def api_token(self) -> str:
        from accounts.services import token_for_user
        return token_for_user(user=self.alice)

    def ban(self):
        self.alice.is_active = False
        self.alice.save(update_fields=["is_active"])

    def traces(self) -> tuple:
        """What the seat's player could have changed: picks, standing orders, vacations."""
        return (Submission.objects.filter(seat=self.seat).count(),
                list(Seat.objects.get(pk=self.seat.pk).standing_orders),
                Vacation.objects.filter(user=self.alice).count())

    def act(self, way: str):
        prompt = open_prompt(self.game, 0)
        option = prompt.options[0]["id"]
        if way.startswith("email reply"):
            text = {"a pick": "1", "several picks": "1\n1", "orders": "orders attend-all",
                    "vacation": "vacation 3", "status": "status"}[way.split(": ")[1]]
            return pipe(reply_bytes(self.mail, text)).strip()
        if way.startswith("one-click link"):
            client = Client()
            return (client.get(self.links[0]) if "GET" in way else client.post(self.links[0])).status_code
        if way.startswith("API"):
            return self.api.post(f"/api/games/{self.game.pk}/moves/", {"prompt": prompt.prompt_id, "option": option},
                                 format="json").status_code
        assert way.startswith("web")
        response = self.web.post(f"/games/{self.game.pk}/move/", {"prompt": prompt.prompt_id, "option": option})
        return f"{response.status_code} to the {'login page' if '/login' in response['Location'] else 'game'}"


@pytest.mark.parametrize("way", sorted(ACTS))
@pytest.mark.parametrize("banned", [False, True], ids=["active", "deactivated"])
def test_each_way_a_seat_acts_is_refused_once_its_account_is_deactivated(way, banned):
    table = Table()
    if banned:
        table.ban()
    before = table.traces()
    with TestCase.captureOnCommitCallbacks(execute=True):
        outcome = table.act(way)
    assert outcome == ACTS[way][banned], f"{way} as a {'deactivated' if banned else 'active'} player: {outcome}"
    if banned:
        assert table.traces() == before, f"{way}: a deactivated account changed something"
        assert not Submission.objects.filter(seat=table.seat, source__in=("api", "web", "email")).exists()
    else:
        assert table.traces() != before or way.endswith("status") or way.endswith("(GET)")


def test_the_refusal_mail_is_polite_sent_once_a_day_and_reveals_nothing():
    table = Table()
    table.ban()
    refusals = lambda: [m for m in mails_to(table.alice.email) if "Your account is deactivated" in m.body]  # noqa: E731
    for text in ("1", "orders attend-all", "vacation 3"):
        with TestCase.captureOnCommitCallbacks(execute=True):
            pipe(reply_bytes(table.mail, text))
    assert len(refusals()) == 1
    body = refusals()[0].body
    assert "nothing was recorded" in body and "admins" in body
    prompt = open_prompt(table.game, 0)
    assert prompt.text not in body and "/mail/l/" not in body  # no decision, no link that could act
    # A day later the next message is answered again, once.
    Notification.objects.filter(dedupe_key__startswith="deactivated:").update(
        created_at=timezone.now() - timedelta(days=1, minutes=1),
        dedupe_key=f"deactivated:{table.alice.pk}:2000-01-01")
    for _ in range(2):
        with TestCase.captureOnCommitCallbacks(execute=True):
            pipe(reply_bytes(table.mail, "1"))
    assert len(refusals()) == 2


def test_the_service_refuses_every_human_source_with_its_own_code():
    """One rule in games.services: whatever surface forgot its own check, the pick is refused."""
    table = Table()
    table.ban()
    prompt = open_prompt(table.game, 0)
    for source in (SubmissionSource.API, SubmissionSource.WEB, SubmissionSource.EMAIL):
        with pytest.raises(GameError) as refused:
            submission_create(seat=table.seat, prompt_id=prompt.prompt_id, option_id=prompt.options[0]["id"],
                              source=source)
        assert refused.value.code == ErrorCode.ACCOUNT_DEACTIVATED and refused.value.code.http_status == 403
    assert not Submission.objects.filter(seat=table.seat).exists()


def test_standing_orders_set_before_the_ban_make_no_pick():
    """Faltisia's "attend-all" answers seat 0's first Lecture prompt the moment it opens for an active player;
    banned just before that prompt opens, the prompt is left open for the deadline, like any absent player's."""
    def standing_picks(table) -> int:
        return Submission.objects.filter(seat=table.seat, source=SubmissionSource.STANDING).count()

    active = Table()
    seat_standing_orders_set(seat=active.seat, order_ids=["attend-all"])
    steps = 0
    while not standing_picks(active):
        play_step(active.game)
        steps += 1
        assert steps < 40, "the game never reached a prompt the standing order answers"

    banned = Table()  # the same seeded game, played the same way up to the step that opens the Lecture
    seat_standing_orders_set(seat=banned.seat, order_ids=["attend-all"])
    for _ in range(steps - 1):
        play_step(banned.game)
    play_step(banned.game, commit=False)  # its picks are in; the step's resolution has not run yet
    banned.ban()
    with TestCase.captureOnCommitCallbacks(execute=True):
        completed_steps_resolve(game_id=banned.game.pk)  # the resolutions the eager tasks would have run
    assert standing_picks(banned) == 0
    assert open_prompt(banned.game, 0).prompt_id == Submission.objects.filter(
        seat=active.seat, source=SubmissionSource.STANDING).get().prompt_id


def test_a_vacation_set_before_the_ban_holds_no_deadline():
    """An active player's vacation makes the deadline wait; a deactivated one's seat gets the missing-move
    policy (the engine's default pick) when the deadline passes."""
    outcomes = {}
    for banned in (False, True):
        table = Table()
        now = timezone.now()
        vacation_create(user=table.alice, starts=now - timedelta(hours=1), ends=now + timedelta(days=2))
        if banned:
            table.ban()
        Prompt.objects.filter(game=table.game, seat=table.seat, closed_at__isnull=True).update(
            deadline=now - timedelta(seconds=1))
        due_phases_sweep(resolve=lambda g, p: phase_resolve(game_id=g, phase=p))
        outcomes[banned] = list(Submission.objects.filter(seat=table.seat).values_list("source", flat=True))
        if not banned:
            assert open_prompt(table.game, 0).deadline > now + timedelta(days=1)  # waits for her return
    assert outcomes[False] == []
    assert outcomes[True] and set(outcomes[True]) == {SubmissionSource.DEFAULT}
