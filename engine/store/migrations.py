"""The SQLite schema, as an ordered list of migrations recorded in `schema_migrations`."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

__all__ = ["MIGRATIONS", "migrate"]

MIGRATIONS: list[tuple[str, str]] = [
    (
        "001_runs_cells_calls",
        """
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
        """,
    ),
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
    (
        "003_call_reuses",
        """
        ALTER TABLE calls ADD COLUMN reuses INTEGER NOT NULL DEFAULT 0;
        """,
    ),
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
]


def now() -> str:
    """Return the current UTC time as ISO-8601 text."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


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
            for statement in (s.strip() for s in sql.split(";")):
                if statement:
                    conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (name, now()))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied
