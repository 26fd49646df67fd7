"""Mage Knight's board on the web: an SVG hex map on the game page (tiles, terrain, sites with their owners'
shields, face-down enemy tokens that hide their identity, revealed ones, heroes' figures, the explore frontier),
the player's hand and deed deck/discard counts, the mana source and crystals, the offers, units,
Fame/Reputation/level tracks, day/night.

Part one draws a hand-made view (README "View" shape) through the presentation, so each drawn part is pinned on
known input; part two plays real games through the server when the engine is registered.
"""

from __future__ import annotations

import copy
import re

import pytest
from django.template.loader import render_to_string

from games.presentation import registry
from games.presentation.mage_knight import hexgeom
from games.presentation.mage_knight.mapview import place_of

SEATS = [{"position": 0, "player": "alice", "is_bot": False, "deciding": True},
         {"position": 1, "player": None, "is_bot": True, "deciding": False}]
SECRET_ENEMY = ("zcanary_gnoll", "Canary Gnoll Qx7f")  # a face-down token's identity, never to be drawn


def _hex(q, r, terrain, **kw):
    h = {"q": q, "r": r, "terrain": terrain, "site": None, "owner": None, "rampaging": False, "burned": False,
         "conquered": False, "enemies": [], "ruins": None, "heroes": []}
    h.update(kw)
    return h


def sample_view(seat: int | None = 0, *, combat: bool = False, over: bool = False) -> dict:
    """A 2-player view at night in round 2, seat 0's turn, as view.py's contract describes it."""
    hexes = [
        _hex(0, 0, "plains", site="portal"),
        _hex(1, -1, "forest", heroes=[1]),
        _hex(1, 0, "plains", site="village", owner=1, heroes=[0]),
        _hex(0, 1, "mountain"),
        _hex(-1, 1, "lake"),
        _hex(-1, 0, "hills", site="keep", enemies=[{"colour": "gray", "face_up": False}]),
        _hex(0, -1, "plains"),
        _hex(2, 1, "wasteland", site="ancient_ruins", ruins={"face_up": False}),
        _hex(3, 0, "hills", rampaging=True, enemies=[{"colour": "green", "face_up": True, "id": "cursed_hags",
                                                       "name": "Cursed Hags", "armor": 5,
                                                       "attacks": [{"value": 3, "element": "physical"}],
                                                       "abilities": ["poison"], "resistances": []}]),
        _hex(3, 1, "desert", site="monastery", burned=True),
        _hex(2, 2, "swamp", site="dungeon", owner=0, conquered=True),
        _hex(1, 2, "plains", site="mage_tower", enemies=[{"colour": "violet", "face_up": False}]),
        _hex(2, 0, "plains", site="ancient_ruins", ruins={"face_up": True, "id": "altar_blue"}),
        _hex(3, 2, "forest", site="mine"),
    ]
    view = {
        "round": 2, "rounds_total": 3, "time": "night", "phase": "turn", "current": 0, "order": [0, 1],
        "end_announced_by": None, "over": False, "result": None, "step": 40,
        "map": {"hexes": hexes, "explore": ["1,-3", "4,-1"], "tiles_left": 7},
        "heroes": [
            {"seat": 0, "hero": "tovak", "name": "Tovak", "pos": "1,0", "fame": 9, "reputation": 1, "level": 2,
             "armor": 2, "hand_limit": 5, "command": 1, "units": [{"id": "peasants", "name": "Peasants", "ready": True,
                                                                    "wounded": False}],
             "crystals": {"red": 1, "blue": 0, "green": 2, "white": 0}, "deck_count": 6, "hand_count": 4,
             "discard_count": 5, "tactic": "long_night", "skills": []},
            {"seat": 1, "hero": "arythea", "name": "Arythea", "pos": "1,-1", "fame": 4, "reputation": -2, "level": 1,
             "armor": 2, "hand_limit": 5, "command": 1, "units": [{"id": "guardian_golems", "name": "Guardian Golems",
                                                                    "ready": False, "wounded": True}],
             "crystals": {"red": 0, "blue": 1, "green": 0, "white": 0}, "deck_count": 8, "hand_count": 5,
             "discard_count": 2, "tactic": "from_the_dusk", "skills": []},
        ],
        "dummy": None,
        "source": [{"colour": "red", "taken": True}, {"colour": "black", "taken": False},
                   {"colour": "blue", "taken": False}, {"colour": "gold", "taken": False}],
        "offers": {"units": [{"id": "peasants", "name": "Peasants"}, {"id": "foresters", "name": "Foresters"}],
                   "advanced": [{"id": "blood_rage", "name": "Blood Rage"}], "spells": [{"id": "fireball",
                                                                                           "name": "Fireball"}]},
        "tactics": {"available": ["mana_search", "preparation"], "chosen": {"0": "long_night", "1": "from_the_dusk"}},
        "turn": {"seat": 0, "acted": False, "mode": "regular",
                 "pool": {"move": 3, "influence": 0, "heal": 0,
                          "attack": {"melee": {"physical": 2}, "ranged": {}, "siege": {}}, "block": {"ice": 2}}},
        "combat": None,
        "me": None,
    }
    if seat is not None:
        view["me"] = {"seat": seat, "tokens": ["black"], "hand": [
            {"id": "march", "name": "March", "kind": "basic", "colour": "green",
             "text": "Move 2. Powered (green): Move 4."},
            {"id": "rage", "name": "Rage", "kind": "basic", "colour": "red",
             "text": "Attack or Block 2. Powered (red): Attack 4."},
            {"id": "wound", "name": "Wound", "kind": "wound", "colour": None, "text": "Cannot be played."}]}
    if combat:
        view["combat"] = {"phase": "block", "context": {"kind": "site", "hex": "-1,0", "site": "keep", "fortified": 1},
                          "enemies": [{"id": "guardsmen", "name": "Guardsmen", "colour": "gray", "face_up": True,
                                       "armor": 7, "attacks": [{"value": 3, "element": "physical"}],
                                       "abilities": ["fortified"], "resistances": [], "blocked": True,
                                       "defeated": False}]}
    if over:
        view.update(over=True, phase="over", turn=None,
                    result={"scores": [14, 9], "ranks": [1, 2], "tiebreak": [],
                            "breakdown": [{"fame": 9, "greatest_adventurer": 5}, {"fame": 4, "greatest_leader": 5}]})
    return view


