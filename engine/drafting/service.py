"""Asking a configured model for a draft: one call through the providers and the cache."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from engine.drafting.check import Draft, DraftRefused, read_draft, read_points
from engine.drafting.prompts import (
    DRAFT_MAX_TOKENS,
    DRAFT_TEMPERATURE,
    goal_messages,
    points_messages,
)
from engine.errors import EngineError
from engine.loop import run_to_end
from engine.providers import ChatRequest, PriceTable, ProviderPool
from engine.settings import load_settings
from engine.store import Store

if TYPE_CHECKING:
    from engine.providers.types import ChatMessage

__all__ = ["DRAFT_KIND", "draft_from_goal", "suggest_points"]

DRAFT_KIND = "draft"


def _ask(
    store: Store,
    model_id: str,
    messages: list[dict[str, str]],
    environ: Mapping[str, str] | None,
) -> str:
    from engine.run.calls import Caller

    async def go() -> str:
        async with ProviderPool(environ=environ, prices=PriceTable(load_settings().prices)) as pool:
            problem = pool.check(model_id)
            if problem:
                raise DraftRefused(problem)
            writer = store.writer()
            try:
                caller = Caller(pool=pool, store=store, writer=writer, run_id=None, use_cache=True)
                request = ChatRequest(
                    model_id=model_id,
                    messages=cast("list[ChatMessage]", messages),
                    temperature=DRAFT_TEMPERATURE,
                    max_tokens=DRAFT_MAX_TOKENS,
                    timeout_s=120,
                )
                return (await caller.chat(DRAFT_KIND, request)).text
            finally:
                writer.close()

    try:
        return run_to_end(go)
    except DraftRefused:
        raise
    except EngineError as exc:
        raise DraftRefused(f"The model {model_id} could not be asked: {exc}") from None


def draft_from_goal(
    store: Store, model_id: str, goal: str, *, environ: Mapping[str, str] | None = None
) -> Draft:
    """A checked blueprint draft for `goal` (never run, never saved).

    Raises:
        DraftRefused: The goal is empty, the call failed, or the answer was refused.
    """
    if not goal.strip():
        raise DraftRefused("Write the goal first: a few sentences on what the models should do.")
    return read_draft(_ask(store, model_id, goal_messages(goal), environ))


def suggest_points(
    store: Store,
    model_id: str,
    prompt_text: str,
    existing: list[str],
    *,
    environ: Mapping[str, str] | None = None,
) -> Draft:
    """Checked `should` / `should_not` points for one prompt (never run, never saved).

    Raises:
        DraftRefused: The prompt is empty, the call failed, or the answer was refused.
    """
    if not prompt_text.strip():
        raise DraftRefused("Put the cursor in a prompt that has text first.")
    answer = _ask(store, model_id, points_messages(prompt_text, existing), environ)
    return read_points(answer, prompt_text)
