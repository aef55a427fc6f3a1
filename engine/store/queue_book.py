"""The queue's bookkeeping in PostgreSQL: a run's shards, their completion, shared rate limits."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg

from engine.store.migrations import now
from engine.store.postgres import _pool, pg_error

__all__ = ["QUEUE_TABLES", "QueueBook"]

QUEUE_TABLES = ("rate_limits", "run_shards")
"""The store's tables that only runs on a queue fill (a personal store leaves them empty)."""

_FINAL = ("completed", "stopped", "failed")
_SWEEP_LOCK = 0x62707377  # pg_try_advisory_xact_lock key: one sweeper at a time over all workers


class QueueBook:
    """What workers share about queued runs, in the store's PostgreSQL database.

    Args:
        url: The database address (`BLUEPRINT_DATABASE_URL`); migrated on first use.
    """

    def __init__(self, url: str) -> None:
        self._url = url
        self._pool = _pool(url)

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            with self._pool.connection() as conn:
                cursor = conn.execute(sql, params)
                return list(cursor.fetchall()) if cursor.description else []
        except psycopg.Error as exc:
            raise pg_error(self._url, exc, writing=True) from None

    def plan_shards(self, run_id: str, ranges: Sequence[tuple[int, int]]) -> None:
        """Record a run's shards: shard `i` holds the prompts `ranges[i]` (first, end)."""
        stamp = now()
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO run_shards (run_id, shard, first_prompt, end_prompt, status, "
                    "updated_at) VALUES (%s, %s, %s, %s, 'todo', %s) ON CONFLICT DO NOTHING",
                    [(run_id, i, a, b, stamp) for i, (a, b) in enumerate(ranges)],
                )
        except psycopg.Error as exc:
            raise pg_error(self._url, exc, writing=True) from None

    def restart(self, run_id: str) -> None:
        """Make an ended run queueable again: no parts, no stop asked, status `planned`."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("DELETE FROM run_shards WHERE run_id=%s", (run_id,))
                conn.execute(
                    "UPDATE runs SET status='planned', stop_requested_at=NULL, error=NULL, "
                    "finished_at=NULL WHERE id=%s",
                    (run_id,),
                )
        except psycopg.Error as exc:
            raise pg_error(self._url, exc, writing=True) from None

    def shard_range(self, run_id: str, shard: int) -> tuple[int, int] | None:
        """The prompts (first, end) of a shard, or None when the run has no such shard."""
        rows = self._run(
            "SELECT first_prompt, end_prompt FROM run_shards WHERE run_id=%s AND shard=%s",
            (run_id, shard),
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    def waiting_runs(self, queue: str, limit: int = 2) -> list[str]:
        """The runs with parts still waiting in procrastinate's `queue`, oldest first.

        A worker reads their plans ahead (see `PartExecutor`), so the first part of the next
        run it picks up starts calling at once.
        """
        rows = self._run(
            "SELECT args->>'run_id' FROM procrastinate_jobs WHERE queue_name=%s "
            "AND status='todo' GROUP BY args->>'run_id' ORDER BY MIN(id) LIMIT %s",
            (queue, limit),
        )
        return [str(row[0]) for row in rows if row[0] is not None]

    def parts_pending(self, run_id: str) -> int:
        """How many of a run's parts are queued or running (not failed for good, not done)."""
        rows = self._run(
            "SELECT COUNT(*) FROM procrastinate_jobs WHERE args->>'run_id'=%s "
            "AND status IN ('todo', 'doing')",
            (run_id,),
        )
        return int(rows[0][0])

    def shard_counts(self, run_id: str) -> tuple[int, int]:
        """(shards done, shards in all) of a run."""
        rows = self._run(
            "SELECT COUNT(*) FILTER (WHERE status='done'), COUNT(*) FROM run_shards "
            "WHERE run_id=%s",
            (run_id,),
        )
        return int(rows[0][0]), int(rows[0][1])

    def finish_shard(self, run_id: str, shard: int) -> bool:
        """Mark a shard done; True when every shard of the run is done and the run is not final.

        The run's row is locked first, so of shards finishing at the same moment exactly one
        sees the others done (no lost update under READ COMMITTED). A shard run again after its
        worker died answers True too while the run is not final, so the run still ends.
        """
        try:
            with self._pool.connection() as conn, conn.transaction():
                row = conn.execute(
                    "SELECT status FROM runs WHERE id=%s FOR UPDATE", (run_id,)
                ).fetchone()
                if row is None:
                    return False
                conn.execute(
                    "UPDATE run_shards SET status='done', updated_at=%s "
                    "WHERE run_id=%s AND shard=%s",
                    (now(), run_id, shard),
                )
                left = conn.execute(
                    "SELECT COUNT(*) FROM run_shards WHERE run_id=%s AND status<>'done'",
                    (run_id,),
                ).fetchone()
        except psycopg.Error as exc:
            raise pg_error(self._url, exc, writing=True) from None
        return bool(left is not None and left[0] == 0 and row[0] not in _FINAL)

    def ping(self) -> None:
        """One round trip to the database (raises `StoreError` when it does not answer)."""
        self._run("SELECT 1")

    def requeue_stalled(self, queue: str, silent_s: float) -> list[int]:
        """Queue again the jobs of `queue` whose worker has been silent `silent_s` seconds.

        Every worker calls it about once a second; one transaction under an advisory lock lets
        one worker at a time sweep: two sweeps at once could both requeue a job, one after
        another worker had started it again, and it would then run twice. The statements are
        procrastinate's own (those of `get_stalled_jobs` and `retry_job`).

        Returns:
            The ids of the jobs queued again (none when another worker sweeps right now).
        """
        from procrastinate.sql import queries

        try:
            with self._pool.connection() as conn, conn.transaction():
                row = conn.execute(
                    "SELECT pg_try_advisory_xact_lock(%s)", (_SWEEP_LOCK,)
                ).fetchone()
                if not (row and row[0]):
                    return []
                stalled = [
                    int(r[0])
                    for r in conn.execute(
                        queries["select_stalled_jobs_by_heartbeat"],
                        {"queue": queue, "task_name": None, "seconds_since_heartbeat": silent_s},
                    ).fetchall()
                ]
                for job_id in stalled:
                    conn.execute(
                        queries["retry_job"],
                        {
                            "job_id": job_id,
                            "retry_at": datetime.now(UTC),
                            "new_priority": None,
                            "new_queue_name": None,
                            "new_lock": None,
                        },
                    )
        except psycopg.Error as exc:
            raise pg_error(self._url, exc, writing=True) from None
        return stalled

    def set_rate(self, provider: str, per_second: float, burst: int) -> None:
        """Set a provider's shared limit: `per_second` calls, bursts of up to `burst`."""
        self._run(
            "INSERT INTO rate_limits (provider, per_second, burst, tat) VALUES (%s, %s, %s, 0) "
            "ON CONFLICT (provider) DO UPDATE SET per_second=excluded.per_second, "
            "burst=excluded.burst",
            (provider, per_second, max(1, burst)),
        )

    def reserve(self, provider: str) -> float:
        """Reserve one call of a provider's shared limit; return the seconds to wait before it.

        GCRA: one atomic `UPDATE ... RETURNING` moves the provider's theoretical arrival time
        on by one period; whoever reserves waits until its slot (less the burst allowance).
        A provider without a limit answers 0.
        """
        rows = self._run(
            "UPDATE rate_limits SET tat = GREATEST(tat, extract(epoch FROM clock_timestamp())) "
            "+ 1.0 / per_second WHERE provider=%s "
            "RETURNING GREATEST(tat - burst / per_second - extract(epoch FROM clock_timestamp()), 0)",
            (provider,),
        )
        return float(rows[0][0]) if rows else 0.0