def move_options():
    """A turn's picks as turn.py words them."""
    return [{"id": "t-move:0,-1", "label": "move to 0,-1 (2)"}, {"id": "t-explore:1,-3", "label": "explore at 1,-3 (2)"},
            {"id": "t-play:march", "label": "play March"}, {"id": "t-end", "label": "end turn"}]


def render_board(view, options=(), seats=SEATS, prompt=None):
    p = registry.presentation_for("mage_knight")
    board = p.board(view=view, seats=seats, prompt_options=list(options))

    class G:
        pk = 1
    return board, render_to_string(board["template"], {"board": board, "view": view, "game": G(), "viewer": None,
                                                       "prompt": prompt})


def test_the_registry_finds_the_package():
    """docs/games.md "How to add a game": the package is found by the engine's slug."""
    from games.presentation.mage_knight import MageKnightPresentation
    assert registry.has_package("mage_knight")
    assert isinstance(registry.presentation_for("mage_knight"), MageKnightPresentation)


def test_hex_geometry_is_pointy_top_axial_with_r_growing_downward():
    """README "Axial coordinates, pointy-top, r grows downward": (0,1) is below (0,0), half a hex to the right of
    (-1,1), and neighbours are one hex width apart."""
    x0, y0 = hexgeom.centre(0, 0)
    x1, y1 = hexgeom.centre(0, 1)
    assert y1 > y0 and x1 > x0
    assert hexgeom.centre(-1, 1)[1] == y1 and x1 - hexgeom.centre(-1, 1)[0] == pytest.approx(hexgeom.SIZE * 3 ** .5)
    top = min(hexgeom.corners(0, 0), key=lambda p: p[1])
    assert top[0] == pytest.approx(x0) and top[1] == pytest.approx(-hexgeom.SIZE)  # a corner points up
    assert hexgeom.distance((0, 0), (2, -1)) == 2 and len(set(hexgeom.tile_hexes(4, -1))) == 7


