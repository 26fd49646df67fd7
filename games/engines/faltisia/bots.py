"""A greedy Faltisia bot that plays sensibly using only the protocol (view + prompt option ids)."""

from __future__ import annotations

from ..base import Engine, Prompt, State
from ..bots import Bot

COL = ("red", "blue", "yellow", "green")
ATTR = ("strength", "intelligence", "beauty", "purity")
TYPE_VALUE = {"assignment": 0.5, "special": 3.0, "organization": 2.0, "focus": 2.0, "extracurricular": 1.8,
              "remedial": 1.6, "ability": 6.0}


def _cost_size(card: dict) -> int:
    n = 0
    for part in filter(None, card["cost"].split(";")):
        n += int(part.split(":")[1])
    return n


def req_difficulty(cond: str) -> float:
    """A rough cost of meeting a graduation requirement (condition vocabulary of cards.py)."""
    total = 0.0
    for part in cond.split("&"):
        if part == "licensed":
            total += 0.5
            continue
        key, _, n = part.partition(">=")
        n = int(n) if n.isdigit() else 0
        if key.startswith("attr:"):
            total += (n - 2) / 3
        elif key == "attr_total":
            total += (n - 8) / 8
        elif key == "attr_min":
            total += (n - 2) / 2
        elif key == "attr_max":
            total += (n - 2) / 3.5
        elif key.startswith("face_up:"):
            total += 0.8 * n
        elif key == "items":
            total += n
        else:
            total += n / 5
    return total


def wanted(you: dict) -> tuple[set[str], set[str]]:
    """Card types and attributes that the kept requirements ask for."""
    types, attrs = set(), set()
    for r in you["requirements"]:
        for part in r["condition"].split("&"):
            if part.startswith("face_up:"):
                types.add(part[8:].split(">=")[0])
            elif part.startswith("attr:"):
                attrs.add(part[5:].split(">=")[0])
    return types, attrs


def card_value(card: dict, me: dict, want_types: set[str] = frozenset()) -> float:
    """A rough worth of playing the card face up."""
    v = card["mp"] + TYPE_VALUE.get(card["type"], 1.0) + (1.5 if card["type"] in want_types else 0.0)
    if card["type"] == "extracurricular":
        same = sum(1 for c in me["face_up"] if c.get("club") == card.get("club"))
        v += 1.5 * same
    return v - 0.25 * _cost_size(card)


class GreedyBot(Bot):
    """Deterministic: the same state always gives the same pick (it is the deadline default)."""

    def choose(self, engine: Engine, state: State, seat: int, prompt: Prompt | None = None) -> str:
        p = prompt or engine.prompt(state, seat)
        ids = [o.id for o in p.options if not o.id.startswith("med:")]
        first = ids[0]
        head = first.split(":")[0]
        if head in ("char", "medto", "rb"):
            return first
        if head in ("str", "int", "bea"):
            return f"{head}:2" if f"{head}:2" in ids else first
        if first == "attend":
            v = engine.view(state, seat)
            me = v["seats"][seat]
            if me["attributes"][ATTR[COL.index(v["lecture"])]] >= 15 or self._license_by_training(me):
                return "skip"
            return "attend"
        v = engine.view(state, seat)
        me = v["seats"][seat]
        you = v["you"]
        if head == "discard":
            offer = sorted(you["requirement_offer"],
                           key=lambda c: (c["mp"] - 1.5 * req_difficulty(c["condition"]), c["number"]))
            return "discard:" + offer[0]["number"]
        want_types, want_attrs = wanted(you)
        if head == "draft":
            best = max(you["draft_pack"], key=lambda c: (card_value(c, me, want_types), c["number"]))
            return "draft:" + best["number"]
        if head == "play":
            hand = you["hand"]
            playable = [c for c in hand if c["playable"]]
            if playable and not self._license_by_training(me):
                best = max(playable, key=lambda c: (card_value(c, me, want_types), c["number"]))
                return "play:" + best["number"]
            worst = min(hand, key=lambda c: (card_value(c, me, want_types) + (5 if c["playable"] else 0),
                                             c["number"]))
            return "play:" + worst["number"]
        if first == "up" or first == "down":
            if "up" in ids and not self._license_by_training(me):
                return "up"
            return "down"
        if head == "col":
            attrs = me["attributes"]
            return "col:" + min(COL, key=lambda c: (attrs[ATTR[COL.index(c)]], c))
        if "done" in ids:  # Maid Training
            if "license" in ids:
                return "license"
            raises = [i for i in ids if i.startswith("raise:")]
            if raises:
                attrs = me["attributes"]
                if me["licensed"] and want_attrs:
                    goals = [r for r in raises if ATTR[COL.index(r[6:])] in want_attrs]
                    if goals:
                        return max(goals, key=lambda r: (attrs[ATTR[COL.index(r[6:])]], r))
                return min(raises, key=lambda r: (attrs[ATTR[COL.index(r[6:])]], r))
            return "done"
        prefix = "fb:" if first.startswith("fb:") else ""
        return prefix + self._offcampus([i[len(prefix):] for i in ids], me, v)

    def _license_by_training(self, me: dict) -> bool:
        if me["licensed"]:
            return False
        a = [me["attributes"][x] for x in ATTR]
        tok = me["tokens"]
        w = tok["rainbow"]
        t = [tok[c] for c in COL]
        # Greedy look: raise the lowest attributes towards 7 while tokens last.
        for _ in range(8):
            if min(a) >= 7 or max(a) >= 12:
                return True
            i = a.index(min(a))
            use = max(0, 3 - t[i])
            if use > w:
                return False
            w -= use
            t[i] -= 3 - use
            a[i] += 1
        return min(a) >= 7 or max(a) >= 12

    def _offcampus(self, ids: list[str], me: dict, v: dict) -> str:
        if "train" in ids:
            tok = me["tokens"]
            if self._license_by_training(me) or any(tok[c] + tok["rainbow"] >= 3 for c in COL):
                return "train"
        shops = [i for i in ids if i.startswith("shop:")]
        if shops:
            store = {c["number"]: c for c in v["store"]}
            best = max(shops, key=lambda s: (store[s[5:]]["mp"] + (1 if store[s[5:]]["effect"] else 0), s))
            if store[best[5:]]["mp"] + (1 if store[best[5:]]["effect"] else 0) >= 2:
                return best
        if me["sterlings"] < 8 and "job" in ids:
            return "job"
        studies = [i for i in ids if i.startswith("study")]
        if studies:
            if len(studies) == 1:
                return studies[0]
            attrs = me["attributes"]
            return min(studies, key=lambda s: (attrs[ATTR[COL.index(s[6:])]], s))
        return ids[0]
