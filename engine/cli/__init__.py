"""The `blueprint` command line: one click group, one module per command."""

from __future__ import annotations

import io
import sys

import click

from engine.cli.compare_cmd import compare_cmd
from engine.cli.lint_cmd import lint_command
from engine.cli.normalize_cmd import normalize
from engine.cli.run_cmd import plan_cmd, run_cmd
from engine.cli.schema_cmd import schema
from engine.cli.score_cmd import score
from engine.cli.studio_cmd import studio

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blueprint-studio")
def cli() -> None:
    """Write, lint, run and compare rubric-based LLM evaluations (Weval blueprints)."""


cli.add_command(normalize)
cli.add_command(plan_cmd)
cli.add_command(run_cmd)
cli.add_command(score)
cli.add_command(lint_command, name="lint")
cli.add_command(schema)
cli.add_command(studio)
cli.add_command(compare_cmd)


def main() -> None:
    """Entry point of the `blueprint` console script."""
    # Text from a blueprint or a response may hold lone surrogates: print them as `\udXXX`
    # (inside JSON output, that is the escape JSON.stringify writes) instead of failing.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    cli(prog_name="blueprint")
