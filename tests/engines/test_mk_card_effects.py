"""Mage Knight: cards that used to be simplified, played as printed (the shared data's card summaries).

Each test quotes the card text it checks (``summary`` in /work/shared/data/mage-knight/*.json).
"""

from __future__ import annotations

from games.engines.mage_knight import card_text, cards, hero, invariants, site_actions, turn, unit_rules
from tests.engines.test_mk_turn import cell, ids, pick, play, started
from tests.engines.mk_random_games import play_random_games_with, to_first_turn


def labels(st, seat=0):
    return {o.id: o.label for o in turn.options(st, seat)[1]}


# ---------------------------------------------------------------- Concentration / Will Focus

def test_concentration_bonus_is_given_once_on_one_effect():
    """Concentration powered: "play together with another Action card: use that card's powered effect for
    free, +2 if it gives Move/Influence/Block/Attack" -- the +2 once, on the one effect the card gives."""
    st = started(hand=("concentration", "ambush", "march"), dice=("green",))
    play(st, "concentration", "t-pw:die:0")
    play(st, "ambush", "t-pw")  # Move 4 (+2) and the first Attack/Block card gets a bonus
    assert st["turn"]["pool"]["move"] == 6
    assert "bonus" not in st["turn"]
    play(st, "march", "t-basic")  # the next card gets nothing more
    assert st["turn"]["pool"]["move"] == 8


def test_concentration_bonus_goes_to_the_chosen_effect_only():
    """Concentration powered: "+2 if it gives Move/Influence/Block/Attack" -- on the branch chosen."""
    st = started(hand=("concentration", "tranquility"), dice=("green",), deck=("rage", "rage", "march"))
    play(st, "concentration", "t-pw:die:0")
    play(st, "tranquility", "t-pw")  # Heal 2 | draw 2: no Move/Influence/Attack/Block, no bonus
    assert "bonus" not in st["turn"] and st["turn"]["pool"]["move"] == 0


def test_concentration_is_offered_only_with_an_action_card_of_use():
    """Concentration powered: "play together with another Action card" -- with none of use, not offered."""
    st = started(hand=("concentration", "rage"), dice=("green",))  # Rage powered: Attack 4, no use outside combat
    pick(st, "t-play:concentration")
    assert not [i for i in ids(st) if i.startswith("t-pw")]


def test_will_focus_gives_plus_three_once():
    """Will Focus powered: "like Concentration's powered effect but +3 instead of +2"."""
    st = started(hand=("goldyx_will_focus", "promise"), dice=("green",))
    play(st, "goldyx_will_focus", "t-pw:die:0")
    pick(st, "t-play:promise")
    assert "+3" in labels(st)["t-pw"]
    pick(st, "t-pw")
    assert st["turn"]["pool"]["influence"] == 7


# ---------------------------------------------------------------- Noble Manners

def _at_village(hand, **kw):
    return started(hand=hand, hexes={"0,0": cell("plains", "village")}, **kw)


def test_noble_manners_fame_only_if_the_influence_is_used():
    """Noble Manners basic: "Influence 2; +1 Fame at end of turn if used in an interaction"."""
    st = started(hand=("norowas_noble_manners",))
    play(st, "norowas_noble_manners", "t-basic")
    assert st["turn"]["pool"]["influence"] == 2 and st["seats"][0]["fame"] == 0
    pick(st, "t-end")
    assert st["seats"][0]["fame"] == 0  # never used in an interaction: no Fame


def test_noble_manners_powered_fame_and_reputation_after_an_interaction():
    """Noble Manners powered: "Influence 4; +1 Fame and +1 Reputation at end of turn if used in an
    interaction"."""
    st = _at_village(("norowas_noble_manners",), dice=("white",), deck=("rage",) * 6)
    st["seats"][0]["hand"].append(card_text.WOUND)
    play(st, "norowas_noble_manners", "t-pw:die:0")
    assert st["seats"][0]["fame"] == 0 and st["seats"][0]["reputation"] == 0  # not at once
    pick(st, "t-interact")
    pick(st, "i-h")  # buy 1 Healing (3)
    assert st["seats"][0]["fame"] == 0
    pick(st, "t-back")
    pick(st, "t-end")
    assert st["seats"][0]["fame"] == 1 and st["seats"][0]["reputation"] == 1


