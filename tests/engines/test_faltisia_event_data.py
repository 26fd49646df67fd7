"""Every Faltisia event says where it happened: data = {"round", "term", "phase"}.

Contract (games/engines/faltisia/flow.py `_ev`; used by the web history to group by round without
reading event text): round 0 is setup, 1-3 the rounds; term 0 is registration/setup, 1-7 the terms;
phase is the step resolved (characters, setup, lecture, action), or registration, exams, over.
"""

from __future__ import annotations

import json

import pytest

from games.engines.bots import RandomBot
from games.engines.faltisia.engine import FaltisiaEngine

E = FaltisiaEngine()
PHASES = {"characters", "setup", "registration", "lecture", "action", "exams", "over"}


def _events(players: int, seed: int, options=None) -> list:
    state = E.new_game(players=players, options=options or {}, seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    out = []
    while not E.is_over(state):
        for seat in E.pending(state):
            p = E.prompt(state, seat)
            while p is not None:
                out += E.apply(state, seat, bots[seat].choose(E, state, seat, p))
                p = E.prompt(state, seat)
        if E.is_step_complete(state):
            out += E.resolve(state)
    return out


def without_wording(d: dict) -> dict:
    """The event's data less its wording: the sentence, the characters and the seat fields
    the sentence names."""
    from string import Formatter
    named = {k for _, k, _, _ in Formatter().parse(d.get("wording", "")) if k}
    return {k: v for k, v in d.items() if k not in named | {"wording", "characters"}}


@pytest.mark.parametrize("players, seed, options", [(2, 1, {}), (4, 2, {"choose_characters": True}), (6, 3, {})])
def test_every_event_carries_round_term_and_phase(players, seed, options):
    events = _events(players, seed, options)
    assert events
    last_round = 0
    for e in events:
        d = without_wording(dict(e.data))  # the seats' wording sits beside where it happened
        assert set(d) == {"round", "term", "phase"}, e.text
        assert d["phase"] in PHASES and 0 <= d["round"] <= 3 and 0 <= d["term"] <= 7, (e.text, d)
        assert d["round"] >= last_round, "rounds never go back"
        last_round = d["round"]
        assert without_wording(json.loads(json.dumps(e.as_dict()))["data"]) == d  # stored as the Event row's JSON
        if e.text.startswith("Round "):
            assert d == {"round": int(e.text.split()[1].rstrip(":")), "term": 0, "phase": "registration"}
        if e.text.startswith("Exams"):
            assert d["phase"] == "exams" and d["term"] == 7
        if "lecture attended" in e.text:
            assert d["phase"] == "lecture" and d["term"] >= 1
        if e.text.startswith("Starting attributes") or e.text.startswith("Characters:"):
            assert d["round"] == 0
    assert without_wording(dict(events[-1].data)) == {"round": 3, "term": 7, "phase": "over"}
    assert {dict(e.data)["round"] for e in events} == {0, 1, 2, 3}
