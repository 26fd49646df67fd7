"""Mage Knight site facts (sites.py, sites.json) and tile data (tiles.csv): each test quotes the rule text it
checks (shared/rules/mage-knight-rules.txt unless it names the data file)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from games.engines.mage_knight import sites
from games.engines.mage_knight.tiles import TILES

TOOLS = Path(__file__).resolve().parents[2] / "games" / "engines" / "mage_knight" / "tools"
SHARED = Path("/work/shared/data/mage-knight")


def test_fortified_sites_are_keep_mage_tower_and_city():
    """"If you enter an unconquered Fortified Site (like a Keep or City), an assault begins"."""
    assert sites.FORTIFIED == {"keep", "mage_tower", "city"}
    assert sites.is_fortified("keep") and not sites.is_fortified("village") and not sites.is_fortified(None)


def test_garrisons_placed_when_revealed():
    """Data (sites.json): a keep gets a gray enemy and a mage tower a violet one, face down, when revealed."""
    assert sites.site("keep")["on_reveal"]["enemies"] == ["gray"]
    assert sites.site("mage_tower")["on_reveal"]["enemies"] == ["violet"]
    for name in ("keep", "mage_tower"):
        assert sites.site(name)["on_reveal"]["face_up"] is False


def test_safe_spaces():
    """"If you are not on a safe space (e.g., a conquered site, your keep), backtrack your move"."""
    assert sites.site("keep")["safe"] == "if_owned"
    assert sites.site("mage_tower")["safe"] == "if_conquered"
    assert sites.site("city")["safe"] == "if_conquered"
    for name in ("village", "monastery", "mine", "magical_glade", "portal", "dungeon", "tomb", "monster_den",
                 "spawning_grounds", "ancient_ruins"):
        assert sites.site(name)["safe"] == "always"


def test_adventure_sites_and_their_enemies():
    """"Explore Adventure Site: Enter an Adventure Site (like Ancient Ruins or a Dungeon) as an action"; the
    enemies drawn on entry follow the data (dungeon brown, tomb red, monster den brown, spawning grounds two
    brown, ruins as their token shows)."""
    assert sites.ADVENTURE == {"dungeon", "tomb", "monster_den", "spawning_grounds", "ancient_ruins"}
    assert sites.entry_enemies("dungeon") == ["brown"]
    assert sites.entry_enemies("tomb") == ["red"]
    assert sites.entry_enemies("monster_den") == ["brown"]
    assert sites.entry_enemies("spawning_grounds") == ["brown", "brown"]
    assert sites.entry_enemies("ancient_ruins", "ruins_11") == ["brown", "red"]
    assert sites.entry_enemies("ancient_ruins", "ruins_1") == []  # an altar: no fight
    assert sites.entry_enemies("village") == []


def test_what_happens_to_undefeated_enemies():
    """"Dungeon, Tomb, or Monastery: Discard the enemy. Monster Den, Spawning Grounds, or Ruins: Return
    remaining enemies. Replace defeated enemies at Spawning Grounds"."""
    assert sites.site("dungeon")["on_entry"]["discard_undefeated"]
    assert sites.site("tomb")["on_entry"]["discard_undefeated"]
    for name in ("monster_den", "spawning_grounds", "ancient_ruins"):
        assert not sites.site(name)["on_entry"]["discard_undefeated"]
    assert sites.site("spawning_grounds")["on_entry"]["replace_defeated"]
    assert not sites.site("monster_den")["on_entry"]["replace_defeated"]


def test_dungeon_and_tomb_fights_have_no_units_and_night_rules():
    """Data (sites.json): dungeons and tombs are fought by the hero alone, with Night rules."""
    for name in ("dungeon", "tomb"):
        entry = sites.site(name)["on_entry"]
        assert entry["units_allowed"] is False and entry["night_rules"] is True


def test_conquest_rewards():
    """"Adventure Site: Mark with a shield. Claim indicated reward at turn end"; "Fortified Site: Mark with a
    shield. Claim reward (e.g., a Spell for a Mage Tower) at turn end"."""
    assert sites.conquest_reward("mage_tower") == ["spell"]
    assert sites.conquest_reward("keep") == []
    assert sites.conquest_reward("dungeon") == ["dungeon_roll"]
    assert sites.conquest_reward("tomb") == ["spell", "artifact"]
    assert sites.conquest_reward("monster_den") == ["crystal_roll", "crystal_roll"]
    assert sites.conquest_reward("spawning_grounds") == ["artifact", "crystal_roll", "crystal_roll", "crystal_roll"]
    assert sites.conquest_reward("ancient_ruins", "ruins_8") == ["spell", "four_crystals"]
    assert sites.conquest_reward("ancient_ruins", "ruins_3") == []  # an altar gives Fame, not a reward card
    assert sites.conquest_reward("village") == []
    for name in ("mage_tower", "keep", "dungeon", "tomb", "monster_den", "spawning_grounds", "ancient_ruins"):
        assert sites.site(name)["conquest"]["shield"] is True


def test_burning_a_monastery():
    """"Burn Monastery: As an action, you can burn a Monastery (with a reputation penalty)"; "Monastery: Mark with
    a shield. Claim an Artifact at turn end"; a violet enemy defends it (data)."""
    burn = sites.site("monastery")["burn"]
    assert burn["reputation"] == -3 and burn["enemies"] == ["violet"] and burn["reward"] == ["artifact"]
    assert burn["units_allowed"] is False


