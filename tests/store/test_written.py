"""`Written` behaves as `concurrent.futures.Future` does for everything the store asks of it."""

from __future__ import annotations

import threading
import time
from concurrent.futures import CancelledError, Future, InvalidStateError

import pytest

from engine.errors import StoreError
from engine.store.written import Written


@pytest.fixture(params=[Future, Written], ids=["Future", "Written"])
def make(request: pytest.FixtureRequest) -> type[Future[None]]:
    return request.param  # type: ignore[no-any-return]


def test_a_committed_write(make: type[Future[None]]) -> None:
    future = make()
    assert not future.done() and not future.running() and not future.cancelled()
    assert future.set_running_or_notify_cancel() and future.running()
    future.set_result(None)
    assert future.done() and future.result(timeout=0) is None and future.exception() is None


def test_a_failed_write_raises_its_error(make: type[Future[None]]) -> None:
    future = make()
    future.set_running_or_notify_cancel()
    future.set_exception(StoreError("the disk is full"))
    assert isinstance(future.exception(), StoreError)
    with pytest.raises(StoreError, match="disk is full"):
        future.result()


def test_a_queued_write_can_be_cancelled_a_running_one_cannot(make: type[Future[None]]) -> None:
    queued, running = make(), make()
    assert queued.cancel() and queued.cancelled() and queued.done()
    assert not queued.set_running_or_notify_cancel()  # the writer sees it was cancelled
    with pytest.raises(CancelledError):
        queued.result()
    running.set_running_or_notify_cancel()
    assert not running.cancel() and not running.cancelled()


def test_result_waits_for_the_writer_thread_or_times_out(make: type[Future[None]]) -> None:
    future = make()
    with pytest.raises(TimeoutError):
        future.result(timeout=0.05)
    timer = threading.Timer(0.05, future.set_result, (None,))
    timer.start()
    started = time.monotonic()
    assert future.result(timeout=10) is None
    assert time.monotonic() - started < 5
    timer.join()


def test_callbacks_run_once_after_or_at_once(make: type[Future[None]]) -> None:
    seen: list[str] = []
    future = make()
    future.add_done_callback(lambda f: seen.append("before"))
    future.set_result(None)
    future.add_done_callback(lambda f: seen.append("after"))
    assert seen == ["before", "after"]


def test_settling_twice_is_refused(make: type[Future[None]]) -> None:
    future = make()
    future.set_result(None)
    with pytest.raises(InvalidStateError):
        future.set_exception(StoreError("late"))