def test_noble_manners_played_after_the_last_purchase_gives_nothing():
    """Noble Manners: "+1 Fame at end of turn if used in an interaction": played after the purchase, its
    Influence is not used."""
    st = _at_village(("promise", "norowas_noble_manners"), deck=("rage",) * 6)
    st["seats"][0]["hand"].append(card_text.WOUND)
    play(st, "promise", "t-basic")
    st["turn"]["pool"]["influence"] += 1  # 3 in all, for the Healing
    pick(st, "t-interact")
    pick(st, "i-h")
    pick(st, "t-back")
    play(st, "norowas_noble_manners", "t-basic")
    pick(st, "t-end")
    assert st["seats"][0]["fame"] == 0


# ---------------------------------------------------------------- Meditation / Trance

def test_meditation_puts_two_random_discards_on_top_and_draws_two_more():
    """Meditation: "put 2 random cards from discard pile on top or bottom of Deed deck; draw 2 over Hand limit at
    end of turn"."""
    st = started(hand=("meditation",), dice=("green",), deck=("march",) * 8)
    s = st["seats"][0]
    s["discard"] = ["rage", "swiftness", "stamina"]
    s["hand_limit"] = 3
    play(st, "meditation", "t-basic:die:0")
    assert sorted(ids(st)) == ["fx:bottom", "fx:top"]  # your choice: top or bottom
    held = list(st["turn"]["meditation"])
    assert len(held) == 2 and set(held) <= {"rage", "swiftness", "stamina"}
    pick(st, "fx:top")
    assert sorted(s["deck"][-2:]) == sorted(held) and len(s["discard"]) == 1 and len(s["deck"]) == 10
    pick(st, "t-end")
    assert len(s["hand"]) == 5  # Hand limit 3, +2
    assert set(held) <= set(s["hand"])  # the two cards on top came back in the draw


def test_meditation_bottom_keeps_them_under_the_deck():
    """Meditation: "on top or bottom of Deed deck" -- the bottom."""
    st = started(hand=("meditation",), dice=("green",), deck=("march",) * 3)
    s = st["seats"][0]
    s["discard"] = ["rage", "rage"]
    play(st, "meditation", "t-basic:die:0", "fx:bottom")
    assert s["deck"] == ["rage", "rage", "march", "march", "march"] and s["discard"] == []


def test_trance_chooses_the_two_cards():
    """Trance: "as basic but you choose the 2 cards"."""
    st = started(hand=("meditation",), dice=("green",), time="night", deck=("march",) * 3)
    st["turn"]["tokens"].append("black")
    s = st["seats"][0]
    s["discard"] = ["rage", "swiftness", "stamina"]
    pick(st, "t-play:meditation")
    pick(st, next(i for i in ids(st) if i.startswith("t-pw")))
    assert sorted(ids(st)) == ["fx:rage", "fx:stamina", "fx:swiftness"]
    pick(st, "fx:stamina")
    assert sorted(ids(st)) == ["fx:rage", "fx:swiftness"]
    pick(st, "fx:rage")
    pick(st, "fx:top")
    assert s["deck"][-2:] == ["stamina", "rage"] and s["discard"] == ["swiftness"]
    assert st["turn"]["hand_bonus"] == 2


def test_meditation_not_offered_with_nothing_to_put_back_or_draw():
    """Meditation: "put 2 random cards from discard pile ...; draw 2 over Hand limit": no discard, no deck, no
    use."""
    st = started(hand=("meditation",), dice=("green",), deck=())
    pick(st, "t-play:meditation")
    assert not [i for i in ids(st) if i.startswith("t-basic")]


def test_the_randomly_picked_cards_are_named_to_their_owner_only():
    """Meditation's pick is random from a pile nobody else sees: only the owner is told which cards."""
    st = started(hand=("meditation",), dice=("green",), deck=("march",) * 3)
    st["seats"][0]["discard"] = ["rage", "swiftness"]
    pick(st, "t-play:meditation")
    ev = pick(st, "t-basic:die:0")
    public = " ".join(e.text for e in ev if e.seats is None)
    assert "Rage" not in public and "Swiftness" not in public
    assert any("Rage" in e.text for e in ev if e.seats == (0,))


# ---------------------------------------------------------------- Steady Tempo

