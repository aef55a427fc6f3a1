"""The SQLite backend of the store: one file in `$BLUEPRINT_HOME`, WAL, one short connection per read."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import astuple, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.errors import StoreError
from engine.settings import home_dir
from engine.store.migrations import migrate, now
from engine.store.rows import (
    CallRow,
    CellRow,
    DraftRow,
    JudgmentRow,
    ModelTotals,
    RunRecord,
    RunStatus,
    RunTotals,
)
from engine.store.share_links import Audience, ShareLink, new_share_token
from engine.store.sqlite_writer import (
    CALL_COLUMNS,
    CELL_COLUMNS,
    TOTALS_SET,
    SQLiteWriter,
    connect_sqlite,
    store_error,
    totals_values,
)
from engine.store.users import Role, UserRow

__all__ = ["Connect", "SQLiteStore"]

Connect = Callable[[Path], sqlite3.Connection]
"""Opens a connection to the store's file (tests pass one that fails on purpose)."""

_JUDGMENT_COLUMNS = (
    "run_id, prompt_id, model_id, point_index, judge_id, judge_model, raw_text, class, score, "
    "reflection, error, created_at"
)


_USER_COLUMNS = "email, name, role, created_at, last_login_at"
_SHARE_COLUMNS = "token, run_id, audience, created_at, expires_at, revoked_at, created_by"


def _run(row: tuple[Any, ...], names: list[str]) -> RunRecord:
    data = dict(zip(names, row, strict=True))
    data["options"] = json.loads(data["options"] or "{}")
    data["summary"] = json.loads(data["summary"]) if data.get("summary") else None
    return RunRecord(**data)


