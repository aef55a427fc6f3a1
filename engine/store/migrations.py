"""The schema of both backends, as one ordered list of migrations recorded in `schema_migrations`.

How to write a migration (append it; never edit or reorder an applied one):

- `(name, sql)` with one text when the statements are the same on SQLite and PostgreSQL:
  use `TEXT`, `BIGINT` (64-bit on both), `DOUBLE PRECISION` (8-byte on both), `ON CONFLICT`,
  single-quoted strings, and no `PRAGMA`, `AUTOINCREMENT`, `BLOB` or `INSERT OR ...`.
- `(name, {"sqlite": sql, "postgres": sql})` where the dialects differ: one migration id,
  per-dialect statements. Both must leave the same tables and columns.
- Statements are split on `;`, so a statement must not contain one (no `$$` bodies).
"""

from __future__ import annotations

import re
import sqlite3
import time
from contextlib import suppress
from datetime import UTC, datetime
from typing import Literal

__all__ = ["MIGRATIONS", "Dialect", "migrate", "now", "statements"]

Dialect = Literal["sqlite", "postgres"]
"""The SQL dialect of a backend."""


def _widened(sql: str) -> str:
    """The PostgreSQL form of SQLite column types: 64-bit integers and 8-byte floats.

    On PostgreSQL `INTEGER` is 32-bit and `REAL` 4-byte; SQLite's are 64-bit and 8-byte.
    """
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", re.sub(r"\bINTEGER\b", "BIGINT", sql))


_V001 = """
        CREATE TABLE blueprints (
            hash TEXT PRIMARY KEY,
            title TEXT,
            source TEXT,
            text TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE runs (
            id TEXT PRIMARY KEY,
            blueprint_hash TEXT NOT NULL REFERENCES blueprints(hash),
            title TEXT,
            config_id TEXT,
            status TEXT NOT NULL,
            options TEXT NOT NULL,
            total_calls INTEGER NOT NULL DEFAULT 0,
            done_calls INTEGER NOT NULL DEFAULT 0,
            cached_calls INTEGER NOT NULL DEFAULT 0,
            failed_calls INTEGER NOT NULL DEFAULT 0,
            total_cells INTEGER NOT NULL DEFAULT 0,
            done_cells INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            started_at TEXT,
            finished_at TEXT,
            heartbeat_at TEXT,
            pid INTEGER,
            error TEXT,
            comparison_path TEXT,
            summary TEXT
        );
        CREATE INDEX runs_created ON runs(created_at);
        CREATE TABLE cells (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            prompt_id TEXT NOT NULL,
            model_id TEXT NOT NULL,
            base_model TEXT NOT NULL,
            status TEXT NOT NULL,
            score REAL,
            response TEXT,
            messages TEXT,
            tool_calls TEXT,
            error TEXT,
            latency_ms REAL,
            input_tokens INTEGER,
            output_tokens INTEGER,
            cost_usd REAL,
            result TEXT,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (run_id, prompt_id, model_id)
        );
        CREATE TABLE calls (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            kind TEXT NOT NULL,
            model_id TEXT NOT NULL,
            prompt_id TEXT,
            cell_model TEXT,
            response TEXT,
            error TEXT,
            cached INTEGER NOT NULL DEFAULT 0,
            latency_ms REAL,
            input_tokens INTEGER,
            output_tokens INTEGER,
            cost_usd REAL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (run_id, key)
        );
        CREATE TABLE judgments (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            prompt_id TEXT NOT NULL,
            model_id TEXT NOT NULL,
            point_index INTEGER NOT NULL,
            judge_id TEXT NOT NULL,
            judge_model TEXT NOT NULL,
            raw_text TEXT,
            class TEXT,
            score REAL,
            reflection TEXT,
            error TEXT,
            created_at TEXT NOT NULL,
            PRIMARY KEY (run_id, prompt_id, model_id, point_index, judge_id)
        );
        CREATE TABLE cache (
            key TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            model_id TEXT NOT NULL,
            value TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        """
_V003 = """
        ALTER TABLE calls ADD COLUMN reuses INTEGER NOT NULL DEFAULT 0;
        """

