"""The executive summary of a stored run (`blueprint summarize`): one cached call, then stored."""

from __future__ import annotations

from collections.abc import Mapping

from engine.blueprint import parse_blueprint
from engine.comparison.weval import Comparison
from engine.errors import ConfigError
from engine.loop import run_to_end
from engine.providers import ChatRequest, PriceTable, ProviderPool
from engine.run.assemble import stored_comparison
from engine.run.calls import Caller
from engine.settings import load_settings
from engine.store import Store
from engine.summary.service import (
    SUMMARY_KIND,
    SummaryError,
    SummaryResult,
    summarize_comparison,
)

__all__ = ["load_run_comparison", "summarize_run"]


def load_run_comparison(store: Store, run_id: str) -> Comparison:
    """The comparison of a finished run, assembled from its stored cells.

    Raises:
        ConfigError: No such run, it is not finished, or its blueprint is missing.
    """
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
    return stored_comparison(store, run_id, blueprint)


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

    result = run_to_end(go)
    store.save_executive_summary(run_id, result.summary)
    return result
