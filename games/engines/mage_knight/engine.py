"""MageKnightEngine: Mage Knight, First Reconnaissance (1-4 players; 1 = solo with the Dummy) on base.py's protocol.

A sequential game: one seat decides at a time. A step is one seat's run of picks: a tactic choice (with what taking
it asks), or a whole turn (with the level-up choices it earns; announcing the end of the round is turn.py's
pick "t-announce"). When the
next decision opens a new step it is held, the step is complete, and ``resolve`` hands it over.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import Engine, Event, IllegalPick, OneSeatAtATimeMixin, Option, State
from ..rng import Rng
from . import dummy, levels, rounds, takebacks, turn
from .colours import BASIC
from .rounds import TACTICS
from .setup import OPTION_SPECS, parse_options, new_state
from .specials_other_players import mind_read_discard, mind_read_next, mind_read_options
from .view import card_name, view as _view



def _with_wording(event: Event) -> Event:
    """An event whose text opens with its seat ("Seat 2 moves to ...") also carries that sentence as
    ``data["wording"]`` with ``{seat}`` in the seat's place, so every surface can name the player ("bob moves to
    ...", games/presentation/wording.py) while the engine's own text stays 1-based for everyone else."""
    seat = event.data.get("seat")
    if "wording" in event.data or not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        return event
    opening = f"Seat {seat + 1}"
    if not event.text.startswith(opening) or event.text[len(opening):len(opening) + 1].isdigit():
        return event
    rest = event.text[len(opening):].replace("{", "{{").replace("}", "}}")
    return Event(event.text, event.seats, {**event.data, "wording": "{seat}" + rest})


class MageKnightEngine(OneSeatAtATimeMixin, Engine):
    slug = "mage_knight"
    name = "Mage Knight"
    min_players = 1
    max_players = 4
    solo_players = 1  # engine_bench: the 1-player line is the solo game
    option_specs = OPTION_SPECS

    def new_game(self, *, players: int, options: Mapping[str, Any], seed: int) -> State:
        state = new_state(players, options or {}, seed)
        rounds.start_round_one(state)
        run(state, [])
        promote(state)
        state["step"] = 1
        return state

    def validate_options(self, players: int, options: Mapping[str, Any]) -> None:
        super().validate_options(players, options)
        parse_options(players, options or {})

    def decision_options(self, state: State, dec: dict) -> tuple[str, list[Option]]:
        return options(state, dec)

    def apply(self, state: State, seat: int, option_id: str) -> list[Event]:
        d = self.take_pick(state, seat, option_id)
        ev: list[Event] = []
        perform(state, d, option_id, ev)
        run(state, ev)
        if state["dec"] is not None and (state["dec"]["seat"] != state["owner"] or state["dec"].get("fresh")):
            state["held"], state["dec"] = state["dec"], None
        return [_with_wording(e) for e in ev]

    def resolve(self, state: State) -> list[Event]:
        if not self.is_step_complete(state):
            raise IllegalPick("the step is not complete")
        state["step"] += 1
        promote(state)
        return []

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return _view(state, seat)

    def checkpoint_key(self, state: State, seat: int) -> str:
        return takebacks.checkpoint_key(state, seat)

    def default_option(self, state: State, seat: int) -> str:
        d = state["dec"]
        if d is None or d["seat"] != seat:
            raise IllegalPick(f"seat {seat} has nothing to decide")
        return default(state, d)



def promote(state: dict) -> None:
    """The held decision becomes the open one; its seat owns the new step."""
    if state["held"] is not None:
        state["dec"], state["held"] = state["held"], None
    if state["dec"] is not None:
        state["dec"].pop("fresh", None)
        state["owner"] = state["dec"]["seat"]


# ------------------------------------------------------------------------------------------ the game machine


def run(state: dict, ev: list) -> None:
    """Advance until a seat must decide (``state["dec"]``) or the game is over. Dummy turns need no pick."""
    while not state["over"] and state["dec"] is None:
        eff = state.get("effect")
        if eff is not None:
            state["dec"] = {"seat": eff["seat"], "kind": eff["kind"]}
            return
        if state["phase"] == "tactics":
            q = state["tactic_queue"]
            if q:
                state["dec"] = {"seat": q[0], "kind": "tactic", "fresh": True}
                return
            _with_rng(state, lambda rng: rounds.close_tactics(state, rng, ev))
            continue
        acting = state["acting"]
        if acting is not None:
            if acting >= 0:
                if state["turn"] is not None:
                    state["dec"] = {"seat": acting, "kind": "turn"}
                    return
                r = levels.next_reward(state, acting)
                if r is not None:
                    state["dec"] = {"seat": acting, "kind": r}
                    return
            state["acting"] = None
            rounds.turn_over(state, acting, ev)
            if state["final_turns"] == []:
                rounds.finish(state, ev)
            continue
        who = rounds.next_actor(state)
        if who is None:
            _with_rng(state, lambda rng: rounds.end_round(state, rng, ev))
            continue
        if who < 0:
            if dummy.take_turn(state, ev) and state["end_announced_by"] is None:
                rounds.announce(state, -1, ev)
            state["acting"] = -1
            continue
        state["acting"] = who
        turn.start(state, who, ev)
        if state["turn"] is not None:
            state["dec"] = {"seat": who, "kind": "turn", "fresh": True}
            return


