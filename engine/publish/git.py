"""The system `git`, run without a shell or prompts, for a bounded time, its messages cleaned."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.errors import EngineError
from engine.net.urls import mask_credentials

__all__ = ["GIT_TIMEOUT_S", "GitError", "git", "git_environ"]

GIT_TIMEOUT_S = 120.0
"""The longest one git command may take (a clone or a push over a slow network)."""

_SAFE_CONFIG = ("-c", "protocol.ext.allow=never")
"""`ext::` URLs run commands: never, whatever the user's git config says."""


class GitError(EngineError):
    """A git command failed; the message is git's own, without credentials."""


def git_environ(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment git runs in: never a prompt for a password, a passphrase or a host key.

    Args:
        base: The environment to start from (default `os.environ`).
    """
    env = dict(os.environ if base is None else base)
    env["GIT_TERMINAL_PROMPT"] = "0"  # a credential helper or GIT_ASKPASS still answers
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    env["LC_ALL"] = "C"  # git's messages in one language, as the docs quote them
    return env


def _clean(text: str, secrets: Sequence[str]) -> str:
    text = mask_credentials(text)
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return re.sub(r"\s+", " ", " ".join(lines[-4:]))[:600]


def _verb(args: Sequence[str]) -> str:
    """The git command in `args` (`commit` in `-c user.name=x commit -m ...`)."""
    after_c = False
    for arg in args:
        if not after_c and arg != "-c" and not arg.startswith("-"):
            return arg
        after_c = arg == "-c"
    return "command"


def git(
    args: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float = GIT_TIMEOUT_S,
    secrets: Sequence[str] = (),
) -> str:
    """Run `git ARGS` in `cwd` and return its standard output.

    Args:
        args: The arguments after `git` (put `--` before anything a user wrote).
        cwd: The folder to run in.
        env: The environment (see `git_environ`).
        timeout: Seconds before the command is stopped.
        secrets: Texts to remove from any message (a token).

    Raises:
        GitError: git is missing, failed, or took longer than `timeout`.
    """
    command = ["git", *_SAFE_CONFIG, *args]
    try:
        done = subprocess.run(
            command,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed: install git to publish.") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {_verb(args)} took more than {timeout:g} s and was stopped.") from None
    if done.returncode != 0:
        said = _clean(done.stderr.decode("utf-8", "replace"), secrets) or "no message"
        raise GitError(f"git {_verb(args)} failed: {said}")
    return done.stdout.decode("utf-8", "replace")
