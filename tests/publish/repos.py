"""Local git repositories for the publish tests: a bare repository with a `main` branch."""

from __future__ import annotations

import subprocess
from pathlib import Path

PLAIN_GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}


def git(*args: str, cwd: Path | None = None) -> str:
    """Run git and return its output (failing the test when git fails)."""
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout


def bare_repository(root: Path, name: str = "configs.git") -> Path:
    """A bare repository whose default branch `main` holds one README commit."""
    seed = root / f"{name}-seed"
    seed.mkdir()
    git("init", "--quiet", "-b", "main", str(seed))
    (seed / "README.md").write_text("Blueprints proposed by people.\n", encoding="utf-8")
    git("add", "README.md", cwd=seed)
    git(
        "-c", "user.name=Seed", "-c", "user.email=seed@example.org",
        "commit", "--quiet", "-m", "Start", cwd=seed,
    )  # fmt: skip
    bare = root / name
    git("clone", "--quiet", "--bare", str(seed), str(bare))
    return bare


def branches(bare: Path) -> list[str]:
    """The branches of a bare repository."""
    out = git("--git-dir", str(bare), "for-each-ref", "--format=%(refname:short)", "refs/heads")
    return sorted(out.split())


def file_at(bare: Path, branch: str, path: str) -> bytes:
    """The bytes of `path` on `branch`."""
    return subprocess.run(
        ["git", "--git-dir", str(bare), "show", f"{branch}:{path}"],
        capture_output=True,
        timeout=60,
        check=True,
    ).stdout
