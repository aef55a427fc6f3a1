"""Lazy package attributes (PEP 562): a package's public names load with their module on use."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


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
