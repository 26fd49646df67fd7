"""Actions at a site or against enemies on the map, and what a won fight gives the site (rules: "Adventure Sites",
"Conquering Sites", "Rampaging Enemies"): entering an adventure site (or paying an altar), challenging rampaging
enemies, burning a monastery, plundering a village; starting the combat and, when it ends, the site's outcome
(shield, reward at the end of the turn, the keep changing hands).

turn.py offers the picks; movement.py starts an assault when a move enters a fortified site. The combat itself is
combat.py's (``begin_combat`` calls ``combat.start``; ``after_combat`` reads ``turn["combat_result"]``).
"""

from __future__ import annotations

from ..base import Event
from . import combat, hexmap, interaction, mana
from . import enemies as enemy_data
from . import sites as site_facts
from .hero import change_reputation, draw

ADVENTURE = ("dungeon", "tomb", "monster_den", "spawning_grounds", "ancient_ruins")
REENTERABLE = ("dungeon", "tomb")  # a fresh enemy every visit; the others are empty once conquered


# ---------------------------------------------------------------- actions that start a combat

def begin_combat(state, seat: int, tokens: list, context: dict, events: list) -> None:
    turn = state["turn"]
    turn["acted"] = True
    turn["action"] = context["kind"]
    turn["pending"] = None
    combat.start(state, seat, tokens, context, events)
    if state.get("combat") is None and turn.get("combat_result"):
        after_combat(state, seat, events)


def enter_site(state, seat: int, events: list) -> None:
    """"Enter an Adventure Site (like Ancient Ruins or a Dungeon) as an action"."""
    pos, cell = interaction.site_here(state, seat)
    site = cell["site"]
    ruins_id = (cell.get("ruins") or {}).get("id")
    if site == "ancient_ruins":
        events += hexmap.reveal_ruins(state["map"], pos)
        token = site_facts.ruins_token(ruins_id)
        if token["kind"] == "altar":
            state["turn"]["acted"] = True
            state["turn"]["action"] = "altar"
            state["turn"]["pending"] = None
            _altar(state, seat, pos, cell, token, events)
            return
    colours = site_facts.entry_enemies(site, ruins_id)
    if site in REENTERABLE:
        tokens = []  # "fresh token each entry"
    else:
        tokens = [dict(t, hex=pos) for t in cell.get("enemies", [])]
    for colour in colours[len(tokens):]:
        t = enemy_data.draw(state, colour)
        if t is not None:
            tokens.append(t)
    begin_combat(state, seat, tokens, {"kind": "site", "hex": pos, "site": site, "fortified": 0,
                                       "return_to": None}, events)


def _altar(state, seat, pos, cell, token, events):
    """An altar ruins token: pay the mana it shows for its Fame (taken automatically if affordable)."""
    needs = [c for c, n in token.get("pay_mana", {}).items() for _ in range(n)]
    combos = mana.payments(state, seat, needs)
    if not combos:
        events.append(Event(f"Seat {seat + 1} cannot pay the altar's mana.", None, {"seat": seat}))
        return
    for src in combos[0]:
        mana.pay(state, seat, src)
    state["seats"][seat]["fame"] += token.get("fame", 0)
    _conquer(state, seat, pos, cell)
    hexmap.discard_ruins(state["map"], pos)
    events.append(Event(f"Seat {seat + 1} pays the altar and gains {token.get('fame', 0)} Fame.", None,
                        {"seat": seat}))


def challenge(state, seat: int, where: str, events: list) -> None:
    cell = state["map"]["hexes"][where]
    tokens = [dict(t, hex=where) for t in cell["enemies"]]
    begin_combat(state, seat, tokens, {"kind": "challenge", "hex": where, "site": None, "fortified": 0,
                                       "return_to": None}, events)


