"""Miskatonic: step 5 Class!, step 6 Class dismissed, the Mad Cackle, elimination and the win, every step as
written. Rulebook lines are quoted.

Card ids (cards.csv): F01 Coach Dagon (Health 3, Damage 2), F10 Nurse Shantak (Health 2, Damage 1), F16 Librarian
Yog (Survive: lose 1), F19 Madame Shudde (Survive: every player loses 1), F22 Chef Ghast (Defeat: regain 1), F25
Janitor Gug (Health 6, Damage 4), F28 Professor Mi-Go (Expel), F31 Counselor Nightgaunt (Expel, Health 2, Damage
2), F40 Music Teacher Zann (Defeat: every other player loses 1); S13 Mercy Dexter (BFF: regain 1), S16 Hannah Bishop
(Girl Power 3), S28 Martha Sawyer (Girl Power 1, BFF: +2 Girl Power), S31 Delia Armitage (Resolve 1, BFF: +2
Resolve), C1NP* Natalie Peaslee (Girl Power 1), C1SG* Sonia Greene (Resolve 1).
"""

from __future__ import annotations

from games.engines.miskatonic import flow

from tests.engines.miskatonic_helpers import (E, clear_hand_and_deck, go, option_ids, pick, put, table, texts)


def in_class(players=3, faculty=("F01",), deck=(), sanity=20):
    """Seat 0 at step 5 with ``faculty`` in its Classroom and ``deck`` (last drawn first)."""
    s = table(players)
    clear_hand_and_deck(s, 0)
    put(s, 0, "classroom", *faculty)
    put(s, 0, "deck", *deck)
    s["seats"][0]["sanity"] = sanity
    s["phase"] = "class"
    return s


def test_draw_one_card_per_faculty_students_are_bffs():
    """5. "Draw one card from your Deck for every Faculty member in your Classroom ... Students drawn are your BFFs
    and they go straight to your Classroom\""""
    s = in_class(faculty=("F01", "F25"), deck=("C1SG1", "C1NP1", "S16"))
    ev = go(s)
    assert s["cls"]["bffs"] == ["S16", "C1NP1"] and s["seats"][0]["deck"] == ["C1SG1"]
    assert {"S16", "C1NP1"} <= set(s["seats"][0]["classroom"])
    assert s["cls"]["gp"] == 3 + 1 and "Class for seat 1" in texts(ev)  # seats 1-based in what a person reads


def test_pet_teachers_go_to_any_players_discard():
    """5. "Faculty cards drawn are called Pet Teachers; you may put Pet Teachers into any player(s) discard pile\""""
    s = in_class(faculty=("F01",), deck=("F10",))
    go(s)
    assert s["dec"]["kind"] == "pet" and option_ids(s) == ["pet:0", "pet:1", "pet:2"]
    pick(s, "pet:2")
    assert s["seats"][2]["discard"] == ["F10"] and "F10" not in s["seats"][0]["classroom"]


def test_two_player_special_rule_2_pet_teachers_to_own_discard():
    """2-Player Game Special Rule #2: "In a 2-player game, Pet Teachers go into your own discard pile, not your
    opponent's.\""""
    s = in_class(players=2, faculty=("F01",), deck=("F10",))
    ev = go(s)
    assert "F10" in s["seats"][0]["discard"] and s["seats"][1]["discard"] == []
    assert any(e.data.get("kind") == "pet" and e.data["to"] == 0 for e in ev)


def test_girl_power_distribution_is_a_sequence_of_picks_and_defeats_go_to_discard():
    """5. "Distribute that power in any manner you choose to the Faculty Members in your Classroom. Any Faculty that
    takes Girl Power equal or greater than its health is defeated and moved to your discard pile." Hannah and
    Natalie (4 Girl Power) against Coach Dagon (Health 3) and Nurse Shantak (Health 2): one of them."""
    s = in_class(faculty=("F01", "F10"), deck=("C1NP1", "S16"))
    go(s)
    assert s["dec"]["kind"] == "gp" and set(option_ids(s)) == {"defeat:F01", "defeat:F10", "auto", "done"}
    pick(s, "defeat:F01")
    assert s["dec"] is None  # 1 Girl Power left fits nobody: "done" needs no asking, the Class ends
    assert "F01" in s["seats"][0]["discard"]
    assert s["seats"][0]["sanity"] == 19  # Shantak's Damage 1, no Resolve


