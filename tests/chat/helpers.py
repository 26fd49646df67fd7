"""Builders for the table-talk tests: a started game of a given press, and its readers."""

from __future__ import annotations

from games.chat.selectors import Reader, reader_for
from games.models import Game, Press
from games.services import game_create, game_join
from tests.factories import UserFactory


def chat_game(*, press: str = Press.FULL, players: int = 3, public: bool = True, users=None):
    """A started tinygame with the given press, seated by ``users`` (new ones if None); (game, users)."""
    users = list(users) if users is not None else [UserFactory() for _ in range(players)]
    game = game_create(created_by=users[0], engine="tinygame", players=len(users), options={"rounds": 1},
                       is_public=public, press=press, seed=7)
    for u in users[1:]:
        game_join(game=game, user=u)
    game.refresh_from_db()
    return game, users


def reader(game: Game, user) -> Reader:
    found = reader_for(game=game, user=user)
    assert found is not None, f"{user} may not read game {game.pk}"
    return found


def spectator():
    return UserFactory()
