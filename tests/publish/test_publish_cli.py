"""`blueprint publish` against a local bare repository and a fake forge API on loopback."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import cli
from tests.fakes.forge import FakeForge
from tests.publish.repos import bare_repository, branches, file_at, git

# Comments, odd spacing, CRLF line ends and a non-ASCII title: kept byte for byte.
BLUEPRINT = (
    "# A proposal, with its comments\r\n"
    "title:   Capitales d'Europe — quiz\r\n"
    "models: [openai:gpt-4.1-mini]\r\n"
    "---\r\n"
    "- id: paris\r\n"
    "  prompt: What is the capital of France?\r\n"
    "  should:\r\n"
    "    - $icontains: paris   # the city\r\n"
).encode()
BROKEN = b"title: Broken\n---\n- id: p\n  prompt: hi\n  shuold:\n    - $icontains: a\n"
TOKEN = "tok-3f9c2b7a-never-shown"


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    return bare_repository(tmp_path)


@pytest.fixture
def blueprint_file(tmp_path: Path) -> Path:
    path = tmp_path / "capitals-quiz.yml"
    path.write_bytes(BLUEPRINT)
    return path


@pytest.fixture
def home() -> Path:
    """The test's BLUEPRINT_HOME (made by the suite's isolated-home fixture)."""
    return Path(os.environ["BLUEPRINT_HOME"])


@pytest.fixture(autouse=True)
def git_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git config of the test's own (no user name or e-mail unless a test writes one)."""
    config = tmp_path / "gitconfig"
    config.write_text("", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "EMAIL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("BLUEPRINT_PUBLISH_TOKEN", raising=False)
    return config


def publish(*args: str):
    return CliRunner().invoke(cli, ["publish", *args])


def today_branch(stem: str) -> str:
    return f"blueprint/{stem}-{dt.datetime.now(dt.UTC).date().isoformat()}"


def forge_settings(home: Path, forge: FakeForge, kind: str, project: str = "me/configs") -> None:
    (home / "settings.toml").write_text(
        f'[publish]\nforge = "{kind}"\napi_url = "{forge.url}/api"\nproject = "{project}"\n',
        encoding="utf-8",
    )


def test_the_file_is_committed_byte_for_byte_on_a_new_branch(bare: Path, blueprint_file: Path):
    result = publish(str(blueprint_file), "--to", str(bare))
    assert result.exit_code == 0, result.output
    branch = today_branch("capitals-quiz")
    assert f"branch {branch}" in result.stdout.splitlines()
    assert branches(bare) == sorted(["main", branch])
    assert file_at(bare, branch, "blueprints/capitals-quiz.yml") == BLUEPRINT
    # one commit on top of main, by the fallback author, titled after the blueprint
    log = git("--git-dir", str(bare), "log", "--format=%an <%ae>|%s", f"main..{branch}")
    assert log.splitlines() == [
        "Blueprint Studio <blueprint@localhost>|Propose blueprint: Capitales d'Europe — quiz"
    ]
    assert git("--git-dir", str(bare), "log", "--format=%s", "main").split("\n")[0] == "Start"


def test_the_author_comes_from_git_config_and_the_message_from_the_option(
    bare: Path, blueprint_file: Path, git_config: Path
):
    git_config.write_text("[user]\n\tname = Ada Author\n\temail = ada@example.org\n")
    result = publish(str(blueprint_file), "--to", str(bare), "--message", "Add a capitals quiz")
    assert result.exit_code == 0, result.output
    log = git(
        "--git-dir", str(bare), "log", "--format=%an <%ae>|%s", "-1", today_branch("capitals-quiz")
    )
    assert log.strip() == "Ada Author <ada@example.org>|Add a capitals quiz"


def test_each_publish_gets_a_branch_of_its_own(bare: Path, blueprint_file: Path):
    first = publish(str(blueprint_file), "--to", str(bare))
    blueprint_file.write_bytes(BLUEPRINT + b"    - $icontains: capital\r\n")
    second = publish(str(blueprint_file), "--to", str(bare))
    assert first.exit_code == second.exit_code == 0, second.output
    branch = today_branch("capitals-quiz")
    assert f"branch {branch}-2" in second.stdout.splitlines()
    assert file_at(bare, branch, "blueprints/capitals-quiz.yml") == BLUEPRINT
    assert file_at(bare, f"{branch}-2", "blueprints/capitals-quiz.yml").endswith(b"capital\r\n")


def test_a_named_branch_and_folder(bare: Path, blueprint_file: Path):
    result = publish(
        str(blueprint_file), "--to", str(bare), "--branch", "quiz/capitals", "--folder", "users/ada"
    )
    assert result.exit_code == 0, result.output
    assert "branch quiz/capitals" in result.stdout.splitlines()
    assert file_at(bare, "quiz/capitals", "users/ada/capitals-quiz.yml") == BLUEPRINT


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--branch", "main"], "The branch main exists in the repository already"),
        (["--branch", "bad..name"], "'bad..name' is not a valid branch name"),
        (["--folder", "../outside"], "must be a relative path inside the repository"),
    ],
)
def test_unusable_arguments_push_nothing(
    bare: Path, blueprint_file: Path, args: list[str], says: str
):
    result = publish(str(blueprint_file), "--to", str(bare), *args)
    assert result.exit_code == 2
    assert says in result.stderr
    assert branches(bare) == ["main"]


