"""Starting, resuming and watching runs from the studio, through the engine's run service.

The work itself happens in the engine (`engine.run.service`): a background thread writes
every finished cell to the store, and pages poll the store. This module only chooses the
arguments and reads progress. Pure: no Streamlit import.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.errors import EngineError
from engine.run import (
    PreparedRun,
    RunOptions,
    default_out_dir,
    prepare_resume,
    prepare_run,
    run_in_thread,
    stop_run,
)
from engine.run.pasted import PreparedPasted, prepare_pasted
from engine.run.rescore import PreparedRescore, prepare_rescore
from engine.store import ACTIVE_STATUSES, LiveStatus, RunRecord, Store

__all__ = [
    "ACTIVE",
    "STATUS_WORDS",
    "ModelProgress",
    "RunChoice",
    "model_progress",
    "paste",
    "plan",
    "prepare",
    "queue_url",
    "rescore",
    "rescored_from",
    "resume",
    "run_label",
    "start",
    "status_word",
    "stop",
]

ACTIVE = ACTIVE_STATUSES
"""Statuses of a run that may still change on its own."""

STATUS_WORDS: dict[LiveStatus, str] = {
    "planned": "starting",
    "running": "running",
    "completed": "completed",
    "interrupted": "interrupted",
    "stopped": "stopped",
    "failed": "failed",
}
"""How each run status is named on screen."""


def run_label(run: RunRecord) -> str:
    """A run as a person names it: its blueprint's title and when it started (plain text)."""
    title = " ".join((run.title or "Untitled blueprint").split())
    return f"{title} · {run.created_at[:16].replace('T', ' ')} UTC"


def rescored_from(store: Store, run: RunRecord) -> tuple[str, str] | None:
    """For a re-score: the id of the run whose answers it scored, and that run's label.

    None for a run that is not a re-score; "a deleted run" when the source is gone.
    """
    source = run.options.get("rescored_from")
    if not source:
        return None
    found = store.get_run(str(source))
    return str(source), run_label(found) if found is not None else "a deleted run"


def status_word(status: LiveStatus) -> str:
    """The plain word for a run status (in team mode a planned run waits for a worker)."""
    if status == "planned" and queue_url() is not None:
        return "queued (waiting for a worker)"
    return STATUS_WORDS[status]


@dataclass(frozen=True)
class RunChoice:
    """What the user chose on the Run page.

    Attributes:
        models: Model ids to run.
        judges: Judge model ids; None means the default judges.
        judge: False runs without judging (text points stay unscored).
        use_cache: Reuse answers already in the cache.
        max_cost_usd: Stop before spending more than this; None for no limit.
        summary_model: Write an executive summary with this model at the end; None for none.
    """

    models: tuple[str, ...]
    judges: tuple[str, ...] | None = None
    judge: bool = True
    use_cache: bool = True
    max_cost_usd: float | None = None
    summary_model: str | None = None

    def options(self) -> RunOptions:
        """The engine's run options for this choice (comparison JSON in the default folder)."""
        return RunOptions(
            use_cache=self.use_cache,
            max_cost_usd=self.max_cost_usd,
            out_dir=default_out_dir(),
            summary_model=self.summary_model,
        )


def prepare(
    store: Store,
    text: str,
    source: str | None,
    *,
    models: Sequence[str] | None,
    judges: Sequence[str] | None,
    judge: bool,
    options: RunOptions,
    record: bool,
    repeats: int = 1,
    environ: Mapping[str, str] | None = None,
) -> PreparedRun:
    """`engine.run.prepare_run` with the studio's arguments.

    Raises:
        BlueprintError: The blueprint cannot be parsed.
    """
    options = replace(
        options,
        models=list(models) if models else None,
        judges=list(judges) if judges else None,
        judge=judge,
        repeats=repeats,
    )
    return prepare_run(store, text, source=source, options=options, environ=environ, record=record)


def plan(store: Store, text: str, source: str | None, choice: RunChoice) -> PreparedRun:
    """Plan a run without recording it: matrix, calls, cost range and problems.

    Raises:
        BlueprintError: The blueprint cannot be parsed.
    """
    return _prepare_choice(store, text, source, choice, record=False)


def _prepare_choice(
    store: Store,
    text: str,
    source: str | None,
    choice: RunChoice,
    *,
    record: bool,
    draft: tuple[str, int] | None = None,
) -> PreparedRun:
    return prepare(
        store,
        text,
        source,
        models=choice.models,
        judges=choice.judges,
        judge=choice.judge,
        options=replace(choice.options(), draft=draft),
        record=record,
    )