MIGRATIONS: list[tuple[str, str | dict[Dialect, str]]] = [
    ("001_runs_cells_calls", {"sqlite": _V001, "postgres": _widened(_V001)}),
    (
        "002_drafts",
        """
        CREATE TABLE drafts (
            id TEXT PRIMARY KEY,
            title TEXT,
            text TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        """,
    ),
    ("003_call_reuses", {"sqlite": _V003, "postgres": _widened(_V003)}),
    (
        "004_share_links",
        """
        CREATE TABLE share_links (
            token TEXT PRIMARY KEY,
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            audience TEXT NOT NULL,
            created_at TEXT NOT NULL,
            expires_at TEXT,
            revoked_at TEXT,
            created_by TEXT
        );
        CREATE INDEX share_links_run ON share_links(run_id, created_at);
        """,
    ),
    (
        "005_users",
        """
        CREATE TABLE users (
            email TEXT PRIMARY KEY,
            name TEXT,
            role TEXT NOT NULL,
            created_at TEXT NOT NULL,
            last_login_at TEXT NOT NULL
        );
        """,
    ),
    (
        "006_draft_versions",
        """
        CREATE TABLE draft_versions (
            draft_id TEXT NOT NULL REFERENCES drafts(id) ON DELETE CASCADE,
            number BIGINT NOT NULL,
            text TEXT NOT NULL,
            title TEXT,
            kind TEXT NOT NULL,
            note TEXT,
            author TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (draft_id, number)
        );
        INSERT INTO draft_versions
            (draft_id, number, text, title, kind, note, author, created_at, updated_at)
            SELECT id, 1, text, title, 'kept', NULL, NULL, updated_at, updated_at FROM drafts;
        """,
    ),
    (
        "007_draft_authors",
        """
        ALTER TABLE drafts ADD COLUMN author TEXT;
        CREATE INDEX drafts_author ON drafts(author, updated_at);
        """,
    ),
    (
        "008_reviews",
        """
        CREATE TABLE reviews (
            prompt_id TEXT NOT NULL,
            model_id TEXT NOT NULL,
            answer_hash TEXT NOT NULL,
            criterion_hash TEXT NOT NULL,
            author TEXT NOT NULL,
            criterion TEXT NOT NULL,
            verdict TEXT NOT NULL,
            score DOUBLE PRECISION NOT NULL,
            judge_score DOUBLE PRECISION,
            comment TEXT,
            run_id TEXT,
            point_index BIGINT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (prompt_id, model_id, answer_hash, criterion_hash, author)
        );
        """,
    ),
    (
        "009_run_queue",
        """
        ALTER TABLE runs ADD COLUMN stop_requested_at TEXT;
        CREATE TABLE run_shards (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            shard BIGINT NOT NULL,
            first_prompt BIGINT NOT NULL,
            end_prompt BIGINT NOT NULL,
            status TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (run_id, shard)
        );
        CREATE TABLE rate_limits (
            provider TEXT PRIMARY KEY,
            per_second DOUBLE PRECISION NOT NULL,
            burst DOUBLE PRECISION NOT NULL,
            tat DOUBLE PRECISION NOT NULL
        );
        """,
    ),
    (
        "010_executive_summaries",
        """
        CREATE TABLE executive_summaries (
            run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
            summary TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        """,
    ),
    (
        "011_member_sessions",
        """
        ALTER TABLE users ADD COLUMN disabled_at TEXT;
        CREATE TABLE member_sessions (
            id TEXT PRIMARY KEY,
            email TEXT NOT NULL,
            started_at TEXT NOT NULL,
            last_seen_at TEXT NOT NULL,
            ended_at TEXT,
            ended_reason TEXT
        );
        CREATE INDEX member_sessions_email ON member_sessions(email);
        """,
    ),
    (
        "012_preferences",
        """
        CREATE TABLE preferences (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            prompt_id TEXT NOT NULL,
            model_a TEXT NOT NULL,
            model_b TEXT NOT NULL,
            reviewer TEXT NOT NULL,
            choice TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (run_id, prompt_id, model_a, model_b, reviewer)
        );
        """,
    ),
    (
        "013_draft_messages",
        """
        CREATE TABLE draft_messages (
            draft_id TEXT NOT NULL REFERENCES drafts(id) ON DELETE CASCADE,
            number BIGINT NOT NULL,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            proposal TEXT,
            status TEXT,
            author TEXT,
            created_at TEXT NOT NULL,
            PRIMARY KEY (draft_id, number)
        );
        """,
    ),
]
"""Every migration, in order: `(name, sql)` or `(name, {dialect: sql})` (see the module doc)."""


_second: tuple[int, str] = (-1, "")
"""The last whole second `now` formatted, and its text up to the seconds."""


def now() -> str:
    """Return the current UTC time as ISO-8601 text, to the millisecond (`...T12:00:00.123+00:00`).

    A run stamps every row it writes: the text up to the seconds is formatted once per second.
    """
    global _second
    moment = time.time()
    second = int(moment)
    last, head = _second
    if second != last:
        head = datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        _second = (second, head)
    return f"{head}.{int((moment - second) * 1000):03d}+00:00"


def statements(sql: str | dict[Dialect, str], dialect: Dialect) -> list[str]:
    """The statements of one migration for a dialect, in order."""
    text = sql if isinstance(sql, str) else sql[dialect]
    return [s.strip() for s in text.split(";") if s.strip()]


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply the migrations not yet recorded, in order; return the names applied."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
    applied: list[str] = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT 1 FROM schema_migrations WHERE name = ?", (name,)).fetchone():
                conn.execute("ROLLBACK")
                continue
            for statement in statements(sql, "sqlite"):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (name, now()))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # SQLite ends it by itself on some errors (a full disk)
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied
