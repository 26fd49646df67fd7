"""Per-seat decisions: the options of each pick and what a pick does, as a small stage machine.

A seat with an open decision has ``seat["dec"] = {"st": stage, ...}``; each pick moves the stage on
and, once the decision is complete, stores ``seat["plan"]`` and clears ``dec``. Plans are executed
when the step resolves (flow.py), so nothing a seat picks is visible to others before then.

Option ids (documented for bots): char:<C000n>, discard:<B00nn>, str:/int:/bea:<n>, draft:<card>,
attend, skip, play:<card>, up, down, col:<colour>, rb:<n> (Rainbow tokens used), study, study:<colour>,
job, shop:<item>, train, raise:<colour>, license, done, fb:<off-campus id>, med:<colour> then medto:<colour>.
Battle for London: ability:<card> (setup, before discard:), peace (and fb:peace), route:<A-F>, bb:<bonus>,
bbup:<colour> (each point of the Big Ben "+4 attributes" bonus).
"""

from __future__ import annotations

from . import london
from .base_opts import opt
from .cards import ATTRS, CARDS, CHOICE, COLORS, COLOR_INDEX, RAINBOW, describe_condition
from .effects import ATTR_MAX, card_playable, check, license_ok

COL = COLORS[:4]
ATTR_KEYS = ("str", "int", "bea")
# Prebuilt options for the hot stages (Option objects are immutable and shared).
PLAY = {c: opt("play:" + c) for c in CARDS}
DRAFT = {c: opt("draft:" + c) for c in CARDS}
SHOP = {c: opt("shop:" + c) for c in CARDS}
FB_SHOP = {c: opt("fb:shop:" + c) for c in CARDS}
MED = [opt("med:" + c) for c in COLORS]
STUDY_LIC = {p: [opt(p + "study:" + c) for c in COL] for p in ("", "fb:")}
STUDY = {p: opt(p + "study") for p in ("", "fb:")}
JOB = {p: opt(p + "job") for p in ("", "fb:")}
TRAIN = {p: opt(p + "train") for p in ("", "fb:")}
PEACE = {p: opt(p + "peace") for p in ("", "fb:")}
RAISE = [opt("raise:" + c) for c in COL]
ATTEND_SKIP = [opt("attend"), opt("skip")]
UP, DOWN, LICENSE, DONE = opt("up"), opt("down"), opt("license"), opt("done")
LEC_TEXT = [f"Attend the {COLORS[i]} lecture (+1 {ATTRS[i].capitalize()}) or skip it for an off-campus action?"
            for i in range(4)]


def offcampus_options(state: dict, seat: dict, prefix: str = "", exclude: str | None = None) -> list:
    """The off-campus actions open to the seat now (Shopping only for affordable items)."""
    out = list(STUDY_LIC[prefix]) if seat["lic"] else [STUDY[prefix]]
    out.append(JOB[prefix])
    ster = seat["ster"]
    shop = FB_SHOP if prefix else SHOP
    for item in state["store"]:
        if item != exclude and CARDS[item].cost_s <= ster:
            out.append(shop[item])
    tok = seat["tok"]
    w = tok[RAINBOW]
    attr = seat["attr"]
    if (not seat["lic"] and license_ok(attr)) or any(tok[i] + w >= 3 and attr[i] < 15 for i in range(4)):
        out.append(TRAIN[prefix])
    if london.can_peacekeep(seat):  # Battle for London: the fifth off-campus action, licence and route needed
        out.append(PEACE[prefix])
    return out


def _why_not_face_up(seat: dict, card: str) -> str:
    """Why a card cannot be turned face up, in the player's words (a refusal the player can act on)."""
    c = CARDS[card]
    if c.cond and not check(seat, c.cond):
        return f"face up needs {describe_condition(c.cond)}"
    if seat["ster"] < c.cost_s:
        return f"face up costs {c.cost_s} Sterling{'s' if c.cost_s != 1 else ''}; you have {seat['ster']}"
    need = ", ".join(f"{n} {COLORS[i]}" for i, n in enumerate(c.cost_t) if n)
    have = ", ".join(f"{seat['tok'][i]} {COLORS[i]}" for i, n in enumerate(c.cost_t) if n)
    return f"face up needs {need}; you have {have} and {seat['tok'][RAINBOW]} rainbow"


