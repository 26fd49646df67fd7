"""Mage Knight rules once simplified, now played as written, each pinned against the rules text.

Quotes are from ../shared/rules/mage-knight-rules.txt (cited by line) or from the First Reconnaissance setup in
../shared/data/mage-knight/scenario_first_reconnaissance.json (the scenario the rules text refers to: "as specified by
the scenario"). The readings are recorded in docs/rules-decisions/mage-knight.md.
"""

from __future__ import annotations

import pytest

from games.engines.mage_knight import hexmap, invariants, view
from games.engines.mage_knight.engine import MageKnightEngine
from games.engines.mage_knight.setup import new_state
from games.engines.mage_knight.tiles import TILES

# An old saved game kept a count of 60 wound cards in "decks"; once every one was dealt the
# count stood at 0 and heroes took no more wounds. These tests start from such an exhausted count.
OLD_EXHAUSTED_PILE = {"wounds": 0}


# ---------------------------------------------------------------- the wound supply never runs out

def test_wounds_never_run_out_in_combat_poison_and_knock_out():
    """Rules line 13: "5. **Wound Cards**: Stack the **Wound Cards** face up." -- no number is given and nothing says
    the pile can run out; line 163: "Put a **Wound** into your hand and reduce the damage by your armor. Repeat until
    all damage is assigned." and line 164: "your hero can continue using skills and taking wounds." So a hero who
    already holds the old 60-card pile (count 0) still takes every Wound: Cursed Hags 3 on armor 2 -> 2 into the
    hand, 2 more into the discard pile (poison), and 2 >= hand limit 2 knocks the hero out."""
    from tests.engines.test_mk_combat import fight, make_state, pick, to_damage
    s = make_state(hand=("march", "rage"), hand_limit=2)
    s["decks"] = dict(OLD_EXHAUSTED_PILE)
    s["seats"][0]["deck"] = ["wound"] * 60  # every card of the old pile already dealt
    fight(s, ["cursed_hags"])
    to_damage(s)
    pick(s, "c-h0")
    seat = s["seats"][0]
    assert seat["hand"].count("wound") == 2
    assert seat["discard"].count("wound") == 2  # poison
    assert s["combat"]["knocked_out"] and "march" in seat["discard"]
    assert sum(seat[p].count("wound") for p in ("deck", "hand", "discard")) == 64  # more than 60 in all


def test_wounds_never_run_out_for_card_effects_on_other_players():
    """Rules line 13 (no limit to the Wound pile): Mana Meltdown's "(or takes a Wound if they have none)" gives the
    Wound even where the old count was exhausted, and the card stays of use; Mana Curse ("other players using that
    colour take a Wound") likewise."""
    from games.engines.mage_knight import mana
    from tests.engines.test_mk_specials_other_players import _meltdown_game, cast, modes
    st = _meltdown_game(players=2)
    st["decks"].update(OLD_EXHAUSTED_PILE)
    assert modes(st, "mana_meltdown")  # of use: the other seat has no crystal but can always take a Wound
    cast(st, "mana_meltdown")
    assert st["seats"][1]["hand"] == ["wound"]
    # Mana Curse: seat 0 holds a cursed claim on green; seat 1 pays green during its turn.
    from tests.engines.test_mk_turn import make_state
    from games.engines.mage_knight import turn
    st = make_state(players=2, hand=())
    st["decks"].update(OLD_EXHAUSTED_PILE)
    st["seats"][0]["claimed"] = {"colour": "green", "each_turn": False, "curse": True}
    other = st["seats"][1]
    other["crystals"]["green"], other["pos"] = 1, "0,1"
    turn.start(st, 1, [])
    mana.pay(st, 1, "crystal:green")
    assert other["hand"].count("wound") == 1


def test_a_hand_of_only_wounds_must_rest():
    """Rules line 76: "**Slow Recovery**: If your hand consists only of **Wounds**, discard one **Wound**." With the
    full rulebook's "you have to play or discard at least one card during or at the end of your turn", a hand of only
    Wounds (none can be played) leaves the Slow Recovery as the turn: no move, no challenge, no plain "end turn". It
    is what ends a Round once Wounds never run out: a hero cannot fight on and gather Wounds without end."""
    from games.engines.mage_knight import turn
    from tests.engines.test_mk_turn import cell, make_state
    orc = {"id": "prowlers", "colour": "green", "face_up": True}
    st = make_state(hand=("wound", "wound"), hexes={"1,0": cell(enemies=[orc], rampaging=True)})
    turn.start(st, 0, [])
    assert [o.id for o in turn.options(st, 0)[1]] == ["t-rest"]
    assert turn.default(st, 0) == "t-rest"
    st["seats"][0]["hand"].append("march")  # a card to play: the regular turn is back
    assert {"t-rest", "t-end", "t-play:march", "t-challenge:1,0"} <= {o.id for o in turn.options(st, 0)[1]}


def test_a_new_game_keeps_no_wound_count_and_the_view_shows_none():
    """Rules line 13: the Wound pile is a face-up stack with no number, so the state keeps no count of it and the
    view shows none (a count that runs down would be a limit the rules do not set)."""
    s = new_state(4, {}, 3)
    assert "wounds" not in s["decks"]
    v = view.view(s, 0)
    assert "wounds_left" not in v


@pytest.mark.parametrize("players", [1, 4])
def test_an_old_saved_game_with_a_wound_count_still_loads_and_plays(players):
    """Older saved states hold ``decks["wounds"]`` (a count); the engine ignores it: the state still
    passes the invariant checks, shows a view and plays to the end with random picks."""
    from games.engines.bots import RandomBot, play
    engine = MageKnightEngine()
    s = engine.new_game(players=players, options={}, seed=5)
    s["decks"]["wounds"] = 0  # the old field, exhausted
    assert invariants.check(s) == []
    assert "wounds_left" not in view.view(s, 0)
    play(engine, s, [RandomBot(40 + i) for i in range(players)])
    assert engine.is_over(s) and invariants.check(s) == []


# ---------------------------------------------------------------- the countryside tiles by number

@pytest.mark.parametrize("players,countryside", [(1, 8), (2, 8), (3, 9), (4, 11)])
@pytest.mark.parametrize("seed", range(5))
def test_first_reconnaissance_deals_the_lowest_numbered_countryside_tiles_in_order(players, countryside, seed):
    """Rules line 20: "Randomly pick **Countryside (green) Tiles** as specified by the scenario." The scenario
    specifies ("setup_by_player_count": "countryside_tiles": 8 / 9 / 11, "countryside_order": "sorted by number (not
    shuffled)"; the rulebook's scenario list: "Countryside tiles: 8, 9, or 11, sorted by numbers"): the training
    scenario's tiles are countryside 1..N, tile 1 on top, the same for every seed. Tiles 1 and 2 are the two revealed
    at setup; the tiles left out (N+1..11) are the spares of the fallback rule."""
    s = new_state(players, {}, seed)
    m = s["map"]
    deck = m["setup_tiles"] + m["tile_deck"]
    assert deck[:countryside] == [f"countryside_{n}" for n in range(1, countryside + 1)]
    assert m["setup_tiles"] == ["countryside_1", "countryside_2"]
    assert m["spare"]["countryside"] == [f"countryside_{n}" for n in range(countryside + 1, 12)]
    assert sorted(TILES[t].kind for t in deck[countryside:]) == ["city", "core", "core"]
    assert hexmap.tiles_left(m) == countryside + 3 - 2
