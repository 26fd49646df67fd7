"""First Reconnaissance setup: everything "Preparation (Setup)" lists, for 1-4 players (1 = solo with the Dummy).

The map, enemy piles, unit decks and the card decks come from their owners' modules (hexmap, enemies, units, cards);
this module lays them out in the order of the rules' list and builds each seat's area.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..options import OptionSpec
from ..rng import Rng, seed_state
from ..wording import noun
from . import cards, enemies, hexmap, sites, units
from .colours import BASIC
from .heroes import HERO_ORDER, HEROES
from .levels import LEVELS, SKILLS
from .mana import new_source
from .rounds import monastery_offer, tactics_of

# First Reconnaissance (scenario_first_reconnaissance.json), by player count.
ROUNDS = {1: ["day", "night", "day", "night"], 2: ["day", "night", "day"], 3: ["day", "night", "day"],
          4: ["day", "night", "day"]}
TILES = {1: (8, 2, 1), 2: (8, 2, 1), 3: (9, 2, 1), 4: (11, 2, 1)}  # countryside, core non-city, core city


# The table options (checked at create, games/engines/options.py); parse_options adds the checks that need the
# player count.
OPTION_SPECS = (
    OptionSpec("heroes", "a hero per seat, in seat order", items=HERO_ORDER, max_items=4),
    OptionSpec("elite_units", "Elite Units join the Unit offer once a Core tile is out (the scenario uses none)", choices=(True, False)),
)


def parse_options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the table's options; return them normalised. ValueError with a clear message otherwise."""
    if not 1 <= players <= 4:
        raise ValueError("Mage Knight (First Reconnaissance) takes 1-4 players")
    unknown = set(options) - {spec.name for spec in OPTION_SPECS}
    if unknown:
        raise ValueError(f"unknown {noun(len(unknown), 'option')}: {', '.join(sorted(unknown))}; "
                         "known: heroes, elite_units")
    heroes = options.get("heroes")
    if heroes is None:
        heroes = list(HERO_ORDER[:players])
    if not isinstance(heroes, (list, tuple)) or len(heroes) != players:
        raise ValueError(f"heroes: give one hero per seat ({players}), from {', '.join(HERO_ORDER)}")
    heroes = [str(h).lower() for h in heroes]
    for h in heroes:
        if h not in HEROES:
            raise ValueError(f"heroes: unknown hero {h!r}; choose from {', '.join(HERO_ORDER)}")
    if len(set(heroes)) != len(heroes):
        raise ValueError("heroes: each seat needs a different hero")
    elite = options.get("elite_units", False)
    if not isinstance(elite, bool):
        raise ValueError("elite_units: true or false")
    return {"heroes": heroes, "elite_units": elite}


def seat_area(hero: str, rng: Rng) -> dict[str, Any]:
    """12. The player's area: level 1 tokens, a Command token, the shuffled 16-card deed deck and 5 cards in hand."""
    lv = LEVELS[1]
    deck = list(HEROES[hero]["deck"])
    rng.shuffle(deck)
    hand = [deck.pop() for _ in range(lv["hand_limit"])]  # the top of a deck is its end
    pile = [s for s, row in SKILLS.items() if row["hero"] == hero]
    rng.shuffle(pile)
    return {"hero": hero, "pos": None, "deck": deck, "hand": hand, "discard": [], "play_area": [], "removed": [],
            "fame": 0, "reputation": 0, "level": 1, "armor": lv["armor"], "hand_limit": lv["hand_limit"],
            "command": lv["command"], "units": [], "crystals": {c: 0 for c in BASIC}, "skills": [],
            "skill_pile": pile, "skills_used": [], "shields": 0, "rewards": []}


def _dummy(heroes: list[str], rng: Rng) -> dict[str, Any]:
    """2. "an unused Hero Card ... Place 3 Crystals matching the hero card's depiction ... Shuffle the Hero Deck"."""
    unused = [h for h in HERO_ORDER if h not in heroes]
    hero = unused[rng.below(len(unused))]
    crystals = {c: 0 for c in BASIC}
    for c in HEROES[hero]["crystals"]:
        crystals[c] += 1
    deck = list(HEROES[hero]["deck"])
    rng.shuffle(deck)
    return {"hero": hero, "deck": deck, "discard": [], "crystals": crystals, "tactic": None}


