"""Miskatonic: every step of a turn, as written. Each test cites the rulebook
line it checks (shared/rules/miskatonic-school-for-girls-rules.txt).

Card ids (cards.csv): S01 Abigail Prinn (F2, GP1, costs 3 Friendship), S16 Hannah Bishop (GP3), S22 Wilma Olmstead
(Friendly, GP2, costs 4), S40 Ada Carter (F3), S46 Judith Phillips (Locker: +1 Friendship), C1AW1 Asenath Waite
(1 Nightmare or 1 Friendship, Resolve 1), C1NP1 Natalie Peaslee (F1, GP1), F01 Coach Dagon (N1, Health 3, Damage 2,
costs 3 Nightmare), F10 Nurse Shantak (Aggressive, Health 2, Damage 1), U01 a Substitute.
"""

from __future__ import annotations

from games.engines.miskatonic import flow

from tests.engines.miskatonic_helpers import (E, clear_hand_and_deck, go, option_ids, pick, put, shelf, table,
                                               texts)


def rich_turn(players=3, hand=("S40", "S41"), deck=("C1NP1", "C1NP2", "C1NP3")):
    """Seat 0 starts a turn holding ``hand`` (from its Purchase Pile) and ``deck``; a cheap Student is on offer."""
    s = table(players)
    clear_hand_and_deck(s, 0)
    put(s, 0, "purchase", *hand)
    put(s, 0, "deck", *deck)
    shelf(s, "student", "S01", "S02", None)
    return s


# --- 1. Go to the Bank ---------------------------------------------------------------------------------------------

def test_draw_purchase_pile_then_deck_up_to_five():
    """1. "Draw your Purchase Pile into your hand, then draw from your Deck until you have 5 total cards in your
    hand.\""""
    s = rich_turn(deck=("C1SG1", "C1NP1", "C1NP2", "C1NP3"))
    ev = go(s)
    hand = s["seats"][0]["hand"]
    assert hand[:2] == ["S40", "S41"] and sorted(hand[2:]) == ["C1NP1", "C1NP2", "C1NP3"]
    assert s["seats"][0]["deck"] == ["C1SG1"] and s["seats"][0]["purchase"] == []
    private = [e for e in ev if e.data.get("kind") == "hand"]
    assert private and private[0].seats == (0,)


def test_a_big_purchase_pile_is_all_drawn():
    """1. The whole Purchase Pile goes to the hand; the Deck only tops the hand up to 5."""
    s = rich_turn(hand=("S40", "S41", "S42", "U01", "U02", "U03"), deck=("C1NP1",))
    go(s)
    assert len(s["seats"][0]["hand"]) == 6 and s["seats"][0]["deck"] == ["C1NP1"]


def test_empty_deck_reshuffles_the_discard():
    """House Board C: "If your deck has no cards in it any time you need to draw a card, shuffle up your Discard
    pile and place it face down as your Deck\""""
    s = rich_turn(deck=())
    put(s, 0, "discard", "C1NP1", "C1NP2", "C1NP3", "C1SG1")
    ev = go(s)
    assert len(s["seats"][0]["hand"]) == 5 and len(s["seats"][0]["deck"]) == 1
    assert s["seats"][0]["discard"] == []
    assert any(e.data.get("kind") == "reshuffle" for e in ev)


# --- 2. Stock the School Store -----------------------------------------------------------------------------------

def test_first_stock_fills_three_each():
    """2. "On the first turn ... Flip 3 cards from the top of the Student Deck into the 3 empty slots on the Student
    shelf. Do the same with the Faculty Deck/shelf.\""""
    s = table()
    flow.stock(s, [])
    assert all(s["store"]["student"]["shelf"]) and all(s["store"]["faculty"]["shelf"])


def test_empty_slots_slide_and_fill_the_early_slots():
    """2. "If there are empty slots, move the cards to the next spot on the shelf and fill the early slots with
    cards from the respective deck.\""""
    s = table()
    shelf(s, "student", "S01", None, "S02")
    put_store_top(s, "student", "S05")
    flow.stock(s, [])
    assert s["store"]["student"]["shelf"] == ["S05", "S01", "S02"]


