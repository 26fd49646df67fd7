"""Several picks in one reply, for long turns by email: a reply may carry several picks, one per line, each
matched (by number or label) against the prompt open at that moment; processing stops at the first line that
no longer matches and the answer lists what was applied and what is asked now.

Miskatonic's turn is several picks by one seat ("3. Pay your Tuition ... 4. Pre-Class! ... 5. Class! ...
6. Class Dismissed. ... The next player takes a turn."): the natural long reply. A Solo Mode Faltisia game
gives the same seat the next step's prompt after each resolution. What a line should meet is worked out
with the engine alone (``turn_plan``), independently of the server code under test.
"""

from __future__ import annotations

import copy
import re

import pytest

from games.engines.registry import get_engine
from games.mail.models import InboundMessage, Notification, NotificationKind
from games.mail.commands import command_parse, option_for, option_for_line
from games.mail.parser import MAX_PICK_LINES, meaningful_lines, parse_message
from games.models import Game, Prompt, Seat, Submission, SubmissionSource
from tests.mail import helpers
from tests.mail.helpers import latest_prompt_mail, mails_to, reply_bytes, reply_round, start_game

pytestmark = pytest.mark.django_db


def turn_plan(engine, state, seat: int, *, choose=lambda prompt: 1) -> list[dict]:
    """The picks ``seat`` makes from ``state`` until its turn passes (choosing ``choose(prompt)``), by the
    engine alone: each {text, options, number, option}; a single-option prompt is the server's (skipped)."""
    s = copy.deepcopy(state)
    picks = []
    while not engine.is_over(s) and len(picks) < 80:
        if engine.is_step_complete(s):
            engine.resolve(s)
            continue
        if engine.pending(s) != [seat]:
            break
        p = engine.prompt(s, seat)
        if len(p.options) == 1 and not p.ask_anyway:
            engine.apply(s, seat, p.options[0].id)
            continue
        number = choose(p)
        option = p.options[number - 1]
        picks.append({"text": p.text, "options": [o.as_dict() for o in p.options], "number": number,
                      "option": option.as_dict()})
        engine.apply(s, seat, option.id)
    return picks


def pipe(raw: bytes, *, commit: bool = True) -> str:
    """``manage.py receive_email``'s one-line report (outcome, reason, "answered")."""
    return helpers.pipe(raw, commit=commit).strip()


def answers(user) -> list:
    return [m for m in mails_to(user.email) if m.extra_headers.get("Auto-Submitted") == "auto-replied"]


def email_picks(game: Game) -> list[Submission]:
    return list(Submission.objects.filter(game=game, source=SubmissionSource.EMAIL).order_by("id"))


def open_prompt(game: Game, position: int) -> Prompt | None:
    return Prompt.objects.filter(game=game, seat__position=position, closed_at__isnull=True).first()


def snapshot(game: Game):
    game.refresh_from_db()
    return (game.phase, game.status, Submission.objects.filter(game=game).count(), str(game.state),
            list(Prompt.objects.filter(game=game, closed_at__isnull=True).values_list("pk", flat=True)))


def long_turn(min_picks: int = 3):
    """A 3-player Miskatonic game played by email (option 1) until the seat to play has a turn of at least
    ``min_picks`` picks; (game, users, seat, plan, the prompt email of its open prompt)."""
    game, users = start_game(players=3, engine="miskatonic", seed=21)
    engine = get_engine("miskatonic")
    answered: set[str] = set()
    for _ in range(80):
        game.refresh_from_db()
        seat = game.state["dec"]["seat"]
        plan = turn_plan(engine, game.state, seat)
        m = latest_prompt_mail(users[seat].email)
        if len(plan) >= min_picks and m is not None \
                and int(m.extra_headers["X-Faltisia-Prompt"]) == open_prompt(game, seat).pk:
            assert open_prompt(game, seat).text == plan[0]["text"]
            return game, users, seat, plan, m
        reply_round(users, answered)
    raise AssertionError("no long turn")


