"""Mage Knight: the combat specials of the cards (specials_combat.py), played as printed: Banner of Fear, Into the
Heat, Agility, Diplomacy, Flame Wall powered, Sword of Justice, Horn of Wrath, Golden Grail, In Need.

Each test quotes the printed card as the shared data summarises it (``summary`` in
/work/shared/data/mage-knight/{advanced_actions,spells,artifacts}.json) and plays it through the turn's picks, so
what is offered is checked too ("Effects of no use now are not offered").
"""

from __future__ import annotations

from games.engines.mage_knight import card_text, cards, combat, invariants, plays, turn
from tests.engines.test_mk_combat_effects import enemy, fight, next_phase
from tests.engines.test_mk_turn import ids, pick, play, started
from tests.engines.mk_random_games import play_random_games_with, to_first_turn


def labels(st, seat=0):
    return {o.id: o.label for o in turn.options(st, seat)[1]}


def unit(uid=1, unit_id="peasants", **kw):
    return dict({"id": unit_id, "ready": True, "wounded": False, "uid": uid}, **kw)


def with_units(hand, *units, **kw):
    st = started(hand=hand, **kw)
    st["seats"][0]["units"] = list(units) or [unit()]
    return st


def to_attack(st):
    """End phases (taking any damage on the hero) until the Attack phase."""
    while st["combat"]["phase"] != "attack":
        next_phase(st)


def unit_pick(st, uid, word):
    """The ``t-unit:<uid>:...`` option whose label names ``word`` (Attack / Block)."""
    return next(i for i, lab in labels(st).items() if i.startswith(f"t-unit:{uid}:") and word in lab)


# ---------------------------------------------------------------- Banner of Fear

def test_banner_of_fear_is_attached_to_a_unit():
    """Banner of Fear basic: "attach to a Unit: in the Block phase spend the Unit to cancel one enemy attack,
    Fame +1" -- the Banner lies with the Unit, as the other Banners do."""
    st = with_units(("banner_of_fear",))
    play(st, "banner_of_fear", "t-basic")
    s = st["seats"][0]
    assert s["units"][0]["banner"] == "banner_of_fear" and s["play_area"] == []


def test_banner_of_fear_spends_its_unit_to_cancel_an_attack_in_the_block_phase():
    """Banner of Fear basic: "in the Block phase spend the Unit to cancel one enemy attack, Fame +1"."""
    st = with_units((), unit(banner="banner_of_fear"))
    fight(st, ["prowlers", "swordsmen"])
    assert not [i for i in ids(st) if i.startswith("t-fear")]  # not in the ranged/siege phase
    next_phase(st)
    assert "t-fear:1" in ids(st)
    pick(st, "t-fear:1")
    assert sorted(ids(st)) == ["fx:0", "fx:1"]  # which enemy's attack
    pick(st, "fx:1")
    assert enemy(st, 1)["skip"] and not enemy(st, 0)["skip"]
    s = st["seats"][0]
    assert s["fame"] == 1 and not s["units"][0]["ready"]
    assert "t-fear:1" not in ids(st)  # the Unit is spent


def test_banner_of_fear_needs_a_ready_unit_and_an_attack_to_cancel():
    """Banner of Fear: "spend the Unit" -- a spent or wounded Unit cannot; nothing to cancel, not offered."""
    st = with_units((), unit(banner="banner_of_fear", ready=False))
    fight(st, ["prowlers"])
    next_phase(st)
    assert "t-fear:1" not in ids(st)
    st = with_units((), unit(banner="banner_of_fear"))
    fight(st, ["prowlers"])
    next_phase(st)
    enemy(st, 0)["skip"] = True  # already does not attack
    assert "t-fear:1" not in ids(st)


def test_banner_of_fear_thrown_away_up_to_three_enemies_do_not_attack():
    """Banner of Fear powered (thrown away): "up to 3 enemies do not attack this combat" -- one pick per enemy,
    "no more" once one was picked; the card is removed from the game."""
    st = started(hand=("banner_of_fear",))
    fight(st, ["prowlers", "swordsmen", "diggers", "crossbowmen"])
    play(st, "banner_of_fear", "t-pw")
    assert "banner_of_fear" in st["seats"][0]["removed"]
    assert sorted(ids(st)) == ["fx:0", "fx:1", "fx:2", "fx:3"]  # the first enemy: no "no more" yet
    pick(st, "fx:1")
    assert "fx:done" in ids(st) and "fx:1" not in ids(st)
    pick(st, "fx:3")
    pick(st, "fx:0")
    assert st["turn"]["pending"] is None  # three: no fourth
    assert [e["skip"] for e in st["combat"]["enemies"]] == [True, True, False, True]