class SQLiteStore:
    """The store in one SQLite file (see `engine.store.base.Store` for the contract)."""

    def __init__(self, path: Path | str | None = None, *, connect: Connect | None = None) -> None:
        self._connect = connect or connect_sqlite
        try:
            self.path = Path(path) if path is not None else home_dir() / "studio.db"
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._conn() as conn:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
                migrate(conn)
        except sqlite3.Error as exc:
            raise store_error(self.path if path is None else Path(path), exc) from None
        except OSError as exc:
            where = Path(path) if path is not None else Path(os.environ.get("BLUEPRINT_HOME", "~"))
            raise StoreError(
                f"{where}: cannot create the store there ({exc.strerror or 'not allowed'}). "
                "Make the folder writable, or set BLUEPRINT_HOME to a writable folder."
            ) from None

    @property
    def location(self) -> str:
        """The database file."""
        return str(self.path)

    @contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        conn = self._connect(self.path)
        try:
            yield conn
        finally:
            conn.close()

    def _write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        try:
            with self._conn() as conn:
                conn.execute(sql, params)
        except sqlite3.Error as exc:
            raise store_error(self.path, exc, writing=True) from None

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._conn() as conn:
                return list(conn.execute(sql, params))
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None

    def applied_migrations(self) -> list[str]:
        """The names of the migrations applied, in order."""
        return [str(r[0]) for r in self._read("SELECT name FROM schema_migrations ORDER BY name")]

    # --- blueprints and drafts -------------------------------------------------------

    def save_blueprint(self, text: str, title: str | None, source: str | None) -> str:
        """Store blueprint text by content hash; return the hash."""
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        self._write(
            "INSERT OR IGNORE INTO blueprints(hash, title, source, text, created_at) VALUES (?,?,?,?,?)",
            (digest, title, source, text, now()),
        )
        return digest

    def blueprint_text(self, digest: str) -> str | None:
        """Return stored blueprint text by hash."""
        rows = self._read("SELECT text FROM blueprints WHERE hash = ?", (digest,))
        return str(rows[0][0]) if rows else None

    def save_draft(self, draft_id: str, text: str, title: str | None = None) -> None:
        """Create or replace a studio draft."""
        self._write(
            "INSERT OR REPLACE INTO drafts(id, title, text, updated_at) VALUES (?,?,?,?)",
            (draft_id, title, text, now()),
        )

    def draft(self, draft_id: str) -> str | None:
        """Return a draft's text, if any."""
        rows = self._read("SELECT text FROM drafts WHERE id = ?", (draft_id,))
        return str(rows[0][0]) if rows else None

    def list_drafts(self) -> list[DraftRow]:
        """Return saved drafts, newest first."""
        rows = self._read("SELECT id, title, updated_at FROM drafts ORDER BY updated_at DESC")
        return [DraftRow(*r) for r in rows]

    # --- runs ------------------------------------------------------------------------

    def create_run(
        self,
        *,
        blueprint_hash: str,
        title: str | None,
        config_id: str | None,
        options: dict[str, Any],
        total_calls: int,
        total_cells: int,
        run_id: str | None = None,
    ) -> str:
        """Record a new run in status `planned`; return its id."""
        from engine.store.base import new_run_id

        run_id = run_id or new_run_id()
        self._write(
            "INSERT INTO runs(id, blueprint_hash, title, config_id, status, options, total_calls, "
            "total_cells, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                run_id,
                blueprint_hash,
                title,
                config_id,
                "planned",
                json.dumps(options),
                total_calls,
                total_cells,
                now(),
            ),
        )
        return run_id

    def _runs(self, sql: str, params: tuple[Any, ...]) -> list[RunRecord]:
        try:
            with self._conn() as conn:
                cursor = conn.execute(sql, params)
                names = [d[0] for d in cursor.description]
                return [_run(r, names) for r in cursor]
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None

    def get_run(self, run_id: str) -> RunRecord | None:
        """Return a run, or None."""
        runs = self._runs("SELECT * FROM runs WHERE id = ?", (run_id,))
        return runs[0] if runs else None

    def list_runs(self, limit: int = 200) -> list[RunRecord]:
        """Return runs, newest first."""
        return self._runs("SELECT * FROM runs ORDER BY created_at DESC LIMIT ?", (limit,))

    def set_run_status(
        self, run_id: str, status: RunStatus, error: str | None = None, *, pid: int | None = None
    ) -> None:
        """Set a run's status (and error), stamping start and finish times."""
        stamp = now()
        if status == "running":
            self._write(
                "UPDATE runs SET status=?, error=NULL, started_at=COALESCE(started_at, ?), "
                "heartbeat_at=?, pid=? WHERE id=?",
                (status, stamp, stamp, pid if pid is not None else os.getpid(), run_id),
            )
        else:
            self._write(
                "UPDATE runs SET status=?, error=?, finished_at=?, heartbeat_at=NULL WHERE id=?",
                (status, error, stamp, run_id),
            )

    def save_totals(self, run_id: str, totals: RunTotals) -> None:
        """Store a run's counters."""
        self._write(f"UPDATE runs SET {TOTALS_SET} WHERE id=?", (*totals_values(totals), run_id))

    def save_summary(
        self, run_id: str, summary: dict[str, Any], comparison_path: str | None
    ) -> None:
        """Store a completed run's per-model summary and where its comparison was written."""
        self._write(
            "UPDATE runs SET comparison_path=?, summary=? WHERE id=?",
            (comparison_path, json.dumps(summary), run_id),
        )

    # --- cells, calls, judgments -------------------------------------------------------

    def cells(
        self,
        run_id: str,
        *,
        prompt_id: str | None = None,
        offset: int = 0,
        limit: int = 1_000_000,
    ) -> list[CellRow]:
        """Return a page of a run's cells (or one prompt's), ordered by prompt and model."""
        where, params = "run_id=?", [run_id]
        if prompt_id is not None:
            where += " AND prompt_id=?"
            params.append(prompt_id)
        rows = self._read(
            f"SELECT {CELL_COLUMNS} FROM cells WHERE {where} "
            "ORDER BY prompt_id, model_id LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [CellRow(*r) for r in rows]

    def cell_keys(self, run_id: str) -> set[tuple[str, str]]:
        """Return the (prompt id, effective model id) of every finished cell of a run."""
        rows = self._read("SELECT prompt_id, model_id FROM cells WHERE run_id=?", (run_id,))
        return {(str(p), str(m)) for p, m in rows}

    def cell_counts(self, run_id: str) -> dict[str, dict[str, int]]:
        """Return `{base model: {status: number of cells}}` for a run's finished cells."""
        rows = self._read(
            "SELECT base_model, status, COUNT(*) FROM cells WHERE run_id=? "
            "GROUP BY base_model, status",
            (run_id,),
        )
        out: dict[str, dict[str, int]] = {}
        for model, status, n in rows:
            out.setdefault(str(model), {})[str(status)] = int(n)
        return out

    def model_totals(self, run_id: str) -> dict[str, ModelTotals]:
        """Return per effective model: cells, tokens in/out, cost (USD) and mean latency (ms)."""
        rows = self._read(
            "SELECT model_id, COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(cost_usd), "
            "AVG(latency_ms) FROM cells WHERE run_id=? GROUP BY model_id",
            (run_id,),
        )
        return {
            str(m): ModelTotals(int(n), int(i or 0), int(o or 0), float(c or 0), float(lat or 0))
            for m, n, i, o, c, lat in rows
        }

    def run_calls(self, run_id: str) -> dict[str, CallRow]:
        """Return the logged calls of a run by key, finished or failed (to resume)."""
        rows = self._read(f"SELECT {CALL_COLUMNS} FROM calls WHERE run_id=?", (run_id,))
        calls = (replace(CallRow(*r), cached=bool(r[8])) for r in rows)
        return {c.key: c for c in calls}

    def judgments(self, run_id: str, prompt_id: str, model_id: str) -> list[JudgmentRow]:
        """Return the raw judgments of one cell."""
        rows = self._read(
            f"SELECT {_JUDGMENT_COLUMNS} FROM judgments WHERE run_id=? AND prompt_id=? "
            "AND model_id=? ORDER BY point_index, judge_id",
            (run_id, prompt_id, model_id),
        )
        return [JudgmentRow(*r) for r in rows]

    # --- cache ------------------------------------------------------------------------

    def cache_get(self, key: str) -> dict[str, Any] | None:
        """Return a cached answer (decoded), or None."""
        return self.cache_lookup([key]).get(key)

    def cache_lookup(self, keys: list[str]) -> dict[str, dict[str, Any]]:
        """Return the cached answers (decoded) of those `keys` that are cached."""
        found: dict[str, dict[str, Any]] = {}
        try:
            with self._conn() as conn:
                for start in range(0, len(keys), 500):
                    chunk = keys[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    sql = f"SELECT key, value FROM cache WHERE key IN ({marks})"
                    for key, value in conn.execute(sql, chunk):
                        data = json.loads(value)
                        if isinstance(data, dict):
                            found[str(key)] = data
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None
        return found

    def writer(self) -> SQLiteWriter:
        """Start a background writer with its own connection."""
        return SQLiteWriter(self.path, self._connect)

    # --- share links --------------------------------------------------------------------

    def create_share_link(
        self,
        run_id: str,
        audience: Audience,
        expires_at: datetime | None = None,
        created_by: str | None = None,
    ) -> ShareLink:
        """Make a new share link (a fresh random token) to a run; return it."""
        expires = expires_at.astimezone(UTC).isoformat(timespec="seconds") if expires_at else None
        link = ShareLink(new_share_token(), run_id, audience, now(), expires, None, created_by)
        self._write(
            f"INSERT INTO share_links({_SHARE_COLUMNS}) VALUES (?,?,?,?,?,?,?)",
            astuple(link),
        )
        return link

    def share_links(self, run_id: str) -> list[ShareLink]:
        """Return a run's share links, newest first (revoked and expired ones included)."""
        rows = self._read(
            f"SELECT {_SHARE_COLUMNS} FROM share_links WHERE run_id=? "
            "ORDER BY created_at DESC, token",
            (run_id,),
        )
        return [ShareLink(*r) for r in rows]

    def share_link(self, token: str) -> ShareLink | None:
        """Resolve a link's token (whatever its state), or None when no link has it."""
        rows = self._read(f"SELECT {_SHARE_COLUMNS} FROM share_links WHERE token=?", (token,))
        return ShareLink(*rows[0]) if rows else None

    def revoke_share_link(self, token: str) -> ShareLink | None:
        """Revoke a link (kept, marked revoked); return it, or None when no link has it."""
        self._write(
            "UPDATE share_links SET revoked_at=? WHERE token=? AND revoked_at IS NULL",
            (now(), token),
        )
        return self.share_link(token)

    # --- team members -------------------------------------------------------------------

    def record_login(self, email: str, name: str | None, role: Role) -> UserRow:
        """Record a login: a new member gets `role`; a known one keeps theirs. Return the row."""
        key, stamp = email.strip().lower(), now()
        self._write(
            f"INSERT INTO users({_USER_COLUMNS}) VALUES (?,?,?,?,?) ON CONFLICT(email) DO "
            "UPDATE SET name=COALESCE(excluded.name, users.name), last_login_at=excluded.last_login_at",
            (key, name, role, stamp, stamp),
        )
        row = self.user(key)
        assert row is not None  # just written
        return row

    def user(self, email: str) -> UserRow | None:
        """Return a member by e-mail, or None."""
        rows = self._read(
            f"SELECT {_USER_COLUMNS} FROM users WHERE email=?", (email.strip().lower(),)
        )
        return UserRow(*rows[0]) if rows else None

    def users(self) -> list[UserRow]:
        """Return every member, by e-mail."""
        return [
            UserRow(*r) for r in self._read(f"SELECT {_USER_COLUMNS} FROM users ORDER BY email")
        ]

    def set_role(self, email: str, role: Role) -> UserRow | None:
        """Change a member's role; return the row, or None when no member has that e-mail."""
        self._write("UPDATE users SET role=? WHERE email=?", (role, email.strip().lower()))
        return self.user(email)
