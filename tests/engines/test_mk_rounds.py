"""Mage Knight rounds ("Round Structure"): preparation, tactics, round order, the end-of-round announcement, the
scenario's end (First Reconnaissance: a city revealed)."""

from __future__ import annotations

from collections import Counter

from games.engines.mage_knight import rounds, units
from games.engines.mage_knight.engine import MageKnightEngine
from games.engines.rng import Rng

E = MageKnightEngine()


def pick(state, option_id):
    """Apply a pick of the seat deciding now (resolving the previous step first)."""
    if E.is_step_complete(state):
        E.resolve(state)
    seat = E.pending(state)[0]
    assert option_id in E.prompt(state, seat).option_ids(), (option_id, E.prompt(state, seat).option_ids())
    return E.apply(state, seat, option_id)


def current(state):
    if E.is_step_complete(state):
        E.resolve(state)
    return E.pending(state)[0]


def choose_tactics(state, tactics):
    for t in tactics:
        pick(state, f"tactic:{t}")


def test_tactics_in_reverse_fame_order_ties_reverse_round_order():
    """2. "Players choose Tactic Cards in reverse Fame order (or reverse round order for ties)"."""
    s = E.new_game(players=3, options={}, seed=1)
    s["order"] = [0, 1, 2]
    for seat, fame in zip(s["seats"], (5, 0, 0)):
        seat["fame"] = fame
    rounds.open_tactics(s)
    assert s["tactic_queue"] == [2, 1, 0]
    s["order"] = [1, 2, 0]
    rounds.open_tactics(s)
    assert s["tactic_queue"] == [2, 1, 0]  # seat 2 is last of the two tied in this order
    s["seats"][2]["fame"] = 9
    rounds.open_tactics(s)
    assert s["tactic_queue"] == [1, 0, 2]


def test_round_order_is_by_tactic_number():
    """"Rearrange the Round Order Tokens so the player with the lowest Tactic number goes first"."""
    s = E.new_game(players=3, options={}, seed=2)
    first = current(s)
    choose_tactics(s, ["the_right_moment", "early_bird", "planning"])
    chosen = {int(k): v for k, v in s["tactics"]["chosen"].items()}
    assert chosen[first] == "the_right_moment"
    assert [chosen[x] for x in s["order"]] == ["early_bird", "planning", "the_right_moment"]
    assert current(s) == s["order"][0] and s["phase"] == "turn"


def test_each_tactic_pick_is_a_step_and_great_start_draws_two():
    """Great Start: "on taking: draw 2 cards"; one seat's tactic choice is one step."""
    s = E.new_game(players=2, options={}, seed=3)
    seat = current(s)
    step = E.step(s)
    pick(s, "tactic:great_start")
    assert E.is_step_complete(s) and len(s["seats"][seat]["hand"]) == 7
    E.resolve(s)
    assert E.step(s) == step + 1


def test_rethink_discards_draws_and_shuffles_the_discard_in():
    """Rethink: "discard up to 3 cards (Wounds allowed), draw as many, then shuffle discard pile into the Deed deck"."""
    s = E.new_game(players=2, options={}, seed=4)
    seat = current(s)
    me = s["seats"][seat]
    before = Counter(me["hand"] + me["deck"])
    pick(s, "tactic:rethink")
    pick(s, f"card:{me['hand'][0]}")
    pick(s, f"card:{me['hand'][0]}")
    pick(s, "done")
    assert len(me["hand"]) == 5 and me["discard"] == [] and len(me["deck"]) == 11
    assert Counter(me["hand"] + me["deck"]) == before


def test_the_announcement_gives_everyone_else_one_last_turn():
    """3. "until a player with an empty Deed Deck announces the end of the round instead of taking a turn. Once this
    is announced, all other players take one last turn, and then the round ends"."""
    s = E.new_game(players=3, options={}, seed=5)
    choose_tactics(s, ["early_bird", "great_start", "planning"])
    assert current(s) == s["order"][0]
    first = s["order"][0]
    assert "t-announce" not in E.prompt(s, first).option_ids()  # the deck is not empty yet
    pick(s, "t-end")
    second = current(s)
    me = s["seats"][second]
    me["discard"] += me["deck"]
    me["deck"] = []
    pick(s, "t-announce")
    assert s["end_announced_by"] == second
    last = []
    while s["round"] == 1:
        seat = current(s)
        if s["phase"] != "turn":
            break
        last.append(seat)
        pick(s, "t-end")
    assert sorted(last) == sorted(x for x in s["order"] if x != second)  # each other seat once, then the round ends
    assert s["round"] == 2 and s["time"] == "night" and s["phase"] == "tactics"


def test_a_revealed_city_gives_everyone_including_the_revealer_one_last_turn():
    """Scenario end: "a player reveals a city tile: every player, including the revealer, takes one last turn";
    then the game is over and scored."""
    s = E.new_game(players=2, options={}, seed=6)
    choose_tactics(s, ["early_bird", "planning"])
    revealer = current(s)
    s["city_revealed_by"] = revealer  # movement.explore sets this when the explored tile is a city
    pick(s, "t-end")
    turns = []
    while not s["over"]:
        turns.append(current(s))
        pick(s, "t-end")
    assert sorted(turns) == [0, 1] and turns[-1] == revealer
    assert E.result(s) is not None and s["phase"] == "over"