def test_banner_of_fear_thrown_away_may_stop_early():
    """Banner of Fear powered: "up to 3" -- fewer may be chosen."""
    st = started(hand=("banner_of_fear",))
    fight(st, ["prowlers", "swordsmen"])
    play(st, "banner_of_fear", "t-pw", "fx:0", "fx:done")
    assert [e["skip"] for e in st["combat"]["enemies"]] == [True, False]


# ---------------------------------------------------------------- Into the Heat

def test_into_the_heat_adds_two_to_every_units_attacks_and_blocks():
    """Into the Heat basic: "at start of combat: all your Units get +2 Attack and +2 Block this combat; no damage may
    be assigned to Units this turn"."""
    st = with_units(("into_the_heat",), unit(1), unit(2, "utem_guardsmen"))
    fight(st, ["prowlers"])
    play(st, "into_the_heat", "t-basic")
    next_phase(st)
    pick(st, unit_pick(st, 1, "Block"))
    assert st["turn"]["pool"]["block"]["physical"] == 4  # Peasants' Block 2 + 2
    next_phase(st)  # the block is not made: the damage phase
    assert not [i for i in ids(st) if i.startswith("c-d")]  # no damage may be assigned to Units
    next_phase(st)
    pick(st, unit_pick(st, 2, "Attack"))
    assert st["turn"]["pool"]["attack"]["melee"]["physical"] == 4  # Utem Guardsmen's Attack 2 + 2


def test_into_the_heat_powered_adds_three_and_only_at_the_start_of_combat():
    """Into the Heat powered: "as basic with +3"; "at start of combat": offered in the first (ranged and siege)
    phase only, and only with a Unit that could attack or block."""
    st = with_units(("into_the_heat",), dice=("red",))
    fight(st, ["prowlers"])
    play(st, "into_the_heat", "t-pw:die:0")
    next_phase(st)
    pick(st, unit_pick(st, 1, "Block"))
    assert st["turn"]["pool"]["block"]["physical"] == 5
    st = with_units(("into_the_heat",))
    fight(st, ["prowlers"])
    next_phase(st)
    assert "t-play:into_the_heat" not in ids(st) or not [
        i for i, _ in plays.card_modes(st, 0, "into_the_heat") if not i.startswith("t-side")]
    st = started(hand=("into_the_heat",))  # no Unit
    fight(st, ["prowlers"])
    assert "t-play:into_the_heat" not in ids(st)


def test_into_the_heat_raises_a_block_that_counts_twice_against_swift():
    """Into the Heat: "+2 Block" -- Utem Guardsmen's "Block 4, counts double against Swift" becomes Block 6 counted
    twice against a Swift enemy."""
    st = with_units(("into_the_heat",), unit(2, "utem_guardsmen"))
    fight(st, ["crossbowmen"])  # Attack 4, swift: needs Block 8
    play(st, "into_the_heat", "t-basic")
    next_phase(st)
    pick(st, unit_pick(st, 2, "Block"))
    assert combat.block_against(st, st["combat"], 0) == 12


def test_into_the_heat_lasts_one_combat():
    """Into the Heat: "this combat" -- the bonus is gone once the combat is over."""
    st = with_units(("into_the_heat",))
    fight(st, ["prowlers"])
    play(st, "into_the_heat", "t-basic")
    for _ in range(4):
        if st["combat"] is None:
            break
        next_phase(st)
    assert st["combat"] is None and not st["turn"].get("heat")
    assert st["turn"].get("no_unit_damage")  # "this turn"


# ---------------------------------------------------------------- Agility / Diplomacy

