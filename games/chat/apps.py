from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "games.chat"
    label = "chat"
    verbose_name = "Table talk"
    default_auto_field = "django.db.models.BigAutoField"
