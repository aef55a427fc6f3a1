"""`blueprint plan` and `blueprint run`: see what a run will do, then do it (resumably)."""

from __future__ import annotations

import gc
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

import click

from engine.cli.ids import IdCommand
from engine.errors import BlueprintError, EngineError
from engine.modelids import DEFAULT_CONCURRENCY

if TYPE_CHECKING:
    from engine.run.estimate import Estimate
    from engine.run.outcome import Progress
    from engine.run.service import PreparedRun
    from engine.store import Store


def split_list(value: str | None) -> list[str] | None:
    """The comma-separated values of an option (None when not given or empty)."""
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def read_file(file: str) -> str:
    """A blueprint file's text; exit 2 with a located message when it cannot be read."""
    from engine.blueprint.inputs import read_blueprint_file

    try:
        return read_blueprint_file(file)
    except BlueprintError as exc:  # unreadable, too large, or not UTF-8 (with a position)
        click.echo(str(exc), err=True)
        sys.exit(2)


def _print_plan(prepared: Any) -> None:
    from engine.run.plan import EXTRACTED_POINTS_GUESS

    plan, est = prepared.plan, prepared.estimate
    bp = plan.blueprint
    temps = {c.temperature for c in plan.cells}
    systems = {c.system_index for c in plan.cells}
    click.echo(f"Blueprint: {bp.title or bp.source or 'untitled'} ({len(bp.prompts)} prompts)")
    repeats = max((c.repeat for c in plan.cells), default=0) + 1
    again = f" x {repeats} repeats" if repeats > 1 else ""
    click.echo(
        f"Matrix: {len(bp.prompts)} prompts x {len(plan.models)} models x {len(temps)} temperatures"
        f" x {len(systems)} system prompts{again} = {len(plan.cells)} cells"
    )
    click.echo(f"Models: {', '.join(plan.models) or '-'}")
    from engine.net.urls import display_url

    for model in plan.custom.values():
        shape = "completions" if model.format == "completions" else f"chat ({model.inherit})"
        click.echo(
            f"Custom model {model.id}: {shape} at {display_url(model.url)}, "
            f"model {model.model_name}"
        )
    if plan.judges:
        kind = "custom" if plan.custom_judges else "default (a backup judge may add calls)"
        click.echo(f"Judges ({kind}): {', '.join(j.label for j in plan.judges)}")
    elif plan.text_points:
        click.echo(
            f"Judges: none; {plan.text_points} text point assessment(s) will be left unjudged"
        )
    click.echo(f"Generation calls: {est.generation_calls} ({est.generation_cached} cached)")
    if plan.extractions:
        click.echo(
            f"Key-point extraction calls: {est.extraction_calls} ({est.extraction_cached} cached), "
            f"one per prompt with only an ideal answer, by {' then '.join(plan.extraction_models)}"
        )
    guess = ""
    if est.guessed_prompts:
        guess = (
            f", an estimate: {est.guessed_prompts} prompt(s) counted with "
            f"{EXTRACTED_POINTS_GUESS} points each until their key points are extracted"
        )
    click.echo(f"Judge calls: {est.judge_calls} ({est.judge_cached} cached){guess}")
    if plan.embedding_model is not None:
        click.echo(
            f"Embedding calls: at most {est.embedding_calls} with {plan.embedding_model} "
            "(answers and ideals, for similarity; identical texts are embedded once)"
        )
    print_cost(est)
    summary_model = prepared.options.summary_model
    if summary_model:
        problem = _summary_problem(summary_model)
        click.echo(
            f"Executive summary: 1 call to {summary_model} after every cell is scored "
            "(cached on a re-run; its cost is not in the estimate above)"
        )
        if problem:
            click.echo(f"warning: the summary cannot be written: {problem}")
    for warning in plan.warnings:
        click.echo(f"warning: {warning}")
    for problem in prepared.problems:
        click.echo(f"problem: {problem}", err=True)


def _summary_problem(model_id: str) -> str | None:
    from engine.providers import PriceTable, ProviderPool
    from engine.settings import load_settings

    return ProviderPool(prices=PriceTable(load_settings().prices)).check(model_id)


