"""What a point function may use besides the text: `CheckEnv` (injected services) and `CheckContext`."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.checks.trace import parse_tool_trace
from engine.evidence import Evidence, ToolCall
from engine.js.values import js_clean
from engine.settings import Settings

if TYPE_CHECKING:
    import httpx

    from engine.blueprint.models import Blueprint, Prompt

__all__ = ["DAY_S", "CheckContext", "CheckEnv", "TTLCache"]

DAY_S = 24 * 60 * 60


class TTLCache:
    """A small thread-safe in-process cache whose entries expire after `ttl_s` seconds.

    Args:
        ttl_s: Lifetime of an entry.
        max_entries: When full, the oldest entries are dropped first.
        clock: Returns the current time in seconds (injected by tests).
    """

    def __init__(
        self,
        ttl_s: float = DAY_S,
        max_entries: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._clock = clock
        self._data: dict[str, tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> Any | None:
        """Return the live value for `key`, or None."""
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            if item[0] <= self._clock():
                del self._data[key]
                return None
            return item[1]

    def set(self, key: str, value: Any) -> None:
        """Store `value` under `key` for `ttl_s` seconds."""
        with self._lock:
            if len(self._data) >= self.max_entries:
                for old in list(self._data)[: max(1, self.max_entries // 10)]:
                    del self._data[old]
            self._data[key] = (self._clock() + self.ttl_s, value)

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)


@dataclass
class CheckEnv:
    """Services the point functions use; passed in, never detected.

    Attributes:
        settings: The user's settings (`call_allow`, the fact-check service).
        http: The HTTP client for `$call`/`$factcheck`; None creates one lazily.
        js_time_limit_s: Time limit for each `$js` run (and a string `where`).
        js_memory_limit: Heap limit for each `$js` run, in bytes.
        cache: Results of `$call`/`$factcheck`, kept 24 h.
        sleep: How retries wait (tests inject a no-op).
        resolve: Host name to IP addresses for the `$call` address check (tests inject one).
        environ: Where `${VAR}` in `$call` headers is looked up (default: `os.environ`).
    """

    settings: Settings = field(default_factory=Settings)
    http: httpx.Client | None = None
    js_time_limit_s: float = 0.1
    js_memory_limit: int = 64 << 20
    cache: TTLCache = field(default_factory=TTLCache)
    sleep: Callable[[float], None] = time.sleep
    resolve: Callable[[str], list[str]] | None = None
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def client(self) -> httpx.Client:
        """Return the injected client, or a lazily created one (30 s default timeout)."""
        if self.http is None:
            with self._lock:
                if self.http is None:
                    import httpx  # only `$call` and `$factcheck` need it

                    self.http = httpx.Client(timeout=30.0, follow_redirects=False)
        return self.http


class CheckContext:
    """Everything one evaluation may look at besides the subject text (computed lazily)."""

    __slots__ = ("_js_context", "_tool_calls", "blueprint", "env", "evidence", "prompt")

    def __init__(
        self,
        evidence: Evidence,
        env: CheckEnv,
        blueprint: Blueprint | None = None,
        prompt: Prompt | None = None,
    ) -> None:
        self.evidence = evidence
        self.env = env
        self.blueprint = blueprint
        self.prompt = prompt
        self._tool_calls: list[ToolCall] | None = None
        self._js_context: str | None = None

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The tool calls the `$tool_*` functions inspect.

        Native calls recorded from the provider (`evidence.tool_calls`, a non-empty list) win;
        otherwise the `TOOL_CALL {json}` lines of the subject text are parsed, as upstream does.
        """
        if self._tool_calls is None:
            native = self.evidence.tool_calls
            if native:
                self._tool_calls = list(native)
            else:
                self._tool_calls = parse_tool_trace(self.evidence.text)
        return self._tool_calls

    @property
    def js_context(self) -> str:
        """`$js`'s `context` global, `{messages, modelId}`, as JSON text (ASCII).

        Encoded once for all the `$js` points over this evidence: the messages may be a long
        conversation, and a worker process keeps the last one it was sent.
        """
        if self._js_context is None:
            value = {
                "messages": js_clean(self.evidence.messages),
                "modelId": self.evidence.model_id,
            }
            self._js_context = json.dumps(value, ensure_ascii=True)
        return self._js_context

    @property
    def prompt_id(self) -> str:
        """The prompt id (the evidence's, which scoring sets from the prompt)."""
        return self.prompt.id if self.prompt is not None else self.evidence.prompt_id
