"""Lazy package attributes (PEP 562): a package's public names load with their module on use."""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["lazy_names", "typed_exports"]


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """Return a module `__getattr__` that imports `package.<home>` when a name is first used.

    Args:
        package: The package's dotted name (its `__name__`).
        homes: Each public name and the submodule (relative to `package`) that defines it.

    Returns:
        The function to assign to the package's `__getattr__`; it caches each value it loads
        in the package's namespace, so later look-ups are plain attribute reads.
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)
        return value

    __getattr__.__doc__ = f"Import the module of {package} that holds `name` on first use."
    return __getattr__


def _ruff_order(name: str) -> tuple[int, str]:
    """The order ruff (RUF022) keeps `__all__` in: CONSTANTS, then Classes, then functions."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def _guarded_imports(source: str) -> dict[str, str]:
    """Each name the top-level `if TYPE_CHECKING:` block of `source` imports, and its module."""
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom) and stmt.module is not None:
                    found.update((alias.asname or alias.name, stmt.module) for alias in stmt.names)
    return found


def typed_exports(package: str, file: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's `__getattr__` and `__dir__` whose one list of names is its TYPE_CHECKING block.

    The package writes each public name once, as `from engine.x import Name as Name` under
    `if TYPE_CHECKING:` (what type checkers read). On first use the block is read back from the
    package's source (`file`, its `__file__`), which gives `__all__` (in ruff's order),
    `_WHERE` (each name's module) and each name, imported with its module (`lazy_names`).
    Nothing is read by `import package` itself.

    Args:
        package: The package's dotted name (its `__name__`).
        file: The package's `__init__.py` (its `__file__`).
    """
    table: dict[str, str] = {}
    load: list[Callable[[str], Any]] = []

    def where() -> dict[str, str]:
        if not table:
            table.update(_guarded_imports(Path(file).read_text(encoding="utf-8")))
            prefix = package + "."
            load.append(lazy_names(package, {n: m.removeprefix(prefix) for n, m in table.items()}))
        return table

    def __getattr__(name: str) -> Any:
        homes = where()
        if name == "__all__":
            value: Any = sorted(homes, key=_ruff_order)
        elif name == "_WHERE":
            value = dict(homes)
        else:
            return load[0](name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where()))

    __getattr__.__doc__ = f"Import the module of {package} that holds `name` on first use."
    return __getattr__, __dir__
