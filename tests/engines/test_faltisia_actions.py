"""Off-campus actions, the licence, Meditation, payments and card effects (Student Registration Board,
Cards Overview, Action Cards)."""

from __future__ import annotations

from games.engines.faltisia.effects import gain_attr, license_ok

from tests.engines.faltisia_helpers import E, at_action, at_lecture, finish, ids, picks


def _skip_lecture(seat_setup, *choice, players=2, colour=0):
    s = at_lecture(players)
    s["lecture"] = colour
    seat_setup(s["seats"][0])
    picks(s, 0, "skip", *choice)
    for i in range(1, players):
        picks(s, i, "attend")
    return s


def test_study_unlicensed_and_licensed():
    """Study: "take one Rainbow attribute token ... If your character has a Provisional Maid's License, also
    take one attribute token of any color (non-Rainbow)." """
    s = _skip_lecture(lambda x: None, "study")
    finish(s)
    assert s["seats"][0]["tok"] == [1, 1, 1, 1, 1]
    s = at_lecture(2)
    s["seats"][0]["lic"] = True
    picks(s, 0, "skip")
    assert "study" not in ids(s, 0) and "study:blue" in ids(s, 0)
    picks(s, 0, "study:blue")
    picks(s, 1, "attend")
    finish(s)
    assert s["seats"][0]["tok"] == [1, 2, 1, 1, 1]


def test_part_time_job_three_or_five_sterlings():
    """Part-Time Job: "take three Sterlings ... If your character has a Provisional Maid's License, take five
    Sterlings from the supply instead." """
    s = _skip_lecture(lambda x: x.update(lic=True), "job")
    finish(s)
    assert s["seats"][0]["ster"] == 8


def test_shopping_buys_an_item_face_up_and_resolves_instant_effects():
    """Shopping: "spend Sterlings to purchase one Item card ... Place the purchased card face up in your
    Notebook and resolve any instant effects." (S009 Apron of Diligence: cost 2, +2 Rainbow.)"""
    s = at_lecture(2)
    s["store"] = ["S009", "S010"]
    s["seats"][0]["ster"] = 3
    picks(s, 0, "skip")
    assert "shop:S009" in ids(s, 0) and "shop:S010" not in ids(s, 0)  # 6 Sterlings: not affordable
    picks(s, 0, "shop:S009", "fb:job")
    picks(s, 1, "attend")
    finish(s)
    me = s["seats"][0]
    assert me["items"] == ["S009"] and me["ster"] == 1 and me["tok"][4] == 2 and s["store"] == ["S010"]


def test_item_ongoing_effect_on_part_time_job():
    """Item cards: ongoing effects resolve at the time specified (S002 Feather Duster: +1 Sterling per job)."""
    s = _skip_lecture(lambda x: x.update(items=["S002"], ongoing=["S002"]), "job")
    finish(s)
    assert s["seats"][0]["ster"] == 7


def test_maid_training_three_tokens_per_point_rainbow_wild_with_payment_pick():
    """Maid Training 1: "For every three tokens of a single color you spend, increase the corresponding score by
    one." Rainbow tokens "may be used in place of any color". Ambiguous payment is a pick, default first
    (exact colours first)."""
    s = _skip_lecture(lambda x: x.update(tok=[2, 0, 0, 0, 2]), "train", "raise:red")
    assert ids(s, 0) == ["rb:1", "rb:2"]  # 2 red + 1 Rainbow (default) or 1 red + 2 Rainbow
    picks(s, 0, "rb:2", "done")
    before = s["seats"][0]["attr"][0]
    finish(s)
    me = s["seats"][0]
    assert me["tok"] == [1, 0, 0, 0, 0] and me["attr"][0] == before + 1


def test_maid_training_repeatable_and_plan_uses_projected_tokens():
    """Maid Training 1: "You may increase your character's attribute scores multiple times as long as you have
    the necessary tokens." """
    s = _skip_lecture(lambda x: x.update(tok=[6, 3, 0, 0, 0]), "train", "raise:red", "raise:red")
    assert "raise:red" not in ids(s, 0) and "raise:blue" in ids(s, 0)
    picks(s, 0, "raise:blue", "done")
    a = list(s["seats"][0]["attr"])
    finish(s)
    assert s["seats"][0]["attr"] == [a[0] + 2, a[1] + 1, a[2], a[3]] and s["seats"][0]["tok"] == [0] * 5


def test_training_reaches_the_license_in_either_order():
    """Maid Training: "perform the following two steps in any order: 1) Increase Attributes, and 2) Apply for
    Provisional Maid's License." Licence (JA): all four attributes 7+ or any one 12+; on it the character flips
    (3 MP), the player takes 2 Sterlings and the Maid Ability card goes to the hand."""
    s = _skip_lecture(lambda x: x.update(attr=[7, 7, 7, 6], tok=[0, 0, 0, 3, 0]), "train")
    assert "license" not in ids(s, 0)
    picks(s, 0, "raise:green")
    assert "license" in ids(s, 0)
    picks(s, 0, "license", "done")
    me = s["seats"][0]
    ability = me["ability"]
    hand = len(me["hand"])
    finish(s)
    assert me["lic"] and me["ster"] == 5 and me["attr"] == [7, 7, 7, 7]
    assert me["ability"] is None and ability in me["hand"] and len(me["hand"]) == hand + 1
    assert E.view(s, None)["seats"][0]["licensed"] is True


