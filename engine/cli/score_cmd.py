"""`blueprint score`: score recorded responses against a blueprint, without generating."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from engine.blueprint import load_blueprint
from engine.errors import BlueprintError, EngineError
from engine.js.values import format_score
from engine.loop import run_to_end
from engine.modelids import APP_PREFIX, app_model_id
from engine.scoring.cells import CellScore

if TYPE_CHECKING:
    from engine.blueprint import Blueprint
    from engine.responses import ResponseRow


def _explain_lines(cell: CellScore) -> list[str]:
    ex = cell.explain()
    head = f"{cell.prompt_id} × {cell.model_id}: "
    if cell.failed:
        return [head + (cell.error or "")]
    lines = [head + format_score(ex.score, missing="no score") + f"   {ex.formula}"]
    for group in ex.groups:
        if group.kind == "required":
            lines.append(
                f"  required points: weighted mean {format_score(group.score)} (total weight {group.weight_total:g})"
            )
            for p in group.points:
                if p.score is not None:
                    lines.append(f"    {format_score(p.score)} × {p.weight:g}  {p.text}")
        else:
            lines.append(
                f"  alternative paths: best is {group.winner} with {format_score(group.score)}"
            )
            for path in group.paths:
                shown = format_score(path.score, missing="none scored")
                flag = (
                    "  (merged with should_not points of the same index, as Weval does)"
                    if path.merged_should_not
                    else ""
                )
                lines.append(f"    {path.path_id}: {shown}{flag}")
                for p in path.points:
                    if p.score is not None:
                        lines.append(f"      {format_score(p.score)} × {p.weight:g}  {p.text}")
    for p in ex.left_out:
        lines.append(f"  left out ({p.reason}): {p.text}")
    return lines


def _bad_app_names(models: Iterable[str]) -> list[str]:
    """Why each `app:` model name of the file is not a valid app name (none: all are)."""
    out = []
    for model in dict.fromkeys(models):
        if model.strip().lower().startswith(APP_PREFIX):
            try:
                app_model_id(model)
            except ValueError as exc:
                out.append(str(exc))
    return out


def _not_answered(blueprint: Blueprint, rows: Sequence[ResponseRow]) -> list[str]:
    """Lines naming the prompts models left unanswered: not scored, not counted as failed.

    Models that left the same prompts unanswered share a line; at most five lines, then a
    count of the rest (a file of hundreds of models stays readable).
    """
    answered: dict[str, set[str]] = {}
    for row in rows:
        answered.setdefault(row.model, set()).add(row.prompt_id)
    groups: dict[tuple[str, ...], list[str]] = {}
    for model, done in answered.items():
        missing = tuple(p.id for p in blueprint.prompts if p.id not in done)
        if missing:
            groups.setdefault(missing, []).append(model)
    lines = []
    for missing, models in list(groups.items())[:5]:
        shown = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
        who = ", ".join(models[:3]) + (f" and {len(models) - 3} more" if len(models) > 3 else "")
        lines.append(
            f"not answered by {who}: {len(missing)} prompt(s) ({shown}); no score, "
            "not counted as failed"
        )
    if len(groups) > 5:
        lines.append(f"... and {len(groups) - 5} more groups of models with unanswered prompts")
    return lines


@click.command("score")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--responses",
    "--answers",
    "responses_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="JSONL: one {prompt_id, model, response} per line (optionally messages, tool_calls, "
    "duration_ms); a chat app's pasted answers are the model app:NAME.",
)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    help="Write the comparison JSON here (default: stdout).",
)
@click.option(
    "--judges",
    help="Judge text points with these models, comma-separated (e.g. openrouter:openai/gpt-4.1-mini).",
)
@click.option(
    "--no-judge", is_flag=True, help="Never judge text points (they are reported as unverified)."
)
@click.option("--explain", is_flag=True, help="Print the arithmetic behind every score.")
def score(
    file: str,
    responses_path: str,
    out_path: str | None,
    judges: str | None,
    no_judge: bool,
    explain: bool,
) -> None:
    """Score the responses in a JSONL file against FILE, without generating anything.

    Writes Weval's comparison JSON. Bad lines of the responses file are reported with their
    line number and skipped; the other rows are scored. A prompt a model has no line for
    is not answered: it gets no score and does not count as failed (listed on stderr). A chat
    app's pasted answers are written as the model `app:NAME` (such as `app:chatgpt-web`).
    Exit 0 when every line was scored, 1 when some lines were skipped, 2 when FILE or the
    responses file cannot be used.
    """
    # The one process-wide GC setting, made here at the entry point (never in the library):
    # a short batch process whose objects are freed by reference counting. `python -m
    # bench.score` measured 0.6-0.7x the CPU time with the collector off, the same peak memory.
    gc.disable()
    from engine.checks import CheckEnv
    from engine.comparison.build import build_comparison
    from engine.output import write_json_atomic
    from engine.responses import read_responses
    from engine.scoring.offline import score_rows
    from engine.settings import load_settings

    try:
        blueprint = load_blueprint(file)
    except BlueprintError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if judges and no_judge:
        click.echo("Use either --judges or --no-judge, not both.", err=True)
        sys.exit(2)
    try:
        rows, problems = read_responses(Path(responses_path), [p.id for p in blueprint.prompts])
        settings = load_settings()
    except EngineError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    for problem in problems:
        click.echo(problem.located(responses_path), err=True)
    bad_names = _bad_app_names(row.model for row in rows)
    if bad_names:
        for message in bad_names:
            click.echo(f"{responses_path}: {message}", err=True)
        sys.exit(2)
    env = CheckEnv(settings=settings)
    chosen = None
    coverage = blueprint.evaluation_config.get("llm-coverage")
    if not no_judge and (judges or (isinstance(coverage, dict) and coverage.get("judges"))):
        from engine.run.judging import judge_problems, offline_judges

        chosen = offline_judges(
            blueprint, [j.strip() for j in judges.split(",")] if judges else None
        )
        if chosen is not None:
            missing = judge_problems(chosen[0])
            if missing:
                for message in missing:
                    click.echo(
                        f"problem: {message} (or score without judging: --no-judge)", err=True
                    )
                sys.exit(2)
    if chosen is None:
        cells = score_rows(blueprint, rows, env)
    else:
        from engine.run.judging import score_with_judges
        from engine.store import open_store

        try:
            store = open_store()  # judges' answers are cached in $BLUEPRINT_HOME
            cells = run_to_end(
                lambda: score_with_judges(blueprint, rows, env, chosen[0], chosen[1], store)
            )
        except EngineError as exc:
            click.echo(str(exc), err=True)
            sys.exit(2)
    unjudged = sum(
        1 for c in cells for a in c.assessments if a.kind == "text" and a.status == "unverified"
    )
    if unjudged:
        click.echo(
            f"note: {unjudged} text point(s) were left unjudged and out of the scores; to judge "
            "them, pass --judges openrouter:openai/gpt-4.1-mini (and set OPENROUTER_API_KEY).",
            err=True,
        )
    responses: dict[str, dict[str, str]] = {}
    histories: dict[str, dict[str, list[dict[str, object]]]] = {}
    for row in rows:
        text = (
            row.response
            if row.response is not None
            else next(
                (
                    str(m.get("content") or "")
                    for m in reversed(row.messages or [])
                    if m.get("role") == "assistant"
                ),
                "",
            )
        )
        responses.setdefault(row.prompt_id, {})[row.model] = text
        if row.messages:
            histories.setdefault(row.prompt_id, {})[row.model] = list(row.messages)
    comparison = build_comparison(blueprint, cells, responses=responses, histories=histories)
    if out_path:
        try:
            write_json_atomic(Path(out_path), comparison.to_weval())
        except EngineError as exc:
            click.echo(str(exc), err=True)
            sys.exit(2)
    else:
        click.echo(comparison.to_json())
    for line in _not_answered(blueprint, rows):  # after the output: a write error stays alone
        click.echo(line, err=True)
    if explain:
        for cell in sorted(cells, key=lambda c: (c.prompt_id, c.model_id)):
            for line in _explain_lines(cell):
                click.echo(line, err=out_path is None)
    sys.exit(1 if problems else 0)
