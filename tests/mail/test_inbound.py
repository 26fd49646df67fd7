"""Inbound replies: every reply is answered (to the registered address) or, for machines, ignored;
bad input changes nothing (COMMON.md: "Bad input gets a clear error and changes nothing")."""

from __future__ import annotations

from email.message import EmailMessage

import pytest
from django.core import mail
from django.test import TestCase

from accounts.models import Vacation
from games.mail.inbound import ERROR_ANSWERS_PER_HOUR
from games.mail.models import InboundMessage, Notification
from games.models import Game, Prompt, Seat, Submission
from tests.games.helpers import play_step
from tests.mail.helpers import latest_prompt_mail, mails_to, pipe, reply_bytes, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiny():
    game, users = start_game(players=2, options={"rounds": 1})
    return game, users


def snapshot(game: Game):
    game.refresh_from_db()
    return (game.phase, game.status, Submission.objects.count(), str(game.state),
            list(Seat.objects.values_list("standing_orders", flat=True)), Vacation.objects.count())


def answers(user) -> list:
    return [m for m in mails_to(user.email) if m.extra_headers.get("Auto-Submitted") == "auto-replied"]


def test_a_number_records_the_pick_and_the_confirmation_goes_to_the_registered_address(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    before = len(mail.outbox)
    assert pipe(reply_bytes(m, "2")).startswith("recorded")
    sub = Submission.objects.get()
    assert (sub.option_id, sub.source) == (Prompt.objects.get(pk=m.extra_headers["X-Faltisia-Prompt"]).options[1]["id"],
                                           "email")
    confirmation = answers(alice)[-1]
    assert confirmation.body.startswith("Recorded") and confirmation.to == [alice.email]
    # One mail per reply: the confirmation carries the next decision (the bet) itself.
    assert len(mail.outbox) == before + 1 and "YOUR DECISION: Bet" in confirmation.body


def test_an_option_id_an_html_only_reply_and_a_signature_are_understood(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    option_id = Prompt.objects.get(pk=m.extra_headers["X-Faltisia-Prompt"]).options[2]["id"]
    html = (f"<html><body><div dir='ltr'>{option_id}<br></div><div class='gmail_quote'>On Mon wrote:"
            "<blockquote>1</blockquote></div></body></html>")
    assert pipe(reply_bytes(m, "", html=html)).startswith("recorded")
    assert Submission.objects.get().option_id == option_id
    m2 = latest_prompt_mail(alice.email)
    assert pipe(reply_bytes(m2, "\n\n  high  \n-- \nAlice\n1")).startswith("recorded")
    assert Submission.objects.last().option_id == "high"


def test_a_reply_to_an_old_email_is_refused_as_stale_with_the_current_options(tiny):
    game, (alice, bob) = tiny
    first = latest_prompt_mail(alice.email)
    pipe(reply_bytes(first, "1"))
    before = snapshot(game)
    out = pipe(reply_bytes(first, "2"))  # the first prompt is closed now; "2" would be another card
    assert out.startswith("refused stale-prompt")
    assert snapshot(game) == before
    error = answers(alice)[-1]
    assert "already closed" in error.body and "YOUR DECISION: Bet on your card" in error.body
    # The same pick again is recognised as already recorded, not applied twice.
    assert pipe(reply_bytes(first, "1")).startswith("command already-recorded")
    assert snapshot(game) == before


def test_a_reply_to_an_old_prompt_email_after_the_step_moved_on_is_stale_with_the_current_options(tiny):
    """The old email's option numbers mean nothing now: refuse, change nothing, list what is open now."""
    game, (alice, bob) = tiny
    old = latest_prompt_mail(alice.email)  # step 0: play a card
    with TestCase.captureOnCommitCallbacks(execute=True):
        play_step(game)  # both seats pick (the first card, a bet) on the site; the step resolves
    game.refresh_from_db()
    current = Prompt.objects.get(seat__user=alice, closed_at__isnull=True)
    assert game.phase == current.phase == 1 and current.pk != int(old.extra_headers["X-Faltisia-Prompt"])
    before = snapshot(game)
    assert pipe(reply_bytes(old, "2")).startswith("refused stale-prompt")  # a card she did not play
    assert snapshot(game) == before
    error = answers(alice)[-1]
    assert "already closed" in error.body and "nothing was recorded" in error.body
    assert f"YOUR DECISION: {current.text}" in error.body and "YOUR DECISION: Play a card" not in error.body
    for number, option in enumerate(current.options, start=1):
        assert f"  {number}. {option['label']}  [{option['id']}]" in error.body
    assert error.extra_headers["Reply-To"].endswith(f".{current.pk}@localhost")  # a reply answers the open one


def test_not_an_option_and_empty_replies_change_nothing_and_say_why(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    before = snapshot(game)
    assert pipe(reply_bytes(m, "9")).startswith("refused not-an-option")
    assert pipe(reply_bytes(m, "teleport")).startswith("refused not-an-option")
    assert pipe(reply_bytes(m, "")).startswith("refused empty")
    assert snapshot(game) == before
    bodies = [a.body for a in answers(alice)]
    assert "is not one of the options" in bodies[0] and "1. Card" in bodies[0]
    assert "found no choice" in bodies[2]


def test_commands_status_help_orders_vacation(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    assert pipe(reply_bytes(m, "status")).startswith("command status")
    assert "hand:" in answers(alice)[-1].body and "YOUR DECISION" in answers(alice)[-1].body
    assert pipe(reply_bytes(m, "help")).startswith("command help")
    assert "vacation <days>" in answers(alice)[-1].body
    assert pipe(reply_bytes(m, "orders")).startswith("command orders")
    assert "bet-low" in answers(alice)[-1].body
    assert pipe(reply_bytes(m, "orders bet-low")).startswith("command orders-set")
    assert Seat.objects.get(game=game, user=alice).standing_orders == ["bet-low"]
    assert pipe(reply_bytes(m, "orders fly")).startswith("refused unknown_order")
    assert pipe(reply_bytes(m, "orders clear")).startswith("command orders-set")
    assert Seat.objects.get(game=game, user=alice).standing_orders == []
    assert pipe(reply_bytes(m, "vacation 3")).startswith("command vacation")
    assert Vacation.objects.filter(user=alice).count() == 1
    assert pipe(reply_bytes(m, "vacation 999")).startswith("refused bad-vacation")
    assert Vacation.objects.filter(user=alice).count() == 1


def test_a_forged_from_is_accepted_by_token_but_answered_only_to_the_registered_address(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    assert pipe(reply_bytes(m, "1", from_addr="mallory@evil.example")).startswith("recorded")
    assert not [x for x in mail.outbox if "mallory@evil.example" in x.to]
    assert "mallory@evil.example" in answers(alice)[-1].body  # the player is told


def test_an_unknown_token_changes_nothing_and_gets_a_rate_limited_answer(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    raw = reply_bytes(m, "1").replace(m.extra_headers["Reply-To"].split("+")[1][:24].encode(), b"a" * 24)
    before = snapshot(game)
    outs = [pipe(raw.replace(b"Message-ID: <", f"Message-ID: <{i}".encode())) for i in range(5)]
    assert snapshot(game) == before
    assert all(o.startswith("refused unknown-token") for o in outs)
    to_sender = [x for x in mail.outbox if x.to == [alice.email] and "Unknown reply address" in x.body]
    assert len(to_sender) == 3  # then silence: a forged sender must not turn us into a spam cannon
    assert "Game #" not in to_sender[0].body


def test_a_message_delivered_twice_is_handled_once(tiny):
    game, (alice, bob) = tiny
    raw = reply_bytes(latest_prompt_mail(alice.email), "1")
    assert pipe(raw).startswith("recorded")
    n = len(mail.outbox)
    assert pipe(raw).startswith("ignored duplicate")
    assert len(mail.outbox) == n and Submission.objects.count() == 1


@pytest.mark.parametrize("headers, subject", [
    ({"Auto-Submitted": "auto-replied"}, None),
    ({"Precedence": "bulk"}, None),
    ({"Precedence": "junk"}, None),
    ({"X-Autoreply": "yes"}, None),
    ({"Return-Path": "<>"}, None),
    ({}, "Out of Office: back Monday"),
    ({}, "Automatic reply: [Game #1]"),
])
def test_auto_replies_and_bounces_change_nothing_and_are_never_answered(tiny, headers, subject):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    raw = reply_bytes(m, "1", extra_headers=headers)
    if subject:
        raw = raw.replace(f"Subject: Re: {m.subject}".encode(), f"Subject: {subject}".encode())
    before, n = snapshot(game), len(mail.outbox)
    assert pipe(raw).startswith("ignored auto:")
    assert snapshot(game) == before and len(mail.outbox) == n


def test_mailer_daemon_and_multipart_report_bounces_are_ignored(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    bounce = EmailMessage()
    bounce["From"] = "MAILER-DAEMON@mx.example"
    bounce["To"] = m.extra_headers["Reply-To"]
    bounce["Subject"] = "Undelivered Mail Returned to Sender"
    bounce.set_content("1")
    report = (f"From: {alice.email}\r\nTo: {m.extra_headers['Reply-To']}\r\nSubject: Re: hello\r\n"
              "Message-ID: <r1@mx.example>\r\nMIME-Version: 1.0\r\n"
              "Content-Type: multipart/report; report-type=delivery-status; boundary=XX\r\n\r\n"
              "--XX\r\nContent-Type: text/plain\r\n\r\n1\r\n--XX\r\n"
              "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n--XX--\r\n").encode()
    n = len(mail.outbox)
    assert pipe(bounce.as_bytes()).startswith("ignored auto:")
    assert pipe(report).startswith("ignored auto:")
    assert len(mail.outbox) == n and Submission.objects.count() == 0


def test_an_oversized_message_changes_nothing_and_says_why(tiny, settings):
    game, (alice, bob) = tiny
    settings.MAIL_INBOUND_MAX_BYTES = 20_000
    raw = reply_bytes(latest_prompt_mail(alice.email), "1" + "\n" + "x" * 30_000)
    before = snapshot(game)
    assert pipe(raw).startswith("refused oversized")
    assert snapshot(game) == before
    assert "too large" in answers(alice)[-1].body.lower()


def test_error_answers_are_rate_limited_per_seat_so_a_robot_cannot_loop(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    for i in range(ERROR_ANSWERS_PER_HOUR + 5):
        pipe(reply_bytes(m, f"nonsense {i}"))
    assert len([a for a in answers(alice) if "not one of the options" in a.body]) == ERROR_ANSWERS_PER_HOUR
    assert InboundMessage.objects.filter(reason="not-an-option:rate-limited").count() == 5


def test_game_over_replies_say_so(tiny):
    game, (alice, bob) = tiny
    old = latest_prompt_mail(alice.email)
    with __import__("django").test.TestCase.captureOnCommitCallbacks(execute=True):
        while Game.objects.get(pk=game.pk).status == "active":
            play_step(game)
    before = snapshot(game)
    assert pipe(reply_bytes(old, "1")).startswith("refused game-over")
    assert snapshot(game) == before
    assert "This game is over" in answers(alice)[-1].body
    finished = [x for x in mails_to(alice.email) if "the game is over" in x.body]
    assert len(finished) == 1 and "Final scores" in finished[0].body


def test_the_prompt_can_be_found_from_in_reply_to_when_the_address_lost_its_ref(tiny):
    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    bare = m.extra_headers["Reply-To"].replace(f".{m.extra_headers['X-Faltisia-Prompt']}@", "@")
    raw = reply_bytes(m, "1").replace(m.extra_headers["Reply-To"].encode(), bare.encode())
    assert pipe(raw).startswith("recorded")
    # Without either, a pick is refused: we will not guess which decision it was for.
    m2 = latest_prompt_mail(alice.email)
    raw2 = reply_bytes(m2, "1").replace(m2.extra_headers["Reply-To"].encode(), bare.encode())
    raw2 = b"\n".join(line for line in raw2.split(b"\n")
                      if not line.startswith((b"In-Reply-To", b"References")))
    assert pipe(raw2).startswith("refused no-prompt")


def test_nul_characters_in_a_reply_are_dropped_so_it_is_answered_and_stored_on_postgresql(tiny):
    """Found by the hostile-message property test on PostgreSQL (text columns refuse NUL): a reply
    carrying NUL in its first line, subject and threading headers is answered, not a crash (which an
    MTA pipe would turn into endless retries)."""
    from games.mail.parser import parse_message

    game, (alice, bob) = tiny
    m = latest_prompt_mail(alice.email)
    raw = reply_bytes(m, "\x00\x01\x02").replace(b"Subject: Re: ", b"Subject: Re: \x00")
    raw = raw.replace(b"In-Reply-To: <", b"In-Reply-To: <\x00")
    parsed = parse_message(raw)
    assert "\x00" not in (parsed.first_line or "") + parsed.subject + "".join(parsed.references)
    before = snapshot(game)
    assert pipe(raw).startswith("refused not-an-option")
    assert snapshot(game) == before
    assert "is not one of the options" in answers(alice)[-1].body


def test_an_undeliverable_from_address_is_not_answered(tiny):
    """Found by the hostile-message property test: an answer to a From that is no address (here with no
    reply token, so the From is all we have) could never be sent and would only fail and be retried."""
    game, (alice, bob) = tiny
    raw = ("From: \x9a/\xaa\xf8|\U0005730e\x94\xb3\xe2C\r\nTo: play@localhost\r\nSubject: hello\r\n"
           "Message-ID: <garbage-from@client.example>\r\n\r\norders").encode("utf-8")
    rows, n = Notification.objects.count(), len(mail.outbox)
    assert pipe(raw).startswith("refused no-token")
    assert InboundMessage.objects.get().answered is False
    assert Notification.objects.count() == rows and len(mail.outbox) == n


@pytest.mark.parametrize("line", ["١", "۲", "１", "pick ١", "٢.", "#١", "vacation ٥"])
def test_only_ascii_digits_are_option_numbers(tiny, line):
    """A reply line "١" (Arabic-Indic one) must not pick option 1, though Python's \\d and int() read every
    Unicode decimal digit. Only ASCII digits are numbers: these lines pick nothing, set no vacation, and
    the answer says the line is not one of the options."""
    game, (alice, _) = tiny
    m = latest_prompt_mail(alice.email)
    before = snapshot(game)
    out = pipe(reply_bytes(m, line)).strip()
    assert not out.startswith("recorded") and "vacation" not in out.split()[1:2], out
    assert snapshot(game) == before


def test_ascii_digits_still_pick_and_later_lines_too(tiny):
    from games.mail.commands import command_parse, option_for, option_for_line
    options = [{"id": "a", "label": "Alpha"}, {"id": "b", "label": "Beta"}]
    assert option_for(command_parse("2"), options)["id"] == "b"
    assert option_for(command_parse("\u00a02."), options)["id"] == "b"
    assert option_for_line("2.\u00a0Beta", options)["id"] == "b"  # a no-break space from an HTML client
    for line in ("٢", "２", "2\u0662"):
        assert option_for(command_parse(line), options) is None and option_for_line(line, options) is None