def base_options(state: dict, seat: dict, dec: dict) -> tuple[str, list]:
    """Text and options of the stage, before the Meditation options are added."""
    st = dec["st"]
    if st == "lec":
        return LEC_TEXT[state["lecture"]], list(ATTEND_SKIP)
    if st == "play":
        return "Play an action card from your hand.", [PLAY[c] for c in seat["hand"]]
    if st == "face":
        card = dec["card"]
        if card_playable(seat, card):
            return (f"{CARDS[card].name}: turn it face up (resolve it) or keep it face down (off-campus action)?",
                    [UP, DOWN])
        return f"{CARDS[card].name} stays face down (off-campus action): {_why_not_face_up(seat, card)}.", [DOWN]
    if st == "oc":
        return "Choose your off-campus action.", offcampus_options(state, seat)
    if st == "fb":
        return ("If your item is sold before your turn, what do you do instead?",
                offcampus_options(state, seat, "fb:", dec["act"][1]))
    if st == "train":
        tok, att = dec["tok"], dec["att"]
        w = tok[RAINBOW]
        ops = [RAISE[i] for i in range(4) if tok[i] + w >= 3 and att[i] < 15]
        if not seat["lic"] and not dec["lic"] and license_ok(att):
            ops.append(LICENSE)
        ops.append(DONE)
        return "Maid Training: raise an attribute (3 tokens of its colour), apply for the licence, or finish.", ops
    if st == "rb":
        lo, hi = dec["rng"]
        return (f"Pay {dec['need']} {COLORS[dec['rc']]}: how many Rainbow tokens to use?",
                [opt(f"rb:{k}") for k in range(lo, hi + 1)])
    if st == "color":
        return "Choose the colour of the tokens you gain.", [opt("col:" + c) for c in COL]
    if st == "draft":
        if state.get("classmate") is not None:
            return (f"Pick {state['pick']} of 7: keep one of the two cards dealt; the other is discarded.",
                    [DRAFT[c] for c in seat["pack"]])
        return f"Draft pick {state['pick']} of 7: keep one card, pass the rest.", [DRAFT[c] for c in seat["pack"]]
    if st == "discard":
        offer = seat["bfl"]["offer"] if "bfl" in seat and "ability" not in dec else ()
        if offer:  # Battle for London: first the secret pick of one of the character's two Maid Abilities
            return ("Choose your Maid Ability card; the other is set aside, hidden, for Big Ben.",
                    [opt("ability:" + c) for c in offer])
        return "Graduation requirements: discard one, keep two.", [opt("discard:" + c) for c in seat["offer"]]
    if st == "route":
        return ("You have the licence: place your marker on the start of a free route.",
                [opt("route:" + r) for r in london.free_routes(state)])
    if st == "bigben":
        return "You recaptured Big Ben: choose a bonus no one has taken.", [
            opt("bb:" + b) for b in london.free_bonuses(state)]
    if st == "bbattr":
        left = london.BIG_BEN_RAISE - len(dec["raises"])
        return (f"Big Ben: raise an attribute by 1 ({left} of {london.BIG_BEN_RAISE} left).",
                [opt("bbup:" + COL[i]) for i in range(4) if dec["att"][i] < ATTR_MAX])
    if st == "a0":
        return "Starting Strength (attributes sum to 8, each 1-5).", [opt(f"str:{v}") for v in range(1, 6)]
    if st == "a1":
        s = dec["a"][0]
        return "Starting Intelligence.", [opt(f"int:{v}") for v in range(max(1, 8 - s - 10), min(5, 6 - s) + 1)]
    if st == "a2":
        s, i = dec["a"]
        rest = 8 - s - i
        return "Starting Beauty (Purity takes the rest).", [opt(f"bea:{v}") for v in range(1, 6) if 1 <= rest - v <= 5]
    if st == "char":
        return "Choose your character.", [opt("char:" + c) for c in state["chars_free"]]
    raise AssertionError(st)


