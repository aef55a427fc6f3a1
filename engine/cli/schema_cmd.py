"""`blueprint schema`: print the JSON Schema of the blueprint format, for editors."""

from __future__ import annotations

import json

import click


@click.command("schema")
def schema() -> None:
    """Print a JSON Schema of blueprint YAML, for editor hints and checks.

    Save it with `blueprint schema > blueprint.schema.json`, then start a blueprint with
    `# yaml-language-server: $schema=blueprint.schema.json` (VS Code, Red Hat YAML extension).
    """
    from engine.lint.schema import authoring_schema

    click.echo(json.dumps(authoring_schema(), indent=2, ensure_ascii=False))
