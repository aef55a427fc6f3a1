"""Runs: the plan (matrix, calls, cost), the call layer (log, cache, provider), execution.

May import: `engine.comparison`, `engine.summary` and everything below them; never
`engine.compare`, `engine.report` or the command line.

The names load on first use (PEP 562): a run without judges imports neither the judges nor
key-point extraction, similarity or re-scoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from engine.run.assemble import replay_rows, stored_comparison
    from engine.run.calls import Caller, CallEvent, CallResult, RunStopped, call_key, judge_request
    from engine.run.estimate import Estimate, estimate_run
    from engine.run.execute import execute_run
    from engine.run.keypoints import logged_key_points, run_key_points
    from engine.run.outcome import Progress, RunOptions, RunOutcome
    from engine.run.plan import (
        CellPlan,
        RunPlan,
        judges_for,
        plan_run,
        prompt_problems,
        resolve_models,
    )
    from engine.run.service import (
        PreparedRun,
        default_out_dir,
        prepare_resume,
        prepare_run,
        resume_options,
        run_in_thread,
        run_sync,
        stop_run,
        studio_link,
    )

_HOMES = {
    "replay_rows": "assemble",
    "stored_comparison": "assemble",
    "CallEvent": "calls",
    "CallResult": "calls",
    "Caller": "calls",
    "RunStopped": "calls",
    "call_key": "calls",
    "judge_request": "calls",
    "Estimate": "estimate",
    "estimate_run": "estimate",
    "execute_run": "execute",
    "logged_key_points": "keypoints",
    "run_key_points": "keypoints",
    "Progress": "outcome",
    "RunOptions": "outcome",
    "RunOutcome": "outcome",
    "CellPlan": "plan",
    "RunPlan": "plan",
    "judges_for": "plan",
    "plan_run": "plan",
    "prompt_problems": "plan",
    "resolve_models": "plan",
    "PreparedRun": "service",
    "default_out_dir": "service",
    "prepare_resume": "service",
    "prepare_run": "service",
    "resume_options": "service",
    "run_in_thread": "service",
    "run_sync": "service",
    "stop_run": "service",
    "studio_link": "service",
}

__all__ = [
    "CallEvent",
    "CallResult",
    "Caller",
    "CellPlan",
    "Estimate",
    "PreparedRun",
    "Progress",
    "RunOptions",
    "RunOutcome",
    "RunPlan",
    "RunStopped",
    "call_key",
    "default_out_dir",
    "estimate_run",
    "execute_run",
    "judge_request",
    "judges_for",
    "logged_key_points",
    "plan_run",
    "prepare_resume",
    "prepare_run",
    "prompt_problems",
    "replay_rows",
    "resolve_models",
    "resume_options",
    "run_in_thread",
    "run_key_points",
    "run_sync",
    "stop_run",
    "stored_comparison",
    "studio_link",
]


__getattr__ = lazy_names(__name__, _HOMES)
