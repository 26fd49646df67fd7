from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Engines named in settings (e.g. the tiny test engine) join the registry; nothing is
        # imported here, so a game whose module is missing never stops the server from starting.
        from django.conf import settings

        from .engines import registry

        for slug, path in getattr(settings, "GAME_ENGINES", {}).items():
            registry.register(slug, path)
        from .fastpath import checks

        checks.middleware_enforce()  # a middleware the hot routes would skip stops the server
        from . import tasks  # noqa: F401  registers the resolve task with the services (services/enqueue.py)
