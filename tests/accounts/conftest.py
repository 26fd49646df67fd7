"""Clients whose requests run their on-commit callbacks (the verification and reset mails), as after a
real commit; pytest-django's test transaction never commits."""

from __future__ import annotations

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from tests.web.conftest import CommitClient


class CommitAPIClient(APIClient):
    def request(self, **request):
        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().request(**request)


@pytest.fixture
def client():
    return CommitClient()


@pytest.fixture
def api_client():
    return CommitAPIClient()
