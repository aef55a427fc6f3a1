"""A chat app's pasted answers scored as a run: model `app:<name>`, never generated.

A person asks a chat app (ChatGPT's or Claude's site) each prompt of a blueprint and pastes
its answers; they become a run of the model `app:<name>`, scored like any other (functions,
judges, key points from ideals), stored, and shown on the Results and Compare pages. Each
cell holds the app's answers as a stored conversation (`CellPlan.recorded`), as a re-score
does; a prompt left without an answer has no cell at all: it is "not answered", never a
failure of the app. The answers are kept with the run (`options["pasted"]`), so an
interrupted run resumes (and a queued one runs on a worker) without asking for them again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.blueprint import parse_blueprint
from engine.blueprint.models import Blueprint
from engine.errors import ConfigError
from engine.modelids import app_model_id, effective_model_id
from engine.providers import PriceTable
from engine.providers.types import DEFAULT_CONCURRENCY
from engine.run.estimate import estimate_run
from engine.run.outcome import RunOptions
from engine.run.plan import CellPlan, plan_run
from engine.run.prepared import PreparedRun, readiness_problems, record_run
from engine.run.recorded import CallTimes, Recorded, generated_turns
from engine.settings import load_settings
from engine.store import CellRow, Store

__all__ = [
    "PASTED_OPTION",
    "PreparedPasted",
    "answer_turns",
    "prepare_pasted",
    "resume_pasted",
]

PASTED_OPTION = "pasted"
"""The run option holding `{"model": "app:<name>", "answers": {prompt id: [turns]}}`."""


@dataclass
class PreparedPasted(PreparedRun):
    """A pasted-answers run, planned (and recorded unless asked not to).

    Attributes:
        model: The app's model id (`app:chatgpt-web`).
        unanswered: Prompt ids with no pasted answer: not scored, not counted as failed.
    """

    model: str = ""
    unanswered: list[str] = field(default_factory=list)


def _first_cells(blueprint: Blueprint, model: str) -> dict[str, CellPlan]:
    """One cell per prompt for `model`: no system prompt (an app has none of ours)."""
    plan = plan_run(blueprint, models=[model], judge=False)
    first: dict[str, CellPlan] = {}
    for cell in plan.cells:
        if cell.prompt.id not in first:
            first[cell.prompt.id] = replace(
                cell,
                system=None,
                system_index=None,
                model_id=effective_model_id(model, cell.temperature, None),
            )
    return first


def answer_turns(blueprint: Blueprint) -> dict[str, int]:
    """How many answers each prompt needs from the app: one per turn the model writes.

    A plain prompt needs one; a conversation with `assistant: null` turns needs one for each
    of them, and one more when it ends with a user turn.
    """
    probe = app_model_id("probe")
    return {pid: len(generated_turns(c)) for pid, c in _first_cells(blueprint, probe).items()}


def _history(cell: CellPlan, answers: Sequence[str]) -> list[dict[str, Any]]:
    """The conversation the app had: the prompt's turns with its answers in their places."""
    history: list[dict[str, Any]] = []
    given = iter(answers)
    for msg in cell.prompt.messages:
        if msg.is_placeholder:
            history.append({"role": "assistant", "content": next(given)})
        else:
            history.append({"role": msg.role, "content": msg.content or ""})
    if cell.prompt.messages and cell.prompt.messages[-1].role == "user":
        history.append({"role": "assistant", "content": next(given)})
    return history


def _clean(
    answers: Mapping[str, Sequence[str] | str], needed: Mapping[str, int]
) -> tuple[dict[str, list[str]], list[str]]:
    """The answers kept (prompt id -> one text per turn) and the problems found."""
    kept: dict[str, list[str]] = {}
    problems: list[str] = []
    for pid, given in answers.items():
        turns = [given] if isinstance(given, str) else list(given)
        if pid not in needed:
            problems.append(f"The blueprint has no prompt '{pid}' to answer.")
            continue
        filled = [t for t in turns if isinstance(t, str) and t.strip()]
        if not filled:
            continue  # not answered
        if len(turns) != needed[pid] or len(filled) != len(turns):
            problems.append(
                f"Prompt '{pid}' needs the app's answer to each of its {needed[pid]} turn(s); "
                f"{len(filled)} {'is' if len(filled) == 1 else 'are'} given. Fill every turn, "
                "or leave them all empty (not answered)."
            )
            continue
        kept[pid] = [str(t) for t in turns]
    return kept, problems


