"""The engine's public surface: `__all__` is sorted and importable; the engine stays UI-free."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import engine
from tests.astparse import parse_source


def test_all_is_sorted_unique_and_importable():
    names = engine.__all__

    def kind(name):  # ruff's RUF022 order: CONSTANTS, Classes, functions
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert names == sorted(names, key=kind)
    assert len(names) == len(set(names))
    for name in names:
        assert getattr(engine, name) is not None
    assert set(dir(engine)) >= set(names)


def loaded_after(code: str, modules: tuple[str, ...]) -> list[str]:
    """Run `code` in a fresh interpreter; return which of `modules` it imported."""
    code += (
        f"\nimport json, sys\nprint(json.dumps(sorted(m for m in {modules!r} if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return list(json.loads(out.stdout))


def test_importing_the_engine_never_imports_streamlit():
    code = (
        "import pkgutil, importlib, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    if m.name != 'engine.__main__': importlib.import_module(m.name)"
    )
    assert loaded_after(code, ("streamlit",)) == []


def test_import_engine_is_light():
    heavy = ("httpx", "quickjs", "engine.lint", "jsonschema")
    assert loaded_after("import engine, engine.cli", heavy) == []


def test_the_cli_imports_a_command_only_when_it_runs():
    code = (
        "from click.testing import CliRunner\n"
        "from engine.cli import cli\n"
        "result = CliRunner().invoke(cli, ['--help'])\n"
        "assert result.exit_code == 0, result.output"
    )
    heavy = ("pydantic", "engine.blueprint", "engine.cli.run_cmd", "engine.cli.lint_cmd")
    assert loaded_after(code, heavy) == []


def test_the_cli_help_lists_each_command_with_its_own_short_help():
    from click.testing import CliRunner

    from engine.cli import COMMANDS, cli, load_command

    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name, (_, short) in COMMANDS.items():
        command = load_command(name)
        assert command.name == name
        assert short == command.get_short_help_str(limit=500), name
        assert f"  {name}" in result.output


def test_the_type_checking_imports_and_where_agree_with_all():
    tree = parse_source(Path(engine.__file__).read_text(encoding="utf-8"))
    guarded = next(
        n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
    )
    seen = {
        alias.name: node.module
        for node in guarded.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == engine._WHERE
    assert set(engine.__all__) == set(engine._WHERE)


RUN_BLUEPRINT = """\
title: Import check
models: [openai:fake-a, openai:fake-b]
temperatures: [0, 0.5]
system: Be brief.
---
- id: p1
  prompt: Hello?
  ideal: Hello.
  weight: 2
  should:
    - $contains: Hello
    - Says hello politely
  should_not:
    - $contains: goodbye
- id: p2
  prompt: Bye?
  should:
    - [$contains: Bye, $word_count_between: [1, 200]]
    - $word_count_between: [1, 50]
"""


def _imported_by_a_run(blueprint: Path, out: Path, env: dict[str, str]) -> list[str]:
    """Run `python -X importtime -m engine run`; return every module it imported."""
    args = ["run", str(blueprint), "--no-judge", "--out", str(out)]
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "engine", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert list(out.glob("*_comparison.json"))
    return [
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    ]


def test_a_run_cold_or_warm_never_imports_pydantic(fake_llm, tmp_path):
    blueprint = tmp_path / "bp.yml"
    blueprint.write_text(RUN_BLUEPRINT, encoding="utf-8")
    env = {
        **{k: v for k, v in os.environ.items() if not k.endswith(("_BASE_URL", "_API_KEY"))},
        **fake_llm.env(),
        "BLUEPRINT_HOME": str(tmp_path / "home"),
    }
    cold = _imported_by_a_run(blueprint, tmp_path / "cold", env)
    answered = len(fake_llm.calls)
    assert answered > 0  # the cold run called the provider
    warm = _imported_by_a_run(blueprint, tmp_path / "warm", env)
    assert len(fake_llm.calls) == answered  # the warm run answered everything from the cache
    assert "engine.run.service" in cold and "engine.run.service" in warm
    assert [m for m in cold if m.split(".")[0] in ("pydantic", "pydantic_core")] == []
    assert [m for m in warm if m.split(".")[0] in ("pydantic", "pydantic_core")] == []


def test_lint_of_a_file_imports_no_pydantic(tmp_path):
    path = tmp_path / "bp.yml"
    path.write_text(RUN_BLUEPRINT + "- prompt: no id\n  should:\n    - [$contains: x]\n")
    code = (
        "import contextlib, io, sys\nfrom engine.cli import main\n"
        f"sys.argv = ['blueprint', 'lint', {str(path)!r}]\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main()"
    )
    assert loaded_after(code, ("pydantic", "pydantic_core", "engine.lint.run")) == [
        "engine.lint.run"
    ]
