"""Mage Knight: a player's turn (turn.py, plays.py, movement.py, site_actions.py) -- regular turn, rest, movement,
exploring, provocation, sites.

Small hand-built states (make_state / cell) so each rule is checked on its own; the other mk test files
import these helpers.
"""

from __future__ import annotations

import pytest

from games.engines.mage_knight import card_text, cards, hexgrid, hexmap, movement, plays, pool, site_actions, turn
from games.engines.mage_knight.enemies import COLOURS, ENEMIES
from games.engines.rng import seed_state


def cell(terrain="plains", site=None, **extra):
    h = {"terrain": terrain, "site": site, "tile": "t", "mine_colour": None, "city_colour": None, "enemies": [],
         "rampaging": False, "owner": None, "conquered": False, "burned": False, "ruins": None}
    h.update(extra)
    return h


def make_state(hand=("march",), deck=("rage", "rage", "stamina"), hexes=None, pos="0,0", time="day",
               dice=("red", "blue", "green", "white"), players=1, crystals=None, reputation=0):
    """One seat at ``pos`` on a flat little map (every neighbour of 0,0 is plains unless ``hexes`` says)."""
    m_hexes = {"0,0": cell()}
    for n in hexgrid.neighbours("0,0"):
        m_hexes[n] = cell()
    m_hexes.update(hexes or {})
    seats = []
    for i in range(players):
        seats.append({
            "hero": "tovak", "pos": pos if i == 0 else None, "deck": list(deck), "hand": list(hand) if i == 0 else [],
            "discard": [], "play_area": [], "removed": [], "fame": 0, "reputation": reputation, "level": 1,
            "armor": 2, "hand_limit": 5, "command": 1, "units": [],
            "crystals": dict({"red": 0, "blue": 0, "green": 0, "white": 0}, **(crystals or {})),
            "skills": [], "skill_pile": [], "skills_used": [], "shields": 0, "rewards": []})
    return {
        "players": players, "solo": players == 1, "rng": seed_state(7), "step": 0, "n": 0, "round": 1,
        "rounds_total": 4, "time": time, "phase": "turn", "over": False, "result": None,
        "order": list(range(players)), "cur": 0, "end_announced_by": None, "last_turns": [],
        "city_revealed_by": None,
        "map": {"hexes": m_hexes, "tiles": [], "tile_deck": [], "spare": {"countryside": [], "core": []},
                "ruins_pile": [], "ruins_discard": []},
        "source": {"dice": list(dice), "taken": []},
        "offers": {"units": ["peasants", "utem_guardsmen"], "advanced": ["fire_bolt", "ice_bolt", "agility"],
                   "spells": ["fireball", "snowstorm", "whirlwind"]},
        "decks": {"advanced": ["swift_bolt"], "spells": ["flame_wall"], "artifacts": ["ruby_ring", "golden_grail"],
                  "units_regular": [], "units_elite": []},
        "enemies": {"piles": {c: [e.id for e in ENEMIES.values() if e.colour == c] for c in COLOURS},
                    "discards": {c: [] for c in COLOURS}},
        "ruins": {"pile": [], "discard": []},
        "tactics": {"available": [], "removed": [], "chosen": {}},
        "seats": seats, "dummy": None, "turn": None, "combat": None, "dec": None,
    }


def started(**kw):
    st = make_state(**kw)
    turn.start(st, 0, [])
    return st


def ids(st, seat=0):
    return [o.id for o in turn.options(st, seat)[1]]


def pick(st, option_id, seat=0):
    assert option_id in ids(st, seat), (option_id, ids(st, seat))
    ev = []
    turn.apply(st, seat, option_id, ev)
    return ev


def play(st, card, mode, *more):
    pick(st, f"t-play:{card}")
    pick(st, mode)
    for m in more:
        pick(st, m)


# ---------------------------------------------------------------- the first level

def test_first_level_offers_rest_play_move_and_end():
    """"On your turn, you have a choice: take a Regular Turn or Rest." """
    st = started(hand=("march", "rage"))
    got = ids(st)
    assert "t-rest" in got and "t-play:march" in got and "t-end" in got
    assert not [i for i in got if i.startswith("t-move")]  # no Move points yet


def test_rest_is_only_offered_before_anything_is_done():
    """"take a Regular Turn or Rest": resting is instead of a regular turn."""
    st = started(hand=("march", "rage"))
    play(st, "march", "t-side:move")
    assert "t-rest" not in ids(st)


def test_default_rests_at_the_start_and_ends_later():
    """The deadline pick: rest at the start of a turn, else end it safely."""
    st = started(hand=("march", "rage"))
    assert turn.default(st, 0) == "t-rest"
    play(st, "march", "t-basic")
    assert turn.default(st, 0) == "t-end"


