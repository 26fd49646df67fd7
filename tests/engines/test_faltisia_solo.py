"""Faltisia Solo Mode, the Classmate automaton (rulebook "Solo Mode", EN lines 526-604).

EN is shared/rules/faltisia-rulebook-en.txt; each test quotes the line it pins.
"""

from __future__ import annotations

import json
import statistics

import pytest

from games.engines.bots import make_bot, play
from games.engines.faltisia import solo
from games.engines.faltisia.cards import CARDS, COLORS, deck_for
from games.engines.faltisia.invariants import check as invariants

from tests.engines.faltisia_helpers import E, at, drive, finish, ids, picks

R, B, Y, G, W = 0, 1, 2, 3, 4  # red, blue, yellow, green, rainbow (W: wild)


def new_solo(seed=0, difficulty=None, **options):
    if difficulty is not None:
        options["solo"] = {"difficulty": difficulty}
    return E.new_game(players=1, options=options, seed=seed)


def solo_at(phase, rnd=1, term=None, seed=0, difficulty=None):
    return drive(new_solo(seed, difficulty), at(phase, rnd, term))


def give_line(cm, line):
    cm["line"] = list(line)
    cm["tok"] = [line.count(i) for i in range(5)]


def texts(events):
    return [e.text for e in events]


# ---- setup ----

@pytest.mark.parametrize("difficulty, level", [("beginner", 3), ("easy", 4), ("medium", 5), ("hard", 6),
                                               ("nightmare", 7)])
def test_difficulty_sets_all_four_classmate_attributes(difficulty, level):
    """Setup. EN 549-555: "Place all of your Classmate's starting attribute scores on the same level
    (3, 4, 5, 6, or 7)": 3 Beginner, 4 Easy, 5 Medium, 6 Hard, 7 Nightmare."""
    assert new_solo(difficulty=difficulty)["classmate"]["attr"] == [level] * 4


def test_default_difficulty_is_medium_and_bad_settings_are_refused():
    """Setup: default Medium; the option is validated (the server relies on ValueError)."""
    assert new_solo()["classmate"]["attr"] == [5] * 4
    assert E.new_game(players=1, options={"solo": "hard"}, seed=0)["classmate"]["attr"] == [6] * 4
    E.validate_options(1, {"solo": {"difficulty": "easy"}})
    for players, options in ((1, {"solo": {"difficulty": "legendary"}}), (1, {"solo": {"level": 3}}),
                             (2, {"solo": {"difficulty": "easy"}}), (1, {"expansion": True})):
        with pytest.raises(ValueError):
            E.validate_options(players, options)
    assert E.min_players == 2  # tournaments seat tables by min_players: solo never joins one


def test_classmate_setup():
    """Setup. EN 545: "Randomly draw a character card, and take its matching Maid Ability action
    card"; 547: "Randomly deal two Graduation Requirement cards to your Classmate face down"; 557: "Give your
    Classmate three Sterlings and one attribute token of each color ... Randomly place them in a straight
    line"."""
    lines = set()
    for seed in range(20):
        s = new_solo(seed)
        cm, me = s["classmate"], s["seats"][0]
        assert cm["char"] != me["char"] and cm["ability"] == cm["char"][1:]
        assert len(cm["reqs"]) == 2 and not set(cm["reqs"]) & set(me["offer"])
        assert all(CARDS[r].kind == "requirement" for r in cm["reqs"])
        assert cm["ster"] == 3 and sorted(cm["line"]) == [R, B, Y, G] and cm["tok"] == [1, 1, 1, 1, 0]
        lines.add(tuple(cm["line"]))
        assert not invariants(s)
    assert len(lines) > 5  # the order is random (seeded)


def test_player_setup_as_usual():
    """Setup. EN 539: "Faculty Preparations, Class Schedule Assignment, and New Student Orientation
    are set up as usual": the player discards one of three requirements and sets attributes summing to 8."""
    s = new_solo(3)
    assert s["seats"][0]["dec"]["st"] == "discard" and len(ids(s, 0)) == 3
    assert len(s["schedule"]) == 3


