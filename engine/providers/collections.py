"""Model collections (`CORE`, `QUICK`, ...): the shipped file, the user's settings, resolution."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import Any

from engine.errors import ConfigError
from engine.settings import Settings

__all__ = [
    "SHIPPED_FILE",
    "KnownCollections",
    "model_collections",
    "shipped_collections",
    "unknown_collection",
]

SHIPPED_FILE = "collections.toml"
"""The shipped collections, next to this module (refreshed by editing that one file)."""


@functools.cache
def _shipped() -> MappingProxyType[str, tuple[str, ...]]:
    import tomllib

    text = resources.files("engine.providers").joinpath(SHIPPED_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = tomllib.loads(text)
    out: dict[str, tuple[str, ...]] = {}
    for name, ids in data.items():
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ConfigError(f"engine/providers/{SHIPPED_FILE}: {name} must be a list of ids.")
        out[name] = tuple(ids)
    return MappingProxyType(out)


def shipped_collections() -> dict[str, tuple[str, ...]]:
    """The collections shipped with Blueprint Studio (Weval's, copied from its configs repo)."""
    return dict(_shipped())


class KnownCollections(Mapping[str, tuple[str, ...]]):
    """Every known collection, read when first looked at: most runs name no collection.

    The shipped ones, replaced or extended by the user's `[collections]`, by name.

    Args:
        settings: The user's settings (None: the shipped collections only).
    """

    def __init__(self, settings: Settings | None) -> None:
        self._settings = settings
        self._known: dict[str, tuple[str, ...]] | None = None

    def _read(self) -> dict[str, tuple[str, ...]]:
        if self._known is None:
            out = shipped_collections()
            if self._settings is not None:
                out.update(self._settings.collections)
            self._known = dict(sorted(out.items()))
        return self._known

    def __getitem__(self, name: str) -> tuple[str, ...]:
        return self._read()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


def model_collections(settings: Settings | None) -> dict[str, tuple[str, ...]]:
    """Every known collection: the shipped ones, replaced or extended by `[collections]`.

    Args:
        settings: The user's settings (None: the shipped collections only).
    """
    return dict(KnownCollections(settings))


def unknown_collection(name: str, known: Sequence[str]) -> str:
    """The message for a collection name that is not defined, listing the known names."""
    names = ", ".join(known) or "none"
    return (
        f"'{name}' is not a known model collection. Known collections: {names}. Define it "
        f'under [collections] in $BLUEPRINT_HOME/settings.toml ({name} = ["provider:model", '
        "...]) or list the model ids instead."
    )
