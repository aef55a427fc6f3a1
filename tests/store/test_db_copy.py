"""`blueprint db copy`: a personal SQLite store with a real run, copied whole into PostgreSQL."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg

from engine.run import RunOptions
from engine.run.service import prepare_run, run_sync
from engine.store import (
    CacheEntry,
    CallRow,
    JudgmentRow,
    PreferenceRow,
    ReviewRow,
    answer_hash,
    criterion_hash,
)
from engine.store.copy import table_order
from engine.store.queue_book import QUEUE_TABLES
from engine.store.sqlite import SQLiteStore
from tests.conftest import EXAMPLES
from tests.store.pg import fresh_database

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        timeout=120,
    )


def _personal_store(path: Path, out: Path) -> str:
    """A personal store holding a completed `ideal` run, a logged call, a judgment and a draft.

    (`ideal` answers are not logged calls nor cached: a judge's call is added as a run makes it.)
    """
    store = SQLiteStore(path)
    prepared = prepare_run(
        store,
        (EXAMPLES / "functions.yml").read_text(),
        source="functions.yml",
        options=RunOptions(models=["ideal"], judge=False, out_dir=out),
    )
    outcome = run_sync(prepared.run_id, prepared.plan, store, prepared.options)
    assert outcome.status == "completed"
    run_id = prepared.run_id
    cell = store.cells(run_id)[0]
    writer = store.writer()
    writer.record_judgment(
        JudgmentRow(
            prepared.run_id, cell.prompt_id, cell.model_id, 0, "j1", "ideal", "ok", "YES", 1.0
        )
    )
    answer = '{"text": "YES"}'
    writer.record_call(
        CallRow(
            run_id,
            "k1",
            "judge",
            "ideal",
            cell.prompt_id,
            cell.model_id,
            answer,
            None,
            False,
            0.1 + 0.2,
            3_000_000_000,
            4,
            1e-7,
        ),
        CacheEntry("k1", "judge", "ideal", answer),
    )
    writer.close()
    store.save_draft("d1", "title: draft\n", "draft")
    store.add_draft_message("d1", "user", "Make the first prompt harder.")
    store.create_share_link(run_id, "anyone", created_by="alice@example.org")
    store.save_executive_summary(
        run_id, {"modelId": "openai:s", "content": "Ünï", "isStructured": False}
    )
    store.record_login("alice@example.org", "Alice", "admin")
    store.start_session("s-alice", "alice@example.org")
    store.save_reviews(
        [
            ReviewRow(
                cell.prompt_id,
                cell.model_id,
                answer_hash(cell.response),
                criterion_hash("Says hello."),
                "alice@example.org",
                "Says hello.",
                "score",
                0.25,
                0.875,
                "too generous",
                run_id,
                0,
                "2026-12-01T06:00:00.000+00:00",
            )
        ]
    )
    store.save_preference(
        PreferenceRow(
            run_id, cell.prompt_id, "openai:a", "openai:b", "alice@example.org", "same", "2026"
        )
    )
    return run_id


def _sqlite_rows(path: Path, table: str, columns: list[str]) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
    conn.close()
    return sorted(rows, key=repr)


def _pg_rows(url: str, table: str, columns: list[str]) -> list[tuple[object, ...]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
    return sorted(rows, key=repr)


def test_a_personal_store_is_copied_whole_into_postgres_and_a_second_copy_is_refused(
    pg_url, tmp_path
):
    path = tmp_path / "studio.db"
    run_id = _personal_store(path, tmp_path)
    source = SQLiteStore(path)
    graph = source.table_graph()
    assert {"blueprints", "drafts", "runs", "cells", "calls", "judgments", "cache"} <= set(graph)

    done = _cli("db", "copy", "--from", str(path), "--to", pg_url)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for table in graph:
        count = source.count_rows(table)
        assert count > 0 or table in QUEUE_TABLES, table  # the run filled every other table
        assert any(line.split() == [table, str(count), str(count)] for line in lines), table
    assert any(line.endswith("every count matches.") for line in lines)
    # the personal store's "anyone" link arrives revoked, and the output says so
    assert lines[-1].startswith('1 "anyone" share link of the personal store was copied revoked')

    for table in graph:
        columns = [c for c in source.table_columns(table) if c != "revoked_at"]
        assert _pg_rows(pg_url, table, columns) == _sqlite_rows(path, table, columns), table
    with psycopg.connect(pg_url) as conn:
        links = conn.execute("SELECT audience, revoked_at FROM share_links").fetchall()
    assert [a for a, _ in links] == ["anyone"] and all(r is not None for _, r in links)
    with psycopg.connect(pg_url) as conn:
        [(status,)] = conn.execute("SELECT status FROM runs WHERE id = %s", (run_id,)).fetchall()
    assert status == "completed"

    back = tmp_path / "back.db"  # and back again, into a new personal store
    assert _cli("db", "copy", "--from", pg_url, "--to", str(back)).returncode == 0
    for table in graph:  # a team store's links are copied as they are (already revoked here)
        columns = source.table_columns(table)
        want = _pg_rows(pg_url, table, columns)
        assert _sqlite_rows(back, table, columns) == want, table

    again = _cli("db", "copy", "--from", str(path), "--to", pg_url)
    assert again.returncode == 2 and again.stdout == ""
    assert "already holds data" in again.stderr and len(again.stderr.splitlines()) == 1
    assert _pg_rows(pg_url, "runs", ["id"]) == [(run_id,)]  # nothing copied twice


def test_unusable_stores_exit_2_with_one_line_and_no_password(tmp_path):
    missing = _cli("db", "copy", "--from", str(tmp_path / "nope.db"), "--to", "postgresql://x@h/d")
    assert missing.returncode == 2 and "no such store file" in missing.stderr
    SQLiteStore(tmp_path / "s.db")
    url = "postgresql://ann:hunter2secret@127.0.0.1:1/nodb"
    unreachable = _cli("db", "copy", "--from", str(tmp_path / "s.db"), "--to", url)
    assert unreachable.returncode == 2, unreachable.stderr
    assert len(unreachable.stderr.splitlines()) == 1 and "hunter2secret" not in unreachable.stderr
    assert "Traceback" not in unreachable.stderr


def test_tables_come_after_the_tables_they_refer_to():
    graph = {"cells": {"runs"}, "runs": {"blueprints"}, "blueprints": set(), "cache": set()}
    assert table_order(graph) == ["blueprints", "cache", "runs", "cells"]


def test_a_row_that_cannot_be_copied_leaves_the_target_empty(pg_url, tmp_path):
    path = tmp_path / "studio.db"
    store = SQLiteStore(path)
    store.save_draft("d1", "a: 1\n")
    digest = store.save_blueprint("title: t\n", "t", "t.yml")
    store.create_run(
        blueprint_hash=digest, title="t", config_id=None, options={}, total_calls=1, total_cells=1
    )
    conn = sqlite3.connect(path)  # SQLite keeps text in an integer column; PostgreSQL will not
    conn.execute("UPDATE runs SET total_calls = 'many'")
    conn.commit()
    conn.close()
    done = _cli("db", "copy", "--from", str(path), "--to", pg_url)
    assert done.returncode == 2 and "store write failed" in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    for table in ("drafts", "blueprints", "runs"):
        assert _pg_rows(pg_url, table, ["*"]) == [], table  # all or nothing


def test_only_a_personal_stores_open_anyone_links_arrive_revoked(pg_url, tmp_path):
    from engine.store import open_store

    path = tmp_path / "studio.db"
    run_id = _personal_store(path, tmp_path)  # holds one open "anyone" link
    personal = SQLiteStore(path)
    team_link = personal.create_share_link(run_id, "team")
    closed = personal.create_share_link(run_id, "anyone")
    personal.revoke_share_link(closed.token)
    was_revoked_at = personal.share_link(closed.token).revoked_at

    done = _cli("db", "copy", "--from", str(path), "--to", pg_url)
    assert done.returncode == 0, done.stderr
    assert '1 "anyone" share link of the personal store was copied revoked' in done.stdout
    team = open_store(pg_url)
    states = {link.token: link.state() for link in team.share_links(run_id)}
    assert states.pop(team_link.token) == "active"  # team links ask for a login: kept
    assert set(states.values()) == {"revoked"}
    assert team.share_link(closed.token).revoked_at == was_revoked_at  # untouched

    # a team store copied on (a backup, a move) keeps its links as they are
    with fresh_database("blueprint_copy") as other:
        team.create_share_link(run_id, "anyone")
        moved = _cli("db", "copy", "--from", pg_url, "--to", other)
        assert moved.returncode == 0, moved.stderr
        assert "copied revoked" not in moved.stdout
        copied = open_store(other)
        assert [link.state() for link in copied.share_links(run_id)].count("active") == 2
