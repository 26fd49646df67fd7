from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "games.mail"
    label = "mail"
    verbose_name = "Play by email"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the games signals and anymail's inbound signal)
