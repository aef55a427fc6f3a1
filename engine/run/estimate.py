"""What a run will cost before it starts: calls, cached calls, tokens and a dollar range.

Cached calls are found exactly by replaying the run against the cache: a cell whose every
turn is cached (or a re-scored stored answer) has known answers, so its judge prompts (and
their cache keys) are known too; those keys are looked up at once, and kept on the plan
(`RunPlan.judge_keys`) for the run to read the same answers in bulk.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.blueprint.models import Point, Prompt
from engine.errors import EngineError
from engine.evidence import Evidence
from engine.judge.keypoints import parse_key_points, with_key_points
from engine.providers import PriceTable, estimate_tokens
from engine.run.calls import call_key, judge_request
from engine.run.keypoints import EXTRACT_KIND, extraction_request
from engine.run.plan import EXTRACTED_POINTS_GUESS, CellPlan, RunPlan
from engine.store import Store

__all__ = ["Estimate", "estimate_run"]

OUTPUT_TOKENS_LOW = 50
OUTPUT_TOKENS_HIGH = 800
JUDGE_OUTPUT_LOW = 40
JUDGE_OUTPUT_HIGH = 150
JUDGE_PROMPT_TOKENS = 700  # instructions, scale and examples, before the transcript
EXTRACTION_OUTPUT_LOW = 50
EXTRACTION_OUTPUT_HIGH = 400


@dataclass
class Estimate:
    """The plan's calls and cost, with cache hits counted exactly."""

    generation_calls: int = 0
    generation_cached: int = 0
    judge_calls: int = 0
    judge_cached: int = 0
    extraction_calls: int = 0
    extraction_cached: int = 0
    guessed_prompts: int = 0
    """Prompts whose extracted points are not known yet: their judge calls are a guess."""
    embedding_calls: int = 0
    input_tokens: int = 0
    output_tokens_low: int = 0
    output_tokens_high: int = 0
    cost_low: float = 0.0
    cost_high: float = 0.0
    unknown_prices: set[str] = field(default_factory=set)

    @property
    def calls_to_make(self) -> int:
        """Calls that will reach a provider (everything not cached)."""
        return (
            self.generation_calls
            - self.generation_cached
            + self.judge_calls
            - self.judge_cached
            + self.extraction_calls
            - self.extraction_cached
            + self.embedding_calls
        )

    def as_dict(self) -> dict[str, Any]:
        """The estimate as plain data (for JSON and the studio)."""
        return {
            "generation_calls": self.generation_calls,
            "generation_cached": self.generation_cached,
            "judge_calls": self.judge_calls,
            "judge_cached": self.judge_cached,
            "extraction_calls": self.extraction_calls,
            "extraction_cached": self.extraction_cached,
            "judge_calls_estimated": self.guessed_prompts > 0,
            "embedding_calls": self.embedding_calls,
            "calls_to_make": self.calls_to_make,
            "input_tokens": self.input_tokens,
            "output_tokens_low": self.output_tokens_low,
            "output_tokens_high": self.output_tokens_high,
            "cost_low": round(self.cost_low, 6),
            "cost_high": round(self.cost_high, 6),
            "unknown_prices": sorted(self.unknown_prices),
        }


class _Cost:
    def __init__(self, prices: PriceTable, out: Estimate) -> None:
        self.prices = prices
        self.out = out

    def add(self, model: str, tokens_in: int, low: int, high: int) -> None:
        self.out.input_tokens += tokens_in
        self.out.output_tokens_low += low
        self.out.output_tokens_high += high
        lo = self.prices.estimate(model, tokens_in, low)
        hi = self.prices.estimate(model, tokens_in, high)
        if lo is None or hi is None:
            self.out.unknown_prices.add(model)
            return
        self.out.cost_low += lo
        self.out.cost_high += hi


