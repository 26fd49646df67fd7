"""Take-backs in Faltisia: what a pick that can be taken back leaves unchanged (base.py ``checkpoint_key``).

A pick records a seat's secret decision in its own part of the state (``state["seats"][seat]``) and the step
resolves only once every seat is done, so a pick is a checkpoint only if it touched anything else: the generator,
the decks, the store, another seat. The server lets a seat change its pick until the step resolves.
"""

from __future__ import annotations

from .. import json_text


def checkpoint_key(state: dict, seat: int) -> bytes:
    rest = {k: v for k, v in state.items() if k != "seats"}
    others = [s for i, s in enumerate(state["seats"]) if i != seat]
    return json_text.dumps([rest, others], sort_keys=True)
