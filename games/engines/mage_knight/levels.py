"""Fame -> level, and what each level brings.

levels.csv (compiled from levels.json): odd levels flip a level token (new Armor and Hand limit) and add a Command
token; even levels give "skill + advanced action" (the data's level_up_reward). The two even-level choices are picks
of the levelled seat, opened by engine.py right after the turn (decision kinds "skill" and "advanced").
"""

from __future__ import annotations

import csv
import os

from ..base import Event, Option

HERE = os.path.dirname(os.path.abspath(__file__))


def _rows(name: str) -> list[dict[str, str]]:
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return list(csv.DictReader(f))


LEVELS: dict[int, dict] = {int(r["level"]): {"fame": int(r["fame"]), "armor": int(r["armor"]),
                                             "hand_limit": int(r["hand_limit"]), "command": int(r["command"]),
                                             "reward": r["reward"].split()} for r in _rows("levels.csv")}
SKILLS: dict[str, dict] = {r["id"]: r for r in _rows("skills.csv")}
MAX_LEVEL = max(LEVELS)


def level_for(fame: int) -> int:
    """The highest level whose Fame threshold is reached."""
    return max(n for n, row in LEVELS.items() if fame >= row["fame"])


def gain(state: dict, seat: int, events: list) -> None:
    """Apply every level the seat's Fame has reached since its last level-up (endturn.py calls this).

    Armor, Hand limit and Command tokens change at once; each even level queues its two choices in
    ``seat["rewards"]`` ("skill", "advanced"), which engine.py asks before the next seat's turn.
    """
    s = state["seats"][seat]
    new = level_for(s["fame"])
    while s["level"] < new:
        s["level"] += 1
        row = LEVELS[s["level"]]
        s["armor"], s["hand_limit"], s["command"] = row["armor"], row["hand_limit"], row["command"]
        s["rewards"] += [r for r in row["reward"] if r in ("skill", "advanced")]  # a token changes the numbers only
        events.append(Event(f"Seat {seat + 1} reaches level {s['level']}", None,
                            {"seat": seat, "level": s["level"], "armor": s["armor"], "hand_limit": s["hand_limit"],
                             "command": s["command"]}))


def skill_choices(state: dict, seat: int) -> tuple[list[str], list[str]]:
    """(the two drawn from the seat's skill pile, the common offer). The draw is made once, when first asked."""
    s = state["seats"][seat]
    drawn = s.setdefault("skill_draw", [])
    while len(drawn) < 2 and s["skill_pile"]:
        drawn.append(s["skill_pile"].pop())
    return list(drawn), [k for k in state["skill_offer"] if k not in s["skills"]]


def skill_options(state: dict, seat: int) -> list[Option]:
    drawn, offer = skill_choices(state, seat)
    ops = [Option(f"skill:{k}", f"Learn {SKILLS[k]['name']}: {SKILLS[k]['summary']}") for k in drawn]
    ops += [Option(f"offer:{k}", f"Learn {SKILLS[k]['name']} from the common offer: {SKILLS[k]['summary']}")
            for k in offer]
    return ops


def take_skill(state: dict, seat: int, option_id: str, events: list) -> None:
    """Keep the chosen skill; "the other goes to the common offer" (both drawn do if one comes from the offer)."""
    s = state["seats"][seat]
    kind, skill = option_id.split(":", 1)
    drawn = s.pop("skill_draw", [])
    if kind == "offer":
        state["skill_offer"].remove(skill)
    else:
        drawn.remove(skill)
    state["skill_offer"] += drawn
    s["skills"].append(skill)
    s["rewards"].remove("skill")
    events.append(Event(f"Seat {seat + 1} learns the skill {SKILLS[skill]['name']}", None,
                        {"seat": seat, "skill": skill}))


def advanced_options(state: dict, seat: int, name) -> list[Option]:
    return [Option(f"aa:{c}", f"Take {name(c)} from the Advanced Action offer")
            for c in dict.fromkeys(state["offers"]["advanced"])]


def take_advanced(state: dict, seat: int, option_id: str, events: list, name) -> None:
    """The card goes on top of the deed deck (new cards are gained to the top); the offer is refilled."""
    card = option_id.split(":", 1)[1]
    s = state["seats"][seat]
    offer = state["offers"]["advanced"]
    offer.remove(card)
    if state["decks"]["advanced"]:
        offer.insert(0, state["decks"]["advanced"].pop())
    s["deck"].append(card)
    s["rewards"].remove("advanced")
    events.append(Event(f"Seat {seat + 1} takes the Advanced Action {name(card)}", None,
                        {"seat": seat, "card": card}))


def next_reward(state: dict, seat: int) -> str | None:
    """The seat's next level-up choice that can still be made ("skill" before "advanced"), dropping impossible ones."""
    s = state["seats"][seat]
    while s["rewards"]:
        r = "skill" if "skill" in s["rewards"] else s["rewards"][0]
        if r == "skill" and (s["skill_pile"] or s.get("skill_draw") or
                             any(k not in s["skills"] for k in state["skill_offer"])):
            return r
        if r == "advanced" and state["offers"]["advanced"]:
            return r
        s["rewards"].remove(r)  # nothing left to take: the reward lapses
    return None