# ---- registration ----

def test_registration_two_items_stack_of_seven_and_keep_one_of_two():
    """Registration. EN 563: "place two Item cards in the Academy Store per Round"; 565: "Deal seven
    cards from the current Round deck to your Classmate face down, forming a stack"; 566: "Deal yourself two
    cards face up. Select one card to keep in your hand and discard the other card. Repeat this step until you
    have seven cards"."""
    s = solo_at("draft")
    cm, me = s["classmate"], s["seats"][0]
    assert len(s["store"]) == 2 and len(cm["stack"]) == 7 and len(me["pack"]) == 2
    for pick in range(7):
        offered = [o[6:] for o in ids(s, 0) if o.startswith("draft:")]
        assert offered == me["pack"] and len(offered) == 2
        keep, drop = offered
        picks(s, 0, "draft:" + keep)
        finish(s)
        assert keep in (me["hand"] + me["picked"]) and drop in s["box"]
    assert len(me["hand"]) == 7 and s["phase"] == "lecture" and len(cm["stack"]) == 7
    assert not invariants(s)
    s = solo_at("draft", rnd=2)
    assert len(s["store"]) == 4 - sum(len(x["items"]) for x in (s["seats"][0], s["classmate"]))


def test_solo_deals_the_two_player_action_decks():
    """EN 532: "played almost identically to the multiplayer game, with your Classmate playing as
    the second player"; EN 539: "Faculty Preparations ... are set up as usual", and Faculty Preparations 2 (EN
    226): "Depending on how many people are playing, remove all action cards and Item cards with a 3+ and/or 5+
    icon". So a solo game is a 2-player game: no 3+ or 5+ card is in play. A Round deals 7 to the Classmate (EN
    565) and 2 x 7 to the player (EN 566), so the 2-player deck holds at least 21 cards a Round; the "cards that
    award attribute tokens (2201, 2202, 2203, and 2204)" (EN 576) are met in it (2203 is a 5+ card)."""
    for r in (1, 2, 3):
        assert len(deck_for("action", 2, r)) >= 21
    assert {"2201", "2202", "2204"} <= set(deck_for("action", 2, 2))
    for seed in range(5):
        s = new_solo(seed)
        for r in ("1", "2", "3"):
            assert sorted(s["decks"][r]) == sorted(deck_for("action", 2, int(r)))
            assert all(CARDS[c].players == 0 for c in s["decks"][r])
        assert all(CARDS[c].players == 0 for c in s["item_deck"])
        assert not invariants(s)
    s = solo_at("lecture", rnd=3, seed=4)  # three Registrations dealt without running out
    assert len(s["seats"][0]["hand"]) >= 7 and len(s["classmate"]["stack"]) == 7 and not invariants(s)


# ---- the token line ----

def test_rulebook_token_line_example():
    """The rulebook's example. EN 578: "your Classmate has a line of Red, Blue, Blue, Blue, Green,
    Rainbow, Yellow, Blue, Red. First you spend the Red, Rainbow, and Red tokens to increase your Classmate's
    Strength. Secondly, you spend three Blue tokens on increasing your Classmate's Intelligence. At the end of
    this Round, your Classmate is left with a row of Green, Yellow, and Blue tokens.\""""
    cm = new_solo()["classmate"]
    give_line(cm, [R, B, B, B, G, W, Y, B, R])
    cm["attr"] = [5, 5, 5, 5]
    assert solo.train_attributes(cm) == ["Strength", "Intelligence"]
    assert cm["attr"] == [6, 6, 5, 5]
    assert [COLORS[c] for c in cm["line"]] == ["green", "yellow", "blue"] and cm["tok"] == [0, 1, 1, 1, 0]


