"""Game Set Up and the Registration phase, each test citing the rulebook."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines.faltisia.cards import CARDS
from games.engines.faltisia.setup import X_TERMS

from tests.engines.faltisia_helpers import E, at, drive, finish, ids, new, picks


def test_random_character_draw_and_matching_maid_ability():
    """New Student Orientation 2: "Randomly draw a character card, and take its matching Maid Ability
    action card ... Return any unused character cards and Maid Ability action cards to the box." """
    s = new(6, seed=3)
    chars = [x["char"] for x in s["seats"]]
    assert len(set(chars)) == 6 and all(CARDS[c].kind == "character" for c in chars)
    assert all(x["ability"] == x["char"][1:] for x in s["seats"])
    unused = next(c for c in CARDS if c.startswith("C") and c not in chars)
    assert unused in s["box"] and unused[1:] in s["box"]
    assert {new(6, seed=k)["seats"][0]["char"] for k in range(20)} != {chars[0]}  # it is a random draw


def test_choose_characters_is_a_simultaneous_pick_with_collisions_drawn():
    """New Student Orientation 2: "If all players agree, you may choose your characters instead of
    drawing them randomly." Collisions (two seats picking one character) are settled by a seeded draw,
    recorded in state["decisions"], and the losers choose again."""
    s = new(3, seed=1, choose_characters=True)
    assert s["phase"] == "characters" and E.pending(s) == [0, 1, 2]
    assert ids(s, 0)[:7] == [f"char:C000{i}" for i in range(1, 8)]
    picks(s, 0, "char:C0004")
    picks(s, 1, "char:C0004")
    picks(s, 2, "char:C0002")
    finish(s)
    d = s["decisions"][0]
    assert d["kind"] == "character_collision" and d["seats"] == [0, 1] and d["winner"] in (0, 1)
    loser = 1 - d["winner"]
    assert s["phase"] == "characters" and E.pending(s) == [loser]
    assert "char:C0004" not in ids(s, loser) and "char:C0002" not in ids(s, loser)
    picks(s, loser, "char:C0007")
    finish(s)
    assert s["phase"] == "setup"
    assert sorted(x["char"] for x in s["seats"]) == ["C0002", "C0004", "C0007"]
    assert s["seats"][2]["ability"] == "0002"


def test_graduation_requirements_deal_three_keep_two():
    """New Student Orientation 3: "Randomly draw three Graduation Requirement cards. Choose two to keep
    ... Return all unused Graduation Requirement cards to the box." """
    s = new(2)
    offer = list(s["seats"][0]["offer"])
    assert len(offer) == 3 and all(c.startswith("B") for c in offer)
    assert ids(s, 0)[:3] == [f"discard:{c}" for c in offer]
    picks(s, 0, f"discard:{offer[1]}", "str:2", "int:2", "bea:2")
    picks(s, 1, "discard:" + s["seats"][1]["offer"][0], "str:2", "int:2", "bea:2")
    finish(s)
    assert s["seats"][0]["reqs"] == [offer[0], offer[2]] and offer[1] in s["box"]


def test_starting_attributes_sum_8_each_1_to_5_and_secret_until_all_locked():
    """New Student Orientation 4: "the sum of all four scores must equal 8 and no one score may exceed 5.
    Keep your eyes on your own board until all players have locked in their choices." """
    s = new(2)
    first = s["seats"][0]["offer"][0]
    picks(s, 0, f"discard:{first}")
    assert [i for i in ids(s, 0) if i.startswith("str")] == [f"str:{v}" for v in range(1, 6)]
    picks(s, 0, "str:5")
    assert [i for i in ids(s, 0) if i.startswith("int")] == ["int:1"]
    picks(s, 0, "int:1")
    assert [i for i in ids(s, 0) if i.startswith("bea")] == ["bea:1"]
    picks(s, 0, "bea:1")
    assert E.view(s, 1)["seats"][0]["attributes"] is None  # locked in, not yet revealed
    picks(s, 1, "discard:" + s["seats"][1]["offer"][0], "str:1", "int:2", "bea:2")
    finish(s)
    assert s["seats"][0]["attr"] == [5, 1, 1, 1] and s["seats"][1]["attr"] == [1, 2, 2, 3]
    assert E.view(s, 1)["seats"][0]["attributes"]["strength"] == 5


def test_every_legal_distribution_is_reachable():
    """New Student Orientation 4: every distribution with sum 8 and scores 1..5 is offered (35 of them)."""
    found = set()
    for a in range(1, 6):
        for b in range(1, 6):
            for c in range(1, 6):
                d = 8 - a - b - c
                if 1 <= d <= 5:
                    found.add((a, b, c, d))
    reached = set()
    s0 = new(2)
    picks(s0, 0, "discard:" + s0["seats"][0]["offer"][0])
    import copy
    for a in [i for i in ids(s0, 0) if i.startswith("str")]:
        s1 = copy.deepcopy(s0)
        picks(s1, 0, a)
        for b in [i for i in ids(s1, 0) if i.startswith("int")]:
            s2 = copy.deepcopy(s1)
            picks(s2, 0, b)
            for c in [i for i in ids(s2, 0) if i.startswith("bea")]:
                s3 = copy.deepcopy(s2)
                picks(s3, 0, c)
                reached.add(tuple(s3["seats"][0]["plan"]["attr"]))
    assert reached == found and len(found) == 35