def test_empty_hand_may_skip_the_turn():
    """"You can also skip your turn if your hand is empty." """
    st = started(hand=(), deck=("rage",))
    assert ids(st) == ["t-end"]
    pick(st, "t-end")
    assert st["turn"] is None


# ---------------------------------------------------------------- rest

def test_standard_rest_discards_one_non_wound_and_any_wounds():
    """"Standard Rest: ... discard one non-wound card and any number of Wounds." """
    st = started(hand=("march", "rage", "wound", "wound"), deck=("stamina",) * 5)
    pick(st, "t-rest")
    assert sorted(ids(st)) == ["t-rd:march", "t-rd:rage"]  # the non-wound card first
    pick(st, "t-rd:rage")
    assert "t-rw:all" in ids(st) and "t-rdone" in ids(st)
    pick(st, "t-rw:all")
    s = st["seats"][0]
    assert st["turn"] is None
    assert sorted(s["discard"]) == ["rage", "wound", "wound"]
    assert "wound" not in s["hand"]


def test_standard_rest_may_keep_the_wounds():
    """"discard one non-wound card and any number of Wounds" -- zero is a number."""
    st = started(hand=("march", "wound"), deck=())
    pick(st, "t-rest")
    pick(st, "t-rd:march")
    pick(st, "t-rdone")
    assert st["seats"][0]["hand"] == ["wound"]


def test_slow_recovery_discards_exactly_one_wound():
    """"Slow Recovery: If your hand consists only of Wounds, discard one Wound." """
    st = started(hand=("wound", "wound", "wound"), deck=())
    pick(st, "t-rest")
    assert ids(st) == ["t-rw:slow"]
    pick(st, "t-rw:slow")
    assert st["seats"][0]["hand"].count("wound") == 2
    assert st["seats"][0]["discard"] == ["wound"]


def test_rest_needs_a_card():
    """"You must play or discard at least one card to rest." -- no rest with an empty hand."""
    st = started(hand=(), deck=("march",))
    assert "t-rest" not in ids(st)


def test_a_rest_cannot_end_without_its_discard():
    """"You must play or discard at least one card to rest": the rest prompt has no way out without one."""
    st = started(hand=("march",), deck=())
    pick(st, "t-rest")
    assert ids(st) == ["t-rd:march"]
    assert turn.default(st, 0) == "t-rd:march"


# ---------------------------------------------------------------- announcing the end of the round

def test_announce_end_of_round_with_empty_deck():
    """"until a player with an empty Deed Deck announces the end of the round instead of taking a turn" """
    st = started(hand=("march",), deck=())
    assert "t-announce" in ids(st)
    pick(st, "t-announce")
    assert st["end_announced_by"] == 0 and st["turn"] is None


def test_no_announcement_with_cards_in_the_deck_or_once_announced():
    """Only "a player with an empty Deed Deck" announces, and only once a round."""
    st = started(hand=("march",), deck=("rage",))
    assert "t-announce" not in ids(st)
    st = make_state(hand=("march",), deck=())
    st["end_announced_by"] = 1
    turn.start(st, 0, [])
    assert "t-announce" not in ids(st)


# ---------------------------------------------------------------- movement

def test_move_costs_follow_the_terrain():
    """"Total your Move Points and spend them according to the Terrain Cost" (hills 3, forest 3 by day)."""
    st = started(hand=("march", "stamina"), hexes={"1,0": cell("hills"), "0,1": cell("forest"),
                                                   "-1,0": cell("plains")})
    play(st, "march", "t-basic")  # Move 2
    got = ids(st)
    assert "t-move:-1,0" in got and "t-move:1,0" not in got and "t-move:0,1" not in got
    play(st, "stamina", "t-basic")  # Move 4
    assert "t-move:1,0" in ids(st)
    pick(st, "t-move:1,0")
    assert st["seats"][0]["pos"] == "1,0"
    assert st["turn"]["pool"]["move"] == 1
    assert st["turn"]["moved_from"] == ["0,0"]


def test_forest_costs_more_at_night():
    """Terrain costs by Day / Night (forest 3 by day, 5 by night)."""
    assert hexmap.move_cost({"hexes": {"1,0": cell("forest")}}, "1,0", "day") == 3
    assert hexmap.move_cost({"hexes": {"1,0": cell("forest")}}, "1,0", "night") == 5
    st = started(hand=("march",), hexes={"1,0": cell("forest")}, time="night")
    st["turn"]["pool"]["move"] = 4
    assert "t-move:1,0" not in ids(st)


def test_inaccessible_and_rampaging_spaces_are_not_entered():
    """"Spaces marked with 'X' are inaccessible." and "You cannot enter a space occupied by a Rampaging Enemy." """
    orc = {"id": "prowlers", "colour": "green", "face_up": True}
    st = started(hexes={"1,0": cell("mountain"), "0,1": cell("plains", enemies=[orc], rampaging=True)})
    st["turn"]["pool"]["move"] = 9
    got = ids(st)
    assert "t-move:1,0" not in got and "t-move:0,1" not in got and "t-move:-1,0" in got


