"""Token authentication for the JSON API, in one hand-written query.

DRF's TokenAuthentication reads the token and its user with an ORM query compiled on every request;
under the load benchmark that was ~30% of the web processes' CPU (py-spy), more than any pick's own
work. Same header, same errors, same result (``request.user`` the active user, ``request.auth`` the
token): only the lookup is written out (games/sql_rows).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from games.sql_rows import ModelColumns, fetch_one, quoted, statement, table

from .models import User

_USER = ModelColumns(User, "u")
_TOKEN = ModelColumns(Token, "t")


class FastTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the token and its user read in one query."""

    def authenticate_credentials(self, key: str):
        if "\x00" in key:  # no token holds a NUL, and PostgreSQL refuses one in a query (a 500, not a 401)
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        sql = statement("token_with_user", lambda: (
            f"SELECT {_TOKEN.sql()}, {_USER.sql()} FROM {table(Token)} t"
            f" JOIN {table(User)} u ON u.{quoted('id')} = t.{quoted('user_id')} WHERE t.{quoted('key')} = %s"))
        row = fetch_one(sql, [key])
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, user = _TOKEN.instance(row), _USER.instance(row, len(_TOKEN))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token.user = user
        return user, token
