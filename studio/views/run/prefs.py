"""The Run page's remembered choices (models, judging, judges), one entry per blueprint.

Kept in a small JSON file beside the store (`run_choices.json` in `$BLUEPRINT_HOME`), so a
choice survives reruns, page switches, a reload and a restart. The file is bounded (entries,
list lengths and id lengths are capped) and a damaged or oversized file reads as empty. Pure:
no Streamlit import.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["FILE_NAME", "RunPrefs", "blueprint_key", "load", "save"]

FILE_NAME = "run_choices.json"
MAX_ENTRIES = 200
MAX_ITEMS = 50
MAX_ID = 300
MAX_BYTES = 1_000_000
JUDGING = ("default", "custom", "none")


@dataclass(frozen=True)
class RunPrefs:
    """The choices made on the Run page for one blueprint.

    Attributes:
        models: The models to run, in the order picked.
        judging: How points in words are judged: `default`, `custom` or `none`.
        judges: The judge models picked for `custom` judging.
    """

    models: tuple[str, ...] = ()
    judging: str = "default"
    judges: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The entry as written to the file."""
        return {"models": list(self.models), "judging": self.judging, "judges": list(self.judges)}

    @classmethod
    def from_json(cls, value: object) -> RunPrefs | None:
        """Read an entry, dropping whatever is malformed; None when it is not an entry."""
        if not isinstance(value, dict):
            return None
        judging = value.get("judging")
        return cls(
            models=_ids(value.get("models")),
            judging=judging if judging in JUDGING else "default",
            judges=_ids(value.get("judges")),
        )


def _ids(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    ids = [v for v in value if isinstance(v, str) and 0 < len(v) <= MAX_ID]
    return tuple(dict.fromkeys(ids))[:MAX_ITEMS]


def blueprint_key(title: str | None, source: str | None, draft: str | None) -> str | None:
    """The key a blueprint's choices are kept under: its title, else file name, else draft.

    The title comes first so that opening the same example again (a new draft) or restoring
    a draft after a reload finds the choices made before.
    """
    for kind, value in (("title", title), ("source", source), ("draft", draft)):
        if value and value.strip():
            return f"{kind}:{value.strip()[:MAX_ID]}"
    return None


def _read(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > MAX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load(folder: Path, key: str) -> RunPrefs | None:
    """The choices kept for `key` in `folder`, or None when there are none."""
    return RunPrefs.from_json(_read(folder / FILE_NAME).get(key))


def save(folder: Path, key: str, prefs: RunPrefs) -> None:
    """Keep `prefs` for `key` (the newest entries win when the file is full).

    The file is replaced atomically, so a reader never sees half of it. A folder that
    cannot be written is ignored: remembering is a convenience, never a failure.
    """
    path = folder / FILE_NAME
    entries = _read(path)
    entries.pop(key, None)
    entries[key] = (RunPrefs.from_json(prefs.to_json()) or prefs).to_json()  # capped
    kept = dict(list(entries.items())[-MAX_ENTRIES:])
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".run_choices-", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(kept, out, ensure_ascii=False)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
