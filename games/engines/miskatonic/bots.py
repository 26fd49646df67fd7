"""A greedy Miskatonic bot; it is also the deadline default, so it is deterministic and always legal.

It reads only what its seat's view shows (its own hand, the shelves, every House's public piles and Sanity, the
Class in progress) -- straight from the state for speed, never a deck order or another hand.
"""

from __future__ import annotations

from ..base import Engine, Prompt, State
from ..bots import Bot
from . import classroom
from .cards import CARDS

TRANSFER_VALUE = 2.3
SUBSTITUTE_HARM = 2.5


def student_value(cid: str) -> float:
    c = CARDS[cid]
    v = 1.5 * c.girl_power + 1.2 * c.resolve + 0.8 * c.friendship + 0.5 * c.nightmare
    for eff, n in c.groups.get("bff", ()):
        v += {"gp": 1.0, "resolve": 0.9, "sanity": 1.0}[eff] * n
    for eff, n in c.groups.get("preclass", ()):
        v += 0.8 * n if eff == "sanity" else 1.5
    for eff, n in c.groups.get("locker", ()):
        v += 2.0 * n
    if c.has("friendly"):
        v += 0.5
    return v


def faculty_harm(cid: str) -> float:
    c = CARDS[cid]
    v = 1.5 * c.damage + 0.5 * c.health - 0.3 * c.nightmare
    for eff, n in c.groups.get("survive", ()):
        v += 1.5 * n
    if c.has("aggressive"):
        v += 0.5
    if c.has("expel"):
        v += 1.0
    return v


def prevented(subset: list[str]) -> tuple:
    """Damage (and Survive losses) that defeating the subset prevents, then the most Faculty."""
    return (sum(CARDS[f].damage + sum(n for _, n in CARDS[f].groups.get("survive", ())) for f in subset),
            len(subset))


class GreedyBot(Bot):
    """Deterministic: the same state always gives the same pick."""

    def choose(self, engine: Engine, state: State, seat: int, prompt: Prompt | None = None) -> str:
        p = prompt or engine.prompt(state, seat)
        ids = [o.id for o in p.options]
        d = state["dec"]
        kind = d["kind"]
        if kind == "produce":
            return self._produce(state, seat, d["card"])
        if kind in ("student", "faculty"):
            buys = [i for i in ids if i.startswith("buy:")]
            rest = [i for i in ids if not i.startswith("buy:")][0]
            if not buys:
                return rest
            score = student_value if kind == "student" else faculty_harm
            floor = TRANSFER_VALUE if kind == "student" else SUBSTITUTE_HARM
            best = max(buys, key=lambda i: (score(i[4:]), i))
            return best if score(best[4:]) > floor else rest
        if kind == "preclass":
            me = state["seats"][seat]
            for i in ids:
                if i.startswith("use:") and me["sanity"] < 20:
                    return i
            dismiss = [i for i in ids if i.startswith("dismiss:")]
            if dismiss:
                return max(dismiss, key=lambda i: (faculty_harm(i.split(":")[2]), i))
            return "done"
        if kind == "pet":
            targets = [int(i[4:]) for i in ids]
            others = [t for t in targets if t != seat] or targets
            return f"pet:{min(others, key=lambda t: (state['seats'][t]['sanity'], t))}"
        # gp: give Girl Power to the Faculty that prevent the most Damage
        best = classroom.best_defeats(classroom.standing_faculty(state), state["cls"]["left"], prevented)
        return f"defeat:{best[0]}" if best else "done"

    def _produce(self, state: State, seat: int, card: str) -> str:
        """Produce what buys more: the best Student (Friendship) or the most harmful Faculty (Nightmare)."""
        hand = state["seats"][seat]["hand"]
        f = n = 0
        for cid in hand:
            c = CARDS[cid]
            if cid == card:
                continue
            if c.nightmare and c.friendship:
                if state["prod"].get(cid) == "nightmare":
                    n += c.nightmare
                else:
                    f += c.friendship
            else:
                f += c.friendship
                n += c.nightmare
        c = CARDS[card]
        return max(("friendship", "nightmare"),
                   key=lambda k: self._worth(state, f + (c.friendship if k == "friendship" else 0),
                                             n + (c.nightmare if k == "nightmare" else 0)))

    @staticmethod
    def _worth(state: State, f: int, n: int) -> float:
        best = 0.0
        for which, score, floor in (("student", student_value, TRANSFER_VALUE),
                                    ("faculty", faculty_harm, SUBSTITUTE_HARM)):
            vals = [score(c) - floor for c in state["store"][which]["shelf"]
                    if c and CARDS[c].cost_friendship <= f and CARDS[c].cost_nightmare <= n]
            best += max(vals, default=0.0)
        return best
