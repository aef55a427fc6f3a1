"""The comparison: Weval's comparison JSON as a typed `Comparison`; built, read back and written.

Holds the `Comparison` record (`weval`), reading a comparison file back (`read`), building one
from scored cells or a stored run's cells (`build`) and a run's cost (`cost`). Rendering it (HTML,
CSV, text) is `engine.report`'s; reading a stored run's key points and embeddings back is
`engine.run.assemble`'s.

May import: the leaf modules, `engine.blueprint`, `engine.store`, `engine.checks`,
`engine.providers`, `engine.judge`, `engine.scoring`, `engine.similarity`, `engine.stats`; never
`engine.run`, `engine.compare`, `engine.report` or anything above them.

The names load on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.comparison.build import (
        build_comparison,
        comparison_from_rows,
        run_cost,
        run_timestamp,
    )
    from engine.comparison.cost import MONEY_DIGITS, UNKNOWN, RunCost, money_text
    from engine.comparison.read import cell_from_weval, read_comparison
    from engine.comparison.weval import (
        IDEAL_MODEL_ID,
        Comparison,
        config_content_hash,
        prompt_weights_of,
        safe_timestamp,
    )

_HOMES = {
    "build_comparison": "build",
    "comparison_from_rows": "build",
    "run_cost": "build",
    "run_timestamp": "build",
    "MONEY_DIGITS": "cost",
    "UNKNOWN": "cost",
    "RunCost": "cost",
    "money_text": "cost",
    "cell_from_weval": "read",
    "read_comparison": "read",
    "IDEAL_MODEL_ID": "weval",
    "Comparison": "weval",
    "config_content_hash": "weval",
    "prompt_weights_of": "weval",
    "safe_timestamp": "weval",
}

__all__ = [
    "IDEAL_MODEL_ID",
    "MONEY_DIGITS",
    "UNKNOWN",
    "Comparison",
    "RunCost",
    "build_comparison",
    "cell_from_weval",
    "comparison_from_rows",
    "config_content_hash",
    "money_text",
    "prompt_weights_of",
    "read_comparison",
    "run_cost",
    "run_timestamp",
    "safe_timestamp",
]

__getattr__ = lazy_names(__name__, _HOMES)
