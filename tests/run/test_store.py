"""The SQLite store: ordered migrations, runs, the background writer, liveness."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

from engine.store import MIGRATIONS, Store, new_run_id


def test_migrations_are_recorded_in_order_and_idempotent(tmp_path):
    store = Store(tmp_path / "s.db")
    names = [r["name"] for r in store.query("SELECT name FROM schema_migrations ORDER BY name")]
    assert names == [name for name, _ in MIGRATIONS]
    Store(tmp_path / "s.db")  # reopening applies nothing twice
    assert len(store.query("SELECT * FROM schema_migrations")) == len(MIGRATIONS)
    conn = sqlite3.connect(tmp_path / "s.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    cols = {r[1] for r in conn.execute("PRAGMA table_info(cells)")}
    assert {"run_id", "prompt_id", "model_id", "score", "response", "result", "cost_usd"} <= cols


def test_run_ids_are_unguessable():
    ids = {new_run_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(len(i) >= 22 for i in ids)  # 16 random bytes, url-safe base64


def test_run_lifecycle_and_interrupted_when_the_process_is_gone(tmp_path):
    store = Store(tmp_path / "s.db")
    digest = store.save_blueprint("title: t\n", "t", "t.yml")
    run_id = store.create_run(
        blueprint_hash=digest,
        title="t",
        config_id=None,
        options={"a": 1},
        total_calls=3,
        total_cells=1,
    )
    run = store.get_run(run_id)
    assert run.status == "planned" and run.options == {"a": 1}
    store.set_run_status(run_id, "running")
    assert store.get_run(run_id).live_status == "running"
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    store.execute("UPDATE runs SET pid=? WHERE id=?", (int(dead.stdout), run_id))
    assert store.get_run(run_id).live_status == "interrupted"
    assert store.get_run(run_id).resumable
    store.set_run_status(run_id, "completed")
    assert store.get_run(run_id).live_status == "completed"
    assert [r.id for r in store.list_runs()] == [run_id]


def test_writer_commits_before_resolving(tmp_path):
    store = Store(tmp_path / "s.db")
    writer = store.writer()
    futures = [
        writer.submit(
            lambda c, i=i: c.execute(
                "INSERT INTO cache(key, kind, model_id, value, created_at) VALUES (?,?,?,?,?)",
                (f"k{i}", "generate", "m", "{}", "now"),
            )
        )
        for i in range(200)
    ]
    futures[-1].result(timeout=10)
    # a separate connection sees every committed row once the last future resolved
    assert len(store.query("SELECT key FROM cache")) == 200
    bad = writer.submit(lambda c: c.execute("INSERT INTO nope VALUES (1)"))
    try:
        bad.result(timeout=10)
        raised = False
    except Exception as exc:
        raised = "store write failed" in str(exc)
    assert raised
    writer.close()


def test_drafts(tmp_path):
    store = Store(tmp_path / "s.db")
    store.save_draft("d1", "a: 1\n", "first")
    store.save_draft("d1", "a: 2\n", "first")
    assert store.draft("d1") == "a: 2\n"
    assert [d["id"] for d in store.list_drafts()] == ["d1"]


def test_cell_queries(tmp_path):
    store = Store(tmp_path / "s.db")
    digest = store.save_blueprint("t", None, None)
    run_id = store.create_run(
        blueprint_hash=digest, title=None, config_id=None, options={}, total_calls=0, total_cells=3
    )
    for pid, model, status in [("a", "m1", "scored"), ("b", "m1", "failed"), ("a", "m2", "scored")]:
        store.execute(
            "INSERT INTO cells(run_id, prompt_id, model_id, base_model, status, updated_at) VALUES (?,?,?,?,?,?)",
            (run_id, pid, f"{model}[temp:0]", model, status, "now"),
        )
    assert [c["model_id"] for c in store.cells(run_id, prompt_id="a")] == [
        "m1[temp:0]",
        "m2[temp:0]",
    ]
    assert store.cell_counts(run_id) == {"m1": {"scored": 1, "failed": 1}, "m2": {"scored": 1}}
    assert len(store.cells(run_id, offset=1, limit=1)) == 1
