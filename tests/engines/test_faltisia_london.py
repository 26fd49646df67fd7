"""The Battle for London expansion, option {"expansion": "battle_for_london"}.

Each test quotes the lines of shared/rules/faltisia-rulebook-en.txt ("EN <line>") it pins.
Scenarios start from a real game driven to a point, then shape one seat's board.
"""

from __future__ import annotations

import json

import pytest

from games.engines.base import IllegalPick
from games.engines.faltisia import london
from games.engines.faltisia.cards import CARDS
from games.engines.faltisia.scoring import breakdown

from tests.engines.faltisia_helpers import E, at, calm, drive, finish, ids, picks

BFL = {"expansion": "battle_for_london"}


def new_bfl(players=2, seed=0, **more):
    return E.new_game(players=players, options={**BFL, **more}, seed=seed)


def at_bfl(phase="action", players=2, seed=0, rnd=1, term=1):
    return drive(new_bfl(players, seed), at(phase, rnd, term))


def on_route(s, seat, route, pos=0, **attrs):
    """Give a seat the licence and a marker ``pos`` moves down ``route``, taking the tokens it passed."""
    me = s["seats"][seat]
    me["lic"] = True
    pk = me["bfl"]
    pk["route"], pk["pos"] = route, pos
    for k in range(min(pos, 4)):
        pk["tokens"].append(s["london"]["spaces"][route][k])
        s["london"]["spaces"][route][k] = None
    pk["controls"] = max(0, pos - 2)
    for name, v in attrs.items():
        me["attr"][("strength", "intelligence", "beauty", "purity").index(name)] = v
    return me


def put_token(s, route, index, token):
    """Swap ``token`` onto a route space (token conservation holds: it trades places with what was there)."""
    spaces = s["london"]["spaces"]
    where = next((r, k) for r, sp in spaces.items() for k, t in enumerate(sp) if t == token)
    spaces[where[0]][where[1]], spaces[route][index] = spaces[route][index], token


def peace(s, seat=0):
    """The Action phase: ``seat`` plays its first card face down for Peacekeeping, the others play calmly."""
    picks(s, seat, "play:" + s["seats"][seat]["hand"][0], "down", "peace")
    for other in E.pending(s):
        while E.prompt(s, other) is not None:
            E.apply(s, other, calm(s, other))
    return finish(s)


def london_events(events):
    return [dict(e.data["london"]) for e in events if "london" in e.data]


# ---- components as data ----

def test_components_are_data_rows_with_the_rulebook_counts_and_bonuses():
    """Components. EN 428-431: "seven new Maid Ability action cards and six new Graduation Requirement
    cards ... 0001 / ... / 0007 ... B0019 / ... / B0024" (distinct ids L0001-L0007 keep the printed number for
    the card-number order); EN 470-486 the two checkpoint bonus lists (24 tokens: 12 per stage, two of each);
    EN 499-502 the four Support Characters; EN 488-495 three Control Points per route with a price and a
    requirement, the example 7 Sterlings or Strength 12; EN 512-517 six Big Ben bonuses; EN 406 7 MP award."""
    abilities = sorted(c.id for c in CARDS.values() if c.expansion and c.kind == "ability")
    assert abilities == [f"L{i:04d}" for i in range(1, 8)]
    assert [CARDS[a].num for a in abilities] == list(range(1, 8))
    assert sorted(c.id for c in CARDS.values() if c.expansion and c.kind == "requirement") == [
        f"B{i:04d}" for i in range(19, 25)]
    stage = {1: [], 2: []}
    for t in london.CHECKPOINTS.values():
        stage[int(t.group)].append(t.effect)
    assert sorted(stage[1]) == sorted(["tokens:red:3", "tokens:green:3", "tokens:blue:3", "sterlings:5",
                                       "tokens:yellow:3", "mp:2"] * 2)
    assert sorted(stage[2]) == sorted(["attr:strength:2", "attr:purity:2", "attr:intelligence:2", "sterlings:10",
                                       "attr:beauty:2", "mp:5"] * 2)
    assert {p.name: p.effect for p in london.PALADINS.values()} == {
        "Lulu la Charlotte": "boost:all:2", "Sienna Financier": "boost:strength:5;boost:intelligence:5",
        "Marielle Weekend": "boost:beauty:5;boost:purity:5", "Nofeena de Tart": "discount:2"}
    assert set(london.CONTROLS) == set("ABCDEF") and all(len(c) == 3 for c in london.CONTROLS.values())
    assert london.describe_control(london.CONTROLS["A"][1]) == "7 Sterlings or Strength 12"  # EN 495
    assert len({tuple((c.price, c.requirement) for c in r) for r in london.CONTROLS.values()}) == 6  # routes differ
    assert [b.effect for b in london.BIG_BEN.values()] == [
        "mp:8", "sterlings:20", "tokens:red:4;tokens:blue:4;tokens:yellow:4;tokens:green:4", "tokens:rainbow:12",
        "raise:4", "play_aside"]
    assert (london.ATTENDANCE_MP, london.FOUR_CHECKPOINTS_MP) == (7, 3)