def test_license_rule_any_one_attribute_twelve():
    """JA instructions: "ALL 7, or one at 12" gives the Provisional Maid's License."""
    assert license_ok([12, 1, 1, 1]) and license_ok([7, 7, 7, 7])
    assert not license_ok([11, 7, 7, 6]) and not license_ok([7, 7, 7, 6])
    s = _skip_lecture(lambda x: x.update(attr=[12, 1, 1, 1], tok=[0, 0, 0, 0, 0]), "train")
    assert ids(s, 0) == ["license", "done"]


def test_training_not_offered_when_nothing_can_be_done():
    """Maid Training needs three tokens of a colour (or the licence): otherwise it is not offered."""
    s = at_lecture(2)
    s["seats"][0]["tok"] = [2, 2, 2, 0, 0]
    picks(s, 0, "skip")
    assert "train" not in ids(s, 0)


def test_attributes_capped_at_fifteen_and_never_below_one():
    """Attribute Tracks: "Attribute scores cannot go higher than fifteen or lower than one." """
    seat = {"attr": [14, 1, 15, 5]}
    gain_attr(seat, 0, 3)
    gain_attr(seat, 2, 1)
    gain_attr(seat, 1, -5)
    assert seat["attr"] == [15, 1, 15, 5]
    s = _skip_lecture(lambda x: x.update(attr=[15, 2, 2, 2], tok=[3, 0, 0, 3, 0], lic=True), "train")
    assert "raise:green" in ids(s, 0)
    assert "raise:red" not in ids(s, 0)


def test_meditation_at_any_decision_keeps_the_decision_open():
    """Meditation: "at any point during the game, you may return three attribute tokens of a single color to the
    supply in exchange for one attribute token of any color (non-Rainbow)." """
    s = at_lecture(2)
    me = s["seats"][0]
    me["tok"] = [3, 0, 0, 0, 3]
    p0 = E.prompt(s, 0)
    assert {"med:red", "med:rainbow"} <= {o.id for o in p0.options}
    picks(s, 0, "med:rainbow")
    p1 = E.prompt(s, 0)
    assert p1.id != p0.id and [o.id for o in p1.options] == ["medto:red", "medto:blue", "medto:yellow", "medto:green"]
    picks(s, 0, "medto:blue")
    p2 = E.prompt(s, 0)
    assert me["tok"] == [3, 1, 0, 0, 0] and p2.id not in (p0.id, p1.id)
    assert "attend" in [o.id for o in p2.options] and me["dec"]["st"] == "lec"
    picks(s, 0, "med:red", "medto:green")
    assert me["tok"] == [0, 1, 0, 1, 0]


def test_organization_gives_tokens_each_time_you_attend_its_colour():
    """Organization: "these cards give you attribute tokens each time you attend a Lecture of a specific
    color." (1101: red lecture -> +1 red token.)"""
    s = at_lecture(2)
    s["lecture"] = 0
    me = s["seats"][0]
    me["up"], me["ongoing"] = ["1101"], ["1101"]
    picks(s, 0, "attend")
    picks(s, 1, "attend")
    finish(s)
    assert me["tok"][0] == 2
    assert s["seats"][1]["tok"][0] == 1


def test_focus_2201_colour_choice():
    """Solo rules name 2201-2204 as cards that "award attribute tokens" of a colour the player chooses: a pick."""
    s = at_action(2)
    s["seats"][0]["hand"][0] = "2201"
    picks(s, 0, "play:2201", "up")
    assert ids(s, 0) == ["col:red", "col:blue", "col:yellow", "col:green"]
    picks(s, 0, "col:green")
    picks(s, 1, "play:" + s["seats"][1]["hand"][0], "down", "job")
    finish(s)
    assert s["seats"][0]["tok"] == [1, 1, 1, 4, 0] and s["seats"][0]["up"] == ["2201"]


def test_remedial_lecture_for_all_helps_the_player_more():
    """Remedial: "these cards force all students to attend an unskippable Lecture. Although all students benefit
    from the Lecture, playing these cards always helps you more" (1601: red, +2 for you, +1 for others)."""
    s = at_action(3)
    s["seats"][0]["hand"][0] = "1601"
    a = [x["attr"][0] for x in s["seats"]]
    picks(s, 0, "play:1601", "up")
    for i in (1, 2):
        picks(s, i, "play:" + s["seats"][i]["hand"][0], "down", "job")
    finish(s)
    assert [x["attr"][0] for x in s["seats"]] == [a[0] + 2, a[1] + 1, a[2] + 1]


def test_card_cost_payment_pick_when_rainbow_use_is_a_choice():
    """Cost: "you must spend the Sterlings and/or attribute tokens depicted"; Rainbow is wild. 1402 costs 2 blue
    (Intelligence 5 needed): with 2 blue and 1 Rainbow the player picks how many Rainbow to use."""
    s = at_action(2)
    me = s["seats"][0]
    me["hand"][0] = "1402"
    me["attr"] = [1, 5, 1, 1]
    me["tok"] = [0, 2, 0, 0, 1]
    picks(s, 0, "play:1402", "up")
    assert ids(s, 0) == ["rb:0", "rb:1"]
    picks(s, 0, "rb:1")
    picks(s, 1, "play:" + s["seats"][1]["hand"][0], "down", "job")
    finish(s)
    assert me["tok"] == [0, 1, 0, 0, 0] and me["up"] == ["1402"]


def test_default_payment_spends_exact_colours_first():
    """Payment default (a recorded decision): exact colours first, Rainbow only for the shortfall."""
    s = at_action(2)
    me = s["seats"][0]
    me["hand"][0] = "1402"
    me["attr"] = [1, 5, 1, 1]
    me["tok"] = [0, 2, 0, 0, 1]
    picks(s, 0, "play:1402", "up")
    assert E.default_option(s, 0) == "rb:0"
