"""Starting runs for the CLI and the studio: prepare (plan, check, estimate, record), run, resume."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from engine.blueprint import parse_blueprint
from engine.errors import ConfigError
from engine.loop import run_to_end
from engine.providers import PriceTable
from engine.providers.collections import KnownCollections
from engine.providers.types import DEFAULT_CONCURRENCY
from engine.run.estimate import estimate_run
from engine.run.execute import execute_run
from engine.run.outcome import Progress, RunOptions, RunOutcome
from engine.run.plan import RunPlan, plan_run
from engine.run.prepared import PreparedRun, provider_pool, readiness_problems, record_run
from engine.settings import Settings, home_dir, load_settings
from engine.store import Store

__all__ = [
    "PreparedRun",
    "ResumeStored",
    "answers_resume",
    "prepare_run",
    "readiness_problems",
    "record_run",
    "resume_options",
    "run_in_thread",
    "run_sync",
    "studio_link",
]

DEFAULT_STUDIO_URL = "http://127.0.0.1:8501"


def studio_link(run_id: str) -> str:
    """The studio's share link of a run (`$BLUEPRINT_STUDIO_URL`/results?run=<id>)."""
    base = os.environ.get("BLUEPRINT_STUDIO_URL", DEFAULT_STUDIO_URL).rstrip("/")
    return f"{base}/results?run={run_id}"


def prepare_run(
    store: Store,
    text: str,
    *,
    source: str | None,
    options: RunOptions | None = None,
    environ: Mapping[str, str] | None = None,
    record: bool = True,
) -> PreparedRun:
    """Plan a run, check it, estimate it, and (when it can run) record it as `planned`.

    Settings are read once here and travel with the prepared run.

    Raises:
        BlueprintError: The blueprint cannot be parsed.
        ConfigError: The settings file is unusable.
        StoreError: The store cannot be read or written.
    """
    options = options or RunOptions()
    settings = load_settings()
    blueprint = parse_blueprint(text, source=source)
    plan = plan_run(
        blueprint,
        models=options.models,
        judges=options.judges,
        judge=options.judge,
        repeats=options.repeats,
        collections=KnownCollections(settings),
    )
    problems = list(plan.problems) + readiness_problems(plan, environ, settings)
    prices = PriceTable(settings.prices)
    estimate = estimate_run(plan, store, prices, use_cache=options.use_cache)
    if options.max_cost_usd is not None:
        if estimate.unknown_prices and estimate.calls_to_make:
            problems.append(
                "--max-cost cannot be enforced: no price is known for "
                + ", ".join(sorted(estimate.unknown_prices))
                + ". Add them under [prices] in $BLUEPRINT_HOME/settings.toml."
            )
        elif estimate.cost_low > options.max_cost_usd:
            problems.append(
                f"The plan costs at least ${estimate.cost_low:.4f}, over the budget of "
                f"${options.max_cost_usd:.4f} (--max-cost)."
            )
    run_id = None
    if not problems and record:
        run_id = record_run(store, text, source, plan, options, estimate)
    return PreparedRun(run_id, plan, estimate, options, problems, settings)


def resume_options(store: Store, run_id: str) -> tuple[str, dict[str, Any]]:
    """Return the blueprint text and options of a stored run, to resume it.

    Raises:
        ConfigError: No such run, or it has already completed.
    """
    run = store.get_run(run_id)
    if run is None:
        raise ConfigError(f"There is no run '{run_id}' in {store.location}.")
    if run.live_status == "completed":
        raise ConfigError(f"Run '{run_id}' has already completed; there is nothing to resume.")
    if run.live_status == "running":
        where = f" (pid {run.pid})" if run.pid is not None else " (on a worker)"
        raise ConfigError(f"Run '{run_id}' is still running{where}; wait for it or stop it first.")
    text = store.blueprint_text(run.blueprint_hash)
    if text is None:
        raise ConfigError(f"The blueprint of run '{run_id}' is missing from the store.")
    return text, run.options