def prepare_pasted(
    store: Store,
    text: str,
    model: str,
    answers: Mapping[str, Sequence[str] | str],
    *,
    source: str | None = None,
    judges: Sequence[str] | None = None,
    judge: bool = True,
    concurrency: int | None = None,
    out_dir: Path | None = None,
    environ: Mapping[str, str] | None = None,
    draft: tuple[str, int] | None = None,
    record: bool = True,
) -> PreparedPasted:
    """Plan a run that scores a chat app's pasted answers to the blueprint `text`.

    Args:
        store: Where the run is recorded (and judgments cached).
        text: The blueprint.
        model: The app's name (`chatgpt-web` or `app:chatgpt-web`).
        answers: Prompt id -> the app's answer (a text), or one text per turn it writes
            (see `answer_turns`); a prompt left out or left empty is not answered.
        source: The blueprint's file name.
        judges: Judge models; None for the blueprint's (else Weval's defaults).
        judge: False scores without judges (text points stay unverified).
        concurrency: Judge calls in flight at once.
        out_dir: Where the comparison JSON is written (None: not written).
        environ: Where provider keys are read (default: the environment).
        draft: The studio draft and version the text is, if any.
        record: Record the run (False only plans it).

    Raises:
        ConfigError: The name is not a valid app name.
        BlueprintError: The blueprint cannot be parsed.
        StoreError: The store cannot be read or written.
    """
    try:
        model = app_model_id(model)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    blueprint = parse_blueprint(text, source=source)
    settings = load_settings()
    firsts = _first_cells(blueprint, model)
    needed = {pid: len(generated_turns(c)) for pid, c in firsts.items()}
    kept, problems = _clean(answers, needed)
    plan = plan_run(blueprint, models=[model], judges=judges, judge=judge)
    problems = [*plan.problems, *problems]
    cells: list[CellPlan] = []
    for pid, cell in firsts.items():
        given = kept.get(pid)
        if given is None:
            continue
        history = _history(cell, given)
        row = CellRow(
            run_id="",
            prompt_id=pid,
            model_id=cell.model_id,
            base_model=model,
            status="scored",
            response=given[-1],
            messages=json.dumps(history, ensure_ascii=False),
        )
        recorded = Recorded(origin=cell, row=row, times=CallTimes(), tools=blueprint.tools)
        cells.append(replace(cell, turns=0, repeat=0, recorded=recorded))
    plan = replace(plan, cells=cells, problems=[])
    if not cells and not problems:
        problems.append("No prompt has an answer: paste the app's answer to at least one prompt.")
    options = RunOptions(
        models=[model],
        judges=list(judges) if judges else None,
        judge=judge,
        concurrency=concurrency or DEFAULT_CONCURRENCY,
        out_dir=out_dir,
        draft=draft,
    )
    estimate = estimate_run(plan, store, PriceTable(settings.prices))
    to_call = estimate.judge_calls - estimate.judge_cached + estimate.extraction_calls
    if not problems and to_call > estimate.extraction_cached:
        problems += readiness_problems(plan, environ, settings, generating=False)
    run_id = None
    if record and not problems:
        run_id = record_run(
            store, text, source, plan, options, estimate,
            {PASTED_OPTION: {"model": model, "answers": kept}},
        )  # fmt: skip
    return PreparedPasted(
        run_id,
        plan,
        estimate,
        options,
        problems,
        settings,
        model=model,
        unanswered=[pid for pid in firsts if pid not in kept],
    )


def resume_pasted(
    store: Store,
    run_id: str,
    text: str,
    saved: Mapping[str, Any],
    *,
    concurrency: int | None,
    out_dir: Path | None,
    environ: Mapping[str, str] | None = None,
) -> PreparedPasted:
    """Plan the rest of a recorded pasted-answers run from its own options (a resume, a worker).

    Raises:
        ConfigError: The run's options hold no pasted answers.
        BlueprintError: Its stored blueprint no longer parses (not expected).
    """
    pasted = saved.get(PASTED_OPTION)
    if not isinstance(pasted, dict) or not isinstance(pasted.get("answers"), dict):
        raise ConfigError(f"Run '{run_id}' holds no pasted answers to score.")
    prepared = prepare_pasted(
        store,
        text,
        str(pasted.get("model") or ""),
        pasted["answers"],
        source=saved.get("source"),
        judges=saved.get("judges"),
        judge=bool(saved.get("judge", True)),
        concurrency=concurrency or int(saved.get("concurrency") or DEFAULT_CONCURRENCY),
        out_dir=out_dir,
        environ=environ,
        record=False,
    )
    prepared.run_id = run_id
    return prepared
