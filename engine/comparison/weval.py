"""The `Comparison` record and its JSON as written (Weval's `*_comparison.json`, spec §6)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.blueprint.models import Blueprint
from engine.comparison.cost import RunCost
from engine.js.values import js_clean
from engine.net.urls import mask_credentials
from engine.output import json_text, well_formed, write_json_atomic
from engine.records import Record
from engine.scoring.cells import CellScore
from engine.scoring.summary import ModelSummary, summarize_models
from engine.similarity.tables import SimilarityTables
from engine.version import __version__  # not importlib.metadata: ~10 ms per run

if TYPE_CHECKING:
    from engine.stats import Uncertainty

__all__ = [
    "IDEAL_MODEL_ID",
    "Comparison",
    "config_content_hash",
    "prompt_weights_of",
    "safe_timestamp",
]

IDEAL_MODEL_ID = "IDEAL_BENCHMARK"


def safe_timestamp(moment: datetime | None = None) -> str:
    """Return Weval's file-safe timestamp, `YYYY-MM-DDTHH-mm-ss-SSSZ` (UTC)."""
    moment = (moment or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H-%M-%S-") + f"{moment.microsecond // 1000:03d}Z"


def config_content_hash(blueprint: Blueprint, models: list[str]) -> str:
    """Return the 16-hex content hash Weval uses as the run label (spec §6.1)."""
    prompts = sorted(blueprint.weval.get("prompts", []), key=lambda p: str(p.get("id")))
    payload = {
        "models": sorted(models),
        "system": blueprint.weval.get("system"),
        "systems": sorted(str(s) for s in blueprint.systems or []),
        "prompts": [
            {
                "id": p.get("id"),
                "promptText": p.get("promptText"),
                "idealResponse": p.get("idealResponse"),
                "system": p.get("system"),
                "points": p.get("points"),
                "weight": p.get("weight"),
            }
            for p in prompts
        ],
        "temperatureSettings": {
            "temperature": blueprint.temperature,
            "temperatures": blueprint.temperatures,
        },
    }
    text = json.dumps(js_clean(payload), separators=(",", ":"), ensure_ascii=False)
    # JSON.stringify escapes lone surrogates, so the hashed text is always UTF-8.
    return hashlib.sha256(well_formed(text).encode("utf-8")).hexdigest()[:16]


def _without_credentials(config: Any) -> Any:
    """The config with no user name or password in a custom model's `url` (`***@` instead)."""
    models = config.get("models") if isinstance(config, dict) else None
    if not isinstance(models, list):
        return config
    masked = [
        {**m, "url": mask_credentials(m["url"])}
        if isinstance(m, dict) and isinstance(m.get("url"), str)
        else m
        for m in models
    ]
    return {**config, "models": masked}


@dataclass(kw_only=True, slots=True)
class Comparison(Record):
    """A scored run in memory: what the comparison JSON holds, typed."""

    config_id: str
    config_title: str
    run_label: str
    timestamp: str
    description: str | None = None
    config: dict[str, Any] = field(default_factory=dict)
    models: list[str]
    """Effective model ids, sorted."""
    prompt_ids: list[str]
    prompt_contexts: dict[str, Any] = field(default_factory=dict)
    system_prompts: dict[str, str | None] = field(default_factory=dict)
    responses: dict[str, dict[str, str]] = field(default_factory=dict)
    histories: dict[str, dict[str, list[dict[str, Any]]]] = field(default_factory=dict)
    errors: dict[str, dict[str, str]] = field(default_factory=dict)
    cells: dict[str, dict[str, CellScore]] = field(default_factory=dict)
    extracted_key_points: dict[str, list[str]] = field(default_factory=dict)
    """Weval's `extractedKeyPoints`: points an LLM found in a prompt's ideal."""
    key_point_extraction: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Ours: per prompt, the model that extracted its points, or why it failed."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Top-level keys we do not model."""
    rescored_from: str | None = None
    """The run whose stored answers this one scored again."""
    eval_methods: list[str] = field(default_factory=lambda: ["llm-coverage"])
    """`evalMethodsUsed`."""
    similarity: SimilarityTables | None = None
    """`similarityMatrix` and `perPromptSimilarities`, if computed."""
    cost: RunCost | None = None
    """Ours (`blueprintStudio.cost`): what the run cost, when it was a run of ours."""

    def cell(self, prompt_id: str, model_id: str) -> CellScore | None:
        """Return the cell of a prompt and model, if present."""
        return self.cells.get(prompt_id, {}).get(model_id)

    def prompt_weights(self) -> dict[str, float | None]:
        """Return each prompt's weight from the config (None when unset)."""
        return prompt_weights_of(self.config)

    def summaries(self) -> dict[str, ModelSummary]:
        """Return per-model statistics over the prompts (prompt-weighted averages)."""
        cells = [c for row in self.cells.values() for m, c in row.items() if m != IDEAL_MODEL_ID]
        return summarize_models(cells, self.prompt_weights())

    def uncertainty(self) -> Uncertainty:
        """Each model's 95% interval and each pair's paired difference (`engine.stats`)."""
        from engine.stats import uncertainty_of

        cells = (c for row in self.cells.values() for c in row.values())
        return uncertainty_of(cells, self.prompt_weights(), exclude=(IDEAL_MODEL_ID,))

    def variants(self) -> dict[str, dict[str, Any]] | None:
        """Scores merged per base model over temperatures (Weval's UI aggregation, spec §6.3).

        None when no two effective models share a base model and system prompt.
        """
        from engine.scoring.variants import aggregate_variants, has_variants

        if not has_variants([m for m in self.models if m != IDEAL_MODEL_ID]):
            return None
        return aggregate_variants(
            {pid: {m: c.to_weval() for m, c in row.items()} for pid, row in self.cells.items()}
        )

    def hybrid_scores(self) -> dict[str, dict[str, float | None]] | None:
        """Weval's `perModelHybridScores` when similarity was computed, else None.

        Each model's hybrid average is the figure Weval's leaderboard shows for the run.
        """
        if self.similarity is None:
            return None
        from engine.similarity.hybrid import per_model_hybrid

        return per_model_hybrid(
            self.models,
            self.prompt_ids,
            self.cells,
            self.similarity,
            self.prompt_weights(),
            IDEAL_MODEL_ID,
        )

    def weval_scores(self) -> dict[str, float | None]:
        """Each model whose Weval score differs from its average here, with Weval's score.

        Empty unless similarity ran and some prompt has no coverage score (see
        `engine.similarity.hybrid.WEVAL_SCORE_NOTE`).
        """
        from engine.similarity.hybrid import weval_scores_that_differ

        averages = {m: s.average for m, s in self.summaries().items()}
        return weval_scores_that_differ(self.hybrid_scores(), averages)

    def to_weval(self, uncertainty: Uncertainty | None = None) -> dict[str, Any]:
        """Return the comparison JSON: Weval's fields plus our `status` and a summary block.

        `uncertainty` is `self.uncertainty()` when the caller has it already (a run's end).
        """
        summaries = self.summaries()
        out: dict[str, Any] = {
            "configId": self.config_id,
            "configTitle": self.config_title,
            "runLabel": self.run_label,
            "timestamp": self.timestamp,
        }
        if self.description is not None:
            out["description"] = self.description
        out.update(
            {
                "config": _without_credentials(js_clean(self.config)),
                "evalMethodsUsed": list(self.eval_methods),
                "effectiveModels": self.models,
                "modelSystemPrompts": self.system_prompts,
                "promptIds": self.prompt_ids,
                "promptContexts": self.prompt_contexts,
                "allFinalAssistantResponses": self.responses,
            }
        )
        if self.histories:
            out["fullConversationHistories"] = self.histories
        if self.errors:
            out["errors"] = self.errors
        hybrid: dict[str, Any] = {
            m: {"average": s.average, "stddev": s.stddev} for m, s in summaries.items()
        }
        results: dict[str, Any] = {"similarityMatrix": {}, "perPromptSimilarities": {}}
        if self.similarity is not None:
            results.update(self.similarity.to_weval())
        hybrid = self.hybrid_scores() or hybrid
        results["llmCoverageScores"] = {
            pid: {model: cell.to_weval() for model, cell in row.items()}
            for pid, row in self.cells.items()
        }
        results["perModelHybridScores"] = js_clean(hybrid)
        out["evaluationResults"] = results
        out["extractedKeyPoints"] = self.extracted_key_points  # `{}` when none, as Weval
        studio: dict[str, Any] = {
            "engineVersion": __version__,
            "perModelSummary": {
                m: s.model_dump(exclude={"model_id"}) for m, s in summaries.items()
            },
        }
        studio["uncertainty"] = (uncertainty or self.uncertainty()).to_json()
        if self.key_point_extraction:
            studio["keyPointExtraction"] = self.key_point_extraction
        variants = self.variants()
        if variants is not None:
            studio["variants"] = js_clean(variants)
        if self.rescored_from is not None:
            studio["rescoredFrom"] = self.rescored_from
        if self.cost is not None:
            studio["cost"] = self.cost.to_json()
        out["blueprintStudio"] = studio
        out.update(js_clean(self.extra))
        # Cells are already JSON-clean (PointAssessment.to_weval prints integral scores as ints).
        return out

    def to_json(self) -> str:
        """The comparison JSON as compact text (large runs: the C encoder, no indentation).

        Lone surrogates are escaped as `JSON.stringify` does, so the text is always UTF-8.
        """
        return json_text(self.to_weval())

    def write(self, directory: Path, uncertainty: Uncertainty | None = None) -> Path:
        """Write `<runLabel>_<timestamp>_comparison.json` into `directory`; return its path.

        The file is written whole or not at all (see `write_atomic`). `uncertainty` is
        `self.uncertainty()` when the caller has it already.

        Raises:
            OutputError: The folder cannot be written or the disk is full.
        """
        path = directory / f"{self.run_label}_{self.timestamp}_comparison.json"
        write_json_atomic(path, self.to_weval(uncertainty))
        return path


def prompt_weights_of(config: Any) -> dict[str, float | None]:
    """Each prompt's weight in a blueprint's Weval config (None when unset)."""
    out: dict[str, float | None] = {}
    for p in config.get("prompts", []) if isinstance(config, dict) else []:
        if isinstance(p, dict):
            w = p.get("weight")
            out[str(p.get("id"))] = float(w) if isinstance(w, int | float) else None
    return out
