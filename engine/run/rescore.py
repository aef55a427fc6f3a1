"""Re-scoring a run (`blueprint rescore`): its stored answers scored with a blueprint, as a new run.

Nothing is generated: every cell is a stored answer of the run (`CellPlan.recorded`), scored
with the given blueprint's points. Judge calls go through the run's call layer, so a judgment
already made (same criterion, same answer, same judge) is taken from the cache and logged as
cached; only new ones are called. Prompts of the blueprint that the run never answered are
listed, not generated. The new run records what it was re-scored from (`rescored_from`) and
the run that generated the answers (`answers_from`, the same unless that run was a re-score).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.blueprint import parse_blueprint
from engine.blueprint.models import Blueprint, Prompt
from engine.errors import ConfigError
from engine.judge.consensus import JudgeSpec
from engine.providers import PriceTable
from engine.providers.custom import custom_models
from engine.providers.types import DEFAULT_CONCURRENCY
from engine.run.estimate import estimate_run
from engine.run.outcome import RunOptions
from engine.run.plan import CellPlan, RunPlan, judges_for, plan_run, with_custom_judges
from engine.run.prepared import PreparedRun, readiness_problems, record_run
from engine.run.recorded import CallTimes, Recorded
from engine.settings import load_settings
from engine.store import ACTIVE_STATUSES, CellRow, RunRecord, Store

__all__ = ["PreparedRescore", "prepare_rescore", "resume_rescore"]


@dataclass
class PreparedRescore(PreparedRun):
    """A re-score, planned (and recorded unless asked not to).

    Attributes:
        rescored_from: The run whose answers are scored.
        unanswered: Prompt id -> the run's models that never answered it (not generated).
        left_out: Prompt ids the run answered that the blueprint no longer has.
    """

    rescored_from: str = ""
    unanswered: dict[str, list[str]] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Source:
    """The run whose answers are re-scored, and the run that generated them."""

    run: RunRecord
    text: str
    blueprint: Blueprint
    origin: RunRecord
    origin_blueprint: Blueprint
    rows: list[CellRow]


def _run(store: Store, run_id: str) -> RunRecord:
    run = store.get_run(run_id)
    if run is None:
        raise ConfigError(
            f"There is no run '{run_id}' in {store.location}. Copy the id from the first line "
            "`blueprint run` printed, or from the studio's History page."
        )
    return run


def _blueprint_text(store: Store, run: RunRecord) -> str:
    text = store.blueprint_text(run.blueprint_hash)
    if text is None:
        raise ConfigError(
            f"The blueprint of run '{run.id}' is missing from the store; give the FILE to "
            "score its answers with."
        )
    return text


def _load(store: Store, run_id: str) -> _Source:
    """Read the run, its answers, and the plan of the run that generated them.

    Raises:
        ConfigError: No such run, or it has no answer to score.
    """
    run = _run(store, run_id)
    rows = store.cells(run_id)
    if not any(not r.failed for r in rows):
        raise ConfigError(
            f"Run '{run_id}' has no stored answers to re-score ({len(rows)} cell(s), none "
            "answered). Finish it first (`blueprint run --resume <id>`) or pick another run."
        )
    origin_id = str(run.options.get("answers_from") or run.id)
    origin = run if origin_id == run.id else _run(store, origin_id)
    text = _blueprint_text(store, run)
    blueprint = parse_blueprint(text, source=run.options.get("source"))
    if origin.id != run.id:
        origin_text = _blueprint_text(store, origin)
        origin_blueprint = parse_blueprint(origin_text, source=origin.options.get("source"))
    else:
        origin_blueprint = blueprint
    return _Source(run, text, blueprint, origin, origin_blueprint, rows)


def _judging(
    source: _Source, judges: Sequence[str] | None, judge: bool | None
) -> tuple[list[str] | None, bool]:
    """(`--judges` override, whether to judge): given ones, else what the run was run with.

    A run started with `--judges` keeps those judges; one that used its blueprint's (or the
    default) judges leaves the choice to the blueprint being scored.
    """
    if judges:
        return list(judges), True
    saved = source.run.options
    if judge is None:
        judge = bool(saved.get("judge", True))
    if "rescore_judges" in saved:
        return saved.get("rescore_judges"), judge
    used = saved.get("judges")
    if used:
        configured, custom = judges_for(source.blueprint, None)
        if not custom or [j.model for j in configured] != list(used):
            return [str(m) for m in used], judge
    return None, judge


def _same_question(a: Prompt, b: Prompt) -> bool:
    return [(m.role, m.content) for m in a.messages] == [(m.role, m.content) for m in b.messages]


def _cells(
    source: _Source, blueprint: Blueprint, times: CallTimes
) -> tuple[list[CellPlan], list[str], dict[str, list[str]], list[str]]:
    """The cells to score, the models, the unanswered prompts, and warnings."""
    opts = source.origin.options
    origin_plan = plan_run(
        source.origin_blueprint,
        models=opts.get("models"),
        judge=False,
        repeats=int(opts.get("repeats") or 1),
    )
    origins = {c.key: c for c in origin_plan.cells}
    models = list(dict.fromkeys(c.model_id for c in origin_plan.cells))
    by_prompt: dict[str, list[CellRow]] = {}
    for row in source.rows:
        by_prompt.setdefault(row.prompt_id, []).append(row)
        if row.model_id not in models:
            models.append(row.model_id)
    cells: list[CellPlan] = []
    unanswered: dict[str, list[str]] = {}
    warnings: list[str] = []
    tools = source.origin_blueprint.tools
    for prompt in blueprint.prompts:
        rows = by_prompt.get(prompt.id, [])
        answered = {r.model_id for r in rows}
        missing = [m for m in models if m not in answered]
        if missing:
            unanswered[prompt.id] = missing
        asked = source.origin_blueprint.prompt(prompt.id)
        if rows and asked is not None and not _same_question(asked, prompt):
            warnings.append(
                f"Prompt '{prompt.id}' asks something else than in run {source.run.id}; its "
                "stored answers are scored as they are."
            )
        for row in rows:
            origin = origins.get(row.key)
            if origin is None:
                warnings.append(
                    f"The stored answer of prompt '{row.prompt_id}' by '{row.model_id}' does "
                    "not match the run's plan; it is left out."
                )
                continue
            recorded = Recorded(origin=origin, row=row, times=times, tools=tools)
            cells.append(
                CellPlan(
                    prompt=prompt,
                    base_model=row.base_model,
                    model_id=row.model_id,
                    temperature=origin.temperature,
                    system=origin.system,
                    system_index=origin.system_index,
                    turns=0,
                    repeat=origin.repeat,
                    recorded=recorded,
                )
            )
    base_models = list(dict.fromkeys(c.base_model for c in cells))
    return cells, base_models, unanswered, warnings


def prepare_rescore(
    store: Store,
    run_id: str,
    text: str | None = None,
    *,
    source: str | None = None,
    judges: Sequence[str] | None = None,
    judge: bool | None = None,
    concurrency: int | None = None,
    out_dir: Path | None = None,
    environ: Mapping[str, str] | None = None,
    record: bool = True,
) -> PreparedRescore:
    """Plan a re-score of `run_id`'s answers with `text` (default: the blueprint the run used).

    Args:
        store: The store holding the run.
        run_id: The run whose stored answers are scored.
        text: The blueprint to score with; None for the run's own.
        source: The blueprint's file name (for messages and the new run's options).
        judges: Judge models (`--judges`); None for those the run was run with.
        judge: False scores without judges (`--no-judge`); None judges as the run did.
        concurrency: Judge calls in flight at once.
        out_dir: Where the comparison JSON is written (None: not written).
        environ: Where provider keys are read (default: the environment).
        record: Record the new run (False only plans it, as `--dry-run`).

    Raises:
        ConfigError: No such run, or it has no answer to score.
        BlueprintError: The blueprint cannot be parsed.
        StoreError: The store cannot be read or written.
    """
    loaded = _load(store, run_id)
    if text is None:
        text, source = loaded.text, source or loaded.run.options.get("source")
    settings = load_settings()
    same = text == loaded.text and source == loaded.run.options.get("source")
    blueprint = loaded.blueprint if same else parse_blueprint(text, source=source)
    override, judging = _judging(loaded, judges, judge)
    times = CallTimes.of(store.run_calls(loaded.origin.id).values())
    cells, models, unanswered, warnings = _cells(loaded, blueprint, times)
    if loaded.run.live_status in ACTIVE_STATUSES:
        warnings.insert(
            0,
            f"Run {run_id} is still running: only the {len(loaded.rows)} answer(s) stored so far "
            "are scored.",
        )
    specs: list[JudgeSpec] | None = None
    custom = False
    defined = custom_models(blueprint.models)
    if judging and any(pt.fn is None for c in cells for pt in c.prompt.points):
        specs, custom = judges_for(blueprint, override)
        specs = with_custom_judges(specs, defined)
    plan = RunPlan(
        blueprint=blueprint,
        models=models,
        cells=cells,
        judges=specs,
        custom_judges=custom,
        warnings=warnings,
        custom={j.model: defined[j.model] for j in specs or () if j.model in defined},
    )
    options = RunOptions(
        judges=override,
        judge=judging,
        repeats=int(loaded.origin.options.get("repeats") or 1),
        concurrency=concurrency or DEFAULT_CONCURRENCY,
        out_dir=out_dir,
        rescored_from=run_id,
        key_points_from=run_id,  # points extracted from an ideal in that run are judged again
    )
    estimate = estimate_run(plan, store, PriceTable(settings.prices))
    problems: list[str] = []
    if not cells:
        problems.append(
            f"None of the prompts of {source or 'the blueprint'} was answered in run {run_id}: "
            "there is nothing to re-score. Check the prompt ids, or run the blueprint."
        )
    if estimate.judge_calls > estimate.judge_cached:  # keys only for calls to make
        problems += readiness_problems(plan, environ, settings, generating=False)
    new_id = None
    if record and not problems:
        new_id = record_run(
            store,
            text,
            source,
            plan,
            options,
            estimate,
            {
                "rescored_from": run_id,
                "answers_from": loaded.origin.id,
                "rescore_judges": override,
            },
        )
    return PreparedRescore(
        new_id,
        plan,
        estimate,
        options,
        problems,
        settings,
        rescored_from=run_id,
        unanswered=unanswered,
        left_out=[
            pid
            for pid in dict.fromkeys(r.prompt_id for r in loaded.rows)
            if blueprint.prompt(pid) is None
        ],
    )


def resume_rescore(
    store: Store,
    run_id: str,
    text: str,
    saved: Mapping[str, Any],
    *,
    concurrency: int | None,
    out_dir: Path | None,
    environ: Mapping[str, str] | None = None,
) -> PreparedRescore:
    """Plan the rest of an interrupted re-score `run_id` with its own options (never generating).

    Raises:
        ConfigError: The run it re-scores is gone.
        BlueprintError: Its stored blueprint no longer parses (not expected).
    """
    prepared = prepare_rescore(
        store,
        str(saved["rescored_from"]),
        text,
        source=saved.get("source"),
        judges=saved.get("rescore_judges"),
        judge=bool(saved.get("judge", True)),
        concurrency=concurrency or int(saved.get("concurrency") or DEFAULT_CONCURRENCY),
        out_dir=out_dir,
        environ=environ,
        record=False,
    )
    prepared.run_id = run_id
    return prepared
