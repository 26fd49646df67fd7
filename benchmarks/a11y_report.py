"""The accessibility and phone figures (docs/benchmarks.md) from the accessibility browser tests' measurements
(var/a11y/*.json, written by tests/browser/test_accessibility.py): per page type and viewport, axe-core's
serious/critical violations and all violations, tap targets under 44 and under 24 CSS px, the page height; then
the page load p50/p95.

    .venv/bin/pytest -q -p no:cacheprovider -m browser tests/browser/test_accessibility.py
    .venv/bin/python benchmarks/a11y_report.py [var/a11y]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from stats import percentile  # noqa: E402  (benchmarks/ is the script's folder)


def main(folder: Path) -> None:
    rows = sorted((json.loads(p.read_text()) for p in folder.glob("*.json")), key=lambda r: (r["page"], r["viewport"]))
    if not rows:
        raise SystemExit(f"no measurements in {folder}: run tests/browser/test_accessibility.py first")
    print(f"{'page':28} {'viewport':8} {'serious+':>8} {'all axe':>7} {'targets':>7} {'<44px':>6} {'<24px':>6} "
          f"{'height':>7} {'load ms':>7}")
    for r in rows:
        print(f"{r['page']:28} {r['viewport']:8} {sum(v['count'] for v in r['blocking']):>8} "
              f"{sum(v['count'] for v in r['violations']):>7} {r['targets']:>7} {r['under_44']:>6} {r['under_24']:>6} "
              f"{r['height']:>7} {r.get('load_ms') or '-':>7}")
    ids = sorted({v["id"] for r in rows for v in r["blocking"]})
    print("serious/critical rules seen:", ", ".join(ids) or "none")
    for viewport in ("desktop", "phone"):
        mine = [r for r in rows if r["viewport"] == viewport]
        print(f"{viewport}: {len(mine)} pages, serious+critical nodes {sum(v['count'] for r in mine for v in r['blocking'])}, "
              f"targets {sum(r['targets'] for r in mine)}, under 44 px {sum(r['under_44'] for r in mine)}, "
              f"under 24 px {sum(r['under_24'] for r in mine)}")
    loads = sorted(r["load_ms"] for r in rows if r.get("load_ms"))
    if loads:
        print(f"page load (navigation to load event, {len(loads)} pages): p50 {percentile(loads, 50):.0f} ms, "
              f"p95 {percentile(loads, 95):.0f} ms")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "var" / "a11y")