def print_cost(est: Estimate) -> None:
    """Print the estimate's calls to make, tokens and cost range."""
    click.echo(f"Calls to make: {est.calls_to_make}")
    click.echo(
        f"Tokens (estimate): ~{est.input_tokens:,} in, {est.output_tokens_low:,}-"
        f"{est.output_tokens_high:,} out"
    )
    from engine.report.costs import PRICE_HOWTO, UNKNOWN

    cost = f"${est.cost_low:.4f} - ${est.cost_high:.4f}"
    if est.unknown_prices:
        cost = UNKNOWN if est.cost_high == 0 else f"{cost} + {UNKNOWN}"
        cost += f" (no price known for {', '.join(sorted(est.unknown_prices))}: {PRICE_HOWTO})"
    click.echo(f"Cost (estimate): {cost}")


def _common(f: Any) -> Any:
    f = click.option(
        "--models", help="Comma-separated model ids (default: the blueprint's models)."
    )(f)
    f = click.option(
        "--judges", help="Comma-separated judge models (default: the blueprint's, else Weval's)."
    )(f)
    f = click.option(
        "--no-judge", is_flag=True, help="Do not judge text points (they are unverified)."
    )(f)
    f = click.option("--no-cache", is_flag=True, help="Do not reuse cached answers.")(f)
    f = click.option(
        "--repeat",
        "repeats",
        type=click.IntRange(1, 100),
        default=1,
        show_default=True,
        help="Generate every cell N times (ids get [rep:k]); each repeat is a real call.",
    )(f)
    f = click.option(
        "--summary",
        is_flag=True,
        help="Also write an executive summary (one more call, after every cell is scored).",
    )(f)
    f = click.option(
        "--summary-model",
        help="The model that writes the summary (implies --summary; default "
        "openrouter:google/gemini-2.5-flash, as Weval).",
    )(f)
    return f


def summary_choice(summary: bool, summary_model: str | None) -> str | None:
    """The summary model asked for by `--summary` / `--summary-model` (None: no summary)."""
    if summary_model:
        return summary_model.strip()
    if summary:
        from engine.summary.prompts import DEFAULT_SUMMARY_MODEL

        return DEFAULT_SUMMARY_MODEL
    return None


@click.command("plan")
@click.argument("file", type=click.Path(dir_okay=False))
@_common
def plan_cmd(
    file: str,
    models: str | None,
    judges: str | None,
    no_judge: bool,
    no_cache: bool,
    repeats: int,
    summary: bool,
    summary_model: str | None,
) -> None:
    """Show what running FILE would do: the matrix, calls, cached calls and a cost range.

    Nothing is called or spent. Exit 0 when the run could start, 2 when something stops it.
    """
    from engine.run.outcome import RunOptions
    from engine.run.service import prepare_run
    from engine.store import open_store

    try:
        options = RunOptions(
            models=split_list(models),
            judges=split_list(judges),
            judge=not no_judge,
            repeats=repeats,
            use_cache=not no_cache,
            summary_model=summary_choice(summary, summary_model),
        )
        prepared = prepare_run(
            open_store(), read_file(file), source=file, options=options, record=False
        )
    except EngineError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    _print_plan(prepared)
    sys.exit(2 if prepared.problems else 0)


