"""`blueprint share`: links printed, revoked, and refused with plain messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import cli
from engine.store import open_store
from engine.store.share_links import token_from_link


@pytest.fixture
def run_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("BLUEPRINT_HOME", str(tmp_path))
    monkeypatch.setenv("BLUEPRINT_STUDIO_URL", "https://evals.example.org/")
    store = open_store()
    digest = store.save_blueprint("title: t\n", "t", "t.yml")
    return store.create_run(
        blueprint_hash=digest, title="t", config_id=None, options={}, total_calls=1, total_cells=1
    )


def share(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["share", *args])
    return result.exit_code, result.stdout, result.stderr


def test_share_prints_a_public_link_and_revoke_revokes_it(run_id: str):
    code, out, err = share(run_id, "--anyone", "--expires", "7d")
    assert code == 0
    link = out.strip()
    assert link.startswith("https://evals.example.org/share?token=")
    token = token_from_link(link)
    assert token is not None and run_id not in link
    stored = open_store().share_link(token)
    assert stored is not None and stored.run_id == run_id and stored.audience == "anyone"
    assert stored.expires_at is not None and stored.state() == "active"
    assert "anyone" in err and "--revoke" in err
    code, out, _ = share("--revoke", link)
    assert code == 0 and "Revoked" in out
    assert open_store().share_link(token).state() == "revoked"


def test_team_links_by_default_and_one_per_call(run_id: str):
    first = share(run_id)[1].strip()
    second = share("--", run_id)[1].strip()
    assert first != second
    links = open_store().share_links(run_id)
    assert [link.audience for link in links] == ["team", "team"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nope-not-a-run-id"], "No run"),
        ([], "Give the run"),
        (["RUN", "--expires", "soon"], "7d"),
        (["--revoke", "https://evals.example.org/share?token=short"], "not a share link"),
        (["--revoke", "A" * 32], "No share link"),
        (["RUN", "--revoke", "A" * 32], "takes nothing else"),
    ],
)
def test_unusable_input_exits_2_with_a_plain_message(run_id: str, args: list[str], words: str):
    code, out, err = share(*[run_id if a == "RUN" else a for a in args])
    assert code == 2 and words in err and "Traceback" not in err + out
