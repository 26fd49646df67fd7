"""A tiny but real game for testing the server through the engine protocol only.

"tinygame", 2-4 players, `rounds` (1-3) rounds of two steps each:
  * a simultaneous draft step with a compound decision: play one card from your secret hand, then bet
    "low" or "high"; both stay secret until the step resolves (card value scores, a right bet +3/+1);
  * a sequential step: in seat order each seat takes 1 point ("t1") or gambles on 2 ("t2": 2 points
    only if nobody else gambled this step).
The game ends after the last round. Standing orders: "bet-low" and "take-one".
Option ``slow`` (seconds) makes ``resolve`` sleep, to test a worker killed mid-resolution.
Option ``ask_last_card`` marks the last card's prompt (a single option) ``ask_anyway``: the server must
show it to the player instead of picking it.
"""

from __future__ import annotations

import time
from typing import Any, Mapping

from games.engines.base import Engine, Event, IllegalPick, Option, Prompt, Result, State
from games.engines.options import OptionSpec
from games.engines.rng import Rng, seed_state

HAND_SIZE = 3


class TinyEngine(Engine):
    slug = "tinygame"
    name = "Tiny Game"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("rounds", "cards played per seat", kind=int, low=1, high=HAND_SIZE),
        OptionSpec("slow", "seconds each resolution sleeps (load tests)", kind=float, low=0, high=60),
        OptionSpec("ask_last_card", "the last card is asked for, not forced", choices=(True, False)),
    )

    def validate_options(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate_options(players, options)
        if not 1 <= int(options.get("rounds", 2)) <= HAND_SIZE:
            raise ValueError(f"rounds must be 1-{HAND_SIZE}")

    def new_game(self, *, players: int, options: Mapping[str, Any], seed: int) -> State:
        self.validate_options(players, options)
        rng = Rng(seed_state(seed))
        deck = list(range(1, 13))
        rng.shuffle(deck)
        state: State = {
            "players": players, "rounds": int(options.get("rounds", 2)), "slow": float(options.get("slow", 0)),
            "step": 0, "over": False, "rng": rng.state,
            "hands": [sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(players)],
            "scores": [0] * players, "breakdown": [{"cards": 0, "bets": 0, "tokens": 0} for _ in range(players)],
            "revealed": [], "ask_last_card": bool(options.get("ask_last_card", False)),
        }
        self._open_draft(state)
        return state

    # --- steps ------------------------------------------------------------------------------------
    def _kind(self, state: State) -> str:
        return "draft" if state["step"] % 2 == 0 else "take"

    def _open_draft(self, state: State) -> None:
        state["draft"] = [{"card": None, "bet": None} for _ in range(state["players"])]
        state.pop("turn", None)

    def _open_take(self, state: State) -> None:
        state["turn"] = 0
        state["takes"] = [None] * state["players"]
        state.pop("draft", None)

    def step(self, state: State) -> int:
        return state["step"]

    def pending(self, state: State) -> list[int]:
        if state["over"]:
            return []
        if self._kind(state) == "draft":
            return [s for s, d in enumerate(state["draft"]) if d["bet"] is None]
        return [state["turn"]] if state["turn"] < state["players"] else []

    def prompt(self, state: State, seat: int) -> Prompt | None:
        if seat not in self.pending(state):
            return None
        step = state["step"]
        if self._kind(state) == "take":
            return Prompt(f"s{step}-{seat}-take", "Take one point, or gamble on two?",
                          (Option("t1", "Take 1 point"), Option("t2", "Gamble on 2 points")))
        if state["draft"][seat]["card"] is None:
            cards = state["hands"][seat]
            return Prompt(f"s{step}-{seat}-card", "Play a card from your hand",
                          tuple(Option(f"c{c}", f"Card {c}") for c in cards),
                          ask_anyway=len(cards) == 1 and state.get("ask_last_card", False))
        return Prompt(f"s{step}-{seat}-bet", "Bet on your card: low (1-6) or high (7-12)?",
                      (Option("low", "Low"), Option("high", "High")))

    def apply(self, state: State, seat: int, option_id: str) -> list[Event]:
        p = self.prompt(state, seat)
        if p is None or option_id not in p.option_ids():
            raise IllegalPick(f"{option_id!r} is not an option for seat {seat}")
        if self._kind(state) == "take":
            state["takes"][seat] = option_id
            state["turn"] += 1
            return [Event(f"Seat {seat} chose {'to gamble' if option_id == 't2' else 'one point'}.",
                          data={"seat": seat, "take": option_id})]
        entry = state["draft"][seat]
        if entry["card"] is None:
            entry["card"] = int(option_id[1:])
            return [Event(f"You played card {entry['card']}.", seats=(seat,))]
        entry["bet"] = option_id
        return [Event(f"You bet {option_id}.", seats=(seat,))]

    def is_step_complete(self, state: State) -> bool:
        return not state["over"] and not self.pending(state)

    def resolve(self, state: State) -> list[Event]:
        if not self.is_step_complete(state):
            raise IllegalPick("the step is not complete")
        if state["slow"]:
            time.sleep(state["slow"])
        events: list[Event] = []
        step = state["step"]
        if self._kind(state) == "draft":
            state["revealed"] = []
            for seat, d in enumerate(state["draft"]):
                card, bet = d["card"], d["bet"]
                state["hands"][seat].remove(card)
                bonus = 3 if bet == "high" and card >= 7 else 1 if bet == "low" and card < 7 else 0
                state["scores"][seat] += card + bonus
                state["breakdown"][seat]["cards"] += card
                state["breakdown"][seat]["bets"] += bonus
                state["revealed"].append({"seat": seat, "card": card, "bet": bet})
                events.append(Event(f"Seat {seat} played {card} betting {bet}: +{card + bonus}.",
                                    data={"step": step, "seat": seat, "card": card, "bet": bet}))
            state["step"] += 1
            self._open_take(state)
        else:
            gamblers = [s for s, t in enumerate(state["takes"]) if t == "t2"]
            for seat, take in enumerate(state["takes"]):
                gain = 1 if take == "t1" else (2 if len(gamblers) == 1 else 0)
                state["scores"][seat] += gain
                state["breakdown"][seat]["tokens"] += gain
            events.append(Event(f"Takes resolved: {len(gamblers)} gambler(s).", data={"step": step}))
            state["step"] += 1
            state.pop("takes", None)
            if state["step"] >= 2 * state["rounds"]:
                state["over"] = True
                state.pop("turn", None)
                events.append(Event("The game is over.", data={"scores": list(state["scores"])}))
            else:
                self._open_draft(state)
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "step": state["step"], "kind": None if state["over"] else self._kind(state),
            "scores": list(state["scores"]), "revealed": list(state["revealed"]),
            "hand_sizes": [len(h) for h in state["hands"]], "over": state["over"],
        }
        if "takes" in state:
            v["takes"] = list(state["takes"])  # sequential choices are public
        if seat is not None:
            v["seat"] = seat
            v["hand"] = list(state["hands"][seat])
            if "draft" in state:
                v["my_draft"] = dict(state["draft"][seat])
        return v

    def default_option(self, state: State, seat: int) -> str:
        p = self.prompt(state, seat)
        if p is None:
            raise IllegalPick(f"seat {seat} has nothing to decide")
        return p.options[0].id

    def is_over(self, state: State) -> bool:
        return state["over"]

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        scores = tuple(state["scores"])
        ranks = tuple(1 + sum(1 for o in scores if o > s) for s in scores)
        return Result(scores=scores, ranks=ranks, breakdown=tuple(dict(b) for b in state["breakdown"]))

    def standing_orders(self) -> tuple[Option, ...]:
        return (Option("bet-low", "Always bet low"), Option("take-one", "Always take one point"))

    def standing_order_pick(self, state: State, seat: int, order_id: str) -> str | None:
        p = self.prompt(state, seat)
        if p is None:
            return None
        if order_id == "bet-low" and p.id.endswith("-bet"):
            return "low"
        if order_id == "take-one" and p.id.endswith("-take"):
            return "t1"
        return None


def replay(*, players: int, options: Mapping[str, Any], seed: int, picks: list[tuple[int, str]]) -> State:
    """Replay ordered (seat, option) picks, resolving whenever a step completes (as the server does)."""
    engine = TinyEngine()
    state = engine.new_game(players=players, options=options, seed=seed)
    for seat, option_id in picks:
        if engine.is_step_complete(state):
            engine.resolve(state)
        engine.apply(state, seat, option_id)
    if engine.is_step_complete(state):
        engine.resolve(state)
    return state


def greedy_choose(engine: TinyEngine, state: State, seat: int) -> str:
    """A greedy bot: the highest card, the bet that pays for it, the safe point."""
    p = engine.prompt(state, seat)
    if p.id.endswith("-card"):
        return max(p.options, key=lambda o: int(o.id[1:])).id
    if p.id.endswith("-bet"):
        return "high" if state["draft"][seat]["card"] >= 7 else "low"
    return "t1"
