"""The attack suite (issue 10, "Keep them closed"): every test here carries the ``security`` marker, so
``pytest -m security`` runs it alone and ``-m "not security"`` leaves it out. docs/security.md says more."""

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/security/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.security)