def test_the_board_file_fails_loudly_when_a_bonus_is_off(tmp_path):
    """Components: the loader checks the rulebook's bonuses exactly (EN 472: three Red tokens)."""
    text = open(london.DATA_PATH, encoding="utf-8").read()
    p = tmp_path / "london.csv"
    p.write_text(text.replace("tokens:red:3", "tokens:red:4", 1), encoding="utf-8")
    with pytest.raises(london.CardDataError, match="Stage 1"):
        london.load(str(p))


# ---- setup ----

def test_setup_secret_pick_of_one_of_two_maid_abilities_the_other_set_aside():
    """Setup. EN 435-436: "take its two matching Maid Ability action cards. Choose one of the two";
    EN 438: "You may be able to use the discarded second Maid Ability card when you reach Big Ben"."""
    s = new_bfl(2, seed=4)
    me, other = s["seats"]
    a = me["char"][1:]
    assert me["bfl"]["offer"] == [a, "L" + a] and me["ability"] is None
    assert ids(s, 0)[:2] == [f"ability:{a}", f"ability:L{a}"]
    E.apply(s, 0, f"ability:L{a}")
    # Simultaneous and secret: nothing about seat 0's pick reaches seat 1 or a spectator.
    for v in (None, 1):
        text = json.dumps(E.view(s, v))
        assert f'"number": "{a}"' not in text and f'"number": "L{a}"' not in text
    drive(s, lambda st: st["phase"] == "draft")
    assert me["ability"] == "L" + a and me["bfl"]["aside"] == a and me["bfl"]["offer"] == []
    assert E.view(s, 0)["you"]["set_aside_ability"]["number"] == a
    assert E.view(s, 0)["you"]["ability_card"]["number"] == "L" + a


def test_expansion_setup_board_paladins_award_and_requirements():
    """Setup. EN 446/448: one Stage 1 (Stage 2) token "face up on each of the twelve spaces marked
    "1" ("2")"; EN 450: "Randomly place a Support Character tile ... next to the Round 1, Round 2, and Round 3
    Registration phase spaces ... Return the remaining tiles to the box"; EN 452: each player a Peacekeeping card
    and an Attendance Award tile "face up"; EN 428: the six new Graduation Requirements join the deck."""
    offered = set()
    boards = set()
    for seed in range(40):
        s = new_bfl(6, seed)
        sp = s["london"]["spaces"]
        for r in "ABCDEF":
            assert [int(london.CHECKPOINTS[t].group) for t in sp[r]] == [1, 1, 2, 2]
        boards.add(json.dumps(sp, sort_keys=True))
        pal = s["london"]["paladins"]
        assert len(pal) == 3 == len(set(pal)) and set(pal) <= set(london.PALADINS)
        assert all(x["bfl"]["award"] and x["bfl"]["route"] is None and x["bfl"]["pos"] == 0 for x in s["seats"])
        offered |= {c for x in s["seats"] for c in x["offer"]}
    assert len(boards) == 40  # shuffled
    assert offered & {f"B{i:04d}" for i in range(19, 25)}
    base = E.new_game(players=6, options={}, seed=0)
    assert base["london"] is None and "bfl" not in base["seats"][0]