class _Display:
    """Progress on a terminal (rich) or as plain lines."""

    def __init__(self, total: int) -> None:
        self.total = max(total, 1)
        self.tty = sys.stdout.isatty()
        self.last = 0.0
        self.bar: Any = None
        if self.tty:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total} calls"),
                TextColumn("{task.fields[extra]}"),
                TimeElapsedColumn(),
            )
            self.task = self.bar.add_task("running", total=self.total, extra="")
            self.bar.start()

    def update(self, p: Any) -> None:
        if self.bar is not None:
            extra = self._extra(p)
            self.bar.update(self.task, completed=min(p.done_calls, self.total), extra=extra)
            return
        now = time.monotonic()
        if now - self.last >= 2.0 or p.done_cells == p.total_cells:  # the text only then
            self.last = now
            click.echo(
                f"progress {p.done_calls}/{p.total_calls} calls, {p.done_cells}/{p.total_cells} cells, {self._extra(p)}"
            )

    @staticmethod
    def _extra(p: Any) -> str:
        return f"cached {p.cached_calls} · failed {p.failed_calls} · ${p.cost_usd:.4f}"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@click.command("run", cls=IdCommand, id_options=("--resume",))
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@_common
@click.option(
    "--concurrency",
    type=click.IntRange(1, 512),
    default=None,
    help=f"Calls in flight at once (default {DEFAULT_CONCURRENCY}).",
)
@click.option(
    "--out", "out_dir", type=click.Path(file_okay=False), help="Folder for the comparison JSON."
)
@click.option(
    "--max-cost",
    type=click.FloatRange(min=0),
    help="Refuse or stop cleanly beyond this many US dollars.",
)
@click.option(
    "--queue",
    "queued",
    is_flag=True,
    help="Team mode: queue the run for `blueprint worker` and follow it here until it ends.",
)
@click.option(
    "--resume",
    "resume_id",
    help="Finish an interrupted or stopped run without repeating finished calls "
    "(`--resume -- ID` for an id that starts with `-`).",
)
def run_cmd(
    file: str | None,
    models: str | None,
    judges: str | None,
    no_judge: bool,
    no_cache: bool,
    concurrency: int | None,
    out_dir: str | None,
    max_cost: float | None,
    resume_id: str | None,
    repeats: int,
    queued: bool,
    summary: bool,
    summary_model: str | None,
) -> None:
    """Generate, judge, score and store FILE against several models.

    The first line printed is `run <id>  <studio link>`, before any call is made, so an
    interrupted run can be finished with `--resume <id>`. Ctrl-C stops cleanly (resumable).
    Exit 0 when every cell was scored, 1 when some failed or the run stopped, 2 for unusable
    input. With --queue (team mode) the workers execute the run; Ctrl-C asks them to stop it.
    """
    from engine.run.outcome import RunOptions
    from engine.run.service import default_out_dir, prepare_resume, prepare_run
    from engine.store import open_store

    try:
        if queued:
            from engine.queue.enqueue import team_database_url

            team_database_url()
        store = open_store()
        if resume_id:
            prepared = prepare_resume(
                store,
                resume_id,
                concurrency=concurrency,
                max_cost_usd=max_cost,
                out_dir=Path(out_dir) if out_dir else None,
            )
        else:
            if not file:
                click.echo("Give a blueprint FILE, or --resume RUN_ID.", err=True)
                sys.exit(2)
            options = RunOptions(
                models=split_list(models),
                judges=split_list(judges),
                judge=not no_judge,
                repeats=repeats,
                concurrency=concurrency or DEFAULT_CONCURRENCY,
                use_cache=not no_cache,
                max_cost_usd=max_cost,
                out_dir=Path(out_dir) if out_dir else default_out_dir(),
                summary_model=summary_choice(summary, summary_model),
            )
            prepared = prepare_run(store, read_file(file), source=file, options=options)
    except EngineError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if queued:
        from engine.cli.queue_watch import queue_and_watch

        queue_and_watch(store, _announce(prepared), prepared.plan, out_dir, again=bool(resume_id))
        return
    execute_prepared(store, prepared)


def _announce(prepared: PreparedRun) -> str:
    """Print `run <id>  <link>` and the plan's warnings (exit 2 on problems); return the id."""
    from engine.run.service import studio_link

    if prepared.problems or prepared.run_id is None:
        for problem in prepared.problems:
            click.echo(f"problem: {problem}", err=True)
        sys.exit(2)
    run_id = prepared.run_id
    click.echo(f"run {run_id}  {studio_link(run_id)}")
    sys.stdout.flush()
    for warning in prepared.plan.warnings:
        click.echo(f"warning: {warning}", err=True)
    return run_id


