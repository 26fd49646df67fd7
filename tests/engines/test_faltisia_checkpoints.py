"""Faltisia's take-back checkpoints (games/engines/faltisia/takebacks.py): no pick that shows the picking seat
something new can be taken back.

The server lets a seat take back its own picks of the current step back to its last checkpoint; a pick is a
checkpoint when it changes ``engine.checkpoint_key(state, seat)`` (compared after the pick and the automatic
picks it sets off) or when it ends the step (the step's end clears every seat's take-backs,
games/services/undo_points.py). Faltisia's key leaves the seat's own part of the state out, so a pick that
brought something new into that part, and only there, could be taken back and made again until it shows
something the seat likes ("fishing").

What the seat knows at a pick is everything it is shown: its view (``engine.view(state, seat)``) and its prompt
(text and options). After the pick and the server's follow-ups (forced picks of newly opened single-option
prompts), the seat has learnt something new when either

(1) an identity appears that it was not shown before: any card id (action, Item, requirement, character, Maid
    Ability) or Battle for London checkpoint token id named anywhere in its view or prompt after the pick (card
    dicts, the decision and plan, option ids such as ``draft:<card>``, texts) and nowhere in them before; or
(2) anything it is shown depends on what is hidden from it: in a twin of the state that looks the same to the
    seat (identical view and prompt) but with every hidden zone re-dealt (the Round and Item decks, the box,
    the other seats' hands, packs, drafted cards, face-down cards, requirements and requirement offers, their
    Battle for London ability offers and set-aside abilities, the solo Classmate's stack and requirements; a
    card named in another seat's unfinished decision or plan follows its card) and another generator state,
    the same pick must show the seat exactly the same view and prompt. A seat's own pick, and what it already
    saw, give the same answer in both; only hidden information can tell them apart.

Moving a known card (hand to the played slot, a requirement discarded, tokens spent) is neither: its id was
shown before, and it happens the same in the twin. The property: every pick after which (1) or (2) holds is a
checkpoint. Rulebook (shared/rules/faltisia-rulebook-en.txt): the draft pack, the hand, the face-down cards and
the requirements are one's own and nobody else's (Draft Action Cards 3: "You may check your own face down cards
at any time, but you may not look at other players' cards"; Action Phase 2; New Student Orientation 3), the
decks are face down (Faculty Preparations 3-4), the Classmate's requirements are not looked at until the end
(Classmate Setup 3) and its stack is face down (solo Registration Phase 1); new cards reach a seat only once
everyone has chosen (Draft Action Cards 4: "Once all players have chosen a card, pass the remaining six
cards"), i.e. when the step resolves, which ends every take-back.

Legal picks over whole games, random or partly the greedy bot's (random play seldom reaches Big Ben): 2-6
players, Solo Mode (every difficulty), the Battle for London at 2-6 players, characters drawn or chosen.
Every player's pick is checked; the server's forced picks are made where it makes them (it never takes them
back). Deterministic (derandomized, no example database), well under a minute; CHECKPOINT_EXAMPLES raises the
number of games.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.faltisia import engine as engine_module
from games.engines.faltisia.bots import GreedyBot
from games.engines.faltisia.cards import CARDS
from games.engines.faltisia.london import CHECKPOINTS
from games.engines.faltisia.solo import DIFFICULTY
from games.engines.rng import seed_state

from tests.engines.faltisia_helpers import E

IDENTITIES = frozenset(CARDS) | frozenset(CHECKPOINTS)
WORD = re.compile(r"[A-Za-z0-9]+")
HIDDEN_LISTS = ("hand", "pack", "picked", "down", "reqs", "offer")
EXAMPLES = int(os.environ.get("CHECKPOINT_EXAMPLES", "2"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
TALLY: Counter = Counter()  # picks seen per (variant, checkpoint or not): the property must not pass vacuously
STAGES: Counter = Counter()  # picks seen per (phase, stage); CHECKPOINT_TALLY=1 prints both
GREEDY = GreedyBot()
GREED = st.sampled_from([0.0, 0.5, 0.9])


class Leak(AssertionError):
    """A pick that showed the seat something new and was no checkpoint."""


def _frozen(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def shown(state: dict, seat: int) -> tuple[dict, tuple | None]:
    """Everything the seat is shown: its view and its prompt (text and options)."""
    p = E.prompt(state, seat)
    return E.view(state, seat), None if p is None else (p.id, p.text, tuple((o.id, o.label) for o in p.options))


def identities(text: str) -> set[str]:
    """Every card or checkpoint token id named in the text (a word of letters and digits: ``draft:1101`` names
    1101)."""
    return {word for word in WORD.findall(text) if word in IDENTITIES}


def hidden_twin(state: dict, seat: int, rnd: random.Random) -> dict:
    """A copy that looks the same to ``seat`` with every zone hidden from it re-dealt (same sizes, each card
    swapped only with cards of its kind; a card named in another seat's unfinished decision or plan follows the
    swap, so the twin is a state the game could be in) and another generator state."""
    twin = copy.deepcopy(state)
    slots: list[tuple] = [(twin["item_deck"], i) for i in range(len(twin["item_deck"]))]
    slots += [(twin["box"], i) for i in range(len(twin["box"]))]
    for deck in twin["decks"].values():
        slots += [(deck, i) for i in range(len(deck))]
    for i, other in enumerate(twin["seats"]):
        if i == seat:
            continue
        for key in HIDDEN_LISTS:
            slots += [(other[key], k) for k in range(len(other[key]))]
        if "bfl" in other:
            slots += [(other["bfl"]["offer"], k) for k in range(len(other["bfl"]["offer"]))]
            if other["bfl"]["aside"] is not None:
                slots.append((other["bfl"], "aside"))
    cm = twin.get("classmate")
    if cm is not None and not twin["over"]:
        slots += [(cm["stack"], k) for k in range(len(cm["stack"]))]
        slots += [(cm["reqs"], k) for k in range(len(cm["reqs"]))]
    by_kind: dict[str, list[tuple]] = {}
    for slot in slots:
        by_kind.setdefault(CARDS[slot[0][slot[1]]].kind, []).append(slot)
    swap: dict[str, str] = {}
    for group in by_kind.values():
        cards = [where[k] for where, k in group]
        rnd.shuffle(cards)
        for (where, k), card in zip(group, cards):
            swap[where[k]] = card
            where[k] = card
    for i, other in enumerate(twin["seats"]):
        if i != seat:
            other["dec"], other["plan"] = _renamed(other["dec"], swap), _renamed(other["plan"], swap)
    twin["rng"] = seed_state(rnd.getrandbits(62))
    return twin


def _renamed(value, swap: dict[str, str]):
    if isinstance(value, dict):
        return {k: _renamed(v, swap) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, swap) for v in value]
    return swap.get(value, value) if isinstance(value, str) else value


def follow_ups(state: dict, open_ids: dict[int, str | None]) -> None:
    """The server's automatic picks after a pick (games/services/turn.py prompts_sync): a newly opened prompt
    with a single option is picked at once, then every seat is looked at again. (The test seats are people
    without standing orders: no bot or standing-order picks.)"""
    for _ in range(100):
        if E.is_over(state) or E.is_step_complete(state):
            return
        for p in range(state["players"]):
            prompt = E.prompt(state, p)
            if prompt is not None and prompt.id != open_ids.get(p) and len(prompt.options) == 1:
                open_ids[p] = None
                E.apply(state, p, prompt.options[0].id)
                break
            open_ids[p] = None if prompt is None else prompt.id
        else:
            return
    raise AssertionError("the forced picks never stop")


def check_pick(state: dict, seat: int, option_id: str, rnd: random.Random) -> bool:
    """Make the pick (and its follow-ups) on ``state``; raise Leak if it showed the seat something new and was
    no checkpoint. Returns whether it was a checkpoint."""
    key = E.checkpoint_key(state, seat)
    before = _frozen(shown(state, seat))
    twin = hidden_twin(state, seat, rnd)
    assert _frozen(shown(twin, seat)) == before, "the twin must look the same to the seat"
    open_ids = {p: (lambda pr: None if pr is None else pr.id)(E.prompt(state, p)) for p in range(state["players"])}
    twin_open = dict(open_ids)
    stage = state["seats"][seat]["dec"]["st"]
    E.apply(state, seat, option_id)
    follow_ups(state, open_ids)
    checkpoint = E.is_over(state) or E.is_step_complete(state) or E.checkpoint_key(state, seat) != key
    if checkpoint:
        return True
    where = (f"step {state['step']} ({state['phase']}, round {state['round']}) seat {seat} stage {stage} "
             f"pick {option_id}")
    after = _frozen(shown(state, seat))
    new = identities(after) - identities(before)
    if new:
        raise Leak(f"{where}: no checkpoint, yet the seat is shown {sorted(new)} it was not shown before")
    E.apply(twin, seat, option_id)
    follow_ups(twin, twin_open)
    if _frozen(shown(twin, seat)) != after:
        raise Leak(f"{where}: no checkpoint, yet what the seat is shown after it depends on what is hidden from it")
    return False


def play(players: int, options: dict, seed: int, greedy: float = 0.0, *, variant: str = "") -> None:
    """A whole game of legal picks, every pick checked: each seat in a random order, each pick random or (with
    probability ``greedy``) the greedy bot's, which goes further along the Battle for London routes (Big Ben)."""
    state = E.new_game(players=players, options=options, seed=seed)
    follow_ups(state, {})
    rnd = random.Random(seed)
    for _ in range(20000):
        if E.is_over(state):
            return
        pending = E.pending(state)
        if not pending:
            E.resolve(state)
            follow_ups(state, {})  # every prompt the resolution opened is new
            continue
        seat = rnd.choice(pending)
        stage = state["phase"], state["seats"][seat]["dec"]["st"]
        if rnd.random() < greedy:
            option_id = GREEDY.choose(E, state, seat)
        else:
            option_id = rnd.choice(E.prompt(state, seat).options).id
        checkpoint = check_pick(state, seat, option_id, rnd)
        TALLY[variant, checkpoint] += 1
        STAGES[stage] += 1
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@PROPERTY
@given(seed=st.integers(0, 2 ** 40), choose=st.booleans(), greedy=GREED)
def test_base_game_picks_that_show_something_new_are_checkpoints(players, seed, choose, greedy):
    play(players, {"choose_characters": True} if choose else {}, seed, greedy, variant=f"base-{players}")