def test_no_movement_after_the_action():
    """"you can Move first and/or perform one Action": no moving after it."""
    st = started()
    st["turn"]["pool"]["move"] = 5
    st["turn"]["acted"] = True
    assert not [i for i in ids(st) if i.startswith("t-move")]


def test_moving_between_spaces_next_to_a_rampaging_enemy_provokes_it(monkeypatch):
    """"You are attacked if your move takes you between spaces adjacent to a Rampaging Enemy." """
    started_with = {}

    def fake_start(state, seat, tokens, context, events):
        started_with.update(tokens=tokens, context=context)
        state["combat"] = {"seat": seat, "phase": "ranged"}

    from games.engines.mage_knight import combat
    monkeypatch.setattr(combat, "start", fake_start)
    orc = {"id": "prowlers", "colour": "green", "face_up": True}
    # 1,-1 touches both 0,0 and 1,0; moving 0,0 -> 1,0 passes it.
    st = started(hexes={"1,-1": cell(enemies=[orc], rampaging=True)})
    st["turn"]["pool"]["move"] = 4
    pick(st, "t-move:1,0")
    assert started_with["context"]["kind"] == "provoked"
    assert [t["id"] for t in started_with["tokens"]] == ["prowlers"]
    assert st["turn"]["acted"]  # the fight is the turn's action: no more moving


def test_moving_away_from_a_rampaging_enemy_does_not_provoke(monkeypatch):
    """Only a move *between* two spaces adjacent to the enemy provokes it."""
    from games.engines.mage_knight import combat
    monkeypatch.setattr(combat, "start", lambda *a: pytest.fail("provoked"))
    orc = {"id": "prowlers", "colour": "green", "face_up": True}
    st = started(hexes={"1,-1": cell(enemies=[orc], rampaging=True)})
    st["turn"]["pool"]["move"] = 4
    pick(st, "t-move:-1,0")
    assert st["combat"] is None and not st["turn"]["acted"]


def test_entering_an_unconquered_keep_starts_an_assault(monkeypatch):
    """"Movement ends and an assault begins if you enter an unconquered Fortified Site" """
    seen = {}
    from games.engines.mage_knight import combat
    monkeypatch.setattr(combat, "start", lambda st, seat, tokens, ctx, ev: seen.update(ctx=ctx, tokens=tokens)
                        or st.__setitem__("combat", {"seat": 0, "phase": "ranged"}))
    guard = {"id": "crossbowmen", "colour": "gray", "face_up": False}
    st = started(hexes={"1,0": cell("hills", "keep", enemies=[guard])})
    st["turn"]["pool"]["move"] = 3
    pick(st, "t-move:1,0")
    assert seen["ctx"]["kind"] == "site" and seen["ctx"]["site"] == "keep"
    assert seen["ctx"]["return_to"] == "0,0" and seen["ctx"]["fortified"] == 1
    assert [t["id"] for t in seen["tokens"]] == ["crossbowmen"]


# ---------------------------------------------------------------- exploring

def _explorable_state():
    from games.engines.mage_knight.hexmap import new_map
    from games.engines.rng import Rng
    n = [0]

    def draw(colour):  # real enemy ids, in turn
        of_colour = [e.id for e in ENEMIES.values() if e.colour == colour]
        n[0] += 1
        return {"id": of_colour[n[0] % len(of_colour)], "colour": colour, "face_up": False}
    m, _ = new_map(2, Rng(5), draw)
    st = make_state(hand=("march", "stamina"))
    st["map"] = m
    return st


def test_exploring_costs_two_move_and_gives_a_fame():
    """"You can reveal the top map tile for 2 Move Points" and First Reconnaissance's Fame per tile."""
    st = _explorable_state()
    edge = next(k for k in st["map"]["hexes"] if hexmap.explore_options(st["map"], k))
    st["seats"][0]["pos"] = edge
    turn.start(st, 0, [])
    play(st, "march", "t-side:move")
    assert not [i for i in ids(st) if i.startswith("t-explore")]  # 1 Move is not enough
    play(st, "stamina", "t-side:move")
    option = next(i for i in ids(st) if i.startswith("t-explore"))
    tiles = len(st["map"]["hexes"])
    pick(st, option)
    assert len(st["map"]["hexes"]) == tiles + 7
    assert st["turn"]["pool"]["move"] == 0
    assert st["seats"][0]["fame"] == 1


def test_revealing_the_city_sets_the_trigger(monkeypatch):
    """First Reconnaissance ends once the city is revealed: movement.explore records who revealed it."""
    from games.engines.base import Event
    st = started()
    st["turn"]["pool"]["move"] = 2
    monkeypatch.setattr(hexmap, "explore_options", lambda m, k: ["9,9"])
    monkeypatch.setattr(hexmap, "explore", lambda *a: ("city_5", [Event("City!", data={"city": True})]))
    pick(st, "t-explore:9,9")
    assert st["city_revealed_by"] == 0


