"""Shared helpers for the engine tests: drive a Faltisia game to a point, then shape the scenario."""

from __future__ import annotations

from games.engines.faltisia.engine import FaltisiaEngine

E = FaltisiaEngine()


def ids(state, seat):
    p = E.prompt(state, seat)
    return [] if p is None else [o.id for o in p.options]


def calm(state, seat):
    """A predictable chooser: attend, play the first card face down, take a Part-Time Job."""
    ops = [i for i in ids(state, seat) if not i.startswith("med")]
    for want in ("attend", "down", "job", "fb:job", "str:2", "int:2", "bea:2"):
        if want in ops:
            return want
    return ops[0]


def drive(state, until, chooser=calm, limit=20000):
    """Play with ``chooser`` until ``until(state)`` holds at the start of a step."""
    for _ in range(limit):
        if until(state):
            return state
        for seat in E.pending(state):
            E.apply(state, seat, chooser(state, seat))
        if E.is_step_complete(state):
            E.resolve(state)
    raise AssertionError("condition never reached")


def at(phase, rnd=1, term=None):
    def cond(s):
        fresh = all(x["dec"] is not None and len(x["dec"]) == 1 for x in s["seats"])
        return s["phase"] == phase and s["round"] == rnd and (term is None or s["term"] == term) and fresh
    return cond


def picks(state, seat, *option_ids):
    for o in option_ids:
        E.apply(state, seat, o)


def finish(state):
    """Resolve the current step (all seats must be done)."""
    assert E.is_step_complete(state), E.pending(state)
    return E.resolve(state)


def new(players=2, seed=0, **options):
    return E.new_game(players=players, options=options, seed=seed)


def at_action(players=2, seed=0, rnd=1, term=1):
    return drive(new(players, seed), at("action", rnd, term))


def at_lecture(players=2, seed=0, rnd=1, term=1):
    return drive(new(players, seed), at("lecture", rnd, term))
