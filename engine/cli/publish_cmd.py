"""`blueprint publish`: propose a blueprint on a new branch of a git repository, with a PR."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from engine.errors import BlueprintError, ConfigError, EngineError

EXIT_PUSHED_NO_PR = 3
"""Exit code when the branch was pushed but the forge did not open the pull request."""


@click.command("publish")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--to",
    "to",
    help="The git repository to push to: a URL or a path (default: repository under "
    "[publish] in settings.toml).",
)
@click.option("--branch", help="The new branch's name (default: blueprint/<file>-<date>).")
@click.option("--message", help="The commit message and pull request title.")
@click.option(
    "--folder",
    help="The repository's folder for blueprints (default: [publish] folder, else blueprints/).",
)
@click.option(
    "--no-pull-request",
    is_flag=True,
    help="Push the branch only, even with a forge configured.",
)
def publish_cmd(
    file: str,
    to: str | None,
    branch: str | None,
    message: str | None,
    folder: str | None,
    no_pull_request: bool,
) -> None:
    """Propose FILE: commit it byte for byte on a new branch of a repository and push it.

    Lints FILE first: with errors nothing is pushed. The file goes under the repository's
    blueprints folder on a new branch; the branch is printed, and with a forge configured
    (GitHub, GitLab or Gitea under [publish] in settings.toml, its token in
    BLUEPRINT_PUBLISH_TOKEN) a pull request is opened and its address printed.
    Exit 0 when pushed (and the pull request opened), 1 for lint errors, 2 for unusable
    arguments, settings or repository (nothing pushed), 3 when the branch was pushed but the
    pull request could not be opened.
    """
    from engine.blueprint.inputs import read_blueprint_file
    from engine.cli.lint_cmd import _settings, echo_diagnostic
    from engine.publish import LintRefusal, load_publish_settings, publish

    settings = _settings()
    try:
        read_blueprint_file(file, settings=settings)  # the size limit and UTF-8, with positions
        content = Path(file).read_bytes()
        config = load_publish_settings()
    except (BlueprintError, ConfigError) as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    except OSError as exc:
        click.echo(f"{file}: cannot read the file ({exc.strerror or exc}).", err=True)
        sys.exit(2)
    repository = to or config.repository
    if not repository:
        click.echo(
            "Say where to publish: --to REPOSITORY (a git URL or path), or repository under "
            "[publish] in settings.toml.",
            err=True,
        )
        sys.exit(2)
    try:
        done = publish(
            content,
            Path(file).name,
            repository,
            branch=branch,
            message=message,
            folder=folder if folder is not None else config.folder,
            base=config.base,
            forge=None if no_pull_request else config.forge,
            settings=settings,
        )
    except LintRefusal as refused:
        for diagnostic in refused.diagnostics:
            echo_diagnostic(file, diagnostic)
        click.echo(f"{refused}", err=True)
        sys.exit(1)
    except EngineError as exc:
        click.echo(f"Nothing was published: {exc}", err=True)
        sys.exit(2)
    click.echo(f"branch {done.branch}")
    click.echo(f"file {done.path}  commit {done.commit[:12]}")
    if done.pull_request:
        click.echo(f"pull request {done.pull_request}")
    elif done.forge_error:
        click.echo(
            f"The branch is pushed, but no pull request was opened: {done.forge_error}", err=True
        )
        sys.exit(EXIT_PUSHED_NO_PR)
