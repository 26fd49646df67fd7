"""Mage Knight tactics used during turns (tactics.csv, "when" other than on_take): Planning, The Right Moment, Long
Night, Mana Search, Midnight Meditation, Sparing Power. Each test quotes the tactics.csv text it checks."""

from __future__ import annotations

import json

from games.engines.mage_knight import invariants, tactic_turn
from games.engines.mage_knight.engine import MageKnightEngine
from games.engines.mage_knight.rounds import TACTICS, tactics_of

E = MageKnightEngine()


def current(state):
    if E.is_step_complete(state):
        E.resolve(state)
    return E.pending(state)[0]


def ids(state):
    E._last = None  # the tests change the state by hand: no cached prompt
    return [o.id for o in E.prompt(state, current(state)).options]


def pick(state, option_id):
    seat = current(state)
    E._last = None
    assert option_id in E.prompt(state, seat).option_ids(), (option_id, E.prompt(state, seat).option_ids())
    return E.apply(state, seat, option_id)


def game_with(tactic, seed=3):
    """A 2-player game in the tactic's time of day; the seat choosing first takes ``tactic``, the other the
    "no effect" card; returns (state, seat), with the seat at the start of its first turn."""
    s = E.new_game(players=2, options={}, seed=seed)
    time = TACTICS[tactic]["time"]
    s["time"] = time
    s["tactics"]["available"] = tactics_of(time)
    me = current(s)
    pick(s, f"tactic:{tactic}")
    pick(s, "tactic:early_bird" if time == "day" else "tactic:from_the_dusk")
    to_my_turn(s, me)
    return s, me


def to_my_turn(s, me):
    """Let the other seat take its turns at their safe default until ``me`` decides a turn."""
    while not (current(s) == me and s["dec"]["kind"] == "turn"):
        pick(s, E.default_option(s, current(s)))


def test_planning_draws_one_more_with_two_cards_left():
    """Planning: "end of each of your turns: if you hold 2+ cards before drawing, draw as if Hand limit were 1
    higher"."""
    s, me = game_with("planning")
    seat = s["seats"][me]
    assert len(seat["hand"]) == seat["hand_limit"] == 5
    pick(s, "t-end")
    assert len(seat["hand"]) == 6


def test_planning_needs_two_cards_in_hand():
    """Planning: "if you hold 2+ cards before drawing" - with 1 card, the hand limit stays."""
    s, me = game_with("planning")
    seat = s["seats"][me]
    seat["discard"] += seat["hand"][1:]
    del seat["hand"][1:]
    pick(s, "t-end")
    assert len(seat["hand"]) == 5
    assert invariants.check(s) == []


def test_the_right_moment_gives_another_turn_once():
    """The Right Moment: "once this Day, during your turn, declare you will take another turn right after it"."""
    s, me = game_with("the_right_moment")
    other = 1 - me
    assert "t-tactic:moment" in ids(s)
    pick(s, "t-tactic:moment")
    assert s["seats"][me]["tactic_used"] and E.view(s, other)["heroes"][me]["tactic_used"]
    assert "t-tactic:moment" not in ids(s)
    pick(s, "t-end")
    assert current(s) == me and s["dec"]["kind"] == "turn"  # the extra turn, right after
    assert "t-tactic:moment" not in ids(s)  # once this Day
    pick(s, "t-end")
    assert current(s) == other


def test_the_right_moment_not_after_the_round_end_is_announced():
    """The Right Moment is a turn "right after it": none is left once the end of the round is announced."""
    s, me = game_with("the_right_moment")
    s["end_announced_by"] = 1 - me
    assert "t-tactic:moment" not in ids(s)


def test_long_night_puts_three_discards_back_as_the_deck():
    """Long Night: "once this Night, when your Deed deck is empty: shuffle the discard pile and put 3 random cards
    back as the deck"."""
    s, me = game_with("long_night")
    seat = s["seats"][me]
    assert "t-tactic:night" not in ids(s)  # the deck is not empty
    seat["discard"] += seat["deck"]
    seat["deck"] = []
    discard = sorted(seat["discard"])
    pick(s, "t-tactic:night")
    assert len(seat["deck"]) == 3 and sorted(seat["deck"] + seat["discard"]) == discard
    assert invariants.check(s) == []
    seat["discard"] += seat["deck"]
    seat["deck"] = []
    assert "t-tactic:night" not in ids(s)  # once this Night


