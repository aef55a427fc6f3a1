"""The front doors are accurate: every repository path and `blueprint` command they name exists.

README.md, docs/architecture.md and the pages the README's feature reference moved to name
paths in backticks (`engine/run/plan.py`, `studio/views/<page>/`, `docs/lint.md`) and commands
(`blueprint run FILE`). Each path must exist in this checkout (a `<placeholder>` or `*` part
matches any name), and each command must be one of the `blueprint` click group's commands (and
a subcommand of it, for a group such as `blueprint db`).
"""

from __future__ import annotations

import re

import click
import pytest

from engine.cli import COMMANDS, load_command
from tests.conftest import REPO

DOCS = (
    "README.md",
    "docs/architecture.md",
    "docs/writing.md",
    "docs/running.md",
    "docs/results.md",
    "docs/cli.md",
    "docs/team.md",
    "docs/development.md",
)
"""The pages checked: the two front doors and the pages the README's reference moved to."""

ROOTS = ("engine/", "studio/", "docs/", "tests/", "bench/", "scripts/", "examples/")
ROOTS += ("requirements/", ".ci/")
"""A token naming a repository path starts with one of these."""

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
SPAN = re.compile(r"`([^`\n]+)`")
_ROOT = "|".join(map(re.escape, ROOTS))
PATH = re.compile(rf"(?:^|[\s(\[=|,\"'])((?:{_ROOT})[^\s`)\]\"',;|]*)")
COMMAND = re.compile(r"(?:^|[\s(|;&`])blueprint[ \t]+([a-z][a-z-]*)(?:[ \t]+([a-z][a-z-]*))?")


def code_of(text: str) -> list[str]:
    """The text of every fenced block and every backticked span, in order."""
    blocks = [m.group(1) for m in FENCE.finditer(text)]
    prose = FENCE.sub("", text)
    return blocks + [m.group(1) for m in SPAN.finditer(prose)]


def named_paths(text: str) -> list[str]:
    """The repository paths named in the code of `text` (trailing `:` and `.` cut)."""
    found = []
    for code in code_of(text):
        for m in PATH.finditer(code):
            path = m.group(1).split("::")[0].rstrip(".:")
            if path not in found:
                found.append(path)
    return found


def named_commands(text: str) -> list[tuple[str, str | None]]:
    """`(command, the word after it)` for every `blueprint <command>` in the code of `text`."""
    found = []
    for code in code_of(text):
        for m in COMMAND.finditer(code):
            if (m.group(1), m.group(2)) not in found:
                found.append((m.group(1), m.group(2)))
    return found


def exists(path: str) -> bool:
    """Whether `path` names something in the repository; `<name>` and `*` match any name."""
    pattern = re.sub(r"<[^>/]*>", "*", path).rstrip("/")
    if "*" in pattern:
        return any(REPO.glob(pattern))
    return (REPO / pattern).exists()


def _cases(kind: str) -> list[tuple[str, object]]:
    cases: list[tuple[str, object]] = []
    for doc in DOCS:
        text = (REPO / doc).read_text(encoding="utf-8")
        items = named_paths(text) if kind == "paths" else named_commands(text)
        cases += [(doc, item) for item in items]
    return cases


def test_the_pages_exist_and_the_readme_links_each_one() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for doc in DOCS:
        assert (REPO / doc).is_file(), doc
        if doc != "README.md":
            assert f"`{doc}`" in readme, f"README.md does not link {doc}"
    assert "](docs/images/results.png)" in readme
    assert (REPO / "docs" / "images" / "results.png").stat().st_size < 400_000


def test_the_finders_see_paths_and_commands_in_spans_and_blocks() -> None:
    text = (
        "Run `python -m pytest tests/checks::test_x` or `blueprint db copy --from A`.\n\n"
        "```bash\nscripts/install-dev && blueprint run FILE\n```\n"
        "A blueprint in words is not a command; see `studio/views/<page>/page.py`.\n"
    )
    assert named_paths(text) == [
        "scripts/install-dev",
        "tests/checks",
        "studio/views/<page>/page.py",
    ]
    assert named_commands(text) == [("run", None), ("db", "copy")]


@pytest.mark.parametrize(("doc", "path"), _cases("paths"), ids=lambda v: str(v))
def test_every_named_path_exists(doc: str, path: str) -> None:
    assert exists(path), f"{doc} names `{path}`, which is not in the repository"


@pytest.mark.parametrize(("doc", "command"), _cases("commands"), ids=lambda v: str(v))
def test_every_named_command_is_a_blueprint_command(
    doc: str, command: tuple[str, str | None]
) -> None:
    name, word = command
    assert name in COMMANDS, f"{doc} names `blueprint {name}`, which is not a command"
    group = load_command(name)
    if isinstance(group, click.Group) and word is not None:
        assert word in group.list_commands(click.Context(group)), (
            f"{doc} names `blueprint {name} {word}`: no such command"
        )


def test_readme_gives_exactly_two_setup_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.split("## Start", 1)[1].split("\n## ", 1)[0]
    blocks = [m.group(1).strip() for m in FENCE.finditer(start)]
    assert blocks == ["pip install -e . && blueprint studio", "scripts/install-dev && scripts/test"]


def test_the_architecture_table_lists_the_layers_the_import_graph_test_enforces() -> None:
    from tests.test_import_graph import LAYERS

    text = (REPO / "docs/architecture.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if re.match(r"^\| \d+ \|", line)]
    shown = []
    for row in rows:
        names = re.findall(r"`(engine/[\w/]*?)(?:/|\.py)?`", row.split("|")[2])
        shown.append({"engine." + name.removeprefix("engine/").strip("/") for name in names})
    assert len(shown) == len(LAYERS)
    for i, (listed, layer) in enumerate(zip(shown, LAYERS, strict=True)):
        assert listed <= set(layer), f"layer {i}: {sorted(listed - set(layer))} not in LAYERS[{i}]"
        assert listed, f"layer {i} names no package"