def test_several_picks_of_one_turn_are_applied_in_order_and_the_answer_shows_the_prompt_open_now():
    """The seat's picks of its turn but the last, one per line: all applied, each at the prompt open after
    the lines before it; the answer lists them and asks the last one, and its reply address answers it."""
    game, users, seat, plan, m = long_turn(3)
    user = users[seat]
    before = len(email_picks(game))
    prompt_mails = sum("X-Faltisia-Prompt" in x.extra_headers for x in mails_to(user.email))
    out = pipe(reply_bytes(m, "\n".join(str(p["number"]) for p in plan[:-1])))
    assert out == f"recorded recorded:{len(plan) - 1} answered"
    new = email_picks(game)[before:]
    assert [s.option_id for s in new] == [p["option"]["id"] for p in plan[:-1]]
    now = open_prompt(game, seat)
    assert now.text == plan[-1]["text"]
    answer = answers(user)[-1]
    assert answer.body.startswith("Recorded")
    assert ("Applied: " + "; ".join(f"{i}. {p['option']['label']}" for i, p in enumerate(plan[:-1], start=1)) + "."
            in answer.body)
    assert "Stopped at line" not in answer.body and "Nothing to decide now" not in answer.body
    assert f"YOUR DECISION: {now.text}" in answer.body
    for number, option in enumerate(now.options, start=1):
        assert f"  {number}. {option['label']}  [{option['id']}]" in answer.body
    assert answer.extra_headers["Reply-To"].endswith(f".{now.pk}@localhost")
    # The prompts the reply went through were closed at once: only the one open at the end is emailed.
    prompt_mails_now = [x for x in mails_to(user.email) if "X-Faltisia-Prompt" in x.extra_headers]
    assert len(prompt_mails_now) == prompt_mails + 1
    assert prompt_mails_now[-1].extra_headers["X-Faltisia-Prompt"] == str(now.pk)


def test_the_first_line_that_does_not_match_stops_and_nothing_after_it_is_applied():
    """"processing stops at the first line that no longer matches": the third line would match the prompt
    open now, but it was written after a line we could not apply, so it is not applied."""
    game, users, seat, plan, m = long_turn(3)
    before = len(email_picks(game))
    out = pipe(reply_bytes(m, f"{plan[0]['number']}\nteleport\n{plan[1]['number']}\n{plan[2]['number']}"))
    assert out == "recorded recorded:1:stopped-at-2 answered"
    assert [s.option_id for s in email_picks(game)[before:]] == [plan[0]["option"]["id"]]
    now = open_prompt(game, seat)
    assert now.text == plan[1]["text"]
    body = answers(users[seat])[-1].body
    assert f"Applied: 1. {plan[0]['option']['label']}." in body
    assert "Stopped at line 2: 'teleport' (not an option now); nothing after it was applied." in body
    assert f"YOUR DECISION: {now.text}" in body


def test_a_line_matches_by_label_by_number_and_by_option_id():
    """"each matched (by number or label)" (and by id, as a single pick is): a label in any case, then a
    number, then an option id, each against the prompt open at that moment."""
    game, users, seat, plan, m = long_turn(3)
    before = len(email_picks(game))
    lines = [plan[0]["option"]["label"].upper(), str(plan[1]["number"]), plan[2]["option"]["id"]]
    assert pipe(reply_bytes(m, "\n".join(lines))).startswith("recorded recorded:3")
    assert [s.option_id for s in email_picks(game)[before:before + 3]] == [p["option"]["id"] for p in plan[:3]]


def test_a_duplicate_delivery_applies_nothing_twice_and_a_resent_reply_stops_at_its_first_line():
    """The same message delivered twice (an MTA retry) is handled once; the same text sent again as a new
    message repeats its first choice (already recorded: "nothing changed") and applies none of its lines."""
    game, users, seat, plan, m = long_turn(3)
    raw = reply_bytes(m, f"{plan[0]['number']}\n{plan[1]['number']}")
    inbound = InboundMessage.objects.count()
    assert pipe(raw).startswith("recorded recorded:2")
    after = snapshot(game)
    n_answers = len(answers(users[seat]))
    assert pipe(raw) == "ignored duplicate"
    assert snapshot(game) == after and len(answers(users[seat])) == n_answers
    assert pipe(reply_bytes(m, f"{plan[0]['number']}\n{plan[1]['number']}")).startswith("command already-recorded")
    assert snapshot(game) == after
    body = answers(users[seat])[-1].body
    assert "nothing changed" in body
    assert f"Stopped at line 2: '{plan[1]['number']}' (your message repeats a choice already recorded)" in body
    assert InboundMessage.objects.count() == inbound + 2  # the first delivery and the resent text


