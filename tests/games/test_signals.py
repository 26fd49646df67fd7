"""The notification layers' hooks fire after commit, and only for what really happened."""

from contextlib import contextmanager

from games.models import GameStatus
from games.signals import game_finished, phase_resolved, prompts_opened
from tests.factories import make_started_game
from tests.games.helpers import play_step


@contextmanager
def recording(*signals):
    seen = []

    def receiver(signal, **kwargs):
        seen.append((signal, kwargs))

    for s in signals:
        s.connect(receiver, weak=False)
    try:
        yield seen
    finally:
        for s in signals:
            s.disconnect(receiver)


def test_prompts_opened_and_phase_resolved_are_sent_after_commit(db):
    game, _ = make_started_game(players=2)
    with recording(prompts_opened, phase_resolved) as seen:
        play_step(game)
    resolved = [kw for s, kw in seen if s is phase_resolved]
    assert len(resolved) == 1 and resolved[0]["phase"] == 0 and len(resolved[0]["events"]) == 2
    opened = [o.prompt for s, kw in seen if s is prompts_opened for o in kw["opened"]]
    # Each seat's bet prompt, then the first seat's turn of the sequential step.
    assert [p.prompt_id.split("-", 1)[1] for p in opened] == ["0-bet", "1-bet", "0-take"]


def test_game_finished_is_sent_once_with_the_result(db):
    game, _ = make_started_game(players=2, options={"rounds": 1})
    with recording(game_finished) as seen:
        for _ in range(3):
            play_step(game)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert len(seen) == 1 and seen[0][1]["game"].result["ranks"]


def test_prompts_opened_says_when_it_is_the_next_pick_of_a_decision_being_made(db):
    """A follow-up prompt (the bet after the card, same seat, same step) names the pick's source; a prompt
    opened by a resolution or by another seat's pick does not."""
    game, _ = make_started_game(players=2)
    with recording(prompts_opened) as seen:
        play_step(game)
    by_prompt = {o.prompt.prompt_id.split("-", 1)[1]: o.follow_up_of for s, kw in seen for o in kw["opened"]}
    assert by_prompt == {"0-bet": "api", "1-bet": "api", "0-take": None}


def test_the_prompts_one_write_opens_share_its_time(db):
    """A resolution opens every seat's prompt in one write, all with the write's time as ``opened_at``;
    the mail layer finds a write's prompts by it (one email task per write, games/mail/receivers.py)."""
    game, _ = make_started_game(players=4, options={"rounds": 2})
    with recording(prompts_opened) as seen:
        play_step(game)  # the draft (card, bet per seat), resolved: seat 0's take opens
        play_step(game)  # the takes one at a time, resolved: every seat's card opens
    cards = [o.prompt for o in seen[-1][1]["opened"]]  # one signal for the resolution's four prompts
    assert [p.prompt_id.split("-", 1)[1] for p in cards] == [f"{s}-card" for s in range(4)]
    assert len({p.opened_at for p in cards}) == 1
    takes = [o.prompt for s, kw in seen for o in kw["opened"] if o.prompt.prompt_id.endswith("take")]
    assert len({p.opened_at for p in takes}) == len(takes) == 4  # four writes, four times
