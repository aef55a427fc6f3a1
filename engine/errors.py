"""The engine's exception tree; every error a user can cause says where and what to do.

```
EngineError                 base of everything the engine raises on purpose
├── BlueprintError          the blueprint text cannot be read (YAML/JSON syntax, structure)
├── InputError              another input file is unusable (responses JSONL, comparison JSON)
├── ConfigError             settings are wrong: unknown provider, missing key, bad allow-list
│   ├── UnknownProviderError
│   └── MissingKeyError
├── ProviderError           a model provider failed after all retries
└── StoreError              the SQLite store cannot be opened, migrated or written
```

A failing check is never an exception: it is an `errored` point assessment.
"""

from __future__ import annotations

__all__ = [
    "BlueprintError",
    "ConfigError",
    "EngineError",
    "InputError",
    "MissingKeyError",
    "ProviderError",
    "StoreError",
    "UnknownProviderError",
]


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class BlueprintError(EngineError):
    """A blueprint cannot be parsed; the message says where and what to write instead.

    Attributes:
        message: What is wrong and how to fix it, in plain words.
        file: The file name the blueprint came from, if any.
        line: 1-based line of the offending node, if known.
        column: 1-based column of the offending node, if known.
        upstream: The message Weval's parser gives for the same input, when it has one.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        upstream: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.upstream = upstream
        super().__init__(str(self))

    def with_file(self, file: str) -> BlueprintError:
        """Return a copy of this error that names `file`."""
        return BlueprintError(
            self.message, file=file, line=self.line, column=self.column, upstream=self.upstream
        )

    def __str__(self) -> str:
        where = self.file or "<blueprint>"
        if self.line is not None:
            where += f":{self.line}:{self.column or 1}"
        return f"{where}: {self.message}"


class InputError(EngineError):
    """An input file other than a blueprint (responses, comparison JSON) is unusable."""


class ConfigError(EngineError):
    """Settings or arguments are wrong (unknown provider, missing key, allow-list)."""


class UnknownProviderError(ConfigError):
    """A model id names a provider the engine does not know."""


class MissingKeyError(ConfigError):
    """A provider needs an API key that is not set; the message names the variable."""


class ProviderError(EngineError):
    """A model provider failed after all retries."""


class StoreError(EngineError):
    """The SQLite store cannot be opened, migrated or written."""
