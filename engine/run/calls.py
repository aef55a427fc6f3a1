"""Every model call of a run goes through here: the run's log, then the cache, then the provider.

A call already finished by this run (before an interruption) is taken from the run's log and
never repeated; otherwise a cached answer is used when allowed; otherwise the provider is
called. Each finished call is committed to the store before it is counted. Errors are
recorded in the run's log but never cached.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from engine.errors import EngineError, StoreError
from engine.evidence import ToolCall
from engine.jsonfast import dumps_compact
from engine.providers import ChatRequest, ChatResponse, ProviderPool
from engine.providers.types import DEFAULT_CONCURRENCY
from engine.store import CacheEntry, CallRow, RunWriter, Store

if TYPE_CHECKING:
    from engine.judge.consensus import JudgeSpec
    from engine.providers.embeddings import EmbedRequest, EmbedResponse

__all__ = [
    "CallEvent",
    "CallResult",
    "CallSource",
    "Caller",
    "RunStopped",
    "call_key",
    "embed_key",
    "judge_request",
]

CallSource = Literal["provider", "cache", "log"]
"""Where an answer came from: the provider, the cache (or a shared identical call in flight),
or the run's own log (a call finished before an interruption)."""

JUDGE_MAX_TOKENS = 500
JUDGE_TIMEOUT_S = 45.0


class RunStopped(EngineError):
    """The run was asked to stop; calls not yet started are left for a resume."""


_key_text = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
"""The text a cache key hashes: `json.dumps(payload, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`, with one encoder for all keys instead of one per key (a run's start
makes one key per cell)."""


def call_key(kind: str, request: ChatRequest, repeat: int = 0) -> str:
    """Hash everything that changes an answer: provider/model, messages, settings, repeat index."""
    payload = {
        "kind": kind,
        "model": request.model_id,
        "messages": request.messages,
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
        "tools": request.tools,
        "repeat": repeat,
    }
    if request.variant is not None:  # custom models only: keeps the other keys as they were
        payload["variant"] = request.variant
    return hashlib.sha256(_key_text(payload).encode("utf-8")).hexdigest()


def embed_key(request: EmbedRequest) -> str:
    """Hash what changes an embedding: the model and the text (Weval's `{modelId, text}`)."""
    payload = {"kind": "embed", "model": request.model_id, "text": request.text}
    return hashlib.sha256(_key_text(payload).encode("utf-8")).hexdigest()


def judge_request(judge: JudgeSpec, system: str, user: str) -> ChatRequest:
    """The request for one judge call: temperature 0, at most 500 tokens, 45 s (spec §5.7)."""
    return ChatRequest(
        model_id=judge.model,
        messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        temperature=0.0,
        max_tokens=JUDGE_MAX_TOKENS,
        timeout_s=JUDGE_TIMEOUT_S,
        variant=judge.variant,
    )


@dataclass(frozen=True)
class CallResult:
    """The outcome of one call, wherever it came from."""

    text: str
    tool_calls: list[ToolCall] | None
    input_tokens: int
    output_tokens: int
    latency_ms: float
    cost_usd: float | None
    source: CallSource
    vector: list[float] | None = None

    def to_json(self) -> dict[str, Any]:
        """The form stored in the cache and the run's log."""
        if self.vector is not None:
            return {
                "vector": self.vector,
                "input_tokens": self.input_tokens,
                "latency_ms": self.latency_ms,
                "cost_usd": self.cost_usd,
            }
        return {
            "text": self.text,
            "tool_calls": [c.model_dump() for c in self.tool_calls]
            if self.tool_calls is not None
            else None,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "latency_ms": self.latency_ms,
            "cost_usd": self.cost_usd,
        }

    @staticmethod
    def from_json(data: dict[str, Any], source: CallSource) -> CallResult:
        """Rebuild a result from its stored form."""
        calls = data.get("tool_calls")
        vector = data.get("vector")
        return CallResult(
            text=str(data.get("text") or ""),
            tool_calls=[ToolCall.model_validate(c) for c in calls]
            if isinstance(calls, list)
            else None,
            input_tokens=int(data.get("input_tokens") or 0),
            output_tokens=int(data.get("output_tokens") or 0),
            latency_ms=float(data.get("latency_ms") or 0.0),
            cost_usd=data.get("cost_usd"),
            source=source,
            vector=[float(x) for x in vector] if isinstance(vector, list) else None,
        )


@dataclass(frozen=True)
class CallEvent:
    """Reported after each call: what kind, for which model, from where, and what it cost.

    `retried` is True when the run's log held a failure of this same call (made before an
    interruption), already counted as failed.
    """

    kind: str
    model_id: str
    cell_model: str | None
    source: CallSource
    ok: bool
    cost_usd: float | None
    input_tokens: int
    output_tokens: int
    retried: bool = False


