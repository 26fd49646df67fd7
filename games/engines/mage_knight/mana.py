"""Mana: the Source dice, crystals, pure mana tokens, and paying a colour.

Rules (mage-knight-rules.txt, "Mana"):
- Pure mana comes from Source dice or tokens and must be used by the end of the turn.
- Crystals: max 3 of each basic colour; converted to pure mana at any point of the turn.
- Gold: by day, any basic colour. Black: at night, powers some effects (here: only a spell's strong
  effect, the only black cost in the base deed cards).
- One die per turn from the Source, which must be used: a die is only ever taken to pay a cost, so it
  is always used; at the end of the turn it is rerolled and returned.
- Setup / round start: reroll black or gold dice until at least half the dice show basic colours.

A payment source is a short string, also used in option ids: "die:<index>", "token:<colour>",
"crystal:<colour>".
"""

from __future__ import annotations

from ..rng import Rng
from .colours import ALL, BASIC
from .hero import take_wounds

DIE_FACES = ALL  # a mana die's six faces
CRYSTAL_MAX = 3


# ---------------------------------------------------------------- dice

def new_source(state, rng: Rng) -> None:
    """The Source of a new game or Round: players+2 dice (a stolen die, Mana Steal, is back in it); "Reroll any
    black or gold dice until at least half of the displayed dice show basic colors"."""
    n = state["players"] + 2
    dice = [DIE_FACES[rng.below(6)] for _ in range(n)]
    while 2 * sum(d in BASIC for d in dice) < n:
        dice = [d if d in BASIC else DIE_FACES[rng.below(6)] for d in dice]
    state["source"] = {"dice": dice, "taken": []}


def roll(state) -> str:
    rng = Rng(state["rng"])
    face = DIE_FACES[rng.below(len(DIE_FACES))]
    state["rng"] = rng.state
    return face


def reroll_source(state) -> None:
    """Roll every Source die, then reroll the black and gold ones until at least half show basic colours."""
    dice = state["source"]["dice"]
    for i in range(len(dice)):
        dice[i] = roll(state)
    while 2 * sum(1 for d in dice if d in BASIC) < len(dice):
        for i, d in enumerate(dice):
            if d not in BASIC:
                dice[i] = roll(state)
    state["source"]["taken"] = []


def return_dice(state, keep: dict | None = None) -> None:
    """End of turn: reroll the taken dice and give them back. ``keep`` maps die index -> colour for
    dice returned without a reroll (Mana Draw)."""
    keep = keep or {}
    src = state["source"]
    for i in src["taken"]:
        src["dice"][i] = keep.get(str(i)) or keep.get(i) or roll(state)
    src["taken"] = []


# ---------------------------------------------------------------- what a mana can stand for

def stands_for(mana: str, need: str, time: str) -> bool:
    """May one mana of colour ``mana`` pay for ``need`` at this time of day?"""
    if mana == "gold":
        return time == "day" and need in BASIC        # gold: any basic colour, by day only
    if mana == "black":
        return time == "night" and need == "black"    # black: only at night, only where black is asked
    return mana == need


def crystal_gain(seat_state, colour: str, turn) -> bool:
    """Gain a crystal; at the cap of 3 the mana is kept as a token instead. True if a crystal was added."""
    if colour not in BASIC:
        return False
    if seat_state["crystals"][colour] < CRYSTAL_MAX:
        seat_state["crystals"][colour] += 1
        return True
    if turn is not None:
        turn["tokens"].append(colour)
    return False


# ---------------------------------------------------------------- paying

def dice_left(state) -> int:
    turn = state["turn"]
    return turn.get("dice_allowed", 1) - turn.get("dice_used", 0)


def time_for(state, mana: str) -> str:
    """The time of day a mana is judged by: Amulet of the Sun makes gold usable at Night as by Day, Amulet of Darkness
    black usable by Day as at Night (``turn["amulet"]``)."""
    amulet = (state.get("turn") or {}).get("amulet")
    if mana == "gold" and amulet == "sun":
        return "day"
    if mana == "black" and amulet == "dark":
        return "night"
    return state["time"]


def sources_for(state, seat: int, need: str) -> list[str]:
    """Every distinct way to pay one mana of ``need`` now (cheapest-to-lose first: tokens, dice, crystals)."""
    turn = state["turn"]
    out: list[str] = []
    for colour in dict.fromkeys(turn["tokens"]):
        if stands_for(colour, need, time_for(state, colour)):
            out.append(f"token:{colour}")
    if dice_left(state) > 0:
        seen = set()
        for i, d in enumerate(state["source"]["dice"]):
            if i not in state["source"]["taken"] and d not in seen and (
                    stands_for(d, need, time_for(state, d))
                    or (turn.get("storm") and d in ("gold", "black") and need in BASIC)):  # Mana Storm powered
                seen.add(d)
                out.append(f"die:{i}")
    if need in BASIC and state["seats"][seat]["crystals"].get(need, 0) > 0:
        out.append(f"crystal:{need}")
    stolen = state["seats"][seat].get("tactic_die")
    if stolen and stands_for(stolen, need, time_for(state, stolen)):
        out.append(f"stolen:{stolen}")  # the Mana Steal tactic's die, on top of the turn's one die
    for colour in turn.get("endless", ()):  # a Ring thrown away: "unlimited <colour> and black mana this turn"
        if stands_for(colour, need, time_for(state, colour)):
            out.append(f"endless:{colour}")
    return out


