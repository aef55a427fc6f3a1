"""Writing an executive summary of a comparison: the request, the call (given), the parsed answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from engine.comparison.weval import IDEAL_MODEL_ID, Comparison
from engine.errors import EngineError
from engine.providers import ChatRequest
from engine.summary.anonymize import Anonymizer
from engine.summary.parse import parse_summary
from engine.summary.prompts import SUMMARY_MAX_TOKENS, SUMMARY_TEMPERATURE, summary_messages

if TYPE_CHECKING:
    from engine.providers.types import ChatMessage

__all__ = [
    "SUMMARY_KIND",
    "SummaryError",
    "SummaryResult",
    "summarize_comparison",
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
        messages=cast("list[ChatMessage]", summary_messages(comparison, names)),
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