def test_steady_tempo_asks_the_may_at_the_end_of_the_turn():
    """Steady Tempo basic: "Move 2; at end of turn may put this card on the bottom of a non-empty Deed deck
    instead of discarding"."""
    st = started(hand=("steady_tempo",), deck=("rage",) * 8)
    play(st, "steady_tempo", "t-basic")
    pick(st, "t-end")
    assert ids(st) == ["t-tempo:yes", "t-tempo:no"] and turn.default(st, 0) == "t-tempo:yes"
    pick(st, "t-tempo:no")
    s = st["seats"][0]
    assert st["turn"] is None and s["discard"] == ["steady_tempo"] and "steady_tempo" not in s["deck"]


def test_steady_tempo_goes_under_the_deck():
    """Steady Tempo basic: "may put this card on the bottom of a non-empty Deed deck"."""
    st = started(hand=("steady_tempo",), deck=("rage",) * 8)
    play(st, "steady_tempo", "t-basic")
    pick(st, "t-end")
    pick(st, "t-tempo:yes")
    assert st["seats"][0]["deck"][0] == "steady_tempo" and st["seats"][0]["discard"] == []


def test_steady_tempo_basic_not_asked_with_an_empty_deck():
    """Steady Tempo basic: "on the bottom of a non-empty Deed deck": an empty deck, no question."""
    st = started(hand=("steady_tempo",), deck=())
    play(st, "steady_tempo", "t-basic")
    pick(st, "t-end")
    assert st["turn"] is None and st["seats"][0]["discard"] == ["steady_tempo"]


def test_steady_tempo_powered_may_go_on_top():
    """Steady Tempo powered: "Move 4; at end of turn may put this card on top of the Deed deck"."""
    st = started(hand=("steady_tempo",), deck=(), dice=("blue",))
    play(st, "steady_tempo", "t-pw:die:0")
    pick(st, "t-end")
    assert "on top" in labels(st)["t-tempo:yes"]
    pick(st, "t-tempo:yes")
    assert st["seats"][0]["hand"] == ["steady_tempo"]


# ---------------------------------------------------------------- Maximal Effect

def test_maximal_effect_basic_uses_a_basic_effect_three_times_and_throws_the_card_away():
    """Maximal Effect basic: "play with another Action card: use its basic effect 3 times, then throw that card
    away"."""
    st = started(hand=("maximal_effect", "march", "rage"))
    play(st, "maximal_effect", "t-basic")  # Rage's Attack 2 or Block 2 is of no use outside combat: March, at once
    s = st["seats"][0]
    assert st["turn"]["pool"]["move"] == 6
    assert "march" in s["removed"] and "march" not in s["hand"] + s["play_area"] + s["discard"]
    assert s["play_area"] == ["maximal_effect"]


def test_maximal_effect_powered_uses_a_powered_effect_twice_for_free():
    """Maximal Effect powered: "play with another Action card: use its powered effect twice for free, then throw
    it away"."""
    st = started(hand=("maximal_effect", "march", "promise"), dice=("red",))
    play(st, "maximal_effect", "t-pw:die:0")
    assert sorted(ids(st)) == ["fx:march", "fx:promise"]
    pick(st, "fx:promise")
    assert st["turn"]["pool"]["influence"] == 8 and st["source"]["taken"] == [0]


def test_maximal_effect_each_use_is_its_own_choice():
    """Maximal Effect: "use its basic effect 3 times" -- a choice in the effect is made each time."""
    st = started(hand=("maximal_effect", "tranquility"), deck=("rage",) * 5)
    st["seats"][0]["hand"] += [card_text.WOUND]
    play(st, "maximal_effect", "t-basic")  # the only Action card: Tranquility's Heal 1 | draw 1, three times
    pick(st, "fx:0")  # heal the Wound
    assert hero.wounds_in_hand(st["seats"][0]) == 0
    # no Wound left: the other two uses can only draw, taken at once
    assert len(st["seats"][0]["hand"]) == 2


def test_maximal_effect_not_offered_without_another_action_card():
    """Maximal Effect: "play with another Action card" -- none in hand, not offered."""
    st = started(hand=("maximal_effect", "fireball"), dice=("red",))
    pick(st, "t-play:maximal_effect")
    assert not [i for i in ids(st) if i.startswith(("t-basic", "t-pw"))]


