"""A fake LLM server on 127.0.0.1: OpenAI, Anthropic and Ollama chat, with scriptable faults.

In-process use (tests): `with FakeLLM(latency_ms=50) as fake: ...` or the `fake_llm` fixture
(`tests.fakes.plugin`). `fake.env()` gives the `*_BASE_URL`/`*_API_KEY` variables that point
the providers at it.

Standalone use (benchmarks, browser tests):

    python -m tests.fakes.llm_server --port 0 --latency-ms 50

prints `listening on http://127.0.0.1:<port>` on its first line and serves until killed.
Faults and options are set with flags (`--help`) or at run time with `POST /_control` and a
JSON object (the same keys as `FakeLLM.control`); `GET /_stats` and `GET /_calls` report.

Routes: `/v1/chat/completions` and `/chat/completions` (OpenAI), `/v1/messages` and
`/messages` (Anthropic), `/api/chat` (Ollama), `/v1/completions` and `/completions` (the
OpenAI-style completions format: its `prompt` is seen as one user message), `/v1/embeddings`
and `/embeddings` (OpenAI-compatible embeddings, Ollama's too: the `input` is seen as one user
message; vectors from `tests.fakes.llm_embeddings`). Replies are deterministic; see
`tests.fakes.llm_replies` for the default echo and the judge mode.

Fault kinds: `429` (with `Retry-After`), `500`, `503`, `400`, `401` (the body echoes the
presented key, as some real providers partly do, so leak tests have something to catch), `404`,
`hang` (no
answer until the client gives up), `invalid_json` (a 200 with a truncated body) and `drop`
(the connection is closed without a response).

The server is one asyncio event loop (in a daemon thread in-process), with HTTP/1.1
keep-alive; latency is an `asyncio.sleep`, so hundreds of concurrent calls cost no threads.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Self, get_args

from tests.fakes.llm_embeddings import embedding_body
from tests.fakes.llm_http import Answer, RawRequest, json_answer, read_request, write_response
from tests.fakes.llm_replies import (
    ROUTES,
    FakeReply,
    FakeRequest,
    FakeToolCall,
    JudgeRule,
    echo_reply,
    error_body,
    fault_body,
    first_word_rule,
    judge_reply,
    key_point_reply,
    parse_request,
    render,
    request_matcher,
)

__all__ = ["FakeLLM", "FakeReply", "FakeRequest", "FakeToolCall", "FaultKind", "main"]

FaultKind = Literal["429", "500", "503", "400", "401", "404", "hang", "invalid_json", "drop"]
FAULT_KINDS: tuple[str, ...] = get_args(FaultKind)
Replier = Callable[[FakeRequest], "str | FakeReply"]


@dataclass
class _Rule:
    kind: str
    remaining: int | None
    predicate: Callable[[FakeRequest], bool] | None
    retry_after: str | None


def _check_kind(kind: str) -> str:
    if kind not in FAULT_KINDS:
        raise ValueError(f"unknown fault kind {kind!r}; use one of {', '.join(FAULT_KINDS)}")
    return kind


class FakeLLM:
    """A scriptable fake LLM HTTP server.

    Args:
        latency_ms: Delay before every answer (faults included, except `hang`).
        retry_after: The `Retry-After` value sent with `429` faults (seconds, or an HTTP date).
        host: The address to bind.
        port: The port to bind (0 picks a free one).
        hang_max_s: How long a `hang` fault waits for the client to give up before closing.
        ssl_context: Serve HTTPS with this context (e.g. a self-signed certificate).
    """

    def __init__(
        self,
        *,
        latency_ms: float = 0.0,
        retry_after: str = "1",
        host: str = "127.0.0.1",
        port: int = 0,
        hang_max_s: float = 120.0,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.host = host
        self.ssl_context = ssl_context
        self.port = port
        self.hang_max_s = hang_max_s
        self._initial = (latency_ms, retry_after)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._serial = 0
        self.latency_ms = latency_ms
        self.retry_after = retry_after
        self.calls: list[FakeRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.connections = 0
        self._rules: list[_Rule] = []
        self._replier: Replier | None = None
        self._tool_call: FakeToolCall | None = None
        self._judge_rule: JudgeRule = first_word_rule()

    # -- scripting -------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The server's base URL, `http://127.0.0.1:<port>` (`https` with an `ssl_context`)."""
        if not self.port:
            raise RuntimeError("the fake server is not started")
        return f"{'https' if self.ssl_context else 'http'}://{self.host}:{self.port}"

    def env(self, key: str = "fake-key") -> dict[str, str]:
        """Variables pointing OpenAI, Anthropic, OpenRouter and Ollama at this server."""
        v1 = f"{self.url}/v1"
        out = {"OLLAMA_BASE_URL": self.url}
        for name in ("OPENAI", "ANTHROPIC", "OPENROUTER"):
            out[f"{name}_BASE_URL"] = v1
            out[f"{name}_API_KEY"] = key
        return out

    def reset(self) -> None:
        """Forget calls, faults, custom replies and counters; restore the initial options."""
        with self._lock:
            self.calls.clear()
            self._rules.clear()
            self.max_in_flight = self.in_flight
            self.connections = 0
            self._replier = None
            self._tool_call = None
            self._judge_rule = first_word_rule()
            self.latency_ms, self.retry_after = self._initial

    def fail_next(self, n: int = 1, kind: str = "500", *, retry_after: str | None = None) -> None:
        """Answer the next `n` chat requests with the fault `kind`."""
        with self._lock:
            self._rules.append(_Rule(_check_kind(kind), n, None, retry_after))

    def fail_when(
        self,
        predicate: Callable[[FakeRequest], bool],
        kind: str = "500",
        *,
        retry_after: str | None = None,
    ) -> None:
        """Answer every chat request for which `predicate` is true with the fault `kind`."""
        with self._lock:
            self._rules.append(_Rule(_check_kind(kind), None, predicate, retry_after))

    def reply_with(self, fn: Replier | None) -> None:
        """Answer with `fn(request)` (text or a `FakeReply`); None restores the default."""
        self._replier = fn

    def reply_with_tool_call(self, name: str | None, arguments: Any = None) -> None:
        """Answer requests that offer tools with a native call to `name` (None: stop)."""
        self._tool_call = None if name is None else FakeToolCall(name, arguments or {})

    def judge_with(self, rule: JudgeRule) -> None:
        """Choose judge-mode classes with `rule(criterion, text) -> class name`."""
        self._judge_rule = rule

    def control(self, options: dict[str, Any]) -> None:
        """Apply JSON options (what `POST /_control` accepts).

        Keys: `reset` (bool), `latency_ms`, `retry_after`, `fail_next` (`{n, kind,
        retry_after?}`), `fail_when` (`{kind, model?, protocol?, path?, contains?,
        retry_after?}`: all given fields must match; `contains` looks in the last user
        message), `tool_call` (`{name, arguments}` or null), `judge` (`{met, unmet}`).

        Raises:
            ValueError: An option is unknown or malformed.
        """
        unknown = set(options) - {
            "reset", "latency_ms", "retry_after", "fail_next", "fail_when", "tool_call", "judge"
        }  # fmt: skip
        if unknown:
            raise ValueError(f"unknown control options: {sorted(unknown)}")
        if options.get("reset"):
            self.reset()
        if "latency_ms" in options:
            self.latency_ms = float(options["latency_ms"])
        if "retry_after" in options:
            self.retry_after = str(options["retry_after"])
        if (spec := options.get("fail_next")) is not None:
            after = spec.get("retry_after")
            self.fail_next(
                int(spec.get("n", 1)),
                str(spec.get("kind", "500")),
                retry_after=after and str(after),
            )
        if (spec := options.get("fail_when")) is not None:
            fields = dict(spec)
            kind, after = str(fields.pop("kind", "500")), fields.pop("retry_after", None)
            self.fail_when(request_matcher(fields), kind, retry_after=after and str(after))
        if "tool_call" in options:
            call = options["tool_call"]
            self.reply_with_tool_call(call and call["name"], call and call.get("arguments"))
        if (spec := options.get("judge")) is not None:
            self.judge_with(
                first_word_rule(spec.get("met", "CLASS_EXACT"), spec.get("unmet", "CLASS_UNMET"))
            )

    def stats(self) -> dict[str, int]:
        """Calls recorded, requests in flight now, the most seen at once, connections accepted."""
        return {
            "calls": len(self.calls),
            "in_flight": self.in_flight,
            "max_in_flight": self.max_in_flight,
            "connections": self.connections,
        }

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> Self:
        """Start serving in a daemon thread; returns when the port is bound."""
        ready = threading.Event()
        self._thread = threading.Thread(
            target=lambda: asyncio.run(self._serve(ready.set)), name="fake-llm", daemon=True
        )
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the fake LLM server did not start")
        return self

    def stop(self) -> None:
        """Stop serving and close every connection."""
        if self._loop is not None and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
        if self._thread is not None:
            self._thread.join(10)
        self._thread = None

    def serve_forever(self, on_ready: Callable[[], None]) -> None:
        """Serve in the current thread until the process is stopped."""
        asyncio.run(self._serve(on_ready))

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _serve(self, on_ready: Callable[[], None]) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        server = await asyncio.start_server(
            self._connection, self.host, self.port, backlog=1024, limit=2**24, ssl=self.ssl_context
        )
        self.port = server.sockets[0].getsockname()[1]
        on_ready()
        await self._stopped.wait()
        server.close()
        for writer in list(self._writers):
            writer.close()

    # -- HTTP ------------------------------------------------------------------------------

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        self.connections += 1
        try:
            while True:
                raw = await read_request(reader)
                answer = await self._dispatch(raw, reader)
                if answer is None:
                    return
                write_response(writer, answer, keep_alive=raw.keep_alive)
                await writer.drain()
                if not raw.keep_alive:
                    return
        except (
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            ConnectionError,
            ValueError,
        ):
            return
        finally:
            self._writers.discard(writer)
            writer.close()

    async def _dispatch(self, raw: RawRequest, reader: asyncio.StreamReader) -> Answer | None:
        if raw.path.startswith("/_") or raw.path == "/":
            return self._control_route(raw.method, raw.path, raw.body)
        protocol = ROUTES.get(raw.path)
        if protocol is None or raw.method != "POST":
            return json_answer(404, error_body(None, 404, f"no route {raw.method} {raw.path}"))
        try:
            data = json.loads(raw.body or b"{}")
        except ValueError:
            data = None
        if not isinstance(data, dict):
            return json_answer(400, error_body(protocol, 400, "the body is not a JSON object"))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            request = parse_request(raw.path, protocol, data, raw.headers)
            rule = self._take_rule(request)
            request.fault = rule.kind if rule else None
            self.calls.append(request)
            if rule is not None and rule.kind == "hang":
                await self._hang(reader)
                return None
            if self.latency_ms > 0:
                await asyncio.sleep(self.latency_ms / 1000)
            if rule is None and protocol == "embeddings":
                request.answered_at = time.monotonic()
                return json_answer(200, embedding_body(request.model, request.last_user))
            if rule is None:
                self._serial += 1
                request.answered_at = time.monotonic()
                return json_answer(200, render(request, self._reply(request), self._serial))
            if rule.kind == "drop":
                return None
            presented = raw.headers.get("x-api-key") or raw.headers.get("authorization", "")
            status, body = fault_body(rule.kind, request, presented.removeprefix("Bearer "))
            retry_after = rule.retry_after or self.retry_after
            return status, body, ({"Retry-After": retry_after} if status == 429 else {})
        finally:
            self.in_flight -= 1

    def _take_rule(self, request: FakeRequest) -> _Rule | None:
        with self._lock:
            for rule in self._rules:
                if rule.remaining is not None and rule.remaining > 0:
                    rule.remaining -= 1
                    if rule.remaining == 0:
                        self._rules.remove(rule)
                    return rule
                if rule.predicate is not None and rule.predicate(request):
                    return rule
        return None

    async def _hang(self, reader: asyncio.StreamReader) -> None:
        try:
            await asyncio.wait_for(reader.read(), self.hang_max_s)
        except (TimeoutError, ConnectionError):
            pass

    def _reply(self, request: FakeRequest) -> FakeReply:
        if self._replier is not None:
            out = self._replier(request)
            return FakeReply(text=out) if isinstance(out, str) else out
        if self._tool_call is not None and request.tools:
            return FakeReply(tool_calls=(self._tool_call,))
        return (
            key_point_reply(request)
            or judge_reply(request, self._judge_rule)
            or echo_reply(request)
        )

    def _control_route(self, method: str, path: str, body: bytes) -> Answer:
        if method == "POST" and path == "/_control":
            try:
                self.control(json.loads(body or b"{}"))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                return json_answer(400, {"error": str(exc)})
            return json_answer(200, {"ok": True, **self.stats()})
        if method == "GET" and path == "/_calls":
            return json_answer(200, [c.to_json() for c in self.calls])
        if method == "GET" and path in ("/_stats", "/"):
            return json_answer(200, {"ok": True, **self.stats()})
        return json_answer(404, {"error": f"no route {method} {path}"})