def test_combining_power_of_two_students_on_one_faculty():
    """5. Note: "you can combine the Power of two Students to defeat one Faculty Member": Natalie (1) + Natalie (1)
    + Natalie (1) defeat Coach Dagon (Health 3)."""
    s = in_class(faculty=("F01", "F10", "U01"), deck=("C1NP1", "C1NP2", "C1NP3"))
    go(s)
    pick(s, "defeat:F01")
    assert "F01" in s["seats"][0]["discard"] and s["seats"][0]["sanity"] == 20 - 1 - 1


def test_sanity_loss_is_damage_minus_resolve():
    """5. "add up the damage on all remaining Faculty in your Classroom; you lose sanity points equal to that damage
    minus the Resolve total on all of your BFFs." Gug (Damage 4) against Sonia (Resolve 1): lose 3."""
    s = in_class(faculty=("F25",), deck=("C1SG1",))
    go(s)
    assert s["seats"][0]["sanity"] == 17


def test_resolve_above_damage_is_never_a_gain():
    """5. "you lose sanity points equal to that damage minus the Resolve" -- a loss, never a gain: Delia (Resolve 1,
    BFF +2) against Shantak (Damage 1) leaves Sanity where it was."""
    s = in_class(faculty=("F10",), deck=("S31",), sanity=15)
    go(s)
    assert s["seats"][0]["sanity"] == 15


def test_bff_ability_fires_when_drawn():
    """Side note "BFF Ability": "Student cards with BFF abilities are activated when a Student is drawn as a BFF."
    Mercy Dexter: regain 1 Sanity; Martha Sawyer: +2 Girl Power."""
    s = in_class(faculty=("F25", "U01"), deck=("S28", "S13"), sanity=10)
    ev = go(s)
    assert s["cls"]["gp"] == 1 + 1 + 2 and "BFF Ability of Mercy Dexter" in texts(ev)
    assert any(e.data.get("kind") == "sanity" and e.data["change"] == 1 for e in ev)


def test_bff_removed_first_has_its_ability_cancelled():
    """Side note "BFF Ability": "If the Student is removed from the classroom before its effect resolves, the effect
    is canceled." Professor Mi-Go (Expel) sends the first BFF, Martha Sawyer, to the Discard: no +2 Girl Power."""
    s = in_class(faculty=("F28",), deck=("S28",))
    ev = go(s)
    assert "S28" in s["seats"][0]["discard"] and "S28" not in s["seats"][0]["classroom"]
    assert "BFF Ability of Martha" not in texts(ev) and "expels" in texts(ev)
    assert s["seats"][0]["sanity"] == 18  # Mi-Go's Damage 2 was not fought


def test_defeat_abilities_happen_on_defeat():
    """5. "If any of these Faculty have "Defeat" abilities, they happen now." Chef Ghast: you regain 1; Music
    Teacher Zann: every other player loses 1."""
    s = in_class(faculty=("F22", "F40"), deck=("S16", "S17"), sanity=15)
    go(s)
    pick(s, "defeat:F22")
    pick(s, "defeat:F40")
    pick(s, "done") if s["dec"] is not None and s["dec"]["seat"] == 0 else None
    assert s["seats"][0]["sanity"] == 16 and [x["sanity"] for x in s["seats"][1:]] == [19, 19]


def test_survive_abilities_of_remaining_faculty():
    """5. ""Survive" abilities on any Faculty that are still in your Classroom at this point happen now." Librarian
    Yog: lose 1 more; Madame Shudde: every player loses 1."""
    s = in_class(faculty=("F16", "F19"), deck=())
    go(s)
    assert s["seats"][0]["sanity"] == 20 - (3 + 2) - 1 - 1
    assert [x["sanity"] for x in s["seats"][1:]] == [19, 19]


def test_auto_distribution_defeats_the_most_faculty():
    """The routine pick auto-distributes Girl Power to defeat the most Faculty: 4 Girl Power against a Substitute
    (Health 2), Shantak (Health 2) and Gug (Health 6, Damage 4) defeats the first two; Gug's 4 Damage - 1 Resolve
    hurts."""
    s = in_class(faculty=("U01", "F10", "F25"), deck=("C1NP1", "S16", "C1SG1"))
    ev = go(s)
    assert E.standing_order_pick(s, 0, "auto-girl-power") == "auto"
    ev = pick(s, "auto")
    assert sorted(e.data["card"] for e in ev if e.data.get("kind") == "defeat") == ["F10", "U01"]
    assert s["seats"][0]["sanity"] == 20 - (4 - 1)