@pytest.mark.parametrize("seat", [0, None])
def test_the_map_draws_terrain_sites_shields_tokens_figures_and_the_frontier(seat):
    """Tiles, terrain (with a legend), sites with their owners' shields, face-down tokens by colour, the
    revealed ones with name/armor/attack, heroes' figures (seat colour and 1-based number), the explore frontier."""
    view = sample_view(seat)
    board, html = render_board(view)
    assert html.count('class="mk-hex ') == len(view["map"]["hexes"])
    assert 'data-hex="1,0"' in html and ">Village<" in html and "Shield of seat 2" in html
    assert ">Keep<" in html and "Face-down enemy token (Keep garrison (grey))" in html
    assert "Face-down ruins token" in html and "Ruins token: Altar blue" in html
    assert "Cursed Hags: armor 5, attack 3; Poison" in html  # the revealed rampaging token
    assert '<text y="-0.5" class="mk-armor">5</text>' in html and '<text y="5.5" class="mk-attack">3</text>' in html
    assert "mk-ring rampaging" in html and 'fill="url(#mk-burned)"' in html
    assert "Hero of seat 1" in html and "Hero of seat 2" in html
    assert html.count('class="mk-frontier"') == 2 and 'data-tile="4,-1"' in html
    # only the terrains on the map, each with its costs (rules: "Terrain Cost"; forest 3 by day, 5 by night)
    legend = html[html.index('id="mk-legend"'):]
    assert "Forest <small>3 by day, 5 by night</small>" in legend and "Mountain <small>impassable" in legend
    assert "Ocean" not in legend
    assert re.search(r'viewBox="-?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+"', html)


def test_a_tokens_face_says_its_attacks_in_short():
    """Rules "Block": the element matters for blocking, so the token's face keeps it: 4F, 3I, 5CF, S for a summoner."""
    from games.presentation.mage_knight.labels import attacks_short
    assert attacks_short([{"value": 4, "element": "fire"}]) == "4F"
    assert attacks_short([{"value": 5, "element": "cold_fire"}, {"value": 3, "element": "physical"}]) == "5CF/3"
    assert attacks_short([{"summon": "brown"}]) == "S"


def test_the_viewbox_holds_every_hex_and_every_frontier_tile():
    board, _ = render_board(sample_view(0))
    x0, y0, w, h = (float(v) for v in board["map"]["view_box"].split())
    for key in ("1,-3", "4,-1"):
        for q, r in hexgeom.tile_hexes(*hexgeom.parse(key)):
            for cx, cy in hexgeom.corners(q, r):
                assert x0 <= cx <= x0 + w and y0 <= cy <= y0 + h


def test_a_face_down_token_never_shows_its_identity_even_if_a_view_carried_it():
    """Hidden information: face-down enemies and ruins hide their identity. The view leaves the id out;
    the drawing does not read it either, so a view that leaked one still would not show it."""
    view = sample_view(0)
    keep = next(h for h in view["map"]["hexes"] if h["site"] == "keep")
    keep["enemies"][0].update(id=SECRET_ENEMY[0], name=SECRET_ENEMY[1], armor=4711)
    ruins = next(h for h in view["map"]["hexes"] if h["ruins"] and not h["ruins"]["face_up"])
    ruins["ruins"]["id"] = "zcanary_ruins_token"
    from games.presentation.mage_knight.mail import situation
    _, html = render_board(view)
    mail = str(situation(view, 0))
    for text in (html, mail):
        for secret in (*SECRET_ENEMY, "4711", "zcanary_ruins", "Zcanary"):
            assert secret not in text, secret


def test_move_and_explore_picks_become_buttons_on_their_hexes_posting_the_prompt():
    """When the viewer's prompt offers moves, the hexes are clickable and post those options through the
    decision box's route and fields (option + prompt id), so nothing new is needed on the server."""
    assert place_of({"id": "t-move:0,-1", "label": "x"}) == ("move", (0, -1))
    assert place_of({"id": "m7", "label": "move to -2,3 (4)"}) == ("move", (-2, 3))
    assert place_of({"id": "t-explore:-1,-2", "label": "explore at -1,-2 (2)"}) == ("explore", (-1, -2))
    assert place_of({"id": "t-play:march", "label": "play March"}) is None
    assert place_of({"id": "t-challenge:3,0", "label": "challenge the enemies at 3,0"}) is None
    prompt = {"prompt_id": "p-42"}
    board, html = render_board(sample_view(0), move_options(), prompt=prompt)
    form = html[html.index('id="mk-map-form"') - 200:]
    assert 'action="/games/1/move/" class="decision-form mk-map-form"' in form  # the decision box's route
    assert 'name="prompt" value="p-42"' in form
    assert 'name="option" value="t-move:0,-1"' in html and 'name="option" value="t-explore:1,-3"' in html
    assert 'value="t-play:march"' not in form  # a card play stays in the decision box, drawn as the card:
    assert board["option_cards"]["t-play:march"]["card"]["name"] == "March" and len(board["option_cards"]) == 1
    assert 'data-hex="0,-1"' in html and "mk-ring target" in html
    _, spectator = render_board(sample_view(None), [], prompt=None)
    assert "mk-map-form" not in spectator


