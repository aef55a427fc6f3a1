"""A prepared run (planned, checked, estimated) and how it is checked and recorded in the store."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.net.urls import mask_credentials
from engine.providers import PriceTable, ProviderPool, load_environ
from engine.providers.custom import custom_endpoints
from engine.run.estimate import Estimate
from engine.run.local_models import local_models
from engine.run.outcome import RunOptions
from engine.run.plan import RunPlan
from engine.settings import Settings, load_settings
from engine.store import Store

__all__ = ["PreparedRun", "provider_pool", "readiness_problems", "record_run"]


@dataclass
class PreparedRun:
    """A run recorded in the store and ready to execute."""

    run_id: str | None
    plan: RunPlan
    estimate: Estimate
    options: RunOptions
    problems: list[str]
    settings: Settings


def provider_pool(
    plan: RunPlan, environ: Mapping[str, str] | None, concurrency: int, settings: Settings
) -> ProviderPool:
    """The provider pool a run's calls go through (with its in-process and custom models)."""
    variables = environ if environ is not None else load_environ()
    return ProviderPool(
        environ=environ,
        global_limit=max(1, concurrency),
        prices=PriceTable(settings.prices),
        local=local_models(plan.blueprint),
        custom=custom_endpoints(plan.custom, variables, settings),
    )


def readiness_problems(
    plan: RunPlan,
    environ: Mapping[str, str] | None = None,
    settings: Settings | None = None,
    *,
    generating: bool = True,
) -> list[str]:
    """Missing keys and unknown providers for the plan's models and judges (no network).

    With `generating` False (a re-score) only the judges are checked.
    """
    pool = provider_pool(plan, environ, 1, settings or load_settings())
    problems = []
    for model in plan.models if generating else []:
        message = pool.check(model)
        if message:
            problems.append(message)
    for judge in plan.judges or []:
        message = pool.check(judge.model)
        if message:
            problems.append(
                f"{message} (needed by the judge {judge.label}; or run without judging: --no-judge)"
            )
    if plan.embedding_model is not None:
        message = pool.check_embedding(plan.embedding_model)
        if message:
            problems.append(
                f"{message} (needed by the blueprint's embeddingModel for similarity scores; "
                "local:wordllama needs no key)"
            )
    return list(dict.fromkeys(problems))


def record_run(
    store: Store,
    text: str,
    source: str | None,
    plan: RunPlan,
    options: RunOptions,
    estimate: Estimate,
    extra: Mapping[str, Any] | None = None,
) -> str:
    """Store the blueprint text and record the run as `planned`; return its id.

    `extra` adds options of its own (a re-score's `rescored_from`).

    Raises:
        StoreError: The store cannot be written.
    """
    blueprint = plan.blueprint
    digest = store.save_blueprint(mask_credentials(text), blueprint.title, source)
    return store.create_run(
        blueprint_hash=digest,
        title=blueprint.title,
        config_id=blueprint.id,
        options={
            "source": source,
            "models": plan.models,
            "judges": [j.model for j in plan.judges]
            if plan.judges and plan.custom_judges
            else None,
            "judge": options.judge,
            "repeats": options.repeats,
            "concurrency": options.concurrency,
            "use_cache": options.use_cache,
            "max_cost_usd": options.max_cost_usd,
            "out_dir": str(options.out_dir) if options.out_dir else None,
            "estimate": estimate.as_dict(),
            "draft": list(options.draft) if options.draft else None,
            "key_points_from": options.key_points_from,
            "summary_model": options.summary_model,
            **(extra or {}),
        },
        total_calls=options.planned_calls(plan.total_calls),
        total_cells=len(plan.cells),
    )
