"""Set up Django on a throw-away test database for a benchmark (never touches the real one)."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup() -> str:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faltisia.test_settings")
    import django

    django.setup()
    from django.db import connection

    return connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)


def teardown(old_name: str) -> None:
    from django.db import connection

    connection.creation.destroy_test_db(old_name, verbosity=0)