def test_maximal_effect_repeats_a_cost_only_while_it_can_be_paid():
    """Improvisation basic ("discard a card: Move 3, ...") three times through Maximal Effect: each use
    discards a card; a use whose cost cannot be paid is not made ("You cannot play a card if its cost is not paid
    in full")."""
    st = started(hand=("maximal_effect", "improvisation", "rage"))
    play(st, "maximal_effect", "t-basic")
    pick(st, "fx:0")  # Move 3 (Rage was the only card to discard)
    assert st["turn"]["pool"]["move"] == 3 and st["turn"]["queue"] == [] and st["turn"]["pending"] is None


# ---------------------------------------------------------------- Call to Arms

def test_call_to_arms_uses_an_offered_units_ability():
    """Call to Arms: "use the ability of one Unit in the Unit offer this turn as if you had it (cannot assign
    damage to it)"."""
    st = started(hand=("call_to_arms",), dice=("white",))
    play(st, "call_to_arms", "t-basic:die:0")
    got = labels(st)
    assert any("Peasants" in lab and "Move 2" in lab for lab in got.values())
    assert not any("Attack" in lab or "Block" in lab for lab in got.values())  # outside combat: of no use
    pick(st, next(i for i, lab in got.items() if "Peasants" in lab and "Move 2" in lab))
    assert st["turn"]["pool"]["move"] == 2
    assert st["offers"]["units"] == ["peasants", "utem_guardsmen"] and st["seats"][0]["units"] == []


def _fighting(hand, **kw):
    """A challenge against one orc, moved on to the block phase."""
    st = started(hand=hand, **kw)
    colour = "green"
    enemy = st["enemies"]["piles"][colour].pop()
    site_actions.begin_combat(st, 0, [{"id": enemy, "colour": colour, "face_up": False, "hex": "1,0"}],
                      {"kind": "challenge", "hex": "1,0", "site": None, "fortified": 0, "return_to": None}, [])
    pick(st, "c-next")
    assert st["combat"]["phase"] == "block"
    return st


def test_call_to_arms_pays_the_units_own_mana():
    """Call to Arms: "use the ability of one Unit in the Unit offer this turn as if you had it" -- an ability that
    costs mana is paid for as for one's own Unit."""
    st = _fighting(("call_to_arms",), dice=("white",), crystals={"red": 1})
    st["offers"]["units"] = ["guardian_golems"]
    play(st, "call_to_arms", "t-basic:die:0")
    got = labels(st)
    fire = next(i for i, lab in got.items() if "Block 4 (fire)" in lab)
    assert "red crystal" in got[fire]
    pick(st, fire)
    assert st["turn"]["pool"]["block"]["fire"] == 4 and st["seats"][0]["crystals"]["red"] == 0


def test_call_to_arms_not_offered_without_a_useful_ability():
    """Call to Arms: "use the ability of one Unit in the Unit offer": none of use now, not offered."""
    st = started(hand=("call_to_arms",), dice=("white",))
    st["offers"]["units"] = ["utem_guardsmen"]  # Attack / Block only
    pick(st, "t-play:call_to_arms")
    assert not [i for i in ids(st) if i.startswith("t-basic")]


# ---------------------------------------------------------------- Magic Talent

def test_magic_talent_casts_a_spell_of_the_discarded_cards_colour_from_the_offer():
    """Magic Talent basic: "discard a card: may play one Spell from the Spell offer this turn as if in hand (it stays
    in the offer)" -- printed: "Discard a card of any color. You may play one Spell card of the same color"."""
    st = started(hand=("magic_talent", "rage", "march"), dice=("red",))
    st["offers"]["spells"] = ["fireball", "snowstorm", "whirlwind"]
    colour = "red"
    enemy = st["enemies"]["piles"]["green"].pop()
    site_actions.begin_combat(st, 0, [{"id": enemy, "colour": "green", "face_up": False, "hex": "1,0"}],
                      {"kind": "challenge", "hex": "1,0", "site": None, "fortified": 0, "return_to": None}, [])
    play(st, "magic_talent", "t-basic")  # Rage is the only card whose colour has a Spell of use (Fireball, red)
    s = st["seats"][0]
    assert "rage" in s["discard"] and st["turn"]["talent"] == colour
    assert "t-talent:fireball" in ids(st) and "t-talent:snowstorm" not in ids(st)
    pick(st, "t-talent:fireball")
    assert not [i for i in ids(st) if i.startswith("t-side")]
    pick(st, "t-basic:die:0")
    assert st["turn"]["pool"]["attack"]["ranged"]["fire"] == 5
    assert "fireball" in st["offers"]["spells"] and "fireball" not in s["hand"] + s["play_area"] + s["discard"]
    assert "talent" not in st["turn"] and not [i for i in ids(st) if i.startswith("t-talent")]  # one Spell only