def test_mana_search_rerolls_gold_first_then_up_to_two():
    """Mana Search: "once per turn, before using Source mana: reroll up to 2 Source dice (gold/depleted ones
    first)"."""
    s, me = game_with("mana_search")
    s["source"]["dice"] = ["red", "gold", "blue", "green"]
    s["source"]["taken"] = []
    pick(s, "t-tactic:search")
    assert [o for o in ids(s) if o.startswith("t-tactic:die:")] == ["t-tactic:die:1"]  # gold (unusable at night)
    pick(s, "t-tactic:die:1")
    assert {"t-tactic:die:0", "t-tactic:die:2", "t-tactic:die:3"} <= set(ids(s))
    pick(s, "t-tactic:die:0")
    assert [o for o in ids(s) if o.startswith("t-tactic:die:")] == []  # up to 2
    rng_before = s["rng"]
    events = pick(s, "t-tactic:done")
    assert s["rng"] != rng_before and s["source"]["dice"][2:] == ["blue", "green"]
    assert any(e.data.get("rerolled") == 2 for e in events)
    assert "t-tactic:search" not in ids(s)  # once per turn


def test_mana_search_only_before_using_source_mana():
    """Mana Search: "before using Source mana" - not once a die is taken this turn."""
    s, me = game_with("mana_search")
    assert "t-tactic:search" in ids(s)
    s["turn"]["die_taken"] = True
    assert "t-tactic:search" not in ids(s)


def test_midnight_meditation_shuffles_in_and_draws_as_many():
    """Midnight Meditation: "once this Night, before a turn: shuffle up to 5 hand cards (Wounds allowed) into the
    deck and draw as many"."""
    s, me = game_with("midnight_meditation")
    seat = s["seats"][me]
    seat["discard"].append(seat["hand"][0])
    seat["hand"][0] = "wound"  # "Wounds allowed"
    hand, deck = len(seat["hand"]), len(seat["deck"])
    pick(s, "t-tactic:meditate")
    pick(s, "t-tactic:card:wound")
    pick(s, f"t-tactic:card:{seat['hand'][0]}")
    pick(s, "t-tactic:done")
    assert (len(seat["hand"]), len(seat["deck"])) == (hand, deck)
    assert "t-tactic:meditate" not in ids(s)
    assert seat["tactic_used"] and invariants.check(s) == []


def test_midnight_meditation_at_most_five_and_only_before_the_turn():
    """Midnight Meditation: "up to 5 hand cards", "before a turn"."""
    s, me = game_with("midnight_meditation")
    seat = s["seats"][me]
    seat["hand"] += [seat["deck"].pop(), seat["deck"].pop()]
    pick(s, "t-tactic:meditate")
    for _ in range(5):
        pick(s, next(o for o in ids(s) if o.startswith("t-tactic:card:")))
    assert ids(s) == ["t-tactic:done"]
    s2, me2 = game_with("midnight_meditation")
    s2["turn"]["started"] = True
    assert "t-tactic:meditate" not in ids(s2)


def test_sparing_power_stores_hidden_then_flips():
    """Sparing Power: "before each of your turns: either store the top Deed card face down under this card, or
    flip it and take all stored cards into hand"."""
    s, me = game_with("sparing_power")
    seat = s["seats"][me]
    assert "t-tactic:flip" not in ids(s)  # nothing stored yet
    top = seat["deck"][-1]
    deck = len(seat["deck"])
    pick(s, "t-tactic:store")
    assert seat["stored"] == [top] and len(seat["deck"]) == deck - 1
    assert invariants.check(s) == []  # the stored card still counts as the seat's
    assert "t-tactic:store" not in ids(s)  # once before each turn
    for who in (me, 1 - me, None):
        v = E.view(s, who)
        assert v["heroes"][me]["stored_count"] == 1 and "stored" not in json.dumps(v).replace("stored_count", "")
    pick(s, "t-end")
    to_my_turn(s, me)
    hand = len(seat["hand"])
    pick(s, "t-tactic:flip")
    assert len(seat["hand"]) == hand + 1 and top in seat["hand"] and not seat.get("stored")
    assert seat["tactic_used"] and "t-tactic:store" not in ids(s)


def test_sparing_power_cards_return_at_the_round_end():
    """Stored cards are the seat's deed cards: at the end of the round they go back into the deed deck."""
    s, me = game_with("sparing_power")
    seat = s["seats"][me]
    pick(s, "t-tactic:store")
    deck = len(seat["deck"])
    tactic_turn.end_of_round(seat)
    assert len(seat["deck"]) == deck + 1 and "stored" not in seat and "tactic_used" not in seat


def test_greedy_bot_takes_long_night_before_announcing():
    """Long Night "when your Deed deck is empty": the GreedyBot takes the 3 cards rather than announce the end."""
    from games.engines.mage_knight.bots import GreedyBot
    s, me = game_with("long_night")
    seat = s["seats"][me]
    seat["discard"] += seat["deck"]
    seat["deck"] = []
    E._last = None
    assert {"t-announce", "t-tactic:night"} <= set(ids(s))
    assert GreedyBot().choose(E, s, me) == "t-tactic:night"
