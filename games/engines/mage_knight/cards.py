"""Deed cards and the effect vocabulary: the one door the other modules use.

An effect string (README, "Effect vocabulary") parses into a JSON-able tree, so that a half-resolved
effect can wait in the state for a pick:

    ["atom", kind, *args]      move N | influence N | attack N elem | ranged N elem | siege N elem |
                               block N elem | heal N | draw N | mana C | crystal C | reputation N |
                               fame N | wound N | special NAME *ints
    ["all", [tree, ...]]       A + B
    ["any", [tree, ...]]       A | B   (the player picks one; "|" binds looser than "+"; parentheses group)

`mana any` is a choice of a token of any of the six colours. Effects resolve through a queue kept in
``state["turn"]["queue"]``; a choice stops the queue and opens ``state["turn"]["pending"]``
(kind "choose" or "special"), which turn.py turns into options (`effect_options` / `effect_pick`).
Specials (`special NAME`) are the named effects in SPECIALS; cards.csv and units.csv share them.

The work lives in smaller modules (README, module map): card_text (parse, describe), card_table (the table),
card_core (pool, usability, the resolver, seat helpers), specials_registry and the theme modules of specials
(specials_mana, specials_units, specials_combat, specials_movement, specials_skills, specials_actions, banners,
specials_other_players). This module registers every theme's specials, then loads the card table, and
re-exports the names the engine and the tests use as ``cards.<name>``.
"""

from __future__ import annotations

from .specials_registry import Special, SPECIALS
from .card_text import (ANY_COLOURS, atom, card_text, COMBAT, describe, EffectError, ELEMENTS, NUMERIC, parse,
    plural, sentence, WOUND)
from .card_table import ACTION_KINDS, Card, CARDS, colour, CSV_PATH, deck_of, KINDS, load, name
from .card_core import (action_cards_in_hand, add_pool, agility_kinds, ambush_bonus, apply_atom, atom_usable,
    change_reputation, combat_allowed, diplomacy_open, draw, effect_options, effect_pick, empty_pool, heal,
    hero_name, in_combat, make_ctx, note_wounds, run, start, take_from_offer, take_wounds, throw_away, unit_level,
    usable, usable_after_paying, wings_cost, wings_targets, wounds_in_hand)
from .specials_units import heal_unit_wound, unit_name, UNIT_SPECIALS, unit_wounds
from .specials_mana import MANA_SPECIALS
from .specials_combat import (agility_convert, AGILITY_RATE, COMBAT_SPECIALS, diplomacy_convert, ENEMY_SPECIALS,
    grail_unit_heal, turn_effects)
from .specials_movement import may_move, MOVEMENT_SPECIALS, terrain_modified, time_bending_open, wings_night_target
from .specials_skills import SKILL_SPECIALS
from .specials_actions import ACTION_SPECIALS, talent_castable
from .banners import (banner_of, BANNER_SPECIALS, courage_units, drop_banner, fear_units, glory_bonus, unit_armor,
    unit_resistances, use_courage, use_fear)
from .specials_other_players import mind_read_discard, mind_read_next, mind_read_options, OTHER_PLAYER_SPECIALS

# every special is registered before any effect string is parsed (atom() checks names)
SPECIALS.update(MANA_SPECIALS)
SPECIALS.update(UNIT_SPECIALS)
SPECIALS.update(COMBAT_SPECIALS)
SPECIALS.update(MOVEMENT_SPECIALS)
SPECIALS.update(ACTION_SPECIALS)
SPECIALS.update(BANNER_SPECIALS)
SPECIALS.update(OTHER_PLAYER_SPECIALS)
SPECIALS.update(SKILL_SPECIALS)
SPECIALS.update(ENEMY_SPECIALS)

CARDS.update(load())

__all__ = ["action_cards_in_hand", "ACTION_KINDS", "ACTION_SPECIALS", "add_pool", "agility_convert", "agility_kinds",
    "AGILITY_RATE", "ambush_bonus", "ANY_COLOURS", "apply_atom", "atom", "atom_usable", "banner_of",
    "BANNER_SPECIALS", "Card", "card_text", "CARDS", "change_reputation", "colour", "COMBAT", "combat_allowed",
    "COMBAT_SPECIALS", "courage_units", "CSV_PATH", "deck_of", "describe", "diplomacy_convert", "diplomacy_open",
    "draw", "drop_banner", "effect_options", "effect_pick", "EffectError", "ELEMENTS", "empty_pool",
    "ENEMY_SPECIALS", "fear_units", "glory_bonus", "grail_unit_heal", "heal", "heal_unit_wound", "hero_name",
    "in_combat", "KINDS", "load", "make_ctx", "MANA_SPECIALS", "may_move", "mind_read_discard", "mind_read_next",
    "mind_read_options", "MOVEMENT_SPECIALS", "name", "note_wounds", "NUMERIC", "OTHER_PLAYER_SPECIALS", "parse",
    "plural", "run", "sentence", "SKILL_SPECIALS", "Special", "SPECIALS", "start", "take_from_offer", "take_wounds",
    "talent_castable", "terrain_modified", "throw_away", "time_bending_open", "turn_effects", "unit_armor",
    "unit_level", "unit_name", "unit_resistances", "UNIT_SPECIALS", "unit_wounds", "usable", "usable_after_paying",
    "use_courage", "use_fear", "wings_cost", "wings_night_target", "wings_targets", "WOUND", "wounds_in_hand"]