def main(argv: list[str] | None = None) -> None:
    """Run the fake server standalone (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m tests.fakes.llm_server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--retry-after", default="1", help="Retry-After sent with 429 faults")
    parser.add_argument("--fail-next", type=int, default=0, help="fail the next N requests")
    parser.add_argument("--fail-kind", default="500", choices=FAULT_KINDS)
    parser.add_argument(
        "--fail-model", action="append", default=[], metavar="MODEL=KIND",
        help="always fail requests for MODEL with KIND (repeatable)",
    )  # fmt: skip
    parser.add_argument("--judge-met", default="CLASS_EXACT")
    parser.add_argument("--judge-unmet", default="CLASS_UNMET")
    parser.add_argument("--tool-call", default=None, help="answer tool requests with this tool")
    parser.add_argument("--tool-args", default="{}", help="JSON arguments for --tool-call")
    args = parser.parse_args(argv)
    fake = FakeLLM(
        latency_ms=args.latency_ms, retry_after=args.retry_after, host=args.host, port=args.port
    )
    options: dict[str, Any] = {"judge": {"met": args.judge_met, "unmet": args.judge_unmet}}
    if args.fail_next:
        options["fail_next"] = {"n": args.fail_next, "kind": args.fail_kind}
    if args.tool_call:
        options["tool_call"] = {"name": args.tool_call, "arguments": json.loads(args.tool_args)}
    fake.control(options)
    for item in args.fail_model:
        model, _, kind = item.rpartition("=")
        fake.control({"fail_when": {"model": model, "kind": kind}})

    def ready() -> None:
        print(f"listening on {fake.url}", flush=True)

    try:
        fake.serve_forever(ready)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
