"""The store owns its schema: no SQL statement is written outside `engine/store`."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
_SQL = re.compile(
    r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX)"
    r"|ALTER\s+TABLE|pg_advisory|to_regclass)\b",
    re.IGNORECASE | re.DOTALL,
)


def _sql_strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of `path` that read as SQL, with their line."""
    found = []
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    for tok in tokens:
        if tok.type == tokenize.STRING and _SQL.search(tok.string):
            found.append((tok.start[0], tok.string[:60]))
    return found


def test_no_sql_is_written_outside_the_store() -> None:
    outside = [
        f"{path.relative_to(REPO)}:{line}: {text}"
        for folder in ("engine", "studio")
        for path in sorted((REPO / folder).rglob("*.py"))
        if "engine/store/" not in path.relative_to(REPO).as_posix()
        for line, text in _sql_strings(path)
    ]
    assert outside == []


def test_the_check_finds_sql_where_it_is() -> None:
    # the store's own modules are full of it: the scan would see a statement moved out
    assert _sql_strings(REPO / "engine" / "store" / "sql.py")
    assert _sql_strings(REPO / "engine" / "store" / "queue_schema.py")
