"""Where a compared run comes from: a comparison JSON file, or a run id in the store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Final

from engine.compare.view import RunView, view_from_json, view_from_rows
from engine.errors import BlueprintError, InputError
from engine.jsonfast import loads

if TYPE_CHECKING:
    from engine.store import Store

__all__ = ["load_run_view"]


MAX_FILE_BYTES: Final = 64 * 1024 * 1024
"""The largest comparison file `compare` reads (64 MB; a 1,000-prompt run writes about 15 MB)."""


def _from_file(path: Path) -> RunView:
    where = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(
                f"{where}: this file is {size / 1e6:.0f} MB, more than the "
                f"{MAX_FILE_BYTES / 1e6:.0f} MB a comparison file may have. Give a run id instead."
            )
        data = loads(path.read_bytes())
    except OSError as exc:
        raise InputError(f"{where}: cannot read the file ({exc.strerror or exc}).") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError(
            f"{where}: this file is not valid JSON. Give a `*_comparison.json` file or a run id."
        ) from None
    except (RecursionError, ValueError):
        raise InputError(
            f"{where}: this file is nested too deeply or holds a number too long."
        ) from None
    if not isinstance(data, dict):
        raise InputError(
            f"{where}: this JSON file is not a comparison (its top level is not an object)."
        )
    return view_from_json(data, where, where)


def _from_store(run_id: str, store: Store) -> RunView:
    from engine.blueprint import parse_blueprint
    from engine.blueprint.parse import config_id_of
    from engine.comparison.build import run_timestamp
    from engine.comparison.weval import prompt_weights_of
    from engine.run.keypoints import run_key_points

    run = store.get_run(run_id)
    if run is None:
        raise InputError(
            f"{run_id}: there is no such file, and no run with this id in the store "
            f"({store.location}). Give a comparison JSON file or the id `blueprint run` printed."
        )
    text = store.blueprint_text(run.blueprint_hash)
    if text is None:
        raise InputError(f"{run_id}: the blueprint of this run is missing from the store.")
    source = run.options.get("source")
    try:
        blueprint = parse_blueprint(text, source=source if isinstance(source, str) else None)
    except BlueprintError as exc:
        raise InputError(f"{run_id}: the blueprint of this run cannot be read ({exc}).") from None
    # the view the run's assembled comparison gives (`stored_comparison`), read from its rows
    skipped = frozenset(
        pid for pid, k in run_key_points(store, run_id, blueprint).items() if not k.ok
    )
    return view_from_rows(
        store.cells(run_id),
        run_id=run_id,
        label=blueprint.title or config_id_of(blueprint),
        timestamp=run_timestamp(run) or run.created_at,
        prompt_ids=sorted(p.id for p in blueprint.prompts),
        prompt_weights=prompt_weights_of(blueprint.weval),
        skipped=skipped,
    )


def load_run_view(ref: str, store: Store | None = None) -> RunView:
    """Load what a comparison needs of one run, from a file path or a stored run id.

    Raises:
        InputError: Neither a readable comparison file nor a stored run; the message says which.
    """
    path = Path(ref)
    if path.is_file():
        return _from_file(path)
    if path.suffix.lower() == ".json" or "/" in ref:
        raise InputError(f"{ref}: no such file. Give a comparison JSON file or a run id.")
    if store is None:
        from engine.store import open_store

        store = open_store()
    return _from_store(ref, store)
