"""The import contracts of .importlinter hold, so the layering stays: engines import nothing of Django nor of
the server, no engine imports another, the presentation reaches engines through the protocol, services and
selectors import no surface, and no package of games/ or accounts/ has an import cycle among its modules.

It runs import-linter's own checker over the source (a static import graph, lazy imports inside functions
included), so a new circle or a layer crossed fails the suite with the chain of imports that does it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache", str(ROOT / ".importlinter")], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    report = result.stdout + result.stderr
    assert result.returncode == 0, report[report.find("Contracts"):] or report
    assert " broken" in report and "0 broken" in report