def test_class_dismissed_moves_the_classroom_to_discard():
    """6. "Move cards in the classroom to your discard pile to end your turn. The next player takes a turn.\""""
    s = in_class(faculty=("F25",), deck=("C1SG1",))
    go(s)
    assert s["seats"][0]["classroom"] == [] and {"F25", "C1SG1"} <= set(s["seats"][0]["discard"])
    assert E.is_step_complete(s)
    E.resolve(s)
    assert s["cur"] == 1 and E.pending(s) in ([1], [])


# --- The Mad Cackle, elimination, the win --------------------------------------------------------------------

def test_mad_cackle_when_crossing_a_colour():
    """Side note "The Mad Cackle": "The Sanity tracker on the house board has 4 different colors. Any turn you move
    your sanity tracker from one color to another, you must laugh/cackle\""""
    s = table()
    s["seats"][0]["sanity"] = 16
    ev = []
    flow.lose(s, [0], 1, ev, "test")
    assert [e.data["to"] for e in ev if e.data.get("kind") == "cackle"] == ["yellow"]
    ev = []
    flow.lose(s, [0], 1, ev, "test")
    assert not any(e.data.get("kind") == "cackle" for e in ev)
    ev = []
    flow.gain(s, 0, 3, ev, "test")
    assert [e.data["to"] for e in ev if e.data.get("kind") == "cackle"] == ["green"]


def test_sanity_never_above_20():
    """House Board A: "Each player starts the game with a token on the 20 of their Sanity Tracker" (the top)."""
    s = table()
    s["seats"][0]["sanity"] = 19
    flow.gain(s, 0, 3, [], "test")
    assert s["seats"][0]["sanity"] == 20


def test_elimination_at_zero_keeps_the_seat_and_removes_its_cards():
    """Game End: "When a player loses their last point of Sanity, the player is eliminated from the game." The seat
    stays (a spectator, never asked again); its cards leave play (docs/rules-decisions/miskatonic.md)."""
    s = in_class(faculty=("F25",), deck=("C1NP1",), sanity=2)
    ev = go(s)
    seat = s["seats"][0]
    assert seat["sanity"] == 0 and seat["out"] is not None
    assert all(seat[p] == [] for p in ("deck", "hand", "purchase", "discard", "classroom", "locker"))
    assert {"F25", "C1NP1"} <= set(s["removed"]) and "eliminated" in texts(ev)
    E.resolve(s)
    assert s["cur"] == 1
    while not E.is_over(s) and s["cur"] != 0:
        if E.is_step_complete(s):
            E.resolve(s)
        else:
            seat_now = E.pending(s)[0]
            assert seat_now != 0
            E.apply(s, seat_now, E.default_option(s, seat_now))
        if s["round"] > 3:
            break
    assert E.prompt(s, 0) is None


def test_last_player_with_sanity_wins_and_ranks_follow_elimination_order():
    """Game End: "The last player with any Sanity left wins!"; "The player who resists going insane ... the longest
    wins" -- so the result ranks by elimination order."""
    s = table(players=4)
    flow.lose(s, [2], 20, [], "test")
    flow.lose(s, [1], 20, [], "test")
    assert not s["over"]
    flow.lose(s, [3], 20, [], "test")
    r = E.result(s)
    assert s["over"] and r.ranks == (1, 3, 4, 2) and r.scores == (3, 1, 0, 2)


def test_players_eliminated_by_one_effect_share_their_place():
    """Game End read for a simultaneous loss: Madame Shudde's "every player loses 1" takes two players to 0 at once;
    they tie (nobody resisted longer)."""
    s = table(players=3)
    s["seats"][1]["sanity"] = s["seats"][2]["sanity"] = 1
    flow.lose(s, [0, 1, 2], 1, [], "test")
    assert s["over"] and E.result(s).ranks == (1, 2, 2)
    s = table(players=2)
    s["seats"][0]["sanity"] = s["seats"][1]["sanity"] = 1
    flow.lose(s, [0, 1], 1, [], "test")
    assert E.result(s).ranks == (1, 1)