def test_the_map_as_text_lists_hexes_from_the_view_only():
    """The text equivalent: each hex with terrain, site, tokens (face-down by colour only) and heroes; a canary
    identity on a face-down token never reaches it."""
    view = sample_view(0)
    keep = next(h for h in view["map"]["hexes"] if h["site"] == "keep")
    keep["enemies"][0].update(id=SECRET_ENEMY[0], name=SECRET_ENEMY[1])
    _, html = render_board(view, move_options(), prompt={"prompt_id": "p"})
    text = html[html.index('id="mk-map-text"'):html.index('id="mk-legend"')]
    assert text.count("<li>") == len(view["map"]["hexes"]) + len(view["map"]["explore"])
    assert "enemy token" in text and "face-down ruins token" in text
    assert "Cursed Hags" in text  # a revealed token is named
    assert "hero of seat 1 (you)" in text
    for secret in SECRET_ENEMY:
        assert secret not in html


def test_a_reachable_hex_is_a_button_for_exactly_the_offered_pick():
    """A reachable hex is a keyboard-reachable button for exactly the move pick offered; a spectator gets none."""
    options = move_options()
    _, html = render_board(sample_view(0), options, prompt={"prompt_id": "p"})
    move = next(o for o in options if o["id"].startswith("t-move:"))
    key = move["id"].split(":", 1)[1]
    hexes = html[html.index(f'data-hex="{key}"') - 200:html.index(f'data-hex="{key}"') + 300]
    assert f'data-option="{move["id"]}"' in hexes and 'role="button"' in hexes and 'tabindex="0"' in hexes
    # the spectator (no prompt) gets no tappable hex
    _, spectator = render_board(sample_view(None), [])
    assert "data-option=" not in spectator and "mk-tap" not in spectator.split("</style>", 1)[1]


def test_around_the_map_the_hand_source_offers_heroes_tactics_and_turn_totals():
    """Hand as cards (name, colour, text), deed deck/discard counts, mana source dice (taken greyed),
    crystals and tokens, offers, units ready/wounded, Fame/Reputation/level/armor/hand limit, day or night, round x
    of y, the tactics, and the turn's running totals (Move, Influence, Attack, Block)."""
    view = sample_view(0)
    board, html = render_board(view)
    status = render_to_string(board["status_template"], {"board": board, "view": view})
    assert "Round <strong>2</strong> of 3" in status and "Night" in status and "alice's turn" in status
    hand = html[html.index('id="my-hand"'):html.index('id="mk-heroes"')]
    assert "March" in hand and "col-green" in hand and "Move 2. Powered (green): Move 4." in hand
    assert "mk-card col-wound wound" in hand and "deed deck 6 · discard 5" in hand
    assert 'mk-die m-red taken' in html and 'mk-die m-black"' in html
    assert "black mana token" in hand
    assert "Peasants <small>· ready</small>" in html and "Guardian Golems <small>· wounded</small>" in html
    assert "Foresters" in html and "Blood Rage" in html and "Fireball" in html
    hero = html[html.index('id="hero-0"'):html.index('id="hero-1"')]
    for text in ("Fame <strong class=\"mk-fame\">9</strong>", "Reputation <strong>+1</strong>", "Level <strong>2</strong>",
                 "Armor <strong>2</strong>", "Hand limit <strong>5</strong>", "Tactic: Long Night (2)"):
        assert text in hero, text
    assert "Reputation <strong>-2</strong>" in html
    turn = html[html.index('id="mk-turn"'):]
    assert 'id="mk-pool-move">3<' in turn and 'id="mk-pool-block">2<' in turn and "2 ice" in turn
    assert "Mana Search (3)" in html and "alice: <strong>Long Night</strong> (2)" in html


def test_a_spectator_sees_no_hand_and_no_map_buttons():
    board, html = render_board(sample_view(None))
    assert 'id="my-hand"' not in html and 'id="mk-heroes"' in html and "March" not in html


