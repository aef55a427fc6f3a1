"""Writing an executive summary: one cached call through the run's call layer, then stored."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import ConfigError, EngineError
from engine.providers import ChatRequest, PriceTable, ProviderPool
from engine.report.comparison import IDEAL_MODEL_ID, Comparison
from engine.settings import load_settings
from engine.store import Store
from engine.summary.anonymize import Anonymizer
from engine.summary.parse import parse_summary
from engine.summary.prompts import SUMMARY_MAX_TOKENS, SUMMARY_TEMPERATURE, summary_messages

__all__ = [
    "SUMMARY_KIND",
    "SummaryError",
    "SummaryResult",
    "load_run_comparison",
    "summarize_comparison",
    "summarize_run",
    "summary_request",
]

SUMMARY_KIND = "summary"
"""The call kind of summary calls (in the run's log and the cache key)."""
SUMMARY_TIMEOUT_S = 180.0


class SummaryError(EngineError):
    """The summary could not be written (the run and its scores are unaffected)."""


@dataclass(frozen=True)
class SummaryResult:
    """A written summary and what its call cost."""

    summary: dict[str, Any]
    cached: bool
    cost_usd: float | None


def summary_request(comparison: Comparison, model_id: str) -> tuple[ChatRequest, Anonymizer]:
    """The summary call for a comparison, and the labels that hide its models.

    Raises:
        SummaryError: The run has no model answers to summarize.
    """
    models = [m for m in comparison.models if m != IDEAL_MODEL_ID]
    if not models or not comparison.cells:
        raise SummaryError("There is nothing to summarize: the run has no scored answers.")
    names = Anonymizer(models)
    request = ChatRequest(
        model_id=model_id,
        messages=summary_messages(comparison, names),
        temperature=SUMMARY_TEMPERATURE,
        max_tokens=SUMMARY_MAX_TOKENS,
        timeout_s=SUMMARY_TIMEOUT_S,
    )
    return request, names


Chat = Callable[[ChatRequest], Awaitable[tuple[str, bool, float | None]]]
"""Sends a request; returns (text, came from the cache, cost in USD)."""


async def summarize_comparison(comparison: Comparison, model_id: str, chat: Chat) -> SummaryResult:
    """Ask `model_id` for the executive summary of `comparison` and parse its answer.

    Raises:
        SummaryError: Nothing to summarize, the call failed, or the answer was empty.
    """
    request, names = summary_request(comparison, model_id)
    try:
        text, cached, cost = await chat(request)
    except EngineError as exc:
        raise SummaryError(f"The summary model {model_id} failed: {exc}") from None
    if not text.strip():
        raise SummaryError(f"The summary model {model_id} returned an empty answer.")
    return SummaryResult(parse_summary(text, names, model_id), cached, cost)


def load_run_comparison(store: Store, run_id: str) -> Comparison:
    """The comparison of a finished run, assembled from its stored cells.

    Raises:
        ConfigError: No such run, it is not finished, or its blueprint is missing.
    """
    from engine.blueprint import parse_blueprint
    from engine.run.assemble import comparison_from_rows

    run = store.get_run(run_id)
    if run is None:
        raise ConfigError(
            f"There is no run '{run_id}' in {store.location}. Copy the id from the first line "
            "`blueprint run` printed, or from the studio's History page."
        )
    if run.status != "completed":
        raise ConfigError(
            f"Run '{run_id}' is {run.live_status}; only a completed run can be summarized. "
            f"Finish it first: blueprint run --resume {run_id}"
        )
    text = store.blueprint_text(run.blueprint_hash)
    if text is None:
        raise ConfigError(f"The blueprint of run '{run_id}' is missing from the store.")
    blueprint = parse_blueprint(text, source=run.options.get("source"))
    return comparison_from_rows(blueprint, store.cells(run_id))


def summarize_run(
    store: Store,
    run_id: str,
    model_id: str,
    *,
    environ: Mapping[str, str] | None = None,
    use_cache: bool = True,
) -> SummaryResult:
    """Write, store and return the executive summary of a finished run (`blueprint summarize`).

    Raises:
        ConfigError: The run cannot be summarized (see `load_run_comparison`).
        SummaryError: The summary call failed.
    """
    from engine.run.calls import Caller

    comparison = load_run_comparison(store, run_id)

    async def go() -> SummaryResult:
        prices = PriceTable(load_settings().prices)
        async with ProviderPool(environ=environ, prices=prices) as pool:
            problem = pool.check(model_id)
            if problem:
                raise SummaryError(problem)
            writer = store.writer()
            try:
                caller = Caller(
                    pool=pool, store=store, writer=writer, run_id=None, use_cache=use_cache
                )

                async def chat(request: ChatRequest) -> tuple[str, bool, float | None]:
                    result = await caller.chat(SUMMARY_KIND, request)
                    return result.text, result.source != "provider", result.cost_usd

                return await summarize_comparison(comparison, model_id, chat)
            finally:
                writer.close()

    result = asyncio.run(go())
    store.save_executive_summary(run_id, result.summary)
    return result