def test_magic_talent_not_offered_without_a_castable_spell_of_a_hand_colour():
    """Magic Talent basic: "a Spell card of the same color in the Spells offer": no such Spell of use (or no mana
    to cast it), not offered."""
    st = started(hand=("magic_talent", "march"), dice=("red",))
    st["offers"]["spells"] = ["fireball"]  # red, and March is green
    pick(st, "t-play:magic_talent")
    assert not [i for i in ids(st) if i.startswith("t-basic")]


# ---------------------------------------------------------------- Learning

def test_learning_buys_an_advanced_action_once_into_the_discard_pile():
    """Learning basic: "Influence 2; once this turn may pay 6 Influence for an Advanced Action from the offer to the
    discard pile"."""
    st = started(hand=("learning", "promise"))
    play(st, "learning", "t-basic")
    assert not [i for i in ids(st) if i.startswith("t-learn")]  # Influence 2: not enough yet
    play(st, "promise", "t-basic")
    st["turn"]["pool"]["influence"] += 2  # 6 in all
    assert "t-learn:fire_bolt" in ids(st)
    pick(st, "t-learn:fire_bolt")
    s = st["seats"][0]
    assert s["discard"] == ["fire_bolt"] and "fire_bolt" not in st["offers"]["advanced"]
    assert st["offers"]["advanced"][0] == "swift_bolt"  # the offer is refilled
    assert st["turn"]["pool"]["influence"] == 0
    st["turn"]["pool"]["influence"] = 9
    assert not [i for i in ids(st) if i.startswith("t-learn")]  # once this turn


def test_learning_powered_buys_into_the_hand_for_nine():
    """Learning powered: "Influence 4; once this turn may pay 9 Influence for an Advanced Action from the offer into
    hand"."""
    st = started(hand=("learning",), dice=("white",))
    play(st, "learning", "t-pw:die:0")
    st["turn"]["pool"]["influence"] += 4
    assert not [i for i in ids(st) if i.startswith("t-learn")]  # 8 < 9
    st["turn"]["pool"]["influence"] += 1
    pick(st, "t-learn:agility")
    assert st["seats"][0]["hand"] == ["agility"] and st["turn"]["pool"]["influence"] == 0


# ---------------------------------------------------------------- card conservation in a whole game

def _to_hand(s, seat_state, card):
    """Move one copy of ``card`` from wherever it waits (a deck or an offer) into the seat's hand."""
    for where in (s["decks"]["advanced"], s["decks"]["spells"], s["offers"]["advanced"], s["offers"]["spells"],
                  s["offers"].get("monastery", [])):
        if card in where:
            where.remove(card)
            seat_state["hand"].append(card)
            return
    raise AssertionError(card)


def test_the_new_effects_keep_card_conservation_in_a_real_game():
    """Card conservation (invariants.py) holds while Maximal Effect throws a card away and Trance / Meditation
    move discards into the deed deck, picked through the engine."""
    from games.engines.mage_knight.engine import MageKnightEngine
    e = MageKnightEngine()
    s = e.new_game(players=1, options={}, seed=5)
    seat = to_first_turn(e, s)
    me = s["seats"][seat]
    for c in ("maximal_effect", "meditation", "steady_tempo"):
        _to_hand(s, me, c)
    me["discard"] += [me["deck"].pop(), me["deck"].pop()]
    me["crystals"]["green"] = 1
    assert invariants.check(s) == []

    def choose(prefix):
        p = e.prompt(s, seat)
        opt = next(o.id for o in p.options if o.id.startswith(prefix))
        e.apply(s, seat, opt)
        assert invariants.check(s) == []

    choose("t-play:maximal_effect")
    choose("t-basic")
    while s["turn"]["pending"] is not None:
        choose("fx:")
    assert len(me["removed"]) == 1
    choose("t-play:meditation")
    choose("t-basic:")
    while s["turn"]["pending"] is not None:
        choose("fx:")
    choose("t-end")  # the turn ends (the next one may have begun): every card is still where it can be counted
    assert invariants.check(s) == []


# ---------------------------------------------------------------- Banners

def _with_unit(hand, unit="peasants", **kw):
    st = started(hand=hand, **kw)
    st["seats"][0]["units"] = [{"id": unit, "ready": True, "wounded": False, "uid": 1}]
    return st