class _Cache:
    """Cache lookups for the estimate: keys known in advance are read in bulk."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.found: dict[str, dict[str, Any]] = {}
        self.looked_up: set[str] = set()

    def prime(self, keys: list[str]) -> None:
        todo = [k for k in keys if k not in self.looked_up]
        self.looked_up.update(todo)
        if todo:
            self.found.update(self.store.cache_lookup(todo))

    def get(self, key: str) -> dict[str, Any] | None:
        if key not in self.looked_up:
            self.prime([key])
        return self.found.get(key)


def _transcript(
    plan: RunPlan, cell: CellPlan, store: _Cache | None, cost: _Cost
) -> tuple[list[dict[str, Any]], list[int], bool] | None:
    """A cell's conversation, its generated turns and whether they are known (None: no answer)."""
    if cell.recorded is None:
        return _generate(plan, cell, store, cost)
    if not cell.recorded.answered:
        return None  # a re-score of a cell its run could not answer: nothing to judge
    try:
        history, generated = cell.recorded.transcript()
    except EngineError:
        return None
    return history, generated, True


def _generate(
    plan: RunPlan, cell: CellPlan, store: _Cache | None, cost: _Cost
) -> tuple[list[dict[str, Any]], list[int], bool]:
    """Count a cell's generated turns and their cost.

    Returns:
        The conversation (cached answers filled in), the indices of its generated turns, and
        whether every answer is known from the cache.
    """
    out = cost.out
    history = [{"role": "system", "content": cell.system}] if cell.system is not None else []
    generated: list[int] = []
    known = True
    turns: list[Any] = list(cell.prompt.messages)
    if turns and turns[-1].role == "user":
        turns.append(None)
    for msg in turns:
        if msg is not None and not msg.is_placeholder:
            history.append({"role": msg.role, "content": msg.content})
            continue
        if cell.offline:
            answer = cell.prompt.ideal or ""
        else:
            out.generation_calls += 1
            use = known and store is not None and not cell.prompt.no_cache
            if generated:
                request = cell.request(list(history), plan.blueprint.tools)
                key = call_key("generate", request, cell.repeat)
            else:
                key = plan.opening_key(cell)
            cached = store.get(key) if use and store is not None else None
            tokens_in = sum(estimate_tokens(str(m.get("content") or "")) for m in history)
            if cached is not None:
                out.generation_cached += 1
                answer = str(cached.get("text") or "")
            else:
                known = False
                cost.add(cell.base_model, tokens_in, OUTPUT_TOKENS_LOW, OUTPUT_TOKENS_HIGH)
                answer = ""
        history.append({"role": "assistant", "content": answer})
        generated.append(len(history) - 1)
    return history, generated, known


@dataclass
class _Judged:
    """One cell's judge calls: its text points, transcript size, and call keys when known."""

    texts: list[Point]
    transcript_tokens: int
    known: bool
    keys: dict[tuple[int, int], str]


def _judge_work(
    plan: RunPlan,
    cell: CellPlan,
    history: list[dict[str, Any]],
    generated: list[int],
    known: bool,
    with_keys: bool,
) -> _Judged | None:
    """A cell's judge calls to count (None when it has none); their keys when its answers are known."""
    texts = [p for p in cell.prompt.points if p.fn is None]
    if not plan.judges or not texts:
        return None
    transcript_tokens = sum(estimate_tokens(str(m.get("content") or "")) for m in history)
    keys: dict[tuple[int, int], str] = {}
    if known and with_keys:
        from engine.judge.consensus import judge_messages

        evidence = Evidence(
            prompt_id=cell.prompt.id,
            model_id=cell.model_id,
            text="\n\n".join(str(history[i]["content"]) for i in generated),
            messages=history,
            generated_indices=generated,
        )
        for i, point in enumerate(texts):
            for j, judge in enumerate(plan.judges):
                system, user = judge_messages(plan.blueprint, evidence, point, judge)
                keys[i, j] = call_key("judge", judge_request(judge, system, user))
    return _Judged(texts, transcript_tokens, known, keys)