def test_the_combat_panel_shows_phase_enemies_and_what_is_blocked():
    """A combat panel: phase, enemies with armor/attacks/abilities, what is blocked/defeated."""
    _, html = render_board(sample_view(0, combat=True))
    panel = html[html.index('id="mk-combat"'):html.index('id="mk-turn"')]
    assert "Phase: <strong>Block</strong>" in panel and "Guardsmen" in panel and "armor 7, attack 3" in panel
    assert "Fortified" in panel and "blocked</span>" in panel and "Keep" in panel


def _modified_combat_view():
    view = sample_view(0, combat=True)
    view["combat"]["site_unfortified"] = True
    view["combat"]["enemies"].append({"id": "fire_mages", "name": "Fire Mages", "colour": "violet", "face_up": True,
                                      "armor": 3, "base_armor": 5, "attacks": [{"value": 6, "element": "fire"}],
                                      "abilities": [], "resistances": [], "lost_resistances": ["fire"],
                                      "unfortified": True, "skip": True, "blocked": False, "defeated": False})
    return view


def test_the_combat_panel_shows_the_modifiers_cards_put_on_each_enemy():
    """Played cards are public: the panel shows what Tremor, Chill, Expose ... did to each enemy ("armor 3 (-2)",
    "does not attack", "no fire resistance", "fortification removed") and Demolish's ignored site fortification."""
    _, html = render_board(_modified_combat_view())
    panel = html[html.index('id="mk-combat"'):html.index('id="mk-turn"')]
    assert "armor 3 (-2), attack 6 fire" in panel and "armor 7, attack 3" in panel
    for tag in ("does not attack", "no fire resistance", "fortification removed"):
        assert f'<span class="mk-tag modifier">{tag}</span>' in panel
    assert "(ignored this turn)" in panel


def test_the_mail_combat_section_says_the_same_modifiers():
    p = registry.presentation_for("mage_knight")
    lines = dict(p.mail_sections(_modified_combat_view(), 0))["Combat"]
    assert lines[0].endswith("; site fortifications ignored this turn")
    assert lines[2] == ("Fire Mages: armor 3 (-2), attack 6 fire "
                        "[does not attack, no fire resistance, fortification removed]")


def test_the_final_table_ranks_by_score_with_each_achievement():
    """Rules "Scoring": Fame plus the standard achievements; the most wins."""
    view = sample_view(0, over=True)
    board, _ = render_board(view)
    html = render_to_string(board["result_template"], {"result": board["result"]})
    assert [r["seat"] for r in board["result"]["rows"]] == [0, 1]
    assert "Greatest Adventurer" in html and "Greatest Leader" in html and '<td class="num total">14</td>' in html


def test_mail_situation_lists_hexes_around_the_hero_the_frontier_hand_pools_and_combat():
    """The email and API views say the same as the board: the map as a short list around the player and the explore
    options, the hand, the pools, the combat."""
    p = registry.presentation_for("mage_knight")
    view = sample_view(0, combat=True)
    sections = dict(p.mail_sections(view, 0))
    around = sections["Around you"]
    assert around[0] == "You are at 1,0 Plains (costs 2) - Village, shield of seat 2"  # not "hero of seat 1"
    assert any(line.startswith("-1,0 Hills (costs 3) - Keep - enemies: a face-down gray enemy") for line in around)
    assert any("3,0 Hills" in line and "rampaging: Cursed Hags (armor 5, attack 3)" in line for line in around)
    assert any("Forest (costs 5)" in line for line in around)  # night cost
    assert "1,-3; 4,-1" in around[-2] and around[-1] == "Tiles left to explore: 7"
    assert sections["Your hand"][0] == "March (green): Move 2. Powered (green): Move 4."
    assert sections["This turn"][0].startswith("Move 3, Influence 0, Attack 2, Block 2 ice")
    assert sections["Combat"][1].startswith("Guardsmen: armor 7, attack 3") and "[blocked]" in sections["Combat"][1]
    assert "Crystals: 1 red, 2 green; mana tokens this turn: black" in sections["Your hero"]
    assert p.where(view) == "Round 2 of 3 (Night): your turn"  # the reader is seat 1
    assert p.where(sample_view(1)) == "Round 2 of 3 (Night): seat 1's turn"
    spectator_safe = dict(p.mail_sections(sample_view(1), 1))
    assert spectator_safe["Your hero"][0].startswith("Arythea (seat 2) at 1,-1")


