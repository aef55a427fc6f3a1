"""Running a coroutine to its end from synchronous code, whether or not the thread runs a loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["run_to_end"]

T = TypeVar("T")


def run_to_end(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine `make()` builds on a fresh event loop and return its result.

    `asyncio.run` refuses to start inside a thread whose event loop is running (a caller
    driven by Playwright's or a notebook's loop, or a test runner's); there the coroutine
    runs on its own loop in a new thread, and this call waits for it. Exceptions reach the
    caller either way.

    Args:
        make: Builds the coroutine (called in the thread that runs it).

    Returns:
        What the coroutine returned.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    result: list[T] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(asyncio.run(make()))
        except BaseException as exc:  # handed to the caller below
            failure.append(exc)

    thread = threading.Thread(target=work, name="blueprint-run-to-end")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]