def card_ids(kind: str) -> list[str]:
    """Every copy of the cards of one kind ("advanced", "spell", "artifact"), from cards.py."""
    return list(cards.deck_of(kind))


def deal_offer(deck: list, n: int) -> list:
    """Reveal the top n cards (the end of the list is the top)."""
    return [deck.pop() for _ in range(min(n, len(deck)))]


def first_unit_offer(state: dict, rng: Rng) -> None:
    """7. players+2 Regular Units; First Reconnaissance: "redeal until at least one Unit with the village icon"."""
    decks = state["decks"]
    n = state["players"] + 2
    for _ in range(100):  # a village unit is in most deals; the bound only guards a broken unit deck
        offer = deal_offer(decks["units_regular"], n)
        if any("village" in units.recruit_sites(u) for u in offer):
            break
        decks["units_regular"] += offer
        rng.shuffle(decks["units_regular"])
    state["offers"]["units"] = offer


def new_state(players: int, options: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """The state after setup, before round 1's tactics (engine.py opens the first decision)."""
    opts = parse_options(players, options or {})
    rng = Rng(seed_state(seed))
    solo = players == 1
    state: dict[str, Any] = {
        "players": players, "solo": solo, "options": opts, "rng": 0, "step": 0, "n": 0,
        "round": 1, "rounds_total": len(ROUNDS[players]), "round_sequence": list(ROUNDS[players]), "time": "day",
        "phase": "tactics", "over": False, "result": None, "order": list(range(players)), "cur": 0,
        "end_announced_by": None, "last_turns": [], "city_revealed_by": None, "final_turns": None,
        "map": None, "source": {"dice": ["red"] * (players + 2), "taken": []},
        "offers": {"units": [], "advanced": [], "spells": []},
        "decks": {}, "enemies": {}, "ruins": {"pile": [], "discard": []},
        "tactics": {"available": [], "removed": [], "chosen": {}},
        "skill_offer": [], "seats": [], "dummy": None, "turn": None, "combat": None, "dec": None, "held": None,
        "owner": None, "turns_taken": 0, "tactic_queue": [], "acting": None, "turn_at": -1, "effect": None,
        "announce_seen": False,
    }
    heroes = opts["heroes"]
    # 1. heroes in seat order (their order tokens: the first round order); 2. the Dummy for the solo game.
    if solo:
        state["dummy"] = _dummy(heroes, rng)
    # 3. enemy and ruins tokens in face-down piles.
    state["enemies"] = enemies.new_piles(rng)  # {"piles": {colour: [...]}, "discards": {colour: []}}
    state["ruins"] = {"pile": sites.new_ruins_pile(rng), "discard": []}
    # 4.-6. artifacts, spell and advanced action decks with offers of 3. 5. "Stack the Wound Cards face up": the
    # rules set no number, so the Wound supply is unlimited and the state keeps no count of it.
    decks: dict[str, Any] = {}
    for key, kind in (("advanced", "advanced"), ("spells", "spell"), ("artifacts", "artifact")):
        decks[key] = card_ids(kind)
        rng.shuffle(decks[key])
    # 7. unit decks.
    regular, elite = units.new_unit_decks(rng)
    decks["units_regular"], decks["units_elite"] = regular, elite
    state["decks"] = decks
    state["offers"]["advanced"] = deal_offer(decks["advanced"], 3)
    state["offers"]["spells"] = deal_offer(decks["spells"], 3)
    first_unit_offer(state, rng)
    # 8. day side up; players+2 dice.
    new_source(state, rng)
    # 9. day tactics.
    state["tactics"]["available"] = tactics_of("day")
    # 12. the players' areas (before the map: its reveals may draw on the seats' data).
    state["seats"] = [seat_area(h, rng) for h in heroes]
    # 10.-11. the tile deck, the starting tile and the revealed tiles (hexmap places the sites' enemies).
    state["rng"] = rng.state
    countryside, core, city = TILES[players]
    hexmap.new_map(state, countryside=countryside, core=core, city=city)
    rng = Rng(state["rng"])
    portal = next(k for k, h in state["map"]["hexes"].items() if h.get("site") == "portal")
    for s in state["seats"]:
        s["pos"] = portal
    monastery_offer(state)  # a monastery among the first tiles puts an Advanced Action beside the Unit offer
    state["rng"] = rng.state
    return state