def test_choose_characters_then_the_ability_pick():
    """EN 435 with the base option "you may choose your characters": the two abilities of the chosen character."""
    s = new_bfl(2, seed=1, choose_characters=True)
    picks(s, 0, "char:C0004")
    picks(s, 1, "char:C0006")
    finish(s)
    assert s["seats"][0]["bfl"]["offer"] == ["0004", "L0004"]
    assert "ability:L0006" in ids(s, 1)


def test_solo_mode_does_not_combine_with_the_expansion():
    """The Solo Mode rules (EN 526-604) give the Classmate no Peacekeeping, route or Attendance Award
    and the expansion (EN 426-438) speaks only of combining with the base game: refused (docs decision)."""
    with pytest.raises(ValueError, match="Solo Mode"):
        E.validate_options(1, BFL)
    with pytest.raises(ValueError, match="unknown expansion"):
        E.validate_options(3, {"expansion": "mage_knight"})
    E.validate_options(2, BFL)
    E.validate_options(6, BFL)


# ---- Peacekeeping: licence and routes ----

def test_no_peacekeeping_before_the_licence():
    """No Peacekeeping before the licence. EN 460: "you may not perform the Peacekeeping action until
    you have obtained a Provisional Maid's License"."""
    s = at_bfl()
    picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down")
    assert "peace" not in ids(s, 0) and "job" in ids(s, 0)
    with pytest.raises(IllegalPick):
        E.apply(s, 0, "peace")
    s["seats"][0]["lic"] = True  # licensed but no route yet: still no Peacekeeping
    assert "peace" not in ids(s, 0)
    s["seats"][0]["bfl"]["route"] = "A"
    assert "peace" in ids(s, 0)


def test_route_exclusivity_and_the_rulebook_example():
    """Route exclusivity and the rulebook's example. EN 462: "When you obtain a Provisional Maid's
    License, immediately place one of your character markers on any starting space (A-F) ... You may not choose
    a route in which another player's marker is already present." EN 468: "players are already advancing along
    routes B and E. The red player may place their character marker on the starting space of route A, C, D, or
    F, and chooses route C." """
    s = at_bfl(players=3, seed=2)
    on_route(s, 0, "B", 1)
    on_route(s, 1, "E", 2)
    red = s["seats"][2]
    red["attr"] = [12, 1, 1, 1]  # qualifies for the licence (one attribute 12+)
    picks(s, 2, "play:" + red["hand"][0], "down", "train", "license", "done")
    for seat in (0, 1):
        picks(s, seat, "play:" + s["seats"][seat]["hand"][0], "down", "job")
    finish(s)
    assert red["lic"] and s["phase"] == "route" and E.pending(s) == [2]  # a decision of its own, at once
    assert [i for i in ids(s, 2) if i.startswith("route:")] == ["route:A", "route:C", "route:D", "route:F"]
    assert london.free_routes(s) == ["A", "C", "D", "F"]
    with pytest.raises(IllegalPick):
        E.apply(s, 2, "route:B")
    E.apply(s, 2, "route:C")
    events = finish(s)
    assert red["bfl"]["route"] == "C" and red["bfl"]["pos"] == 0
    assert {"kind": "route", "seat": 2, "route": "C"} in london_events(events)
    assert s["phase"] == "lecture" and s["term"] == 2  # the rest of the Term resolved after the pick


# ---- moving and checkpoint bonuses ----

