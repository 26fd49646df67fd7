"""Helpers for the email tests: read a player's mail, write a reply as a mail client would, pipe it in."""

from __future__ import annotations

import io
import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from django.core import mail
from django.core.management import call_command
from django.test import TestCase

from games.mail.models import Notification

LINK_RE = re.compile(r"https?://\S+/mail/l/([^/\s]+)/")


def mails_to(address: str) -> list:
    """Messages in django's test outbox for ``address``, oldest first."""
    return [m for m in mail.outbox if address in m.to]


def as_email(m) -> EmailMessage:
    """A sent EmailMessage as the recipient's client sees it (parsed from the wire bytes)."""
    return message_from_bytes(m.message().as_bytes(), policy=policy.default)


def latest_prompt_mail(address: str):
    for m in reversed(mails_to(address)):
        if "X-Faltisia-Prompt" in m.extra_headers:
            return m
    return None


def body_text(m) -> str:
    return m.body


def reply_bytes(original, text: str, *, from_addr: str | None = None, extra_headers: dict | None = None,
                html: str | None = None) -> bytes:
    """A reply as a mail client writes it: To = the Reply-To, threading headers, the original quoted."""
    msg = EmailMessage()
    msg["From"] = from_addr or original.to[0]
    msg["To"] = original.extra_headers["Reply-To"]
    msg["Subject"] = "Re: " + original.subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain="client.example")
    msg["In-Reply-To"] = original.extra_headers["Message-ID"]
    msg["References"] = original.extra_headers["References"] + " " + original.extra_headers["Message-ID"]
    for k, v in (extra_headers or {}).items():
        msg[k] = v
    quoted = "\n".join("> " + line for line in original.body.splitlines()[:20])
    body = f"{text}\n\nOn Mon, 1 Jan 2024 at 10:00, Faltisia <games@localhost> wrote:\n{quoted}\n"
    if html is not None:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content(body)
    return msg.as_bytes()


def pipe(raw: bytes, *, recipient: str | None = None, commit: bool = True) -> str:
    """``manage.py receive_email`` with ``raw`` on standard input; on-commit callbacks run as after a commit."""
    out = io.StringIO()
    args = ["--recipient", recipient] if recipient else []
    with TestCase.captureOnCommitCallbacks(execute=commit):
        call_command("receive_email", *args, stdin=io.BytesIO(raw), stdout=out)
    return out.getvalue()


def outbox_rows(**filters) -> list[Notification]:
    return list(Notification.objects.filter(**filters).order_by("id"))


def start_game(**kwargs):
    """make_started_game with its on-commit side effects (the first prompt emails) run."""
    from tests.factories import make_started_game

    with TestCase.captureOnCommitCallbacks(execute=True):
        return make_started_game(**kwargs)


def newest_unanswered_prompt_mail(address: str, answered: set[str]):
    """The newest prompt email in the mailbox, if we have not replied to it yet."""
    for m in reversed(mails_to(address)):
        if "X-Faltisia-Prompt" in m.extra_headers:
            return None if m.extra_headers["Message-ID"] in answered else m
    return None


def reply_round(users, answered: set[str], *, choose=lambda m: "1") -> int:
    """Each player replies to their newest unanswered prompt email; returns how many replied."""
    n = 0
    for u in users:
        m = newest_unanswered_prompt_mail(u.email, answered)
        if m is None:
            continue
        answered.add(m.extra_headers["Message-ID"])
        out = pipe(reply_bytes(m, choose(m)))
        assert out.startswith("recorded"), (out, m.body)
        n += 1
    return n


def crlf(raw: bytes) -> bytes:
    """Wire line endings: smtplib sends bytes as they are, and SMTP lines end in CRLF."""
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
