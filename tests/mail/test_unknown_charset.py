"""A reply in a character set we cannot decode is answered, not dropped.

``Content-Type: text/plain; charset=x-unknown-foo`` must not make the parser give up and the reply be
ignored without a word: the player would never learn their pick was not recorded.
"""

from __future__ import annotations

import pytest

from games.models import Submission
from tests.mail.helpers import latest_prompt_mail, mails_to, pipe, reply_bytes, start_game

pytestmark = pytest.mark.django_db

ANSWER = "We could not read your message's character set; reply in plain text UTF-8."


def in_charset(raw: bytes, charset: str) -> bytes:
    assert b'charset="utf-8"' in raw
    return raw.replace(b'charset="utf-8"', f"charset={charset}".encode())


def test_a_reply_in_an_unknown_charset_gets_a_clear_answer_and_changes_nothing():
    """The reply is answered with a clear error, and nothing changes."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    m = latest_prompt_mail(alice.email)
    before = len(mails_to(alice.email))
    out = pipe(in_charset(reply_bytes(m, "1"), "x-unknown-foo")).strip()
    assert out == "refused unknown-charset answered"
    assert not Submission.objects.exists()
    (answer,) = mails_to(alice.email)[before:]
    assert ANSWER in answer.body
    # The answer carries the open decision, so a plain reply to it is recorded.
    assert pipe(reply_bytes(m, "1")).startswith("recorded")


def test_an_unknown_charset_on_one_part_falls_back_to_the_readable_part():
    """A readable HTML alternative is read rather than refused."""
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    m = latest_prompt_mail(alice.email)
    raw = reply_bytes(m, "1")
    head, _, _ = raw.partition(b"\n\n")
    boundary = b"==b0undary=="
    head = b"\n".join(line for line in head.split(b"\n")
                      if not line.lower().startswith((b"content-type", b"content-transfer-encoding", b"mime-version")))
    raw = (head + b"\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"" + boundary + b"\"\n\n"
           + b"--" + boundary + b"\nContent-Type: text/plain; charset=x-unknown-foo\n\n1\n"
           + b"--" + boundary + b"\nContent-Type: text/html; charset=utf-8\n\n<p>1</p>\n"
           + b"--" + boundary + b"--\n")
    assert pipe(raw).startswith("recorded")
    assert Submission.objects.count() == 1