STAGE_1 = {"tokens:red:3": ("tok", 0, 3), "tokens:green:3": ("tok", 3, 3), "tokens:blue:3": ("tok", 1, 3),
           "sterlings:5": ("ster", None, 5), "tokens:yellow:3": ("tok", 2, 3), "mp:2": ("mp", None, 2)}
STAGE_2 = {"attr:strength:2": ("attr", 0, 2), "attr:purity:2": ("attr", 3, 2), "attr:intelligence:2": ("attr", 1, 2),
           "sterlings:10": ("ster", None, 10), "attr:beauty:2": ("attr", 2, 2), "mp:5": ("mp", None, 5)}


def _value(seat, what, i):
    return seat[what][i] if i is not None else seat[what]


@pytest.mark.parametrize("effect", list(STAGE_1))
def test_each_stage_1_checkpoint_bonus(effect):
    """Each bonus. EN 464-466: "move your character marker one space forward ... Take the checkpoint
    token from the space now occupied ... immediately take the bonus depicted on that token. Place the token face
    down on your Peacekeeping card." EN 472-477 the Stage 1 bonuses."""
    s = at_bfl()
    me = on_route(s, 0, "D", 0)
    token = next(t for t, p in london.CHECKPOINTS.items() if p.effect == effect)
    put_token(s, "D", 0, token)
    what, i, n = STAGE_1[effect]
    before = _value(me, what, i)
    events = peace(s)
    assert _value(me, what, i) == before + n
    assert me["bfl"]["pos"] == 1 and me["bfl"]["tokens"] == [token] and s["london"]["spaces"]["D"][0] is None
    ev = london_events(events)[0]
    assert ev["kind"] == "peacekeeping" and ev["checkpoint"] == token and (ev["from"], ev["to"]) == (0, 1)


@pytest.mark.parametrize("effect", list(STAGE_2))
def test_each_stage_2_checkpoint_bonus(effect):
    """Each bonus. EN 481-486 the Stage 2 bonuses (the marker first breaks Control Point 1; here by
    requirement, EN 493)."""
    s = at_bfl()
    me = on_route(s, 0, "D", 2, purity=10)  # D1: 5 Sterlings or Purity 10
    s["london"]["paladins"][0] = "nofeena"  # no attribute boost
    token = next(t for t, p in london.CHECKPOINTS.items() if p.effect == effect)
    put_token(s, "D", 2, token)
    what, i, n = STAGE_2[effect]
    before = _value(me, what, i)
    peace(s)
    assert _value(me, what, i) == before + n
    assert me["bfl"]["pos"] == 3 and me["bfl"]["tokens"][-1] == token and me["bfl"]["controls"] == 1


# ---- Control Points ----

def _at_second_control(sterlings, strength, paladin="marielle", rnd=1):
    s = at_bfl(rnd=rnd)
    me = on_route(s, 0, "A", 3, strength=strength)  # next move breaks A2: 7 Sterlings or Strength 12 (EN 495)
    me["ster"] = sterlings
    s["london"]["paladins"][rnd - 1] = paladin
    return s, me


def test_control_point_by_payment():
    """Control Point by payment. EN 491-492: "you must either: A) Hire Mercenaries. Pay the number of
    Sterlings depicted (returned to the supply)" — EN 495's example, seven Sterlings."""
    s, me = _at_second_control(sterlings=9, strength=11)
    events = peace(s)
    ev = london_events(events)[0]
    assert me["bfl"]["pos"] == 4 and me["bfl"]["controls"] == 2 and me["ster"] == 2
    assert ev["control"] == "A2" and ev["passed_by"] == "payment" and ev["paid"] == 7


def test_control_point_by_requirement():
    """Control Point by requirement. EN 493/495: "(B) have a Strength attribute score of 12 or
    higher": passing costs nothing."""
    s, me = _at_second_control(sterlings=9, strength=12)
    ev = london_events(peace(s))[0]
    assert me["bfl"]["pos"] == 4 and me["ster"] == 9 and ev["passed_by"] == "requirement"