def test_costs_are_paid_from_the_left_of_the_line():
    """Terms. EN 576: "When paying card costs that require attribute tokens, your Classmate always pays
    with the leftmost token(s) from their line." A Rainbow left of a matching colour is spent first."""
    assert solo.spend_from_left([B, W, R, R], [1, 0, 0, 0]) == [1]
    assert solo.spend_from_left([B, R, W, R], [2, 0, 0, 0]) == [1, 2]
    assert solo.spend_from_left([G, B], [1, 0, 0, 0]) is None
    # Two colours: the Rainbow covers the colour with no exact token left, so the cost stays payable.
    assert solo.spend_from_left([W, R, B, B], [1, 2, 0, 0]) == [0, 1, 2]
    assert solo.spend_from_left([W, R, R], [2, 1, 0, 0]) == [0, 1, 2]


def leftmost_payment_by_brute_force(line, need):
    """The positions of the lexicographically smallest set of tokens that pays ``need`` exactly (Rainbow wild):
    combinations() yields position sets in lexicographic order, so the first one that pays is it."""
    from itertools import combinations
    for positions in combinations(range(len(line)), sum(need)):
        colours = [line[p] for p in positions]
        exact_fit = all(colours.count(c) <= need[c] for c in range(4))  # no token of a colour not owed
        if exact_fit:  # the Rainbows in the set cover exactly what the coloured tokens leave owed
            return list(positions)
    return None


def test_classmate_pays_with_the_leftmost_tokens_that_make_the_whole_cost():
    """EN 576: "When paying card costs that require attribute tokens, your Classmate always pays
    with the leftmost token(s) from their line." Card 3401 (2 red + 1 blue) from Yellow, Red, Rainbow, Yellow,
    Yellow, Red, Blue, Blue, Blue: the leftmost tokens that pay are Red, Rainbow (as the blue) and the second Red,
    not Red, Rainbow (as a red) and the first Blue."""
    line = [Y, R, W, Y, Y, R, B, B, B]
    assert CARDS["3401"].cost_t == (2, 1, 0, 0)
    assert solo.spend_from_left(line, CARDS["3401"].cost_t) == [1, 2, 5]
    # Played through the game: the Classmate draws 3401 and pays it face up from the left of its line.
    s = solo_at("action", rnd=2, term=1)
    cm = s["classmate"]
    give_line(cm, line)
    cm["attr"][0] = 9  # 3401's condition: Strength 9+
    cm["stack"].append("3401")
    picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
    finish(s)
    assert cm["up"][-1] == "3401" and cm["line"] == [Y, Y, Y, B, B, B]
    # More lines: the Rainbow stands in where it lets the set end furthest left.
    assert solo.spend_from_left([W, B, R], [1, 1, 0, 0]) == [0, 1]  # Rainbow as red, then the Blue
    assert solo.spend_from_left([R, W, B, R], [2, 0, 0, 0]) == [0, 1]
    assert solo.spend_from_left([B, W, G, R, R], [2, 1, 0, 0]) == [0, 1, 3]  # Rainbow as red: Blue pays blue
    assert solo.spend_from_left([W, W, R], [0, 0, 1, 0]) == [0]
    assert solo.spend_from_left([G, G, W], [0, 0, 0, 3]) == [0, 1, 2]
    assert solo.spend_from_left([G, B, W], [0, 0, 0, 3]) is None


def test_leftmost_payment_matches_brute_force_on_random_lines():
    """EN 576, property-style: for seeded random lines and costs, the tokens paid are the lexicographically
    leftmost set (by positions) that pays the whole cost, or None when no set does."""
    import random
    rng = random.Random(22)
    for _ in range(600):
        line = [rng.choice((R, B, Y, G, W)) for _ in range(rng.randint(0, 10))]
        need = [0, 0, 0, 0]
        for _ in range(rng.randint(1, 4)):
            need[rng.randrange(4)] += 1
        assert solo.spend_from_left(line, need) == leftmost_payment_by_brute_force(line, need), (line, need)