# ---------------------------------------------------------------- adventure sites, challenge, burning

def test_challenge_adjacent_rampaging_enemy_is_an_action(monkeypatch):
    """"Challenge adjacent Rampaging Enemies ... as an action." """
    seen = {}
    from games.engines.mage_knight import combat
    monkeypatch.setattr(combat, "start", lambda st, seat, tokens, ctx, ev: seen.update(ctx=ctx)
                        or st.__setitem__("combat", {"seat": 0, "phase": "ranged"}))
    orc = {"id": "prowlers", "colour": "green", "face_up": True}
    st = started(hexes={"1,0": cell(enemies=[orc], rampaging=True)})
    pick(st, "t-challenge:1,0")
    assert seen["ctx"]["kind"] == "challenge" and st["turn"]["acted"]


def test_burning_a_monastery_costs_reputation(monkeypatch):
    """"As an action, you can burn a Monastery (with a reputation penalty)." """
    from games.engines.mage_knight import combat
    monkeypatch.setattr(combat, "start", lambda st, *a: st.__setitem__("combat", {"seat": 0, "phase": "ranged"}))
    st = started(hexes={"0,0": cell(site="monastery")})
    st["enemies"]["piles"]["violet"] = ["illusionist"]
    pick(st, "t-burn")
    assert st["seats"][0]["reputation"] == -3


def test_burn_victory_destroys_the_monastery_and_rewards_an_artifact():
    """"Monastery: Mark with a shield. Claim an Artifact at turn end." """
    st = started(hexes={"0,0": cell(site="monastery")}, deck=())
    st["turn"]["acted"] = True
    st["turn"]["combat_result"] = {"victory": True, "defeated": ["x"], "undefeated": [],
                                   "context": {"kind": "burn", "hex": "0,0", "site": "monastery"},
                                   "knocked_out": False}
    site_actions.after_combat(st, 0, [])
    h = st["map"]["hexes"]["0,0"]
    assert h["burned"] and h["owner"] == 0 and st["seats"][0]["shields"] == 1
    assert st["turn"]["rewards"] == ["artifact"]


def test_entering_a_dungeon_draws_a_brown_enemy(monkeypatch):
    """"Enter an Adventure Site (like Ancient Ruins or a Dungeon) as an action" -- a dungeon's enemy is brown."""
    seen = {}
    from games.engines.mage_knight import combat
    monkeypatch.setattr(combat, "start", lambda st, seat, tokens, ctx, ev: seen.update(tokens=tokens, ctx=ctx)
                        or st.__setitem__("combat", {"seat": 0, "phase": "ranged"}))
    st = started(hexes={"0,0": cell("hills", "dungeon")})
    st["enemies"]["piles"]["brown"] = ["gargoyle"]
    pick(st, "t-enter")
    assert [t["id"] for t in seen["tokens"]] == ["gargoyle"] and seen["ctx"]["site"] == "dungeon"


def test_conquered_monster_den_is_not_entered_again():
    """A den is empty once conquered (its reward was claimed)."""
    st = started(hexes={"0,0": cell(site="monster_den", conquered=True, owner=0)})
    assert "t-enter" not in ids(st)


def test_with_real_setup_if_present():
    """When mkcore's setup.new_state works, a turn opens on it with a rest and an end."""
    from games.engines.mage_knight import setup
    try:
        st = setup.new_state(2, {}, 3)
    except Exception as exc:  # setup still in progress in the shared worktree
        pytest.skip(f"setup.new_state not usable yet: {exc}")
    turn.start(st, 0, [])
    got = ids(st)
    assert "t-rest" in got and "t-end" in got
    assert all(cards.CARDS[c] for c in st["seats"][0]["hand"])


# ---------------------------------------------------------------- units

def _with_unit(unit_id, ready=True, wounded=False, **kw):
    st = started(**kw)
    st["seats"][0]["units"] = [{"id": unit_id, "ready": ready, "wounded": wounded, "uid": 1}]
    return st


def test_a_ready_unit_adds_its_ability_and_is_spent():
    """Using a Unit: a ready unit's ability goes into the turn's pool; the unit is spent."""
    st = _with_unit("peasants")
    got = [i for i in ids(st) if i.startswith("t-unit")]
    assert got == ["t-unit:1:2", "t-unit:1:3"]  # Influence 2, Move 2 (attack and block need a combat)
    pick(st, "t-unit:1:3")
    assert st["turn"]["pool"]["move"] == 2 and not st["seats"][0]["units"][0]["ready"]
    assert not [i for i in ids(st) if i.startswith("t-unit")]


def test_wounded_or_spent_units_do_nothing():
    assert not [i for i in ids(_with_unit("peasants", wounded=True)) if i.startswith("t-unit")]
    assert not [i for i in ids(_with_unit("peasants", ready=False)) if i.startswith("t-unit")]


