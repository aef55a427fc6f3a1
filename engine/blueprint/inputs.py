"""Blueprint text from files and editors: a size limit, and UTF-8 errors with a position."""

from __future__ import annotations

from pathlib import Path

from engine.blueprint.text import line_column
from engine.errors import BlueprintError, ConfigError
from engine.settings import Settings, load_settings

__all__ = [
    "blueprint_from_bytes",
    "check_input_size",
    "decode_blueprint",
    "max_input_bytes",
    "read_blueprint_file",
    "user_settings",
]

_MB = 1024 * 1024


def user_settings() -> Settings:
    """The user's settings, or the defaults when they cannot be read (never an error here)."""
    try:
        return load_settings()
    except (ConfigError, OSError):
        return Settings()


def max_input_bytes(settings: Settings | None = None) -> int:
    """The largest blueprint, in bytes: `settings.max_input_mb`, else the user's setting."""
    return round((settings or user_settings()).max_input_mb * _MB)


def _too_large(size: int, limit: int, file: str | None) -> BlueprintError:
    return BlueprintError(
        f"This blueprint is {size / _MB:.3g} MB, more than the {limit / _MB:.3g} MB limit. Split "
        "it into smaller blueprints, or raise the limit with BLUEPRINT_MAX_INPUT_MB or "
        "`max_mb` under `[input]` in settings.toml.",
        file=file,
        line=1,
        column=1,
    )


def check_input_size(text: str, limit: int, *, file: str | None = None) -> None:
    """Refuse a text whose UTF-8 form is larger than `limit` bytes.

    Raises:
        BlueprintError: At line 1, column 1, saying the size, the limit and how to raise it.
    """
    if len(text) * 4 <= limit:  # no character takes more than 4 bytes
        return
    size = len(text) if len(text) > limit else len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise _too_large(size, limit, file)


def decode_blueprint(data: bytes, *, file: str | None = None) -> str:
    """Decode a blueprint's bytes as UTF-8.

    Raises:
        BlueprintError: A byte sequence is not UTF-8, at the line and column where it is.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", "replace")
        line, column = line_column(before, len(before))
        raise BlueprintError(
            f"This byte (0x{data[exc.start]:02X}) is not UTF-8 text: the file is binary or "
            "saved in another encoding. Save it as UTF-8.",
            file=file,
            line=line,
            column=column,
        ) from None


def blueprint_from_bytes(
    data: bytes, *, file: str | None = None, settings: Settings | None = None
) -> str:
    """Blueprint text from bytes (an uploaded file): refused beyond the size limit, UTF-8 only.

    Raises:
        BlueprintError: The bytes are too many, hold a NUL byte (a binary file), or are not
            UTF-8; the message says what is wrong and what to do.
    """
    limit = max_input_bytes(settings)
    if len(data) > limit:
        raise _too_large(len(data), limit, file)
    if b"\x00" in data:
        raise BlueprintError(
            "This file holds NUL bytes: it is a binary file, not blueprint text. Open a "
            "YAML (.yml, .yaml) or JSON (.json) text file.",
            file=file,
        )
    return decode_blueprint(data, file=file)


def read_blueprint_file(path: str | Path, *, settings: Settings | None = None) -> str:
    """Read a blueprint file: refused beyond the size limit, decoded as UTF-8.

    Only `limit + 1` bytes are ever read, so a huge file costs nothing.

    Raises:
        BlueprintError: The file cannot be read, is too large or is not UTF-8; the message
            reads `FILE:LINE:COL: what is wrong, and what to do` when there is a position.
    """
    limit = max_input_bytes(settings)
    name = str(path)
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(limit + 1)
            if len(data) > limit:
                handle.seek(0, 2)
                raise _too_large(handle.tell(), limit, name)
    except OSError as exc:
        raise BlueprintError(f"cannot read the file: {exc.strerror or exc}.", file=name) from None
    return decode_blueprint(data, file=name)
