"""Mage Knight: the specials of the cards that reach the other players (specials_other_players.py), played as
printed: Mana Meltdown and Mana Radiance.

Each test quotes the card text it checks (``summary`` in /work/shared/data/mage-knight/*.json) and plays the card
through the turn's picks.
"""

from __future__ import annotations

from tests.engines.test_mk_combat_effects import cast, modes
from tests.engines.test_mk_turn import ids, pick


def _choices(st):
    return [i for i in ids(st) if i.startswith("fx:")]


# ---------------------------------------------------------------- Mana Meltdown / Mana Radiance

def _meltdown_game(players=3, night=False, mine=None, others=None):
    """Seat 1 casts Mana Meltdown (red: a red die by day; at night a red crystal and the black die)."""
    from tests.engines.test_mk_turn import started
    crystals = dict(mine or {})
    if night:
        crystals["red"] = crystals.get("red", 0) + 1
    st = started(hand=("mana_meltdown",), dice=("black",) if night else ("red",), time="night" if night else "day",
                 players=players, crystals=crystals)
    for o in range(1, players):  # make_state gives every seat the caster's crystals
        st["seats"][o]["crystals"] = dict({c: 0 for c in ("red", "blue", "green", "white")}, **(others or {}).get(o, {}))
    return st


def _lost(ev):
    return [e for e in ev if "Mana Meltdown" in e.text]


def test_mana_meltdown_each_other_player_loses_a_crystal_or_takes_a_wound():
    """Mana Meltdown: "each other player loses a random crystal (or takes a Wound if they have none); you may gain
    one lost crystal"."""
    st = _meltdown_game(others={1: {"green": 1}})
    pick(st, "t-play:mana_meltdown")
    ev = pick(st, "t-basic:die:0")
    assert st["seats"][1]["crystals"]["green"] == 0  # its only crystal
    assert st["seats"][2]["hand"] == ["wound"]  # none: a Wound into the hand
    assert any("Seat 2 loses a green crystal" in e.text and e.seats is None for e in ev)  # public
    assert any("Seat 3 has no crystal and takes a Wound" in e.text and e.seats is None for e in ev)
    assert _choices(st) == ["fx:none", "fx:green"]  # "you may": none first
    pick(st, "fx:green")
    assert st["seats"][0]["crystals"]["green"] == 1
    assert st["turn"]["pending"] is None and st["turn"]["queue"] == []


def test_mana_meltdown_the_lost_crystal_is_random_and_seeded():
    """Mana Meltdown: "each other player loses a random crystal" -- drawn with the state's rng, each crystal alike."""
    from games.engines.rng import seed_state
    seen = set()
    for seed in range(20):
        st = _meltdown_game(players=2, others={1: {"blue": 1, "white": 2}})
        st["rng"] = seed_state(seed)
        cast(st, "mana_meltdown")
        cr = st["seats"][1]["crystals"]
        assert cr["blue"] + cr["white"] == 2
        seen.add("blue" if cr["blue"] == 0 else "white")
        again = _meltdown_game(players=2, others={1: {"blue": 1, "white": 2}})
        again["rng"] = seed_state(seed)
        cast(again, "mana_meltdown")
        assert again["seats"][1]["crystals"] == cr and again["rng"] == st["rng"]  # the same seed, the same loss
    assert seen == {"blue", "white"}


def test_mana_meltdown_gaining_a_lost_crystal_is_optional_none_by_default():
    """Mana Meltdown: "you MAY gain one lost crystal" -- "none" is the default."""
    from games.engines.mage_knight import turn
    st = _meltdown_game(others={1: {"red": 1}, 2: {"white": 1}})
    cast(st, "mana_meltdown")
    assert _choices(st) == ["fx:none", "fx:red", "fx:white"]
    assert turn.default(st, 0) == "fx:none"
    pick(st, "fx:none")
    assert st["seats"][0]["crystals"] == {"red": 0, "blue": 0, "green": 0, "white": 0}
    assert st["seats"][1]["crystals"]["red"] == 0 and st["seats"][2]["crystals"]["white"] == 0