def test_control_point_failure_the_marker_stays():
    """Control Point failure. EN 493: "If you can't afford to hire mercenaries and your character
    doesn't meet the attribute score requirement, your Peacekeeping action is unsuccessful. Your character marker
    remains where it is." The action (and the face-down card) is spent."""
    s, me = _at_second_control(sterlings=6, strength=11)
    tokens = list(me["bfl"]["tokens"])
    events = peace(s)
    ev = london_events(events)[0]
    assert me["bfl"]["pos"] == 3 and me["bfl"]["tokens"] == tokens and me["ster"] == 6
    assert ev["passed_by"] == "fail" and ev["to"] == 3
    assert any("cannot break Control Point A2" in e.text for e in events)
    assert len(me["down"]) == 1


@pytest.mark.parametrize("paladin, sterlings, strength, passed", [
    ("lulu", 0, 10, "requirement"),      # EN 499: "add 2 to each of your character's attribute scores"
    ("sienna", 0, 7, "requirement"),     # EN 500: "add 5 to your character's Strength and Intelligence"
    ("marielle", 0, 7, "fail"),          # EN 501: Beauty and Purity only: no help for Strength
    ("nofeena", 5, 1, "payment"),        # EN 502: "reduce the cost of hiring mercenaries by two Sterlings"
    ("lulu", 0, 9, "fail"),
    ("nofeena", 4, 1, "fail"),
])
def test_each_paladin(paladin, sterlings, strength, passed):
    """Each Paladin. EN 497: "The Paladin of the current Round aids all players for the duration of
    that Round"; EN 498-502 the four effects, against EN 495's Control Point (7 Sterlings or Strength 12)."""
    s, me = _at_second_control(sterlings, strength, paladin)
    ev = london_events(peace(s))[0]
    assert ev["passed_by"] == passed and ev["paladin"] == paladin
    assert me["ster"] == (0 if passed == "payment" else sterlings)


def test_marielle_helps_beauty_routes_and_only_the_current_rounds_paladin_counts():
    """EN 501 (Beauty and Purity +5) on route C's Beauty 12 Control Point; EN 497 "the Paladin of the current
    Round": in Round 2 the Round 2 tile applies, not Round 1's."""
    s = at_bfl(rnd=2)
    me = on_route(s, 0, "C", 3, beauty=7)  # C2: 7 Sterlings or Beauty 12
    me["ster"] = 0
    s["london"]["paladins"][:2] = ["marielle", "nofeena"]
    assert london_events(peace(s))[0]["passed_by"] == "fail"
    s = at_bfl(rnd=2)
    me = on_route(s, 0, "C", 3, beauty=7)
    me["ster"] = 0
    s["london"]["paladins"][:2] = ["nofeena", "marielle"]
    assert london_events(peace(s))[0]["passed_by"] == "requirement"


# ---- Big Ben ----

def _at_big_ben_door(seat=0, seed=0, players=2):
    s = at_bfl(players=players, seed=seed)
    me = on_route(s, seat, "AB"[seat], 4, strength=13, intelligence=13)  # A3 Int 13, B3 Str 13
    s["london"]["paladins"][0] = "nofeena"
    return s, me