def test_a_banner_is_attached_to_a_unit_and_stays_there():
    """Banner of Glory basic: "attach to a Unit: +1 Armor, +1 to its attacks and blocks, Fame +1 whenever it attacks
    or blocks" -- the card lies with the Unit, out of the play area, after the turn too."""
    st = _with_unit(("banner_of_glory",), deck=("rage",) * 6)
    play(st, "banner_of_glory", "t-basic")  # one Unit: attached at once
    s = st["seats"][0]
    assert s["units"][0]["banner"] == "banner_of_glory" and s["play_area"] == []
    pick(st, "t-end")
    assert s["units"][0]["banner"] == "banner_of_glory" and "banner_of_glory" not in s["discard"]


def test_a_banner_needs_a_unit():
    """Banners: "attach to a Unit" -- with no Unit the basic effect is of no use."""
    st = started(hand=("banner_of_glory",))
    pick(st, "t-play:banner_of_glory")
    assert not [i for i in ids(st) if i == "t-basic"]


def test_a_new_banner_replaces_the_old_one():
    """One Banner per Unit: attaching another puts the old one into the discard pile."""
    st = _with_unit(("banner_of_courage",))
    st["seats"][0]["units"][0]["banner"] = "banner_of_glory"
    play(st, "banner_of_courage", "t-basic")
    s = st["seats"][0]
    assert s["units"][0]["banner"] == "banner_of_courage" and s["discard"] == ["banner_of_glory"]


def test_banner_of_glory_adds_one_to_the_units_attack_and_gives_fame():
    """Banner of Glory basic: "+1 to its attacks and blocks, Fame +1 whenever it attacks or blocks"."""
    st = _fighting(("march",))
    st["seats"][0]["units"] = [{"id": "peasants", "ready": True, "wounded": False, "uid": 1,
                                "banner": "banner_of_glory"}]
    block = next(i for i, lab in labels(st).items() if i.startswith("t-unit:1") and "Block" in lab)
    pick(st, block)
    assert st["turn"]["pool"]["block"]["physical"] == 3 and st["seats"][0]["fame"] == 1


def test_banner_of_glory_and_protection_add_armor_protection_resistances():
    """Banner of Glory / Protection basic: "+1 Armor"; Protection: "fire and ice resistance"."""
    st = _with_unit(())
    u = st["seats"][0]["units"][0]
    assert unit_rules.unit_armor(st, 0, u) == 3
    u["banner"] = "banner_of_protection"
    assert unit_rules.unit_armor(st, 0, u) == 4 and {"fire", "ice"} <= unit_rules.unit_resistances(st, 0, u)
    u["banner"] = "banner_of_glory"
    assert unit_rules.unit_armor(st, 0, u) == 4 and not unit_rules.unit_resistances(st, 0, u)


def test_banner_of_glory_thrown_away_helps_every_unit_this_turn():
    """Banner of Glory powered: "this turn all your Units get +1 Armor and +1 attack/block; Fame +1 per Unit that
    attacks or blocks"."""
    st = _fighting(("banner_of_glory",))
    st["seats"][0]["units"] = [{"id": "peasants", "ready": True, "wounded": False, "uid": 1}]
    play(st, "banner_of_glory", "t-pw")
    assert "banner_of_glory" in st["seats"][0]["removed"]
    assert unit_rules.unit_armor(st, 0, st["seats"][0]["units"][0]) == 4
    pick(st, next(i for i, lab in labels(st).items() if i.startswith("t-unit:1") and "Block" in lab))
    assert st["turn"]["pool"]["block"]["physical"] == 3 and st["seats"][0]["fame"] == 1


def test_banner_of_courage_readies_its_unit_once_a_round_outside_combat():
    """Banner of Courage basic: "attach to a Unit: once a Round outside combat flip to ready that Unit (unflip at
    Round start)"."""
    st = _with_unit(("march",))
    u = st["seats"][0]["units"][0]
    u.update(banner="banner_of_courage", banner_used=False)
    assert "t-courage:1" not in ids(st)  # the Unit is ready: nothing to do
    u["ready"] = False
    pick(st, "t-courage:1")
    assert u["ready"] and u["banner_used"]
    u["ready"] = False
    assert "t-courage:1" not in ids(st)  # once a Round


