"""Model fields of the games app.

``JSONField`` stores JSON as Django's does (jsonb on PostgreSQL, text on SQLite) and reads it back with Django's
own code, but writes it with games/engines/json_text.py (orjson where that is exact). The engine state, the
prompts' options and the events' data are written on every pick, and the standard library's encoder costs ~5%
of a web process's CPU under load (a 3 KB Faltisia state: 29 us against orjson's 4.4).
"""

from __future__ import annotations

from django.db import models

from .engines import json_text


class JSONField(models.JSONField):
    def get_db_prep_value(self, value, connection, prepared=False):
        if self.encoder is not None or connection.vendor not in ("postgresql", "sqlite"):
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "sqlite":
            return json_text.dumps(value).decode()
        from django.db.backends.postgresql.psycopg_any import Jsonb

        return Jsonb(value, dumps=json_text.dumps)
