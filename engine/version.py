"""The package's version, in a leaf module: what reports it needs no import of `engine` itself."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
"""The package's version (pyproject.toml reads it from here; no `importlib.metadata` needed)."""