def prepare_resume(
    store: Store,
    run_id: str,
    *,
    concurrency: int | None = None,
    max_cost_usd: float | None = None,
    out_dir: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> PreparedRun:
    """Plan the rest of a stored run with its own options (a few may be overridden).

    Raises:
        ConfigError: No such run, it has completed, or it is still running.
        BlueprintError: Its stored blueprint no longer parses (not expected).
    """
    text, saved = resume_options(store, run_id)
    options = saved_options(
        saved, concurrency=concurrency, max_cost_usd=max_cost_usd, out_dir=out_dir
    )
    stored_answers = answers_resume(saved)
    if stored_answers is not None:  # a re-score, pasted answers: resumed as one, never generated
        return stored_answers(
            store,
            run_id,
            text,
            saved,
            concurrency=concurrency,
            out_dir=options.out_dir,
            environ=environ,
        )
    prepared = prepare_run(
        store, text, source=saved.get("source"), options=options, environ=environ, record=False
    )
    prepared.run_id = run_id
    return prepared


class ResumeStored(Protocol):
    """Plans the rest of a recorded run that scores answers it has (see `answers_resume`)."""

    def __call__(
        self,
        store: Store,
        run_id: str,
        text: str,
        saved: Mapping[str, Any],
        *,
        concurrency: int | None,
        out_dir: Path | None,
        environ: Mapping[str, str] | None = None,
    ) -> PreparedRun:
        """Plan the rest of run `run_id` (blueprint `text`, recorded options `saved`)."""
        ...


def answers_resume(saved: Mapping[str, Any]) -> ResumeStored | None:
    """How a recorded run that never generates is planned again, from its options.

    A re-score (`rescored_from`) scores another run's stored answers, a pasted-answers run
    (`pasted`) a chat app's answers kept in its options; None for an ordinary run.
    """
    if saved.get("rescored_from"):
        from engine.run.rescore import resume_rescore

        return resume_rescore
    if saved.get("pasted"):
        from engine.run.pasted import resume_pasted

        return resume_pasted
    return None


def saved_options(
    saved: dict[str, Any],
    *,
    concurrency: int | None = None,
    max_cost_usd: float | None = None,
    out_dir: Path | None = None,
) -> RunOptions:
    """The options a run was recorded with (`RunRecord.options`), a few overridden."""
    saved_out = saved.get("out_dir")
    return RunOptions(
        models=saved.get("models"),
        judges=saved.get("judges"),
        judge=bool(saved.get("judge", True)),
        repeats=int(saved.get("repeats") or 1),
        concurrency=concurrency or int(saved.get("concurrency") or DEFAULT_CONCURRENCY),
        use_cache=bool(saved.get("use_cache", True)),
        max_cost_usd=max_cost_usd if max_cost_usd is not None else saved.get("max_cost_usd"),
        out_dir=out_dir or (Path(saved_out) if saved_out else default_out_dir()),
        key_points_from=saved.get("key_points_from"),
        summary_model=saved.get("summary_model"),
    )


def default_out_dir() -> Path:
    """Where comparison files go by default: `$BLUEPRINT_HOME/results`."""
    return home_dir() / "results"


def run_sync(
    run_id: str,
    plan: RunPlan,
    store: Store,
    options: RunOptions,
    *,
    stop: threading.Event | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    environ: Mapping[str, str] | None = None,
    settings: Settings | None = None,
) -> RunOutcome:
    """Execute a prepared run on a fresh event loop in this thread.

    `settings` are those the run was prepared with (default: read them once now).
    """
    settings = settings if settings is not None else load_settings()

    outcome: list[RunOutcome] = []

    async def main() -> None:
        async with provider_pool(plan, environ, options.concurrency, settings) as pool:
            outcome.append(
                await execute_run(
                    run_id,
                    plan,
                    store,
                    pool,
                    options,
                    stop=stop,
                    on_progress=on_progress,
                    settings=settings,
                )
            )

    # The outcome is not the main task's result: asyncio.run's SIGINT handling formats that
    # task (result included) when it restores the signal handler, which for a big run took
    # seconds (the whole comparison's repr).
    run_to_end(main)
    return outcome[0]


_LIVE: dict[str, tuple[threading.Thread, threading.Event]] = {}


def run_in_thread(
    run_id: str,
    plan: RunPlan,
    store: Store,
    options: RunOptions,
    environ: Mapping[str, str] | None = None,
    settings: Settings | None = None,
) -> threading.Event:
    """Start a run in a background thread (for the studio); return its stop event.

    The thread writes everything to the store; pages poll the store, so a closed tab or a
    refresh loses nothing.
    """
    stop = threading.Event()

    def work() -> None:
        try:
            run_sync(run_id, plan, store, options, stop=stop, environ=environ, settings=settings)
        except Exception:  # the failure is recorded in the store by execute_run
            pass
        finally:
            _LIVE.pop(run_id, None)

    thread = threading.Thread(target=work, name=f"run-{run_id[:8]}", daemon=True)
    _LIVE[run_id] = (thread, stop)
    thread.start()
    return stop


def stop_run(run_id: str) -> bool:
    """Ask a run started by `run_in_thread` in this process to stop; False if it is not here."""
    live = _LIVE.get(run_id)
    if live is None:
        return False
    live[1].set()
    return True
