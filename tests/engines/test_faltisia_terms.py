"""Terms 1-7: the Lecture and Action phases, ordered resolution and re-prompts (rulebook "[B] Terms 1-7")."""

from __future__ import annotations

import json

from games.engines.faltisia.flow import skip_order_key

from tests.engines.faltisia_helpers import E, at, at_action, at_lecture, drive, finish, ids, new, picks


def _lecture(players=2, seed=0, colour=0):
    s = at_lecture(players, seed)
    s["lecture"] = colour
    return s


def test_attend_raises_the_lecture_attribute():
    """Lecture Phase A: "If you chose to attend the Lecture, increase your corresponding attribute score by one." """
    s = _lecture(colour=1)
    before = [list(x["attr"]) for x in s["seats"]]
    picks(s, 0, "attend")
    picks(s, 1, "attend")
    finish(s)
    assert [x["attr"][1] for x in s["seats"]] == [b[1] + 1 for b in before]
    assert s["phase"] == "action"


def test_skip_gives_one_off_campus_action_and_no_attribute():
    """Lecture Phase B: "If you chose to skip the Lecture, do not perform step A. Instead, you may perform one
    Off-Campus action." Part-Time Job: "take three Sterlings"."""
    s = _lecture(colour=2)
    before = list(s["seats"][0]["attr"])
    picks(s, 0, "skip", "job")
    picks(s, 1, "attend")
    finish(s)
    assert s["seats"][0]["attr"] == before and s["seats"][0]["ster"] == 6


def test_skippers_act_in_rulebook_order_shown_by_shopping_contention():
    """Skipping a Lecture: players compare the highest numbered face-up action card in their Notebook, lowest
    first; "If multiple players don't have face up action cards ... use the card numbers from their character
    cards"; players with face-up cards go afterwards."""
    s = _lecture(players=3, seed=5)
    seats = s["seats"]
    seats[0]["up"] = ["1205"]
    seats[1]["char"], seats[2]["char"] = "C0005", "C0002"
    for x in seats:
        x["ster"] = 10
    item = s["store"][0]
    assert sorted(range(3), key=lambda i: skip_order_key(s, i)) == [2, 1, 0]
    for i in range(3):
        picks(s, i, "skip", f"shop:{item}", "fb:job")
    finish(s)
    assert seats[2]["items"] == [item] and seats[1]["items"] == [] and seats[0]["items"] == []
    assert seats[1]["ster"] == 13 and seats[0]["ster"] == 13


def test_x_space_has_no_lecture_and_no_skipping():
    """Lecture Phase note: "If a Lecture phase space contains an X, proceed immediately to the Action phase
    without holding a Lecture. As no Lecture is held, you may not choose to skip." (Round 2 X at terms 4, 7.)"""
    s = drive(new(2, seed=1), at("action", 2, 3))
    s = drive(s, lambda st: st["term"] == 4)
    assert s["phase"] == "action" and s["lecture"] is None
    assert all(i.startswith(("play:", "med:")) for i in ids(s, 0))


def test_every_player_plays_one_card_face_down_at_once():
    """Action Phase 1: "Choose an action card from your hand and place it face down in your Notebook. Once all
    players have played a card, proceed to the next step." Playing is a simultaneous pick."""
    s = at_action(2)
    assert E.pending(s) == [0, 1]
    assert ids(s, 0)[:7] == ["play:" + c for c in s["seats"][0]["hand"]]
    hand = list(s["seats"][1]["hand"])
    picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
    assert E.pending(s) == [1] and not E.is_step_complete(s)
    picks(s, 1, "play:" + hand[2], "down", "study")
    finish(s)
    assert s["seats"][1]["down"] == [hand[2]] and len(s["seats"][1]["hand"]) == 6
    assert s["seats"][1]["tok"][4] == 1  # Study: one Rainbow token


def test_unpayable_or_unmet_card_offers_only_face_down():
    """Action Phase 2: "If you are unable to pay your played card's cost or meet the card's condition, you must
    leave the card face down." Assignment 1401 needs Strength 4 and costs 1 red."""
    s = at_action(2)
    me = s["seats"][0]
    me["hand"][0] = "1401"
    me["attr"] = [2, 2, 2, 2]
    picks(s, 0, "play:1401")
    assert "up" not in ids(s, 0) and "down" in ids(s, 0)
    s = at_action(2)
    me = s["seats"][0]
    me["hand"][0] = "1401"
    me["attr"] = [4, 2, 1, 1]
    me["tok"] = [0, 1, 1, 1, 0]
    picks(s, 0, "play:1401")
    assert "up" not in ids(s, 0)  # condition met, cost not payable
    me["tok"][0] = 1
    s["seats"][0]["n"] += 1
    assert "up" in ids(s, 0)


