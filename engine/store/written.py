"""`Written`: the future of one queued write, `concurrent.futures.Future`'s interface made cheap."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, InvalidStateError
from typing import Any

__all__ = ["Written"]

_PENDING, _RUNNING, _CANCELLED, _FINISHED = "PENDING", "RUNNING", "CANCELLED", "FINISHED"


class Written(Future[None]):
    """The outcome of one write: `Future`'s methods, without the cost of a `Future`.

    A run makes two writes per cell, each with a future that is almost never waited on by a
    thread (the event loop hears of a whole batch at once, see `BatchWriter.committed`).
    `Future()` builds a `threading.Condition` for each; this holds a plain lock and makes an
    event only when a thread blocks in `result` or `exception` (a warm run of 900 cells:
    2.3% fewer instructions). Not for `concurrent.futures.wait` or `as_completed`, which need
    the condition (nothing here uses them).
    """

    def __init__(self) -> None:  # Future.__init__ is left out on purpose: it is the cost
        self._lock = threading.Lock()
        self._state = _PENDING
        self._error: BaseException | None = None
        self._event: threading.Event | None = None
        self._callbacks: list[Callable[[Future[None]], object]] = []

    def __repr__(self) -> str:
        return f"<Written state={self._state.lower()}>"

    def cancel(self) -> bool:
        """Cancel the write unless it is being made or made; True if it is cancelled."""
        with self._lock:
            if self._state in (_RUNNING, _FINISHED):
                return False
            if self._state == _PENDING:
                self._state = _CANCELLED
                self._settled()
        self._call_back()
        return True

    def cancelled(self) -> bool:
        """Whether the write was cancelled."""
        return self._state == _CANCELLED

    def running(self) -> bool:
        """Whether the write is being made."""
        return self._state == _RUNNING

    def done(self) -> bool:
        """Whether the write was cancelled, committed or failed."""
        return self._state in (_CANCELLED, _FINISHED)

    def _wait(self, timeout: float | None) -> None:
        if self.done():
            return
        with self._lock:
            if self._event is None:
                self._event = threading.Event()
            event = self._event
            if self.done():
                return
        if not event.wait(timeout):
            raise TimeoutError

    def result(self, timeout: float | None = None) -> None:
        """Wait for the write; return None once committed.

        Raises:
            CancelledError: The write was cancelled.
            TimeoutError: It was not over within `timeout` seconds.
            StoreError: The write failed (the exception set by the writer).
        """
        self._wait(timeout)
        if self._state == _CANCELLED:
            raise CancelledError
        if self._error is not None:
            raise self._error

    def exception(self, timeout: float | None = None) -> BaseException | None:
        """Wait for the write; return its failure, or None once committed.

        Raises:
            CancelledError: The write was cancelled.
            TimeoutError: It was not over within `timeout` seconds.
        """
        self._wait(timeout)
        if self._state == _CANCELLED:
            raise CancelledError
        return self._error

    def add_done_callback(self, fn: Callable[[Future[None]], object]) -> None:
        """Call `fn(self)` when the write is over (now, if it is)."""
        with self._lock:
            if not self.done():
                self._callbacks.append(fn)
                return
        fn(self)

    def set_running_or_notify_cancel(self) -> bool:
        """Mark the write as being made; False if it was cancelled first."""
        with self._lock:
            if self._state == _CANCELLED:
                return False
            if self._state != _PENDING:
                raise RuntimeError(f"the write is {self._state.lower()} already")
            self._state = _RUNNING
            return True

    def set_result(self, result: None) -> None:
        """Mark the write committed."""
        self._finish(None)

    def set_exception(self, exception: BaseException | None) -> None:
        """Mark the write failed with `exception`."""
        self._finish(exception)

    def _finish(self, error: BaseException | None) -> None:
        with self._lock:
            if self.done():
                raise InvalidStateError(f"the write is {self._state.lower()} already")
            self._error = error
            self._state = _FINISHED
            self._settled()
        self._call_back()

    def _settled(self) -> None:
        """Wake the threads waiting (the lock is held)."""
        if self._event is not None:
            self._event.set()

    def _call_back(self) -> None:
        callbacks, self._callbacks = self._callbacks, []
        for fn in callbacks:
            try:
                fn(self)
            except Exception:  # as Future does: a failing callback never stops the writer
                _log_callback_error(fn)


def _log_callback_error(fn: Any) -> None:
    import logging

    logging.getLogger("concurrent.futures").exception("exception calling callback for %r", fn)
