"""`blueprint compare BASE CAND`: what changed between two runs (ids or comparison JSON files)."""

from __future__ import annotations

import gc
import sys

import click

from engine.errors import EngineError

__all__ = ["compare_cmd"]


@click.command("compare")
@click.argument("baseline", metavar="BASE")
@click.argument("candidate", metavar="CAND")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Plain text for people, JSON for scripts.",
)
@click.option(
    "--fail-on-drop",
    type=click.FloatRange(min=0),
    default=None,
    metavar="X",
    help="Exit 1 when some model's average score fell by more than X (e.g. 0.05).",
)
@click.option(
    "--significant",
    is_flag=True,
    default=False,
    help="With --fail-on-drop: fail only when the drop is also larger than chance (its 95% "
    "interval, paired over the prompts both runs scored, excludes 0).",
)
def compare_cmd(
    baseline: str, candidate: str, fmt: str, fail_on_drop: float | None, significant: bool
) -> None:
    """Compare two runs: each model's average, each prompt's score and each point.

    BASE and CAND are run ids (as `blueprint run` prints them) or comparison JSON files
    (ours or Weval's). Points are matched by their content, so a point you edited shows as
    removed and added. Each model's change comes with its 95% interval, paired over the
    prompts both runs scored. Exit codes: 0, or 1 when --fail-on-drop is exceeded (with
    --significant: by a drop larger than chance); 2 when an input cannot be used. Put `--` before an id that starts with `-`.
    """
    # The process-wide GC setting, made here at the entry point (never in the library): two
    # comparison files of 15 MB become millions of lasting objects that reference counting
    # frees; `python -m bench.iterate` measured loading them at about half the time without
    # the collector, at the same peak memory.
    gc.disable()
    from engine.compare import compare_runs, load_run_view, render_text
    from engine.jsonfast import dumps_compact

    try:
        diff = compare_runs(load_run_view(baseline), load_run_view(candidate))
    except EngineError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if fmt == "json":
        click.echo(dumps_compact(diff.to_json()))
    else:
        click.echo(render_text(diff))
    if significant and fail_on_drop is None:
        click.echo("--significant only changes --fail-on-drop X; give both.", err=True)
        sys.exit(2)
    drop = diff.largest_drop(significant=significant)
    if fail_on_drop is not None and drop > fail_on_drop + 1e-9:
        chance = " and the drop is larger than chance" if significant else ""
        click.echo(
            f"A model's average fell by {drop:.2f}, more than {fail_on_drop:g}{chance}.",
            err=True,
        )
        sys.exit(1)
    if fail_on_drop is not None and significant and diff.largest_drop() > fail_on_drop + 1e-9:
        click.echo(
            f"A model's average fell by {diff.largest_drop():.2f}, more than {fail_on_drop:g}, "
            "but within chance (its 95% interval includes 0): not failing (--significant).",
            err=True,
        )