def options(state: dict, seat: dict) -> tuple[str, list]:
    """Text and full option list of the seat's open decision (Meditation added at every point)."""
    dec = seat["dec"]
    if "med" in dec:
        src = dec["med"]
        return (f"Meditation: return 3 {COLORS[src]} tokens for one token of which colour?",
                [opt("medto:" + c) for i, c in enumerate(COL) if i != src])
    text, ops = base_options(state, seat, dec)
    # EN [C] Meditation "at any point": offered at every pick, the Rainbow-count pick of a payment included
    # (the payment then starts over, see _after_meditation).
    tok = dec["tok"] if "tok" in dec else seat["tok"]
    for i in range(5):
        if tok[i] >= 3:
            ops.append(MED[i])
    return text, ops


# ---- applying a pick (already validated against options) ----

def _finish(seat: dict, plan: dict) -> None:
    seat["plan"] = plan
    seat["dec"] = None


def _finish_act(seat: dict, dec: dict, act: list) -> None:
    """An off-campus action is fully chosen: store it as the primary or the fallback."""
    if dec.get("slot") == "fb":
        dec["fb"] = act
    else:
        dec["act"] = act
        if act[0] == "shop" and dec["ctx"] != "re":
            # Another player may buy it first: ask for a fallback in the same step.
            dec["st"] = "fb"
            return
    ctx = dec["ctx"]
    if ctx == "lec":
        _finish(seat, {"k": "skip", "act": dec["act"], "fb": dec.get("fb")})
    elif ctx == "down":
        _finish(seat, {"k": "down", "card": dec["card"], "act": dec["act"], "fb": dec.get("fb")})
    else:
        _finish(seat, {"k": "re", "act": dec["act"]})


def _offcampus_pick(seat: dict, dec: dict, pid: str) -> None:
    if pid == "study":
        _finish_act(seat, dec, ["study", -1])
    elif pid.startswith("study:"):
        _finish_act(seat, dec, ["study", COLOR_INDEX[pid[6:]]])
    elif pid == "job":
        _finish_act(seat, dec, ["job"])
    elif pid == "peace":
        _finish_act(seat, dec, ["peace"])
    elif pid.startswith("shop:"):
        _finish_act(seat, dec, ["shop", pid[5:]])
    else:  # train
        dec["tok"] = list(seat["tok"])
        dec["att"] = list(seat["attr"])
        dec["raises"] = []
        dec["lic"] = False
        dec["st"] = "train"


def _next_payment(seat: dict, dec: dict) -> None:
    """Advance the card-cost payment to the next colour where Rainbow use is a real choice."""
    tok, need, rbp = dec["tok"], dec["needv"], dec["rbp"]
    while dec["todo"]:
        c = dec["todo"][0]
        used = sum(rbp)
        w = tok[RAINBOW] - used
        later = sum(max(0, need[j] - tok[j]) for j in dec["todo"][1:])
        lo = max(0, need[c] - tok[c])
        hi = min(need[c], w - later)
        if lo >= hi:
            rbp[c] = lo
            dec["todo"].pop(0)
            continue
        dec["st"] = "rb"
        dec["rc"] = c
        dec["need"] = need[c]
        dec["rng"] = [lo, hi]
        dec["for"] = "cost"
        return
    _finish(seat, {"k": "up", "card": dec["card"], "rb": rbp, "col": dec.get("col")})


def _start_payment(seat: dict, dec: dict) -> None:
    need = CARDS[dec["card"]].cost_t
    dec["tok"] = list(seat["tok"])
    dec["needv"] = list(need)
    dec["rbp"] = [0, 0, 0, 0]
    dec["todo"] = [i for i in range(4) if need[i]]
    _next_payment(seat, dec)


def _raise(dec: dict, c: int, rb: int) -> None:
    tok = dec["tok"]
    tok[c] -= 3 - rb
    tok[RAINBOW] -= rb
    if dec["att"][c] < 15:
        dec["att"][c] += 1
    dec["raises"].append([c, rb])
    dec["st"] = "train"


def _after_meditation(seat: dict, dec: dict) -> None:
    """A Meditation in the middle of a payment: the half-chosen payment starts over with the new tokens.

    A card cost is asked again from its first colour (or, if the card can no longer be paid, the seat is back
    at the face-up/face-down choice); a Maid Training raise is withdrawn and the raise list offered again.
    """
    if dec["st"] != "rb":
        return
    if dec["for"] == "raise":
        dec["st"] = "train"
    elif card_playable(seat, dec["card"]):
        _start_payment(seat, dec)
    else:
        dec.pop("tok")
        dec["st"] = "face"


