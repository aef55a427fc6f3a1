"""Copy a whole store into another, empty one (SQLite to PostgreSQL or back), verified by counts."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import StoreError
from engine.store.migrations import now
from engine.store.sql import SQLStore, quote

__all__ = ["TableCount", "copy_store", "open_anyone_links", "table_order"]

_OPEN_ANYONE = "audience = 'anyone' AND revoked_at IS NULL"
"""The share links anyone may open (unless expired)."""


@dataclass(frozen=True)
class TableCount:
    """One table of a copy: its rows in the source and, after the copy, in the target."""

    table: str
    source: int
    target: int


def table_order(graph: dict[str, set[str]]) -> list[str]:
    """The tables in an order where every table comes after the tables its foreign keys name.

    Ties are broken by name, so the order is the same on every backend.
    """
    order: list[str] = []
    placed: set[str] = set()
    while len(order) < len(graph):
        ready = sorted(
            t for t in graph if t not in placed and graph[t] & graph.keys() <= placed | {t}
        )
        if not ready:  # a cycle of foreign keys: take the rest by name
            ready = sorted(set(graph) - placed)
        order.extend(ready)
        placed.update(ready)
    return order


def open_anyone_links(store: SQLStore) -> int:
    """How many of the store's "anyone" share links are not revoked."""
    return int(store._read(f"SELECT COUNT(*) FROM share_links WHERE {_OPEN_ANYONE}")[0][0])


def _select(table: str, columns: list[str], revoke_anyone: str | None) -> str:
    """The query that reads a table for the copy (share links revoked at `revoke_anyone`)."""
    names = [quote(c) for c in columns]
    if table == "share_links" and revoke_anyone is not None:
        at = revoke_anyone.replace("'", "")
        names = [
            f"CASE WHEN {_OPEN_ANYONE} THEN '{at}' ELSE revoked_at END" if c == "revoked_at" else n
            for c, n in zip(columns, names, strict=True)
        ]
    return f"SELECT {', '.join(names)} FROM {quote(table)}"


def copy_store(
    source: SQLStore, target: SQLStore, *, revoke_anyone: bool = False
) -> list[TableCount]:
    """Copy every row of every data table of `source` into the empty store `target`.

    The copy is one transaction on the target: it is complete or nothing is written. Both
    stores are migrated to the same schema by opening them.

    Args:
        source: The store to read.
        target: The empty store to fill.
        revoke_anyone: Copy the "anyone" share links revoked (now): a personal store's
            links opened on one computer only, a team's public URL would open them to all.

    Raises:
        StoreError: The stores are the same, the target holds data or lacks a table or column,
            a row cannot be written, or the counts differ after the copy.
    """
    if source.location == target.location:
        raise StoreError(f"{target.location}: the source and the target are the same store.")
    tables = table_order(source.table_graph())
    target_tables = target.table_graph()
    plan: list[tuple[str, list[str]]] = []
    for table in tables:
        columns = source.table_columns(table)
        if table not in target_tables:
            raise StoreError(
                f"{target.location}: the target has no table {table}. Update Blueprint Studio "
                "where the target is used, then copy again."
            )
        missing = set(columns) - set(target.table_columns(table))
        if missing:
            raise StoreError(
                f"{target.location}: the target's table {table} has no column "
                f"{sorted(missing)[0]}. Update Blueprint Studio, then copy again."
            )
        plan.append((table, columns))
    held = [(t, n) for t in sorted(target_tables) if (n := target.count_rows(t))]
    if held:
        table, n = held[0]
        raise StoreError(
            f"{target.location}: the target already holds data ({table}: {n} rows), so nothing "
            "was copied. Copy into a new, empty database."
        )
    target.load(
        (
            table,
            columns,
            source.stream(_select(table, columns, now() if revoke_anyone else None)),
        )
        for table, columns in plan
    )
    counts = [TableCount(t, source.count_rows(t), target.count_rows(t)) for t, _ in plan]
    wrong = [c for c in counts if c.source != c.target]
    if wrong:
        c = wrong[0]
        raise StoreError(
            f"{target.location}: the copy is incomplete ({c.table}: {c.source} rows in the "
            f"source, {c.target} in the target). Check that nothing wrote to the source "
            "during the copy, empty the target and copy again."
        )
    return counts