def test_face_down_actions_in_card_number_order_before_face_up_effects():
    """Face down: "they announce the card number of their played card and perform their Off-Campus actions in
    order from lowest to highest." Face up: "From lowest to highest card number ... resolve their card's
    effects"; cost paid first. Decision: all face-down actions go before the face-up effects."""
    s = at_action(3, seed=2)
    seats = s["seats"]
    seats[0]["hand"][0], seats[1]["hand"][0], seats[2]["hand"][0] = "1601", "1502", "1101"
    for x in seats:
        x["ster"] = 10
    item = s["store"][0]
    picks(s, 0, "play:1601", "up")
    picks(s, 1, "play:1502", "down", f"shop:{item}", "fb:job")
    picks(s, 2, "play:1101", "down", f"shop:{item}", "fb:job")
    texts = [e.text for e in finish(s)]
    assert seats[2]["items"] == [item] and seats[1]["items"] == []  # 1101 before 1502
    i_job = next(i for i, t in enumerate(texts) if "Part-Time Job" in t)
    i_up = next(i for i, t in enumerate(texts) if "Remedial Drill" in t)  # 1601, named
    assert i_job < i_up
    assert seats[0]["up"] == ["1601"]


def test_face_up_cards_resolve_lowest_number_first_paying_cost():
    """Face up: "From lowest to highest card number ... If your card has a cost, you must pay it before
    resolving its effects." """
    s = at_action(2)
    seats = s["seats"]
    seats[0]["hand"][0], seats[1]["hand"][0] = "1602", "1101"
    picks(s, 0, "play:1602", "up")
    picks(s, 1, "play:1101", "up")
    texts = [e.text for e in finish(s)]
    # The log names the cards (1101 Library Committee, 1602 Remedial Lecture), not their numbers.
    assert (texts.index(next(t for t in texts if "Library Committee" in t))
            < texts.index(next(t for t in texts if "plays Remedial Lecture" in t)))
    assert seats[0]["ster"] == 2 and seats[1]["ster"] == 2  # both paid 1 Sterling


def test_reprompt_only_when_choice_and_fallback_became_illegal():
    """Ordered resolution must not cost a day per player: the off-campus action and a fallback are named in the
    same step; only when both became illegal (the items were bought by earlier players) is the seat asked again,
    in a new step with only that seat pending; resolution then continues where it stopped."""
    s = at_action(3, seed=7)
    seats = s["seats"]
    seats[0]["hand"][0], seats[1]["hand"][0], seats[2]["hand"][0] = "1101", "1502", "1601"
    s["store"] = ["S001", "S002", "S009"]
    for x in seats:
        x["ster"] = 20
    picks(s, 0, "play:1101", "down", "shop:S001", "fb:job")
    picks(s, 1, "play:1502", "down", "shop:S002", "fb:job")
    picks(s, 2, "play:1601", "down", "shop:S001", "fb:shop:S002")
    step = s["step"]
    finish(s)
    assert s["phase"] == "reprompt" and s["step"] == step + 1 and E.pending(s) == [0, 1, 2][2:]
    opts = ids(s, 2)
    assert "shop:S009" in opts and "shop:S001" not in opts and "shop:S002" not in opts
    assert not any(i.startswith("fb:") for i in opts)  # it resolves at once: no fallback needed
    picks(s, 2, "shop:S009")
    finish(s)
    assert seats[2]["items"] == ["S009"] and s["phase"] == "lecture" and s["term"] == 2


def test_illegal_pick_raises_and_changes_nothing():
    """Decision protocol: a pick must be among the seat's current options; otherwise IllegalPick, state unchanged."""
    import pytest
    from games.engines.base import IllegalPick
    s = at_action(2)
    before = json.dumps(s, sort_keys=True)
    for bad in ("attend", "play:9999", "", "down"):
        with pytest.raises(IllegalPick):
            E.apply(s, 0, bad)
    with pytest.raises(IllegalPick):
        E.apply(s, 5, "play:" + s["seats"][0]["hand"][0])
    assert json.dumps(s, sort_keys=True) == before
    picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
    with pytest.raises(IllegalPick):
        E.apply(s, 0, "job")  # seat 0 has nothing left to decide
    assert json.dumps(s, sort_keys=True) != before


def test_prompt_ids_change_with_every_pick_and_stale_prompts_are_refused():
    """DESIGN.md: "Each prompt has an id that changes whenever that seat's options change, so a stale pick ...
    is refused." """
    import pytest
    from games.engines.base import IllegalPick
    s = at_action(2)
    p1 = E.prompt(s, 0)
    E.apply_prompted(s, 0, p1.id, p1.options[0].id)
    p2 = E.prompt(s, 0)
    assert p2.id != p1.id
    with pytest.raises(IllegalPick):
        E.apply_prompted(s, 0, p1.id, "down")
    seen = {p1.id, p2.id}
    E.apply_prompted(s, 0, p2.id, "down")
    assert E.prompt(s, 0).id not in seen


def test_standing_order_attend_all():
    """Standing orders: "attend-all" answers attend/skip lecture decisions and nothing else."""
    s = at_lecture(2)
    assert [o.id for o in E.standing_orders()] == ["attend-all"]
    assert E.standing_order_pick(s, 0, "attend-all") == "attend"
    picks(s, 0, "attend")
    assert E.standing_order_pick(s, 0, "attend-all") is None
    assert E.standing_order_pick(at_action(2), 0, "attend-all") is None
