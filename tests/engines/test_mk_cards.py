"""Mage Knight deed cards: cards.csv, the effect vocabulary, and the rules of "Playing Cards"."""

from __future__ import annotations

import csv
import io
import os

import pytest

from games.engines.mage_knight import card_text, cards, plays, specials_registry, turn, unit_rules
from tests.engines.test_mk_turn import ids, pick, play, started

DATA = "/work/shared/data/mage-knight"


# ---------------------------------------------------------------- the table

def test_standard_deck_is_sixteen_cards():
    """"Shuffle your 16 Basic Action Cards to form your Deed Deck." """
    standard = [c for c in cards.CARDS.values() if c.kind == "basic" and c.copies > 0
                and "replaces" not in c.text]
    assert sum(c.copies for c in standard) == 16


def test_every_hero_deck_uses_known_cards():
    """The heroes' decks (heroes.csv, mkcore) name only cards of cards.csv, 16 each."""
    path = os.path.join(os.path.dirname(cards.__file__), "heroes.csv")
    with open(path) as f:
        for row in csv.DictReader(f):
            deck = row["deck"].split()
            assert len(deck) == 16 and all(c in cards.CARDS for c in deck), row["id"]


def test_base_set_counts():
    """Base set: 28 advanced actions, 20 spells, 16 artifacts, one copy each (setup deals from deck_of)."""
    assert len(cards.deck_of("advanced")) == 28
    assert len(cards.deck_of("spell")) == 20
    assert len(cards.deck_of("artifact")) == 16


def test_spells_and_actions_have_a_basic_colour_artifacts_may_not():
    """"powered with one corresponding Mana": every action card and spell names its colour."""
    for c in cards.CARDS.values():
        if c.kind in ("basic", "advanced", "spell"):
            assert c.colour in ("red", "blue", "green", "white"), c.id