def test_banner_of_protection_thrown_away_throws_away_the_turns_wounds():
    """Banner of Protection powered: "at end of turn you may throw away all Wounds received this turn"."""
    st = started(hand=("banner_of_protection",), deck=("rage",) * 8)
    st["seats"][0]["hand"].append(card_text.WOUND)  # an old Wound: not received this turn
    hero.take_wounds(st, 0, 2, [])
    play(st, "banner_of_protection", "t-pw")
    pick(st, "t-end")
    assert ids(st) == ["t-protect:yes", "t-protect:no"]
    pick(st, "t-protect:yes")
    s = st["seats"][0]
    assert (s["hand"] + s["discard"]).count(card_text.WOUND) == 1


def test_a_banner_goes_to_the_discard_pile_with_its_unit_gone():
    """"the banner stays with the Unit until ... the Unit is gone": a disbanded Unit's Banner is discarded."""
    from games.engines.mage_knight import interaction
    st = _with_unit(())
    st["seats"][0]["units"][0]["banner"] = "banner_of_glory"
    interaction.disband(st, 0, 1, [])
    assert st["seats"][0]["discard"] == ["banner_of_glory"] and st["seats"][0]["units"] == []


def test_banners_may_be_discarded_at_the_rounds_preparation():
    """Round preparation: "Flip any used Banners ... back to their ready side (you may discard Banners at this
    point)" -- a pick before the deed cards are shuffled; the cards stay conserved."""
    from games.engines.mage_knight import rounds
    from games.engines.mage_knight.engine import MageKnightEngine
    from games.engines.rng import Rng
    e = MageKnightEngine()
    s = e.new_game(players=2, options={}, seed=3)
    me = s["seats"][0]
    s["decks"]["artifacts"].remove("banner_of_courage")
    s["decks"]["artifacts"].remove("banner_of_glory")
    s["offers"]["units"].remove(s["offers"]["units"][0])
    me["units"] = [{"id": "peasants", "ready": False, "wounded": False, "uid": 1, "banner": "banner_of_courage",
                    "banner_used": True},
                   {"id": "utem_guardsmen", "ready": True, "wounded": False, "uid": 2, "banner": "banner_of_glory"}]
    rng, ev = Rng(s["rng"]), []
    rounds.prepare_round(s, rng, ev)
    assert s["effect"] == {"seat": 0, "kind": "banners", "then": []}
    assert [o[0] for o in rounds.banner_options(s, 0)] == ["done", "discard:1", "discard:2"]
    rounds.banner_pick(s, 0, "discard:2", rng, ev)
    assert s["effect"]["kind"] == "banners"  # asked again: one Banner is left
    rounds.banner_pick(s, 0, "done", rng, ev)
    assert s["effect"] is None and s["phase"] == "tactics"
    assert "banner_of_glory" in me["deck"] + me["hand"]  # shuffled into the deed deck with the rest
    assert me["units"][0]["banner"] == "banner_of_courage" and me["units"][0]["banner_used"] is False
    assert me["units"][0]["ready"]
    assert not [b for b in invariants.check(s) if "artifact" in b]  # every Banner counted once


def test_an_attached_banner_is_public_in_the_view_the_board_and_the_mail():
    """A Banner on a Unit lies face up: every viewer's view names it; the board and the mail show it."""
    from games.engines.mage_knight import view as mk_view
    from games.presentation.mage_knight import board, mail
    from games.engines.mage_knight.engine import MageKnightEngine
    st = MageKnightEngine().new_game(players=2, options={}, seed=4)
    st["seats"][0]["units"] = [{"id": "peasants", "ready": True, "wounded": False, "uid": 1,
                                "banner": "banner_of_courage", "banner_used": True}]
    for viewer in (None, 0, 1):
        u = mk_view.view(st, viewer)["heroes"][0]["units"][0]
        assert u["banner"] == {"id": "banner_of_courage", "name": "Banner of Courage", "used": True}
    assert board.unit(u)["banner"]["name"] == "Banner of Courage"
    assert "with Banner of Courage (used)" in mail._units([u])


# ---------------------------------------------------------------- whole random games with these cards

NEW_CARDS = ("banner_of_glory", "banner_of_protection", "banner_of_courage", "maximal_effect", "meditation",
             "magic_talent", "learning", "steady_tempo", "call_to_arms", "mind_read")