@settings(PROPERTY, max_examples=3 * EXAMPLES)  # a solo game is short
@given(seed=st.integers(0, 2 ** 40), difficulty=st.sampled_from(sorted(DIFFICULTY)), choose=st.booleans(),
       greedy=GREED)
def test_solo_mode_picks_that_show_something_new_are_checkpoints(seed, difficulty, choose, greedy):
    play(1, {"solo": difficulty, **({"choose_characters": True} if choose else {})}, seed, greedy, variant="solo")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@PROPERTY
@given(seed=st.integers(0, 2 ** 40), choose=st.booleans(), greedy=GREED)
def test_battle_for_london_picks_that_show_something_new_are_checkpoints(players, seed, choose, greedy):
    options = {"expansion": "battle_for_london", **({"choose_characters": True} if choose else {})}
    play(players, options, seed, greedy, variant=f"london-{players}")


def test_take_backs_stay_possible():
    """The key must not make every pick a checkpoint (that would switch take-backs off for Faltisia): the
    picks inside a decision (a lecture skipped, then the off-campus action; a card played, then face up or
    down, then its payment) can be taken back."""
    TALLY.clear()
    for players, options in ((1, {"solo": "easy"}), (3, {}), (4, {"expansion": "battle_for_london"})):
        play(players, options, 7, variant=str(players))
        assert TALLY[str(players), False] > 50, TALLY


