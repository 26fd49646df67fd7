from django.apps import AppConfig


class WebConfig(AppConfig):
    """The player-facing web pages: lobby, game page, replay (the JSON API lives in games.api)."""

    name = "games.web"
    label = "web"
    default_auto_field = "django.db.models.BigAutoField"
