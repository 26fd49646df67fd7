"""What the accessibility tests measure on a page: axe-core's violations, the tap targets
under 44 (and 24) CSS px, the page's height; with a screenshot in var/screenshots/ and one JSON line per page in
var/a11y/ that benchmarks/a11y_report.py turns into its report's tables.

axe-core is the npm package at node_modules/axe-core (package.json at the repo root; `npm ci` installs it, .ci/run
does). Without it the tests skip locally and fail under REQUIRE_SERVICES=1 (CI), as chromium's absence would not.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "var" / "screenshots"
REPORTS = ROOT / "var" / "a11y"
BLOCKING = ("serious", "critical")

# The touch screen: a 390x844 phone with touch (so `(pointer: coarse)` matches) and the desktop without.
CONTEXTS = {"desktop": {"viewport": {"width": 1280, "height": 800}},
            "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}


def axe_source() -> str:
    if not AXE.exists():
        message = f"axe-core is not installed ({AXE.relative_to(ROOT)}; run `npm ci --no-audit --no-fund`)"
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text()


# Interactive elements as a finger meets them. A checkbox or radio inside a label is hit through its label, so the
# label is measured; links inside a sentence are WCAG 2.5.8's "inline" exception and counted apart.
TARGETS_JS = """() => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex="-1"]), [role=button]';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    let box = el;
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) box = el.closest('label');
    if (el.closest('[hidden], [inert]')) continue;
    const r = box.getBoundingClientRect();
    const style = getComputedStyle(box);
    if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
    // a link set in running text (a sentence around it) is the inline exception
    let inline = false;
    if (el.tagName === 'A' && getComputedStyle(el).display === 'inline') {
      const parent = el.parentElement;
      const text = (parent.textContent || '').trim().length;
      inline = text > (el.textContent || '').trim().length + 3;
    }
    const name = (el.getAttribute('aria-label') || el.textContent || el.value || el.name || el.tagName).trim().slice(0, 40);
    out.push({tag: el.tagName.toLowerCase(), name, w: Math.round(r.width), h: Math.round(r.height), inline});
  }
  return out;
}"""


def measure(page, *, name: str, viewport: str, axe: str) -> dict:
    """Run axe-core and the target count on the page as it stands; screenshot it; write its JSON line."""
    page.wait_for_load_state("load")
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=axe)
    results = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                     nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ')), count: v.nodes.length}));
    }""")
    targets = page.evaluate(TARGETS_JS)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    # the page load as the browser timed it (navigation start to the load event), for the p95 in the report
    load_ms = page.evaluate("() => { const n = performance.getEntriesByType('navigation')[0];"
                            " return n ? Math.round(n.loadEventEnd - n.startTime) : null; }")
    small = [t for t in targets if not t["inline"] and (t["w"] < 44 or t["h"] < 44)]
    tiny = [t for t in targets if not t["inline"] and (t["w"] < 24 or t["h"] < 24)]
    row = {"page": name, "viewport": viewport, "height": height, "load_ms": load_ms, "targets": len(targets),
           "under_44": len(small), "under_24": len(tiny), "small": small[:40], "tiny": tiny[:40],
           "violations": results,
           "blocking": [v for v in results if v["impact"] in BLOCKING]}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{viewport}.png"), full_page=True)
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / f"{name}-{viewport}.json").write_text(json.dumps(row, indent=1))
    return row


def problems(row: dict) -> list[str]:
    """What fails a measured page: a serious or critical axe violation; a target under 24 px;
    on the touch screen, a target under 44 px."""
    found = [f"{row['page']} {row['viewport']}: axe {v['impact']} {v['id']} ({v['help']}) at {v['nodes']}"
             for v in row["blocking"]]
    found += [f"{row['page']} {row['viewport']}: target under 24 px {t}" for t in row["tiny"]]
    if row["viewport"] == "phone":
        found += [f"{row['page']} phone: target under 44 px {t}" for t in row["small"]]
    return found