def execute_prepared(
    store: Store,
    prepared: PreparedRun,
    *,
    preamble: Callable[[], None] | None = None,
    epilogue: Callable[[Progress], None] | None = None,
) -> NoReturn:
    """Run a prepared (recorded) run to its end, printing as `blueprint run` does; exit.

    The first line is `run <id>  <link>`; `preamble` prints more before any call is made,
    `epilogue` after the totals line (given the run's final progress).
    """
    from engine.comparison.cost import RunCost
    from engine.js.values import format_score
    from engine.modelids import display_names
    from engine.output import OutputError
    from engine.run.service import run_sync
    from engine.similarity.hybrid import WEVAL_SCORE_NOTE
    from engine.store import ModelTotals

    run_id = _announce(prepared)
    if preamble is not None:
        preamble()
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        click.echo("\nstopping after the calls in flight (Ctrl-C again to quit now)...", err=True)

    previous = signal.signal(signal.SIGINT, on_signal)
    display = _Display(prepared.options.planned_calls(prepared.plan.total_calls))
    # This process ends with the run: what exists now (modules, blueprint, plan) is never
    # garbage, so keep the collector's full passes off it (bench/run.py measures the gain).
    gc.freeze()
    try:
        outcome = run_sync(
            run_id,
            prepared.plan,
            store,
            prepared.options,
            stop=stop,
            on_progress=display.update,
            settings=prepared.settings,
        )
    except OutputError as exc:
        display.close()
        click.echo(
            f"{exc} The answers are stored; write the file with: "
            f"blueprint run --resume -- {run_id} --out FOLDER",
            err=True,
        )
        sys.exit(2)
    except KeyboardInterrupt:
        display.close()
        click.echo(f"interrupted; finish it with: blueprint run --resume {run_id}", err=True)
        sys.exit(1)
    except EngineError as exc:
        display.close()
        click.echo(f"{exc} Finish it with: blueprint run --resume {run_id}", err=True)
        sys.exit(2)
    finally:
        signal.signal(signal.SIGINT, previous)
    display.close()
    p = outcome.progress
    cost = outcome.cost if outcome.cost is not None else RunCost(total=None)  # set by every end
    click.echo(
        f"{outcome.status}: {p.done_cells}/{p.total_cells} cells, {p.done_calls} calls "
        f"({p.cached_calls} cached, {p.failed_calls} failed), {cost.breakdown()}, "
        f"{p.input_tokens:,} tokens in, {p.output_tokens:,} out"
    )
    if outcome.summary_error:
        click.echo(
            f"executive summary: not written: {outcome.summary_error} "
            f"Try again with: blueprint summarize {run_id}",
            err=True,
        )
    elif prepared.options.summary_model and outcome.status == "completed":
        click.echo(f"executive summary: written by {prepared.options.summary_model}")
    if epilogue is not None:
        epilogue(p)
    if outcome.status != "completed":
        click.echo(
            f"{outcome.error or 'stopped'} Finish it with: blueprint run --resume {run_id}",
            err=True,
        )
        sys.exit(1)
    for pid, found in outcome.key_points.items():
        if found.error is not None:
            click.echo(f"warning: prompt '{pid}' is not scored: {found.error}", err=True)
    try:
        totals = store.model_totals(run_id)
    except EngineError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    weval = outcome.comparison.weval_scores() if outcome.comparison is not None else {}
    names = display_names(outcome.summaries)
    for model, summary in sorted(outcome.summaries.items(), key=lambda kv: -(kv[1].average or 0)):
        shown = format_score(summary.average, missing="  -  ")
        t = totals.get(model, ModelTotals())
        theirs = ""
        if model in weval:
            score = weval[model]
            theirs = f"; Weval's score {format_score(score, missing='-')}"
        click.echo(
            f"  {shown}  {names.get(model, model)}  ({summary.scored_prompts} scored, "
            f"{summary.failed_prompts} failed; {t.input_tokens:,} tokens in, "
            f"{t.output_tokens:,} out; {cost.model_text(model)} with judging; "
            f"{t.latency_ms / 1000:.2f} s per answer{theirs})"
        )
    if weval:
        click.echo(f"note: {WEVAL_SCORE_NOTE}")
    if outcome.uncertainty is not None and len(outcome.summaries) > 0:
        from engine.stats import summary_lines

        for line in summary_lines(outcome.uncertainty):
            click.echo(line)
    if outcome.path:
        click.echo(f"wrote {outcome.path}")
    sys.exit(1 if p.failed_cells else 0)
