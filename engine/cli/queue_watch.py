"""`blueprint run --queue`: queue a recorded run for the workers and follow it until it ends."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import NoReturn

import click

from engine.errors import EngineError
from engine.run.plan import RunPlan
from engine.store import Store
from engine.store.rows import RunRecord

__all__ = ["POLL_S", "WAITING_HINT_S", "queue_and_watch"]

POLL_S = 0.5
"""Seconds between two readings of the run's row."""
WAITING_HINT_S = 10.0
"""After this many seconds with no worker on the run, say how to start one."""
OUTAGE_S = 600.0
"""How long the database may stay unreachable before the follower gives up (exit 2)."""
ORPHAN_CHECK_S = 5.0
"""How often a run that waits or is silent is checked for parts still queued or running."""
_FINAL = ("completed", "stopped", "failed")


def _progress(run: RunRecord) -> str:
    return (
        f"progress {run.done_calls}/{run.total_calls} calls, "
        f"{run.done_cells}/{run.total_cells} cells ({run.live_status})"
    )


def _report(store: Store, run: RunRecord, plan: RunPlan, out_dir: str | None) -> NoReturn:
    from engine.comparison.build import run_cost
    from engine.js.values import format_score
    from engine.modelids import display_names
    from engine.run.assemble import stored_comparison

    click.echo(
        f"{run.status}: {run.done_cells}/{run.total_cells} cells, {run.done_calls} calls "
        f"({run.cached_calls} cached, {run.failed_calls} failed), "
        f"{run_cost(store, run.id, list(run.summary or {})).breakdown()}, "
        f"{run.input_tokens:,} tokens in, {run.output_tokens:,} out"
    )
    if run.status != "completed":
        click.echo(
            f"{run.error or 'stopped'} Finish it with: blueprint run --queue --resume {run.id}",
            err=True,
        )
        sys.exit(1)
    from engine.run.service import default_out_dir

    rows = store.cells(run.id)
    summary = run.summary or {}
    ranked = sorted(summary.items(), key=lambda kv: -(kv[1].get("average") or 0))
    names = display_names(summary)
    for model, s in ranked:
        average = s.get("average")
        shown = format_score(average, missing="  -  ")
        click.echo(
            f"  {shown}  {names[model]}  ({s.get('scored_prompts', 0)} scored, "
            f"{s.get('failed_prompts', 0)} failed)"
        )
    comparison = stored_comparison(store, run.id, plan.blueprint, rows)
    if summary:
        from engine.stats import summary_lines

        for line in summary_lines(comparison.uncertainty()):
            click.echo(line)
    path = comparison.write(Path(out_dir) if out_dir else default_out_dir())
    click.echo(f"wrote {path}")
    sys.exit(1 if any(r.failed for r in rows) else 0)


def queue_and_watch(
    store: Store, run_id: str, plan: RunPlan, out_dir: str | None, *, again: bool = False
) -> NoReturn:
    """Queue the run (`again`: an ended one, resumed), follow it until a worker ends it.

    The first Ctrl-C asks the workers to stop the run (it ends `stopped`, resumable); a second
    one stops following it (the run goes on). Exit codes as `blueprint run`.
    """
    from engine.queue.enqueue import enqueue_run, requeue_run, team_database_url
    from engine.store.queue_book import QueueBook

    try:
        url = team_database_url()
        parts = (requeue_run if again else enqueue_run)(url, run_id, plan)
    except EngineError as exc:
        click.echo(f"{exc} The run is recorded but not queued.", err=True)
        sys.exit(2)
    stopping = False
    stop_sent = False

    def ask_stop() -> None:
        nonlocal stop_sent
        try:
            store.request_stop(run_id)
        except EngineError:  # the database is away: asked again at the next reading
            return
        stop_sent = True

    def on_signal(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        if stopping:
            raise KeyboardInterrupt
        stopping = True
        ask_stop()
        click.echo("\nasked the workers to stop the run (Ctrl-C again to stop following)", err=True)

    previous = signal.signal(signal.SIGINT, on_signal)
    click.echo(f"queued in {parts} part(s); `blueprint worker` processes execute it", err=True)
    last = ""
    shown_at = 0.0
    hint_at = time.monotonic() + WAITING_HINT_S
    lost_since: float | None = None
    orphan_at = time.monotonic() + ORPHAN_CHECK_S
    try:
        while True:
            if stopping and not stop_sent:
                ask_stop()
            try:
                run = store.get_run(run_id)
            except EngineError as exc:  # a restart or failover of the database: read again
                now = time.monotonic()
                if lost_since is None:
                    lost_since = now
                    click.echo(f"{exc} Reading the run again until it answers.", err=True)
                elif now - lost_since > OUTAGE_S:
                    raise
                time.sleep(POLL_S)
                continue
            if lost_since is not None:
                lost_since = None
                click.echo("the database answers again", err=True)
            if run is None:
                click.echo(f"Run '{run_id}' is gone from the store.", err=True)
                sys.exit(2)
            if run.status in _FINAL:
                break
            if run.live_status in ("planned", "interrupted") and time.monotonic() > orphan_at:
                orphan_at = time.monotonic() + ORPHAN_CHECK_S
                if QueueBook(url).parts_pending(run_id) == 0:  # its parts failed for good
                    run = store.get_run(run_id)
                    if run is not None and run.status in _FINAL:
                        break
                    click.echo(
                        "interrupted: no part of the run is queued or running any more (see "
                        f"the workers' logs). Finish it with: blueprint run --queue --resume {run_id}",
                        err=True,
                    )
                    sys.exit(1)
            if run.status == "planned" and time.monotonic() > hint_at:
                hint_at = float("inf")
                click.echo(
                    "no worker has started the run yet: is `blueprint worker` running against "
                    "this database? (docs/deploy.md)",
                    err=True,
                )
            line = _progress(run)
            now = time.monotonic()
            if line != last and now - shown_at >= 2.0:
                click.echo(line)
                last, shown_at = line, now
            time.sleep(POLL_S)
    except KeyboardInterrupt:
        click.echo(
            f"stopped following; the run goes on. Watch it in the studio: {run_id}", err=True
        )
        sys.exit(1)
    except EngineError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    finally:
        signal.signal(signal.SIGINT, previous)
    _report(store, run, plan, out_dir)