def test_history_headings_and_score_labels():
    p = registry.presentation_for("mage_knight")
    label = p.step_labeller(SEATS)
    assert label({"kind": "turn_start", "seat": 1}) == "Bot 2's turn"
    assert label({"seat": 0, "card": "march", "mode": "basic"}) == "alice's turn"
    assert label({"seat": 0, "tactic": "early_bird"}) == "Tactics · alice's choice"
    assert label({"seat": -1, "tactic": "planning"}) == "Tactics · the Dummy Player's choice"
    assert label({"round": 2, "time": "night"}) == "Round 2 begins (Night)"
    assert label({"result": {"scores": [1]}}) == "Game over"
    assert label({"kind": "block", "enemy": "x"}) == "" and label({"order": [1, 0]}) == ""
    assert p.score_label("greatest_beating") == "Greatest Beating" and p.score_label("fame") == "Fame"


def test_the_rules_summary_renders():
    html = render_to_string("games/mage_knight/rules.html", registry.presentation_for("mage_knight").rules_context(None))
    for phrase in ("First Reconnaissance", "announces the end of the", "Forced withdrawal", "Greatest Beating",
                   "Dummy Player", "cold fire", "knocks you out"):
        assert phrase in html, phrase
    assert "<td>" in html and "Forest" in html


def test_the_lobby_fields_make_the_engines_hero_options():
    """Choose Your Hero: a hero per seat, or dealt in seat order; the engine's own message refuses twice the
    same hero. (The engine's options: games/engines/mage_knight/setup.py parse_options.)"""
    from games.engines.mage_knight.setup import HERO_ORDER, parse_options
    from games.presentation.mage_knight.options import game_options, option_fields
    fields = option_fields(None)
    assert set(fields) == {"mk_hero_1", "mk_hero_2", "mk_hero_3", "mk_hero_4", "mk_elite_units"}
    assert [c for c, _ in fields["mk_hero_1"].choices][1:] == list(HERO_ORDER)
    assert game_options(None, {}, seats=3) == {}
    picked = game_options(None, {"mk_hero_2": HERO_ORDER[0]}, seats=3)
    assert picked == {"heroes": [HERO_ORDER[1], HERO_ORDER[0], HERO_ORDER[2]]}
    assert parse_options(3, picked)["heroes"] == picked["heroes"]
    twice = game_options(None, {"mk_hero_1": HERO_ORDER[0], "mk_hero_2": HERO_ORDER[0]}, seats=2)
    with pytest.raises(ValueError, match="different hero"):
        parse_options(2, twice)
    assert game_options(None, {"mk_elite_units": True}, seats=1) == {"elite_units": True}


# ------------------------------------------------------------------------------------------------------------------
# Part two: real games through the server (the engine's own view; games created and played through the services)
# ------------------------------------------------------------------------------------------------------------------

from games.engines.registry import ENGINES  # noqa: E402

needs_engine = pytest.mark.skipif("mage_knight" not in ENGINES, reason="the Mage Knight engine is not registered yet")
HAND_CANARY = ("zcanary_card", "Canary Marcher Qx7f")
RUINS_CANARY = "zcanary_ruins_qx7f"


def bot_pick(game, seat: int) -> str:
    """What the server's bot would pick for ``seat`` now (games/bots.py: the game's greedy bot, one instance that
    remembers its turn's plan, or the engine's default)."""
    from games.bots import bot_pick as server_bot_pick
    from games.engines.registry import get_engine
    return server_bot_pick(slug="mage_knight", engine=get_engine("mage_knight"), state=game.state, seat=seat)


def drive(game, done, limit: int = 4000):
    """Every open prompt picks what a bot would, through the services, until ``done(state)`` or the game ends."""
    from games.models import GameStatus
    from tests.games.helpers import open_prompt, pick
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE or done(game.state):
            return game
        seat = next(p for p in range(game.players) if open_prompt(game, p) is not None)
        pick(game, seat, bot_pick(game, seat))
    raise AssertionError("the game did not get there")


def mid_game(state) -> bool:
    """A turn under way after someone has moved: the map, a hand, the pool all have something to show."""
    return state["phase"] == "turn" and state.get("dec") is not None and state["dec"].get("kind") == "turn" \
        and any(s["pos"] not in (None, "0,0") for s in state["seats"])


