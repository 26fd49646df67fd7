"""games.fastpath.token_auth.FastTokenAuthentication: DRF's token contract, in one query."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.services import user_create


@pytest.fixture
def player(db):
    return user_create(username="ada", email="ada@example.org", password="Horse-battery-9")


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_valid_token_authenticates_its_user_in_one_query(player):
    with CaptureQueriesContext(connection) as ctx:
        r = _client(player.auth_token.key).get("/api/games/")
    assert r.status_code == 200
    token_reads = [q["sql"] for q in ctx.captured_queries if "authtoken_token" in q["sql"]]
    assert len(token_reads) == 1 and '"accounts_user"' in token_reads[0]


@pytest.mark.parametrize("header", ["Token nope", "Token", "Token a b", "Bearer x"])
def test_a_bad_token_is_refused_with_the_contract_error(player, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    r = client.get("/api/games/")
    assert r.status_code == 401
    body = r.json()
    assert set(body) >= {"error", "detail"}


def test_an_inactive_players_token_is_refused(player):
    key = player.auth_token.key
    player.is_active = False
    player.save(update_fields=["is_active"])
    r = _client(key).get("/api/games/")
    assert r.status_code == 401 and "inactive" in r.json()["detail"].lower()


def test_the_request_carries_the_full_user_and_the_token(player, rf):
    from games.fastpath.token_auth import FastTokenAuthentication

    user, token = FastTokenAuthentication().authenticate_credentials(player.auth_token.key)
    assert user.pk == player.pk and user.username == "ada" and user.email == "ada@example.org"
    assert user.timezone == player.timezone and token.key == player.auth_token.key and token.user is user


# --- the per-process cache (PostgreSQL): revalidated by row version on every request --------------------

def _authenticate(key: str):
    from games.fastpath.token_auth import FastTokenAuthentication

    return FastTokenAuthentication().authenticate_credentials(key)


def _token_reads(ctx) -> list[str]:
    return [q["sql"] for q in ctx.captured_queries if "authtoken_token" in q["sql"]]


@pytest.mark.postgres
def test_a_cached_token_costs_no_read_of_its_rows(player):
    key = player.auth_token.key
    _authenticate(key)  # cached now
    with CaptureQueriesContext(connection) as ctx:
        r = _client(key).get("/api/games/")
    assert r.status_code == 200
    assert _token_reads(ctx) == []  # only the row-version check, sent through psycopg itself


@pytest.mark.postgres
@pytest.mark.parametrize("revoke", ["queryset_delete", "instance_delete", "rotate"])
def test_a_revoked_token_is_refused_at_once_though_cached(player, revoke):
    from rest_framework.authtoken.models import Token

    from accounts.preferences import token_regenerate

    key = player.auth_token.key
    assert _client(key).get("/api/games/").status_code == 200  # cached in this process
    if revoke == "queryset_delete":
        Token.objects.filter(key=key).delete()
    elif revoke == "instance_delete":
        Token.objects.get(key=key).delete()
    else:
        new_key = token_regenerate(user=player)
        assert _client(new_key).get("/api/games/").status_code == 200
    r = _client(key).get("/api/games/")
    assert r.status_code == 401 and r.json()["error"]
    from rest_framework.exceptions import AuthenticationFailed
    with pytest.raises(AuthenticationFailed):
        _authenticate(key)


@pytest.mark.postgres
@pytest.mark.parametrize("how", ["save", "queryset_update"])
def test_a_deactivated_account_is_refused_at_once_though_cached(player, how):
    from accounts.models import User

    key = player.auth_token.key
    assert _client(key).get("/api/games/").status_code == 200  # cached
    if how == "save":
        player.is_active = False
        player.save(update_fields=["is_active"])
    else:  # no signal is sent: the row's new version is what tells
        User.objects.filter(pk=player.pk).update(is_active=False)
    r = _client(key).get("/api/games/")
    assert r.status_code == 401 and "inactive" in r.json()["detail"].lower()
    User.objects.filter(pk=player.pk).update(is_active=True)
    assert _client(key).get("/api/games/").status_code == 200


@pytest.mark.postgres
def test_any_change_to_the_user_reaches_the_next_request(player):
    from accounts.models import User

    key = player.auth_token.key
    user, _ = _authenticate(key)
    assert not user.is_staff
    User.objects.filter(pk=player.pk).update(is_staff=True, username="ada2")
    user, token = _authenticate(key)
    assert user.is_staff and user.username == "ada2" and token.user is user


@pytest.mark.postgres
def test_cached_requests_get_instances_of_their_own(player):
    key = player.auth_token.key
    first, _ = _authenticate(key)
    first.username = "changed in one request only"
    second, _ = _authenticate(key)
    assert second is not first and second.username == "ada"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_token_check_replaces_a_dead_connection_as_the_health_check_did():
    """The row-version check is the request's first statement and stands in for Django's health check: a
    persistent connection the database dropped is replaced and the request answers as usual."""
    from django.db import close_old_connections

    user = user_create(username="bea", email="bea@example.org", password="Horse-battery-9")
    key = user.auth_token.key
    assert _client(key).get("/api/games/").status_code == 200  # cached
    pid = connection.connection.info.backend_pid  # the server ends this backend, as a restart would
    import psycopg

    from tests.e2e.stack import database_url
    with psycopg.connect(database_url(connection.settings_dict), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    close_old_connections()  # a request's start: the health check is due again
    connection.health_check_done = False
    r = _client(key).get("/api/games/")
    assert r.status_code == 200
    assert connection.connection.info.backend_pid != pid
