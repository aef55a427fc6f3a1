"""The `blueprint` command line: one click group, one module per command."""

from __future__ import annotations

import click

from engine.cli.normalize_cmd import normalize

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blueprint-studio")
def cli() -> None:
    """Write, lint, run and compare rubric-based LLM evaluations (Weval blueprints)."""


cli.add_command(normalize)


def main() -> None:
    """Entry point of the `blueprint` console script."""
    cli(prog_name="blueprint")