def test_unit_ability_with_a_mana_cost():
    """Herbalist "heal 2@green": the ability is paid with a green mana."""
    st = _with_unit("herbalist", hand=("wound", "wound", "march"), dice=("red",))
    assert "t-unit:1:0" not in ids(st)
    st = _with_unit("herbalist", hand=("wound", "wound", "march"), dice=("green",))
    pick(st, "t-unit:1:0")
    assert st["seats"][0]["hand"] == ["march"] and st["source"]["taken"] == [0]


def test_units_in_combat_follow_the_phase():
    """In combat a unit adds only what the phase allows (combat.allowed): Block in the block phase."""
    st = _with_unit("peasants")
    st["combat"] = {"seat": 0, "phase": "block", "context": {"kind": "challenge"}, "enemies": [],
                    "targets": []}
    from games.engines.mage_knight import combat
    got = [o.id for o in plays.unit_options(st, 0)]
    assert got == ["t-unit:1:1"]
    assert combat.allowed(st) >= {"block"}


def test_swordsmen_big_attack_wounds_the_unit():
    """Utem Swordsmen: Attack 6 "+ special wound_self" -- the unit takes a wound."""
    st = _with_unit("utem_swordsmen")
    st["combat"] = {"seat": 0, "phase": "attack", "context": {"kind": "challenge"}, "enemies": [],
                    "targets": []}
    pick(st, "t-unit:1:2")  # "attack 6 + wound_self | block 6 + wound_self": only the attack is of use now
    assert st["seats"][0]["units"][0]["wounded"]
    assert st["turn"]["pool"]["attack"]["melee"] == {"physical": 6}


def test_heal_points_heal_a_unit_by_its_level():
    """Spare Healing points heal a wounded Unit (cost: its level)."""
    st = _with_unit("utem_guardsmen", wounded=True, hand=("tranquility",), dice=("green",), deck=())
    play(st, "tranquility", "t-pw:die:0")  # Heal 2, no wound in hand
    assert "t-healunit:1" in ids(st)
    pick(st, "t-healunit:1")
    assert not st["seats"][0]["units"][0]["wounded"] and st["turn"]["pool"]["heal"] == 0


def test_mana_steal_die_is_an_extra_source():
    """Mana Steal tactic: the stolen die pays once, besides the turn's die, and goes back to the Source."""
    st = started(hand=("march", "stamina"), dice=("green", "blue"), deck=())
    st["seats"][0]["tactic_die"] = "blue"
    play(st, "march", "t-pw:die:0")
    pick(st, "t-play:stamina")
    assert "t-pw:stolen:blue" in ids(st)
    pick(st, "t-pw:stolen:blue")
    assert "tactic_die" not in st["seats"][0]
    pick(st, "t-end")
    assert len(st["source"]["dice"]) == 3


# ---------------------------------------------------------------- random turns

def test_random_turns_always_end_with_legal_picks():
    """Random picks (and deadline defaults) on random hands, sites and units: every pick is among the
    options, no option id repeats, the pools never go negative, crystals stay within 0..3, and the turn ends
    with the played cards discarded."""
    import random
    every = [c for c in cards.CARDS if c != card_text.WOUND]
    sites = ["village", "monastery", "dungeon", "tomb", "monster_den", "spawning_grounds", "mine", "magical_glade"]
    for seed in range(150):
        r = random.Random(seed)
        st = _explorable_state()
        st["time"] = r.choice(["day", "night"])
        s = st["seats"][0]
        s["pos"] = r.choice([k for k, h in st["map"]["hexes"].items() if h["terrain"] not in ("lake", "mountain")])
        if r.random() < 0.5:
            st["map"]["hexes"][s["pos"]].update(site=r.choice(sites), mine_colour="red")
        s["hand"] = [r.choice(every) for _ in range(6)] + ["wound"] * r.randint(0, 2)
        s["deck"] = [r.choice(every) for _ in range(r.randint(0, 8))]
        s["crystals"] = {c: r.randint(0, 3) for c in s["crystals"]}
        s["units"] = [{"id": u, "ready": r.random() < 0.7, "wounded": r.random() < 0.3, "uid": i}
                      for i, u in enumerate(r.sample(["peasants", "herbalist", "utem_swordsmen", "fire_mages"], 2))]
        s["command"], s["reputation"] = 3, r.randint(-7, 7)
        s["skills"] = r.sample(sorted(plays.skill_rows()), 4)
        turn.start(st, 0, [])
        for step in range(300):
            if st["turn"] is None:
                break
            t = st["turn"]
            assert min(t["pool"]["move"], t["pool"]["influence"], t["pool"]["heal"]) >= 0, (seed, t["pool"])
            assert all(0 <= v <= 3 for v in s["crystals"].values()), seed
            got = ids(st)
            assert got and len(set(got)) == len(got), (seed, got)
            choice = turn.default(st, 0) if step % 7 == 6 else r.choice(got)
            assert choice in got, (seed, choice, got)
            turn.apply(st, 0, choice, [])
        assert st["turn"] is None, seed
        assert s["play_area"] == []