def test_starting_sterlings_and_tokens():
    """New Student Orientation 5: "Take three Sterlings and one Red, Blue, Yellow, and Green attribute token." """
    s = new(4)
    assert all(x["ster"] == 3 and x["tok"] == [1, 1, 1, 1, 0] for x in s["seats"])


@pytest.mark.parametrize("players,actions,items", [(2, 21, 10), (3, 28, 14), (4, 28, 14), (5, 44, 20), (6, 44, 20)])
def test_three_plus_and_five_plus_cards_removed_by_player_count(players, actions, items):
    """Faculty Preparations 2: "remove all action cards and Item cards with a 3+ and/or 5+ icon ... Add the
    3+ cards when playing with 3 or more players, and add the 5+ cards when playing with five or more." """
    s = new(players)
    for r in "123":
        assert len(s["decks"][r]) == actions >= 7 * players
        assert all(CARDS[c].players <= players for c in s["decks"][r])
    assert len(s["item_deck"]) == items >= 3 * {2: 2, 3: 2, 4: 3, 5: 4, 6: 5}[players]


@pytest.mark.parametrize("seed", range(25))
def test_class_schedule_assignment(seed):
    """Class Schedule Assignment 1-3: 8 tokens (two per colour) over Round 1's seven spaces, the leftover
    plus one of each colour over Round 2's five spaces, one of each colour over Round 3's three spaces
    with the last leftover returned; X spaces hold no lecture."""
    r1, r2, r3 = new(2, seed=seed)["schedule"]
    assert len(r1) == len(r2) == len(r3) == 7
    c1 = Counter(r1)
    assert -1 not in c1 and all(v <= 2 for v in c1.values()) and sum(c1.values()) == 7
    leftover = next(c for c in range(4) if c1[c] == 1)
    assert [t for t in range(1, 8) if r2[t - 1] == -1] == list(X_TERMS[2])
    assert [t for t in range(1, 8) if r3[t - 1] == -1] == list(X_TERMS[3])
    c2 = Counter(c for c in r2 if c >= 0)
    assert c2 == Counter([0, 1, 2, 3, leftover])
    l3 = [c for c in r3 if c >= 0]
    assert len(l3) == 3 == len(set(l3))


@pytest.mark.parametrize("players,per_round", [(2, 2), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_store_restock_table_added_every_round(players, per_round):
    """Registration A: Number of Item Cards 2:2, 3:2, 4:3, 5:4, 6:5; "Add the same number of new items in
    Rounds 2-3, even if there are already cards in the Academy Store." """
    s = drive(new(players), at("draft", 1))
    assert len(s["store"]) == per_round
    # Nobody shops (calm chooser takes jobs), so Round 2 adds on top of what is left.
    s = drive(s, at("draft", 2))
    assert len(s["store"]) == 2 * per_round


def test_draft_passes_left_in_round_1_and_right_in_round_2():
    """Registration B4: "In Rounds 1 and 3, you pass the cards to the left, and in Round 2, you pass them to
    the right." Left is seat+1 here, right is seat-1 (a recorded decision)."""
    for rnd, d in ((1, 1), (2, -1)):
        s = drive(new(3, seed=2), at("draft", rnd))
        packs = [list(x["pack"]) for x in s["seats"]]
        assert all(len(p) == 7 for p in packs)
        for i in range(3):
            picks(s, i, "draft:" + packs[i][0])
        finish(s)
        for i in range(3):
            assert s["seats"][(i + d) % 3]["pack"] == packs[i][1:]
        assert s["pick"] == 2


def test_draft_seven_picks_make_the_hand_and_leftover_joins():
    """Registration B1/B5/B6: seven picks; "If you have a card remaining from a previous Round ... you will
    have eight cards in your hand at the end of this Registration phase." """
    s = drive(new(2, seed=4), at("draft", 1))
    steps = s["step"]
    s = drive(s, at("lecture", 1, 1))
    assert s["step"] == steps + 7  # seven simultaneous draft steps
    assert all(len(x["hand"]) == 7 for x in s["seats"])
    s = drive(s, at("draft", 2))
    s["seats"][0]["hand"] = ["0001"]  # pretend the licence gave an extra card that was never played
    s = drive(s, at("action", 2, 1))
    assert len(s["seats"][0]["hand"]) == 8 and "0001" in s["seats"][0]["hand"]
    assert len(s["seats"][1]["hand"]) == 7
