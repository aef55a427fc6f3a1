"""axe-core (from the npm registry) injected into studio pages: WCAG 2.1 AA violations found."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("BLUEPRINT_AXE", REPO / "tests/.node/node_modules/axe-core/axe.min.js"))
INSTALL = "npm install --prefix tests/.node --no-save axe-core@4"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_source() -> str:
    """The axe-core script; skips (fails under CI) when it is not installed."""
    if AXE.is_file():
        return AXE.read_text(encoding="utf-8")
    reason = f"{AXE} is missing: run `{INSTALL}` (scripts/test does it when npm is there)"
    if os.environ.get("CI"):
        pytest.fail(reason + " (CI is set, so this is a failure, not a skip)")
    pytest.skip(reason)


def serious_violations(page: Any, source: str) -> list[str]:
    """Serious and critical WCAG 2.1 A/AA violations on the page, one line each."""
    page.add_script_tag(content=source)
    found = page.evaluate(
        """async (tags) => {
          const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
          return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => `${v.impact} ${v.id} (${v.nodes.length}): ${v.help} :: ` +
                 v.nodes.slice(0, 2).map(n => n.target.join(" ") + " " + (n.html || "").slice(0, 120) + " " + (n.failureSummary || "").slice(0, 200)).join(" | "));
        }""",
        TAGS,
    )
    return [str(line) for line in found]