def test_gained_tokens_join_the_end_of_the_line():
    """Setup. EN 557: "All attribute tokens they receive during the game are placed continuing this
    line and are spent as needed from left to right.\""""
    s = solo_at("action", rnd=2, term=1)
    cm = s["classmate"]
    give_line(cm, [G, R])
    cm["stack"].append("2207")  # Sparring Match: cost 1 red; +1 Strength, +2 red tokens
    picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
    finish(s)
    assert cm["line"] == [G, R, R] and cm["up"][-1] == "2207"  # paid the leftmost red, gains at the end


# ---- terms ----

def test_classmate_attends_every_lecture_unless_that_attribute_is_15():
    """Terms. EN 570: "Your Classmate attends every Lecture while you may choose to attend or skip
    the Lecture. If your Classmate already has a score of 15 for a particular attribute, they do not attend
    Lectures of that color and instead perform an Off-Campus action.\""""
    s = solo_at("lecture")
    cm, col = s["classmate"], s["lecture"]
    before = list(cm["attr"])
    picks(s, 0, "attend")
    finish(s)
    assert cm["attr"][col] == before[col] + 1
    s = solo_at("lecture")
    cm, col = s["classmate"], s["lecture"]
    cm["attr"][col] = 15
    cm["lic"] = True  # (else 15 qualifies it for the licence, priority 1)
    s["store"] = []
    give_line(cm, [R, R])
    ster = cm["ster"]
    picks(s, 0, "attend")
    events = texts(finish(s))
    assert cm["attr"][col] == 15 and cm["ster"] == ster + 5  # (5) Part-Time Job, licensed
    assert any("skips" in t for t in events) and any("Part-Time Job" in t for t in events)


def test_classmate_resolves_first_and_plays_top_card_face_up_when_it_can_pay():
    """Terms. EN 535: "Your Classmate always goes first when resolving a played action card"; 573:
    "Draw the top card of your Classmate's action cards stack. If your Classmate can pay the card's cost (or if
    the card has no cost), play it as an action and resolve the card's effects. If not, play the card face
    down and resolve an Off-Campus action." The Classmate's Shopping beats the player's to the same Item."""
    s = solo_at("action")
    cm, me = s["classmate"], s["seats"][0]
    give_line(cm, [G, Y])
    cm["stack"].append("3204")  # 2 blue: cannot pay
    cm["ster"], me["ster"] = 10, 10
    item = max(s["store"], key=lambda i: (CARDS[i].cost_s, -s["store"].index(i)))
    picks(s, 0, "play:" + me["hand"][0], "down", "shop:" + item, "fb:job")
    events = texts(finish(s))
    assert cm["down"] == ["3204"] and cm["items"] == [item] and me["items"] == [] and me["ster"] == 13
    assert any("announces 3204" in t for t in events)
    assert events.index(next(t for t in events if "Classmate" in t)) < events.index(
        next(t for t in events if t.startswith("Seat 1 (")))  # seats 1-based in what a person reads
    s = solo_at("action")
    cm = s["classmate"]
    give_line(cm, [B, W, R])
    cm["stack"].append("2207")
    picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
    finish(s)
    assert cm["up"] == ["2207"] and cm["line"] == [B, R, R, R]  # the Rainbow (leftmost usable) paid


def test_token_choice_cards_draw_the_colour_with_the_seeded_rng():
    """Terms. EN 576: "For cards that award attribute tokens (2201, 2202, 2203, and 2204), choose the
    color randomly." The draw uses the game's seeded generator, so a replay draws the same colours."""
    colours = set()
    for seed in range(12):
        runs = []
        for _ in range(2):
            s = solo_at("action", rnd=2, term=1, seed=seed)
            cm = s["classmate"]
            give_line(cm, [])
            cm["stack"].append("2201")
            picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
            finish(s)
            runs.append(list(cm["line"]))
        assert runs[0] == runs[1] and len(runs[0]) == 3 and len(set(runs[0])) == 1 and runs[0][0] != W
        colours.add(runs[0][0])
    assert len(colours) > 1


# ---- the off-campus priority list ----