def test_big_ben_set_aside_maid_ability_played_at_once_and_no_more_peacekeeping():
    """Big Ben and the set-aside Maid Ability. EN 506: "breaking through the third Control Point and
    placing your character marker on the Big Ben space"; EN 508: "immediately gain the bonus depicted"; EN 517:
    "Take the Maid Ability card you returned to the box during setup, and immediately play it"; EN 508: "Once you
    have recaptured Big Ben, you may not perform the Peacekeeping action for the rest of the game." """
    s, me = _at_big_ben_door()
    aside = me["bfl"]["aside"]
    assert aside and aside not in me["up"]
    events = peace(s)
    assert s["phase"] == "bigben" and E.pending(s) == [0] and me["bfl"]["pos"] == 5
    assert any(e.get("big_ben") for e in london_events(events))
    assert sorted(i for i in ids(s, 0) if i.startswith("bb:")) == sorted("bb:" + b for b in london.BIG_BEN)
    card = CARDS[aside]
    mp, ster = me["mp"], me["ster"]
    E.apply(s, 0, "bb:ability")
    events = finish(s)
    assert aside in me["up"] and me["bfl"]["aside"] is None and me["bfl"]["bonus"] == "ability"
    assert me["mp"] - mp == sum(e[1] for e in card.effects if e[0] == "mp")
    assert me["ster"] - ster == sum(e[1] for e in card.effects if e[0] == "sterlings")
    ev = next(d for d in london_events(events) if d["kind"] == "big_ben")
    assert ev == {"kind": "big_ben", "seat": 0, "bonus": "ability", "card": aside}
    assert s["london"]["big_ben"]["ability"] == 0
    # No more Peacekeeping for this seat.
    drive(s, at("action", 1, 2))
    picks(s, 0, "play:" + me["hand"][0], "down")
    assert "peace" not in ids(s, 0)


def test_big_ben_bonus_exclusivity():
    """Big Ben exclusivity. EN 508: "You may choose any of the six bonuses, regardless of which route
    you took. However, you may not choose a bonus that has already been claimed by another player." """
    s, me = _at_big_ben_door()
    s["london"]["big_ben"]["mp"] = 1  # seat 1 took the 8 MP earlier
    s["seats"][1]["bfl"].update(route="B", pos=5, controls=3, bonus="mp",
                                tokens=[s["london"]["spaces"]["B"][k] for k in range(4)])
    s["seats"][1]["lic"] = True
    s["london"]["spaces"]["B"] = [None] * 4
    peace(s)
    assert "bb:mp" not in ids(s, 0) and "bb:sterlings" in ids(s, 0)
    with pytest.raises(IllegalPick):
        E.apply(s, 0, "bb:mp")


@pytest.mark.parametrize("bonus, key, index, gain", [
    ("mp", "mp", None, 8),                       # EN 512
    ("sterlings", "ster", None, 20),             # EN 513
    ("rainbow", "tok", 4, 12),                   # EN 515
])
def test_each_big_ben_bonus(bonus, key, index, gain):
    """Each bonus: EN 512-515."""
    s, me = _at_big_ben_door()
    peace(s)
    before = _value(me, key, index)
    E.apply(s, 0, "bb:" + bonus)
    finish(s)
    assert _value(me, key, index) == before + gain and s["london"]["big_ben"][bonus] == 0


def test_big_ben_four_of_each_colour_and_attributes_plus_four():
    """EN 514: "four Red, four Blue, four Yellow, and four Green attribute tokens"; EN 516: "Increase your
    character's attribute scores by a total of 4 (you may increase multiple attributes)"."""
    s, me = _at_big_ben_door()
    peace(s)
    tok = list(me["tok"])
    E.apply(s, 0, "bb:tokens")
    finish(s)
    assert me["tok"] == [tok[0] + 4, tok[1] + 4, tok[2] + 4, tok[3] + 4, tok[4]]
    s, me = _at_big_ben_door(seed=3)
    peace(s)
    attr = list(me["attr"])
    picks(s, 0, "bb:attributes", "bbup:red", "bbup:red", "bbup:green")
    assert E.pending(s) == [0]  # one point left to place
    picks(s, 0, "bbup:yellow")
    finish(s)
    assert me["attr"] == [attr[0] + 2, attr[1], attr[2] + 1, attr[3] + 1]


# ---- Attendance Award ----

