"""Miskatonic over many simulated games: invariants after every step, replay
determinism, the JSON round trip, one pending seat at a time, standing orders, redacted views."""

from __future__ import annotations

import dataclasses
import json
import os

import pytest

from games.engines.bots import RandomBot, make_bot, play
from games.engines.miskatonic import cards as C
from games.engines.miskatonic import view as V
from games.engines.miskatonic.invariants import check
from games.engines.simulate import simulate

from tests.engines.miskatonic_helpers import E, go, put, table

GAMES = int(os.environ.get("ENGINE_GAMES", "120"))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_invariants_hold_after_every_step(players, bot):
    """Card conservation (every card in exactly one place), Sanity 0..20, at most 3 cards per shelf and no Event left
    on a shelf, exactly one pending pick while the game goes on -- after every step of every game (the CLI runs the
    same check over thousands: docs/rules-decisions/miskatonic.md)."""
    out = simulate("miskatonic", players, GAMES, seed=players * 10 + (bot == "greedy"), bot=bot, check=True)
    assert out["games"] == GAMES


def test_invariant_check_catches_a_duplicated_card():
    """The conservation check can fail: a card in two places is reported."""
    s = E.new_game(players=3, options={}, seed=1)
    assert check(s) == []
    s["seats"][0]["discard"].append(s["seats"][0]["deck"][0])
    assert any("not conserved" in b for b in check(s))
    s = E.new_game(players=3, options={}, seed=1)
    s["seats"][1]["sanity"] = 21
    assert any("Sanity 21" in b for b in check(s))


def _play_recording(seed: int, players: int, roundtrip: bool = False):
    state = E.new_game(players=players, options={}, seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(players)]
    picks = []
    while not E.is_over(state):
        if roundtrip:
            state = json.loads(json.dumps(state))
        pend = E.pending(state)
        assert len(pend) <= 1  # a sequential game: one seat decides at a time
        if pend:
            seat = pend[0]
            cls = state["cls"]
            assert seat == state["cur"] or (cls is not None and cls["seat"] == seat)
            opt = bots[seat].choose(E, state, seat)
            picks.append((seat, opt))
            E.apply(state, seat, opt)
        elif E.is_step_complete(state):
            E.resolve(state)
    return state, picks


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_is_deterministic_and_survives_the_json_round_trip(seed):
    """base.py: "An engine is a deterministic function of (player count, options, seed, ordered picks). Its state is
    plain JSON data": replaying the picks, or storing the state as JSON between every pick, ends identically."""
    a, picks = _play_recording(seed, 4)
    b, _ = _play_recording(seed, 4, roundtrip=True)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    replay = E.new_game(players=4, options={}, seed=seed)
    for seat, opt in picks:
        if E.is_step_complete(replay):
            E.resolve(replay)
        E.apply(replay, seat, opt)
    assert json.dumps(replay, sort_keys=True) == json.dumps(a, sort_keys=True)
    assert E.result(a) is not None and sorted(E.result(a).ranks)[0] == 1


def test_default_option_is_always_legal_and_finishes_games():
    """Every pick offers a sensible default (used at a deadline): the greedy default is among the options at
    every prompt."""
    for seed in range(5):
        s = E.new_game(players=3, options={}, seed=seed)
        while not E.is_over(s):
            if E.is_step_complete(s):
                E.resolve(s)
                continue
            seat = E.pending(s)[0]
            opt = E.default_option(s, seat)
            assert opt in E.prompt(s, seat).option_ids()
            E.apply(s, seat, opt)


def test_standing_orders_answer_routine_picks():
    """Standing orders answer the picks where the rulebook's choices are routine ("always produce Friendship",
    "auto-distribute Girl Power to defeat the most Faculty")."""
    ids = [o.id for o in E.standing_orders()]
    assert {"always-friendship", "auto-girl-power"} <= set(ids)
    seen = set()
    for seed in range(30):
        s = E.new_game(players=3, options={}, seed=seed)
        bots = [make_bot("miskatonic", "greedy") for _ in range(3)]
        while not E.is_over(s) and len(seen) < 3:
            if E.is_step_complete(s):
                E.resolve(s)
                continue
            seat = E.pending(s)[0]
            kind = s["dec"]["kind"]
            for order in ids:
                got = E.standing_order_pick(s, seat, order)
                if got is not None:
                    assert got in E.prompt(s, seat).option_ids()
                    seen.add((order, kind))
            E.apply(s, seat, bots[seat].choose(E, s, seat))
        if len(seen) >= 3:
            break
    assert ("always-friendship", "produce") in seen and ("auto-girl-power", "gp") in seen


# --- Hidden information -----------------------------------------------------------------------------------------

@pytest.fixture
def canaries():
    """Canary cards (copies of a Natalie Peaslee with tell-tale names), unregistered afterwards."""
    added = []

    def make(name: str) -> str:
        cid = f"Z{len(added)}"
        C.CARDS[cid] = dataclasses.replace(C.CARDS["C2NP1"], id=cid, name=name, text=name + " text")
        added.append(cid)
        return cid
    yield make
    for cid in added:
        C.CARDS.pop(cid)
        V._CACHE.pop(cid, None)