def in_combat(state) -> bool:
    return state.get("combat") is not None and state.get("dec") is not None


def mk_game(players: int = 2, seed: int = 3):
    from tests.factories import make_started_game
    return make_started_game(players=players, engine="mage_knight", seed=seed)


def register_canaries(monkeypatch) -> None:
    """A deed card and an enemy under names found nowhere in the game's data, known to the engine's tables."""
    from dataclasses import replace

    from games.engines.mage_knight import cards as mk_cards
    from games.engines.mage_knight import enemies as mk_enemies
    monkeypatch.setitem(mk_cards.CARDS, HAND_CANARY[0],
                        replace(mk_cards.CARDS["march"], id=HAND_CANARY[0], name=HAND_CANARY[1]))
    some = next(iter(mk_enemies.ENEMIES.values()))
    monkeypatch.setitem(mk_enemies.ENEMIES, SECRET_ENEMY[0], replace(some, id=SECRET_ENEMY[0], name=SECRET_ENEMY[1]))


def plant_canaries(game) -> str:
    """Seat 1 holds the canary card; a face-down enemy token is the canary enemy and a face-down ruins token the
    canary token. Returns the hex of the planted enemy."""
    state = game.state
    state["seats"][1]["hand"].append(HAND_CANARY[0])
    hexes = state["map"]["hexes"]
    key = next((k for k, h in hexes.items() if any(not e["face_up"] for e in h.get("enemies") or [])), None)
    if key is None:  # no face-down token in sight yet: put one on an empty plains hex away from everyone
        key = next(k for k, h in hexes.items() if h["terrain"] in ("plains", "hills", "forest") and not h.get("site")
                   and not h.get("enemies") and all(s["pos"] != k for s in state["seats"]))
        hexes[key]["enemies"] = [{"id": SECRET_ENEMY[0], "colour": "brown", "face_up": False}]
    else:
        token = next(e for e in hexes[key]["enemies"] if not e["face_up"])
        token["id"] = SECRET_ENEMY[0]
    ruins = next((h for h in hexes.values() if h.get("ruins")), None)
    if ruins is not None:
        ruins["ruins"] = {"id": RUINS_CANARY, "face_up": False}
    game.save(update_fields=["state"])
    return key


def assert_no_canary(text: str, where: str, *, own_hand: bool = False) -> None:
    secrets = [*SECRET_ENEMY, RUINS_CANARY] + ([] if own_hand else list(HAND_CANARY))
    for secret in secrets:
        assert secret not in text, f"{secret} leaked into {where}"


@needs_engine
@pytest.mark.django_db
def test_a_real_game_draws_its_map_hand_and_heroes_for_a_player_and_a_spectator(login, stranger):
    """The game page and its live fragment draw the engine's view for a seat and for
    a spectator: every revealed hex in the SVG, the heroes' areas, the player's own hand only."""
    game, users = mk_game()
    drive(game, mid_game)
    state = game.state
    seat = state["dec"]["seat"]
    c = login(users[seat])
    html = c.get(f"/games/{game.pk}/").content.decode()
    assert 'id="mk-board"' in html and 'class="mk-map"' in html
    assert html.count('class="mk-hex ') == len(state["map"]["hexes"])
    assert 'id="my-hand"' in html and 'id="hero-0"' in html and 'id="hero-1"' in html
    assert f"Round <strong>{state['round']}</strong> of {state['rounds_total']}" in html
    live = c.get(f"/games/{game.pk}/live/").json()["html"]
    assert 'id="mk-board"' in live and 'id="my-hand"' in live
    spectator = login(stranger).get(f"/games/{game.pk}/").content.decode()
    assert 'class="mk-map"' in spectator and 'id="my-hand"' not in spectator and "mk-map-form" not in spectator


@needs_engine
@pytest.mark.django_db
def test_clicking_a_hex_posts_the_move_pick_like_the_decision_box(login):
    """Clickable hexes post those options through the decision box's route: the posted pick moves
    the hero."""
    from tests.games.helpers import open_prompt
    game, users = mk_game()
    drive(game, lambda s: s["phase"] == "turn" and s.get("dec") is not None and s["dec"].get("kind") == "turn"
          and any(o.startswith("t-move:") for o in _open_option_ids(game, s["dec"]["seat"])))
    seat = game.state["dec"]["seat"]
    c = login(users[seat])
    html = c.get(f"/games/{game.pk}/").content.decode()
    prompt = open_prompt(game, seat)
    move = next(o["id"] for o in prompt.options if o["id"].startswith("t-move:"))
    form = html[html.index('id="mk-map-form"'):]
    assert f'name="prompt" value="{prompt.prompt_id}"' in form and f'value="{move}"' in form
    r = c.post(f"/games/{game.pk}/move/", {"prompt": prompt.prompt_id, "option": move})
    assert r.status_code in (200, 302)
    game.refresh_from_db()
    assert game.state["seats"][seat]["pos"] == move.split(":", 1)[1]