def test_an_unreachable_repository_exits_2(tmp_path: Path, blueprint_file: Path):
    result = publish(str(blueprint_file), "--to", str(tmp_path / "no-such.git"))
    assert result.exit_code == 2
    assert "Nothing was published: git clone failed" in result.stderr


def test_a_blueprint_with_lint_errors_is_refused_and_nothing_is_pushed(bare: Path, tmp_path: Path):
    path = tmp_path / "broken.yml"
    path.write_bytes(BROKEN)
    result = publish(str(path), "--to", str(bare))
    assert result.exit_code == 1
    lint = CliRunner().invoke(cli, ["lint", str(path)])
    errors = [line for line in lint.stdout.splitlines() if " error " in line]
    assert errors and all(line in result.stdout.splitlines() for line in errors)
    assert "nothing was published" in result.stderr
    assert branches(bare) == ["main"]


@pytest.mark.parametrize(
    ("kind", "path", "auth"),
    [
        ("github", "/api/repos/me/configs/pulls", ("authorization", f"Bearer {TOKEN}")),
        ("gitea", "/api/repos/me/configs/pulls", ("authorization", f"token {TOKEN}")),
        ("gitlab", "/api/projects/me%2Fconfigs/merge_requests", ("private-token", TOKEN)),
    ],
)
def test_a_configured_forge_gets_a_pull_request_in_its_own_api_shape(
    bare: Path,
    blueprint_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    home: Path,
    kind: str,
    path: str,
    auth: tuple[str, str],
):
    monkeypatch.setenv("BLUEPRINT_PUBLISH_TOKEN", TOKEN)
    with FakeForge() as forge:
        forge_settings(home, forge, kind)
        result = publish(str(blueprint_file), "--to", str(bare))
    assert result.exit_code == 0, result.output
    branch = today_branch("capitals-quiz")
    [request] = forge.requests
    assert request.path == path
    assert request.headers[auth[0]] == auth[1]
    title = "Propose blueprint: Capitales d'Europe — quiz"
    if kind == "gitlab":
        assert request.body["source_branch"] == branch
        assert request.body["target_branch"] == "main"
        assert request.body["title"] == title
    else:
        assert {k: request.body[k] for k in ("title", "head", "base")} == {
            "title": title,
            "head": branch,
            "base": "main",
        }
        assert "blueprints/capitals-quiz.yml" in request.body["body"]
    lines = result.stdout.splitlines()
    assert f"branch {branch}" in lines
    assert any(line.startswith(f"pull request {forge.url}/web/") for line in lines)
    assert TOKEN not in result.output


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ("401", "the forge refused the token (401)"),
        ("422", "A pull request already exists"),
        ("500", "the forge failed (HTTP 500); try again later"),
        ("garbage", "without the pull request's address"),
    ],
)
def test_forge_failures_are_plain_messages_and_the_branch_stays_pushed(
    bare: Path,
    blueprint_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    home: Path,
    answer: str,
    says: str,
):
    monkeypatch.setenv("BLUEPRINT_PUBLISH_TOKEN", TOKEN)
    with FakeForge(answer=answer) as forge:
        forge_settings(home, forge, "github")
        result = publish(str(blueprint_file), "--to", str(bare))
    assert result.exit_code == 3
    branch = today_branch("capitals-quiz")
    assert f"branch {branch}" in result.stdout.splitlines()
    assert "The branch is pushed, but no pull request was opened" in result.stderr
    assert says in result.stderr
    assert "Traceback" not in result.output and TOKEN not in result.output
    assert branch in branches(bare)


def test_a_forge_without_a_token_is_refused_before_anything_is_pushed(
    bare: Path, blueprint_file: Path, home: Path
):
    with FakeForge() as forge:
        forge_settings(home, forge, "github")
        result = publish(str(blueprint_file), "--to", str(bare))
    assert result.exit_code == 2
    assert "needs a token: set BLUEPRINT_PUBLISH_TOKEN" in result.stderr
    assert branches(bare) == ["main"] and forge.requests == []


def test_the_token_may_come_from_the_secrets_file_and_the_repository_from_settings(
    bare: Path,
    blueprint_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    home: Path,
):
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(f'[publish]\ntoken = "{TOKEN}"\n')
    monkeypatch.chdir(tmp_path)
    with FakeForge() as forge:
        forge_settings(home, forge, "github")
        with (home / "settings.toml").open("a") as settings:
            settings.write(f'repository = "{bare}"\nfolder = "proposals"\n')
        result = publish(str(blueprint_file))
    assert result.exit_code == 0, result.output
    assert forge.requests[0].headers["authorization"] == f"Bearer {TOKEN}"
    branch = today_branch("capitals-quiz")
    assert file_at(bare, branch, "proposals/capitals-quiz.yml") == BLUEPRINT


def test_no_repository_anywhere_is_an_unusable_argument(blueprint_file: Path):
    result = publish(str(blueprint_file))
    assert result.exit_code == 2
    assert "--to REPOSITORY" in result.stderr