def _after_big_ben_raise(seat: dict, dec: dict) -> None:
    """The +4 is chosen a point at a time; it ends after four points or when every attribute is at 15."""
    if len(dec["raises"]) >= london.BIG_BEN_RAISE or all(v >= ATTR_MAX for v in dec["att"]):
        _finish(seat, {"bonus": dec["bonus"], "raises": dec["raises"]})


def apply_pick(state: dict, seat: dict, pid: str) -> None:
    """Apply a validated pick to the seat's open decision."""
    dec = seat["dec"]
    if pid.startswith("med:"):
        dec["med"] = COLOR_INDEX[pid[4:]]
        return
    if pid.startswith("medto:"):
        src, dst = dec.pop("med"), COLOR_INDEX[pid[6:]]
        for tok in ((seat["tok"], dec["tok"]) if "tok" in dec else (seat["tok"],)):
            tok[src] -= 3
            tok[dst] += 1
        _after_meditation(seat, dec)
        return
    st = dec["st"]
    if st == "lec":
        if pid == "attend":
            _finish(seat, {"k": "attend"})
        else:
            dec["st"] = "oc"
            dec["ctx"] = "lec"
    elif st == "play":
        dec["card"] = pid[5:]
        dec["st"] = "face"
    elif st == "face":
        if pid == "up":
            if dec["card"] in CHOICE:
                dec["st"] = "color"
            else:
                _start_payment(seat, dec)
        else:
            dec["st"] = "oc"
            dec["ctx"] = "down"
    elif st == "color":
        dec["col"] = COLOR_INDEX[pid[4:]]
        _start_payment(seat, dec)
    elif st == "oc":
        _offcampus_pick(seat, dec, pid)
    elif st == "fb":
        dec["slot"] = "fb"
        _offcampus_pick(seat, dec, pid[3:])
    elif st == "train":
        if pid == "done":
            dec.pop("tok")
            dec.pop("att")
            _finish_act(seat, dec, ["train", dec.pop("raises"), dec.pop("lic")])
        elif pid == "license":
            dec["lic"] = True
        else:
            c = COLOR_INDEX[pid[6:]]
            tok = dec["tok"]
            lo, hi = max(0, 3 - tok[c]), min(3, tok[RAINBOW])
            if lo >= hi:
                _raise(dec, c, lo)
            else:
                dec.update(st="rb", rc=c, need=3, rng=[lo, hi], **{"for": "raise"})
    elif st == "rb":
        k = int(pid[3:])
        if dec["for"] == "raise":
            _raise(dec, dec["rc"], k)
        else:
            dec["rbp"][dec["rc"]] = k
            dec["todo"].pop(0)
            _next_payment(seat, dec)
    elif st == "draft":
        _finish(seat, {"card": pid[6:]})
    elif st == "discard" and pid.startswith("ability:"):
        dec["ability"] = pid[8:]
    elif st == "discard":
        dec["discard"] = pid[8:]
        dec["st"] = "a0"
        dec["a"] = []
    elif st == "route":
        _finish(seat, {"route": pid[6:]})
    elif st == "bigben":
        bonus = pid[3:]
        if london.BIG_BEN[bonus].effect.startswith("raise:"):
            dec.update(st="bbattr", bonus=bonus, raises=[], att=list(seat["attr"]))
            _after_big_ben_raise(seat, dec)
        else:
            _finish(seat, {"bonus": bonus})
    elif st == "bbattr":
        a = COLOR_INDEX[pid[5:]]
        dec["raises"].append(a)
        dec["att"][a] += 1
        _after_big_ben_raise(seat, dec)
    elif st in ("a0", "a1"):
        dec["a"].append(int(pid[4:]))
        dec["st"] = "a1" if st == "a0" else "a2"
    elif st == "a2":
        s, i = dec["a"]
        b = int(pid[4:])
        plan = {"discard": dec["discard"], "attr": [s, i, b, 8 - s - i - b]}
        if "ability" in dec:
            plan["ability"] = dec["ability"]
        _finish(seat, plan)
    elif st == "char":
        _finish(seat, {"char": pid[5:]})
    else:
        raise AssertionError(st)