def test_agility_leftover_move_is_spent_as_attack_one_for_one():
    """Agility basic: "Move 2; in combat this turn leftover Move may be spent as Attack 1:1"."""
    st = started(hand=("agility",))
    play(st, "agility", "t-basic")
    assert st["turn"]["pool"]["move"] == 2
    fight(st, ["prowlers"])
    assert not [i for i in ids(st) if i.startswith("t-agility")]  # basic: no Ranged Attack
    next_phase(st)
    next_phase(st)
    while st["combat"]["phase"] != "attack":
        next_phase(st)
    got = labels(st)
    assert "t-agility:melee:1" in got and "t-agility:melee:all" in got
    pick(st, "t-agility:melee:all")
    assert st["turn"]["pool"]["move"] == 0 and st["turn"]["pool"]["attack"]["melee"]["physical"] == 2


def test_agility_powered_ranged_two_move_for_one():
    """Agility powered: "Move 4; leftover Move may be spent as Attack 1:1 or as Ranged Attack 2:1"."""
    st = started(hand=("agility",), dice=("white",))
    play(st, "agility", "t-pw:die:0")
    fight(st, ["prowlers"])
    pick(st, "t-agility:ranged:1")
    assert st["turn"]["pool"]["move"] == 2 and st["turn"]["pool"]["attack"]["ranged"]["physical"] == 1
    assert "t-agility:ranged:all" not in ids(st)  # the same as one conversion now
    pick(st, "t-agility:ranged:1")
    assert st["turn"]["pool"]["move"] == 0 and st["turn"]["pool"]["attack"]["ranged"]["physical"] == 2
    assert not [i for i in ids(st) if i.startswith("t-agility")]


def test_agility_played_in_combat_and_other_move_cards_then_count():
    """Agility: "in combat this turn ... Move may be spent as Attack" -- played in the Attack phase it is of use;
    without it Move cards are of no use in combat."""
    st = started(hand=("agility", "march"))
    fight(st, ["prowlers"])
    to_attack(st)
    assert not [i for i, _ in plays.card_modes(st, 0, "march") if not i.startswith("t-side")]
    play(st, "agility", "t-basic")
    play(st, "march", "t-basic")
    assert st["turn"]["pool"]["move"] == 4
    pick(st, "t-agility:melee:all")
    assert st["turn"]["pool"]["attack"]["melee"]["physical"] == 4


def test_diplomacy_influence_is_spent_as_block():
    """Diplomacy basic: "Influence 2; Influence may be used as Block this turn"."""
    st = started(hand=("diplomacy",))
    play(st, "diplomacy", "t-basic")
    fight(st, ["prowlers"])
    assert not [i for i in ids(st) if i.startswith("t-diplomacy")]  # the ranged phase takes no Block
    next_phase(st)
    pick(st, "t-diplomacy:1")
    assert st["turn"]["pool"]["influence"] == 1 and st["turn"]["pool"]["block"]["physical"] == 1


def test_diplomacy_powered_block_of_the_chosen_element():
    """Diplomacy powered: "Influence 4; choose Ice or Fire: Influence may be used as Block of that element this
    turn" -- against a fire attack Ice Block comes first (the default)."""
    st = started(hand=("diplomacy",), dice=("white",))
    fight(st, ["fire_mages"])
    next_phase(st)
    pick(st, "t-play:diplomacy")
    pick(st, "t-pw:die:0")
    got = [o for o in ids(st)]
    assert got == ["fx:ice", "fx:fire"]
    pick(st, "fx:ice")
    pick(st, "t-diplomacy:all")
    assert st["turn"]["pool"]["block"] == {"ice": 4}


# ---------------------------------------------------------------- Flame Wall

def test_flame_wave_adds_two_per_enemy_token():
    """Flame Wall powered (Flame Wave): "Fire Attack 5 or Fire Block 7, +2 per enemy token faced"."""
    st = started(hand=("flame_wall",), dice=("black",), time="night", crystals={"red": 1})
    fight(st, ["prowlers", "swordsmen", "diggers"])
    next_phase(st)
    pick(st, "t-play:flame_wall")
    pick(st, next(i for i in ids(st) if i.startswith("t-pw:")))
    assert st["turn"]["pool"]["block"]["fire"] == 7 + 2 * 3


# ---------------------------------------------------------------- Sword of Justice / Horn of Wrath