def _offcampus(setup):
    """The Classmate's off-campus action on a state shaped by ``setup(state, classmate)``."""
    s = solo_at("action")
    cm = s["classmate"]
    cm["stack"].append("3204")  # unpayable: face down, off campus
    give_line(cm, [])
    setup(s, cm)
    picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
    finish(s)
    return s, cm


def test_priority_1_maid_training_for_the_licence_puts_the_ability_card_on_top():
    """Priority (1). EN 596: "If your Classmate does not have a Provisional Maid's License and meets
    the requirements, they choose Maid Training. Give them the License Bonus of two Sterlings, and place their
    Maid Ability action card on top of the action card stack (it will be played in the next Action phase).\""""
    def setup(s, cm):
        cm["attr"] = [7, 7, 7, 7]
        cm["ster"] = 10
    s, cm = _offcampus(setup)
    ability = cm["char"][1:]
    assert cm["lic"] and cm["ster"] == 12 and cm["stack"][-1] == ability and cm["ability"] is None
    assert cm["items"] == []  # the licence came before Shopping
    assert s["phase"] == "lecture"
    picks(s, 0, "attend")
    finish(s)
    picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
    finish(s)
    assert cm["up"][-1] == ability  # played in the next Action phase, face up (no cost)


def test_priority_2_shopping_buys_the_most_expensive_leftmost():
    """Priority (2). EN 597: "your Classmate chooses Shopping and buys the most expensive Item card
    available. If there are multiple with the same price, they choose the leftmost highest-priced Item card."
    Decision: the most expensive it can afford (an unaffordable store is case (3))."""
    def setup(s, cm):
        s["store"] = ["S011", "S004", "S005", "S010", "S008"]  # 0, 3, 3, 6, 5 Sterlings
        cm["ster"] = 5
    s, cm = _offcampus(setup)
    assert cm["items"] == ["S008"] and cm["ster"] == 0
    def setup2(s, cm):
        s["store"] = ["S011", "S004", "S005"]
        cm["ster"] = 4
    s, cm = _offcampus(setup2)
    assert cm["items"] == ["S004"] and s["store"] == ["S011", "S005"]


def test_priority_3_part_time_job_when_no_item_is_affordable():
    """Priority (3). EN 598: "If there are Item cards available in the Academy Store and your Classmate
    does not have enough Sterlings to buy any of them, they choose Part-Time Job. Give them three Sterlings (or
    five if they have a Provisional Maid's License).\""""
    def setup(s, cm):
        s["store"] = ["S010"]
        cm["ster"] = 2
        give_line(cm, [R, R, R])  # a set to train with: not used while the store has Items
    s, cm = _offcampus(setup)
    assert cm["ster"] == 5 and cm["line"] == [R, R, R] and s["store"] == ["S010"]
    def licensed(s, cm):
        setup(s, cm)
        cm["lic"] = True
    s, cm = _offcampus(licensed)
    assert cm["ster"] == 7


def test_priority_4_training_spends_every_set_when_the_store_is_empty():
    """Priority (4). EN 599: "If there are no Item cards in the Academy Store and your Classmate has
    sets of attribute tokens that can be spent to increase their attribute scores, they choose Maid Training.
    They spend all sets of attribute tokens from left to right (including Rainbow tokens)\""""
    def setup(s, cm):
        s["store"] = []
        cm["attr"] = [5, 5, 5, 5]
        give_line(cm, [Y, W, G, Y, G, G, R])
    s, cm = _offcampus(setup)
    assert cm["attr"] == [5, 5, 6, 6] and cm["line"] == [R] and cm["ster"] == 3


def test_priority_5_part_time_job_fallback_and_never_study():
    """Priority (5). EN 600: "Part-Time Job (fallback)"; 584: "Your Classmate never uses Study as an
    Off-Campus action.\""""
    def setup(s, cm):
        s["store"] = []
        give_line(cm, [R, G, Y, B])  # no set of three, and 3204's two Blue cannot be paid
    s, cm = _offcampus(setup)
    assert cm["ster"] == 6 and cm["line"] == [R, G, Y, B] and cm["down"] == ["3204"]