def test_the_turn_passing_to_another_seat_stops_the_reply_and_the_answer_tells_nothing_of_that_seat():
    """The whole turn, then one more line: "6. Class Dismissed. ... The next player takes a turn." The step
    is resolved within the reply (the next seat is asked now), the extra line is not applied, and the answer
    says there is nothing to decide without quoting the next seat's prompt or options."""
    game, users, seat, plan, m = long_turn(3)
    phase = Game.objects.get(pk=game.pk).phase
    before = len(email_picks(game))
    lines = [str(p["number"]) for p in plan] + ["1"]
    assert pipe(reply_bytes(m, "\n".join(lines)), commit=False) \
        == f"recorded recorded:{len(plan)}:stopped-at-{len(plan) + 1} answered"  # no on-commit task has run
    game.refresh_from_db()
    assert game.phase > phase and open_prompt(game, seat) is None  # resolved in the reply's own write
    assert len(email_picks(game)) - before == len(plan)
    others = [p for p in Prompt.objects.filter(game=game, closed_at__isnull=True)]
    assert others and all(p.seat.position != seat for p in others)

    game2, users2, seat2, plan2, m2 = long_turn(3)  # the same reply, committed: the answer goes out
    pipe(reply_bytes(m2, "\n".join([str(p["number"]) for p in plan2] + ["1"])))
    body = answers(users2[seat2])[-1].body
    html = answers(users2[seat2])[-1].alternatives[0][0]
    assert f"Stopped at line {len(plan2) + 1}: '1' (you have nothing to decide now)" in body
    assert "Nothing to decide now" in body and "YOUR DECISION" not in body
    other = Prompt.objects.get(game=game2, closed_at__isnull=True)
    assert other.seat.position != seat2
    for text in (body, html):
        assert other.text not in text
        assert not any(f"[{o['id']}]" in text or o["id"] in re.findall(r"<code>(.*?)</code>", text)
                       for o in other.options)
    assert re.search(r"\+[^.@]+@localhost", answers(users2[seat2])[-1].extra_headers["Reply-To"])  # no prompt
    other_user = Seat.objects.get(pk=other.seat_id).user
    assert latest_prompt_mail(other_user.email).extra_headers["X-Faltisia-Prompt"] == str(other.pk)


def solo_game():
    game, (user,) = start_game(players=1, engine="faltisia", seed=21, options={"solo": {"difficulty": "easy"}})
    return game, user


def test_a_step_resolved_within_a_reply_opens_the_same_seats_next_prompt_and_the_next_line_meets_it():
    """Solo Mode: after the seat's last pick of a step the step resolves and the seat is asked again; the
    reply's next line is a pick at that new prompt (its picks span several steps)."""
    game, user = solo_game()
    phase = game.phase
    out = pipe(reply_bytes(latest_prompt_mail(user.email), "\n".join(["1"] * 12)))
    assert out == "recorded recorded:12 answered"
    picks = email_picks(game)
    assert len(picks) == 12 and len({s.phase for s in picks}) >= 2 and picks[0].phase == phase
    now = open_prompt(game, 0)
    answer = answers(user)[-1]
    assert f"YOUR DECISION: {now.text}" in answer.body
    assert answer.extra_headers["Reply-To"].endswith(f".{now.pk}@localhost")


def test_a_reply_longer_than_the_cap_is_read_up_to_its_limit_and_says_so():
    """At most MAX_PICK_LINES (50) lines are read: a longer reply applies its first 50 and says the rest
    was not applied."""
    game, user = solo_game()
    assert MAX_PICK_LINES == 50
    out = pipe(reply_bytes(latest_prompt_mail(user.email), "\n".join(["1"] * (MAX_PICK_LINES + 10))))
    assert out == f"recorded recorded:{MAX_PICK_LINES}:capped answered"
    assert len(email_picks(game)) == MAX_PICK_LINES
    body = answers(user)[-1].body
    assert f"Only the first {MAX_PICK_LINES} lines of your message were read" in body
    assert body.count(". ", body.index("Applied:"), body.index("Only the first")) >= MAX_PICK_LINES


GARBLED = ["%%%###", "9999", "1.2.3", "<script>alert('x')</script>", "\u202e1", "x" * 300, "status",
           "=?utf-8?q?1?=", "1,2", "-1", "0", "1 more thing: good luck!"]


def test_garbled_lines_stop_the_reply_and_nothing_after_them_is_applied():
    """A line that is no option now (garbage, an out-of-range number, a command after the first line) stops
    the reply there; the line after it, "1", which would match, is not applied; the answer quotes the line
    safely (shortened, escaped in HTML)."""
    game, user = solo_game()
    quoted = {}
    for garbled in GARBLED:
        m = latest_prompt_mail(user.email)
        before = len(email_picks(game))
        out = pipe(reply_bytes(m, f"1\n{garbled}\n1"))
        assert out == "recorded recorded:1:stopped-at-2 answered", garbled
        assert len(email_picks(game)) == before + 1, garbled
        answer = answers(user)[-1]
        assert "Stopped at line 2: '" in answer.body and "(not an option now)" in answer.body
        assert "<script>" not in answer.alternatives[0][0]
        quoted[garbled] = re.search(r"Stopped at line 2: '(.*)' \(not an option now\)", answer.body).group(1)
    assert quoted["x" * 300] == "x" * 80 + "..." and quoted["9999"] == "9999" and quoted["status"] == "status"