def test_sword_of_justice_discards_cards_for_attack_three_each_and_fame_per_defeat():
    """Sword of Justice basic: "discard any number of cards: Attack 3 each; Fame +1 per enemy defeated this
    turn"."""
    st = started(hand=("sword_of_justice", "march", "rage", "stamina"))
    fight(st, ["prowlers"])
    to_attack(st)
    play(st, "sword_of_justice", "t-basic")
    got = ids(st)
    assert got[0] == "fx:done" and "fx:march" in got  # stopping is the safe default
    pick(st, "fx:march")
    assert st["turn"]["pool"]["attack"]["melee"]["physical"] == 3
    pick(st, "fx:done")
    assert "march" in st["seats"][0]["discard"]
    pick(st, "c-t0")
    pick(st, "c-a")
    assert st["seats"][0]["fame"] == 2 + 1  # Prowlers' Fame and +1


def test_sword_of_justice_powered_doubles_physical_attacks_and_removes_physical_resistance():
    """Sword of Justice powered: "physical attacks in your Attack phase count double; enemies lose physical
    resistance this turn; Fame +1 per enemy defeated"."""
    st = started(hand=("sword_of_justice", "rage"))
    fight(st, ["golems"])  # armor 5, physical resistance
    play(st, "sword_of_justice", "t-pw")
    assert combat.resistances_of(st["combat"], 0) == frozenset()
    next_phase(st)
    next_phase(st)
    while st["combat"]["phase"] != "attack":
        next_phase(st)
    play(st, "rage", "t-basic")  # Attack 2 (the only branch of use now)
    while st["turn"]["pending"]:
        pick(st, next(i for i in ids(st) if "fx:" in i))
    pick(st, "c-t0")
    value, _ = combat.attack_value(st, st["combat"], [0])
    assert value == 4
    st["turn"]["pool"]["attack"]["melee"]["physical"] += 1
    pick(st, "c-a")
    assert st["seats"][0]["fame"] == 4 + 1


def test_sword_of_justice_counts_the_enemies_already_defeated_this_turn():
    """Sword of Justice: "Fame +1 per enemy defeated this turn" -- an enemy defeated before the card was played
    counts too."""
    st = started(hand=("sword_of_justice",))
    fight(st, ["prowlers", "swordsmen"])
    st["turn"]["pool"]["attack"]["ranged"]["physical"] = 3
    pick(st, "c-t0")
    pick(st, "c-a")
    assert st["seats"][0]["fame"] == 2
    to_attack(st)
    play(st, "sword_of_justice", "t-basic")
    assert st["seats"][0]["fame"] == 3


def test_horn_of_wrath_powered_chooses_the_bonus_and_rolls_a_die_per_point():
    """Horn of Wrath powered: "Siege Attack 5, add up to +5; roll a die per +1, take a Wound per black or red" --
    no bonus (no dice) is the safe default."""
    st = started(hand=("horn_of_wrath",))
    fight(st, ["prowlers"])
    play(st, "horn_of_wrath", "t-pw")
    got = ids(st)
    assert got == ["fx:0", "fx:1", "fx:2", "fx:3", "fx:4", "fx:5"]
    pick(st, "fx:3")
    assert st["turn"]["pool"]["attack"]["siege"]["physical"] == 8
    wounds = st["seats"][0]["hand"].count(card_text.WOUND)
    assert 0 <= wounds <= 3


# ---------------------------------------------------------------- Golden Grail / In Need

def test_golden_grail_fame_per_healing_point_used():
    """Golden Grail basic: "Heal 2; Fame +1 per healing point of this card used this turn" -- on a Wound in hand
    at once, and on a Unit healed later with the point left over."""
    st = started(hand=("golden_grail", card_text.WOUND))
    st["seats"][0]["units"] = [unit(unit_id="peasants", wounded=True)]
    play(st, "golden_grail", "t-basic")
    s = st["seats"][0]
    assert card_text.WOUND not in s["hand"] and s["fame"] == 1 and st["turn"]["pool"]["heal"] == 1
    pick(st, "t-healunit:1")
    assert s["fame"] == 2 and not s["units"][0]["wounded"]


def test_golden_grail_unused_points_give_no_fame():
    """Golden Grail basic: Fame only "per healing point of this card used"."""
    st = started(hand=("golden_grail", card_text.WOUND))
    play(st, "golden_grail", "t-basic")
    assert st["seats"][0]["fame"] == 1


