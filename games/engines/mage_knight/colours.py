"""The mana colours: the four basic colours, then gold and black (a mana die's six faces, in this order).

The effect vocabulary (`mana C`, `crystal C`), the Source and the seats' crystals all name colours from here.
"""

from __future__ import annotations

BASIC = ("red", "blue", "green", "white")
ALL = BASIC + ("gold", "black")