def test_revealing_a_monastery_adds_an_advanced_action(monkeypatch):
    """Monastery "on_reveal: add_advanced_action_to_unit_offer": the top Advanced Action joins the offer
    (offers["monastery"]), where a monastery sells it for 6."""
    from games.engines.base import Event
    st = started()
    st["turn"]["pool"]["move"] = 2
    monkeypatch.setattr(hexmap, "explore_options", lambda m, k: ["9,9"])
    monkeypatch.setattr(hexmap, "explore", lambda *a: ("countryside_2", [
        Event("tile", data={"city": False}),
        Event("monastery", data={"type": "monastery_revealed", "hex": "9,9", "advanced_actions": 1})]))
    pick(st, "t-explore:9,9")
    assert st["offers"]["monastery"] == ["swift_bolt"] and st["decks"]["advanced"] == []


def test_path_finding_lowers_terrain_costs():
    """Path Finding: "all terrain costs -1 (min 2) this turn"; powered "all terrain costs become 2"."""
    st = started(hand=("path_finding",), hexes={"1,0": cell("hills"), "-1,0": cell("plains"),
                                                "0,1": cell("lake")})
    play(st, "path_finding", "t-basic")
    assert movement.move_cost(st, "1,0") == 2 and movement.move_cost(st, "-1,0") == 2
    assert movement.move_cost(st, "0,1") is None  # a lake stays a lake
    assert "t-move:1,0" in ids(st)


def test_frost_bridge_crosses_lakes_when_powered():
    """Frost Bridge: "Move 2; swamps cost 1"; powered "Move 4; lakes become passable; lakes and swamps cost 1"."""
    st = started(hand=("frost_bridge",), hexes={"1,0": cell("lake"), "-1,0": cell("swamp")}, dice=("blue",))
    play(st, "frost_bridge", "t-pw:die:0")
    assert movement.move_cost(st, "1,0") == 1 and movement.move_cost(st, "-1,0") == 1
    pick(st, "t-move:1,0")
    assert st["turn"]["pool"]["move"] == 3


def test_song_of_wind_open_terrain():
    """Song of Wind: "plains, deserts and wastelands cost 1 less (min 0) this turn"."""
    st = started(hand=("song_of_wind",), hexes={"1,0": cell("desert"), "-1,0": cell("hills")})
    play(st, "song_of_wind", "t-basic")
    assert movement.move_cost(st, "1,0") == 4 and movement.move_cost(st, "-1,0") == 3


# ---------------------------------------------------------------- skills

def test_skill_once_per_turn():
    """Tovak's Double Time: "Move 2 by Day, Move 1 at Night", once a turn."""
    st = started()
    st["seats"][0]["skills"] = ["tovak_double_time"]
    pick(st, "t-skill:tovak_double_time")
    assert st["turn"]["pool"]["move"] == 2
    assert "t-skill:tovak_double_time" not in ids(st)
    st = started(time="night")
    st["seats"][0]["skills"] = ["tovak_double_time"]
    pick(st, "t-skill:tovak_double_time")
    assert st["turn"]["pool"]["move"] == 1


def test_skill_once_per_round_is_remembered_on_the_seat():
    """Goldyx's Potion Making (Heal 2, once a Round): used this round, it is not offered next turn."""
    st = started(hand=("wound", "wound", "march"))
    st["seats"][0]["skills"] = ["goldyx_potion_making"]
    pick(st, "t-skill:goldyx_potion_making")
    assert st["seats"][0]["hand"] == ["march"] and st["seats"][0]["skills_used"] == ["goldyx_potion_making"]
    st["seats"][0]["hand"].append("wound")
    turn.start(st, 0, [])
    assert "t-skill:goldyx_potion_making" not in ids(st)


def test_skill_phase_limits():
    """Shield Mastery is "block_only": not offered outside combat."""
    st = started()
    st["seats"][0]["skills"] = ["tovak_shield_mastery"]
    assert "t-skill:tovak_shield_mastery" not in ids(st)
    st["combat"] = {"seat": 0, "phase": "block", "context": {"kind": "challenge"}, "enemies": [], "targets": []}
    assert "t-skill:tovak_shield_mastery" in [o.id for o in plays.skill_options(st, 0)]


# ---------------------------------------------------------------- unit specials, poison, assaults, extra mana

def _challenge(st, enemy_id):
    """A rampaging enemy next to the hero, challenged: the combat opens in the ranged/siege phase."""
    colour = ENEMIES[enemy_id].colour
    st["enemies"]["piles"][colour].remove(enemy_id)
    st["map"]["hexes"]["1,0"].update(enemies=[{"id": enemy_id, "colour": colour, "face_up": True}], rampaging=True)
    pick(st, "t-challenge:1,0")
    assert st["combat"]["phase"] == "ranged"


