"""Form edit speed: one edit on a generated 2,000-prompt blueprint, applied and re-linted.

Prints the median time of `EditSession.apply` (the edit made on the YAML text and the
diagnostics brought up to date) for a few kinds of edit, beside a full `lint` of the same
text in the same process (the baseline), and the ratio. Target: <= 200 ms per edit.
Run: python -m bench.form
"""

from __future__ import annotations

import sys
import time

from bench.common import generated_blueprint, median_seconds
from engine.edit import AddPoint, PointRef, PointSpec, SetPointWeight, SetPromptField
from engine.edit.form import prompt_view
from engine.edit.session import EditSession
from engine.lint import lint
from engine.settings import Settings

SETTINGS = Settings()
TARGET_S = 0.200


def main() -> int:
    """Run the form benchmark; exit 1 when the target is missed."""
    text = generated_blueprint(2000)
    print(f"generated blueprint: {len(text.splitlines())} lines, {len(text) / 1024:.0f} KiB")
    baseline = median_seconds(lambda: lint(text, settings=SETTINGS), repeat=5, warmup=1)
    print(f"baseline: full lint {baseline * 1000:7.1f} ms")
    start = time.perf_counter()
    session = EditSession(text, settings=SETTINGS)
    _ = session.layout
    print(
        f"open the form (lint + layout, once per text) {(time.perf_counter() - start) * 1000:7.1f} ms"
    )
    edits = {
        "set a prompt field": lambda i: SetPromptField(i, "ideal", f"Ideal answer {i}."),
        "add a point": lambda i: AddPoint(i, PointSpec(text=f"Mentions fact {i}.")),
        "weigh a point": lambda i: SetPointWeight(PointRef(i, 0), 2 + i % 3),
    }
    ok = True
    for name, make in edits.items():
        counter = iter(range(10**6))

        def one(make=make, counter=counter) -> None:
            i = next(counter)
            session.apply(make((i * 617) % 2000))

        spent = median_seconds(one, repeat=15, warmup=2)
        met = spent <= TARGET_S
        ok = ok and met
        print(
            f"{name:<22} applied + re-linted {spent * 1000:7.1f} ms | full lint "
            f"{baseline * 1000:7.1f} ms (ratio {spent / baseline:4.2f}x) | target <= "
            f"{TARGET_S * 1000:.0f} ms {'OK' if met else 'MISSED'}"
        )
    view = median_seconds(lambda: prompt_view(session, 1234), repeat=15, warmup=2)
    print(f"form view of one prompt {view * 1000:7.1f} ms")
    exact = list(session.diagnostics) == lint(session.text, settings=SETTINGS)
    print(f"diagnostics after {session.full_lints} full re-lints equal a full lint: {exact}")
    return 0 if ok and exact else 1


if __name__ == "__main__":
    sys.exit(main())
