"""Site facts (sites.json, compiled by tools/compile_map.py): what each map site is and does.

Per site: ``name``, ``category`` (inhabited | fortified | adventure | other), ``fortified``, ``safe``
(always | if_conquered | if_owned: when the space is a safe space for forced withdrawal), ``on_reveal``
(what the tile reveal places: face-down garrison colours, a ruins token, an Advanced Action for the Unit
offer, a city garrison), ``on_entry`` (the enemies drawn when the site is entered as an action: colours,
units allowed, Night rules, what happens to undefeated/defeated tokens), ``conquest`` (shield, reward list),
``interactions`` (for interaction.py), ``start_of_turn`` / ``end_of_turn`` (glade, mine), ``burn`` (monastery).

Reward words: ``spell``, ``artifact``, ``advanced_action``, ``unit``, ``crystal_roll`` (roll a mana die:
basic colour = that crystal, gold = a crystal of your choice, black = Fame +1), ``dungeon_roll`` (roll a
mana die: gold or black = a Spell, else an Artifact), ``four_crystals`` (one crystal of each basic
colour), ``ruins_token`` (the reward printed on the site's ruins token).
"""

from __future__ import annotations

import json
import os
from typing import Any

from games.engines.rng import Rng

JSON_PATH = os.path.join(os.path.dirname(__file__), "sites.json")
REWARDS = ("spell", "artifact", "advanced_action", "unit", "crystal_roll", "dungeon_roll", "four_crystals",
           "ruins_token")
SAFE = ("always", "if_conquered", "if_owned")


def _load() -> dict[str, Any]:
    with open(JSON_PATH) as fh:
        data = json.load(fh)
    for sid, s in data["sites"].items():
        if s["safe"] not in SAFE:
            raise ValueError(f"sites.json: {sid}: bad safe value {s['safe']!r}")
        for word in (s.get("conquest") or {}).get("reward", []):
            if word not in REWARDS:
                raise ValueError(f"sites.json: {sid}: unknown reward {word!r}")
    for token in data["sites"]["ancient_ruins"]["tokens"]:
        for word in token.get("reward", []):
            if word not in REWARDS:
                raise ValueError(f"sites.json: {token['id']}: unknown reward {word!r}")
    return data


_DATA = _load()
SITES: dict[str, dict[str, Any]] = _DATA["sites"]
RAMPAGING: dict[str, dict[str, Any]] = _DATA["rampaging"]  # enemy colour -> {"id", "name", "reputation"}
RUINS_TOKENS: dict[str, dict[str, Any]] = {t["id"]: t for t in SITES["ancient_ruins"]["tokens"]}
FORTIFIED = frozenset(sid for sid, s in SITES.items() if s["fortified"])
ADVENTURE = frozenset(sid for sid, s in SITES.items() if s["adventure"])
INHABITED = frozenset(sid for sid, s in SITES.items() if s["inhabited"])


def site(name: str) -> dict[str, Any]:
    """The facts of one site (see the module docstring); KeyError for an unknown site."""
    return SITES[name]


def is_fortified(name: str | None) -> bool:
    return name in FORTIFIED


def assault_reputation(name: str | None) -> int:
    """The Reputation an assault on this site costs ("Every time you make an assault, you lose 1 Reputation")."""
    return (SITES.get(name or "", {}).get("assault") or {}).get("reputation", -1)


def ruins_token(token_id: str) -> dict[str, Any]:
    """An altar ``{"id", "kind": "altar", "pay_mana": {colour: n}, "fame"}`` or an enemy token
    ``{"id", "kind": "enemies", "enemies": [colour, ...], "reward": [reward word, ...]}``."""
    return RUINS_TOKENS[token_id]


def ruins_token_ids() -> list[str]:
    """The base game's ruins tokens, in a fixed order (shuffle before use)."""
    return list(RUINS_TOKENS)


def new_ruins_pile(rng: Rng) -> list[str]:
    """The base ruins tokens, shuffled face down (setup: "Shuffle all Enemy and Ruin Tokens")."""
    pile = ruins_token_ids()
    rng.shuffle(pile)
    return pile


def conquest_reward(name: str, ruins: str | None = None) -> list[str]:
    """What conquering the site gives at the end of the turn (reward words); the token's reward for ruins."""
    conquest = SITES[name].get("conquest") or {}
    reward = list(conquest.get("reward", []))
    if "ruins_token" in reward:
        token = RUINS_TOKENS[ruins] if ruins else None
        reward.remove("ruins_token")
        if token and token["kind"] == "enemies":
            reward += token["reward"]
    return reward


def entry_enemies(name: str, ruins: str | None = None) -> list[str]:
    """Enemy colours drawn when the site is entered as an action ([] if none: inhabited, mine, ...)."""
    entry = SITES[name].get("on_entry") or {}
    if entry.get("enemies_from_token"):
        token = RUINS_TOKENS[ruins] if ruins else None
        return list(token["enemies"]) if token and token["kind"] == "enemies" else []
    return list(entry.get("enemies", []))


def interactions(name: str, city_colour: str | None = None) -> list[dict[str, Any]]:
    """What can be bought at an inhabited site (a city: the options common to all cities plus its colour's)."""
    found = SITES[name].get("interactions") or []
    if isinstance(found, dict):  # a city: {"all": [...], colour: [...]}
        return list(found.get("all", [])) + list(found.get(city_colour or "", []))
    return list(found)


def rampaging_reputation(colour: str) -> int:
    """Reputation gained for defeating a rampaging enemy of this colour (orcs 1, draconum 2)."""
    return RAMPAGING[colour]["reputation"]
