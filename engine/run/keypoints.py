"""Key-point extraction in a run: the calls (through `Caller`), and the outcome read back from a run's log.

Each prompt that needs it (see `engine.judge.keypoints`) gets one `extract` call per model
tried, in Weval's order, until an answer holds `<key_point>` items. The calls are logged,
cached and counted like any other. A call already in the run's log is never made again: a
logged answer is reused and a logged failure counts as that model's failure, so a resumed run
reaches the same outcome without re-extracting, and the outcome can be rebuilt from the log
alone (`logged_key_points`) for a stored run's results.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator, Mapping, Sequence

from engine.blueprint.models import Blueprint, Prompt
from engine.errors import EngineError, StoreError
from engine.judge.keypoints import (
    EXTRACTION_MAX_TOKENS,
    EXTRACTION_SYSTEM,
    EXTRACTION_TEMPERATURE,
    KeyPoints,
    extraction_models,
    extraction_user_text,
    key_point_prompts,
    parse_key_points,
)
from engine.providers import ChatRequest
from engine.run.calls import CallResult, RunStopped, call_key
from engine.run.plan import EXTRACTED_POINTS_GUESS, CellPlan
from engine.store import CallRow, Store

__all__ = [
    "EXTRACT_KIND",
    "extract_all",
    "extract_prompt",
    "extraction_request",
    "known_calls_delta",
    "logged_key_points",
    "reused_log",
    "run_key_points",
]

EXTRACT_KIND = "extract"
"""The `kind` of extraction calls in the run's log and the cache."""

Chat = Callable[[ChatRequest, str], Awaitable[CallResult]]
"""Makes one extraction call: (request, its cache key) -> the answer; raises EngineError."""


def extraction_request(prompt: Prompt, model: str) -> ChatRequest:
    """The request that asks `model` for the key points of `prompt`'s ideal answer."""
    return ChatRequest(
        model_id=model,
        messages=[
            {"role": "system", "content": EXTRACTION_SYSTEM},
            {"role": "user", "content": extraction_user_text(prompt)},
        ],
        temperature=EXTRACTION_TEMPERATURE,
        max_tokens=EXTRACTION_MAX_TOKENS,
        prompt_id=prompt.id,
    )


def _no_items(model: str) -> str:
    return f"{model}: the answer held no <key_point> items"


def _failed(prompt: Prompt, attempts: list[str]) -> KeyPoints:
    tried = "; ".join(attempts)
    return KeyPoints(
        prompt_id=prompt.id,
        points=None,
        error=f"Key points could not be extracted from the ideal answer ({tried}). "
        "The prompt is not scored; add `should:` points to it, or run it again later.",
        attempts=attempts,
    )


Needed = tuple[ChatRequest, str]
"""A call the extraction needs: the request and its cache key."""


def _steps(
    prompt: Prompt, models: Sequence[str], log: Mapping[str, CallRow]
) -> Generator[Needed, str | EngineError, KeyPoints]:
    """The extraction of one prompt: yields each call it needs, is sent its answer or error.

    A call in `log` is never yielded: its answer (or failure) is used as it is.
    """
    attempts: list[str] = []
    for model in models:
        request = extraction_request(prompt, model)
        key = call_key(EXTRACT_KIND, request)
        logged = log.get(key)
        answer: str | EngineError
        if logged is None:
            answer = yield request, key
        elif logged.error is not None:
            answer = EngineError(logged.error)
        else:
            answer = str((logged.answer or {}).get("text") or "")
        if isinstance(answer, EngineError):
            attempts.append(f"{model}: {answer}")
            continue
        points = parse_key_points(answer)
        if points:
            return KeyPoints(prompt.id, points, model=model, attempts=attempts)
        attempts.append(_no_items(model))
    return _failed(prompt, attempts)


async def extract_prompt(
    prompt: Prompt, models: Sequence[str], chat: Chat, log: Mapping[str, CallRow]
) -> KeyPoints:
    """Try each model in order until one answers with key points (logged calls reused).

    Raises:
        RunStopped: The run is stopping (nothing is decided for this prompt).
        StoreError: An answer could not be written.
    """
    steps = _steps(prompt, models, log)
    answer: str | EngineError | None = None
    try:
        while True:
            request, key = steps.send(answer) if answer is not None else next(steps)
            try:
                answer = (await chat(request, key)).text
            except (RunStopped, StoreError):
                raise
            except EngineError as exc:
                answer = exc
    except StopIteration as done:
        result: KeyPoints = done.value
        return result


async def extract_all(
    blueprint: Blueprint, chat: Chat, log: Mapping[str, CallRow]
) -> dict[str, KeyPoints]:
    """Extract the key points of every prompt that needs it, prompts concurrently.

    `log` holds the calls already made (the run's own, and those of a run whose extraction
    is reused): they are not made again.
    """
    prompts = key_point_prompts(blueprint)
    models = extraction_models(blueprint)
    found = await asyncio.gather(*(extract_prompt(p, models, chat, log) for p in prompts))
    return {k.prompt_id: k for k in found}


def logged_key_points(blueprint: Blueprint, log: Mapping[str, CallRow]) -> dict[str, KeyPoints]:
    """The extraction outcome of a stored run, read from its call log (no call is made).

    A prompt whose extraction had not finished when the run stopped is left out.
    """
    models = extraction_models(blueprint)
    out: dict[str, KeyPoints] = {}
    for prompt in key_point_prompts(blueprint):
        try:
            next(_steps(prompt, models, log))  # a call still needed: not finished
        except StopIteration as done:
            out[prompt.id] = done.value
    return out


def reused_log(store: Store, options: Mapping[str, object]) -> dict[str, CallRow]:
    """The extraction calls of the run a run reuses them from (`key_points_from`), if any."""
    source = options.get("key_points_from")
    return store.run_calls(source, EXTRACT_KIND) if isinstance(source, str) else {}


def run_key_points(store: Store, run_id: str, blueprint: Blueprint) -> dict[str, KeyPoints]:
    """The key points a stored run extracted or reused (read from the logs; no call is made)."""
    if not key_point_prompts(blueprint):
        return {}
    run = store.get_run(run_id)
    prior = reused_log(store, run.options) if run is not None else {}
    return logged_key_points(blueprint, {**prior, **store.run_calls(run_id, EXTRACT_KIND)})


def known_calls_delta(
    key_points: Mapping[str, KeyPoints], cells: Sequence[CellPlan], judges: int
) -> int:
    """Calls to add to the plan's count once the points are known (negative: fewer).

    The plan counts one extraction call and `EXTRACTED_POINTS_GUESS` points per such prompt.
    """
    delta = sum(len(k.attempts) + (1 if k.ok else 0) - 1 for k in key_points.values())
    for cell in cells:
        found = key_points.get(cell.prompt.id)
        if found is not None:
            delta += judges * (len(found.points or []) - EXTRACTED_POINTS_GUESS)
    return delta
