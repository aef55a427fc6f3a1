"""Publishing a blueprint: lint it, commit it byte for byte on a new branch, push, open a PR."""

from __future__ import annotations

import datetime as dt
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from engine.errors import ConfigError, EngineError
from engine.publish.config import DEFAULT_FOLDER, Forge
from engine.publish.forge import ForgeError, open_pull_request
from engine.publish.git import GIT_TIMEOUT_S, git, git_environ

if TYPE_CHECKING:
    import httpx

    from engine.lint import Diagnostic
    from engine.settings import Settings

__all__ = [
    "FALLBACK_AUTHOR",
    "LintRefusal",
    "Published",
    "branch_name",
    "lint_errors",
    "publish",
    "repository_path",
]

FALLBACK_AUTHOR = ("Blueprint Studio", "blueprint@localhost")
"""The commit's author when git knows no `user.name` and `user.email`."""

_SUFFIXES = (".yml", ".yaml", ".json")


class LintRefusal(EngineError):
    """The blueprint has lint errors, so nothing was published.

    Attributes:
        diagnostics: The errors, as `engine.lint` reports them.
    """

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        count = len(self.diagnostics)
        super().__init__(
            f"The blueprint has {count} lint error{'s' if count != 1 else ''}: fix "
            f"{'them' if count != 1 else 'it'} first; nothing was published."
        )


@dataclass(frozen=True)
class Published:
    """What `publish` did.

    Attributes:
        branch: The branch pushed.
        path: Where the file is in the repository (`blueprints/name.yml`).
        commit: The commit's id.
        base: The branch a pull request merges into (the repository's default), if known.
        pull_request: The pull request's web address, when a forge opened one.
        forge_error: Why the forge did not open one (the branch is pushed all the same).
    """

    branch: str
    path: str
    commit: str
    base: str | None
    pull_request: str | None = None
    forge_error: str | None = None


def lint_errors(text: str, source: str, settings: Settings | None = None) -> list[Diagnostic]:
    """The diagnostics of severity `error` that `blueprint lint` reports for `text`."""
    from engine.lint import lint

    return [d for d in lint(text, source=source, settings=settings) if d.severity == "error"]


def repository_path(folder: str, name: str) -> str:
    """Where a file called `name` goes in the repository: `folder/name`, checked.

    Raises:
        ConfigError: The folder leaves the repository (absolute, `..`, `.git`) or the name is
            not a plain `.yml`, `.yaml` or `.json` file name.
    """
    if not name or "/" in name or "\\" in name or name.startswith(".") or "\x00" in name:
        raise ConfigError(f"{name!r} is not a plain file name (such as capitals.yml).")
    if not name.lower().endswith(_SUFFIXES):
        raise ConfigError(f"{name}: a blueprint is published as a .yml, .yaml or .json file.")
    parts = PurePosixPath(folder.replace("\\", "/")).parts if folder.strip("/ ") else ()
    if (
        folder.startswith(("/", "\\"))
        or any(p in ("..", ".git") for p in parts)
        or "\x00" in folder
    ):
        raise ConfigError(f"{folder!r}: the folder must be a relative path inside the repository.")
    return str(PurePosixPath(*parts, name))


_BRANCH_CHARS = re.compile(r"[^a-z0-9]+")


def branch_name(name: str, today: dt.date, taken: set[str]) -> str:
    """A new branch for file `name`: `blueprint/<name>-<date>`, then `-2`, `-3`, ... if taken."""
    stem = _BRANCH_CHARS.sub("-", Path(name).stem.lower()).strip("-")[:50] or "blueprint"
    first = f"blueprint/{stem}-{today.isoformat()}"
    candidate, n = first, 1
    while candidate in taken:
        n += 1
        candidate = f"{first}-{n}"
    return candidate


def _remote_branches(work: Path, env: Mapping[str, str], timeout: float) -> set[str]:
    out = git(["ls-remote", "--heads", "origin"], cwd=work, env=env, timeout=timeout)
    prefix = "refs/heads/"
    return {
        ref[len(prefix) :]
        for line in out.splitlines()
        for ref in line.split("\t")[1:2]
        if ref.startswith(prefix)
    }


def _author(work: Path, env: Mapping[str, str]) -> list[str]:
    """`-c user.name=... -c user.email=...` when git's config lacks either, else nothing."""
    found = []
    for key in ("user.name", "user.email"):
        try:
            found.append(git(["config", key], cwd=work, env=env).strip())
        except EngineError:
            found.append("")
    if all(found):
        return []
    name, email = FALLBACK_AUTHOR
    return ["-c", f"user.name={name}", "-c", f"user.email={email}"]


