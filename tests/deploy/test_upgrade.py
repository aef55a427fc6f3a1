"""Upgrading: a database made by an earlier release, migrated by this one, keeps every row.

Migrations are append-only (`engine/store/migrations.py`), so the schema an earlier release
made is the first N migrations of today's list; the released ones are pinned below by their
SQL, so an edit to one (which a database that already applied it would never see) fails here.
For every earlier release the test builds its schema, fills it with what a release writes (a
run with its answers, calls and scores, a draft, a share link, a member, a review), runs
`blueprint db migrate` as docs/deploy.md says, and reads the data back through the store.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner

from engine.cli import cli
from engine.store import ReviewRow, open_store
from engine.store.migrations import MIGRATIONS, statements
from engine.store.postgres import close_pools
from engine.store.sqlite import SQLiteStore
from tests.conftest import EXAMPLES
from tests.store.pg import fresh_database
from tests.studio.helpers import make_run

RELEASED = {
    "001_runs_cells_calls": "ac43497d",
    "002_drafts": "378a22fe",
    "003_call_reuses": "23874f58",
    "004_share_links": "55cf175c",
    "005_users": "ab3da0ec",
    "006_draft_versions": "8b5b375a",
    "007_draft_authors": "c4958cac",
    "008_reviews": "c27a2a18",
    "009_run_queue": "87b099be",
    "010_executive_summaries": "d19d262a",
}
"""Each released migration's fingerprint (see `_fingerprint`): never edit an applied one."""

EARLIER = range(1, len(RELEASED))
"""Earlier releases by the number of migrations their schema had (the latest has them all)."""


def _fingerprint(sql: str | dict[str, str]) -> str:
    texts = [sql] if isinstance(sql, str) else [sql["sqlite"], sql["postgres"]]
    words = " ".join(" ".join(t.split()) for t in texts)
    return hashlib.sha256(words.encode()).hexdigest()[:8]


def test_released_migrations_are_never_edited_nor_reordered():
    names = [name for name, _ in MIGRATIONS]
    assert names[: len(RELEASED)] == list(RELEASED), "released migrations keep their order"
    for name, sql in MIGRATIONS[: len(RELEASED)]:
        assert _fingerprint(sql) == RELEASED[name], f"{name} was edited after its release"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[SQLiteStore, str, str]:
    """A store filled by the engine: (store, run id, share-link token)."""
    store = SQLiteStore(tmp_path_factory.mktemp("release") / "studio.db")
    text = (EXAMPLES / "functions.yml").read_text()
    run_id = make_run(store, text, ["ideal"], source="functions.yml")
    store.save_draft("d-upgrade", text, "Functions", explicit=True, author="alice@example.org")
    link = store.create_share_link(run_id, "team", created_by="alice@example.org")
    store.record_login("alice@example.org", "Alice", "admin")
    store.save_reviews(
        [
            ReviewRow(
                prompt_id="capital",
                model_id="ideal",
                answer_hash="a" * 64,
                criterion_hash="c" * 64,
                author="alice@example.org",
                criterion="Names Paris",
                verdict="agree",
                score=1.0,
                judge_score=1.0,
                comment="fine",
                run_id=run_id,
                point_index=0,
                created_at="2026-12-01T00:00:00.000+00:00",
            )
        ]
    )
    return store, run_id, link.token


