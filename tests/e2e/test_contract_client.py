"""The contract client the README points at (contract/api_client_check.py) plays a whole game through the
JSON API of a live server, as a fresh clone runs it: a subprocess with only the standard library."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "contract" / "api_client_check.py"


def test_the_client_needs_only_the_standard_library():
    imported = set()
    for node in ast.walk(ast.parse(CLIENT.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0])
    assert imported and imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names


@pytest.mark.e2e
@pytest.mark.parametrize("game, seats", [("tinygame", 2), ("faltisia", 2)])
def test_the_contract_client_plays_a_whole_game_against_a_live_server(live_server, game, seats):
    # Eager Celery (the test settings): each step resolves within the pick's request, as the embedded
    # server does.
    result = subprocess.run([sys.executable, str(CLIENT), live_server.url, "--game", game, "--seats", str(seats),
                             "--timeout", "120"], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["ok"] is True and summary["picks"] > 0, summary