def _count_judges(plan: RunPlan, work: _Judged, store: _Cache | None, cost: _Cost) -> None:
    """Count a cell's judge calls, cached ones found exactly when its answers are known."""
    out = cost.out
    for i, point in enumerate(work.texts):
        for j, judge in enumerate(plan.judges or []):
            out.judge_calls += 1
            key = work.keys.get((i, j))
            if store is not None and key is not None and store.get(key) is not None:
                out.judge_cached += 1
                continue
            tokens_in = (
                JUDGE_PROMPT_TOKENS + 2 * work.transcript_tokens + estimate_tokens(point.text or "")
            )
            if not work.known:
                tokens_in += OUTPUT_TOKENS_HIGH // 2
            cost.add(judge.model, tokens_in, JUDGE_OUTPUT_LOW, JUDGE_OUTPUT_HIGH)


def estimate_run(
    plan: RunPlan, store: Store | None, prices: PriceTable, *, use_cache: bool = True
) -> Estimate:
    """Count the plan's calls and cached calls, and estimate its tokens and cost."""
    out = Estimate()
    cost = _Cost(prices, out)
    cache = _Cache(store) if store is not None and use_cache else None
    if cache is not None:
        cache.prime(
            [
                plan.opening_key(c)
                for c in plan.cells
                if not c.offline and not c.prompt.no_cache and c.recorded is None
            ]
        )
    work: list[_Judged] = []
    prompts = _extracted_prompts(plan, cache, cost)
    for planned in plan.cells:
        prompt = prompts.get(planned.prompt.id)
        cell = planned if prompt is None else replace(planned, prompt=prompt)
        transcript = _transcript(plan, cell, cache, cost)
        if transcript is not None:
            judged = _judge_work(plan, cell, *transcript, with_keys=cache is not None)
            if judged is not None:
                work.append(judged)
    if cache is not None:  # every known judge call's key, looked up at once
        plan.judge_keys = [k for w in work for k in w.keys.values()]
        cache.prime(plan.judge_keys)
        plan.cached = cache.found
    for judged in work:
        _count_judges(plan, judged, cache, cost)
    _count_embeddings(plan, cost)
    return out


def _extracted_prompts(plan: RunPlan, cache: _Cache | None, cost: _Cost) -> dict[str, Prompt]:
    """The prompts whose points are extracted, with their points: cached ones, else guesses.

    Only the first model's answer is looked up: a fallback model is a failure case.
    """
    out: dict[str, Prompt] = {}
    models = plan.extraction_models
    for pid in plan.extractions:
        prompt = plan.blueprint.prompt(pid)
        if prompt is None:
            continue
        request = extraction_request(prompt, models[0])
        cost.out.extraction_calls += 1
        cached = cache.get(call_key(EXTRACT_KIND, request)) if cache is not None else None
        points = parse_key_points(str(cached.get("text") or "")) if cached else []
        if points:
            cost.out.extraction_cached += 1
            out[pid] = with_key_points(prompt, points)
            continue
        tokens_in = sum(estimate_tokens(str(m.get("content") or "")) for m in request.messages)
        cost.add(request.model_id, tokens_in, EXTRACTION_OUTPUT_LOW, EXTRACTION_OUTPUT_HIGH)
        cost.out.guessed_prompts += 1
        guess = [Point(text=(prompt.ideal or "")[:200])] * EXTRACTED_POINTS_GUESS
        out[pid] = prompt.model_copy(update={"points": guess})
    return out


def _count_embeddings(plan: RunPlan, cost: _Cost) -> None:
    """Count the embedding calls at most, and their cost.

    Answers are embedded once they exist, so none is known to be cached in advance; an
    answer is `OUTPUT_TOKENS_LOW` to `OUTPUT_TOKENS_HIGH` tokens in.
    """
    model = plan.embedding_model
    out = cost.out
    out.embedding_calls = plan.embedding_calls
    if model is None or not out.embedding_calls:
        return
    ideals = sum(estimate_tokens(p.ideal) for p in plan.blueprint.prompts if p.ideal)
    answers = out.embedding_calls - sum(1 for p in plan.blueprint.prompts if p.ideal)
    low = cost.prices.estimate(model, ideals + answers * OUTPUT_TOKENS_LOW, 0)
    high = cost.prices.estimate(model, ideals + answers * OUTPUT_TOKENS_HIGH, 0)
    if low is None or high is None:
        out.unknown_prices.add(model)
        return
    out.cost_low += low
    out.cost_high += high
