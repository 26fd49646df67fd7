"""Take-backs in Mage Knight: what a pick that can be taken back leaves unchanged (base.py ``checkpoint_key``).

A pick is a checkpoint when it touches anything here: the generator (a die rolled, the Source rerolled, a deck
shuffled), a face-down zone (a deed deck or skill pile: a card or skill drawn; the Advanced Action, spell, artifact
and Unit decks: an offer refilled; the enemy piles and face-down tokens: an enemy drawn or revealed; the tile deck
and the ruins pile: a tile or a ruins token revealed), the Dummy, another seat's area (Mind Read, an attack on
another hero) or who decides next (another seat asked, the turn passed). Moving, playing cards and paying mana
within a turn touch none of them, so they can be taken back.
"""

from __future__ import annotations

from .. import json_text


def _face_down(tokens) -> list:
    return [t.get("id") for t in tokens or () if not t.get("face_up")]


def checkpoint_key(state: dict, seat: int) -> bytes:
    m = state["map"] or {}
    hexes = m.get("hexes", {})
    hidden_on_map = [(k, _face_down(h.get("enemies")), bool(h.get("ruins")) and not h["ruins"].get("face_up"))
                     for k, h in hexes.items() if h.get("enemies") or h.get("ruins")]
    dec, held = state["dec"], state["held"]
    seats = state["seats"]
    parts = [
        state["rng"], state["decks"], state["enemies"].get("piles"), state["ruins"].get("pile"),
        m.get("tile_deck"), m.get("spare"), m.get("ruins_pile"), len(m.get("tiles", ())), hidden_on_map,
        state["dummy"], state.get("mind_read"), state["round"], state["phase"],
        [s for i, s in enumerate(seats) if i != seat],
        seats[seat]["deck"], seats[seat]["skill_pile"],
        None if dec is None else dec["seat"], None if held is None else held["seat"], state["over"],
    ]
    return json_text.dumps(parts)