def test_rainbow_only_set_raises_the_lowest_attribute():
    """Priority (4), a reading recorded in the docs: three Rainbows with no colour to join raise the
    lowest attribute below 15 (Strength first among equals)."""
    cm = new_solo()["classmate"]
    give_line(cm, [W, G, W, W, W])
    cm["attr"] = [9, 4, 4, 15]  # Purity at 15: the Green token makes no set
    assert solo.train_attributes(cm) == ["Intelligence"]
    assert cm["line"] == [G, W] and cm["attr"] == [9, 5, 4, 15]


# ---- exams, the stack discard, scoring ----

def test_stack_card_left_at_the_end_of_rounds_1_and_2_is_discarded():
    """Exams. EN 582: "If your Classmate has a remaining action card at the end of Round 1 or Round 2
    (from gaining a Provisional Maid's License), discard it.\""""
    for rnd in (1, 2):
        s = solo_at("action", rnd=rnd, term=7)
        cm = s["classmate"]
        left = next(c for c in s["box"] if CARDS[c].kind == "action")
        s["box"].remove(left)
        cm["stack"].insert(0, left)  # as if the Maid Ability card had been placed on top earlier
        cm_down_before = len(cm["down"]) + len(cm["up"])
        picks(s, 0, "play:" + s["seats"][0]["hand"][0], "down", "job")
        events = texts(finish(s))
        assert len(cm["down"]) + len(cm["up"]) == cm_down_before + 1
        assert left in s["box"] and s["round"] == rnd + 1 and len(cm["stack"]) == 7
        assert any("discards the 1 card left in its stack" in t for t in events)


def test_exams_compare_with_the_classmate():
    """Exams. EN 582: "The Exams phase is completed as usual": the Classmate competes for the top
    attribute MP and the top total's Sterlings."""
    s = solo_at("action", rnd=1, term=7)
    cm, me = s["classmate"], s["seats"][0]
    me["attr"], cm["attr"] = [9, 2, 5, 1], [3, 9, 5, 9]
    mp = (me["mp"], cm["mp"])
    picks(s, 0, "play:" + me["hand"][0], "down", "job")
    events = texts(finish(s))
    assert me["mp"] == mp[0] + 2 and cm["mp"] >= mp[1] + 3  # Beauty tied: both
    assert "Exams, total: the Classmate gains 1 Sterling." in events  # one Sterling, singular


@pytest.mark.parametrize("player, classmate, want", [((40, 30), (39, 60), "win"), ((40, 30), (41, 10), "loss"),
                                                     ((40, 30), (40, 29), "win"), ((40, 30), (40, 31), "loss"),
                                                     ((40, 30), (40, 30), "draw")])
def test_win_rule_most_mp_then_combined_attributes_else_draw(player, classmate, want):
    """Scoring. EN 604: "the player or Classmate with the most MP wins the game. If tied, the player
    with the highest combined attribute score is the winner. If still tied, the match is a draw.\""""
    from games.engines.faltisia.scoring import outcome
    assert outcome(player, classmate) == want


def test_whole_solo_game_ends_with_the_classmate_scored_and_revealed():
    """A whole solo game for every difficulty; invariants after every step (the Classmate plays one
    card per Action phase, its line matches its counts, cards are conserved); the result ranks the player
    against the Classmate and reveals its requirements."""
    for i, difficulty in enumerate(solo.DIFFICULTY):
        s = new_solo(i, difficulty)

        def on_step(st):
            bad = invariants(st)
            assert not bad, bad
        play(E, s, [make_bot("faltisia", "greedy", i)], on_step)
        r = s["result"]
        assert len(r["scores"]) == 1 and r["outcome"] in ("win", "loss", "draw")
        assert r["ranks"] == [{"win": 1, "draw": 1, "loss": 2}[r["outcome"]]]
        assert len(s["classmate"]["up"]) + len(s["classmate"]["down"]) == 21
        assert [q["number"] for q in r["classmate"]["requirements"]] == s["classmate"]["reqs"]
        assert E.view(s, None)["classmate"]["requirements"][0]["number"] == s["classmate"]["reqs"][0]
        json.dumps(s)