def test_freezers_ability_is_offered_and_freezes_the_enemy():
    """Amotep Freezers (blue mana): "one enemy does not attack and gets Armor -3 (min 1)"."""
    st = _with_unit("amotep_freezers", dice=("blue",))
    _challenge(st, "prowlers")
    assert "t-unit:1:2" in ids(st)
    pick(st, "t-unit:1:2")  # one possible target: taken at once
    enemy = st["combat"]["enemies"][0]
    assert enemy["skip"] and enemy["armor_mod"] == -3 and st["source"]["taken"] == [0]


def test_freezers_cannot_target_an_ice_resistant_enemy():
    """"[a blue unit ability has] no effect when targeting enemies with Ice resistance" (rulebook)."""
    st = _with_unit("amotep_freezers", dice=("blue",))
    _challenge(st, "ice_mages")
    assert "t-unit:1:2" not in ids(st)


def test_illusionists_stop_an_unfortified_enemy():
    """Illusionists (white mana): "one unfortified enemy does not attack this combat"."""
    st = _with_unit("illusionists", dice=("white",))
    _challenge(st, "prowlers")
    pick(st, "t-unit:1:1")
    assert st["combat"]["enemies"][0]["skip"]
    st = _with_unit("illusionists", dice=("white",))
    _challenge(st, "diggers")  # Fortified ability
    assert "t-unit:1:1" not in ids(st)


def test_altem_guardians_give_all_units_all_resistances_for_the_combat():
    """Altem Guardians (green mana): "all your Units gain all resistances" -- combat reads units_resist_all."""
    st = _with_unit("altem_guardians", dice=("green",))
    _challenge(st, "prowlers")
    pick(st, "t-unit:1:2")
    assert st["turn"]["units_resist_all"]
    assert "t-unit:1:2" not in ids(st)  # spent


def test_altem_mages_turn_attacks_into_siege():
    """Altem Mages (black mana): "this combat all your attacks become Cold Fire, or all become Siege"."""
    st = _with_unit("altem_mages", dice=("black",), time="night")
    _challenge(st, "prowlers")
    pool.add_pool(st["turn"], "ranged", 2)
    pick(st, "t-unit:1:2")
    assert sorted(ids(st)) == ["fx:cold_fire", "fx:siege"]
    pick(st, "fx:siege")
    attack = st["turn"]["pool"]["attack"]
    assert attack["siege"] == {"physical": 2} and not any(attack["ranged"].values())
    pool.add_pool(st["turn"], "attack", 3, "fire")
    assert attack["siege"] == {"physical": 2, "fire": 3}


def test_altem_mages_cold_fire_ends_with_the_combat():
    st = _with_unit("altem_mages", dice=("black",), time="night")
    _challenge(st, "prowlers")
    pick(st, "t-unit:1:2")
    pick(st, "fx:cold_fire")
    pool.add_pool(st["turn"], "ranged", 2)
    assert st["turn"]["pool"]["attack"]["ranged"] == {"cold_fire": 2}
    from games.engines.mage_knight import combat
    combat.finish(st, [])
    assert "attack_modifier" not in st["turn"]


def test_a_poisoned_unit_needs_two_heals():
    """Poison: a Unit "is given two Wound cards instead" -- rulebook: "it will need to be healed twice"."""
    st = _with_unit("utem_guardsmen", wounded=True, hand=("tranquility",), dice=("green",), deck=())
    st["seats"][0]["units"][0]["wounds"] = 2
    play(st, "tranquility", "t-pw:die:0")  # Heal 2: the unit's level is 2, so one wound
    assert "one of its 2 wounds" in dict((o.id, o.label) for o in turn.options(st, 0)[1])["t-healunit:1"]
    pick(st, "t-healunit:1")
    unit = st["seats"][0]["units"][0]
    assert unit["wounded"] and unit["wounds"] == 1
    st["turn"]["pool"]["heal"] = 2
    pick(st, "t-healunit:1")
    assert not unit["wounded"] and "wounds" not in unit


def test_an_assault_costs_one_reputation(monkeypatch):
    """"Every time you make an assault, you lose 1 Reputation" (rulebook; sites.json assault.reputation)."""
    from games.engines.mage_knight import combat
    monkeypatch.setattr(combat, "start", lambda st, seat, tokens, ctx, ev: st.__setitem__(
        "combat", {"seat": 0, "phase": "ranged"}))
    guard = {"id": "crossbowmen", "colour": "gray", "face_up": False}
    st = started(hexes={"1,0": cell("hills", "keep", enemies=[guard])}, reputation=2)
    st["turn"]["pool"]["move"] = 3
    pick(st, "t-move:1,0")
    assert st["seats"][0]["reputation"] == 1


