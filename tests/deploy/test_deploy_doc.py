"""docs/deploy.md, followed as written: a fresh database to a working admin login, and back up.

The commands come out of the document itself (the blocks after `<!-- deploy-test: NAME -->`,
the `[auth]` block of section 1, the `cookie_secret` recipe), with only the names of this
machine put in (the database host, a free port, a role name of its own), so the document and
the test cannot drift apart. PostgreSQL at 127.0.0.1:5432 (trust auth, user postgres), the
OIDC test provider and headless Chromium are real.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import yaml
from playwright.sync_api import expect

from engine.queue.app import PART_TASK, build_app
from engine.store import open_store
from engine.store.postgres import close_pools
from tests.conftest import EXAMPLES
from tests.studio.browser import (
    free_port,
    screenshot,
    stop_studio,
    studio_command,
    wait_healthy,
)
from tests.studio.helpers import make_run
from tests.studio.oidc import TeamStudio, login

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "deploy.md").read_text()
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
WAIT = 60_000


def block(name: str) -> str:
    """The code block that follows `<!-- deploy-test: NAME -->` in docs/deploy.md."""
    found = re.search(rf"<!-- deploy-test: {name} -->\s*```\w*\n(.*?)```", DOC, re.S)
    assert found, f"docs/deploy.md has no block marked deploy-test: {name}"
    return found.group(1)


def auth_block() -> dict[str, Any]:
    """Section 1's `[auth]` settings, as the document shows them."""
    found = re.search(r"```toml\n(\[auth\].*?)```", DOC, re.S)
    assert found, "docs/deploy.md shows no [auth] block"
    return dict(tomllib.loads(found.group(1))["auth"])


def cookie_secret() -> str:
    """A cookie secret made by the command the document gives."""
    found = re.search(r"`(python -c \"import secrets;[^`]*\")`", DOC)
    assert found, "docs/deploy.md says no command that makes a cookie_secret"
    argv = shlex.split(found.group(1))
    argv[0] = sys.executable
    out = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60)
    return out.stdout.strip()


def psql(sql: str, url: str = ADMIN_URL) -> None:
    subprocess.run(
        ["psql", "-v", "ON_ERROR_STOP=1", "-q", url],
        input=sql,
        text=True,
        check=True,
        capture_output=True,
        timeout=60,
    )


@dataclass
class Role:
    """The role and database of section 9, made here under a name of their own."""

    name: str
    password: str

    def url(self, database: str | None = None) -> str:
        return f"postgresql://{self.name}:{self.password}@127.0.0.1:5432/{database or self.name}"

    def local(self, url: str) -> str:
        """A documented address, pointed at this machine's server, role and database."""
        parts = urlsplit(url)
        database = parts.path.lstrip("/").replace("blueprint", self.name)
        netloc = f"{self.name}:{self.password}@127.0.0.1:5432"
        return urlunsplit((parts.scheme, netloc, "/" + database, "", ""))


def _require_tools() -> None:
    if shutil.which("psql") is None or shutil.which("pg_dump") is None:
        pytest.skip("psql and pg_dump are not installed")
    try:
        psycopg.connect(ADMIN_URL, connect_timeout=3).close()
    except psycopg.Error:
        pytest.skip("no PostgreSQL server answers at 127.0.0.1:5432 as postgres")


@pytest.fixture(scope="module")
def role() -> Iterator[Role]:
    """Section 9's SQL, run as the superuser with the role and database renamed."""
    _require_tools()
    sql = block("roles")
    found = re.search(r"PASSWORD '([^']+)'", sql)
    assert found, "the roles block sets no password"
    made = Role(f"bp_deploy_{secrets.token_hex(4)}", found.group(1))
    psql(re.sub(r"\bblueprint\b", made.name, sql))
    try:
        yield made
    finally:
        close_pools()
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            for name in (made.name, f"{made.name}_restored"):
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'DROP ROLE IF EXISTS "{made.name}"')


