"""`compose.yaml` follows docs/deploy.md: its commands are ones the CLI accepts, in team mode."""

from __future__ import annotations

from pathlib import Path

import yaml

from engine.cli import load_command

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def _args(command: list[str]) -> list[str]:
    return [a.replace("${PUBLIC_URL}", "https://evals.example.org") for a in command]


def test_compose_runs_postgres_a_team_studio_and_workers_on_one_database():
    services = _compose()["services"]
    assert set(services) == {"db", "studio", "worker"}
    assert services["db"]["image"].startswith("postgres:")
    for name in ("studio", "worker"):
        env = services[name]["environment"]
        assert env["BLUEPRINT_DATABASE_URL"].startswith("postgresql://blueprint:")
        assert env["BLUEPRINT_DATABASE_URL"].endswith("@db:5432/blueprint")
        assert services[name]["depends_on"]["db"]["condition"] == "service_healthy"
    studio = _args(services["studio"]["command"])
    worker = _args(services["worker"]["command"])
    assert studio[:2] == ["blueprint", "studio"] and "--public-url" in studio
    assert worker[:2] == ["blueprint", "worker"]
    assert services["worker"]["deploy"]["replicas"] >= 2
    # the CLI accepts both command lines as written
    for argv in (studio, worker):
        command = load_command(argv[1])
        ctx = command.make_context(argv[1], argv[2:])
        assert ctx.params
    assert "compose.yaml" in (ROOT / "docs" / "deploy.md").read_text()
