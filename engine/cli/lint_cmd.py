"""`blueprint lint`: report a blueprint's problems in plain words, with positions and fixes."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from engine.errors import BlueprintError, ConfigError
from engine.output import well_formed
from engine.settings import Settings, load_settings

if TYPE_CHECKING:
    from engine.lint import Diagnostic


def _read(path: str, settings: Settings) -> str | None:
    from engine.blueprint.inputs import read_blueprint_file

    try:
        return read_blueprint_file(path, settings=settings)
    except BlueprintError as exc:  # unreadable, too large, or not UTF-8 (with a position)
        click.echo(str(exc), err=True)
    return None


def _row(path: str, d: Diagnostic) -> dict[str, Any]:
    return {"file": path, **d.model_dump(mode="json")}


def echo_diagnostic(path: str, d: Diagnostic) -> None:
    """Print one diagnostic as `blueprint lint` does: `FILE:LINE:COL: severity code: message`."""
    click.echo(f"{path}:{d.line}:{d.column}: {d.severity} {d.code}: {d.message}")
    if d.fix is not None:
        click.echo(f"    fix: {d.fix.title}")


def _settings() -> Settings:
    try:
        return load_settings()
    except ConfigError as exc:
        click.echo(f"warning: {exc} Using default settings.", err=True)
        return Settings()


@click.command("lint")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="`text` for people, `json` for scripts and editors.",
)
def lint_command(files: tuple[str, ...], fmt: str) -> None:
    """Check blueprint FILES and report problems, with what to write instead.

    Exit 0 when no problem is an error, 1 when one is, 2 when a file cannot be read.
    """
    from engine.lint import lint

    settings = _settings()
    rows: list[dict[str, Any]] = []
    unreadable = 0
    counts = {"error": 0, "warning": 0, "info": 0}
    for path in files:
        text = _read(path, settings)
        if text is None:
            unreadable += 1
            continue
        for d in lint(text, source=path, settings=settings):
            counts[d.severity] += 1
            if fmt == "json":
                rows.append(_row(path, d))
            else:
                echo_diagnostic(path, d)
    errors = counts["error"]
    if fmt == "json":
        click.echo(well_formed(json.dumps(rows, indent=2, ensure_ascii=False)))
    else:
        summary = ", ".join(
            f"{n} {k}{'s' if n != 1 and k != 'info' else ''}" for k, n in counts.items()
        )
        click.echo(f"{len(files) - unreadable} file(s) checked: {summary}.", err=True)
    sys.exit(2 if unreadable else 1 if errors else 0)
