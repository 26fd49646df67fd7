from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "games.mail"
    label = "mail"
    verbose_name = "Play by email"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import checks, receivers  # noqa: F401  (receivers connect the games signals and anymail's inbound one)

        checks.inbound_webhook_enforce()  # production refuses to start with an unprotected inbound webhook
