"""`blueprint summarize RUN`: write, store and print the executive summary of a finished run."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from engine.cli.ids import IdCommand
from engine.errors import EngineError

__all__ = ["print_summary", "summarize_cmd"]


def print_summary(summary: dict[str, Any]) -> None:
    """Print an executive summary as plain text, marked as written by a model."""
    from engine.summary.prompts import GRADING_DIMENSIONS

    click.echo(
        f"Executive summary (written by the model {summary.get('modelId')}; check it "
        "against the scores)"
    )
    structured = summary.get("structured") or {}
    if not summary.get("isStructured"):
        click.echo(str(summary.get("content", "")))
        return
    for key, title in (
        ("keyFindings", "Key findings"),
        ("strengths", "Strengths"),
        ("weaknesses", "Weaknesses"),
        ("patterns", "Patterns"),
    ):
        if structured.get(key):
            click.echo(f"\n{title}:")
            for item in structured[key]:
                click.echo(f"  - {item}")
    for grade in structured.get("grades") or []:
        shown = [
            f"{GRADING_DIMENSIONS[k][0]} {v:g}/10"
            for k, v in grade["grades"].items()
            if isinstance(v, int | float)
        ]
        click.echo(f"\nGrades of {grade['modelId']}: {'; '.join(shown) or 'none given'}")


def _rewrite(path: str | None, summary: dict[str, Any]) -> Path | None:
    """Add the summary to the run's comparison JSON, if it is still where it was written."""
    from engine.output import write_json_atomic

    if not path or not Path(path).is_file():
        return None
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["executiveSummary"] = summary
    write_json_atomic(Path(path), data)
    return Path(path)


@click.command("summarize", cls=IdCommand)
@click.argument("run_id", metavar="RUN")
@click.option(
    "--model",
    "model_id",
    help="The model that writes it (default openrouter:google/gemini-2.5-flash, as Weval).",
)
@click.option("--no-cache", is_flag=True, help="Ask again even if this summary is cached.")
@click.option("--json", "as_json", is_flag=True, help="Print Weval's executiveSummary JSON.")
def summarize_cmd(run_id: str, model_id: str | None, no_cache: bool, as_json: bool) -> None:
    """Write an executive summary of a finished RUN with one model call, and store it.

    The models are anonymous ("Model A", ...) in what the summary model reads, and named in
    what is stored. The summary is added to the run's comparison JSON (`executiveSummary`)
    when that file is still where the run wrote it. Exit 0 when written, 1 when the model
    call failed, 2 for an unusable RUN.
    """
    from engine.errors import ConfigError
    from engine.run.summary import summarize_run
    from engine.store import open_store
    from engine.summary.prompts import DEFAULT_SUMMARY_MODEL
    from engine.summary.service import SummaryError

    model = (model_id or DEFAULT_SUMMARY_MODEL).strip()
    try:
        store = open_store()
        result = summarize_run(store, run_id, model, use_cache=not no_cache)
        run = store.get_run(run_id)
        written = _rewrite(run.comparison_path if run else None, result.summary)
    except (ConfigError, OSError, ValueError) as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    except SummaryError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    except EngineError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(result.summary, indent=2, ensure_ascii=False))
    else:
        print_summary(result.summary)
        cost = "cached" if result.cached else f"${result.cost_usd or 0:.4f}"
        click.echo(f"\nstored with run {run_id} ({cost})")
        if written:
            click.echo(f"wrote {written}")