def test_full_shelf_discards_its_end_card():
    """2. "If there are no spots left on the shelves ... discard the card at the end of the shelf, slide the remaining
    cards over, and fill the first slot with a new card from the deck.\""""
    s = table()
    shelf(s, "faculty", "F01", "F04", "F07")
    put_store_top(s, "faculty", "F25")
    flow.stock(s, [])
    assert s["store"]["faculty"]["shelf"] == ["F25", "F01", "F04"]
    assert s["store"]["faculty"]["discard"][-1] == "F07"


def test_store_deck_runs_out_reshuffles_its_discard():
    """2. "If the Faculty or Student deck ever run out, reshuffle the respective discard piles.\""""
    s = table()
    st = s["store"]["student"]
    s["box"] += st["deck"]
    st["deck"] = []
    shelf(s, "student", None, None, None)
    st["discard"] = [s["box"].pop(s["box"].index(c)) for c in ("S01", "S02", "S03", "S04")]
    ev = []
    flow.stock(s, ev)
    assert sorted(st["shelf"] + st["deck"]) == ["S01", "S02", "S03", "S04"] and st["discard"] == []
    assert any(e.data.get("kind") == "store_reshuffle" for e in ev)


def put_store_top(s, which, cid):
    from tests.engines.miskatonic_helpers import take
    take(s, cid)
    s["store"][which]["deck"].append(cid)


def test_event_resolves_then_shelf_is_discarded_and_refilled_and_event_leaves():
    """Event Cards: "When an event card appears on the School Store shelf, read its effect ... After the event
    happens, all cards on the shelf are discarded and 3 new cards are put out. Events that don't go to Lockers are
    removed from the game." SE1 Sleepover: every player regains 2 Sanity."""
    s = table(events=True)
    for seat in s["seats"]:
        seat["sanity"] = 10
    shelf(s, "student", None, "S01", "S02")
    put_store_top(s, "student", "SE1")
    ev = []
    flow.stock(s, ev)
    st = s["store"]["student"]
    assert [x["sanity"] for x in s["seats"]] == [12, 12, 12]
    assert "SE1" in s["removed"] and "SE1" not in st["shelf"]
    assert {"S01", "S02"} <= set(st["discard"]) and all(st["shelf"])
    assert "Sleepover" in texts(ev)


def test_locker_event_goes_to_current_players_locker_and_produces_from_next_turn():
    """Event Cards: "Some events go to a player's Locker as well"; The Locker: "Locker cards that produce Nightmare
    or Friendship points don't work the turn they are purchased." SE4 Secret Diary: +1 Friendship every Tuition."""
    s = table(events=True)
    shelf(s, "student", None, None, None)
    put_store_top(s, "student", "SE4")
    flow.stock(s, [])
    assert s["seats"][0]["locker"] == ["SE4"]
    s["seats"][0]["hand"] = []
    assert flow.points(s) == [0, 0]  # not this turn
    s["locker_new"] = []
    assert flow.points(s) == [1, 0]  # later turns


def test_faculty_event_current_player_loses():
    """Event Cards: "some events can be good, others not so much". FE2 Blood Moon: the player whose turn it is loses
    2 Sanity."""
    s = table(events=True)
    shelf(s, "faculty", None, None, None)
    put_store_top(s, "faculty", "FE2")
    flow.stock(s, [])
    assert [x["sanity"] for x in s["seats"]] == [18, 20, 20] and "FE2" in s["removed"]


# --- 3. Pay your Tuition ------------------------------------------------------------------------------------------

def test_dual_card_produces_one_or_the_other():
    """3. "Some cards have numbers in both the Friendship and Nightmare Point areas; these cards only produce one or
    the other (your choice).\""""
    s = rich_turn(hand=("S40", "C1AW1"), deck=("C1NP1", "C1NP2", "C1NP3"))
    go(s)
    assert s["dec"]["kind"] == "produce" and option_ids(s) == ["friendship", "nightmare"]
    pick(s, "nightmare")
    assert s["pts"] == [6, 1]  # Ada 3 + three Natalie; Asenath's Nightmare only


