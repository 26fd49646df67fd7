"""Token authentication for the JSON API: one hand-written query, and on PostgreSQL a per-process cache of
the token and user rows that every request revalidates in the round trip it already paid for.

DRF's TokenAuthentication reads the token and its user with an ORM query compiled on every request;
under the load benchmark that costs ~30% of the web processes' CPU (py-spy), more than any pick's own
work. Same header, same errors, same result (``request.user`` the active user, ``request.auth`` the
token): only the lookup is written out (sql_rows.py).

The cache. Without it each API request makes two round trips before its view runs: Django's
connection health check (``CONN_HEALTH_CHECKS``: a ``SELECT 1`` on the first query of a request) and
the token query (~290 µs of a web process's CPU, most of it Django's cursor layer and the two model
instances). With it, on PostgreSQL, a request whose token this process has seen sends one small query
instead, straight through psycopg: the *row versions* of the token and of its user (``xmin``, the
transaction that wrote the row version, and ``ctid``, where it lies). Any change to either row makes a
new row version (an UPDATE writes a new tuple, so a deactivation, a password or staff change, a login;
a DELETE leaves no row at all), so:

- a token revoked (deleted, or rotated: accounts.preferences) finds no row: 401 at once, in every
  process, however it was deleted (a QuerySet delete, the admin, SQL by hand);
- an account deactivated (or changed in any way) has a new version: the rows are read again and the
  inactive account refused at once; nothing relies on signals, which QuerySet.update does not send;
- only when both versions are the ones cached is the cached row used (fresh model instances are made
  from it per request: no instance is shared between requests or threads).

That query is also the request's health check: it is the request's first statement, sent before
Django's own ``SELECT 1`` would be, and a dead persistent connection (a database restart) is closed and
the query sent again on a new one, which is what the health check does. On SQLite (the embedded mode, one
process, no round trips) the lookup is the hand-written query alone, with no cache.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from accounts.models import User

from .sql_rows import ModelColumns, default_connection, fetch_one, quoted, statement, table

_USER = ModelColumns(User, "u")
_TOKEN = ModelColumns(Token, "t")
_TOKEN_USER = Token._meta.get_field("user")

# At most this many tokens are cached per web process (then the cache starts again empty): a token is a
# few hundred bytes, and a process serves the players of its connections, far fewer.
TOKEN_CACHE_SIZE = 10_000
# key -> (row versions, the token's and the user's columns as read). Reads and writes of one dict entry
# are atomic under the GIL: a web process's threads share it without a lock.
_cache: dict[str, tuple[tuple, tuple]] = {}

# The row versions of the token and its user: xmin and ctid (as text: psycopg has no loader for xid, tid).
_VERSIONS = "t.xmin::text, t.ctid::text, u.xmin::text, u.ctid::text"


def _from(token_table: str, user_table: str) -> str:
    return (f" FROM {token_table} t JOIN {user_table} u ON u.{quoted('id')} = t.{quoted('user_id')}"
            f" WHERE t.{quoted('key')} = %s")


class FastTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, as DRF's, with the token and its user read in one query (cached
    per process on PostgreSQL, revalidated by row version on every request)."""

    def authenticate_credentials(self, key: str):
        if "\x00" in key:  # no token holds a NUL, and PostgreSQL refuses one in a query (a 500, not a 401)
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        row = self._cached_row(key) if default_connection().vendor == "postgresql" else self._row(key)
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, user = _TOKEN.instance(row), _USER.instance(row, len(_TOKEN))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        # The token's link to its user only, not the user's back to the token (``token.user = user`` sets both, one
        # to one): a cycle would leave both for the garbage collector instead of freeing them with the request.
        _TOKEN_USER.set_cached_value(token, user)
        return user, token

    @staticmethod
    def _row(key: str, *, with_versions: bool = False) -> tuple | None:
        """The token's and its user's columns (after their row versions if ``with_versions``), or None."""
        sql = statement(("token_with_user", with_versions), lambda: (
            f"SELECT {_VERSIONS + ', ' if with_versions else ''}{_TOKEN.sql()}, {_USER.sql()}"
            + _from(table(Token), table(User))))
        return fetch_one(sql, [key])

    def _cached_row(self, key: str) -> tuple | None:
        cached = _cache.get(key)
        if cached is not None:
            versions = _versions_checked(key)
            if versions is None:  # revoked: forget it
                _cache.pop(key, None)
                return None
            if versions == cached[0]:
                return cached[1]
        row = self._row(key, with_versions=True)
        if row is None:
            _cache.pop(key, None)
            return None
        if len(_cache) >= TOKEN_CACHE_SIZE:
            _cache.clear()
        _cache[key] = (tuple(row[:4]), tuple(row[4:]))
        return row[4:]


_VERSIONS_SQL: list[str] = []


def _versions_sql() -> str:
    if not _VERSIONS_SQL:
        _VERSIONS_SQL.append(f"SELECT {_VERSIONS}" + _from(table(Token), table(User)))
    return _VERSIONS_SQL[0]


def _versions_checked(key: str) -> tuple | None:
    """The token's and its user's row versions, or None if no such token: one small statement through
    psycopg itself (Django's cursor layer cost more CPU than the query), which is also the request's
    connection health check."""
    from django.db.backends.postgresql.base import Database

    db = default_connection()
    db.ensure_connection()
    checking = db.health_check_enabled and not db.health_check_done and not db.in_atomic_block
    db.health_check_done = True
    try:
        row = db.connection.execute(_versions_sql(), [key]).fetchone()
    except Database.Error:
        if not checking:
            raise
        db.close()  # a dead persistent connection: what the health check would have done
        db.ensure_connection()
        row = db.connection.execute(_versions_sql(), [key]).fetchone()
    return None if row is None else tuple(row)
