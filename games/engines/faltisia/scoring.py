"""Final scoring (the rulebook's Scoring section), with a per-category breakdown."""

from __future__ import annotations

from . import london
from .cards import CARDS, TYPE, card_dict
from .effects import check, face_up_count

EXTRACURRICULAR = {"A": (0, 1, 2, 4, 7), "B": (-2, 0, 3, 5, 6), "C": (0, -2, 2, 7, 12)}
CATEGORIES = ("graduation", "organization", "extracurricular", "assignment", "special_evaluation", "items",
              "character", "attributes", "sterlings", "mp_tokens")


def attribute_points(v: int) -> int:
    """Attribute table: 6+ 1 MP, 10+ 2, 13+ 5, 15 10."""
    return 10 if v >= 15 else 5 if v >= 13 else 2 if v >= 10 else 1 if v >= 6 else 0


def end_effects(seat: dict, cid: str) -> int:
    """End-game MP from a card's mp_per / mp_if effects."""
    total = 0
    for e in CARDS[cid].effects:
        if e[0] == "mp_per":
            what, arg, n = e[1], e[2], e[3]
            if what == "face_up":
                total += n * face_up_count(seat, arg)
            elif what == "items":
                total += n * len(seat["items"])
            elif what == "attr_at_least":
                total += n * sum(1 for v in seat["attr"] if v >= arg)
            else:  # sterlings
                total += n * (seat["ster"] // arg)
        elif e[0] == "mp_if" and check(seat, e[1]):
            total += e[2]
    return total


def breakdown(seat: dict) -> dict[str, int]:
    b = dict.fromkeys(CATEGORIES, 0)
    for r in seat["reqs"]:
        c = CARDS[r]
        b["graduation"] += c.mp if check(seat, c.cond) else -c.mp
    clubs = {"A": 0, "B": 0, "C": 0}
    for cid in seat["up"]:
        t = TYPE[cid]
        c = CARDS[cid]
        if t == "organization":
            b["organization"] += c.mp + end_effects(seat, cid)
        elif t == "assignment":
            b["assignment"] += c.mp + end_effects(seat, cid)
        elif t == "special":
            b["special_evaluation"] += c.mp + end_effects(seat, cid)
        elif t == "extracurricular":
            clubs[c.club] += 1
    for club, n in clubs.items():
        b["extracurricular"] += EXTRACURRICULAR[club][min(n, 4)]
    for item in seat["items"]:
        b["items"] += CARDS[item].mp + end_effects(seat, item)
    b["character"] = CARDS[seat["char"]].mp if seat["lic"] else 0
    b["attributes"] = sum(attribute_points(v) for v in seat["attr"])
    b["sterlings"] = seat["ster"] // 3
    b["mp_tokens"] = seat["mp"]
    if "bfl" in seat:  # Battle for London: Attendance Award and four checkpoint tokens ("Expansion Scoring")
        b.update(london.score(seat))
    return b


def final_result(state: dict) -> dict:
    """Scores, ranks (ties on MP broken by combined attributes, then shared) and breakdowns.

    Solo: the Classmate is ranked with the player (a loss is rank 2, a draw shares rank 1) but is not a seat,
    so its score, breakdown and now revealed requirements go under ``classmate``, and ``outcome`` says
    win/loss/draw.
    """
    bds = [breakdown(s) for s in state["seats"]]
    scores = [sum(b.values()) for b in bds]
    tiebreak = [sum(s["attr"]) for s in state["seats"]]
    keys = list(zip(scores, tiebreak))
    cm = state.get("classmate")
    if cm is not None:
        cm_bd = breakdown(cm)
        cm_key = (sum(cm_bd.values()), sum(cm["attr"]))
        keys_all = keys + [cm_key]
        ranks = [1 + sum(1 for k in keys_all if k > mine) for mine in keys]
        return {"scores": scores, "ranks": ranks, "breakdown": bds, "tiebreak": tiebreak,
                "outcome": outcome(keys[0], cm_key),
                "classmate": {"score": cm_key[0], "tiebreak": cm_key[1], "breakdown": cm_bd,
                              "requirements": [dict(card_dict(r), met=check(cm, CARDS[r].cond))
                                               for r in cm["reqs"]]}}
    ranks = [1 + sum(1 for k in keys if k > mine) for mine in keys]
    return {"scores": scores, "ranks": ranks, "breakdown": bds, "tiebreak": tiebreak}


def outcome(player: tuple[int, int], classmate: tuple[int, int]) -> str:
    """Solo Scoring: "the player or Classmate with the most MP wins the game. If tied, the player with the
    highest combined attribute score is the winner. If still tied, the match is a draw." (MP, attributes)."""
    return "win" if player > classmate else "loss" if player < classmate else "draw"