def _with_rng(state: dict, fn) -> None:
    rng = Rng(state["rng"])
    fn(rng)
    state["rng"] = rng.state


def _turn_options(state: dict, seat: int) -> tuple[str, list[Option]]:
    got = turn.options(state, seat)
    if isinstance(got, tuple):
        return got[0], list(got[1])
    return "Your turn", list(got)


def options(state: dict, d: dict) -> tuple[str, list[Option]]:
    """The prompt text and options for the open decision."""
    seat, kind = d["seat"], d["kind"]
    s = state["seats"][seat]
    if kind == "turn":
        return _turn_options(state, seat)
    if kind == "tactic":
        ops = [Option(f"tactic:{t}", f"{TACTICS[t]['name']} ({TACTICS[t]['number']}): {TACTICS[t]['summary']}")
               for t in sorted(state["tactics"]["available"], key=lambda t: TACTICS[t]["number"])]
        return f"Round {state['round']} ({state['time']}): choose your tactic", ops
    if kind == "rethink":
        aside = state["effect"]["set_aside"]
        cards_drawn = {0: "no cards", 1: "1 card"}.get(len(aside), f"{len(aside)} cards")
        ops = [Option("done", f"Done: draw {cards_drawn} and shuffle the discard pile into the deed deck")]
        if len(aside) < 3:
            ops += [Option(f"card:{c}", f"Discard {card_name(c)}") for c in dict.fromkeys(s["hand"])]
        return "Rethink: discard up to 3 cards, then draw as many", ops
    if kind == "preparation":
        ops = [Option(f"card:{c}", f"Take {card_name(c)} into your hand")
               for c in sorted(set(s["deck"]), key=card_name)]
        return "Preparation: take any card from your deed deck into your hand", ops
    if kind == "mana_steal":
        dice = state["source"]["dice"]
        ops = [Option(f"die:{c}", f"Take a {c} die") for c in BASIC if c in dice]
        return "Mana Steal: take a basic-coloured die from the Source for one of your turns this Day", ops
    if kind == "mind_read":
        mr = state["mind_read"]
        return (f"Mind Read (Seat {mr['caster'] + 1}): discard a {mr['colour']} Spell or Action card",
                [Option(i, lab) for i, lab in mind_read_options(state, seat)])
    if kind == "banners":
        return ("Round preparation: you may discard Banners from your Units",
                [Option(i, lab) for i, lab in rounds.banner_options(state, seat)])
    if kind == "skill":
        return "Level up: choose a skill", levels.skill_options(state, seat)
    if kind == "advanced":
        return "Level up: take an Advanced Action", levels.advanced_options(state, seat, card_name)
    raise IllegalPick(f"unknown decision {kind!r}")


def perform(state: dict, d: dict, option_id: str, ev: list) -> None:
    """Apply a validated pick of the open decision."""
    seat, kind = d["seat"], d["kind"]
    s = state["seats"][seat]
    if kind == "turn":
        turn.apply(state, seat, option_id, ev)
    elif kind == "tactic":
        rounds.take_tactic(state, seat, option_id.split(":", 1)[1], ev)
    elif kind == "rethink":
        if option_id == "done":
            n = len(state["effect"]["set_aside"])
            _with_rng(state, lambda rng: rounds.rethink_done(state, seat, rng))
            ev.append(Event(f"Seat {seat + 1} rethinks {n} card{'' if n == 1 else 's'}", None, {"seat": seat, "rethink": n}))
        else:
            card = option_id.split(":", 1)[1]
            s["hand"].remove(card)
            state["effect"]["set_aside"].append(card)
    elif kind == "preparation":
        card = option_id.split(":", 1)[1]
        s["deck"].remove(card)
        s["hand"].append(card)
        _with_rng(state, lambda rng: rng.shuffle(s["deck"]))
        state["effect"] = None
        ev.append(Event(f"Seat {seat + 1} takes a card from their deed deck", None, {"seat": seat}))
        ev.append(Event(f"You take {card_name(card)} from your deed deck", (seat,), {"seat": seat, "card": card}))
    elif kind == "mana_steal":
        colour = option_id.split(":", 1)[1]
        state["source"]["dice"].remove(colour)
        s["tactic_die"] = colour
        state["effect"] = None
        ev.append(Event(f"Seat {seat + 1} steals a {colour} die from the Source", None,
                        {"seat": seat, "die": colour}))
    elif kind == "mind_read":
        mind_read_discard(state, seat, option_id.split(":", 1)[1], ev)
        mind_read_next(state, ev)
    elif kind == "banners":
        _with_rng(state, lambda rng: rounds.banner_pick(state, seat, option_id, rng, ev))
    elif kind == "skill":
        levels.take_skill(state, seat, option_id, ev)
    elif kind == "advanced":
        levels.take_advanced(state, seat, option_id, ev, card_name)
    else:
        raise IllegalPick(f"unknown decision {kind!r}")


def default(state: dict, d: dict) -> str:
    """The deadline pick: the turn's own default (rest / end safely); elsewhere the first, least committal option."""
    kind = d["kind"]
    if kind == "turn":
        # An empty deed deck: announcing the end of the round is the safe pick; a seat that only ever ended its turns
        # at the deadline would otherwise keep the round (and the game) from ending.
        if "t-announce" in {o.id for o in options(state, d)[1]}:
            return "t-announce"
        return turn.default(state, d["seat"])
    if kind == "rethink":
        return "done"
    return options(state, d)[1][0].id