def queue_url() -> str | None:
    """The team database when runs go on the queue (team store), else None (personal mode)."""
    from engine.store.postgres import is_postgres_url

    url = os.environ.get("BLUEPRINT_DATABASE_URL", "").strip()
    return url if is_postgres_url(url) else None


def _launch(store: Store, prepared: PreparedRun, *, again: bool = False) -> None:
    """Queue the run for the workers (team store), else run it in this process's background."""
    if prepared.run_id is None:
        return
    url = queue_url()
    if url is None:
        run_in_thread(
            prepared.run_id, prepared.plan, store, prepared.options, settings=prepared.settings
        )
        return
    from engine.queue.enqueue import enqueue_run, requeue_run

    (requeue_run if again else enqueue_run)(url, prepared.run_id, prepared.plan)


def start(
    store: Store,
    text: str,
    source: str | None,
    choice: RunChoice,
    *,
    draft: tuple[str, int] | None = None,
) -> PreparedRun:
    """Record a run and start it (when nothing stops it): queued in team mode, else here.

    `draft` is the draft and version number the text is (recorded with the run).

    Returns:
        The prepared run; `run_id` is None when `problems` stopped it.

    Raises:
        BlueprintError: The blueprint cannot be parsed.
    """
    prepared = _prepare_choice(store, text, source, choice, record=True, draft=draft)
    if prepared.run_id is not None and not prepared.problems:
        _launch(store, prepared)
    return prepared


def rescore(
    store: Store, run_id: str, text: str, source: str | None, *, start: bool
) -> PreparedRescore:
    """Plan a re-score of a run's answers with `text`; with `start`, record it and run it.

    The re-score starts like any run (queued in team mode, else in a background thread);
    nothing is generated.

    Raises:
        EngineError: No such run, it has no answers, or `text` cannot be parsed.
    """
    prepared = prepare_rescore(
        store, run_id, text, source=source, out_dir=default_out_dir(), record=start
    )
    if start and prepared.run_id is not None and not prepared.problems:
        _launch(store, prepared)
    return prepared


def paste(
    store: Store,
    text: str,
    source: str | None,
    model: str,
    answers: Mapping[str, Sequence[str]],
    *,
    judge: bool = True,
    draft: tuple[str, int] | None = None,
) -> PreparedPasted:
    """Record a run of a chat app's pasted answers and start scoring it, as any run starts.

    Returns:
        The prepared run; `run_id` is None when `problems` stopped it.

    Raises:
        EngineError: The app's name is not valid, or the blueprint cannot be parsed.
    """
    prepared = prepare_pasted(
        store,
        text,
        model,
        answers,
        source=source,
        judge=judge,
        out_dir=default_out_dir(),
        draft=draft,
    )
    if prepared.run_id is not None and not prepared.problems:
        _launch(store, prepared)
    return prepared


def resume(store: Store, run_id: str) -> list[str]:
    """Resume an interrupted, stopped or failed run (queued again in team mode).

    Returns:
        The problems that stop it (empty when it was resumed).
    """
    try:
        prepared = prepare_resume(store, run_id)
    except EngineError as exc:
        return [str(exc)]
    if prepared.problems:
        return prepared.problems
    try:
        _launch(store, prepared, again=True)
    except EngineError as exc:
        return [str(exc)]
    return []


def stop(store: Store, run_id: str) -> bool:
    """Ask a run to stop: its workers read the request (team mode), else this process's thread.

    False when the run is not running in this studio process (personal mode).
    """
    if queue_url() is not None:
        store.request_stop(run_id)
        return True
    return stop_run(run_id)


@dataclass(frozen=True)
class ModelProgress:
    """How far one model of a run has got."""

    model: str
    done: int
    failed: int
    total: int

    @property
    def fraction(self) -> float:
        """Done cells over planned cells (0-1)."""
        return min(1.0, self.done / self.total) if self.total else 0.0


def model_progress(store: Store, run: RunRecord) -> list[ModelProgress]:
    """Finished and failed cells per model of a run, against what was planned.

    Each model gets the same number of cells (prompts × temperatures × system prompts).
    """
    models: list[str] = [str(m) for m in run.options.get("models") or []]
    done: dict[str, int] = {}
    failed: dict[str, int] = {}
    for model, statuses in store.cell_counts(run.id).items():
        done[model] = sum(statuses.values())
        failed[model] = statuses.get("failed", 0)
        if model not in models:
            models.append(model)
    per_model = run.total_cells // len(models) if models else 0
    return [
        ModelProgress(model=m, done=done.get(m, 0), failed=failed.get(m, 0), total=per_model)
        for m in models
    ]
