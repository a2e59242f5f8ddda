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

_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ")),
  }));
}"""


def axe_path() -> Path:
    assert AXE.is_file(), (
        f"axe-core is missing ({AXE}): run `npm install --prefix var/node "
        f"axe-core@{AXE_VERSION}` (scripts/test.sh does)"
    )
    return AXE


def axe_violations(page) -> list[dict[str, Any]]:
    """Every axe-core violation on the page as it is now (injected once per document)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_path()))
    violations: list[dict[str, Any]] = page.evaluate(_RUN)
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
    """Per page, every violation axe found (the notes quote the counts)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, sort_keys=True))
