"""The studio's layout: one folder per page, and pure modules that never reach Streamlit.

The rule is written in `studio/__init__.py`: every module of `studio/core/`, `navigation`
and the page modules in `PURE` import `streamlit` neither directly nor through another studio
module (function-level imports count), so they are tested as plain functions.
"""

from __future__ import annotations

import ast

from studio.navigation import ADMIN, APP, PAGES, SHARED
from tests.astparse import parse_source
from tests.test_import_graph import ROOT, _imported, _modules, import_graph

STREAMLIT = ("streamlit", "code_editor")
"""Top-level modules that are Streamlit (`code_editor` is a Streamlit component)."""

PAGE_FOLDERS = {
    "compare": "compare",
    "editor": "editor",
    "history": "history",
    "preferences": "preferences",
    "results": "results",
    "run": "run",
    "settings": "settings",
    "share": "share",
    "team": "admin",
}
"""Folder -> its page script's name: the page's url_path (`AppTest.switch_page` finds a page by
its file name before the first run)."""

PURE = {
    "studio.navigation",
    "studio.views.compare.compare_data",
    "studio.views.compare.linechart",
    "studio.views.compare.statictable",
    "studio.views.editor.form_sync",
    "studio.views.results.similarity",
    "studio.views.results.variantdata",
    "studio.views.run.live_run",
    "studio.views.run.prefs",
    "studio.views.share.share_html",
    "studio.views.share.share_view",
}
"""The pure modules outside `studio/core/` (all of which is pure)."""


def _is_pure(module: str) -> bool:
    return module in PURE or module == "studio.core" or module.startswith("studio.core.")


def _streamlit_users() -> dict[str, str]:
    """Module -> how it reaches Streamlit (`a -> b -> streamlit`), for every module that does."""
    graph = import_graph("studio")
    reaches: dict[str, str] = {}
    for name, path in _modules("studio").items():
        tree = parse_source(path.read_text(encoding="utf-8"))
        direct = sorted(
            n for n in _imported(tree, name, path.name == "__init__.py") if n in STREAMLIT
        )
        if direct:
            reaches[name] = f"{name} -> {direct[0]}"
    changed = True
    while changed:  # until no module gets a new path to Streamlit
        changed = False
        for name in sorted(graph):
            if name in reaches:
                continue
            via = next((d for d in sorted(graph[name]) if d in reaches), None)
            if via is not None:
                reaches[name] = f"{name} -> {reaches[via]}"
                changed = True
    return reaches


def test_pure_modules_never_reach_streamlit():
    pure = [m for m in _modules("studio") if _is_pure(m)]
    assert "studio.core.resultdata" in pure and "studio.views.run.prefs" in pure
    reaches = _streamlit_users()
    assert [reaches[m] for m in sorted(pure) if m in reaches] == []


def test_a_module_that_needs_no_streamlit_is_declared_pure():
    # a new pure module joins `studio/core/` or `PURE`, so the rule above keeps it pure
    reaches = _streamlit_users()
    assert "studio.views.results.results_view" in reaches
    undeclared = [
        name
        for name, path in _modules("studio").items()
        if name not in reaches and not _is_pure(name) and path.name != "__init__.py"
    ]
    assert undeclared == []


def test_the_rule_sees_an_import_inside_a_function():
    tree = parse_source("def f():\n    import streamlit as st\n")
    assert "streamlit" in _imported(tree, "studio.core.x", False)


def test_each_page_has_its_folder_its_script_and_a_docstring():
    views = ROOT / "studio" / "views"
    assert sorted(p.name for p in views.iterdir() if p.is_dir() and p.name != "__pycache__") == (
        sorted(PAGE_FOLDERS)
    )
    for folder, script in PAGE_FOLDERS.items():
        assert (views / folder / f"{script}.py").is_file(), folder
        init = ast.parse((views / folder / "__init__.py").read_text(encoding="utf-8"))
        assert ast.get_docstring(init), folder
    specs = (*PAGES, SHARED, ADMIN)
    assert {spec.path for spec in specs} == {f"views/{f}/{s}.py" for f, s in PAGE_FOLDERS.items()}
    for spec in specs:
        assert spec.path.endswith(f"/{spec.url_path}.py"), spec
        assert (APP.parent / spec.path).is_file(), spec


def test_no_pages_folder_next_to_the_entry_scripts():
    # Streamlit runs the first script of a server in its old multipage mode when the main
    # script (studio/serve.py, next to studio/app.py) has a `pages/` folder beside it
    assert not (APP.parent / "pages").exists()