def test_monastery_reveal_adds_an_advanced_action_to_the_unit_offer():
    """Rulebook transcription: "If a monastery is revealed, draw one Advanced Action card and add it to the Unit
    offer"."""
    assert sites.site("monastery")["on_reveal"] == {"advanced_action_to_unit_offer": 1}


def test_interactions_of_inhabited_sites():
    """"Healing (costs 3 Influence at a Village or 2 at a Monastery)"; "Pay 6 Influence at a Monastery to learn
    an Advanced Action"; "Pay 7 Influence and Mana of the same color at a Mage Tower to learn a Spell";
    "Recruit a Unit if its type matches the site"."""
    def find(name, kind, colour=None):
        return [i for i in sites.interactions(name, colour) if i["type"] == kind]

    assert find("village", "buy_healing")[0]["influence_per_point"] == 3
    assert find("monastery", "buy_healing")[0]["influence_per_point"] == 2
    assert find("monastery", "buy_advanced_action")[0]["influence"] == 6
    assert find("mage_tower", "buy_spell")[0]["influence"] == 7
    for name in ("village", "monastery", "keep", "mage_tower"):
        assert find(name, "recruit")[0]["units_with_icon"] == name
    assert sites.INHABITED == {"village", "monastery"}


def test_city_interactions_by_colour():
    """"Gain +1 Influence per shield in a conquered city" and "Utilize corresponding City options"."""
    red = sites.interactions("city", "red")
    assert {"type": "influence_bonus_per_own_shield_on_city_card", "value": 1} in red
    assert any(i["type"] == "buy_artifact" and i["influence"] == 12 for i in red)
    assert not any(i["type"] == "buy_artifact" for i in sites.interactions("city", "blue"))


def test_ruins_tokens_of_the_base_game():
    """Data (sites.json ruins_tokens, yav ids 1-12): four altars (3 mana of one colour for 7 Fame) and eight
    enemy tokens with two enemies each."""
    ids = sites.ruins_token_ids()
    assert len(ids) == 12 and len(set(ids)) == 12
    altars = [sites.ruins_token(i) for i in ids if sites.ruins_token(i)["kind"] == "altar"]
    assert sorted(next(iter(a["pay_mana"])) for a in altars) == ["blue", "green", "red", "white"]
    assert all(list(a["pay_mana"].values()) == [3] and a["fame"] == 7 for a in altars)
    fights = [sites.ruins_token(i) for i in ids if sites.ruins_token(i)["kind"] == "enemies"]
    assert len(fights) == 8 and all(len(f["enemies"]) == 2 and f["reward"] for f in fights)


def test_mines_and_glades():
    """Data (sites.json): a mine gives a crystal of its colour at the end of the turn; a magical glade gives a
    gold mana token by Day and black at Night, and throws away a Wound at the end of the turn."""
    assert sites.site("mine")["end_of_turn"]["gain_crystal"] == "mine colour"
    glade = sites.site("magical_glade")
    assert glade["start_of_turn"] == {"day": {"gain_mana_token": "gold"}, "night": {"gain_mana_token": "black"}}
    assert glade["end_of_turn"]["throw_away_wound"] == 1
    for tile in TILES.values():
        for h in tile.hexes:
            assert (h.site == "mine") == (h.mine_colour in ("red", "blue", "green", "white"))


def test_rampaging_enemies_reputation():
    """"Rampaging Enemies: Remove tokens and gain reputation" (data: orcs +1, draconum +2)."""
    assert sites.rampaging_reputation("green") == 1
    assert sites.rampaging_reputation("red") == 2
    assert sites.RAMPAGING["green"]["name"] == "Marauding Orcs" and sites.RAMPAGING["red"]["name"] == "Draconum"


def test_tile_data():
    """Data (tiles.json): 21 base tiles of 7 hexes; tile A and B have the portal in the centre; core tiles 5-8
    carry a city of their colour in the centre; rampaging enemies stand on spaces with no site."""
    assert len(TILES) == 21 and all(len(t.hexes) == 7 for t in TILES.values())
    for start in ("starting_a", "starting_b"):
        assert TILES[start].hexes[0].site == "portal"
    colours = {t.id: t.hexes[0].city_colour for t in TILES.values() if t.kind == "city"}
    assert colours == {"core_5": "green", "core_6": "blue", "core_7": "white", "core_8": "red"}
    for t in TILES.values():
        for h in t.hexes:
            assert not (h.rampaging and h.site)
            assert (h.site == "city") == (h.city_colour is not None)


@pytest.mark.skipif(not SHARED.exists(), reason="the shared component data is not on this machine")
def test_compiled_files_are_up_to_date():
    """tools/compile_map.py regenerates tiles.csv and sites.json exactly (the derivation is reproducible)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("compile_map", TOOLS / "compile_map.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=tool.COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(tool.compile_tiles(SHARED))
    assert out.getvalue() == tool.OUT_TILES.read_text()
    assert json.loads(tool.OUT_SITES.read_text()) == tool.compile_sites(SHARED)