def payments(state, seat: int, needs: list[str]) -> list[list[str]]:
    """Every distinct combination of sources paying all of ``needs`` (at most one die in all unless more
    dice are allowed this turn)."""
    if not needs:
        return [[]]
    out = []
    for src in sources_for(state, seat, needs[0]):
        undo = take_tentatively(state, seat, src)
        for rest in payments(state, seat, needs[1:]):
            out.append([src] + rest)
        undo()
    seen, uniq = set(), []
    for combo in out:
        key = tuple(sorted(combo))
        if key not in seen:
            seen.add(key)
            uniq.append(combo)
    return uniq


def take_tentatively(state, seat, src):
    """Tentatively remove a source (for enumerating combinations and trying a payment); returns the undo."""
    kind, what = src.split(":")
    turn = state["turn"]
    if kind == "endless":
        return lambda: None  # unlimited: nothing is used up
    if kind == "token":
        turn["tokens"].remove(what)
        return lambda: turn["tokens"].append(what)
    if kind == "crystal":
        state["seats"][seat]["crystals"][what] -= 1
        return lambda: state["seats"][seat]["crystals"].__setitem__(what, state["seats"][seat]["crystals"][what] + 1)
    if kind == "stolen":
        state["seats"][seat]["tactic_die"] = None
        return lambda: state["seats"][seat].__setitem__("tactic_die", what)
    i = int(what)
    state["source"]["taken"].append(i)
    turn["dice_used"] = turn.get("dice_used", 0) + 1

    def undo():
        state["source"]["taken"].remove(i)
        turn["dice_used"] -= 1
    return undo


def pay(state, seat: int, src: str) -> str:
    """Spend one source for real; returns the colour it showed."""
    kind, what = src.split(":")
    turn = state["turn"]
    if kind == "endless":
        curse(state, seat, what)
        return what
    if kind == "token":
        turn["tokens"].remove(what)
        curse(state, seat, what)
        return what
    if kind == "crystal":
        state["seats"][seat]["crystals"][what] -= 1
        turn.setdefault("crystals_spent", []).append(what)
        curse(state, seat, what)
        return what
    if kind == "stolen":  # used: it goes back to the Source, rerolled, at the end of the turn
        state["seats"][seat].pop("tactic_die", None)
        turn["stolen_die_used"] = True
        curse(state, seat, what)
        return what
    i = int(what)
    state["source"]["taken"].append(i)
    turn["dice_used"] = turn.get("dice_used", 0) + 1
    turn["die_taken"] = True
    curse(state, seat, state["source"]["dice"][i])
    return state["source"]["dice"][i]


def take_die_out(state, i: int) -> str:
    """A free die leaves the Source for the rest of the Round (Mana Claim); the indices of the dice taken this turn
    (and Mana Draw's kept colours) are renumbered. Returns its colour."""
    src = state["source"]
    colour = src["dice"].pop(i)
    src["taken"] = [t if t < i else t - 1 for t in src["taken"]]
    keep = (state.get("turn") or {}).get("keep_dice")
    if keep:
        state["turn"]["keep_dice"] = {str(int(k) if int(k) < i else int(k) - 1): v for k, v in keep.items()}
    return colour


def curse(state, seat: int, colour: str) -> None:
    """Mana Curse: "other players using that colour take a Wound (max 1 per turn) until end of Round"."""
    turn = state.get("turn")
    if turn is None or turn.get("cursed"):
        return
    for i, other in enumerate(state["seats"]):
        claim = other.get("claimed")
        if i != seat and claim and claim.get("curse") and claim["colour"] == colour:
            turn["cursed"] = True
            evs: list = []
            take_wounds(state, seat, 1, evs)
            # pay() has no event list: turn.apply passes these on after the pick (plain data, the state is JSON)
            turn.setdefault("curse_events", []).append(
                [f"Seat {seat + 1} uses {colour} mana under Seat {i + 1}'s Mana Curse and takes a Wound.",
                 {"seat": seat, "curse": i, "wounds": 1}])
            return


def label(state, src: str) -> str:
    kind, what = src.split(":")
    if kind == "token":
        return f"a {what} mana token"
    if kind == "crystal":
        return f"a {what} crystal"
    if kind == "stolen":
        return f"your stolen {what} die"
    if kind == "endless":
        return f"your Ring's unlimited {what} mana"
    return f"the {state['source']['dice'][int(what)]} die"


def labels(state, combo: list[str]) -> str:
    return " and ".join(label(state, s) for s in combo)


def can_pay(state, seat: int, needs: list[str]) -> bool:
    return bool(payments(state, seat, needs))
