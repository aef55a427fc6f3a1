"""Judging recorded responses (`blueprint score --judges`): the same judges, cache and limits as runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.blueprint.models import Blueprint
from engine.checks import CheckEnv
from engine.judge.consensus import ConsensusJudge, JudgeSpec
from engine.providers import PriceTable, ProviderPool
from engine.responses import ResponseRow
from engine.run.calls import Caller, judge_request
from engine.run.plan import judges_for
from engine.scoring.cells import CellScore
from engine.scoring.offline import score_rows_async
from engine.settings import load_settings
from engine.store import Store

__all__ = ["offline_judges", "score_with_judges"]


def offline_judges(
    blueprint: Blueprint, option: Sequence[str] | None
) -> tuple[list[JudgeSpec], bool] | None:
    """The judges for offline scoring: `--judges`, else the blueprint's own; never the defaults.

    Offline scoring spends nothing unless judges were asked for explicitly.
    """
    if option:
        return judges_for(blueprint, option)
    coverage = blueprint.evaluation_config.get("llm-coverage")
    if (
        isinstance(coverage, dict)
        and isinstance(coverage.get("judges"), list)
        and coverage["judges"]
    ):
        return judges_for(blueprint, None)
    return None


def judge_problems(
    specs: Sequence[JudgeSpec], environ: Mapping[str, str] | None = None
) -> list[str]:
    """Missing keys or unknown providers among the judges (no network)."""
    pool = ProviderPool(environ=environ, prices=PriceTable(load_settings().prices))
    return [m for m in (pool.check(j.model) for j in specs) if m]


async def score_with_judges(
    blueprint: Blueprint,
    rows: Sequence[ResponseRow],
    env: CheckEnv,
    specs: Sequence[JudgeSpec],
    custom: bool,
    store: Store,
    *,
    environ: Mapping[str, str] | None = None,
    use_cache: bool = True,
    concurrency: int = 20,
) -> list[CellScore]:
    """Score rows, judging text points through the providers (with the judge cache)."""
    async with ProviderPool(environ=environ, prices=PriceTable(load_settings().prices)) as pool:
        writer = store.writer()
        try:
            caller = Caller(pool=pool, store=store, writer=writer, run_id=None, use_cache=use_cache)

            async def call(judge: JudgeSpec, system: str, user: str) -> str:
                return (await caller.chat("judge", judge_request(judge, system, user))).text

            judge = ConsensusJudge(list(specs), call, custom=custom)
            return await score_rows_async(blueprint, rows, env, judge, concurrency=concurrency)
        finally:
            writer.close()