def _columns_sqlite(conn: sqlite3.Connection) -> dict[str, list[str]]:
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'schema_migrations'"
        )
    ]
    return {t: [r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')] for t in tables}


def _columns_postgres(conn: psycopg.Connection[Any]) -> dict[str, list[str]]:
    rows = conn.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' "
        "ORDER BY table_name, ordinal_position"
    ).fetchall()
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(str(table), []).append(str(column))
    return out


def _source_rows(source: Path, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
    names = ", ".join(f'"{c}"' for c in columns)
    with sqlite3.connect(source) as conn:
        return conn.execute(f'SELECT {names} FROM "{table}"').fetchall()


def _old_sqlite(path: Path, count: int, source: Path) -> dict[str, list[str]]:
    """A SQLite store as the release with `count` migrations left it, filled from `source`."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, sql in MIGRATIONS[:count]:
        for statement in statements(sql, "sqlite"):
            conn.execute(statement)
        conn.execute(
            "INSERT INTO schema_migrations VALUES (?, '2026-11-01T00:00:00+00:00')", (name,)
        )
    old = _columns_sqlite(conn)
    for table, columns in _fill_order(old):
        marks = ", ".join("?" for _ in columns)
        names = ", ".join(f'"{c}"' for c in columns)
        conn.executemany(
            f'INSERT INTO "{table}" ({names}) VALUES ({marks})',
            _source_rows(source, table, columns),
        )
    conn.close()
    return old


def _old_postgres(url: str, count: int, source: Path) -> dict[str, list[str]]:
    """A PostgreSQL store as the release with `count` migrations left it, filled from `source`."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        for name, sql in MIGRATIONS[:count]:
            for statement in statements(sql, "postgres"):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (%s, '2026-11-01T00:00:00+00:00')", (name,)
            )
        old = _columns_postgres(conn)
        for table, columns in _fill_order(old):
            marks = ", ".join("%s" for _ in columns)
            names = ", ".join(f'"{c}"' for c in columns)
            with conn.cursor() as cur:
                cur.executemany(
                    f'INSERT INTO "{table}" ({names}) VALUES ({marks})',
                    _source_rows(source, table, columns),
                )
    return old


def _fill_order(old: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    """Tables in an order that satisfies their foreign keys (blueprints, then runs, then the rest)."""
    first = ["blueprints", "runs", "drafts"]
    return [
        (t, old[t])
        for t in sorted(old, key=lambda t: (t not in first, first.index(t) if t in first else 0, t))
    ]


def _normal(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Rows comparable across backends: numbers as floats, sorted."""
    out = [
        tuple(float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v for v in r)
        for r in rows
    ]
    return sorted(out, key=repr)


def _check(
    store: Any, old: dict[str, list[str]], source: SQLiteStore, run_id: str, token: str, count: int
) -> None:
    """Every row of the old schema is there, and the store reads the release's data."""
    assert store.applied_migrations() == sorted(name for name, _ in MIGRATIONS)
    for table, columns in old.items():
        names = ", ".join(f'"{c}"' for c in columns)
        upgraded = store._read(f'SELECT {names} FROM "{table}"')
        assert _normal(list(upgraded)) == _normal(_source_rows(source.path, table, columns)), table
    run, before = store.get_run(run_id), source.get_run(run_id)
    assert run is not None and before is not None
    assert (run.title, run.status, run.done_cells, run.total_cells) == (
        before.title,
        before.status,
        before.done_cells,
        before.total_cells,
    )
    assert run.live_status == "completed"
    scores = sorted((c.prompt_id, c.model_id, c.score) for c in store.cells(run_id))
    assert scores == sorted((c.prompt_id, c.model_id, c.score) for c in source.cells(run_id))
    assert scores and all(s is not None for _, _, s in scores)
    if count >= 2:
        assert store.draft("d-upgrade") == source.draft("d-upgrade")
    if count >= 4:
        link = store.share_link(token)
        assert link is not None and link.run_id == run_id and link.state() == "active"
    if count >= 5:
        member = store.user("alice@example.org")
        assert member is not None and member.role == "admin"


def _migrate(location: str) -> str:
    result = CliRunner().invoke(cli, ["db", "migrate", "--url", location])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("count", EARLIER)
def test_a_sqlite_store_of_an_earlier_release_upgrades(
    count: int, made: tuple[SQLiteStore, str, str], tmp_path: Path
):
    source, run_id, token = made
    path = tmp_path / "studio.db"
    old = _old_sqlite(path, count, source.path)
    printed = _migrate(str(path))
    for name, _ in MIGRATIONS[count:]:
        assert f"applied {name}" in printed
    assert f"{len(MIGRATIONS) - count} applied now" in printed
    _check(open_store(path), old, source, run_id, token, count)
    assert "0 applied now" in _migrate(str(path))  # a second run changes nothing


@pytest.mark.parametrize("count", [1, 5, 8, len(RELEASED) - 1])
def test_a_postgres_store_of_an_earlier_release_upgrades(
    count: int, made: tuple[SQLiteStore, str, str]
):
    source, run_id, token = made
    with fresh_database("blueprint_upgrade") as url:
        old = _old_postgres(url, count, source.path)
        printed = _migrate(url)
        for name, _ in MIGRATIONS[count:]:
            assert f"applied {name}" in printed
        assert "created the queue's tables" in printed
        _check(open_store(url), old, source, run_id, token, count)
        close_pools()
