"""Take-backs in Faltisia: what a pick that can be taken back leaves unchanged (base.py ``checkpoint_key``).

A pick records a seat's secret decision in its own part of the state (``state["seats"][seat]``) and the step
resolves only once every seat is done, so a pick is a checkpoint only if it touched anything else: the generator,
the decks, the store, another seat. The server lets a seat change its pick until the step resolves.

Leaving the seat's own part out cannot let it fish for something new: a pick reads only what the seat is shown
(its own part, the store, the board, the characters still free) and never moves a card into its part, so what it
writes there follows from what the seat already saw and picked. New cards and values reach a seat only when the
step resolves (the packs are passed, cards turned up, the Classmate plays), and the step's end ends every
take-back. tests/engines/test_faltisia_checkpoints.py checks this over random games: a pick that shows the seat a
card it was not shown before, or anything that depends on what is hidden from it, is always a checkpoint.
"""

from __future__ import annotations

from .. import json_text


def checkpoint_key(state: dict, seat: int) -> bytes:
    rest = {k: v for k, v in state.items() if k != "seats"}
    others = [s for i, s in enumerate(state["seats"]) if i != seat]
    return json_text.dumps([rest, others], sort_keys=True)
