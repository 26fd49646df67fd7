"""accounts.authentication.FastTokenAuthentication: DRF's token contract, in one query."""

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
    from accounts.authentication import FastTokenAuthentication

    user, token = FastTokenAuthentication().authenticate_credentials(player.auth_token.key)
    assert user.pk == player.pk and user.username == "ada" and user.email == "ada@example.org"
    assert user.timezone == player.timezone and token.key == player.auth_token.key and token.user is user