@pytest.mark.skipif(not os.path.isdir(DATA), reason="shared data not here")
def test_compile_cards_reproduces_the_csv(tmp_path, monkeypatch):
    """tools/compile_cards.py regenerates cards.csv from the shared data (a reproducible derivation)."""
    import importlib.util
    path = os.path.join(os.path.dirname(cards.__file__), "tools", "compile_cards.py")
    spec = importlib.util.spec_from_file_location("compile_cards", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "cards.csv"
    monkeypatch.setattr(mod, "OUT", out)
    mod.main(["x", DATA])
    with open(cards.CSV_PATH) as f:
        assert out.read_text() == f.read()


# ---------------------------------------------------------------- the vocabulary

def test_parse_precedence_and_parentheses():
    """README: "A + B (all of), A | B (choose one)"; "|" binds looser, parentheses group."""
    assert card_text.parse("attack 2 | block 2") == ["any", [["atom", "attack", 2, "physical"],
                                                         ["atom", "block", 2, "physical"]]]
    assert card_text.parse("move 2 + heal 1 | draw 1")[0] == "any"
    tree = card_text.parse("(influence 4 | attack 3) + reputation -1")
    assert tree[0] == "all" and tree[1][0][0] == "any" and tree[1][1] == ["atom", "reputation", -1]
    assert card_text.parse("ranged 3 fire") == ["atom", "ranged", 3, "fire"]


@pytest.mark.parametrize("bad", ["attack", "fly 3", "attack 2 lava", "special nothing_like_this", "(move 2",
                                 "move 2 +", "crystal gold"])
def test_parse_refuses_what_is_not_vocabulary(bad):
    with pytest.raises(card_text.EffectError):
        card_text.parse(bad)


def test_every_special_in_the_csv_is_implemented():
    """Effects outside the vocabulary are `special NAME` handled by an effect module (specials_registry.SPECIALS): none may be unknown."""
    def walk(t):
        if t is None:
            return
        if t[0] == "atom":
            if t[1] == "special":
                assert t[2] in specials_registry.SPECIALS
        else:
            for x in t[1]:
                walk(x)
    for c in cards.CARDS.values():
        walk(c.basic)
        walk(c.powered)


# ---------------------------------------------------------------- playing cards

def test_action_card_basic_effect():
    """"Action Cards: Can be played for their basic effect" (March: Move 2)."""
    st = started(hand=("march",))
    play(st, "march", "t-basic")
    assert st["turn"]["pool"]["move"] == 2
    assert st["seats"][0]["play_area"] == ["march"] and st["seats"][0]["hand"] == []


def test_action_card_powered_needs_its_colour():
    """"... or powered with one corresponding Mana for a stronger effect" (March powered: Move 4, green)."""
    st = started(hand=("march",), dice=("red", "blue"))
    pick(st, "t-play:march")
    assert not [i for i in ids(st) if i.startswith("t-pw")]  # no green mana anywhere
    st = started(hand=("march",), dice=("green", "blue"))
    pick(st, "t-play:march")
    pick(st, "t-pw:die:0")
    assert st["turn"]["pool"]["move"] == 4
    assert st["source"]["taken"] == [0]


def test_choice_effect_asks_which():
    """Rage: "Attack 2 or Block 2" -- outside combat neither is of use, so only sideways Move/Influence."""
    st = started(hand=("rage",))
    pick(st, "t-play:rage")
    assert sorted(ids(st)) == ["t-back", "t-side:influence", "t-side:move"]


def test_tranquility_asks_heal_or_draw():
    """Tranquility basic "Heal 1 or draw 1": with a Wound in hand both are of use, so the player picks."""
    st = started(hand=("tranquility", "wound"), deck=("rage",))
    play(st, "tranquility", "t-basic")
    assert sorted(ids(st)) == ["fx:0", "fx:1"]
    pick(st, "fx:0")
    assert st["seats"][0]["hand"] == []


def test_heal_removes_wound_cards_from_hand():
    """Heal: each point removes a Wound card from the hand (back to the supply)."""
    st = started(hand=("tranquility", "wound", "wound", "wound"), deck=(), dice=("green",))
    play(st, "tranquility", "t-pw:die:0")  # Heal 2 or draw 2; the deck is empty, so heal
    assert st["seats"][0]["hand"].count("wound") == 1


def test_no_healing_in_combat():
    """"You can play special or healing effects at any time, except healing effects during combat." """
    st = started(hand=("tranquility", "wound"), deck=())
    st["combat"] = {"seat": 0, "phase": "block", "context": {"kind": "challenge"}, "enemies": []}
    modes = [i for i, _ in plays.card_modes(st, 0, "tranquility")]
    assert "t-basic" not in modes


def test_sideways_for_one_move_influence_attack_or_block():
    """"Any Non-Wound Card: Can be played sideways for 1 Move, Influence, Attack, or Block point." """
    st = started(hand=("crystallize", "promise"))
    play(st, "crystallize", "t-side:move")
    assert st["turn"]["pool"]["move"] == 1
    play(st, "promise", "t-side:influence")
    assert st["turn"]["pool"]["influence"] == 1


def test_sideways_attack_and_block_only_in_their_combat_phases():
    """"You cannot play cards sideways for these attacks" (ranged phase); Block phase and Attack phase take them."""
    st = started(hand=("march",))
    st["combat"] = {"seat": 0, "phase": "ranged", "context": {"kind": "challenge"}, "enemies": []}
    assert not [i for i, _ in plays.card_modes(st, 0, "march") if i.startswith("t-side")]
    st["combat"]["phase"] = "block"
    assert [i for i, _ in plays.card_modes(st, 0, "march") if i.startswith("t-side")] == ["t-side:block"]
    st["combat"]["phase"] = "attack"
    assert [i for i, _ in plays.card_modes(st, 0, "march") if i.startswith("t-side")] == ["t-side:attack"]


def test_wounds_cannot_be_played():
    """"Wound Cards: Cannot be played unless explicitly stated." """
    st = started(hand=("wound", "march"))
    assert "t-play:wound" not in ids(st)
    assert plays.card_modes(st, 0, "wound") == []


def test_spell_basic_needs_mana_of_its_colour():
    """"Spell Cards: Powered by one corresponding Mana for their basic effect." """
    st = started(hand=("fireball",), dice=("blue",))
    st["combat"] = {"seat": 0, "phase": "ranged", "context": {"kind": "challenge"}, "enemies": []}
    assert not [i for i, _ in plays.card_modes(st, 0, "fireball") if not i.startswith("t-side")]
    st["seats"][0]["crystals"]["red"] = 1
    modes = [i for i, _ in plays.card_modes(st, 0, "fireball")]
    assert modes == ["t-basic:crystal:red"]  # no powered by day, no sideways in the ranged phase


def test_spell_strong_effect_only_at_night_with_black():
    """"At night, they can be powered with Mana and one Black Mana for a stronger effect." """
    st = started(hand=("fireball",), dice=("black",), time="night", crystals={"red": 1})
    st["combat"] = {"seat": 0, "phase": "ranged", "context": {"kind": "challenge"}, "enemies": []}
    modes = [i for i, _ in plays.card_modes(st, 0, "fireball")]
    assert "t-pw:crystal:red/die:0" in modes
    st["time"] = "day"
    st["source"]["dice"] = ["gold"]
    assert not [i for i in (m for m, _ in plays.card_modes(st, 0, "fireball")) if i.startswith("t-pw")]


def test_artifact_powered_is_thrown_away():
    """"Artifact Cards: Played for their basic effect or "thrown away" (removed from the game)" """
    st = started(hand=("endless_bag_of_gold",))
    play(st, "endless_bag_of_gold", "t-pw")
    s = st["seats"][0]
    assert s["removed"] == ["endless_bag_of_gold"] and s["play_area"] == []
    assert st["turn"]["pool"]["influence"] == 9 and s["fame"] == 3


def test_improvisation_needs_another_card_to_discard():
    """Improvisation: discard a card to gain Move/Influence/Attack/Block 3; no other card, no basic play."""
    st = started(hand=("improvisation",))
    assert "t-basic" not in [i for i, _ in plays.card_modes(st, 0, "improvisation")]
    st = started(hand=("improvisation", "rage", "march"))
    play(st, "improvisation", "t-basic")
    assert sorted(ids(st)) == ["fx:march", "fx:rage"]  # which card to discard
    pick(st, "fx:rage")
    assert sorted(ids(st)) == ["fx:0", "fx:1"]  # Move 3 or Influence 3 outside combat
    pick(st, "fx:0")
    assert st["turn"]["pool"]["move"] == 3 and st["seats"][0]["discard"] == ["rage"]


def test_concentration_powers_the_next_action_card_for_free():
    """Concentration powered: the next Action card's powered effect for free, +2."""
    st = started(hand=("concentration", "march"), dice=("green",))
    play(st, "concentration", "t-pw:die:0")
    play(st, "march", "t-pw")
    assert st["turn"]["pool"]["move"] == 6
    assert st["turn"]["boost"] == 0


def test_crystallize_turns_a_mana_into_a_crystal():
    """Crystallize basic: "spend 1 basic-colour mana; gain a crystal of that colour"."""
    st = started(hand=("crystallize",), dice=("red",))
    play(st, "crystallize", "t-basic")
    assert st["seats"][0]["crystals"]["red"] == 1 and st["source"]["taken"] == [0]


def test_threaten_powered_costs_reputation():
    """Threaten powered: Influence 5 and Reputation -1."""
    st = started(hand=("threaten",), dice=("red",))
    play(st, "threaten", "t-pw:die:0")
    assert st["turn"]["pool"]["influence"] == 5 and st["seats"][0]["reputation"] == -1


def test_draw_takes_from_the_top_of_the_deck():
    """Tranquility powered "draw 2": the top of a deck is the end of its list (setup.py deals so)."""
    st = started(hand=("tranquility",), deck=("rage", "march", "stamina"), dice=("green",))
    play(st, "tranquility", "t-pw:die:0")
    assert st["seats"][0]["hand"] == ["stamina", "march"]


def test_mana_token_of_any_colour_is_a_choice():
    """`mana any` (Blood Ritual): a token of any of the six colours."""
    st = started(hand=("blood_ritual",))
    play(st, "blood_ritual", "t-basic")
    assert len(ids(st)) == 6
    pick(st, "fx:4")  # gold
    assert st["turn"]["tokens"] == ["gold"] and st["seats"][0]["crystals"]["red"] == 1
    assert st["seats"][0]["hand"] == ["wound"]


def test_describe_is_readable():
    assert card_text.describe(cards.CARDS["rage"].basic) == "Attack 2 or Block 2"
    assert card_text.describe(cards.CARDS["fireball"].basic) == "Ranged Attack 5 (fire)"


def test_wounds_cannot_pay_a_cost():
    """"You cannot play a card if its cost is not paid in full. You cannot pay with Wound Cards unless
    explicitly stated." -- Improvisation cannot discard a Wound."""
    st = started(hand=("improvisation", "wound", "wound"))
    modes = [i for i, _ in plays.card_modes(st, 0, "improvisation")]
    assert "t-basic" not in modes and not [m for m in modes if m.startswith("t-pw")]
    st = started(hand=("improvisation", "wound", "march"))
    play(st, "improvisation", "t-basic")
    assert st["seats"][0]["discard"] == ["march"]  # the only non-Wound card pays, without a pick


def test_pure_magic_colour_decides_the_effect():
    """Pure Magic: "pay 1 basic mana: green -> Move 4, white -> Influence 4, blue -> Block 4, red -> Attack 4"."""
    st = started(hand=("pure_magic",), dice=("green", "red"), crystals={"white": 1})
    play(st, "pure_magic", "t-basic")
    got = ids(st)
    assert sorted(got) == ["fx:crystal:white>white", "fx:die:0>green"]  # Attack is of no use outside combat
    pick(st, "fx:die:0>green")
    assert st["turn"]["pool"]["move"] == 4


def test_mana_bolt_in_the_attack_phase():
    """Mana Bolt: "pay 1 mana: blue Ice Attack 8, red Cold Fire Attack 7, white Ranged Ice Attack 6, green
    Siege Ice Attack 5" -- on top of the blue mana that casts the spell."""
    st = started(hand=("mana_bolt",), dice=("blue",), crystals={"red": 1})
    st["combat"] = {"seat": 0, "phase": "attack", "context": {"kind": "challenge"}, "enemies": [],
                    "targets": []}
    pick(st, "t-play:mana_bolt")
    pick(st, "t-basic:die:0")  # the die casts the spell; the red crystal is then the only mana left
    assert st["turn"]["pool"]["attack"]["melee"] == {"cold_fire": 7}
    assert st["seats"][0]["crystals"]["red"] == 0


def test_ambush_bonus_goes_to_the_first_attack_or_block_card():
    """Ambush: "first Attack card this turn gets +1 or first Block card +2 (whichever comes first)"."""
    st = started(hand=("ambush", "rage", "march"))
    play(st, "ambush", "t-basic")
    st["combat"] = {"seat": 0, "phase": "block", "context": {"kind": "challenge"}, "enemies": [], "targets": []}
    play(st, "rage", "t-basic")  # Block 2 (+2)
    assert st["turn"]["pool"]["block"] == {"physical": 4}
    play(st, "march", "t-side:block")  # the bonus is used up
    assert st["turn"]["pool"]["block"] == {"physical": 5}


# ---------------------------------------------------------------- plain English

import re  # noqa: E402

from games.engines.bots import RandomBot, play as play_game  # noqa: E402
from games.engines.mage_knight import units as unit_data  # noqa: E402
from games.engines.registry import get_engine  # noqa: E402

# What the effect vocabulary looks like when it leaks into text meant for people.
LEFTOVERS = [
    (re.compile(r"\|"), "a '|'"),
    (re.compile(r"\bspecial "), "'special NAME'"),
    (re.compile(r"_"), "an id with '_'"),
    (re.compile(r"->"), "an arrow"),
    (re.compile(r"\b(move|influence|attack|ranged|siege|block|heal|reputation|fame|wound|mana|crystal) -?\d"),
     "a lower-case atom"),
    (re.compile(r"\bdraw \d+(?! cards?\b)"), "a lower-case draw atom"),
    (re.compile(r"\d (ice|fire|cold_fire)\b"), "an element word after a number ('attack 2 fire')"),
    (re.compile(r"(?<![\d+-])1 (wounds|cards|tokens|crystals|dice|mana tokens|enemies)\b", re.I), "a wrong plural"),
]


def leftovers(text: str) -> list[str]:
    return [what for pattern, what in LEFTOVERS if pattern.search(text)]


def test_card_text_is_plain_english():
    """Card text in plain English with correct plurals. Every card's text is written by the
    same describer as the option labels: "Attack 2 or Block 2. Powered (red mana): Attack 4."."""
    assert cards.CARDS["rage"].text == "Attack 2 or Block 2. Powered (red mana): Attack 4."
    assert cards.CARDS["swiftness"].text == "Move 2. Powered (white mana): Ranged Attack 3."
    assert cards.CARDS["ice_bolt"].text == "Gain a blue crystal. Powered (blue mana): Ranged Attack 3 (ice)."
    assert cards.CARDS["tranquility"].text == ("Heal 1 wound or draw 1 card. Powered (green mana): "
                                               "Heal 2 wounds or draw 2 cards.")
    assert "Blizzard (at night, with blue and black mana)" in cards.CARDS["snowstorm"].text
    for c in cards.CARDS.values():
        assert not leftovers(c.text), (c.id, c.text, leftovers(c.text))
        if c.kind != "wound":
            assert card_text.sentence(card_text.describe(c.basic)) in c.text, c.id


def test_unit_abilities_are_plain_english():
    """Unit abilities in plain English too: the option "use <unit>: ..." uses the same describer."""
    for uid in unit_data.UNITS:
        for tree, _colour in unit_rules.unit_abilities(uid):
            assert tree is not None, uid
            text = card_text.describe(tree)
            assert not leftovers(text), (uid, text)


def test_describe_plurals():
    """"correct plurals": 1 wound / 2 wounds, 1 card / 2 cards."""
    assert card_text.describe(card_text.parse("heal 1")) == "Heal 1 wound"
    assert card_text.describe(card_text.parse("heal 2")) == "Heal 2 wounds"
    assert card_text.describe(card_text.parse("wound 1")) == "take 1 wound"
    assert card_text.describe(card_text.parse("draw 1")) == "draw 1 card"
    assert card_text.describe(card_text.parse("crystal blue + crystal blue")) == "gain 2 blue crystals"
    assert card_text.describe(card_text.parse("ranged 3 fire")) == "Ranged Attack 3 (fire)"
    assert card_text.describe(card_text.parse("block 5 cold_fire")) == "Block 5 (cold fire)"


class _Recorder(RandomBot):
    """A random bot that keeps every prompt text, option label and hand card text it is shown."""

    def __init__(self, seed, seen):
        super().__init__(seed)
        self.seen = seen

    def choose(self, engine, state, seat, prompt=None):
        prompt = prompt or engine.prompt(state, seat)
        self.seen.update(o.label for o in prompt.options)
        me = engine.view(state, seat).get("me") or {}
        self.seen.update(c.get("text", "") for c in me.get("hand", []))
        return super().choose(engine, state, seat, prompt)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_option_labels_of_random_games_are_plain_english(players):
    """No option label a player sees in whole random games repeats the effect vocabulary."""
    engine = get_engine("mage_knight")
    seen: set[str] = set()
    for seed in range(5):
        state = engine.new_game(players=players, options={}, seed=400 + 10 * players + seed)
        play_game(engine, state, [_Recorder(seed * 5 + i, seen) for i in range(players)])
    bad = sorted((s, leftovers(s)) for s in seen if leftovers(s))
    assert not bad, bad[:20]
    assert len(seen) > 100
