"""`ast.parse` in a thread of its own, for tests that read the project's source.

CPython 3.11.7 can refuse a valid file with "SystemError: AST constructor recursion depth
mismatch" when the calling thread's recursion counter was left off by an earlier caught
RecursionError (the hostile-input tests provoke them on purpose); a new thread starts with a
counter of its own.
"""

from __future__ import annotations

import ast
import threading


def parse_source(text: str) -> ast.Module:
    """Parse `text` as `ast.parse` does, in a new thread."""
    result: list[ast.Module] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(ast.parse(text))
        except BaseException as exc:  # handed to the caller
            failure.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]
