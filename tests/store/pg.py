"""A throwaway PostgreSQL database per test session (127.0.0.1:5432, trust auth), dropped at the end.

A pytest plugin (named in `tests/conftest.py`). Its fixtures `pg_server` (the session's database)
and `pg_url` (the same, emptied for one test) skip with the reason when no server answers.
With `BLUEPRINT_TEST_STORE=postgres`, every test of the suite that opens the default store
(`open_store()`, the CLI) gets that emptied database through `BLUEPRINT_DATABASE_URL`.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from psycopg import sql

from engine.store.postgres import close_pools

ADMIN_URLS = [
    os.environ.get("BLUEPRINT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"),
    "postgresql://root@127.0.0.1:5432/postgres",
]


def _admin() -> tuple[psycopg.Connection[tuple[object, ...]], str] | None:
    for url in ADMIN_URLS:
        try:
            return psycopg.connect(url, autocommit=True, connect_timeout=3), url
        except psycopg.Error:
            continue
    return None


@contextmanager
def fresh_database(prefix: str = "blueprint_test") -> Iterator[str]:
    """The address of a new, empty database, dropped on exit; skips when no server answers."""
    found = _admin()
    if found is None:
        reason = "no PostgreSQL server answers at 127.0.0.1:5432 (users postgres, root)"
        print(f"\nskipping the PostgreSQL tests: {reason}")
        pytest.skip(reason)
    admin, url = found
    name = f"{prefix}_{secrets.token_hex(6)}"
    admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        close_pools()
        admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The address of a fresh, empty database; skipped (with the reason) when no server answers."""
    with fresh_database() as url:
        yield url


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """The session's database, emptied of every store row (the schema stays)."""
    with psycopg.connect(pg_server, autocommit=True) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "AND tablename <> 'schema_migrations'"
            )
        ]
        if tables:
            names = sql.SQL(", ").join(sql.Identifier(t) for t in tables)
            conn.execute(sql.SQL("TRUNCATE {} CASCADE").format(names))
    return pg_server


@pytest.fixture(autouse=True)
def _store_on_postgres(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, _isolated_home: object
) -> None:
    """Point `BLUEPRINT_DATABASE_URL` at the emptied session database when asked to."""
    if os.environ.get("BLUEPRINT_TEST_STORE") == "postgres":
        monkeypatch.setenv("BLUEPRINT_DATABASE_URL", request.getfixturevalue("pg_url"))
