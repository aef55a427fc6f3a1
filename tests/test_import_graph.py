"""The `engine` package's import graph (module-level, function-level and type-only imports) has no
cycle, and its packages keep their layers.

`import_graph` serves `tests/studio/test_layout.py` too (the studio's pure modules).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.astparse import parse_source

ROOT = Path(__file__).resolve().parents[1]

# Cycles allowed on purpose, as sorted tuples of module names. Keep it empty: a function-level
# import that breaks a cycle at import time, or a type-only one that hides it from the
# interpreter, still couples the modules both ways.
ALLOWED_CYCLES: set[tuple[str, ...]] = set()


def _modules(package: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module name an import statement names, anywhere (type-only imports included)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def import_graph(package: str = "engine") -> dict[str, set[str]]:
    """Module -> the modules of `package` it imports (and their packages outside its own)."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = parse_source(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for target in _imported(tree, name, path.name == "__init__.py"):
            if target not in modules:
                continue
            parts = target.split(".")
            for i in range(2, len(parts) + 1):  # the package itself is every module's parent
                parent = ".".join(parts[:i])
                if parent != name and not name.startswith(parent + "."):
                    edges.add(parent)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(tuple(sorted(component)))
    return found


def test_the_graph_sees_function_level_imports() -> None:
    graph = import_graph()
    assert "engine.checks.context" in graph
    # engine.js.strings imports engine.js.engine at module level; tools imports trace
    assert "engine.js.engine" in graph["engine.js.strings"]
    assert "engine.checks.trace" in graph["engine.checks.tools"]


def test_cycle_finder_finds_a_cycle_hidden_in_a_function() -> None:
    source = "def f():\n    from engine.b import x\n"
    names = _imported(parse_source(source), "engine.a", False)
    graph = {"engine.a": {n for n in names if n == "engine.b"}, "engine.b": {"engine.a"}}
    assert cycles(graph) == [("engine.a", "engine.b")]


def test_engine_has_no_import_cycle() -> None:
    found = [c for c in cycles(import_graph()) if c not in ALLOWED_CYCLES]
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def _loaded_after(imports: str, prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with one of `prefixes` loaded by `import <imports>` in a new process."""
    import json
    import subprocess
    import sys

    probe = (
        f"import json, sys, {imports}; "
        f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({prefixes!r}))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return list(json.loads(out.stdout))


def test_compare_of_two_files_loads_no_blueprint_model_aggregation_or_pydantic() -> None:
    # `blueprint compare a.json b.json` reads scores only: its start must stay light
    prefixes = ("engine.blueprint", "engine.scoring.aggregation", "engine.assessment", "pydantic")
    assert _loaded_after("engine.compare, engine.cli.compare_cmd", prefixes) == []


def test_a_run_starts_its_calls_without_the_scoring_and_report_modules() -> None:
    # `blueprint run` imports these only once its first calls are out (engine.run.execute):
    # on the way to the first call they would delay it (bench/run.py, cold)
    imports = (
        "engine.cli.run_cmd, engine.run.service, engine.run.prepared, engine.run.execute, "
        "engine.store.sqlite"
    )
    prefixes = (
        "engine.comparison", "engine.run.assemble", "engine.scoring", "engine.report",
        "engine.assessment",
        # and what only a settings file, a number written out or an HTTP date needs
        "tomllib", "decimal", "email",
    )  # fmt: skip
    assert _loaded_after(imports, prefixes) == []


# The engine's layers, bottom to top: a module may import its own layer and the ones below,
# never a higher one (type-only and function-level imports included). A package's `__init__`
# docstring says the same in words. A package listed here that does not exist is skipped.
LAYERS: list[tuple[str, ...]] = [
    ("engine.errors", "engine.lazy", "engine.version"),  # the base: errors, lazy names
    ("engine.js",),  # JavaScript's semantics (values, strings, RegExp), which the leaves use
    (  # leaf modules: plain values, settings, records, JSON, writing files
        "engine.jsonfast", "engine.jsonl", "engine.jsonbound", "engine.loop", "engine.markup",
        "engine.textlines", "engine.records", "engine.records_pydantic", "engine.settings",
        "engine.output", "engine.modelids", "engine.assessment", "engine.evidence",
    ),
    ("engine.net",),
    ("engine.blueprint", "engine.store", "engine.conversation", "engine.responses"),
    ("engine.checks",),
    ("engine.providers", "engine.judge", "engine.scoring"),
    ("engine.similarity", "engine.stats"),
    ("engine.comparison",),
    ("engine.summary",),
    ("engine.lint", "engine.run"),
    ("engine.compare", "engine.edit", "engine.publish", "engine.queue"),
    ("engine.report",),
    ("engine.review", "engine.drafting"),
    ("engine.cli", "engine.login", "engine.__main__"),
]  # fmt: skip


def _unit(module: str) -> str:
    """The top-level package or module of `engine` that `module` belongs to."""
    return ".".join(module.split(".")[:2])


def layer_breaches(graph: dict[str, set[str]], layers: list[tuple[str, ...]]) -> list[str]:
    """Each import of a higher layer, as `module -> imported (layer i -> layer j)`."""
    level = {unit: i for i, units in enumerate(layers) for unit in units}
    found = []
    for module, targets in sorted(graph.items()):
        if module == "engine":  # the package's front door re-exports every layer
            continue
        mine = level[_unit(module)]
        for target in sorted(targets):
            theirs = level[_unit(target)]
            if theirs > mine:
                found.append(f"{module} -> {target} (layer {mine} -> layer {theirs})")
    return found


def test_every_engine_package_has_a_layer() -> None:
    listed = {unit for units in LAYERS for unit in units}
    units = {_unit(m) for m in import_graph()} - {"engine"}
    assert sorted(units - listed) == []
    assert len(listed) == sum(len(units) for units in LAYERS)  # each listed once


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {"engine.a.x": {"engine.b"}, "engine.b": set()}
    assert layer_breaches(graph, [("engine.b",), ("engine.a",)]) == []
    assert layer_breaches(graph, [("engine.a",), ("engine.b",)]) == [
        "engine.a.x -> engine.b (layer 0 -> layer 1)"
    ]


def test_no_module_imports_a_higher_layer() -> None:
    found = layer_breaches(import_graph(), LAYERS)
    assert found == [], "imports of a higher layer:\n" + "\n".join(found)


def test_each_engine_package_says_what_it_holds_and_may_import() -> None:
    for init in sorted((ROOT / "engine").glob("*/__init__.py")):
        doc = ast.get_docstring(parse_source(init.read_text(encoding="utf-8"))) or ""
        assert "May import" in doc, f"{init.relative_to(ROOT)}: its docstring has no 'May import'"
