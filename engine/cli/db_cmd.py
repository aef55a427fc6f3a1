"""`blueprint db copy --from PATH_OR_URL --to URL`: move a whole store, verified by counts."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from engine.errors import StoreError

__all__ = ["db"]


@click.group("db")
def db() -> None:
    """Manage the store: copy a personal store into a team database.

    Set BLUEPRINT_DATABASE_URL=postgresql://... to use a team database.
    """


@db.command("copy")
@click.option(
    "--from",
    "source",
    required=True,
    metavar="PATH_OR_URL",
    help="The store to copy: a SQLite file (a personal studio.db) or a postgresql:// address.",
)
@click.option(
    "--to",
    "target",
    required=True,
    metavar="URL",
    help="The empty store to fill: a postgresql:// address (or a new SQLite file).",
)
def copy_cmd(source: str, target: str) -> None:
    """Copy a whole store into an empty one, every table, verified by counts.

    Every table is copied: drafts, blueprints, runs, cells, calls, judgments, cache and any
    other (the queue's own tables excepted).

    The target must be empty; the copy is one transaction, so it is complete or nothing is
    written. It prints the rows of each table in both stores, which must match. Exit codes: 0 copied; 2 when a store cannot be used.
    """
    from engine.store import open_store
    from engine.store.copy import copy_store
    from engine.store.postgres import is_postgres_url
    from engine.store.sql import SQLStore

    if not is_postgres_url(source) and not Path(source).is_file():
        click.echo(
            f"{source}: no such store file. Give the personal store (for example "
            "~/.blueprint-studio/studio.db) or a postgresql:// address.",
            err=True,
        )
        sys.exit(2)
    if not is_postgres_url(target) and not Path(target).parent.is_dir():
        click.echo(
            f"{target}: no such folder. Give a postgresql:// address (or a new SQLite file "
            "in an existing folder).",
            err=True,
        )
        sys.exit(2)
    try:
        source_store, target_store = open_store(source), open_store(target)
        if not isinstance(source_store, SQLStore) or not isinstance(target_store, SQLStore):
            raise StoreError(f"{target}: this store cannot be copied table by table.")
        counts = copy_store(source_store, target_store)
    except StoreError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    click.echo(f"copied {source_store.location} to {target_store.location}")
    width = max([len("table"), *(len(c.table) for c in counts)])
    click.echo(f"{'table':<{width}}  {'source':>8}  {'target':>8}")
    for c in counts:
        click.echo(f"{c.table:<{width}}  {c.source:>8}  {c.target:>8}")
    total = sum(c.target for c in counts)
    click.echo(f"{total} rows in {len(counts)} tables; every count matches.")
