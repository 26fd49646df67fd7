"""Miskatonic: each Event of the authored set, Locker effects in Class, and a player eliminated during their own
turn. Rulebook lines are quoted."""

from __future__ import annotations

import pytest

from games.engines.miskatonic import flow

from tests.engines.miskatonic_helpers import (E, clear_hand_and_deck, go, put, table)
from tests.engines.test_miskatonic_turn import put_store_top


@pytest.mark.parametrize("event,which,sanity_after,where", [
    ("SE1", "student", [12, 12, 12], "removed"),   # Sleepover: every player regains 2
    ("SE2", "student", [13, 10, 10], "removed"),   # Study Group: the player whose turn it is regains 3
    ("SE3", "student", [10, 10, 10], "locker"),    # Pep Rally: Locker, +1 Girl Power
    ("SE4", "student", [10, 10, 10], "locker"),    # Secret Diary: Locker, +1 Friendship
    ("FE1", "faculty", [9, 9, 9], "removed"),      # Faculty Meeting: every player loses 1
    ("FE2", "faculty", [8, 10, 10], "removed"),    # Blood Moon: the player whose turn it is loses 2
    ("FE3", "faculty", [9, 10, 10], "removed"),    # Lights Out: the player whose turn it is loses 1
    ("FE4", "faculty", [10, 10, 10], "locker"),    # Pop Quiz: Locker, -1 Resolve
])
def test_each_event_resolves_when_revealed(event, which, sanity_after, where):
    """Event Cards: "Event cards are single effects that happen the turn they are revealed ... Events that don't go
    to Lockers are removed from the game." "Some events go to a player's Locker as well.\""""
    s = table(events=True)
    for seat in s["seats"]:
        seat["sanity"] = 10
    st = s["store"][which]
    s["box"] += [c for c in st["deck"] if c.startswith(("SE", "FE"))]
    st["deck"] = [c for c in st["deck"] if not c.startswith(("SE", "FE"))]
    put_store_top(s, which, event)
    flow.stock(s, [])
    assert [x["sanity"] for x in s["seats"]] == sanity_after
    if where == "locker":
        assert s["seats"][0]["locker"] == [event]
    else:
        assert event in s["removed"]
    assert event not in st["shelf"] and all(st["shelf"])


def in_class(faculty, deck, locker=()):
    s = table()
    clear_hand_and_deck(s, 0)
    put(s, 0, "classroom", *faculty)
    put(s, 0, "deck", *deck)
    for cid in locker:
        from tests.engines.miskatonic_helpers import take
        take(s, cid)
        s["seats"][0]["locker"].append(cid)
    s["phase"] = "class"
    return s


def test_locker_cards_keep_working_in_class():
    """The Locker: "They remain there for the rest of the game and continue to have their effect." Miriam Upham
    (+1 Resolve) and Pep Rally (+1 Girl Power) in the Locker; against Gug (Damage 4) with one Sonia (Resolve 1)."""
    s = in_class(("F25",), ("C1SG1",), locker=("S49", "SE3"))
    go(s)
    assert s["seats"][0]["sanity"] == 20 - (4 - 1 - 1)
    assert s["seats"][0]["locker"] == ["S49", "SE3"]  # the Locker is not dismissed with the Classroom


def test_pop_quiz_in_the_locker_lowers_resolve():
    """Pop Quiz (a Faculty Event that goes to a Locker): -1 Resolve in each Class of its owner: Shantak (Damage 1)
    against Sonia (Resolve 1) now costs 1 Sanity."""
    s = in_class(("F10",), ("C1SG1",), locker=("FE4",))
    go(s)
    assert s["seats"][0]["sanity"] == 19


def test_player_eliminated_by_an_event_on_their_turn_ends_it():
    """Game End: "When a player loses their last point of Sanity, the player is eliminated from the game": a Blood
    Moon revealed while stocking at the start of seat 0's turn, at Sanity 2, ends that turn before Tuition."""
    s = table(events=True)
    s["seats"][0]["sanity"] = 2
    st = s["store"]["faculty"]
    s["box"] += [c for c in st["deck"] if c.startswith("FE")]
    st["deck"] = [c for c in st["deck"] if not c.startswith("FE")]
    put_store_top(s, "faculty", "FE2")
    transfers = len(s["transfers"])
    go(s)
    assert s["seats"][0]["out"] is not None and s["seats"][0]["hand"] == []
    assert len(s["transfers"]) == transfers and s["phase"] == "done"
    E.resolve(s)
    assert s["cur"] == 1


def test_an_aggressive_class_can_eliminate_the_player_to_the_left():
    """Side note "Aggressive" + Game End: the Class forced on the player to the left can take their last Sanity;
    the buyer's turn goes on."""
    from tests.engines.miskatonic_helpers import pick, shelf
    s = table()
    clear_hand_and_deck(s, 0)
    put(s, 0, "purchase", "S40", "F37", "F38")
    put(s, 0, "deck", "C1NP1", "C1NP2")
    shelf(s, "faculty", "F34", None, None)  # Vice Principal Crawl: Aggressive, Damage 3, costs 6 Nightmare
    shelf(s, "student", "S01", "S02", None)
    s["seats"][0]["hand"] = []
    put(s, 0, "purchase", "F39")  # a third Wilbur: 6 Nightmare in all
    clear_hand_and_deck(s, 1)
    s["seats"][1]["sanity"] = 2
    go(s)
    pick(s, "transfer")
    pick(s, "buy:F34")
    assert s["seats"][1]["out"] is not None and "F34" in s["removed"]
    assert not s["over"] and s["cur"] == 0