def test_the_documented_role_is_no_superuser_and_owns_only_its_database(role: Role):
    with psycopg.connect(role.url(), autocommit=True) as conn:
        flags = conn.execute(
            "SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
        assert flags == (False, False, False)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("CREATE DATABASE another_one")
    # other roles may not connect to it
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        other = f"bp_other_{secrets.token_hex(4)}"
        conn.execute(f"CREATE ROLE {other} LOGIN")
        try:
            with pytest.raises(psycopg.OperationalError, match="permission denied"):
                psycopg.connect(role.url().replace(f"{role.name}:{role.password}", other)).close()
        finally:
            conn.execute(f"DROP ROLE {other}")


def _exports_and_commands(text: str, env: dict[str, str]) -> list[str]:
    """Apply the block's `export NAME=VALUE` lines to `env`; return its other lines."""
    commands = []
    for line in text.splitlines():
        line = line.split("  #")[0].strip()
        if not line:
            continue
        if line.startswith("export "):
            name, _, value = line.removeprefix("export ").partition("=")
            env[name] = value
        else:
            commands.append(line)
    return commands


def _argv(command: str, env: dict[str, str]) -> list[str]:
    argv = [os.path.expandvars(a) if "$" in a else a for a in shlex.split(command)]
    for name, value in env.items():
        argv = [a.replace(f"${name}", value) for a in argv]
    assert argv[0] == "blueprint", command
    return [sys.executable, "-m", "engine", *argv[1:]]


@pytest.mark.browser
def test_from_a_fresh_database_to_an_admin_login(
    role: Role, idp: int, browser: Any, tmp_path: Path
):
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    env |= {"BLUEPRINT_HOME": str(tmp_path / "home"), "AUTHLIB_INSECURE_TRANSPORT": "1"}
    commands = _exports_and_commands(block("start"), env)
    assert env["BLUEPRINT_STUDIO_URL"] == "https://evals.example.org"
    admin = env["BLUEPRINT_ADMINS"].split(",")[0]
    env["BLUEPRINT_DATABASE_URL"] = role.local(env["BLUEPRINT_DATABASE_URL"])
    env["BLUEPRINT_STUDIO_URL"] = public

    # section 1: the [auth] settings, in .streamlit/secrets.toml of the folder we start in
    auth = auth_block()
    assert auth["redirect_uri"] == "https://evals.example.org/oauth2callback"
    auth |= {
        "redirect_uri": f"{public}/oauth2callback",
        "cookie_secret": cookie_secret(),
        "server_metadata_url": f"http://127.0.0.1:{idp}/.well-known/openid-configuration",
    }
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(
        "[auth]\n" + "".join(f'{k} = "{v}"\n' for k, v in auth.items())
    )

    assert [c.split()[:3] for c in commands] == [
        ["blueprint", "db", "migrate"],
        ["blueprint", "worker", "--concurrency"],
        ["blueprint", "studio", "--host"],
    ]
    migrate = subprocess.run(
        _argv(commands[0], env), env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert migrate.returncode == 0, migrate.stderr
    assert "schema up to date" in migrate.stdout and "created the queue's tables" in migrate.stdout

    worker_cmd = commands[1].removesuffix("&").strip()
    studio_cmd = commands[2].replace("--host 0.0.0.0", "--host 127.0.0.1")
    studio_cmd = studio_cmd.replace("--port 8501", f"--port {port}")
    with (tmp_path / "worker.log").open("w") as wlog:
        worker = subprocess.Popen(
            _argv(worker_cmd, env), env=env, cwd=tmp_path, stdout=wlog, stderr=subprocess.STDOUT
        )
    log = tmp_path / "studio.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            _argv(studio_cmd, env), env=env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT
        )
    studio = TeamStudio(public, tmp_path, proc, log, idp=f"http://127.0.0.1:{idp}")
    assert studio_command(port)[-2:] == ["--port", str(port)]
    try:
        wait_healthy(public, proc, timeout=60)
        _compose_healthcheck_passes(port, public)

        page = login(browser, studio, admin)
        expect(page.get_by_text(f"Logged in as {admin} (admin)")).to_be_visible(timeout=WAIT)
        nav = page.get_by_test_id("stSidebarNav")
        expect(nav.get_by_role("link", name="Team")).to_be_visible(timeout=WAIT)
        page.goto(f"{public}/admin")
        expect(page.get_by_role("button", name="Change role")).to_be_visible(timeout=WAIT)

        # section 8: the Settings page says where keys live and offers no save
        page.goto(f"{public}/settings")
        expect(page.get_by_text("Team mode: keys are set where the processes start")).to_be_visible(
            timeout=WAIT
        )
        expect(page.get_by_role("button", name="Test this key")).to_be_visible(timeout=WAIT)
        assert page.get_by_role("button", name="Save key").count() == 0
        screenshot(page, "deploy-settings-team-mode")
        page.context.close()

        assert worker.poll() is None, (tmp_path / "worker.log").read_text()[-2000:]
        _worker_registered(env["BLUEPRINT_DATABASE_URL"])
    finally:
        stop_studio(studio)
        worker.terminate()
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(5)


def _compose_healthcheck_passes(port: int, public: str) -> None:
    """compose.yaml's studio health check, run against this studio."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    test = compose["services"]["studio"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    code = test[3].replace("127.0.0.1:8501", f"127.0.0.1:{port}")
    env = {**os.environ, "BLUEPRINT_STUDIO_URL": public}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    env["BLUEPRINT_STUDIO_URL"] = "https://elsewhere.example.org"  # a host it does not serve
    wrong = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=60)
    assert wrong.returncode != 0


def _worker_registered(url: str) -> None:
    """The worker reached the database: procrastinate lists it with a fresh heartbeat."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with psycopg.connect(url) as conn:
            if conn.execute("SELECT count(*) FROM procrastinate_workers").fetchone() != (0,):
                return
        time.sleep(0.5)
    raise AssertionError("the worker never registered in the database")


def test_backup_and_restore_as_documented(role: Role, tmp_path: Path):
    url = role.url()
    store = open_store(url)
    run_id = make_run(store, (EXAMPLES / "functions.yml").read_text(), ["ideal"])
    scores = sorted((c.prompt_id, c.score) for c in store.cells(run_id))
    env = {**os.environ, "BLUEPRINT_DATABASE_URL": url}

    backup = block("backup").strip()
    subprocess.run(["bash", "-c", backup], env=env, cwd=tmp_path, check=True, timeout=120)
    assert (tmp_path / "blueprint.dump").stat().st_size > 0

    for line in block("restore").strip().splitlines():
        argv = shlex.split(line)
        argv = [
            a.replace("--host=db.example.org", "--host=127.0.0.1")
            .replace("--owner=blueprint", f"--owner={role.name}")
            .replace("blueprint_restored", f"{role.name}_restored")
            for a in argv
        ]
        argv = [
            "--dbname=" + role.local(a.removeprefix("--dbname="))
            if a.startswith("--dbname=")
            else a
            for a in argv
        ]
        subprocess.run(argv, env=env, cwd=tmp_path, check=True, timeout=120, capture_output=True)

    restored = open_store(role.url(f"{role.name}_restored"))
    run = restored.get_run(run_id)
    assert run is not None and run.live_status == "completed"
    assert sorted((c.prompt_id, c.score) for c in restored.cells(run_id)) == scores
    with psycopg.connect(role.url(f"{role.name}_restored")) as conn:
        owners = {
            r[0]
            for r in conn.execute("SELECT tableowner FROM pg_tables WHERE schemaname = 'public'")
        }
    assert owners == {role.name}  # the role owns what it restored, so it can migrate it later
    close_pools()


def test_the_compose_role_script_makes_the_documented_role(tmp_path: Path):
    _require_tools()
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    script = compose["configs"]["db-role"]["content"].replace("$$", "$")
    name = f"bp_compose_{secrets.token_hex(4)}"
    env = {
        **os.environ,
        "PGHOST": "127.0.0.1",
        "POSTGRES_USER": "postgres",
        "BLUEPRINT_DB_USER": name,
        "BLUEPRINT_DB_NAME": name,
        "BLUEPRINT_DB_PASSWORD": "pw-" + secrets.token_hex(8),
    }
    try:
        subprocess.run(["sh", "-c", script], env=env, check=True, timeout=60, capture_output=True)
        url = f"postgresql://{name}:{env['BLUEPRINT_DB_PASSWORD']}@127.0.0.1:5432/{name}"
        done = subprocess.run(
            [sys.executable, "-m", "engine", "db", "migrate", "--url", url],
            env={**os.environ, "BLUEPRINT_HOME": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "created the queue's tables" in done.stdout
        with psycopg.connect(url) as conn:
            assert conn.execute(
                "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
            ).fetchone() == (False,)
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'DROP ROLE IF EXISTS "{name}"')


def test_the_document_says_what_the_code_does():
    strategy = build_app("postgresql://nobody@127.0.0.1:1/none").tasks[PART_TASK].retry_strategy
    assert strategy is not None and strategy.max_attempts is not None
    attempts = strategy.max_attempts + 1  # the first run, then max_attempts retries
    assert f"{attempts} attempts in all" in DOC
    assert f"tried again {strategy.wait} s later" in DOC
    assert "tried once more" not in DOC
    assert "not yet private" not in DOC
    for variable in ("POSTGRES_PASSWORD", "BLUEPRINT_DB_PASSWORD", "PUBLIC_URL"):
        assert variable in DOC and variable in (ROOT / "compose.yaml").read_text()
