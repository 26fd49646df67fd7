"""Play by email against the production shape: PostgreSQL, Redis, a real Celery worker and beat
(tests/e2e/stack.py), the SMTP inbound server as a subprocess (``manage.py smtp_inbound``) and a real
smtplib client; one reply goes through ``manage.py receive_email`` as a subprocess (an MTA pipe).

Players read only their outbox rows (what the worker sent) and reply by SMTP, to the end of a
3-player Faltisia game.
"""

from __future__ import annotations

import smtplib
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest
from django.db.models import Q
from django.conf import settings
from django.db import connection

from games.mail.models import Notification, NotificationKind, NotificationStatus
from games.models import Game, GameStatus, Submission
from tests.e2e.stack import ROOT, Stack, _tcp_open, database_url, free_port, wait_for
from tests.mail.helpers import crlf, reply_bytes, start_game
from tests.mail.test_play_by_email import replay_result

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

TIMEOUT = 900


@pytest.fixture
def mail_stack(transactional_db, tmp_path):
    stack = Stack(db_url=database_url(connection.settings_dict), workdir=tmp_path)
    smtp_port = free_port()
    stack.env.update({
        "SECRET_KEY": settings.SECRET_KEY,  # reply tokens and links are derived from it, as in one deployment
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(tmp_path / "sent"),
        "MAIL_REMINDER_INTERVAL_SECONDS": "2",  # beat runs the reminder task (and the outbox sweep) often
        "MAIL_PROMPT_SWEEP_SECONDS": "2",  # and the prompt sweep
        "MAIL_PROMPT_DELAY_SECONDS": "0",  # email players are away: their prompts go at once
    })
    try:
        stack.start_redis()
        stack.start_worker()
        stack.start_beat()
        stack._spawn("smtp", [sys.executable, "manage.py", "smtp_inbound", "--port", str(smtp_port)])
        wait_for(lambda: _tcp_open(smtp_port), what="smtp_inbound", timeout=60)
        yield stack, smtp_port
    finally:
        stack.stop("smtp")
        stack.stop_all()
        for name in ("worker", "beat", "smtp"):
            text = stack.log(name)
            if "Traceback" in text:
                print(f"--- {name}.log (tail) ---\n{text[-3000:]}")


def as_mail(row: Notification):
    return SimpleNamespace(to=[row.address], extra_headers=row.headers, subject=row.subject, body=row.body_text)


def newest_prompt_row(user) -> Notification | None:
    """The newest mail asking the player to decide: a prompt mail, or the answer to their reply that carried
    the next decision (then no separate prompt mail follows)."""
    return (Notification.objects.filter(user=user).filter(
        Q(kind=NotificationKind.PROMPT) | Q(kind=NotificationKind.ANSWER, subject__endswith="your next decision"))
        .order_by("-id").first())


# A deadlock to guard against: a reply's pick holding the game FOR UPDATE and closing a prompt the mail worker has
# locked, while the worker's commit checks its mail's foreign key to the game (FOR KEY SHARE). The game is locked FOR NO
# KEY UPDATE (games/fastpath/sql_rows.py for_update); a 451 fails this test, whose client does not retry.
def test_a_whole_faltisia_game_by_email_over_smtp_with_a_real_worker(mail_stack):
    stack, smtp_port = mail_stack
    game, users = start_game(players=3, engine="faltisia", seed=23)
    answered: set[int] = set()
    replies = 0
    piped = False
    started = time.time()
    with smtplib.SMTP("127.0.0.1", smtp_port, timeout=60) as smtp:
        while Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE:
            assert time.time() - started < TIMEOUT, f"stuck after {replies} replies"
            progressed = False
            for u in users:
                row = newest_prompt_row(u)
                if row is None or row.pk in answered or row.status != NotificationStatus.SENT:
                    continue
                answered.add(row.pk)
                raw = reply_bytes(as_mail(row), "1")
                if not piped:  # one reply the way an MTA pipe delivers it
                    out = subprocess.run([sys.executable, "manage.py", "receive_email"], input=raw, cwd=ROOT,
                                         env=stack.env, capture_output=True, timeout=120)
                    assert out.returncode == 0 and out.stdout.startswith(b"recorded"), out
                    piped = True
                else:
                    assert smtp.sendmail(u.email, [row.headers["Reply-To"]], crlf(raw)) == {}
                replies += 1
                progressed = True
            if not progressed:
                time.sleep(0.05)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    # Every pick came by email, except the ones the server makes itself for a one-option prompt.
    assert set(Submission.objects.filter(game=game).values_list("source", flat=True)) <= {"email", "forced"}
    assert Submission.objects.filter(game=game, source="email").exists()
    assert Submission.objects.filter(game=game, source="email").count() == replies
    assert game.result == replay_result(game)
    # The game-over emails are rendered by their own task (mail.queue_finished_notifications), so wait
    # for them to be queued as well as for the outbox to drain.
    wait_for(lambda: Notification.objects.filter(kind=NotificationKind.FINISHED).count() == len(users)
             and not Notification.objects.filter(status=NotificationStatus.PENDING).exists(),
             what="the game-over emails and the outbox to drain", timeout=120)
    for u in users:
        assert Notification.objects.filter(user=u, kind=NotificationKind.FINISHED, status="sent").count() == 1
    answers = Notification.objects.filter(kind=NotificationKind.ANSWER, status=NotificationStatus.SENT)
    assert answers.count() == replies and all(a.body_text.startswith("Recorded") for a in answers)
    assert not Notification.objects.filter(status=NotificationStatus.FAILED).exists()
    sent_files = list((stack.workdir / "sent").glob("*.log"))
    assert sent_files, "the worker's mail backend wrote nothing"
    # The steps were resolved by the replies' own picks (RESOLVE_IN_PICK); the mail is the worker's.
    assert "mail.send_notification" in stack.log("worker")
    assert "mail.queue_prompt_notifications" in stack.log("worker")  # rendered in the worker, not in the pipe
    print(f"{replies} replies by email in {time.time() - started:.1f}s; "
          f"{Notification.objects.count()} emails queued, {answers.count()} answers")
