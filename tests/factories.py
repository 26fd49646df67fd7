"""factory_boy factories and small builders that go through the services, as real code does."""

from __future__ import annotations

import factory

from accounts.models import User
from accounts.services import user_create
from games.models import Game
from games.services import game_create, game_join


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = "Correct-Horse-42"
    # A new account gets no result mails unless it asks (accounts default; tests/accounts/
    # test_result_mail_default.py). The mail tests follow players who asked for them, as they were written;
    # UserFactory(email_results=False) is a player on the new default.
    email_results = True

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        # A test player's address counts as confirmed, so game mail reaches it.
        user = user_create(username=kwargs["username"], email=kwargs["email"], password=kwargs["password"],
                           email_verified=True)
        if kwargs.get("email_results"):
            user.notification_preferences.email_results = True
            user.notification_preferences.save(update_fields=["email_results"])
        return user


def make_started_game(*, players: int = 2, options: dict | None = None, clock: dict | None = None,
                      seed: int = 7, engine: str = "tinygame") -> tuple[Game, list[User]]:
    """Create a game whose seats are all taken by new users, so it has started."""
    users = [UserFactory() for _ in range(players)]
    game = game_create(created_by=users[0], engine=engine, players=players, options=options or {},
                       clock=clock or {}, seed=seed)
    for u in users[1:]:
        game_join(game=game, user=u)
    game.refresh_from_db()
    return game, users