def test_attendance_award_flips_on_the_first_skip_only():
    """Attendance Award flip on the first skip. EN 458: "If you skip a Lecture at any point during the
    game, immediately flip your Attendance Award tile to its 0 MP side." A face-down card in the Action phase is
    not a skipped Lecture; attending keeps it."""
    s = at_bfl("lecture")
    picks(s, 0, "skip", "job")
    picks(s, 1, "attend")
    events = finish(s)
    assert not s["seats"][0]["bfl"]["award"] and s["seats"][1]["bfl"]["award"]
    flips = [d for d in london_events(events) if d["kind"] == "attendance_award"]
    assert flips == [{"kind": "attendance_award", "seat": 0}]
    for seat in (0, 1):  # face-down cards: no flip
        picks(s, seat, "play:" + s["seats"][seat]["hand"][0], "down", "job")
    finish(s)
    assert s["seats"][1]["bfl"]["award"]
    picks(s, 0, "skip", "job")
    picks(s, 1, "attend")
    assert not [d for d in london_events(finish(s)) if d["kind"] == "attendance_award"]  # flips once


# ---- scoring ----

def test_expansion_scoring_award_and_four_checkpoints_in_the_breakdown():
    """Expansion scoring. EN 521-524: "calculate your MP as described in the rulebook for the base
    game, and add ... 1. Score 7 MP if your Attendance Award tile is face up. 2. Score 3 MP if there are four
    checkpoint tokens on your Peacekeeping card." (EN 488 likewise)."""
    s = new_bfl(2)
    seat = s["seats"][0]
    seat.update(attr=[2, 2, 2, 2])
    base = {k: v for k, v in breakdown(seat).items() if k not in ("attendance_award", "checkpoints")}
    seat["bfl"]["tokens"] = ["T101", "T102", "T201"]
    assert breakdown(seat)["attendance_award"] == 7 and breakdown(seat)["checkpoints"] == 0
    seat["bfl"]["tokens"].append("T202")
    seat["bfl"]["award"] = False
    b = breakdown(seat)
    assert b["attendance_award"] == 0 and b["checkpoints"] == 3
    assert {k: v for k, v in b.items() if k not in ("attendance_award", "checkpoints")} == base


def test_expansion_requirements_count_the_peacekeeping_card():
    """The authored B0019-B0024 use the expansion's counts: checkpoint tokens, Control Points broken and the
    Attendance Award (docs: expansion cards)."""
    s = new_bfl(2)
    seat = s["seats"][0]
    seat.update(attr=[9, 2, 2, 2], reqs=["B0019", "B0022"])
    assert breakdown(seat)["graduation"] == -3 - 3
    seat["bfl"].update(tokens=["T101", "T102", "T201"], controls=1, pos=3)
    assert breakdown(seat)["graduation"] == 3 + 3
    seat["reqs"] = ["B0021", "B0020"]
    assert breakdown(seat)["graduation"] == 4 - 5


# ---- view and events ----

def test_view_shows_the_board_the_current_paladin_and_each_seats_pieces():
    """The API view: routes with markers and positions, checkpoints left, Control Points with
    price and requirement (EN 495's 7 Sterlings / Strength 12 on A2), the current Round's Paladin (EN 497), Big
    Ben bonuses taken, each seat's Attendance Award and checkpoints; nothing of it is secret."""
    s, me = _at_big_ben_door()
    s["london"]["paladins"][:3] = ["nofeena", "lulu", "sienna"]
    peace(s)
    E.apply(s, 0, "bb:mp")
    finish(s)
    for v in (E.view(s, None), E.view(s, 1)):
        lon = v["london"]
        a = lon["routes"][0]
        assert a["route"] == "A" and a["seat"] == 0 and a["position"] == 5 and a["spaces"] == [
            {"stage": st, "checkpoint": None} for st in (1, 1, 2, 2)]
        assert a["control_points"][1]["price"] == 7 and a["control_points"][1]["requirement"] == {
            "attribute": "strength", "at_least": 12}
        assert lon["routes"][1]["seat"] is None and all(sp["checkpoint"] for sp in lon["routes"][1]["spaces"])
        assert lon["current_paladin"]["name"] == "Nofeena de Tart" and [p["id"] for p in lon["paladins"]] == [
            "nofeena", "lulu", "sienna"]
        assert {b["id"]: b["seat"] for b in lon["big_ben"]}["mp"] == 0
        mine = v["seats"][0]["london"]
        assert mine["attendance_award"] and mine["position"] == 5 and len(mine["checkpoints"]) == 4
        assert mine["big_ben_bonus"] == "mp" and mine["set_aside_ability"] is None  # hidden until the end


