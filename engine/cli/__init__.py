"""The `blueprint` command line: one click group, one module per command, imported when used.

May import: every engine package (it is the top layer); never `studio`.

Each command's module (and what it needs: the typed records, the HTTP client, the linter) is
imported only when that command runs, so `blueprint --help` and `blueprint lint` do not pay
for the others. `--help` lists the commands from `COMMANDS` without importing them; a test
checks those one-line helps against the commands' own.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import io
import os
import sys
import threading
from typing import NoReturn

import click

__all__ = ["COMMANDS", "cli", "entry", "main"]

COMMANDS: dict[str, tuple[str, str]] = {
    "compare": (
        "engine.cli.compare_cmd:compare_cmd",
        "Compare two runs: each model's average, each prompt's score and each point.",
    ),
    "db": (
        "engine.cli.db_cmd:db",
        "Manage the store: bring its schema up to date, copy it into another.",
    ),
    "lint": (
        "engine.cli.lint_cmd:lint_command",
        "Check blueprint FILES and report problems, with what to write instead.",
    ),
    "members": (
        "engine.cli.members_cmd:members",
        "Manage a team studio's members: list them, set a role, remove, disable or enable one.",
    ),
    "normalize": (
        "engine.cli.normalize_cmd:normalize",
        "Print FILE normalized exactly as Weval's parser produces it.",
    ),
    "plan": (
        "engine.cli.run_cmd:plan_cmd",
        "Show what running FILE would do: the matrix, calls, cached calls and a cost range.",
    ),
    "publish": (
        "engine.cli.publish_cmd:publish_cmd",
        "Propose FILE: commit it byte for byte on a new branch of a repository and push it.",
    ),
    "rescore": (
        "engine.cli.rescore_cmd:rescore_cmd",
        "Score RUN's stored answers again with FILE, as a new run, without generating anything.",
    ),
    "run": (
        "engine.cli.run_cmd:run_cmd",
        "Generate, judge, score and store FILE against several models.",
    ),
    "schema": (
        "engine.cli.schema_cmd:schema",
        "Print a JSON Schema of blueprint YAML, for editor hints and checks.",
    ),
    "score": (
        "engine.cli.score_cmd:score",
        "Score the responses in a JSONL file against FILE, without generating anything.",
    ),
    "share": (
        "engine.cli.share_cmd:share_cmd",
        "Print a read-only share link to RUN's results, or revoke one with --revoke LINK.",
    ),
    "summarize": (
        "engine.cli.summarize_cmd:summarize_cmd",
        "Write an executive summary of a finished RUN with one model call, and store it.",
    ),
    "studio": (
        "engine.cli.studio_cmd:studio",
        "Start the studio in the browser: write, try, run, compare and share blueprints.",
    ),
    "worker": (
        "engine.cli.worker_cmd:worker_cmd",
        "Execute queued runs (team mode) until stopped: Ctrl-C or SIGTERM ends it cleanly.",
    ),
}
"""Command name: ("module:attribute" of its click command, the first sentence of its help)."""


def load_command(name: str) -> click.Command:
    """Import and return the click command called `name` (one of `COMMANDS`)."""
    module, _, attribute = COMMANDS[name][0].partition(":")
    command = getattr(importlib.import_module(module), attribute)
    if not isinstance(command, click.Command):
        raise TypeError(f"{COMMANDS[name][0]} is not a click command")
    return command


def _short_help(text: str, limit: int) -> str:
    """`text` cut at a word to at most `limit` characters, ending with `...` when cut."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 3, 0)].rsplit(" ", 1)[0].rstrip(" ,;:")
    return cut + "..."


class _LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return load_command(cmd_name) if cmd_name in COMMANDS else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)  # as click computes it
        rows = [(name, _short_help(COMMANDS[name][1], limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="blueprint-studio")
def cli() -> None:
    """Write, lint, run and compare rubric-based LLM evaluations (Weval blueprints)."""


GC_THRESHOLD = 10_000
_HTTPX_CLI = "httpx._main"
"""Young-generation size for this short-lived process (library code never touches the GC)."""


def main() -> None:
    """Entry point of the `blueprint` console script.

    Collects young objects every 10,000 allocations instead of 700: parsing and linting a
    large blueprint allocate many small lasting objects, and the default made them about
    1.4 times slower in CPU time (see bench/parse.py). Set once, here, for this process only,
    as is leaving out httpx's command line module (what it would load costs a run's start).
    """
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    # httpx imports its own command line (`httpx._main`) when it can, and with it rich and
    # pygments: 70 ms of a run's start before its first call (0.10 s -> 0.03 s to import
    # httpx, bench/startup.py). This process never runs httpx's command line.
    sys.modules.setdefault(_HTTPX_CLI, None)  # type: ignore[arg-type]
    # Text from a blueprint or a response may hold lone surrogates: print them as `\udXXX`
    # (inside JSON output, that is the escape JSON.stringify writes) instead of failing.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    cli(prog_name="blueprint")


def entry() -> NoReturn:
    """The `blueprint` program (console script and `python -m engine`): `main`, then exit.

    A command that is over leaves at once: its exit handlers run (JavaScript workers, database
    pools), its output is flushed, and the interpreter's own teardown, which frees every
    object one by one, is skipped (about 20 ms after the last line of a 900-cell run).
    While a thread of the command is still working, the exit is the ordinary one, which
    waits for it.
    """
    try:
        main()
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    if any(
        t.is_alive() and not t.daemon
        for t in threading.enumerate()
        if t is not threading.main_thread()
    ):
        sys.exit(code)
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # as sys.exit("text") says it
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe: nothing more can be said
            stream.flush()
    os._exit(code or 0)
