"""`blueprint normalize`: print a blueprint as Weval's parser normalizes it."""

from __future__ import annotations

import json
import sys

import click

from engine.blueprint import load_blueprint
from engine.errors import BlueprintError
from engine.js.values import js_clean
from engine.output import well_formed


@click.command("normalize")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["weval-json"]),
    default="weval-json",
    show_default=True,
    help="Output format.",
)
def normalize(file: str, fmt: str) -> None:
    """Print FILE normalized exactly as Weval's parser produces it.

    Exit 2 with `FILE:LINE:COL: message` on stderr when FILE cannot be parsed.
    """
    try:
        blueprint = load_blueprint(file)
    except BlueprintError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    text = json.dumps(js_clean(blueprint.to_weval()), indent=2, ensure_ascii=False)
    click.echo(well_formed(text))