def _open_option_ids(game, seat: int) -> list[str]:
    from tests.games.helpers import open_prompt
    p = open_prompt(game, seat)
    return [o["id"] for o in p.options] if p else []


@needs_engine
@pytest.mark.django_db
def test_hidden_cards_enemies_and_ruins_never_reach_another_seats_page_fragment_or_api(login, stranger, monkeypatch):
    """Hidden information (hands, deck orders, face-down enemies and ruins, tile deck) stays hidden on every surface:
    a card in seat 1's hand, a face-down enemy's identity and a face-down ruins token's never show on seat 0's or a
    spectator's page, live fragment or API view; the hand card does show to seat 1 (so the check can fail)."""
    register_canaries(monkeypatch)
    game, users = mk_game()
    drive(game, mid_game)
    plant_canaries(game)
    for viewer, who in ((users[0], "seat 0"), (stranger, "spectator")):
        c = login(viewer)
        assert_no_canary(c.get(f"/games/{game.pk}/").content.decode(), f"{who}'s page")
        assert_no_canary(c.get(f"/games/{game.pk}/live/").json()["html"], f"{who}'s fragment")
        assert_no_canary(c.get(f"/api/games/{game.pk}/").content.decode(), f"{who}'s API view")
    own = login(users[1])
    page = own.get(f"/games/{game.pk}/").content.decode()
    assert HAND_CANARY[1] in page
    assert_no_canary(page, "seat 1's page", own_hand=True)
    assert_no_canary(own.get(f"/api/games/{game.pk}/").content.decode(), "seat 1's API view", own_hand=True)


@needs_engine
@pytest.mark.django_db
def test_a_finished_game_shows_the_final_table_and_its_replay(login, stranger):
    """Rules "Scoring": Fame plus achievements, the most Fame wins; the page shows the table to all, and the replay
    draws the map for a player and a spectator."""
    game, users = mk_game(seed=5)
    drive(game, lambda s: False, limit=20000)
    game.refresh_from_db()
    assert game.status == "finished"
    for viewer in (users[0], stranger):
        html = login(viewer).get(f"/games/{game.pk}/").content.decode()
        assert 'id="result"' in html and "Final scores" in html and "Fame" in html
        assert 'id="my-hand"' not in html and "mk-map-form" not in html
        replay = login(viewer).get(f"/games/{game.pk}/replay/")  # the replay draws each past view the same way
        assert replay.status_code == 200 and 'class="mk-map"' in replay.content.decode()


@needs_engine
def test_the_rules_page_and_the_lobby_offer_the_game(client, db, login):
    from tests.factories import UserFactory
    html = client.get("/games/mage_knight/rules/").content.decode()
    assert 'id="rules-summary"' in html and "First Reconnaissance" in html and "has no summary yet" not in html
    assert "1-4 players (1: solo, against the Dummy Player)" in html
    form = login(UserFactory()).get("/games/new/").content.decode()
    assert 'name="mk_hero_1"' in form and 'name="mk_elite_units"' in form


def test_the_turns_lasting_card_effects_are_drawn_and_mailed():
    """Played cards are public: the effects lasting the turn (Into the Heat, Agility: view ``turn.effects``) appear in
    the board's turn panel and in the mail's "This turn"."""
    view = sample_view(0)
    view["turn"]["effects"] = ["Into the Heat: Units +2 to their attacks and blocks this combat",
                               "Agility: Move may be spent as Attack 1:1 in combat this turn"]
    _, html = render_board(view)
    turn = html[html.index('id="mk-turn"'):]
    assert 'id="mk-turn-effects"' in turn and "Into the Heat: Units +2" in turn and "Agility: Move" in turn
    sections = dict(registry.presentation_for("mage_knight").mail_sections(view, 0))
    assert any(line.startswith("In effect: Into the Heat") for line in sections["This turn"])
