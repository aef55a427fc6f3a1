"""`ProviderPool`: one HTTP client, global and per-provider limits, retries, costs, statistics."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from engine.errors import ConfigError, ProviderError
from engine.net.proxies import proxy_routes
from engine.providers import wire
from engine.providers.direct import LazyClient
from engine.providers.endpoints import Endpoint, load_environ, resolve
from engine.providers.failure import Failure, FailureKind, redact
from engine.providers.limits import DEFAULT_START, START_LIMITS, AdaptiveLimit
from engine.providers.prices import PriceTable
from engine.providers.types import (
    DEFAULT_CONCURRENCY,
    ChatRequest,
    ChatResponse,
    LocalModel,
    ProviderStats,
)

if TYPE_CHECKING:
    import httpx

    from engine.net.connections import Connections
    from engine.providers.direct import DirectPost
    from engine.providers.embeddings import EmbedRequest, EmbedResponse, LocalEmbedder

__all__ = ["RETRY_AFTER_CAP_S", "ProviderCallError", "ProviderPool"]

logger = logging.getLogger(__name__)

_R = TypeVar("_R")

RETRY_AFTER_CAP_S = 120.0
"""The longest `Retry-After` honoured; a provider asking for more is retried after this."""


class ProviderCallError(ProviderError):
    """A chat call that failed after its attempts; the message says why and what to do.

    Attributes:
        model_id: The model id of the call.
        provider: The provider prefix.
        kind: Why the last attempt failed (`auth`, `not_found`, `timeout`, ...).
        status: The last HTTP status, if an answer came.
        attempts: The attempts made.
    """

    def __init__(
        self,
        message: str,
        *,
        model_id: str,
        provider: str,
        kind: FailureKind,
        status: int | None,
        attempts: int,
    ) -> None:
        super().__init__(message)
        self.model_id = model_id
        self.provider = provider
        self.kind = kind
        self.status = status
        self.attempts = attempts


@dataclass
class _Provider:
    """Mutable counters and the adaptive limit of one provider."""

    name: str
    limit: AdaptiveLimit
    calls: int = 0
    succeeded: int = 0
    failed: int = 0
    attempts: int = 0
    retries: int = 0
    rate_limited: int = 0
    errors: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    def snapshot(self) -> ProviderStats:
        return ProviderStats(
            provider=self.name,
            calls=self.calls,
            succeeded=self.succeeded,
            failed=self.failed,
            attempts=self.attempts,
            retries=self.retries,
            rate_limited=self.rate_limited,
            errors=self.errors,
            limit=self.limit.limit,
            in_flight=self.limit.in_flight,
            max_in_flight=self.limit.max_in_flight,
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            cost_usd=self.cost_usd,
        )


class ProviderPool:
    """Sends chat calls to model providers, concurrently, politely and with retries.

    Every dependency is passed in; nothing is detected. Calls run under a global limit and
    a per-provider adaptive limit (see `AdaptiveLimit`); attempts that fail with 429, 5xx,
    a timeout, a dropped connection or an unreadable 2xx body are retried with exponential
    backoff and jitter, waiting at least what `Retry-After` asks. Other 4xx answers are not
    retried. Connections are made on the first call (so a pool used only for `check` needs
    no closing), and the httpx client only when something needs it (`engine.providers.direct`
    sends plain calls without it); a pool then belongs to that event loop: close it with
    `aclose()` or `async with`.

    Args:
        environ: Where keys (`<PROVIDER>_API_KEY`) and endpoints (`<PROVIDER>_BASE_URL`) are
            read. Default: `load_environ()`, i.e. `os.environ` over `.streamlit/secrets.toml`
            of the current directory; proxies from the environment (`HTTPS_PROXY`, ...) are then
            honoured too, through httpx's own transport.
        transport: An httpx transport for special cases (default: the pool's own
            `Connections`, which its client reaches through an `Http11Transport`, or httpx's
            own transport when `BLUEPRINT_HTTP_TRANSPORT=httpx` is in `environ`; HTTP/1.1
            keep-alive with at most `global_limit` connections per origin). The pool closes it.
        global_limit: The most attempts in flight at once, over all providers.
        prices: The price table for `cost_usd` (default `PriceTable()`).
        max_attempts: Attempts per call, the first included.
        backoff_base_s: The first retry waits about this long; each next one twice as long.
        backoff_cap_s: The longest backoff.
        clock: Monotonic seconds (for latency, backoff and pauses).
        sleep: The async sleep used between attempts.
        rng: Randomness for the jitter.
        local: Models answered in this process (`ideal`, `replay`), by provider prefix; they
            bypass HTTP, limits and retries.
        custom: A blueprint's custom models by id (`engine.providers.custom.custom_endpoints`):
            an endpoint, or why the model cannot be called. They come before every provider.
        gate: The global limit shared with other pools of this event loop (a worker's calls
            in flight over all the runs it executes); default: this pool's own.
        throttle: Awaited with the provider prefix before each attempt; it waits as long as a
            limit shared with other processes asks (team mode's per-provider rate).
        embedders: Embedding models computed in this process, by provider prefix (default:
            `local:` models from `engine.providers.local_embed`).
        limits: Each provider's adaptive limit by provider prefix, shared with other pools of
            this event loop (a worker's runs: a provider that answered 429 to one run is not
            called at full speed by the next, and a run does not start slow again where the
            one before it had grown the limit); default: this pool's own.
    """

    def __init__(
        self,
        *,
        environ: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        global_limit: int = DEFAULT_CONCURRENCY,
        prices: PriceTable | None = None,
        max_attempts: int = 4,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
        local: Mapping[str, LocalModel] | None = None,
        custom: Mapping[str, Endpoint | str] | None = None,
        gate: asyncio.Semaphore | None = None,
        throttle: Callable[[str], Awaitable[None]] | None = None,
        embedders: Mapping[str, LocalEmbedder] | None = None,
        limits: MutableMapping[str, AdaptiveLimit] | None = None,
    ) -> None:
        if global_limit < 1 or max_attempts < 1:
            raise ValueError("global_limit and max_attempts must be at least 1")
        self.global_limit = global_limit
        self.max_attempts = max_attempts
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.prices = prices if prices is not None else PriceTable()
        self._environ = dict(environ) if environ is not None else load_environ()
        self._clock = clock
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._transport = transport
        self._trust_env = environ is None
        self._client = LazyClient(self._make_client)  # made when first needed
        self._direct: DirectPost | None = None  # the client's own transport, without its layers
        self._connections: Connections | None = None  # the pool's own, shared with the client
        self._proxies = False  # the environment names proxies (see `_ready`)
        self._sender: Callable[..., Awaitable[Any]] | None = None  # set by `_ready`
        self._closed = False
        self._global = gate if gate is not None else asyncio.Semaphore(global_limit)
        self._throttle = throttle
        self._providers: dict[str, _Provider] = {}
        self._endpoints: dict[str, Endpoint] = {}
        self._local = dict(local or {})
        self._custom = dict(custom or {})
        self._embedders = dict(embedders) if embedders is not None else _default_embedders()
        self._limits: MutableMapping[str, AdaptiveLimit] = limits if limits is not None else {}

    def __repr__(self) -> str:
        return (
            f"ProviderPool(global_limit={self.global_limit}, providers={sorted(self._providers)})"
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def _ready(self) -> None:
        """Make what the first real call needs (a run whose answers are all cached needs none).

        The pool's calls go out on its own connections (`DirectPost`), and httpx is imported
        only when something needs the client (a URL the environment's proxies apply to: httpx
        sends it through its own transport); the client is made now where the connections
        cannot be used at all (a transport given to the pool that is not an `Http11Transport`,
        or httpx's own transport chosen).
        """
        if self._sender is not None:
            return
        from engine.net.connections import Connections
        from engine.providers.attempt import send_built  # the sender, imported before any wait
        from engine.providers.direct import DirectPost

        connections: Connections | None = None
        if self._transport is not None:  # given: httpx is imported already
            from engine.net.transport import Http11Transport

            if isinstance(self._transport, Http11Transport):
                connections = self._transport.connections
        elif self._environ.get("BLUEPRINT_HTTP_TRANSPORT") != "httpx":
            connections = self._connections = Connections(self.global_limit)
        if connections is None:
            self._http()
        else:
            # With proxies in the environment the client keeps httpx's own transport (httpx
            # applies them only there) for the URLs it would send through a proxy; the others
            # (the hosts in NO_PROXY) still go out on the pool's own connections.
            routes = proxy_routes() if self._trust_env else None
            self._proxies = routes is not None
            self._direct = DirectPost(connections, self._client, proxies=routes)
        self._sender = send_built

    def _http(self) -> httpx.AsyncClient:
        """The HTTP client, made (and httpx imported) when first needed."""
        return self._client()

    def _make_client(self) -> httpx.AsyncClient:
        import httpx

        from engine.providers.direct import CLIENT_HEADERS

        transport = self._transport
        if transport is None and self._connections is not None and not self._proxies:
            from engine.net.transport import Http11Transport

            transport = Http11Transport(self._connections)
        return httpx.AsyncClient(
            transport=transport, trust_env=self._trust_env, headers=dict(CLIENT_HEADERS)
        )

    async def aclose(self) -> None:
        """Close the HTTP client and its connections (a pool never called has none)."""
        self._closed = True
        if self._client.made is not None:
            await self._client.made.aclose()
        elif self._transport is not None and self._sender is not None:  # as its client would
            await self._transport.aclose()
        if self._connections is not None:
            await self._connections.aclose()

    def local_model(self, model_id: str) -> LocalModel | None:
        """The local model that answers `model_id`, if it is one."""
        if not self._local or model_id in self._custom:
            return None
        return self._local.get(model_id.partition(":")[0].strip())

    def check(self, model_id: str) -> str | None:
        """Return None if a call to `model_id` could be attempted, else why not (no network)."""
        local = self.local_model(model_id)
        if local is not None:
            return local.check(model_id)
        try:
            self._endpoint(model_id)
        except ConfigError as exc:
            return str(exc)
        return None

    def stats(self) -> dict[str, ProviderStats]:
        """Return a snapshot of every provider called so far, by provider prefix."""
        return {name: p.snapshot() for name, p in sorted(self._providers.items())}

    def _endpoint(self, model_id: str) -> Endpoint:
        endpoint = self._endpoints.get(model_id)
        if endpoint is None:
            custom = self._custom.get(model_id)
            if isinstance(custom, str):
                raise ConfigError(custom)
            endpoint = custom or resolve(model_id, self._environ)
            self._endpoints[model_id] = endpoint
        return endpoint

    def _provider(self, name: str) -> _Provider:
        state = self._providers.get(name)
        if state is None:
            limit = self._limits.get(name)
            if limit is None:
                start = START_LIMITS.get(name, DEFAULT_START)
                limit = AdaptiveLimit(start, cap=self.global_limit, clock=self._clock)
                self._limits[name] = limit
            state = self._providers[name] = _Provider(name, limit)
        return state

    async def _acquire(self, state: _Provider) -> None:
        """Wait out a `Retry-After` pause and the shared rate, then take a provider and a global slot."""
        # The sender is imported and made before any wait: importing blocks the event loop,
        # and a call whose shared-rate turn passed meanwhile would go out in a burst.
        self._ready()
        if self._throttle is not None:
            await self._throttle(state.name)
        while True:
            while (left := state.limit.pause_left()) > 0:
                await self._sleep(left)
            await state.limit.acquire()
            if state.limit.pause_left() > 0:
                state.limit.release()
                continue
            try:
                await self._global.acquire()
            except BaseException:
                state.limit.release()
                raise
            return

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        ceiling = min(self.backoff_cap_s, self.backoff_base_s * 2.0 ** (attempt - 1))
        delay = ceiling / 2 + self._rng.random() * ceiling / 2
        if retry_after is not None:
            delay = max(delay, min(retry_after, RETRY_AFTER_CAP_S))
        return delay

    def _record_failure(self, state: _Provider, failure: Failure) -> None:
        state.errors += 1
        if failure.kind == "rate_limited":
            state.rate_limited += 1
            state.limit.on_rate_limited()
        else:
            state.limit.on_error()
        if failure.retry_after is not None:
            state.limit.pause(min(failure.retry_after, RETRY_AFTER_CAP_S))

    async def chat(self, request: ChatRequest) -> ChatResponse:
        """Send one chat call and return the response.

        Raises:
            UnknownProviderError: The model id's provider is unknown (the message lists the
                known ones and how `<PREFIX>_BASE_URL` makes any OpenAI-compatible endpoint
                usable).
            MissingKeyError: The provider's key is not set (the message names the variable).
            ConfigError: The model id is offline (`ideal`, `replay`) and no local model was
                given for it, or its base URL is bad.
            EngineError: A local model cannot answer (the message says why).
            ProviderCallError: The call still failed after its attempts (a `ProviderError`).
            RuntimeError: The pool is closed.
        """
        if self._closed:
            raise RuntimeError("this ProviderPool is closed")
        local = self.local_model(request.model_id)
        if local is not None:
            return await local.chat(request)
        endpoint = self._endpoint(request.model_id)
        state = self._provider(endpoint.provider)
        built = wire.build(endpoint, request)
        reply, elapsed, attempt = await self._retried(
            request.model_id, endpoint, state, built, request.timeout_s, wire.parse
        )
        return self._succeed(state, request, reply, elapsed, attempt)

    async def _retried(
        self,
        model_id: str,
        endpoint: Endpoint,
        state: _Provider,
        built: tuple[str, dict[str, str], dict[str, Any]],
        timeout_s: float,
        parse: Callable[[Endpoint, Any], _R],
    ) -> tuple[_R, float, int]:
        """Send `built` with retries; return the reply, the last attempt's seconds and attempts.

        Raises:
            ProviderCallError: The call still failed after its attempts.
        """
        state.calls += 1
        attempt = 0
        while True:
            attempt += 1
            await self._acquire(state)
            try:
                state.attempts += 1
                started = self._clock()
                assert self._sender is not None  # made by `_acquire`
                outcome = await self._sender(
                    self._http, endpoint, built, timeout_s, parse, self._direct
                )
                elapsed = self._clock() - started
            finally:
                self._global.release()
                state.limit.release()
            if not isinstance(outcome, Failure):
                state.limit.on_success()
                state.succeeded += 1
                return outcome, elapsed, attempt
            failure = outcome
            self._record_failure(state, failure)
            if not failure.retryable or attempt >= self.max_attempts:
                break
            state.retries += 1
            delay = self._backoff(attempt, failure.retry_after)
            logger.info(
                "%s: attempt %d failed (%s); retrying in %.2f s",
                model_id, attempt, failure.message, delay,
            )  # fmt: skip
            await self._sleep(delay)
        state.failed += 1
        suffix = f" (gave up after {attempt} attempt{'s' * (attempt > 1)})"
        message = f"{model_id}: {failure.message}{suffix if failure.retryable else ''}"
        logger.warning("%s", message)
        raise ProviderCallError(
            message,
            model_id=model_id,
            provider=endpoint.provider,
            kind=failure.kind,
            status=failure.status,
            attempts=attempt,
        )

    def check_embedding(self, model_id: str) -> str | None:
        """Return None if `model_id` could embed texts, else why not (no network)."""
        from engine.providers.embeddings import EmbedRequest, build_embedding, unsupported

        local = self._embedders.get(model_id.partition(":")[0].strip())
        if local is not None:
            return local.check(model_id)
        if model_id in self._custom:
            return f"'{model_id}' is a custom chat model of the blueprint, not an embedding model."
        why = unsupported(model_id)
        if why is not None:
            return why
        try:
            endpoint = resolve(model_id, self._environ)
            build_embedding(endpoint, EmbedRequest(model_id=model_id, text=""))
        except ConfigError as exc:
            return str(exc)
        return None

    async def embed(self, request: EmbedRequest) -> EmbedResponse:
        """Embed one text, with the same limits, retries, redaction and costs as `chat`.

        Raises:
            UnknownProviderError: The model id's provider is unknown.
            MissingKeyError: The provider's key is not set (the message names the variable).
            ConfigError: The provider has no embeddings endpoint, or its base URL is bad.
            EngineError: A local embedding model cannot embed (the message says why).
            ProviderCallError: The call still failed after its attempts.
            RuntimeError: The pool is closed.
        """
        from engine.providers.embeddings import (
            EmbedResponse,
            build_embedding,
            parse_embedding,
            unsupported,
        )

        if self._closed:
            raise RuntimeError("this ProviderPool is closed")
        local = self._embedders.get(request.model_id.partition(":")[0].strip())
        if local is not None:
            started = self._clock()
            why = local.check(request.model_id)
            if why is not None:
                raise ConfigError(why)
            vector = await asyncio.to_thread(local.embed, request.model_id, request.text)
            elapsed = self._clock() - started
            return EmbedResponse(
                vector=vector, latency_ms=elapsed * 1000, attempts=1, model=request.model_id,
                cost_usd=0.0,
            )  # fmt: skip
        why = unsupported(request.model_id)
        if why is not None:
            raise ConfigError(why)
        endpoint = resolve(request.model_id, self._environ)
        built = build_embedding(endpoint, request)
        state = self._provider(endpoint.provider)
        reply, elapsed, attempt = await self._retried(
            request.model_id, endpoint, state, built, request.timeout_s, parse_embedding
        )
        state.input_tokens += reply.usage.input_tokens
        cost = self.prices.cost(request.model_id, reply.usage)
        if cost is not None:
            state.cost_usd += cost
        return EmbedResponse(
            vector=reply.vector,
            usage=reply.usage,
            latency_ms=elapsed * 1000,
            attempts=attempt,
            model=redact(reply.model or endpoint.model, endpoint.secrets),
            cost_usd=cost,
        )

    def _succeed(
        self,
        state: _Provider,
        request: ChatRequest,
        reply: wire.Reply,
        elapsed: float,
        attempt: int,
    ) -> ChatResponse:
        state.input_tokens += reply.usage.input_tokens
        state.output_tokens += reply.usage.output_tokens
        cost = self.prices.cost(request.model_id, reply.usage)
        if cost is not None:
            state.cost_usd += cost
        endpoint = self._endpoint(request.model_id)
        text = redact(reply.text, endpoint.header_secrets)  # a server echoing its headers
        return ChatResponse(
            text=text,
            tool_calls=reply.tool_calls,
            usage=reply.usage,
            latency_ms=elapsed * 1000,
            attempts=attempt,
            model=reply.model or endpoint.model,
            finish_reason=reply.finish_reason,
            cost_usd=cost,
        )


def _default_embedders() -> dict[str, LocalEmbedder]:
    from engine.providers.local_embed import LocalEmbeddings

    return {"local": LocalEmbeddings()}