def test_a_conquered_keep_is_entered_without_an_assault():
    st = started(hexes={"1,0": cell("hills", "keep", conquered=True, owner=0)}, reputation=2)
    st["turn"]["pool"]["move"] = 3
    pick(st, "t-move:1,0")
    assert st["seats"][0]["reputation"] == 2 and st["combat"] is None


def _in_attack_phase(st):
    st["combat"] = {"seat": 0, "phase": "attack", "context": {"kind": "challenge"}, "enemies": [], "targets": []}


def test_mana_bolt_is_not_offered_without_a_second_mana():
    """Mana Bolt: the Spell is powered by a blue mana, then "pay 1 mana" more: with one mana only the basic
    effect could not be paid, so it is not offered (only sideways)."""
    st = started(hand=("mana_bolt",), dice=())
    st["turn"]["tokens"] = ["blue"]
    _in_attack_phase(st)
    assert not [i for i, _ in plays.card_modes(st, 0, "mana_bolt") if i.startswith("t-basic")]
    st["turn"]["tokens"] = ["blue", "blue"]
    assert [i for i, _ in plays.card_modes(st, 0, "mana_bolt") if i.startswith("t-basic")] == ["t-basic:token:blue"]
    assert st["turn"]["tokens"] == ["blue", "blue"]  # the check paid nothing


def test_pure_magic_powered_needs_a_second_mana():
    """Pure Magic powered: the card's blue mana, then "pay 1 basic mana" for the effect."""
    st = started(hand=("pure_magic",), dice=("blue",))
    assert [i for i, _ in plays.card_modes(st, 0, "pure_magic") if i.startswith("t-pw")] == []
    st["turn"]["tokens"] = ["green"]
    assert [i for i, _ in plays.card_modes(st, 0, "pure_magic") if i.startswith("t-pw")] == ["t-pw:die:0"]


# ---------------------------------------------------------------- no player-versus-player combat

def test_another_heros_space_is_never_entered():
    """First Reconnaissance: "pvp_combat": false -- a hero never moves into another hero's space (the only
    way a player-versus-player combat could start), except the portal."""
    st = started(players=2)
    st["seats"][1]["pos"] = "1,0"
    st["turn"]["pool"]["move"] = 9
    assert "t-move:1,0" not in ids(st) and "t-move:0,1" in ids(st)


def test_an_absent_opponents_keep_is_assaulted_against_a_gray_token():
    """"an assault begins if you enter ... an opponent's Keep": its owner is elsewhere (never on it, see above),
    so a gray enemy defends it (sites.json: if_owner_absent, half Fame, Reputation -1); winning takes the keep."""
    st = started(players=2, hexes={"1,0": cell("hills", "keep", conquered=True, owner=1)}, reputation=2)
    st["seats"][1]["pos"] = "3,3"
    st["seats"][1]["shields"] = 1
    st["turn"]["pool"]["move"] = 3
    pick(st, "t-move:1,0")
    c = st["combat"]
    assert c["context"]["opponents_keep"] and [e["colour"] for e in c["enemies"]] == ["gray"]
    assert st["seats"][0]["reputation"] == 1
    enemy = ENEMIES[c["enemies"][0]["id"]]
    pool.add_pool(st["turn"], "siege", 20)
    pick(st, "c-t0")
    pick(st, "c-a")
    assert st["seats"][0]["fame"] == -(-enemy.fame // 2)
    h = st["map"]["hexes"]["1,0"]
    assert h["owner"] == 0 and st["seats"][0]["shields"] == 1 and st["seats"][1]["shields"] == 0


def test_random_games_never_put_two_heroes_in_one_space_or_fight_a_hero():
    """"pvp_combat": false, checked over whole random games of 2-4 players."""
    from games.engines.bots import RandomBot, play as play_game
    from games.engines.registry import get_engine
    engine = get_engine("mage_knight")

    def check(s):
        spaces = [x["pos"] for x in s["seats"] if x.get("pos")]
        shared = {p for p in spaces if spaces.count(p) > 1}
        assert all(s["map"]["hexes"][p].get("site") == "portal" for p in shared), shared
        if s.get("combat"):
            assert all("seat" not in e for e in s["combat"]["enemies"])
    for players in (2, 3, 4):
        for seed in range(3):
            state = engine.new_game(players=players, options={}, seed=700 + seed)
            play_game(engine, state, [RandomBot(seed + i) for i in range(players)], on_step=check)


def test_rest_labels_count_wounds_right():
    """Correct plurals: one Wound is "the Wound", never "all 1 Wounds"."""
    st = started(hand=("march", "wound"))
    pick(st, "t-rest")
    pick(st, "t-rd:march")
    labels = dict((o.id, o.label) for o in turn.options(st, 0)[1])
    assert labels["t-rw:all"] == "discard the Wound"
