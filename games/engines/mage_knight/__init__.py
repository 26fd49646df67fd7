"""Mage Knight: First Reconnaissance (1-4 players) as a turn-server engine. See README.md for the module map.

Importing the package wires its layers together once: every effect module registers its specials in SPECIALS
(specials_registry.py), then the deed card table is loaded into CARDS (cards.py), whose effect strings name those
specials. The layers below the effects read the two tables and never import an effect module.
"""

from . import (banners, specials_actions, specials_combat, specials_mana, specials_movement,  # noqa: F401
               specials_other_players, specials_skills, specials_units)
from . import cards

cards.CARDS.update(cards.load())