def test_mana_meltdown_a_fourth_crystal_is_kept_as_a_token():
    """Mana Meltdown: "you may gain one lost crystal" -- at 3 crystals the engine's cap keeps it as a token."""
    from games.engines.mage_knight import turn
    st = _meltdown_game(players=2, mine={"green": 3}, others={1: {"green": 2}})
    cast(st, "mana_meltdown")
    assert "token instead" in {o.id: o.label for o in turn.options(st, 0)[1]}["fx:green"]
    pick(st, "fx:green")
    assert st["seats"][0]["crystals"]["green"] == 3 and st["turn"]["tokens"][-1] == "green"


def test_mana_meltdown_is_of_use_whenever_there_is_another_player():
    """Mana Meltdown: "(or takes a Wound if they have none)" -- the Wound supply never runs out (rules line 13), so with
    another player the basic effect always does something: it is offered even when nobody else holds a crystal."""
    st = _meltdown_game(players=2)
    assert modes(st, "mana_meltdown") == ["t-basic:die:0"]
    st = _meltdown_game(players=3, others={1: {"blue": 1}})
    cast(st, "mana_meltdown")
    assert st["seats"][2]["hand"] == ["wound"]
    assert st["seats"][1]["crystals"]["blue"] == 0


def test_mana_meltdown_solo_the_dummy_player_is_no_player():
    """Mana Meltdown: "each other player ..." -- the rules count players "excluding the dummy": in the solo game
    there is no other player, the basic effect is of no use (not offered) and the Dummy keeps its crystals; Mana
    Radiance's "every player incl. you" is the caster alone."""
    st = _meltdown_game(players=1, night=True, mine={"white": 1})
    st["dummy"] = {"hero": "goldyx", "deck": [], "discard": [], "crystals": {"red": 0, "blue": 2, "green": 0,
                                                                             "white": 1}, "tactic": None}
    got = modes(st, "mana_meltdown")
    assert got and all(m.startswith("t-pw") for m in got)
    cast(st, "mana_meltdown", powered=True)
    pick(st, "fx:white")
    assert st["seats"][0]["hand"] == ["wound"] and st["seats"][0]["crystals"]["white"] == 3
    assert st["dummy"]["crystals"] == {"red": 0, "blue": 2, "green": 0, "white": 1}


def test_mana_radiance_every_player_takes_a_wound_per_crystal_and_you_gain_two():
    """Mana Radiance: "choose a basic colour; every player incl. you takes a Wound per crystal of that colour; you gain
    2 crystals of it"."""
    st = _meltdown_game(players=3, night=True, mine={"blue": 2}, others={1: {"blue": 1, "red": 2}, 2: {"red": 3}})
    cast(st, "mana_meltdown", powered=True)  # the red crystal pays: the caster holds 2 blue
    assert sorted(_choices(st)) == ["fx:blue", "fx:green", "fx:red", "fx:white"]
    ev = pick(st, "fx:blue")
    assert st["seats"][0]["hand"].count("wound") == 2 and st["seats"][1]["hand"] == ["wound"]
    assert st["seats"][2]["hand"] == []
    assert st["seats"][1]["crystals"]["blue"] == 1  # the crystals stay: a Wound per crystal, none lost
    assert st["seats"][0]["crystals"]["blue"] == 3 and st["turn"]["tokens"][-1] == "blue"  # 2 + 2: the cap
    assert any("Seat 2 takes 1 Wound" in e.text and e.seats is None for e in ev)


def test_mana_radiance_default_colour_wounds_you_least_and_every_wound_is_given():
    """Mana Radiance: "every player incl. you takes a Wound per crystal of that colour" -- all of them (the supply
    never runs out); the default colour is the one the caster holds fewest of."""
    from games.engines.mage_knight import turn
    st = _meltdown_game(players=2, night=True, mine={"blue": 2, "white": 1, "green": 1},
                        others={1: {"red": 3}})
    cast(st, "mana_meltdown", powered=True)
    assert turn.default(st, 0) == "fx:red"  # 0 red crystals after paying
    pick(st, "fx:red")
    assert st["seats"][0]["hand"] == [] and st["seats"][1]["hand"] == ["wound"] * 3
    assert st["seats"][0]["crystals"]["red"] == 2