def test_the_classmate_gets_stronger_with_the_difficulty():
    """Difficulty levels: the Classmate's mean score rises from Beginner to Nightmare (simulated)."""
    means = []
    for difficulty in ("beginner", "nightmare"):
        scores = []
        for seed in range(25):
            s = new_solo(seed, difficulty)
            play(E, s, [make_bot("faltisia", "greedy", seed)])
            scores.append(s["result"]["classmate"]["score"])
        means.append(statistics.mean(scores))
    assert means[1] > means[0] + 5, means


# ---- hidden information ----

def test_classmate_requirements_and_stack_hidden_until_the_end():
    """Hidden requirements. EN 547: "Randomly deal two Graduation Requirement cards to your Classmate
    face down. You may not look at these cards until the end of the game." Neither the player's view, a
    spectator's, nor any event before the game ends names them or the stack's cards; the end reveals them."""
    s = new_solo(7)
    cm = s["classmate"]
    secret = list(cm["reqs"])
    names = [CARDS[r].name for r in secret]
    events = []
    bot = make_bot("faltisia", "random", 7)
    while not E.is_over(s):
        for seat in E.pending(s):
            while E.prompt(s, seat) is not None:
                events += E.apply(s, seat, bot.choose(E, s, seat))
        if not E.is_over(s):
            for v in (None, 0):
                text = json.dumps(E.view(s, v))
                assert not any(f'"number": "{r}"' in text for r in secret)
                assert not any(f'"number": "{c}"' in text for c in cm["stack"])
                assert not any(n in text for n in names)
                assert "requirements" not in E.view(s, v)["classmate"]
            ev = E.resolve(s)
            events += ev
    final = events[-1]
    assert all(r not in e.text and all(n not in e.text for n in names) for e in events[:-1] for r in secret)
    assert all(r in final.text for r in secret)
    assert E.view(s, 0)["classmate"]["requirements_count"] == 2


def test_remedial_lectures_include_the_classmate_both_ways():
    """A reading recorded in the docs. EN 121: Remedial cards "force all students to attend an
    unskippable Lecture"; with the Classmate as the second student: the player's Remedial raises the Classmate
    by the "others" value (even at 15 it attends, the gain is lost), the Classmate's raises the player."""
    s = solo_at("action")
    cm, me = s["classmate"], s["seats"][0]
    me["hand"][0] = "1601"  # Remedial Drill: red, self +2, others +1
    cm["stack"].append("1603")  # Remedial Etiquette: yellow, self +2, others +1
    cm["attr"][0] = 14
    before_me, before_cm = list(me["attr"]), list(cm["attr"])
    picks(s, 0, "play:1601", "up")
    events = texts(finish(s))
    assert cm["attr"][0] == 15 and cm["attr"][2] == before_cm[2] + 2
    assert me["attr"][0] == before_me[0] + 2 and me["attr"][2] == before_me[2] + 1
    # The log names the cards, not their numbers.
    assert (next(i for i, t in enumerate(events) if "Remedial Etiquette" in t)
            < next(i for i, t in enumerate(events) if "Remedial Drill" in t))


def test_games_stored_before_solo_mode_play_on():
    """Compatibility: a multi-player state stored before Solo Mode existed has no "classmate" key;
    it resolves, views and scores as before."""
    from games.engines.bots import RandomBot
    from tests.engines.faltisia_helpers import new
    s = drive(new(2, 8), at("lecture", 1, 2))
    del s["classmate"]
    play(E, s, [RandomBot(1), RandomBot(2)])
    assert E.is_over(s) and "classmate" not in s and E.view(s, 0)["classmate"] is None
    assert "outcome" not in s["result"]
