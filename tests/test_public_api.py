"""The engine's public surface: `__all__` is sorted and importable; the engine stays UI-free."""

from __future__ import annotations

import subprocess
import sys

import engine


def test_all_is_sorted_unique_and_importable():
    names = engine.__all__
    assert names == sorted(names, key=str.lower) or names == sorted(names)
    assert len(names) == len(set(names))
    for name in names:
        assert getattr(engine, name) is not None


def test_importing_the_engine_never_imports_streamlit():
    code = (
        "import sys, pkgutil, importlib, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    if m.name != 'engine.__main__': importlib.import_module(m.name)\n"
        "print('streamlit' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
