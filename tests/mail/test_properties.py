"""Hostile and random messages (hypothesis): the parser never crashes; the inbound service never
changes game state for anything but a valid pick, answers with a clear error, and stays silent for
machines: garbled, oversized, malicious or auto-replied mail changes nothing and does not loop."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import TestCase
from hypothesis import HealthCheck, given, settings, strategies as st

from games.mail.inbound import inbound_message_process
from games.mail.models import InboundMessage
from games.mail.parser import GarbledMessage, first_meaningful_line, html_to_text, parse_message
from games.models import Game, Seat, Submission
from tests.mail.helpers import latest_prompt_mail, start_game

HEADER_NAMES = ["From", "To", "Subject", "Message-ID", "In-Reply-To", "References", "Content-Type",
                "Content-Transfer-Encoding", "Auto-Submitted", "Precedence", "Return-Path", "X-Autoreply",
                "MIME-Version", "Delivered-To", "Cc"]


@given(st.binary(max_size=3000))
@settings(max_examples=300, deadline=None)
def test_the_parser_never_crashes_on_random_bytes(raw):
    try:
        parsed = parse_message(raw)
    except GarbledMessage:
        return
    assert parsed.first_line is None or len(parsed.first_line) <= 200


@given(st.text(max_size=3000))
@settings(max_examples=300, deadline=None)
def test_text_and_html_helpers_never_crash(text):
    line = first_meaningful_line(text)
    assert line is None or (line.strip() and not line.startswith(">"))
    html_to_text(text)


def hostile_message(reply_to: str):
    """Messages built from real header names with random, often malicious, values and bodies."""
    header = st.tuples(st.sampled_from(HEADER_NAMES),
                       st.one_of(st.text(max_size=80), st.just(reply_to), st.just("<>"),
                                 st.just("multipart/mixed; boundary=\"x\""), st.just("base64"),
                                 st.just("=?utf-8?b?////?="), st.just("auto-replied")))
    body = st.one_of(st.text(max_size=500), st.sampled_from(
        ["1", "status", "help", "orders", "orders x y z", "vacation -1", "vacation 99999999999999999999",
         "<script>alert(1)</script>", "\x00\x01\x02", "-- \n1", "> 1\n", "9" * 500, "=?utf-8?q?=00?=",
         "--x\r\nContent-Type: text/html\r\n\r\n<b>1</b>\r\n--x--"]))
    return st.builds(lambda hs, b, to_first: (
        (f"To: {reply_to}\r\n" if to_first else "") + "".join(f"{k}: {v}\r\n" for k, v in hs) + "\r\n" + b
    ).encode("utf-8", "surrogateescape"), st.lists(header, max_size=10), body, st.booleans())


@pytest.mark.django_db
def test_hostile_messages_change_nothing_and_get_an_answer_or_silence():
    game, (alice, bob) = start_game(players=2, options={"rounds": 1})
    m = latest_prompt_mail(alice.email)
    reply_to = m.extra_headers["Reply-To"]
    prompt_options = {"c" + x for x in "0123456789"} | {"low", "high"}

    def state():
        g = Game.objects.get(pk=game.pk)
        return (g.phase, str(g.state), list(Seat.objects.order_by("id").values_list("standing_orders", flat=True)))

    @given(hostile_message(reply_to))
    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    def check(raw):
        before, subs, sent = state(), Submission.objects.count(), len(mail.outbox)
        with TestCase.captureOnCommitCallbacks(execute=True):
            result = inbound_message_process(raw=raw)
        after_subs = Submission.objects.count()
        if result.outcome == "recorded":
            # Only a real pick may change the game: one submission, of an offered option.
            assert after_subs == subs + 1 and Submission.objects.last().option_id in prompt_options
            return
        assert state() == before and after_subs == subs
        if result.outcome == "ignored":
            assert len(mail.outbox) == sent  # silence for machines, duplicates and garbage
        elif result.answered:
            assert mail.outbox[-1].to == [alice.email] or "Unknown reply address" in mail.outbox[-1].body
            assert mail.outbox[-1].extra_headers["Auto-Submitted"] == "auto-replied"

    check()
    assert InboundMessage.objects.count() > 0


@given(hostile_message("play+" + "a" * 24 + ".7@localhost"))
@settings(max_examples=500, deadline=None)
def test_the_parser_never_crashes_on_hostile_headers(raw):
    try:
        parsed = parse_message(raw, max_bytes=2000)
    except GarbledMessage:
        return
    assert len(parsed.message_key) == 64
    assert parsed.auto_reason is None or parsed.first_line is None  # machines are never interpreted
