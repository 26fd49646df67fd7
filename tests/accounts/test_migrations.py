"""The accounts migrations that add address verification and case-blind usernames keep existing data
working: active players with an address stay mailable (verified), banned ones stay banned, and names equal
but for case are told apart with a suffix so the case-insensitive unique constraint can be added."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("accounts", "0001_initial")]


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_existing_users_survive_the_verification_and_username_migrations():
    executor = _migrate(BEFORE)
    try:
        OldUser = executor.loader.project_state(BEFORE).apps.get_model("accounts", "User")
        for name, email, active in [("alice", "a@example.org", True), ("ALICE", "b@example.org", True),
                                    ("ALICE-2", "c@example.org", True), ("Alice", "", True),
                                    ("banned", "d@example.org", False)]:
            OldUser.objects.create(username=name, email=email, is_active=active, password="!")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    from accounts.models import User

    rows = {u.email or "none": (u.username, u.is_active, u.email_verified_at is not None)
            for u in User.objects.all()}
    assert rows == {"a@example.org": ("alice", True, True), "b@example.org": ("ALICE-3", True, True),
                    "c@example.org": ("ALICE-2", True, True), "none": ("Alice-4", True, False),
                    "d@example.org": ("banned", False, False)}
