"""axe-core in the Chromium tests: the accessibility checks a page must pass.

axe-core comes from npm into var/node/ (scripts/test.sh and scripts/bootstrap.sh install it;
`npm install --prefix var/node axe-core@AXE_VERSION` by hand). A test that asks for it fails,
never skips, when it is missing: a missing checker must not read as a clean page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
AXE_VERSION = "4.14.1"
AXE = ROOT / "var" / "node" / "node_modules" / "axe-core" / "axe.min.js"
# What a page may not have: axe's two top impacts. Moderate and minor ones are reported.
BLOCKING = {"serious", "critical"}

# Violations, and the checks axe could not decide (listed in the report, for a person to
# look at: a contrast over an image, say).
_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations", "incomplete"] });
  const brief = (v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ")),
  });
  return { violations: result.violations.map(brief), undecided: result.incomplete.map(brief) };
}"""
UNDECIDED: dict[str, list[dict[str, Any]]] = {}


def axe_path() -> Path:
    assert AXE.is_file(), (
        f"axe-core is missing ({AXE}): run `npm install --prefix var/node "
        f"axe-core@{AXE_VERSION}` (scripts/test.sh does)"
    )
    return AXE


def axe_violations(page) -> list[dict[str, Any]]:
    """Every axe-core violation on the page as it is now (injected once per document); what
    axe could not decide is kept in UNDECIDED under the page's address."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_path()))
    found = page.evaluate(_RUN)
    UNDECIDED[page.url] = found["undecided"]
    violations: list[dict[str, Any]] = found["violations"]
    return violations


# References by id that lead nowhere: axe accepts an aria-describedby whose ids are missing,
# and a screen reader then reads no help and no error for the field.
_DANGLING = """() => {
  const found = [];
  for (const attr of ["aria-describedby", "aria-labelledby", "aria-controls", "for"]) {
    for (const el of document.querySelectorAll(`[${attr}]`)) {
      for (const id of el.getAttribute(attr).split(/\\s+/).filter(Boolean)) {
        if (!document.getElementById(id)) found.push(`${el.tagName} ${attr}=${id}`);
      }
    }
  }
  return found;
}"""


def dangling_references(page) -> list[str]:
    found: list[str] = page.evaluate(_DANGLING)
    return found


def blocking(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in violations if v["impact"] in BLOCKING]


def write_report(path: Path, report: dict[str, list[dict[str, Any]]]) -> None:
    """Per page, every violation axe found, and per address what it could not decide."""
    path.parent.mkdir(parents=True, exist_ok=True)
    both = {"violations": report, "undecided": UNDECIDED}
    path.write_text(json.dumps(both, indent=1, sort_keys=True))