def test_a_round_ending_during_the_last_turns_ends_the_game():
    """"round_end_during_last_turns": "game ends immediately"."""
    s = E.new_game(players=2, options={}, seed=7)
    choose_tactics(s, ["early_bird", "planning"])
    a = current(s)
    s["city_revealed_by"] = a
    me = s["seats"][a]
    me["discard"] += me["deck"]
    me["deck"] = []
    pick(s, "t-announce")  # the announcement is a's turn; b's last turn ends the round, and with it the game
    b = current(s)
    assert b != a
    pick(s, "t-end")
    assert s["over"] and s["round"] == 1


def test_the_game_ends_after_the_final_round():
    """"round_limit": "game also ends after the final round" (3 rounds with 2 players)."""
    s = E.new_game(players=2, options={}, seed=8)
    s["round"] = s["rounds_total"]
    s["time"] = s["round_sequence"][-1]
    choose_tactics(s, ["early_bird", "planning"])
    for _ in range(2):
        seat = current(s)
        me = s["seats"][seat]
        me["discard"] += me["deck"]
        me["deck"] = []
    pick(s, "t-announce")
    pick(s, "t-end")
    assert s["over"] and E.result(s).ranks


def test_prepare_round_flips_rerolls_and_refills():
    """1. Prepare: "Flip the Day/Night Board"; "Reroll all Mana Dice"; "Discard the lowest valued Advanced Action
    and Spell cards ... draw new cards to replenish the top slots"; "Ready all your Units"; "Shuffle all your Deed
    Cards, including any Wounds, back into your Deed Deck"; "Draw cards until you reach your Hand Limit"."""
    s = E.new_game(players=2, options={}, seed=9)
    me = s["seats"][0]
    me["discard"], me["hand"] = me["hand"][:3] + ["wound"], me["hand"][3:]
    me["units"] = [{"id": "peasants", "ready": False, "wounded": False, "uid": 1}]
    me["skills_used"] = ["x"]
    owned = Counter(me["deck"] + me["hand"] + me["discard"])
    aa = list(s["offers"]["advanced"])
    top = s["decks"]["advanced"][-1]
    deck_before = list(s["decks"]["advanced"])
    s["round"] = 2
    rng = Rng(s["rng"])
    rounds.prepare_round(s, rng, [])
    assert s["time"] == "night"
    # the lowest card to the bottom of the deck, the others one slot down, a new card in the top slot
    assert s["offers"]["advanced"][1:] == aa[:2] and s["decks"]["advanced"][0] == aa[2]
    assert s["offers"]["advanced"][0] in (top, *s["offers"].get("monastery", ()), *deck_before)
    assert len(me["hand"]) == 5 and me["discard"] == [] and Counter(me["deck"] + me["hand"]) == owned
    assert me["units"][0]["ready"] and me["skills_used"] == []
    assert len(s["source"]["dice"]) == 4 and len(s["offers"]["units"]) == 4


def test_unit_offer_alternates_elite_and_regular_once_a_core_tile_is_out():
    """3. "If no Core Tiles have been revealed, deal only Regular Units. Otherwise, alternate between Elite and Regular
    Units, starting with Elite" (First Reconnaissance uses no Elite Units unless the option elite_units is on)."""
    s = E.new_game(players=2, options={"elite_units": True}, seed=10)
    rng = Rng(s["rng"])
    rounds.new_unit_offer(s, rng)
    assert [units.is_elite(u) for u in s["offers"]["units"]] == [False] * 4
    s["map"]["tiles"].append({"id": "core_1", "centre": "9,-9"})
    rounds.new_unit_offer(s, rng)
    assert [units.is_elite(u) for u in s["offers"]["units"]] == [True, False, True, False]
    plain = E.new_game(players=2, options={}, seed=10)
    plain["map"]["tiles"].append({"id": "core_1", "centre": "9,-9"})
    rounds.new_unit_offer(plain, rng)
    assert not any(units.is_elite(u) for u in plain["offers"]["units"])


def test_tactic_removal_by_player_count():
    """Scenario data tactic_removal_mode: solo all used (the player's and the Dummy's), 2 players remove two, 3
    players remove one (read: the lowest-numbered used), 4 players none."""
    expected = {1: 2, 2: 2, 3: 1, 4: 0}
    for players, n in expected.items():
        s = E.new_game(players=players, options={}, seed=12)
        choose_tactics(s, ["early_bird", "planning", "great_start", "the_right_moment"][:players])
        used = list(s["tactics"]["chosen"].values()) + ([s["dummy"]["tactic"]] if s["solo"] else [])
        rounds.remove_used_tactics(s)
        assert len(s["tactics"]["removed"]) == n
        if players == 3:
            assert s["tactics"]["removed"] == ["early_bird"]
        assert set(s["tactics"]["removed"]) <= set(used)