def test_expansion_events_carry_structured_data_and_plain_english():
    """Events carry structured data and a plain-English text: every event keeps round/term/phase;
    expansion events add data["london"] with a kind and the seat, and a sentence naming what happened."""
    from games.engines.bots import make_bot
    from tests.engines.test_faltisia_event_data import without_wording
    kinds = set()
    s = new_bfl(6, seed=5)
    bots = [make_bot("faltisia", "greedy", i) for i in range(6)]
    while not E.is_over(s):
        for seat in E.pending(s):
            while E.prompt(s, seat) is not None:
                E.apply(s, seat, bots[seat].choose(E, s, seat))
        for e in E.resolve(s):
            d = without_wording(json.loads(json.dumps(e.as_dict()))["data"])  # the wording aside
            assert {"round", "term", "phase"} <= set(d) and set(d) <= {"round", "term", "phase", "london"}
            if "london" in d:
                kinds.add(d["london"]["kind"])
                assert isinstance(d["london"]["seat"], int) and e.text.startswith(f"Seat {d['london']['seat'] + 1} ")
    assert {"route", "peacekeeping", "big_ben"} <= kinds


# ---- hidden information ----

def face_down_maid_ability(keep_expansion_card: bool) -> tuple[dict, list]:
    """A 2-player expansion game at Round 1 Term 1's Action phase: seat 0 kept the base or the expansion Maid
    Ability at setup, holds it (licensed) and plays it face down for a Part-Time Job; seat 1 plays calmly.
    Returns the state after the step and the events it produced."""
    s = at_bfl("action", players=2, seed=3)
    me = s["seats"][0]
    base = me["char"][1:]
    kept, aside = ("L" + base, base) if keep_expansion_card else (base, "L" + base)
    me["bfl"]["aside"] = aside  # as if the setup pick had gone this way (same cards, other places)
    me["lic"], me["ability"] = True, None
    me["hand"].append(kept)
    picks(s, 0, "play:" + kept, "down", "job")
    while E.prompt(s, 1) is not None:
        E.apply(s, 1, calm(s, 1))
    return s, finish(s)


def test_a_face_down_maid_ability_is_announced_by_its_printed_number_only():
    """EN 318: face-down players "announce the card number of their played card ... They do not,
    however, reveal their cards"; EN 430 prints both sets of Maid Ability cards as 0001-0007. So the announcement
    says 000n for either of a character's two Maid Ability cards, and nothing another seat or a spectator can see
    (events, view, presentation text) tells which one was played."""
    from games.presentation.faltisia import events as wording
    public = []
    for keep_expansion_card in (False, True):
        s, events = face_down_maid_ability(keep_expansion_card)
        number = s["seats"][0]["char"][1:]
        seen = [e.as_dict() for e in events if e.visible_to(1)]
        texts = [e["text"] for e in seen] + [wording.event_text(e["data"], {0: "alice", 1: "bob"}) or ""
                                             for e in seen]
        assert any(f"announces {number}" in t for t in texts)
        others = json.dumps({"events": seen, "texts": texts, "spectator": E.view(s, None)}, sort_keys=True)
        seat_1 = json.dumps(E.view(s, 1), sort_keys=True)
        assert "L000" not in others and "L" + number not in seat_1  # seat 1 sees its own L card, not seat 0's
        public.append(others + seat_1)
    assert public[0] == public[1]