class Caller:
    """Runs calls for one run (or for offline judging when `run_id` is None).

    Identical calls in flight at once (the same cache key) are sent once: the others wait for
    it and count as cached.
    """

    def __init__(
        self,
        *,
        pool: ProviderPool,
        store: Store,
        writer: RunWriter,
        run_id: str | None,
        use_cache: bool,
        stop: threading.Event | None = None,
        on_call: Callable[[CallEvent], None] | None = None,
        concurrency: int = DEFAULT_CONCURRENCY,
    ) -> None:
        self.pool = pool
        self.store = store
        self.writer = writer
        self.run_id = run_id
        self.use_cache = use_cache
        self.stop = stop or threading.Event()
        self.on_call = on_call
        self.log: dict[str, CallRow] = store.run_calls(run_id) if run_id else {}
        # Uses of each logged answer counted before an interruption; any further use of a
        # logged answer is a new (cached) call. Keys answered in this run, to count reuses.
        self._uses = {k: 1 + c.reuses for k, c in self.log.items() if c.error is None}
        self._logged = set(self._uses)
        # Calls past the stop check: a stop lets at most this many calls still go out.
        self._slots = asyncio.Semaphore(max(1, concurrency))
        self.prefetched: dict[str, dict[str, Any]] = {}
        self.looked_up: set[str] = set()
        self._in_flight: dict[str, asyncio.Future[CallResult]] = {}

    def prefetch(self, keys: list[str], known: dict[str, dict[str, Any]] | None = None) -> None:
        """Load cached answers for keys known in advance, in one query.

        `known` holds answers already read from the cache (by the run's estimate): those keys
        are not read again; the others are (an answer may have been cached since).
        """
        if not self.use_cache or not keys:
            return
        self.looked_up.update(keys)
        if known:
            found = {k: known[k] for k in keys if k in known}
            self.prefetched.update(found)
            keys = [k for k in keys if k not in found]
        if keys:
            self.prefetched.update(self.store.cache_lookup(keys))

    def _event(
        self,
        kind: str,
        request: ChatRequest | EmbedRequest,
        cell_model: str | None,
        result: CallResult | None,
        retried: bool = False,
    ) -> None:
        if self.on_call is None:
            return
        self.on_call(
            CallEvent(
                kind=kind,
                model_id=request.model_id,
                cell_model=cell_model,
                source=result.source if result else "provider",
                ok=result is not None,
                cost_usd=result.cost_usd if result else None,
                input_tokens=result.input_tokens if result else 0,
                output_tokens=result.output_tokens if result else 0,
                retried=retried,
            )
        )

    async def embed(
        self, request: EmbedRequest, *, prompt_id: str | None, cell_model: str | None
    ) -> CallResult:
        """Return the embedding of `request.text` (in `vector`): log, cache, or provider.

        Raises:
            RunStopped: The run is stopping and this call was not started.
            StoreError: The answer could not be written to the store.
            EngineError: The provider failed after its retries (the failure is logged).
        """
        return await self.chat(
            "embed", request, key=embed_key(request), prompt_id=prompt_id, cell_model=cell_model
        )

    async def chat(
        self,
        kind: str,
        request: ChatRequest | EmbedRequest,
        *,
        key: str | None = None,
        repeat: int = 0,
        cache_ok: bool = True,
        prompt_id: str | None = None,
        cell_model: str | None = None,
    ) -> CallResult:
        """Return the answer to `request`, from the run's log, the cache, or the provider.

        `key` is the request's `call_key`, when the caller knows it already.

        Raises:
            RunStopped: The run is stopping and this call was not started.
            StoreError: The answer could not be written to the store (a local failure).
            EngineError: The provider failed after its retries (the failure is logged).
        """
        if isinstance(request, ChatRequest) and self.pool.local_model(request.model_id):
            return await self._local(request)
        if key is None:
            assert isinstance(request, ChatRequest), "an embedding call passes its key"
            key = call_key(kind, request, repeat)
        logged = self.log.get(key)
        answer = logged.answer if logged is not None else None
        if answer is not None:
            if self._uses.get(key, 0) > 0:
                self._uses[key] -= 1
                result = CallResult.from_json(answer, "log")
            else:
                result = CallResult.from_json(answer, "cache")
                await self._reuse(key)
            self._event(kind, request, cell_model, result)
            return result
        retried = logged is not None
        share = self.use_cache and cache_ok
        if share:
            leader = self._in_flight.get(key)
            if leader is not None:
                return await self._follow(leader, key, kind, request, cell_model, retried)
            # Claimed before the cache is read: an identical call that arrives while this one
            # looks up or calls follows it. (Claimed after the lookup, a follower whose own
            # lookup ran before this call's answer was written called the provider again.)
            self._in_flight[key] = asyncio.get_running_loop().create_future()
        try:
            result = await self._cached_or_called(
                key, kind, request, prompt_id, cell_model, retried, share
            )
        except BaseException as exc:
            if share:
                _settle(self._in_flight.pop(key), None, exc)
            raise
        if share:
            _settle(self._in_flight.pop(key), result, None)
        return result

    async def _cached_or_called(
        self,
        key: str,
        kind: str,
        request: ChatRequest | EmbedRequest,
        prompt_id: str | None,
        cell_model: str | None,
        retried: bool,
        share: bool,
    ) -> CallResult:
        """The cached answer to `key` when `share` allows and there is one, else a call."""
        if share:
            cached = self.prefetched.get(key)  # kept: an identical call may follow
            if cached is None and key not in self.looked_up:
                cached = await asyncio.to_thread(self.store.cache_get, key)
            if cached is not None:
                result = CallResult.from_json(cached, "cache")
                if key in self._logged:
                    await self._reuse(key)
                else:
                    await self._record(key, kind, request, prompt_id, cell_model, result, None)
                self._event(kind, request, cell_model, result, retried)
                return result
        return await self._call(key, kind, request, prompt_id, cell_model, retried)

    async def _local(self, request: ChatRequest) -> CallResult:
        """A model answered in this process: nothing to log, cache or count."""
        response = await self.pool.chat(request)
        return _result(response)

    async def _follow(
        self,
        leader: asyncio.Future[CallResult],
        key: str,
        kind: str,
        request: ChatRequest | EmbedRequest,
        cell_model: str | None,
        retried: bool,
    ) -> CallResult:
        """Wait for an identical call in flight; its answer counts as cached here."""
        try:
            shared = await asyncio.shield(leader)
        except (RunStopped, StoreError):
            raise
        except EngineError:
            self._event(kind, request, cell_model, None, retried)
            raise
        result = replace(shared, source="cache")
        await self._reuse(key)
        self._event(kind, request, cell_model, result, retried)
        return result

    async def _call(
        self,
        key: str,
        kind: str,
        request: ChatRequest | EmbedRequest,
        prompt_id: str | None,
        cell_model: str | None,
        retried: bool,
    ) -> CallResult:
        try:
            async with self._slots:
                if self.stop.is_set():
                    raise RunStopped("stopped before this call")
                response: ChatResponse | EmbedResponse = (
                    await self.pool.chat(request)
                    if isinstance(request, ChatRequest)
                    else await self.pool.embed(request)
                )
        except RunStopped:
            raise
        except EngineError as exc:
            await self._record(key, kind, request, prompt_id, cell_model, None, str(exc))
            self._event(kind, request, cell_model, None, retried)
            raise
        # Let the call that just got this call's slot in the pool send its request before this
        # one is recorded and scored: responses arrive in bursts, and sending first keeps the
        # provider busy instead of queueing every new request behind a burst of bookkeeping.
        await asyncio.sleep(0)
        result = _result(response)
        await self._record(key, kind, request, prompt_id, cell_model, result, None, cache=True)
        self._event(kind, request, cell_model, result, retried)
        return result

    async def _record(
        self,
        key: str,
        kind: str,
        request: ChatRequest | EmbedRequest,
        prompt_id: str | None,
        cell_model: str | None,
        result: CallResult | None,
        error: str | None,
        cache: bool = False,
    ) -> None:
        value = dumps_compact(result.to_json()) if result else None
        entry = (
            CacheEntry(key, kind, request.model_id, value) if cache and value is not None else None
        )
        call = None
        if self.run_id is not None:
            call = CallRow(
                run_id=self.run_id,
                key=key,
                kind=kind,
                model_id=request.model_id,
                prompt_id=prompt_id,
                cell_model=cell_model,
                response=value,
                error=error,
                cached=result is not None and result.source == "cache",
                latency_ms=result.latency_ms if result else None,
                input_tokens=result.input_tokens if result else None,
                output_tokens=result.output_tokens if result else None,
                cost_usd=result.cost_usd if result else None,
            )
        if call is None and entry is None:
            return
        await self.writer.committed(self.writer.record_call(call, entry))
        if entry is not None and result is not None and key in self.looked_up:
            # The prefetched answers are a snapshot taken before this call: an identical call
            # arriving after this one has finished must find this answer, not the old "none".
            self.prefetched[key] = result.to_json()
        if call is not None and result is not None:
            self._logged.add(key)

    async def _reuse(self, key: str) -> None:
        """Log one more use of this run's logged answer `key`."""
        if self.run_id is not None:
            await self.writer.committed(self.writer.record_reuse(self.run_id, key))


def _result(response: ChatResponse | EmbedResponse) -> CallResult:
    # ChatResponse is tested for: a run without embeddings never imports EmbedResponse.
    if isinstance(response, ChatResponse):
        return CallResult(
            text=response.text,
            tool_calls=response.tool_calls,
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
            latency_ms=response.latency_ms,
            cost_usd=response.cost_usd,
            source="provider",
        )
    return CallResult(
        text="",
        tool_calls=None,
        input_tokens=response.usage.input_tokens,
        output_tokens=0,
        latency_ms=response.latency_ms,
        cost_usd=response.cost_usd,
        source="provider",
        vector=response.vector,
    )


def _settle(
    future: asyncio.Future[CallResult], result: CallResult | None, exc: BaseException | None
) -> None:
    """Hand the leader's outcome to the identical calls waiting for it."""
    if exc is not None:
        future.set_exception(exc if isinstance(exc, Exception) else RunStopped("cancelled"))
        future.exception()  # retrieved: no warning when nobody was waiting
    elif result is not None:
        future.set_result(result)
