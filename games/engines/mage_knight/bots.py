"""GreedyBot: explores, fights enemies it can beat, recruits. Deterministic (the same state and the same earlier picks
give the same pick) and never loops: after MAX_PICKS picks in one turn it takes the turn's safe default.

It reads only what its seat may see: its own hand, the public map (face-down enemies by colour only), the offers.
"""

from __future__ import annotations

import re

from ..base import Engine, Prompt, State
from ..bots import Bot
from . import cards, enemies, hexgrid, hexmap, units

MAX_PICKS = 60
# A face-down token's expected armor by colour (the guess a player makes from the token's back).
ARMOR_GUESS = {"green": 4, "gray": 5, "brown": 5, "violet": 6, "white": 7, "red": 7}
SIDEWAYS = re.compile(r"t-side:(\w+)")
NUMBER = re.compile(r"(\d+)")


def _armor(token: dict) -> int:
    return enemies.enemy(token["id"]).armor if token.get("face_up") else ARMOR_GUESS.get(token["colour"], 6)


def _need(token: dict) -> int:
    """The attack beating a token takes, as the bot reckons it: its armor, doubled if it resists physical attacks
    (the bot's attacks are mostly physical); a face-down token's by its colour, with a margin."""
    if not token.get("face_up"):
        return ARMOR_GUESS.get(token["colour"], 6) + 2
    e = enemies.enemy(token["id"])
    return e.armor * (2 if "physical" in e.resistances else 1)


def _power(hand: list[str]) -> int:
    """The hand's combat worth: 2 for a card whose basic effect attacks or blocks, 1 sideways, 0 for a Wound."""
    total = 0
    for c in hand:
        card = cards.CARDS.get(c)
        if card is None or card.kind == "wound":
            continue
        text = card.text.lower() if card.text else ""
        total += 2 if ("attack" in text or "block" in text) else 1
    return total


def _harmless(cell: dict) -> bool:
    """A hex the bot walks into without meaning a fight: no enemies, no unconquered fortified site."""
    return not cell.get("enemies") and not (cell.get("site") in ("keep", "mage_tower", "city")
                                            and not cell.get("conquered"))


