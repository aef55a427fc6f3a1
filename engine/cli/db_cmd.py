"""`blueprint db migrate` (bring a store's schema up to date) and `blueprint db copy` (move a store)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from engine.errors import StoreError

__all__ = ["db"]


@click.group("db")
def db() -> None:
    """Manage the store: bring its schema up to date, copy it into another.

    Set BLUEPRINT_DATABASE_URL=postgresql://... to use a team database.
    """


@db.command("migrate")
@click.option(
    "--url",
    "location",
    default=None,
    metavar="PATH_OR_URL",
    help="The store: a postgresql:// address or a SQLite file (default: "
    "BLUEPRINT_DATABASE_URL, else the personal store).",
)
def migrate_cmd(location: str | None) -> None:
    """Bring the store's schema up to this version's: apply the migrations it lacks, in order.

    Safe to run again and from several machines at once (one applies, the others wait). On
    PostgreSQL it also creates the queue's tables when the database has none. Prints what it
    applied. Exit codes: 0 up to date; 2 when the store cannot be used.
    """
    from engine.store import open_store
    from engine.store.postgres import is_postgres_url
    from engine.store.recorded import recorded_migrations

    target = location or os.environ.get("BLUEPRINT_DATABASE_URL") or None
    try:
        before = recorded_migrations(target)
        store = open_store(target)
        applied = [name for name in store.applied_migrations() if name not in before]
        queue = False
        if target is not None and is_postgres_url(target):
            from engine.store.queue_schema import ensure_queue_schema

            queue = ensure_queue_schema(target)
    except StoreError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    for name in applied:
        click.echo(f"applied {name}")
    if queue:
        click.echo("created the queue's tables")
    total = len(store.applied_migrations())
    click.echo(
        f"{store.location}: schema up to date ({total} migrations, {len(applied)} applied now)."
    )


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
    written. It prints the rows of each table in both stores, which must match. A personal
    store's (SQLite's) "anyone" share links are copied revoked, and it says how many. Exit
    codes: 0 copied; 2 when a store cannot be used.
    """
    from engine.store import open_store
    from engine.store.copy import copy_store, open_anyone_links
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
        # a personal store's "anyone" links worked on one computer; on a team URL they
        # would open to everyone, so they arrive revoked
        personal = not is_postgres_url(source)
        revoked = open_anyone_links(source_store) if personal else 0
        counts = copy_store(source_store, target_store, revoke_anyone=personal)
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
    if revoked:
        click.echo(
            f'{revoked} "anyone" share link{"" if revoked == 1 else "s"} of the personal store '
            f"{'was' if revoked == 1 else 'were'} copied revoked: on the team's public URL "
            f"{'it' if revoked == 1 else 'they'} would open to everyone. Make new links where "
            "needed (blueprint share RUN --anyone)."
        )
