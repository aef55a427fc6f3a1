r"""Blueprint JavaScript in worker processes, killed when they overrun their limit.

QuickJS's time limit is an interrupt handler that the interpreter and the regex backtracker
poll, but not everything polls it: the regex engine resets a repeated group's captures in a
loop that never does, so `/((((…(\1)…)))){20000,}?/.test(r)` with 40 nested groups runs for
seconds past a 100 ms limit, and a `$js` source can build such a pattern at run time
(`new RegExp(s)`), where no scan of the source finds it. So blueprint JavaScript (`$js`, a
string `where` in `$tool_args_match`) runs in a worker process (`engine.js.worker`,
a fresh interpreter started with `subprocess`, never a fork of this multithreaded one), which
keeps doing what the parent did: a fresh QuickJS context per evaluation with the same limits.

The parent waits for an answer at most `kill_after(time_limit_s)`: the time limit plus a grace
of `max(GRACE_MIN_S, GRACE_FACTOR x the limit)` (1.1 s for the default 100 ms), which leaves
room for the up to four limited calls of a `$js` evaluation (run, classify, and both again on
retry) on a busy machine. QuickJS measures its limit in CPU time; the grace is wall time. A
worker that has not answered by then is killed (`SIGKILL`) and reaped, and the request fails
with a `JSEngineError` of kind `timeout`, so callers report it exactly as a timeout QuickJS
caught itself. The deadline bounds the evaluation, not the transfer of its answer: a worker
whose evaluation took more than a quarter of it says so (`worker.DONE`) before it encodes
the answer, which may be megabytes (a long `explain`), and then has `ENCODE_TIMEOUT_S` to send
it. A worker that dies or writes something unreadable fails the request with kind
`engine` and a plain message. Either way the next request starts a new worker.

Workers are pooled: a thread checks one out for a request and returns it after, so no two
threads share a worker mid-request; they start lazily (about 0.1 s each, not counted in the
deadline), at most `MAX_WORKERS` at once (a thread beyond that waits for one to come back).
Workers exit when this process does: they read end of input when it closes their pipes (an
`atexit` hook closes them, and the kernel does if this process is killed), and a worker busy
with a request its parent no longer waits for kills itself shortly after the deadline.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Final

from engine.js.engine import MEMORY_LIMIT, STACK_LIMIT, TIME_LIMIT_S, JSEngineError
from engine.js.worker import DONE, READY

__all__ = [
    "ENCODE_TIMEOUT_S",
    "GRACE_FACTOR",
    "GRACE_MIN_S",
    "MAX_WORKERS",
    "START_TIMEOUT_S",
    "busy_pids",
    "evaluate_js",
    "kill_after",
    "run_fresh",
    "shutdown",
]

GRACE_MIN_S: Final = 1.0
"""The least time a worker gets past the time limit before it is killed, in seconds."""
GRACE_FACTOR: Final = 4.0
"""For longer limits, the grace is this many times the limit."""
MAX_WORKERS: Final = 8
"""The most worker processes alive at once (the number of threads that asked, up to this)."""
START_TIMEOUT_S: Final = 30.0
"""How long a new worker may take to load QuickJS and say it is ready."""

ENCODE_TIMEOUT_S: Final = 30.0
"""How long a worker that has said it is done may take to send a large answer."""

_ROOT: Final = str(Path(__file__).resolve().parents[2])  # the folder holding this `engine`
_COMMAND: Final = (sys.executable, "-m", "engine.js.worker")


def kill_after(time_limit_s: float) -> float:
    """Return how long the parent waits for a request with this time limit before the kill."""
    return time_limit_s + max(GRACE_MIN_S, GRACE_FACTOR * time_limit_s)


class _Late(Exception):
    """The worker did not answer before the deadline."""


class _Broken(Exception):
    """The worker died or spoke out of protocol."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _Worker:
    """One worker process and its pipes; used by one thread at a time."""

    def __init__(self) -> None:
        # cwd: `-m` puts it first on the worker's sys.path, so it imports this same `engine`
        self.proc = subprocess.Popen(
            _COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=_ROOT,
            bufsize=0,
        )
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self._wfd = self.proc.stdin.fileno()
        self._rfd = self.proc.stdout.fileno()
        os.set_blocking(self._wfd, False)
        self._readable = select.poll()
        self._readable.register(self._rfd, select.POLLIN)
        self._writable = select.poll()
        self._writable.register(self._wfd, select.POLLOUT)
        self._buffer = bytearray()
        self.context: str | None = None  # the `$js` context the worker holds

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self) -> None:
        """Wait for the worker's ready line.

        Raises:
            _Late: It took longer than `START_TIMEOUT_S`.
            _Broken: It exited or wrote something else.
        """
        line = self._read_line(time.monotonic() + START_TIMEOUT_S)
        if line != READY.rstrip(b"\n"):
            raise _Broken("the JavaScript process did not start")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exchange(self, data: bytes, deadline: float) -> bytes:
        """Send one request line; return the answer line (without its newline).

        Raises:
            _Late: No answer by `deadline` (`time.monotonic()`).
            _Broken: The worker died.
        """
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._wfd, view)
            except BlockingIOError:
                written = 0
            except BrokenPipeError:
                raise _Broken(self._death()) from None
            if written == len(view):
                break
            view = view[written:]
            self._wait(self._writable, deadline)
        line = self._read_line(deadline)
        if line == DONE.rstrip(b"\n"):  # QuickJS has finished: only encoding is left
            line = self._read_line(time.monotonic() + ENCODE_TIMEOUT_S)
        return line

    def _wait(self, poller: select.poll, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not poller.poll(max(1, round(remaining * 1000))):
            raise _Late

    def _read_line(self, deadline: float) -> bytes:
        if not self._buffer:  # the common case: the answer comes in one read
            self._wait(self._readable, deadline)
            chunk = os.read(self._rfd, 1 << 16)
            if chunk.endswith(b"\n") and chunk.count(b"\n") == 1:
                return chunk[:-1]
            if not chunk:
                raise _Broken(self._death())
            self._buffer += chunk
        scanned = 0
        while (end := self._buffer.find(b"\n", scanned)) < 0:
            scanned = len(self._buffer)
            self._wait(self._readable, deadline)
            chunk = os.read(self._rfd, 1 << 16)
            if not chunk:
                raise _Broken(self._death())
            self._buffer += chunk
        line = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        return line

    def _death(self) -> str:
        """Describe how the worker ended (it closed its end of a pipe)."""
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "the JavaScript process stopped answering"
        how = f"signal {-code}" if code < 0 else f"exit code {code}"
        return f"the JavaScript process stopped ({how}) before it answered"

    def kill(self) -> None:
        """Kill the worker (if it still runs), reap it and close its pipes."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._close_pipes()

    def signal_kill(self) -> None:
        """Send the worker `SIGKILL` and nothing else (another thread may be using it)."""
        if self.proc.poll() is None:
            self.proc.kill()

    def close(self) -> None:
        """Close the worker's input, so it exits once it has finished any request."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def _close_pipes(self) -> None:
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()

    def forget(self) -> None:
        """In a forked copy of this process: close the pipes, leave the worker alone."""
        self._close_pipes()


class _Pool:
    """Idle workers and the count of live ones; checked out by one thread at a time."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._cond = threading.Condition()
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._live = 0  # idle + busy + starting
        self._forgotten: list[_Worker] = []

    def acquire(self) -> _Worker:
        """Return an idle worker, or start one (waiting if `size` are busy).

        Raises:
            JSEngineError: A new worker could not start (kind `engine`).
        """
        with self._cond:
            while True:
                while self._idle:
                    worker = self._idle.pop()
                    if worker.alive():
                        self._busy.add(worker)
                        return worker
                    self._live -= 1
                    worker.kill()  # died while idle: reap it
                if self._live < self._size:
                    self._live += 1
                    break
                self._cond.wait()
        try:
            worker = _Worker()
        except BaseException as exc:
            self._gone()
            if isinstance(exc, OSError):
                message = f"the JavaScript process could not start: {exc}"
                raise JSEngineError("engine", message) from None
            raise
        try:
            worker.wait_ready()
        except BaseException as exc:  # an interrupt too: the slot must not be lost
            worker.kill()
            self._gone()
            if isinstance(exc, _Late | _Broken):
                message = "the JavaScript process did not start"
                raise JSEngineError("engine", message) from None
            raise
        with self._cond:
            self._busy.add(worker)
        return worker

    def release(self, worker: _Worker, reusable: bool) -> None:
        """Take a worker back: keep it idle, or kill it if it is not `reusable`."""
        with self._cond:
            self._busy.discard(worker)
            if reusable:
                self._idle.append(worker)
                self._cond.notify()
                return
        worker.kill()
        self._gone()

    def _gone(self) -> None:
        with self._cond:
            self._live -= 1
            self._cond.notify()

    def busy_pids(self) -> list[int]:
        with self._cond:
            return sorted(worker.pid for worker in self._busy)

    def shutdown(self) -> None:
        """Stop the idle workers (closing their input first) and kill the busy ones.

        A busy worker's pipes stay open for the thread using it, which sees it die and
        discards it.
        """
        with self._cond:
            idle, busy = self._idle, list(self._busy)
            self._idle = []
            self._live -= len(idle)
            self._cond.notify_all()
        for worker in busy:
            worker.signal_kill()
        for worker in idle:
            worker.close()
        deadline = time.monotonic() + 0.5
        for worker in idle:
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            worker.kill()

    def after_fork(self) -> None:
        """In a forked child: the workers are the parent's; start from an empty pool."""
        for worker in [*self._idle, *self._busy]:
            worker.forget()
            self._forgotten.append(worker)  # kept so that no Popen is collected and reaped
        self._cond = threading.Condition()
        self._idle, self._busy, self._live = [], set(), 0


_pool = _Pool(MAX_WORKERS)
atexit.register(_pool.shutdown)
os.register_at_fork(after_in_child=_pool.after_fork)


def _request(fields: dict[str, Any], time_limit_s: float, context: str | None = None) -> Any:
    """Send a request to a worker and return its `ok` value.

    Args:
        fields: The request (see `engine.js.worker`).
        time_limit_s: QuickJS's limit, from which the deadline is computed.
        context: `$js`'s `context` JSON text (ASCII), sent unless the worker has it already.

    Raises:
        JSEngineError: QuickJS stopped the run (its own kind), the worker was killed at the
            deadline (`timeout`), or it died, could not start or answered out of protocol
            (`engine`).
    """
    limit = kill_after(time_limit_s)
    fields["kill_after_s"] = limit
    worker = _pool.acquire()
    reusable = False
    try:
        extra = b""
        if context is not None and context != worker.context:
            extra = context.encode("ascii")
            fields["context_bytes"] = len(extra)
        data = (json.dumps(fields, ensure_ascii=True) + "\n").encode("ascii") + extra
        line = worker.exchange(data, time.monotonic() + limit)
        try:
            answer = json.loads(line)
        except ValueError:
            raise _Broken("the JavaScript process sent an unreadable answer") from None
        if isinstance(answer, dict) and len(answer) == 1:
            if context is not None:
                worker.context = context  # it has read the whole request
            if "ok" in answer:
                reusable = True
                return answer["ok"]
            error = answer.get("err")
            if (
                isinstance(error, list)
                and len(error) == 2
                and all(isinstance(e, str) for e in error)
            ):
                reusable = True
                raise JSEngineError(error[0], error[1])
            if isinstance(answer.get("fail"), str):
                reusable = True
                raise JSEngineError("engine", f"the JavaScript process failed: {answer['fail']}")
        raise _Broken("the JavaScript process sent an unreadable answer")
    except _Late:
        raise JSEngineError(
            "timeout", f"the JavaScript process did not answer within {limit:g} s"
        ) from None
    except _Broken as exc:
        raise JSEngineError("engine", exc.message) from None
    finally:
        _pool.release(worker, reusable)


def evaluate_js(
    source: str, text: str, context: str, *, time_limit_s: float, memory_limit: int
) -> Any:
    """Run a `$js` source in a worker; return what `worker.evaluate_js` returns there.

    Args:
        source: The blueprint's JavaScript.
        text: The response (`r`, `response`).
        context: `context` as JSON text (`CheckContext.js_context`).
        time_limit_s: QuickJS's time limit; the worker is killed `kill_after` it.
        memory_limit: QuickJS's heap limit in bytes.

    Raises:
        JSEngineError: The worker was killed at the deadline (`timeout`) or failed (`engine`);
            limits QuickJS enforced itself come back as `$js` results, as in-process.
    """
    fields = {
        "op": "js",
        "source": source,
        "text": text,
        "time_limit_s": time_limit_s,
        "memory_limit": memory_limit,
    }
    return _request(fields, time_limit_s, context)


def run_fresh(
    harness: str,
    payload: Any,
    *,
    time_limit_s: float = TIME_LIMIT_S,
    memory_limit: int = MEMORY_LIMIT,
    stack_limit: int = STACK_LIMIT,
) -> Any:
    """`engine.js.engine.run_fresh` in a worker: run `harness` over `payload` in a fresh context.

    Raises:
        JSEngineError: As `engine.js.engine.run_fresh`, or the worker was killed at the deadline
            (`timeout`) or failed (`engine`).
    """
    fields = {
        "op": "fresh",
        "harness": harness,
        "payload": payload,
        "time_limit_s": time_limit_s,
        "memory_limit": memory_limit,
        "stack_limit": stack_limit,
    }
    return _request(fields, time_limit_s)


def busy_pids() -> list[int]:
    """Process ids of the workers running a request now (for diagnostics and tests)."""
    return _pool.busy_pids()


def shutdown() -> None:
    """Stop every worker now (also done at exit); later requests start new ones."""
    _pool.shutdown()