def burn(state, seat: int, events: list) -> None:
    """"As an action, you can burn a Monastery (with a reputation penalty)": Reputation -3, fight a violet
    enemy (no units); victory destroys it and gives an Artifact at the end of the turn."""
    pos, cell = interaction.site_here(state, seat)
    facts = site_facts.site("monastery")["burn"]
    change_reputation(state, seat, facts["reputation"], events)
    tokens = [t for t in (enemy_data.draw(state, c) for c in facts["enemies"]) if t is not None]
    begin_combat(state, seat, tokens, {"kind": "burn", "hex": pos, "site": "monastery", "fortified": 0,
                                       "return_to": None}, events)


def _conquer(state, seat, pos, cell) -> None:
    cell["conquered"] = True
    if cell.get("owner") is None:
        cell["owner"] = seat
        state["seats"][seat]["shields"] = state["seats"][seat].get("shields", 0) + 1


def after_combat(state, seat: int, events: list) -> None:
    """The outcome for the site ("Mark with a shield. Claim indicated reward at turn end")."""
    turn = state["turn"]
    result = turn["combat_result"]
    turn["combat_result"] = None
    turn["last_combat"] = result
    ctx = result["context"]
    if not result["victory"] or ctx.get("kind") not in ("site", "burn"):
        return
    pos = ctx["hex"]
    cell = state["map"]["hexes"][pos]
    site = ctx.get("site")
    if ctx["kind"] == "burn":
        cell["burned"] = True
        _conquer(state, seat, pos, cell)
        turn["rewards"] += list(site_facts.site("monastery")["burn"]["reward"])
        return
    if ctx.get("opponents_keep"):  # the keep changes hands: the owner's shield is replaced (no reward)
        old = state["seats"][cell["owner"]]
        old["shields"] = max(0, old.get("shields", 0) - 1)
        cell["owner"] = None
        _conquer(state, seat, pos, cell)
        events.append(Event(f"Seat {seat + 1} takes the keep.", None, {"seat": seat, "hex": pos}))
        return
    first = not cell.get("conquered")
    ruins_id = (cell.get("ruins") or {}).get("id")
    _conquer(state, seat, pos, cell)
    if first or site not in REENTERABLE:
        turn["rewards"] += site_facts.conquest_reward(site, ruins_id)
    if site == "ancient_ruins":
        hexmap.discard_ruins(state["map"], pos)


# ---------------------------------------------------------------- what may be done where the hero stands

def enterable_site(state, seat: int) -> str | None:
    _, cell = interaction.site_here(state, seat)
    if not cell or cell.get("site") not in ADVENTURE:
        return None
    site = cell["site"]
    if cell.get("conquered") and site not in REENTERABLE:
        return None
    if site == "ancient_ruins" and not cell.get("ruins"):
        return None
    return site


def plunder_effect() -> dict | None:
    """The village's plunder interaction (sites.json): its effect, or None if the data lists none."""
    for i in site_facts.site("village").get("interactions", []):
        if i.get("type") == "plunder":
            return i.get("effect")
    return None


def can_plunder(state, seat: int) -> bool:
    """Village: "plunder" is played "before your turn" (the rulebook's label; the data: outside your own
    turn, at most once between two of your turns): here at the very start of one's own turn, before anything
    is done, once."""
    turn = state["turn"]
    if turn["started"] or turn.get("plundered") or plunder_effect() is None:
        return False
    if not state["seats"][seat]["deck"]:
        return False  # nothing to draw: only the Reputation loss (effects of no use are not offered)
    _, cell = interaction.site_here(state, seat)
    return bool(cell and cell.get("site") == "village")


def plunder(state, seat: int, events: list) -> None:
    effect = plunder_effect()
    state["turn"]["plundered"] = True
    events.append(Event(f"Seat {seat + 1} plunders the village.", None, {"seat": seat, "kind": "plunder"}))
    change_reputation(state, seat, effect.get("reputation", -1), events)
    draw(state, seat, effect.get("draw_cards", 2), events)


def can_burn(state, seat: int) -> bool:
    _, cell = interaction.site_here(state, seat)
    return bool(cell and cell.get("site") == "monastery" and not cell.get("burned"))
