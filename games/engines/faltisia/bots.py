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


def effect_value(effect: str) -> float:
    """A rough MP worth of a simple effect string (Maid Abilities, Big Ben bonuses)."""
    v = 0.0
    for part in filter(None, effect.split(";")):
        bits = part.split(":")
        n = int(bits[-1]) if bits[-1].isdigit() else 0
        if bits[0] == "mp":
            v += n
        elif bits[0] == "sterlings":
            v += n / 3
        elif bits[0] == "tokens":
            v += n / (2.5 if bits[1] == "rainbow" else 3)
        elif bits[0] == "attr":
            v += 1.5 * n
    return v


# Battle for London: what a Big Ben bonus is worth beside the set-aside Maid Ability (valued from its card).
BIG_BEN_VALUE = {"attributes": 6.0}
PEACE_VALUE = 4.5  # a Peacekeeping move beats playing a card worth less than this


def peace_succeeds(me: dict, v: dict) -> bool:
    """Will the next Peacekeeping move get through (requirement with this Round's Paladin, or mercenaries)?"""
    lon = me.get("london")
    if not lon or lon["route"] is None or lon["position"] >= 5:
        return False
    move = lon["position"] + 1
    if move < 3:
        return True
    route = next(r for r in v["london"]["routes"] if r["route"] == lon["route"])
    ctl = route["control_points"][move - 3]
    tile = v["london"]["current_paladin"]
    boost, discount = 0, 0
    for part in (tile["effect"].split(";") if tile else ()):
        bits = part.split(":")
        if bits[0] == "boost" and bits[1] in ("all", ctl["requirement"]["attribute"]):
            boost += int(bits[2])
        elif bits[0] == "discount":
            discount += int(bits[1])
    if me["attributes"][ctl["requirement"]["attribute"]] + boost >= ctl["requirement"]["at_least"]:
        return True
    return me["sterlings"] >= max(0, ctl["price"] - discount)


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
            if me.get("london", {}).get("attendance_award"):
                return "attend"  # skipping would cost the 7 MP award: train and keep the peace by face-down cards
            if me["attributes"][ATTR[COL.index(v["lecture"])]] >= 15 or self._license_by_training(me):
                return "skip"
            return "attend"
        v = engine.view(state, seat)
        me = v["seats"][seat]
        you = v["you"]
        if head in ("ability", "route", "bb", "bbup"):
            return self._london(head, ids, me, you, v, seat)
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
            if self._peace_first(me, v, playable, want_types):
                playable = []  # play the least useful card face down and keep the peace with it
            if playable and not self._license_by_training(me):
                best = max(playable, key=lambda c: (card_value(c, me, want_types), c["number"]))
                return "play:" + best["number"]
            worst = min(hand, key=lambda c: (card_value(c, me, want_types) + (5 if c["playable"] else 0),
                                             c["number"]))
            return "play:" + worst["number"]
        if first == "up" or first == "down":
            card = next((c for c in you["hand"] if c["number"] == you["decision"]["card"]), None)
            if card is not None and self._peace_first(me, v, [card], want_types):
                return "down"
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

    def _peace_first(self, me: dict, v: dict, playable: list, want_types: set) -> bool:
        """Battle for London: a successful Peacekeeping move is worth more than any of these cards."""
        if not peace_succeeds(me, v):
            return False
        return all(card_value(c, me, want_types) < PEACE_VALUE for c in playable)

    def _london(self, head: str, ids: list[str], me: dict, you: dict, v: dict, seat: int) -> str:
        if head == "ability":  # keep the stronger card now; the other may come back at Big Ben
            offer = {c["number"]: c for c in you["ability_offer"]}
            return max(ids, key=lambda i: (effect_value(offer[i[8:]]["effect"]), i))
        if head == "route":  # the route whose Control Point requirements are nearest to this student's scores
            attrs = me["attributes"]
            routes = {r["route"]: r for r in v["london"]["routes"]}

            def gap(oid):
                return sum(max(0, c["requirement"]["at_least"] - attrs[c["requirement"]["attribute"]])
                           for c in routes[oid[6:]]["control_points"])
            # Among equal gaps, seats start looking at different routes (seat 0 at A, seat 1 at B, ...).
            return min(ids, key=lambda i: (gap(i), (ord(i[6]) - ord("A") - seat) % 6))
        if head == "bb":
            bonuses = {b["id"]: b for b in v["london"]["big_ben"]}
            effects = {"mp": "mp:8", "sterlings": "sterlings:20", "rainbow": "tokens:rainbow:12",
                       "tokens": "tokens:red:4;tokens:blue:4;tokens:yellow:4;tokens:green:4"}

            def worth(oid):
                b = oid[3:]
                if b == "ability":
                    aside = you.get("set_aside_ability")
                    return effect_value(aside["effect"]) if aside else 0.0
                return BIG_BEN_VALUE.get(b, effect_value(effects.get(b, "")))
            return max((i for i in ids if i[3:] in bonuses), key=lambda i: (worth(i), i))
        # bbup: the highest attribute below 15 (the attribute table rewards high scores most)
        attrs = me["attributes"]
        return max(ids, key=lambda i: (attrs[ATTR[COL.index(i[5:])]], i))

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
        if "peace" in ids and peace_succeeds(me, v):
            return "peace"
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