class GreedyBot(Bot):
    """Deterministic from the state alone: the server may ask a fresh instance in another process for each pick,
    so nothing that steers a turn is kept between calls (the goal cache is only a speed-up)."""

    def __init__(self) -> None:
        self._plan: str | None = None  # what the card being played is for: move | attack | block | influence
        self._goal_cache: tuple = (None, None)

    def choose(self, engine: Engine, state: State, seat: int, prompt: Prompt | None = None) -> str:
        p = prompt or engine.prompt(state, seat)
        ids = [o.id for o in p.options]
        labels = {o.id: o.label for o in p.options}
        d = state["dec"]
        if d["kind"] == "tactic":
            return "tactic:great_start" if "tactic:great_start" in ids else ids[0]
        if d["kind"] != "turn":
            return engine.default_option(state, seat)
        self._picks = state["n"] - state["turn"].get("first_pick", state["n"]) + 1
        if self._picks > MAX_PICKS:
            return engine.default_option(state, seat)
        self._plan = None
        pick = self._turn(state, seat, ids, labels)
        return pick if pick in ids else engine.default_option(state, seat)

    # ------------------------------------------------------------------------------------------- a turn

    def _turn(self, state, seat, ids, labels) -> str:
        t = state["turn"]
        s = state["seats"][seat]
        pending = t.get("pending")
        if pending is not None:
            self._plan = self._plan_for(state, seat)
            return self._pending(pending["kind"], ids, labels)
        if state.get("combat") is not None:
            return self._combat(state, seat, ids)
        wounds = s["hand"].count("wound")
        if "t-rest" in ids and (wounds >= 2 or wounds == len(s["hand"])):
            return "t-rest"
        if "t-tactic:night" in ids:  # Long Night: 3 cards back as the deck beat announcing the round's end
            return "t-tactic:night"
        if "t-announce" in ids:
            return "t-announce"
        if "t-interact" in ids and self._recruitable(state, seat):
            cost = min(units.UNITS[u].cost for u in self._recruitable(state, seat))
            if t["pool"]["influence"] >= cost:
                return "t-interact"
            if t["pool"]["influence"] + len(s["hand"]) - wounds >= cost:
                play = self._play_for("influence", state, seat, ids)
                if play:
                    return play
        pos = s["pos"]
        m = state["map"]
        power = sum(1 for c in s["hand"] if c != "wound") + 1
        if "t-enter" in ids:
            cell = m["hexes"][pos]
            guard = sum(_armor(tk) for tk in cell.get("enemies", ()))
            if guard and guard + 1 <= power or not cell.get("enemies") and cell.get("site") == "ancient_ruins":
                self._plan = "attack"
                return "t-enter"
        for o in ids:
            if o.startswith("t-challenge:"):
                cell = m["hexes"][o.split(":", 1)[1]]
                if sum(_armor(tk) for tk in cell.get("enemies", ())) + 2 <= power:
                    self._plan = "attack"
                    return o
        explore = [o for o in ids if o.startswith("t-explore:")]
        if explore:
            return explore[0]
        if not t["acted"] and pos and hexmap.explore_options(m, pos) and t["pool"]["move"] < hexmap.EXPLORE_COST:
            play = self._play_for("move", state, seat, ids)
            if play:
                return play
        goal = self._goal(state, seat)
        moves = [o for o in ids if o.startswith("t-move:") and o.split(":", 1)[1] not in t["moved_from"]
                 and _harmless(m["hexes"][o.split(":", 1)[1]])]
        if moves and goal is not None:
            here = hexgrid.distance(pos, goal)
            best = min(moves, key=lambda o: (hexgrid.distance(o.split(":", 1)[1], goal), o))
            if hexgrid.distance(best.split(":", 1)[1], goal) <= here:
                return best
        if not t["acted"] and goal is not None and self._picks < MAX_PICKS // 2:
            play = self._play_for("move", state, seat, ids)
            if play:
                return play
        return "t-end" if "t-end" in ids else ids[0]

    def _plan_for(self, state, seat) -> str:
        """What a card being played now is for, read from the state (the choice that began its play is not
        remembered): the combat's phase, influence for a unit to recruit here, else movement."""
        c = state.get("combat")
        if c is not None:
            return "block" if c["phase"] == "block" else "attack"
        if self._recruitable(state, seat):
            return "influence"
        return "move"

    def _goal(self, state, seat) -> str | None:
        """The nearest space worth going to: one to explore from while tiles are left, else an unowned adventure
        site, or a village while a Command token is free."""
        s = state["seats"][seat]
        m = state["map"]
        pos = s["pos"]
        if pos is None:
            return None
        key = (id(m), len(m["tiles"]), pos, len(s["units"]), s.get("shields", 0), state["n"] // 50)
        if self._goal_cache[0] == key:  # the map changes only when a tile or a shield is placed
            return self._goal_cache[1]
        goal = self._find_goal(state, s, m, pos)
        self._goal_cache = (key, goal)
        return goal

    def _find_goal(self, state, s, m, pos) -> str | None:
        goals = []
        if hexmap.tiles_left(m):  # the spaces from which a legal tile position can be explored
            goals = [n for c in hexmap.legal_positions(m) for h in hexgrid.tile_hexes(c)
                     for n in hexgrid.neighbours(h) if n in m["hexes"] and _harmless(m["hexes"][n])]
        if not goals:
            wanted = {"dungeon", "monster_den", "ancient_ruins", "tomb"}
            if len(s["units"]) < s["command"]:
                wanted.add("village")
            goals = [k for k, h in m["hexes"].items() if h.get("site") in wanted and h.get("owner") is None
                     and k != pos]
        if not goals:
            return None
        return min(goals, key=lambda k: (hexgrid.distance(pos, k), k))

    def _recruitable(self, state, seat) -> list[str]:
        s = state["seats"][seat]
        if len(s["units"]) >= s["command"]:
            return []
        site = state["map"]["hexes"][s["pos"]].get("site")
        return [u for u in state["offers"]["units"] if u in units.UNITS and site in units.UNITS[u].recruit_sites]

    def _play_for(self, stat: str, state, seat, ids) -> str | None:
        """Play a card from the hand toward ``stat`` (its mode is picked in _pending)."""
        plays = [o for o in ids if o.startswith("t-play:")]
        if not plays:
            return None
        self._plan = stat
        return plays[0]

    def _pending(self, kind, ids, labels) -> str:
        plan = self._plan or "move"
        if kind == "card":
            word = {"attack": "Attack", "block": "Block", "move": "Move", "influence": "Influence"}[plan]
            best = None
            for o in ids:
                lab = labels[o]
                if word.lower() in lab.lower() and o.startswith(("t-basic", "t-side")) and "|" not in lab:
                    n = max((int(x) for x in NUMBER.findall(lab)), default=1)
                    if best is None or n > best[0]:
                        best = (n, o)
            if best:
                return best[1]
            side = f"t-side:{plan}"
            if side in ids:
                return side
            # Never back out of a card once its play has begun: every play then spends a card, so a turn moves on
            # (backing out and choosing the same card again was a loop).
            return next((o for o in ids if o.startswith("t-side:")), next((o for o in ids if o != "t-back"), ids[0]))
        if kind in ("choose", "special"):
            word = plan.lower()
            for o in ids:
                if word in labels[o].lower():
                    return o
            return ids[0]
        if kind == "rest":
            for prefix in ("t-rw", "t-rd"):
                for o in ids:
                    if o.startswith(prefix):
                        return o
            return "t-rdone" if "t-rdone" in ids else ids[0]
        if kind == "interact":
            for prefix in ("i-r:", "i-h", "i-a:"):
                for o in ids:
                    if o.startswith(prefix):
                        return o
            return "t-back" if "t-back" in ids else ids[0]
        return ids[0]

    def _combat(self, state, seat, ids) -> str:
        c = state["combat"]
        phase = c["phase"]
        if phase in ("ranged", "attack"):
            if "c-a" in ids:
                return "c-a"
            if phase == "ranged":
                return "c-next"
            if not c["targets"]:
                targets = [o for o in ids if o.startswith("c-t")]
                if targets:
                    return targets[0]
            play = self._play_for("attack", state, seat, ids)
            return play or "c-next"
        if phase == "block":
            blocks = [o for o in ids if o.startswith("c-b")]
            if blocks:
                return blocks[0]
            waiting = [e for e in c["enemies"] if not (e["defeated"] or e["blocked"] or e["gone"])]
            alive = [e for e in c["enemies"] if not (e["defeated"] or e["gone"])]
            spare = _power(state["seats"][seat]["hand"]) - sum(_need({**e, "face_up": True}) for e in alive)
            # block only with what the attack will not need (a wound costs less than a lost fight)
            if waiting and spare >= 2 and self._picks < MAX_PICKS // 2:
                play = self._play_for("block", state, seat, ids)
                if play:
                    return play
            return "c-next"
        units_first = [o for o in ids if o.startswith("c-d")]
        return units_first[0] if units_first else "c-next"