def test_hands_and_deck_orders_stay_hidden(canaries):
    """View: hands only to their owner; deck orders to nobody. A canary in seat 1's hand is seen by
    seat 1 only; canaries in a Deck and in the store decks are seen by nobody (counts only)."""
    s = E.new_game(players=3, options={}, seed=4)
    hand, deck, store = canaries("CANARY-HAND"), canaries("CANARY-DECK"), canaries("CANARY-STOREDECK")
    s["seats"][1]["hand"].append(hand)
    s["seats"][1]["deck"].insert(0, deck)
    s["store"]["faculty"]["deck"].insert(0, store)
    for seat in (None, 0, 2):
        text = json.dumps(E.view(s, seat))
        assert "CANARY" not in text
    mine = json.dumps(E.view(s, 1))
    assert "CANARY-HAND" in mine and "CANARY-DECK" not in mine and "CANARY-STOREDECK" not in mine
    assert E.view(s, 1)["seats"][1]["deck_count"] == len(s["seats"][1]["deck"])


def test_an_eliminated_players_deck_order_is_not_revealed():
    """Deck orders to nobody: an eliminated player's Deck leaves play (docs/rules-decisions); the view
    lists removed cards sorted, not in Deck order."""
    s = table()
    deck = list(s["seats"][1]["deck"])
    from games.engines.miskatonic import flow
    flow.lose(s, [1], 20, [], "test")
    shown = [c["id"] for c in E.view(s, 0)["removed"]]
    assert sorted(shown) == sorted(deck) and shown == sorted(shown)


def test_hand_draw_events_are_private(canaries):
    """Step 1 draws a hand: the event naming the cards goes to the owner only; the public log gives a count."""
    s = table()
    hand = canaries("CANARY-DRAWN")
    from tests.engines.miskatonic_helpers import clear_hand_and_deck
    clear_hand_and_deck(s, 0)
    s["seats"][0]["deck"].append(hand)
    put(s, 0, "deck", "C1NP1", "C1NP2", "C1NP3", "C1SG1")
    ev = go(s)
    for e in ev:
        if "CANARY" in e.text or "CANARY" in json.dumps(dict(e.data), default=str) or \
                any(str(x).startswith("Z") for x in e.data.get("cards", [])):
            assert e.seats == (0,), e.text


def test_points_and_decision_are_the_owners_only():
    """The points a player has left derive from their hand: only they see them (and their decision)."""
    s = E.new_game(players=3, options={}, seed=2)
    seat = E.pending(s)[0]
    other = (seat + 1) % 3
    assert E.view(s, other)["you"]["decision"] is None and E.view(s, other)["you"]["points"] is None
    assert E.view(s, seat)["you"]["decision"] is not None
    assert E.view(s, None)["you"] is None


@pytest.mark.parametrize("players", [2, 4])
def test_whole_games_end_with_a_single_winner_or_a_tie(players):
    """Game End: "The last player with any Sanity left wins!" -- every bot game ends, ranks 1..n by elimination."""
    for seed in range(20):
        s = E.new_game(players=players, options={}, seed=seed)
        play(E, s, [make_bot("miskatonic", "greedy") for _ in range(players)])
        r = E.result(s)
        assert 1 in r.ranks and sum(1 for x in s["seats"] if x["out"] is None) <= 1


def test_every_event_has_plain_english_text_and_json_data():
    """Events carry structured data and a plain-English text: every event of whole games has a text, a
    ``kind`` and data the server can store as JSON; the first event of a turn names the player."""
    kinds = set()
    for seed in range(6):
        s = E.new_game(players=3, options={}, seed=seed)
        bots = [RandomBot(seed + i) for i in range(3)]
        while not E.is_over(s):
            if E.is_step_complete(s):
                evs = E.resolve(s)
            else:
                seat = E.pending(s)[0]
                evs = E.apply(s, seat, bots[seat].choose(E, s, seat))
            for e in evs:
                assert e.text and e.text[0].isupper() and e.data.get("kind"), e
                json.dumps(e.as_dict())
                kinds.add(e.data["kind"])
    assert {"turn", "hand", "shelf", "buy", "class", "damage", "sanity", "eliminated",
            "game_over"} <= kinds


def test_simulate_cli_runs_miskatonic(capsys):
    """The brief's command: ``python -m games.engines.simulate miskatonic --players 4 --games 1000 --seed 1 --bot
    greedy`` (here 5 games) reports win rates by turn position, invariants checked."""
    from games.engines.simulate import main
    assert main(["miskatonic", "--players", "4", "--games", "5", "--seed", "1", "--bot", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "invariants checked" in out and "turn position 4" in out


def test_registered_for_the_generic_server():
    """The engine is registered in games/engines/registry.py (one line); its greedy bot and invariants are
    found by slug."""
    from games.engines import registry, simulate as sim
    from games.engines.bots import GREEDY
    assert "miskatonic" in registry.slugs()
    eng = registry.get_engine("miskatonic")
    assert (eng.min_players, eng.max_players, eng.name) == (2, 4, "Miskatonic School for Girls")
    assert "miskatonic" in GREEDY and sim._checker("miskatonic") is not None
