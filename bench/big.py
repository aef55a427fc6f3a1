"""A 50 MB blueprint: time and peak memory of lint and normalize beside a bare YAML/JSON load.

Each operation runs in its own forked child, so its peak resident memory (`ru_maxrss`) is
its own; the baselines (`yaml.load` with CSafeLoader, `json.loads` of the same content)
run the same way in the same session, so ratios are comparable on a busy machine.
Run: python -m bench.big [MEGABYTES]
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import sys
import time
from collections.abc import Callable

from bench.common import generated_blueprint

os.environ.setdefault("BLUEPRINT_MAX_INPUT_MB", "200")  # above the 32 MB default


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _in_child(work: Callable[[], object]) -> tuple[float, float, float]:
    """Run `work` in a forked child; return (seconds, peak RSS MB, RSS growth MB)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: time the work, report, and leave without cleanup
        os.close(read)
        before = _rss_mb()
        start = time.perf_counter()
        work()
        os.write(write, f"{time.perf_counter() - start} {before}".encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        seconds, before = (float(x) for x in (pipe.read() or "nan nan").split())
    _, _, usage = os.wait4(pid, 0)
    peak = usage.ru_maxrss / 1024
    return seconds, peak, peak - before


def _normalize(text: str) -> None:
    from engine.blueprint import parse_blueprint
    from engine.js.values import js_clean

    json.dumps(js_clean(parse_blueprint(text).to_weval()), indent=2, ensure_ascii=False)


def _lint(text: str) -> None:
    from engine.lint import lint
    from engine.settings import Settings

    try:
        settings = Settings(max_input_mb=200)
    except TypeError:  # an engine from before the input size limit
        settings = Settings()
    lint(text, settings=settings)


def main() -> int:
    """Print one row per operation: seconds, peak RSS, and both as ratios to the bare load."""
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else 50.0
    unit = generated_blueprint(1000)
    text = generated_blueprint(max(1, round(1000 * megabytes * 2**20 / len(unit))))
    as_json = _as_json(text)
    print(f"blueprint: {len(text) / 2**20:.1f} MB, {text.count(chr(10)):,} lines", flush=True)
    import engine.blueprint
    import engine.lint  # noqa: F401

    rows = [
        ("bare yaml.load (CSafeLoader)", lambda: _bare_yaml(text)),
        ("bare json.loads (same content)", lambda: json.loads(as_json)),
        ("lint", lambda: _lint(text)),
        ("normalize (parse + weval JSON)", lambda: _normalize(text)),
    ]
    threshold = getattr(importlib.import_module("engine.cli"), "GC_THRESHOLD", None)
    if threshold is not None:  # as `blueprint lint|normalize` run: the CLI's GC setting
        rows += [
            ("lint, CLI GC setting", lambda: _with_gc(threshold, lambda: _lint(text))),
            ("normalize, CLI GC setting", lambda: _with_gc(threshold, lambda: _normalize(text))),
        ]
    base_s = base_mb = 0.0
    for name, work in rows:
        seconds, peak, growth = _in_child(work)
        if not base_s:
            base_s, base_mb = seconds, growth
        print(
            f"{name:<32} {seconds:7.2f} s ({seconds / base_s:4.1f}x) | peak RSS {peak:6.0f} MB, "
            f"of which the work {growth:6.0f} MB ({growth / base_mb:4.1f}x)",
            flush=True,
        )
    return 0


def _with_gc(threshold: int, work: Callable[[], object]) -> None:
    gc.set_threshold(threshold, *gc.get_threshold()[1:])
    work()


def _as_json(text: str) -> str:
    """The same content as JSON, built in a child so this process stays small."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        with os.fdopen(write, "w", encoding="utf-8") as pipe:
            pipe.write(json.dumps(_bare_yaml(text), default=str))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        out = pipe.read()
    os.waitpid(pid, 0)
    return out


def _bare_yaml(text: str) -> object:
    import yaml

    return list(yaml.load_all(text, Loader=yaml.CSafeLoader))


if __name__ == "__main__":
    sys.exit(main())
