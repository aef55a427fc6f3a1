"""Weval's own normalized output for 40 real blueprints: ours must be JSON-equal."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.blueprint import load_blueprint
from engine.errors import BlueprintError
from engine.js.values import js_clean
from tests.conftest import CORPUS, NO_CORPUS_REASON

CASES = sorted((CORPUS / "normalized").glob("*.normalized.json")) if CORPUS else []
pytestmark = pytest.mark.skipif(CORPUS is None, reason=NO_CORPUS_REASON)


def _expected(case: Path) -> dict:
    return json.loads(case.read_text(encoding="utf-8"))


def test_corpus_is_complete():
    assert len(CASES) == 40
    assert sum(1 for c in CASES if _expected(c)["ok"]) == 38


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name.removesuffix(".normalized.json"))
def test_normalized_matches_weval(case: Path):
    expected = _expected(case)
    source = CORPUS / "blueprints" / expected["source"]
    if expected["ok"]:
        blueprint = load_blueprint(source)
        assert json.loads(json.dumps(js_clean(blueprint.to_weval()))) == expected["normalized"]
    else:
        with pytest.raises(BlueprintError) as info:
            load_blueprint(source)
        err = info.value
        assert err.line is not None and err.column is not None, "rejections must be positioned"
        assert str(err).startswith(f"{source}:{err.line}:{err.column}: ")


def test_rejections_point_where_weval_does():
    err = pytest.raises(
        BlueprintError, load_blueprint, CORPUS / "blueprints" / "maternal-health-uttar-pradesh.yml"
    ).value
    # js-yaml: "bad indentation of a mapping entry (2:25)"
    assert (err.line, err.column) == (2, 25)
    assert "quotes" in err.message
    err = pytest.raises(
        BlueprintError, load_blueprint, CORPUS / "blueprints" / "tool-use-native-test.yml"
    ).value
    assert "toolUse.mode" in err.message and "trace-only" in err.message
    line = (
        (CORPUS / "blueprints" / "tool-use-native-test.yml").read_text().splitlines()[err.line - 1]
    )
    assert "mode:" in line


def test_cli_normalize_prints_weval_json_and_fails_with_position():
    ok = CORPUS / "blueprints" / "strawberry.yml"
    out = subprocess.run(
        [sys.executable, "-m", "engine", "normalize", str(ok), "--format", "weval-json"],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = _expected(CORPUS / "normalized" / "strawberry.normalized.json")["normalized"]
    assert json.loads(out.stdout) == expected
    bad = CORPUS / "blueprints" / "maternal-health-uttar-pradesh.yml"
    out = subprocess.run(
        [sys.executable, "-m", "engine", "normalize", str(bad), "--format", "weval-json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert out.stdout == ""
    assert re.match(rf"^{re.escape(str(bad))}:2:25: ", out.stderr)
    assert "Traceback" not in out.stderr
