"""One solo Mage Knight game played by email only: a reply may carry several picks, one per line, each matched (by
number or label) against the prompt open at that moment; hidden information (hands, deck orders, face-down enemies
and ruins, tile deck) stays hidden in every email.

The player reads only their own mailbox and answers only by replying to the newest prompt email (through
``manage.py receive_email``), choosing what the greedy bot would; every third reply carries several picks of the
same turn, one per line. What a line must meet is worked out with the engine alone, on a copy of the state. Every
email is searched for what the player may not know: the rules place enemy tokens "face down", ruins tokens "face
down at night", tiles come from the shuffled "tile deck", and the Dummy's deck is shuffled ("Shuffle the Hero
Deck"): their ids, and canary cards planted in the player's own deed deck and in the Dummy's deck, must not show.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import replace

import pytest

from games.engines.mage_knight import cards as mk_cards
from games.engines.mage_knight.bots import GreedyBot
from games.engines.registry import get_engine
from games.models import Event, Game, GameStatus, Prompt, Submission, SubmissionSource
from tests.games.test_mage_knight_api import (DECK_CANARY, Canaries, canary_name, named_enemies, register_canaries,
                                              secret_ids)
from tests.mail.helpers import latest_prompt_mail, mails_to, pipe, reply_bytes, start_game
from tests.mail.test_play_by_email import replay_result

pytestmark = pytest.mark.django_db

SEED = 8
MAX_REPLIES = 600
MULTI_EVERY = 3  # every third reply carries several picks
MULTI_LINES = 4
OPTION_LINE = re.compile(r"^  (\d+)\. .*  \[(\S+)\]$", re.MULTILINE)
DUMMY_CANARY = ("zcanary_dummy", "Canary Dummy Deckhand Qx7f")


def plan(engine, state: dict, bot: GreedyBot, lines: int) -> tuple[list[tuple[int, str]], GreedyBot]:
    """The greedy bot's next ``lines`` picks of seat 0's current step, on a copy: [(number in its prompt, option
    id)], and the bot as it is after them. A prompt with a single option is the server's pick (DESIGN.md), not
    a line; the plan ends with the step, since the picks after it meet a situation not known yet."""
    s, b, picks = copy.deepcopy(state), copy.deepcopy(bot), []
    while len(picks) < lines and not engine.is_over(s) and not engine.is_step_complete(s):
        p = engine.prompt(s, 0)
        if len(p.options) == 1 and not p.ask_anyway:
            engine.apply(s, 0, p.options[0].id)
            continue
        option_id = b.choose(engine, s, 0, p)
        picks.append(([o.id for o in p.options].index(option_id) + 1, option_id))
        engine.apply(s, 0, option_id)
    return picks, b


def full_text(m) -> str:
    return m.subject + "\n" + m.body + "\n" + (m.alternatives[0][0] if m.alternatives else "")


def observe_events(game: Game, canaries: Canaries, after_id: int) -> int:
    """The player saw a canary when the Dummy flipped it face up or they drew it (the events say which cards):
    a later reshuffle does not make it secret again in their memory."""
    last = after_id
    for e in Event.objects.filter(game=game, id__gt=after_id).order_by("id"):
        last = e.pk
        if not e.visible_to(0):
            continue
        shown = (e.data or {}).get("flipped", []) + (e.data or {}).get("cards", [])
        for cid in canaries.seen_by:
            if cid in shown:
                canaries.seen_by[cid].add(0)
    return last


def assert_mail_hides(m, state: dict, canaries: Canaries, checked: dict[str, int]) -> None:
    """``m`` shows no hidden id and no canary the player has not seen; ``checked`` counts mails per canary."""
    text = full_text(m)
    ids = secret_ids(state)
    leaked = [i for i in ids if re.search(rf"\b{re.escape(i)}\b", text)]
    assert not leaked, (leaked, m.subject)
    assert not named_enemies(text, ids), (named_enemies(text, ids), m.subject)
    for cid in canaries.unseen_by(0):
        assert cid not in text and canary_name(cid) not in text, (cid, m.body)
        checked[cid] = checked.get(cid, 0) + 1


def test_a_whole_solo_mage_knight_game_by_email_only(monkeypatch):
    """Every pick of a solo game (the player and the Dummy Player) arrives by email, replying to the
    newest prompt email only, several picks a reply now and then, to the scoring; no email shows a face-down
    enemy, ruins token, the tile deck, the Dummy's deck or the player's own deck."""
    register_canaries(monkeypatch)
    monkeypatch.setitem(mk_cards.CARDS, DUMMY_CANARY[0],
                        replace(mk_cards.CARDS["march"], id=DUMMY_CANARY[0], name=DUMMY_CANARY[1]))

    engine = get_engine("mage_knight")
    game, (user,) = start_game(players=1, engine="mage_knight", seed=SEED)
    assert game.state["solo"] and game.state["dummy"] is not None
    canaries = Canaries()
    canaries.plant_in_deck(game.state, 0, DECK_CANARY[0])
    canaries.plant_in_dummy_deck(game.state, DUMMY_CANARY[0])
    game.save(update_fields=["state"])
    checked: dict[str, int] = {}
    for m in mails_to(user.email):
        assert_mail_hides(m, game.state, canaries, checked)

    bot = GreedyBot()
    replies = multi = picks_by_lines = 0
    last_event = 0
    while Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE:
        game.refresh_from_db()
        m = latest_prompt_mail(user.email)
        open_prompt = Prompt.objects.get(game=game, seat__position=0, closed_at__isnull=True)
        # The newest prompt email is the open prompt's: replying to it is all a player needs.
        assert m.extra_headers["X-Faltisia-Prompt"] == str(open_prompt.pk), (m.subject, open_prompt.text)
        lines = MULTI_LINES if replies % MULTI_EVERY == MULTI_EVERY - 1 else 1
        picks, bot_after = plan(engine, game.state, bot, lines)
        assert picks, "an open prompt the plan cannot answer"
        # The email lists the first pick's option under the number the engine's order gives it.
        listed = {option_id: int(number) for number, option_id in OPTION_LINE.findall(m.body)}
        assert listed.get(picks[0][1]) == picks[0][0], (picks[0], m.body)
        before = len(mails_to(user.email))
        out = pipe(reply_bytes(m, "\n".join(str(number) for number, _ in picks))).strip()
        if len(picks) == 1:
            assert out.startswith("recorded"), out
        else:
            assert out == f"recorded recorded:{len(picks)} answered", out
            multi += 1
            picks_by_lines += len(picks)
        bot = bot_after
        replies += 1
        assert replies < MAX_REPLIES, "the game did not end"
        game.refresh_from_db()
        last_event = observe_events(game, canaries, last_event)
        canaries.observe(game.state)
        new = mails_to(user.email)[before:]
        assert new, "a reply got no answer and no next prompt"
        for sent in new:
            assert_mail_hides(sent, game.state, canaries, checked)

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.state["over"]
    emailed = Submission.objects.filter(game=game).exclude(source=SubmissionSource.FORCED)
    assert set(emailed.values_list("source", flat=True)) == {SubmissionSource.EMAIL}
    assert emailed.count() == replies - multi + picks_by_lines
    assert multi >= 10 and picks_by_lines >= 2 * multi, (multi, picks_by_lines)
    # The canaries were really hidden for a while, then seen (the check could fail): the Dummy flipped its
    # canary face up, and the player drew theirs.
    assert all(0 in seen for seen in canaries.seen_by.values()), canaries.seen_by
    assert all(checked.get(cid, 0) >= 3 for cid in canaries.seen_by), checked
    assert len(game.result["scores"]) == 1 and game.result["ranks"] == [1]
    box = mails_to(user.email)
    assert sum("the game is over" in x.body for x in box) == 1
    assert "Dummy" in "\n".join(x.body for x in box)


def test_the_replayed_email_picks_give_the_same_result():
    """DESIGN.md: "the seed and the decision log reproduce a game exactly": a short solo game by email
    (several picks per reply) replays from its stored picks to the same result."""
    engine = get_engine("mage_knight")
    game, (user,) = start_game(players=1, engine="mage_knight", seed=SEED + 1)
    bot = GreedyBot()
    for n in range(MAX_REPLIES):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        picks, bot = plan(engine, game.state, bot, MULTI_LINES)
        out = pipe(reply_bytes(latest_prompt_mail(user.email), "\n".join(str(number) for number, _ in picks)))
        assert out.startswith("recorded"), out
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.result == replay_result(game)
    assert json.dumps(game.result)
