"""The turn's pool: the Move, Influence, Healing, Attack and Block points played so far (README "Shared state"),
and the bonuses that ride on the next points added (Concentration / Will Focus, Banner of Glory, Ambush, Altem
Mages' attack modifier).
"""

from __future__ import annotations

from .card_text import BONUS_KINDS, COMBAT


def empty_pool() -> dict:
    return {"move": 0, "influence": 0, "heal": 0,
            "attack": {"melee": {}, "ranged": {}, "siege": {}}, "block": {}}


def add_pool(turn, kind: str, n: int, elem: str = "physical") -> None:
    pool = turn["pool"]
    if turn.get("bonus") and kind in BONUS_KINDS:
        # Concentration / Will Focus: "get an additional 2 (3) Move, Influence, Block or Attack" -- once, on the
        # first Move/Influence/Attack/Block the free powered card gives (no Action card gives two of them at once)
        n += turn.pop("bonus")
    glory = turn.get("unit_bonus")
    if glory and kind in COMBAT:  # Banner of Glory: "+1 to its attacks and blocks" (each of them)
        n += glory["n"]
        glory["struck"] = True
    if kind in ("move", "influence", "heal"):
        pool[kind] += n
    elif kind == "block":
        pool["block"][elem] = pool["block"].get(elem, 0) + n
    else:
        modifier = turn.get("attack_modifier")
        if modifier == "cold_fire":
            elem = "cold_fire"
        elif modifier == "siege":
            kind = "siege"
        bucket = pool["attack"]["melee" if kind == "attack" else kind]
        bucket[elem] = bucket.get(elem, 0) + n


def ambush_bonus(turn, kind: str) -> int:
    """Ambush: "first Attack card this turn gets +1 or first Block card +2 (whichever comes first)"."""
    bonus = turn.get("ambush")
    if not bonus or not turn.get("from_card"):
        return 0
    turn["ambush"] = None
    return bonus[1] if kind == "block" else bonus[0]
