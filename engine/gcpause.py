"""`gc_paused()`: pause the cyclic garbage collector around bursts of short-lived allocations."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small acyclic objects.

    Parsing and scoring allocate hundreds of thousands of small, acyclic, short-lived
    objects; the collections their allocation triggers made a large blueprint parse about
    twice as slowly and offline scoring 1.7 times as slowly. Reference counting still frees
    everything; the collector is re-enabled (if it was enabled) on exit.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
