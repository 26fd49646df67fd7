"""The registration sweep (beat task tournaments.close_registrations) and tournament_cancel.

Contracts (docs/tournaments.md, "Registration closes"): once registration_closes has passed, a
tournament with enough entries for one table starts on its own (round 1 seated, notices); one
without enough is cancelled and every entrant gets a notice (and a mail) saying why; a repeated or
late sweep changes nothing; directors cancel through the service, the admin action or the API.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client, TestCase
from django.urls import reverse
from django.utils import timezone

from games.errors import GameError
from games.models import GameStatus
from games.tournaments.models import Notice, NoticeKind, Round, Table, Tournament, TournamentStatus
from games.tournaments.services import tournament_cancel, tournament_register, tournaments_registration_sweep
from games.tournaments.tasks import close_registrations
from tests.factories import UserFactory
from tests.tournaments.helpers import director, make_tournament


def _closing(boss, *, entrants: int, closes_in: timedelta, **kwargs) -> Tournament:
    now = timezone.now()
    t = make_tournament(boss, registration_opens=now - timedelta(days=2),
                        registration_closes=now + timedelta(days=1), **kwargs)
    for _ in range(entrants):
        tournament_register(tournament=t, user=UserFactory(), now=now)
    Tournament.objects.filter(pk=t.pk).update(registration_closes=now + closes_in)
    t.refresh_from_db()
    return t


def _sweep(**kwargs):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return tournaments_registration_sweep(**kwargs)


def test_the_sweep_starts_a_closed_tournament_with_enough_players_once(db):
    boss = director()
    t = _closing(boss, entrants=3, closes_in=-timedelta(minutes=1))
    later = _closing(boss, entrants=3, closes_in=timedelta(hours=1))  # not closed yet: left alone
    assert _sweep() == {"started": 1, "cancelled": 0, "failed": 0}
    t.refresh_from_db()
    later.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and Round.objects.filter(tournament=t).count() == 1
    assert later.status == TournamentStatus.REGISTRATION
    assert Notice.objects.filter(tournament=t, kind=NoticeKind.GAME_ASSIGNED).count() == 3
    assert _sweep() == {"started": 0, "cancelled": 0, "failed": 0}  # nothing is started twice
    assert Round.objects.filter(tournament=t).count() == 1


def test_the_sweep_cancels_a_closed_tournament_without_enough_players_and_tells_them(db):
    boss = director()
    t = _closing(boss, entrants=1, closes_in=-timedelta(minutes=1), name="Lonely cup")
    mail.outbox.clear()
    assert _sweep() == {"started": 0, "cancelled": 1, "failed": 0}
    t.refresh_from_db()
    assert t.status == TournamentStatus.CANCELLED and not Round.objects.filter(tournament=t).exists()
    notice = Notice.objects.get(tournament=t)
    assert notice.kind == NoticeKind.TOURNAMENT_CANCELLED and "1 player and at least 2 are needed" in notice.body
    assert [m.subject for m in mail.outbox] == ["Lonely cup is cancelled"] and notice.user.email in mail.outbox[0].to
    assert _sweep() == {"started": 0, "cancelled": 0, "failed": 0}
    assert Notice.objects.filter(tournament=t).count() == 1  # told once


def test_the_beat_task_is_scheduled_and_runs_the_sweep(db):
    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-close-registrations"]
    assert entry["task"] == close_registrations.name == "tournaments.close_registrations"
    t = _closing(director(), entrants=0, closes_in=-timedelta(seconds=1))
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert close_registrations.apply().get() == {"started": 0, "cancelled": 1, "failed": 0}
    t.refresh_from_db()
    assert t.status == TournamentStatus.CANCELLED


def test_only_directors_cancel_and_a_running_tournament_abandons_its_open_tables(db):
    boss = director()
    t = make_tournament(boss, rounds=2)
    players = [UserFactory() for _ in range(3)]
    for u in players:
        tournament_register(tournament=t, user=u)
    from games.tournaments.services import tournament_start

    tournament_start(tournament=t, by=boss)
    with pytest.raises(GameError):
        tournament_cancel(tournament=t, by=players[0], reason="I am losing")
    with pytest.raises(GameError):
        tournament_cancel(tournament=t, by=None)  # the sweep never cancels a running tournament
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_cancel(tournament=t, by=boss, reason="The venue flooded.")
    t.refresh_from_db()
    game = Table.objects.get(round__tournament=t).game
    assert t.status == TournamentStatus.CANCELLED and game.status == GameStatus.ABANDONED
    assert Round.objects.filter(tournament=t).count() == 1  # the abandoned table seats no next round
    bodies = list(Notice.objects.filter(tournament=t, kind=NoticeKind.TOURNAMENT_CANCELLED).values_list("body", flat=True))
    assert len(bodies) == 3 and all("The venue flooded." in b for b in bodies)
    tournament_cancel(tournament=t, by=boss)  # again: nothing more happens
    assert Notice.objects.filter(tournament=t, kind=NoticeKind.TOURNAMENT_CANCELLED).count() == 3


def test_cancel_through_the_admin_action_and_the_api(db, api):
    boss = director()
    boss.is_superuser = True
    boss.save()
    t1 = _closing(boss, entrants=2, closes_in=timedelta(days=1))
    site = Client()
    site.force_login(boss)
    url = reverse("admin:tournaments_tournament_changelist")
    r = site.post(url, {"action": "cancel", "_selected_action": [t1.pk], "index": 0, "reason": "Too few tables."},
                  follow=True)
    assert "cancelled, entrants notified" in r.content.decode()
    t1.refresh_from_db()
    assert t1.status == TournamentStatus.CANCELLED
    assert all("Too few tables." in n.body for n in Notice.objects.filter(tournament=t1))

    t2 = _closing(boss, entrants=2, closes_in=timedelta(days=1))
    stranger = UserFactory()
    assert api.as_user(stranger).post(f"/api/tournaments/{t2.pk}/cancel/").status_code == 403
    r = api.as_user(boss).post(f"/api/tournaments/{t2.pk}/cancel/", {"reason": "Rain."}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