def test_a_single_pick_reply_is_answered_with_the_next_decision_in_one_mail():
    """One mail per reply: one line, and the answer carries the next decision itself (its options,
    the reply address); no separate prompt mail follows. A pick that ends the step has it resolved in the
    reply, as several picks do, so the answer shows what is asked now."""
    game, users, seat, plan, m = long_turn(3)
    before = len(mails_to(users[seat].email))
    assert pipe(reply_bytes(m, str(plan[0]["number"]))) == "recorded recorded answered"
    mine = mails_to(users[seat].email)[before:]
    assert len(mine) == 1  # the answer, and nothing else
    answer = mine[0]
    assert answer.body.startswith("Recorded") and "YOUR DECISION" in answer.body and "Applied:" not in answer.body
    assert answer.subject.endswith(": recorded, your next decision")
    now_open = Prompt.objects.get(seat__game=game, seat__position=seat, closed_at__isnull=True)
    assert answer.extra_headers["Reply-To"].endswith(f".{now_open.pk}@localhost")
    assert Notification.objects.filter(prompt=now_open, kind=NotificationKind.PROMPT).count() == 0
    game, users = start_game(players=3, engine="miskatonic", seed=21)  # its first turn is one pick
    seat = game.state["dec"]["seat"]
    assert len(turn_plan(get_engine("miskatonic"), game.state, seat)) == 1
    phase = game.phase
    assert pipe(reply_bytes(latest_prompt_mail(users[seat].email), "1"), commit=False) == "recorded recorded answered"
    game.refresh_from_db()
    assert game.phase > phase  # resolved within the reply


def test_the_parser_reads_the_players_own_lines_only():
    text = "1\n\n  2 \n> 3\n| 4\nTake a Transfer Student\n-- \nAlice\n5"
    assert meaningful_lines(text) == ["1", "2", "Take a Transfer Student"]
    assert meaningful_lines("1\nOn Mon, 1 Jan 2024, Faltisia wrote:\n2") == ["1"]
    raw = ("From: a@example.com\nTo: play+x@localhost\nSubject: Re\nMessage-ID: <m@x>\n\n"
           + "\n".join(str(i) for i in range(MAX_PICK_LINES + 5))).encode()
    parsed = parse_message(raw)
    assert len(parsed.lines) == MAX_PICK_LINES and parsed.more_lines and parsed.first_line == "0"
    parsed = parse_message(raw.replace(b"\n\n0\n", b"\n\n0\n-- \n"))
    assert parsed.lines == ("0",) and not parsed.more_lines


MISKATONIC_LIKE = [{"id": "friendship", "label": "1 Friendship Point(s)"},
                   {"id": "nightmare", "label": "1 Nightmare Point(s)"},
                   {"id": "buy-C3EO1", "label": "Buy Eliza Orne (3 Friendship)"}]


@pytest.mark.parametrize("line, wanted", [
    ("2", "nightmare"), ("2.", "nightmare"), ("#2", "nightmare"), ("(2)", "nightmare"), ("option 2", "nightmare"),
    ("nightmare", "nightmare"), ("1 Nightmare Point(s)", "nightmare"), ("1 NIGHTMARE POINT(S)", "nightmare"),
    ("Buy Eliza Orne (3 Friendship)", "buy-C3EO1"), ("3. Buy Eliza Orne (3 Friendship)  [buy-C3EO1]", "buy-C3EO1"),
    ("3 [buy-C3EO1]", "buy-C3EO1"),
    ("1 more thing", None), ("2 because", None), ("3. Buy Mercy Dexter", None), ("4", None), ("0", None),
    ("status", None), ("1,2", None), ("", None),
])
def test_a_later_line_must_name_an_option_as_a_whole(line, wanted):
    """A later line counts as a whole: prose that begins with a number names nothing (it stops the reply),
    while the option line copied from the email ("2. <label>  [<id>]") names its option."""
    option = option_for_line(line, MISKATONIC_LIKE)
    assert (option["id"] if option else None) == wanted


def test_a_label_that_begins_with_a_number_names_its_own_option_on_the_first_line_too():
    """"1 Nightmare Point(s)" is option 2's label: it names option 2, not option 1; "2 because ..." on the
    first line is still option 2 with a comment, as before."""
    assert option_for(command_parse("1 Nightmare Point(s)"), MISKATONIC_LIKE)["id"] == "nightmare"
    assert option_for(command_parse("2 because I like it"), MISKATONIC_LIKE)["id"] == "nightmare"


def test_help_and_the_prompt_email_explain_several_choices_in_one_reply():
    """The format is documented where the player reads: the `help` answer and every prompt email."""
    game, user = solo_game()
    m = latest_prompt_mail(user.email)
    assert "several picks: one per line, in order" in m.body
    assert pipe(reply_bytes(m, "help")).startswith("command help")
    body = answers(user)[-1].body
    assert "Several choices in one reply: put one per line" in body
    assert f"At most {MAX_PICK_LINES}" in body and "stops: nothing after it is applied" in body