def test_golden_grail_powered_draws_a_card_per_wound_healed_from_hand():
    """Golden Grail powered: "Heal 6; draw a card each time you heal a Wound from hand this turn" -- the Grail's own
    healing and later healing this turn."""
    st = started(hand=("golden_grail", card_text.WOUND, card_text.WOUND, "tranquility"), deck=("rage",) * 6)
    play(st, "golden_grail", "t-pw")
    s = st["seats"][0]
    assert s["hand"].count(card_text.WOUND) == 0 and s["hand"].count("rage") == 2
    s["hand"].append(card_text.WOUND)
    play(st, "tranquility", "t-basic")
    while st["turn"]["pending"]:
        pick(st, next(i for i, lab in labels(st).items() if "Heal" in lab))
    assert s["hand"].count("rage") == 3


def test_in_need_influence_three_plus_one_per_wound():
    """In Need (MKD, kept): "Influence 3, +1 per Wound in hand or on your Units" (the summary's 2 is not used:
    docs/rules-decisions/mage-knight.md)."""
    st = started(hand=("in_need", card_text.WOUND))
    st["seats"][0]["units"] = [unit(wounded=True)]
    play(st, "in_need", "t-basic")
    assert st["turn"]["pool"]["influence"] == 5


def test_in_need_gives_block_through_diplomacy_in_combat():
    """Diplomacy: "Influence may be used as Block this turn" -- In Need's Influence is then of use in the block
    phase."""
    st = started(hand=("diplomacy", "in_need"))
    fight(st, ["prowlers"])
    assert "t-play:in_need" not in ids(st) or not [
        i for i, _ in plays.card_modes(st, 0, "in_need") if not i.startswith("t-side")]
    next_phase(st)
    play(st, "diplomacy", "t-basic")
    play(st, "in_need", "t-basic")
    pick(st, "t-diplomacy:all")
    assert st["turn"]["pool"]["block"]["physical"] == 5 and st["turn"]["pool"]["influence"] == 0


def test_golden_grail_points_are_lost_on_entering_combat():
    """"Any unspent Healing points disappear when entering combat": the Grail's Fame goes with them."""
    st = started(hand=("golden_grail",))
    st["seats"][0]["units"] = [unit(wounded=True)]
    play(st, "golden_grail", "t-basic")
    assert st["turn"]["grail_points"] == 2
    fight(st, ["prowlers"])
    assert not st["turn"].get("grail_points") and st["turn"]["pool"]["heal"] == 0


# ---------------------------------------------------------------- public and conserved

def test_the_turns_card_effects_are_public_in_the_view_the_board_and_the_mail():
    """Played cards are public: the effects lasting the turn (Agility's conversion, Into the Heat's bonus) are shown
    to every viewer, on the board and in the mail."""
    from games.engines.mage_knight import view as mk_view
    from games.engines.mage_knight.engine import MageKnightEngine
    from games.presentation.mage_knight import board, mail
    from tests.engines.test_mk_card_effects import _to_hand
    e = MageKnightEngine()
    s = e.new_game(players=2, options={}, seed=5)
    seat = to_first_turn(e, s)
    _to_hand(s, s["seats"][seat], "agility")
    e.apply(s, seat, "t-play:agility")
    e.apply(s, seat, "t-basic")
    s["turn"].update(heat=2, no_unit_damage=True)  # as Into the Heat leaves them in a combat
    for viewer in (None, 0, 1):
        effects = mk_view.view(s, viewer)["turn"]["effects"]
        assert any("Agility" in x for x in effects) and any("Into the Heat" in x for x in effects)
    v = mk_view.view(s, 1 - seat)
    assert any("Into the Heat" in x for x in board.pool(v["turn"])["effects"])
    assert "Agility" in mail._effects(v["turn"])
    assert invariants.check(s) == []


NEW_CARDS = ("banner_of_fear", "into_the_heat", "agility", "diplomacy", "flame_wall", "sword_of_justice",
             "horn_of_wrath", "golden_grail", "in_need")


def test_random_games_with_these_cards_keep_the_invariants_and_secrets():
    """The first seat starts with these cards in its deed deck and a Unit: random games still end, card
    conservation holds at every step and no view carries a secret."""
    play_random_games_with(NEW_CARDS)