def test_one_student_into_own_purchase_pile():
    """3. "you may purchase one (and ONLY one) student from the School Store. Put that student into your Purchase
    pile.\""""
    s = rich_turn(hand=("S40", "S41", "F37"))
    shelf(s, "faculty", "F38", None, None)
    go(s)
    assert s["dec"]["kind"] == "student" and "buy:S01" in option_ids(s) and "transfer" in option_ids(s)
    f = s["pts"][0]
    pick(s, "buy:S01")
    assert s["seats"][0]["purchase"] == ["S01"] and s["pts"][0] == f - 3 and s["pts"][1] == 2
    assert s["dec"]["kind"] == "faculty" and "S01" not in s["store"]["student"]["shelf"]


def test_transfer_when_none_is_bought():
    """3. "If you can't (or choose not to) buy a student from the School Store, then add a Transfer Student to your
    Purchase pile.\""""
    s = rich_turn()
    go(s)
    pick(s, "transfer")
    assert [c[0] for c in s["seats"][0]["purchase"]] == ["T"] and len(s["transfers"]) == 17


def test_faculty_goes_to_the_left_players_purchase_pile():
    """3. "Then you may purchase one (and ONLY one) Faculty ... Put the Faculty you purchase into the Purchase pile
    of the player to your left.\""""
    s = rich_turn(hand=("S40", "F37"))  # Groundskeeper Wilbur produces 2 Nightmare
    shelf(s, "faculty", "F38", None, None)  # another Wilbur, costs 2 Nightmare
    go(s)
    pick(s, "transfer")
    assert "buy:F38" in option_ids(s) and "substitute" in option_ids(s)
    pick(s, "buy:F38")
    assert s["seats"][1]["purchase"] == ["F38"]


def test_substitute_and_left_skips_the_eliminated():
    """3. "If you can't (or choose not to) buy a Faculty, add a Substitute to the Purchase pile of the player to your
    left." With seat 1 out of the game, the player to seat 0's left is seat 2."""
    s = rich_turn(hand=("S40", "F37"))
    shelf(s, "faculty", "F38", None, None)
    flow.lose(s, [1], 20, [], "test")
    go(s)
    pick(s, "transfer")
    pick(s, "substitute")
    assert [c[0] for c in s["seats"][2]["purchase"]] == ["U"] and s["seats"][1]["purchase"] == []


def test_aggressive_faculty_goes_to_the_left_classroom_for_class_at_once():
    """Side note "Aggressive": "send it straight to the Classroom of the player it was purchased for, where they must
    deal with it immediately (have Class and Class dismissed.)" Seat 1 draws one BFF (Natalie, Girl Power 1 < Health
    2) and loses Damage 1; Nurse Shantak ends in seat 1's Discard pile; seat 0 goes on."""
    s = rich_turn(hand=("S40", "F37", "F38"))  # 4 Nightmare
    shelf(s, "faculty", "F10", None, None)
    clear_hand_and_deck(s, 1)
    put(s, 1, "deck", "C2NP1")
    go(s)
    pick(s, "transfer")
    ev = pick(s, "buy:F10")
    assert s["seats"][1]["sanity"] == 19 and "F10" in s["seats"][1]["discard"]
    assert "C2NP1" in s["seats"][1]["discard"] and s["seats"][1]["classroom"] == []
    assert "Aggressive" in texts(ev)
    assert s["cur"] == 0 and s["phase"] == "done"  # seat 0's turn went on to its end


def test_aggressive_class_choices_belong_to_the_left_player():
    """Only the player whose turn it is is pending, except for choices the rules give another player:
    seat 1 distributes its own Girl Power in the Class an Aggressive Faculty forces on it."""
    s = rich_turn(hand=("S40", "F37", "F38"))
    shelf(s, "faculty", "F10", None, None)
    clear_hand_and_deck(s, 1)
    put(s, 1, "deck", "S16")  # Hannah Bishop, Girl Power 3
    go(s)
    pick(s, "transfer")
    pick(s, "buy:F10")
    assert E.is_step_complete(s) and E.pending(s) == []
    E.resolve(s)
    assert E.pending(s) == [1] and s["dec"]["kind"] == "gp" and "defeat:F10" in option_ids(s)
    assert E.prompt(s, 0) is None
    pick(s, "defeat:F10")
    pick(s, "done") if s["dec"] and s["dec"]["kind"] == "gp" else None
    assert s["seats"][1]["sanity"] == 20 and "F10" in s["seats"][1]["discard"]