def test_big_ben_choices_are_checked():
    """Big Ben's bonus and its "+4 attributes" picks, one at a time (a game the greedy bot takes there)."""
    STAGES.clear()
    play(6, {"expansion": "battle_for_london"}, 5, 0.9, variant="big-ben")
    assert STAGES["bigben", "bigben"] and STAGES["bigben", "bbattr"] > 1, "choose a game that reaches Big Ben"


def teardown_module(module):
    if os.environ.get("CHECKPOINT_TALLY"):
        print(sorted(TALLY.items()), sorted(STAGES.items()))


# ---- the check itself finds a pick that shows something new (so the properties above cannot pass vacuously) ----

def _leaky(what):
    """apply_pick that also copies something hidden into the picking seat's own open decision (its view shows
    ``you.decision``), leaving the generator, the decks and the other seats as they were."""
    real = engine_module.apply_pick

    def apply_pick(state, seat, pid):
        real(state, seat, pid)
        if seat["dec"] is not None:
            seat["dec"]["peek"] = what(state, seat)
    return apply_pick


def _an_other_seats_cards(state, seat):
    others = [s for s in state["seats"] if s is not seat]
    return others[0]["hand"] + others[0]["pack"] if others else list(state["classmate"]["stack"])


def _the_next_items_price(state, seat):
    return CARDS[state["item_deck"][-1]].cost_s if state["item_deck"] else None


@pytest.mark.parametrize("players, what, found", [
    (3, _an_other_seats_cards, "it was not shown before"),
    (1, _an_other_seats_cards, "it was not shown before"),
    (2, _the_next_items_price, "depends on what is hidden"),
])
def test_the_check_finds_a_pick_that_shows_something_hidden(monkeypatch, players, what, found):
    monkeypatch.setattr(engine_module, "apply_pick", _leaky(what))
    with pytest.raises(Leak, match=found):
        play(players, {"solo": "easy"} if players == 1 else {}, 3)
