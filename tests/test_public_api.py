"""The engine's public surface: `__all__` is sorted and importable; the engine stays UI-free."""

from __future__ import annotations

import subprocess
import sys

import engine


def test_all_is_sorted_unique_and_importable():
    names = engine.__all__

    def kind(name):  # ruff's RUF022 order: CONSTANTS, Classes, functions
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert names == sorted(names, key=kind)
    assert len(names) == len(set(names))
    for name in names:
        assert getattr(engine, name) is not None
    assert set(dir(engine)) >= set(names)


def test_importing_the_engine_never_imports_streamlit():
    code = (
        "import sys, pkgutil, importlib, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    if m.name != 'engine.__main__': importlib.import_module(m.name)\n"
        "print('streamlit' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_import_engine_is_light():
    code = "import sys, engine, engine.cli\nprint(sorted(m for m in ('httpx', 'quickjs', 'engine.lint', 'jsonschema') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