def test_friendly_student_joins_this_turns_class_without_counting_for_draws():
    """Side note "Friendly": "send it straight to your Classroom where they are used in that turn's class. This
    student does not count against the number of cards you draw". Wilma (Girl Power 2) and one drawn BFF (Natalie,
    Girl Power 1) defeat Coach Dagon (Health 3)."""
    s = rich_turn(hand=("S40", "S41", "F01"), deck=("C1SG1", "C1NP1", "C1NP2", "C1NP3"))
    shelf(s, "student", "S22", None, None)
    go(s)
    pick(s, "buy:S22")  # nothing to spend on Faculty: a Substitute goes left without asking; Pre-Class has nothing
    assert s["seats"][0]["classroom"][0] == "S22" and "F01" in s["seats"][0]["classroom"]
    assert s["dec"]["kind"] == "gp" and s["cls"]["gp"] == 2 + 1 and len(s["cls"]["bffs"]) == 1
    pick(s, "defeat:F01")
    assert "F01" in s["seats"][0]["discard"] and s["seats"][0]["sanity"] == 20


def test_locker_student_goes_to_the_locker_and_produces_next_turn():
    """The Locker: "These cards, when purchased, are moved to the right of the player's House Board ... Locker cards
    that produce Nightmare or Friendship points don't work the turn they are purchased." Judith: +1 Friendship."""
    s = rich_turn(hand=("S40", "S41"))
    shelf(s, "student", "S46", None, None)
    go(s)
    pick(s, "buy:S46")
    assert s["seats"][0]["locker"] == ["S46"] and "S46" in s["locker_new"]
    s["seats"][0]["hand"] = []
    s["locker_new"] = []  # a later turn
    assert flow.points(s) == [1, 0]


# --- 4. Pre-Class ----------------------------------------------------------------------------------------------

def test_preclass_ability_then_faculty_to_classroom_students_to_discard():
    """4. "You may choose to use any Pre-Class abilities of the cards in your hand. After you use your Pre-Class
    abilities, move all Faculty members in your hand to the Classroom, then move all Student cards in your hand to
    your Discard pile." S34 Lydia Curwen: Pre-Class, regain 2 Sanity."""
    s = rich_turn(hand=("S40", "S34", "F37"), deck=("C1NP1", "C1NP2"))
    s["seats"][0]["sanity"] = 15
    shelf(s, "faculty", "F38", None, None)
    go(s)
    pick(s, "transfer")
    pick(s, "substitute")
    assert s["dec"]["kind"] == "preclass" and option_ids(s) == ["use:S34", "done"]
    ev = pick(s, "use:S34")
    regain = [e.data for e in ev if e.data.get("kind") == "sanity"][0]
    assert regain["change"] == 2 and regain["sanity"] == 17  # (Class follows at once: Wilbur may then hurt)
    # A card's Pre-Class ability is used once: with nothing else to use, "done" follows by itself.
    seat = s["seats"][0]
    assert seat["hand"] == [] and "F37" in seat["discard"] + seat["classroom"]  # in Class, or defeated already
    assert {"S40", "S34", "C1NP1", "C1NP2"} <= set(seat["discard"] + seat["deck"] + seat["classroom"])
    assert s["cls"] is not None and "F37" in seat["classroom"] or s["phase"] == "done"


def test_preclass_dismiss_keeps_a_faculty_out_of_the_classroom():
    """4. Pre-Class abilities "help you in your fight to stay sane": S37 Prudence Ward sends a Faculty from the hand
    to the Discard pile instead of the Classroom."""
    s = rich_turn(hand=("S40", "S37", "F01"), deck=("C1NP1", "C1NP2"))
    go(s)
    pick(s, "transfer")
    assert "dismiss:S37:F01" in option_ids(s)
    pick(s, "dismiss:S37:F01")
    assert "F01" in s["seats"][0]["discard"] and "F01" not in s["seats"][0]["classroom"]
    assert s["seats"][0]["sanity"] == 20
