"""Every setting read from the environment is documented where an operator looks: README.md or docs/."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# env("X", ...), env.bool("X", ...), env.db("X"), ... and the names given through env(...) defaults.
ENV_READ = re.compile(r"""\benv(?:\.\w+)?\(\s*["']([A-Z][A-Z0-9_]*)["']""")


def env_names() -> set[str]:
    return set(ENV_READ.findall((ROOT / "faltisia" / "settings.py").read_text()))


def test_the_settings_read_the_environment_through_env():
    names = env_names()
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "CACHE_URL"} <= names  # the pattern finds them


def test_every_environment_variable_is_documented():
    documented = (ROOT / "README.md").read_text() + "".join(p.read_text() for p in (ROOT / "docs").rglob("*.md"))
    missing = sorted(n for n in env_names() if not re.search(rf"`{n}`|\b{n}=", documented))
    assert not missing, f"read from the environment but documented nowhere (README.md or docs/): {missing}"