def test_random_games_with_the_new_cards_keep_the_invariants_and_secrets():
    """The first seat starts with the newly faithful cards in its deed deck and a Unit: random games still end,
    card conservation holds at every step (banners on Units included) and no view carries a secret."""
    play_random_games_with(NEW_CARDS)


# ---------------------------------------------------------------- Mind Read / Mind Steal

def _mind_game(hand0, hands, night=False):
    """A 3-player engine game at seat 0's turn with these hands (cards taken from the decks they belong to)."""
    from games.engines.mage_knight.engine import MageKnightEngine
    e = MageKnightEngine()
    s = e.new_game(players=3, options={}, seed=11)
    while s["dec"] is None or s["dec"]["kind"] != "turn" or s["dec"]["seat"] != 0:
        if s["dec"] is None:
            e.resolve(s)
        else:
            e.apply(s, s["dec"]["seat"], e.default_option(s, s["dec"]["seat"]))
    for i, hand in [(0, hand0), *hands.items()]:
        seat = s["seats"][i]
        seat["deck"] += seat["hand"] + seat["discard"]
        seat["hand"], seat["discard"] = [], []
        for c in hand:
            for where in (seat["deck"], seat["discard"], s["decks"]["spells"], s["offers"]["spells"],
                          s["decks"]["advanced"], s["offers"]["advanced"]):
                if c in where:
                    where.remove(c)
                    seat["hand"].append(c)
                    break
            else:
                raise AssertionError(c)
    if night:
        s["time"] = "night"
    s["turn"]["tokens"] += ["white", "black"]
    assert invariants.check(s) == []
    return e, s


def _choose(e, s, seat, prefix):
    if s["dec"] is None:
        e.resolve(s)
    assert s["dec"]["seat"] == seat, s["dec"]
    opt = next(o.id for o in e.prompt(s, seat).options if o.id.startswith(prefix))
    ev = e.apply(s, seat, opt)
    assert invariants.check(s) == []
    return ev


def test_mind_read_gives_a_crystal_and_the_others_discard_or_show_their_hand():
    """Mind Read: "choose a colour, gain a crystal of it; each other player discards a Spell/Action of that colour
    or shows they have none"."""
    e, s = _mind_game(("mind_read",), {1: ("rage", "march"), 2: ("rage", "threaten", "march")})
    _choose(e, s, 0, "t-play:mind_read")
    _choose(e, s, 0, "t-basic:")
    ev = _choose(e, s, 0, "fx:red")
    assert s["seats"][0]["crystals"]["red"] == 1
    assert s["seats"][1]["discard"] == ["rage"]  # one red card: discarded at once
    assert any("discards Rage" in x.text and x.seats is None for x in ev)
    if s["dec"] is None:
        e.resolve(s)
    assert s["dec"] == {"seat": 2, "kind": "mind_read"}  # two red cards: seat 3 picks
    assert sorted(o.id for o in e.prompt(s, 2).options) == ["discard:rage", "discard:threaten"]
    _choose(e, s, 2, "discard:threaten")
    assert s["seats"][2]["discard"] == ["threaten"]
    if s["dec"] is None:
        e.resolve(s)
    assert s["dec"]["seat"] == 0 and s["dec"]["kind"] == "turn"


def test_mind_read_without_such_a_card_the_hand_is_shown():
    """Mind Read: "... or shows they have none"."""
    e, s = _mind_game(("mind_read",), {1: ("march",), 2: ()})
    _choose(e, s, 0, "t-play:mind_read")
    _choose(e, s, 0, "t-basic:")
    ev = _choose(e, s, 0, "fx:white")
    shown = [x.text for x in ev if "shows their hand" in x.text]
    assert len(shown) == 2 and "March" in shown[0]


def test_mind_steal_keeps_a_discarded_action_card():
    """Mind Steal: "as basic; you may keep one discarded Action card (not a Spell) in your hand"."""
    e, s = _mind_game(("mind_read",), {1: ("rage",), 2: ("fireball",)}, night=True)
    _choose(e, s, 0, "t-play:mind_read")
    _choose(e, s, 0, "t-pw:")
    _choose(e, s, 0, "fx:red")
    assert sorted(o.id for o in e.prompt(s, 0).options) == ["fx:1>rage", "fx:none"]  # not the Spell
    _choose(e, s, 0, "fx:1>rage")
    assert s["seats"][0]["hand"] == ["rage"] and s["seats"][1]["discard"] == []
    assert s["seats"][2]["discard"] == ["fireball"]
