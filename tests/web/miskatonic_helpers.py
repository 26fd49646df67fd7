"""Driving a Miskatonic game through the server with the greedy bot's picks, and planting canary cards.

Shared by the Miskatonic web, mail and browser tests.
"""

from __future__ import annotations

from dataclasses import replace

from games.engines.miskatonic import cards as misk_cards
from games.engines.miskatonic import view as misk_view
from games.engines.miskatonic.bots import GreedyBot
from games.engines.registry import get_engine
from games.models import Game, Prompt
from tests.games.helpers import pick

# Names found nowhere in the card set: one for a card in a hand, one for a card in a Deck.
HAND_CANARY = ("ZCANH", "Canary Handmaid Qx7f")
DECK_CANARY = ("ZCAND", "Canary Deckhand Qx7f")


def register_canaries(monkeypatch) -> None:
    """Two extra Student cards (copies of a plain Student under canary names) the engine and views know."""
    for cid, name in (HAND_CANARY, DECK_CANARY):
        monkeypatch.setitem(misk_cards.CARDS, cid, replace(misk_cards.CARDS["S12"], id=cid, name=name))
        monkeypatch.delitem(misk_view._CACHE, cid, raising=False)


def greedy_pick(game: Game) -> bool:
    """The seat with the open prompt picks what the greedy bot would; False when nobody has one."""
    prompt = Prompt.objects.filter(game=game, closed_at__isnull=True).order_by("seat__position").first()
    if prompt is None:
        return False
    position = prompt.seat.position
    option = GreedyBot().choose(get_engine("miskatonic"), game.state, position)
    pick(game, position, option)
    return True


def play_greedy_until(game: Game, done, limit: int = 3000) -> None:
    for _ in range(limit):
        game.refresh_from_db()
        if done(game) or game.status != "active":
            return
        assert greedy_pick(game), "an active game with no open prompt"
    raise AssertionError("the game did not get there")
