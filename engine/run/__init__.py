"""Runs: the plan (matrix, calls, cost), the call layer (log, cache, provider), execution."""

from engine.run.assemble import comparison_from_rows, replay_rows, stored_comparison
from engine.run.calls import Caller, CallEvent, CallResult, RunStopped, call_key, judge_request
from engine.run.estimate import Estimate, estimate_run
from engine.run.execute import execute_run
from engine.run.keypoints import logged_key_points, run_key_points
from engine.run.outcome import Progress, RunOptions, RunOutcome
from engine.run.plan import CellPlan, RunPlan, judges_for, plan_run, prompt_problems, resolve_models
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
    "comparison_from_rows",
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