def _check_branch(branch: str, work: Path, env: Mapping[str, str]) -> None:
    try:
        git(["check-ref-format", "--branch", branch], cwd=work, env=env)
    except EngineError:
        raise ConfigError(f"{branch!r} is not a valid branch name.") from None


def publish(
    content: bytes,
    name: str,
    to: str,
    *,
    branch: str | None = None,
    message: str | None = None,
    folder: str = DEFAULT_FOLDER,
    base: str | None = None,
    forge: Forge | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    transport: httpx.BaseTransport | None = None,
    today: dt.date | None = None,
    timeout: float = GIT_TIMEOUT_S,
) -> Published:
    """Lint a blueprint, commit it byte for byte on a new branch of `to`, push, open a PR.

    Args:
        content: The file's bytes, committed unchanged.
        name: The file's name in the repository's folder (`capitals.yml`).
        to: The git repository: any URL git can push to, or a local path.
        branch: The new branch's name; default `blueprint/<name>-<date>` (made unique).
        message: The commit message (and pull request title); default names the blueprint.
        folder: The repository's folder for blueprints.
        base: The branch a pull request merges into; default the repository's own.
        forge: Where to open a pull request once pushed; None pushes only.
        settings: Lint settings (input size limit).
        environ: The environment git runs in (default `os.environ`).
        transport: An httpx transport for the forge (tests).
        today: The date in a default branch name (default: today, UTC).
        timeout: Seconds each git command may take.

    Raises:
        LintRefusal: The blueprint has lint errors; nothing was cloned or pushed.
        BlueprintError: The bytes are not UTF-8 text.
        ConfigError: A bad file name, folder or branch, or the branch exists already.
        GitError: Cloning, committing or pushing failed (nothing was pushed).
    """
    from engine.blueprint.inputs import decode_blueprint
    from engine.blueprint.title import title_of

    text = decode_blueprint(content, file=name)
    errors = lint_errors(text, name, settings)
    if errors:
        raise LintRefusal(errors)
    target = repository_path(folder, name)
    if Path(to).exists():  # a local repository, named from here (the clone runs elsewhere)
        to = str(Path(to).resolve())
    env = git_environ(environ)
    secrets = (forge.token,) if forge else ()
    with tempfile.TemporaryDirectory(prefix="blueprint-publish-") as tmp:
        work = Path(tmp) / "repo"

        def run(args: list[str], cwd: Path = work) -> str:
            return git(args, cwd=cwd, env=env, timeout=timeout, secrets=secrets)

        run(["clone", "--quiet", "--depth", "1", "--", to, str(work)], cwd=Path(tmp))
        taken = _remote_branches(work, env, timeout)
        if branch is None:
            branch = branch_name(name, today or dt.datetime.now(dt.UTC).date(), taken)
        else:
            _check_branch(branch, work, env)
            if branch in taken:
                raise ConfigError(
                    f"The branch {branch} exists in the repository already: choose another "
                    "name (or leave --branch out for a new one)."
                )
        default = run(["symbolic-ref", "--quiet", "--short", "HEAD"])
        run(["checkout", "--quiet", "-b", branch])
        path = work / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        run(["add", "--", target])
        if not run(["status", "--porcelain", "--", target]).strip():
            raise ConfigError(
                f"{target} is already in the repository with exactly this text: nothing to propose."
            )
        title = title_of(text) or Path(name).stem
        subject = message or f"Propose blueprint: {title}"
        author = _author(work, env)
        run([*author, "-c", "commit.gpgsign=false", "commit", "--quiet", "-m", subject])
        commit = run(["rev-parse", "HEAD"]).strip()
        run(["push", "--quiet", "origin", f"refs/heads/{branch}:refs/heads/{branch}"])
    base = base or default.strip() or None
    if forge is None:
        return Published(branch, target, commit, base)
    body = (
        f"Adds `{target}`, proposed with Blueprint Studio (`blueprint publish`).\n\n"
        f"Check it with `blueprint lint {target}`."
    )
    try:
        url = open_pull_request(forge, branch, base or "main", subject, body, transport=transport)
    except ForgeError as exc:
        return Published(branch, target, commit, base, forge_error=str(exc))
    return Published(branch, target, commit, base, pull_request=url)
