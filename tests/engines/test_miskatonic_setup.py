"""Miskatonic Set-Up; each test cites the rulebook line it checks."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.miskatonic.cards import CARDS
from games.engines.miskatonic.setup import new_state

from tests.engines.miskatonic_helpers import E


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_gets_their_starting_class_and_20_sanity(players):
    """"Each player takes two copies of each students from the Starting Class except for Keziah Mason (only one
    copy) and Natalie Peaslee (three copies). These cards are shuffled and placed face down on the player's House
    Board"; "Each player starts the game with a token on the 20 of their Sanity Tracker"."""
    s = new_state(players, {}, 7)
    for seat in s["seats"]:
        names = Counter(CARDS[c].name for c in seat["deck"])
        assert sum(names.values()) == 10 and names["Keziah Mason"] == 1 and names["Natalie Peaslee"] == 3
        assert {CARDS[c].house for c in seat["deck"]} == {seat["house"]}
        assert seat["sanity"] == 20 and not seat["hand"] and not seat["discard"]
    assert len({x["house"] for x in s["seats"]}) == players


def test_starting_deck_is_shuffled():
    """"These cards are shuffled": the order differs between seeds."""
    orders = {tuple(CARDS[c].name for c in new_state(3, {}, seed)["seats"][0]["deck"]) for seed in range(10)}
    assert len(orders) > 1


def test_store_decks_shelves_and_face_up_piles():
    """"Shuffle the Faculty and the Faculty Events into a single deck ... Shuffle the Student and Student Events into
    a single deck"; "They start the game empty" (shelves); "Take all the copies of the Transfers and Substitutes and
    place them face up in their own piles"."""
    s = new_state(4, {}, 3)
    fac, stu = s["store"]["faculty"], s["store"]["student"]
    assert Counter(CARDS[c].kind for c in fac["deck"]) == {"faculty": 46, "faculty_event": 4}
    assert Counter(CARDS[c].kind for c in stu["deck"]) == {"student": 51, "student_event": 4}
    assert fac["shelf"] == stu["shelf"] == [None, None, None]
    assert len(s["transfers"]) == 18 and len(s["substitutes"]) == 20
    assert any(CARDS[c].is_event for c in fac["deck"][-20:]) or fac["deck"] != sorted(fac["deck"])


def test_two_player_special_rule_1_removes_grace_and_whipper():
    """2-Player Game Special Rule #1: 'Remove all copies of the "Grace Traceofyith" and the "Whipper' Wills" from
    the Faculty Deck before your game starts.'"""
    two = {CARDS[c].name for c in new_state(2, {}, 1)["store"]["faculty"]["deck"]}
    three = {CARDS[c].name for c in new_state(3, {}, 1)["store"]["faculty"]["deck"]}
    assert "Grace Traceofyith" not in two and "Whipper' Wills" not in two
    assert {"Grace Traceofyith", "Whipper' Wills"} <= three


def test_first_player_is_random_and_play_goes_clockwise():
    """"Randomly figure out who takes the first turn. Play goes clockwise from that player.\""""
    firsts = {new_state(4, {}, seed)["first"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    s = E.new_game(players=4, options={}, seed=5)
    assert E.pending(s) == [s["first"]] and s["cur"] == s["first"]


@pytest.mark.parametrize("players,options", [(1, {}), (5, {}), (3, {"variant": 1})])
def test_unsupported_settings_are_refused(players, options):
    """Game Contents: 4 House Boards, so 2-4 players (a 2-player game has its own special rules); no options."""
    with pytest.raises(ValueError):
        E.validate_options(players, options)
