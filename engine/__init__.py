"""Blueprint Studio engine: parse, lint, check, judge, score, run and report Weval blueprints.

Everything a caller (the CLI, the studio, a script) needs is importable from here; the names
are listed in `__all__`. Submodules are imported on first use, so `import engine` stays fast
for the command line (scoring a file must not pay for the HTTP client or the linter).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.assessment import (
        EvidenceRef,
        Finding,
        IndividualJudgement,
        PointAssessment,
    )
    from engine.blueprint import (
        Blueprint,
        Message,
        Point,
        Prompt,
        Span,
        blueprint_id_from_path,
        hash_prompt_id,
        load_blueprint,
        parse_blueprint,
    )
    from engine.checks import (
        CheckDef,
        CheckEnv,
        call_host_refusal,
        evaluate_function_points,
        evaluate_point,
        function_names,
        js_regex_error,
        js_syntax_error,
        lookup,
    )
    from engine.conversation import (
        build_evidence,
    )
    from engine.errors import (
        BlueprintError,
        ConfigError,
        EngineError,
        InputError,
        MissingKeyError,
        ProviderError,
        StoreError,
        UnknownProviderError,
    )
    from engine.evidence import (
        Evidence,
        ToolCall,
    )
    from engine.judge import (
        ConsensusJudge,
        JudgeSpec,
        parse_judgement,
    )
    from engine.lint import (
        Diagnostic,
        apply_fix,
        authoring_schema,
        lint,
    )
    from engine.modelids import (
        PROVIDERS,
        base_model_id,
        split_model_id,
    )
    from engine.offline import (
        build_comparison,
        score_cell,
        score_rows,
    )
    from engine.providers import (
        ChatRequest,
        ChatResponse,
        PriceTable,
        ProviderCallError,
        ProviderPool,
        ProviderStats,
        Usage,
        estimate_tokens,
    )
    from engine.report import (
        IDEAL_MODEL_ID,
        Comparison,
        comparison_csv,
        read_comparison,
        render_html,
    )
    from engine.responses import (
        ResponseRow,
        RowProblem,
        read_responses,
    )
    from engine.run import (
        Estimate,
        Progress,
        RunOptions,
        RunPlan,
        comparison_from_rows,
        plan_run,
        prepare_run,
        resume_options,
        run_in_thread,
        studio_link,
    )
    from engine.run.service import (
        PreparedRun,
        prepare_resume,
        run_sync,
        stop_run,
    )
    from engine.scoring import (
        CellScore,
        ModelSummary,
        ScoreExplanation,
        aggregate,
        explain,
        summarize_models,
    )
    from engine.settings import (
        Settings,
        home_dir,
        load_settings,
    )
    from engine.store import (
        RunRecord,
        Store,
    )

_WHERE: dict[str, str] = {
    "EvidenceRef": "engine.assessment",
    "Finding": "engine.assessment",
    "IndividualJudgement": "engine.assessment",
    "PointAssessment": "engine.assessment",
    "Blueprint": "engine.blueprint",
    "Message": "engine.blueprint",
    "Point": "engine.blueprint",
    "Prompt": "engine.blueprint",
    "Span": "engine.blueprint",
    "blueprint_id_from_path": "engine.blueprint",
    "hash_prompt_id": "engine.blueprint",
    "load_blueprint": "engine.blueprint",
    "parse_blueprint": "engine.blueprint",
    "CheckDef": "engine.checks",
    "CheckEnv": "engine.checks",
    "call_host_refusal": "engine.checks",
    "evaluate_function_points": "engine.checks",
    "evaluate_point": "engine.checks",
    "function_names": "engine.checks",
    "js_regex_error": "engine.checks",
    "js_syntax_error": "engine.checks",
    "lookup": "engine.checks",
    "build_evidence": "engine.conversation",
    "BlueprintError": "engine.errors",
    "ConfigError": "engine.errors",
    "EngineError": "engine.errors",
    "InputError": "engine.errors",
    "MissingKeyError": "engine.errors",
    "ProviderError": "engine.errors",
    "StoreError": "engine.errors",
    "UnknownProviderError": "engine.errors",
    "Evidence": "engine.evidence",
    "ToolCall": "engine.evidence",
    "ConsensusJudge": "engine.judge",
    "JudgeSpec": "engine.judge",
    "parse_judgement": "engine.judge",
    "Diagnostic": "engine.lint",
    "apply_fix": "engine.lint",
    "authoring_schema": "engine.lint",
    "lint": "engine.lint",
    "PROVIDERS": "engine.modelids",
    "base_model_id": "engine.modelids",
    "split_model_id": "engine.modelids",
    "build_comparison": "engine.offline",
    "score_cell": "engine.offline",
    "score_rows": "engine.offline",
    "ChatRequest": "engine.providers",
    "ChatResponse": "engine.providers",
    "PriceTable": "engine.providers",
    "ProviderCallError": "engine.providers",
    "ProviderPool": "engine.providers",
    "ProviderStats": "engine.providers",
    "Usage": "engine.providers",
    "estimate_tokens": "engine.providers",
    "Comparison": "engine.report",
    "IDEAL_MODEL_ID": "engine.report",
    "comparison_csv": "engine.report",
    "read_comparison": "engine.report",
    "render_html": "engine.report",
    "ResponseRow": "engine.responses",
    "RowProblem": "engine.responses",
    "read_responses": "engine.responses",
    "Estimate": "engine.run",
    "Progress": "engine.run",
    "RunOptions": "engine.run",
    "RunPlan": "engine.run",
    "comparison_from_rows": "engine.run",
    "plan_run": "engine.run",
    "prepare_run": "engine.run",
    "resume_options": "engine.run",
    "run_in_thread": "engine.run",
    "studio_link": "engine.run",
    "run_sync": "engine.run.service",
    "stop_run": "engine.run.service",
    "prepare_resume": "engine.run.service",
    "PreparedRun": "engine.run.service",
    "CellScore": "engine.scoring",
    "ModelSummary": "engine.scoring",
    "ScoreExplanation": "engine.scoring",
    "aggregate": "engine.scoring",
    "explain": "engine.scoring",
    "summarize_models": "engine.scoring",
    "Settings": "engine.settings",
    "home_dir": "engine.settings",
    "load_settings": "engine.settings",
    "RunRecord": "engine.store",
    "Store": "engine.store",
}

__all__ = [
    "IDEAL_MODEL_ID",
    "PROVIDERS",
    "Blueprint",
    "BlueprintError",
    "CellScore",
    "ChatRequest",
    "ChatResponse",
    "CheckDef",
    "CheckEnv",
    "Comparison",
    "ConfigError",
    "ConsensusJudge",
    "Diagnostic",
    "EngineError",
    "Estimate",
    "Evidence",
    "EvidenceRef",
    "Finding",
    "IndividualJudgement",
    "InputError",
    "JudgeSpec",
    "Message",
    "MissingKeyError",
    "ModelSummary",
    "Point",
    "PointAssessment",
    "PreparedRun",
    "PriceTable",
    "Progress",
    "Prompt",
    "ProviderCallError",
    "ProviderError",
    "ProviderPool",
    "ProviderStats",
    "ResponseRow",
    "RowProblem",
    "RunOptions",
    "RunPlan",
    "RunRecord",
    "ScoreExplanation",
    "Settings",
    "Span",
    "Store",
    "StoreError",
    "ToolCall",
    "UnknownProviderError",
    "Usage",
    "aggregate",
    "apply_fix",
    "authoring_schema",
    "base_model_id",
    "blueprint_id_from_path",
    "build_comparison",
    "build_evidence",
    "call_host_refusal",
    "comparison_csv",
    "comparison_from_rows",
    "estimate_tokens",
    "evaluate_function_points",
    "evaluate_point",
    "explain",
    "function_names",
    "hash_prompt_id",
    "home_dir",
    "js_regex_error",
    "js_syntax_error",
    "lint",
    "load_blueprint",
    "load_settings",
    "lookup",
    "parse_blueprint",
    "parse_judgement",
    "plan_run",
    "prepare_resume",
    "prepare_run",
    "read_comparison",
    "read_responses",
    "render_html",
    "resume_options",
    "run_in_thread",
    "run_sync",
    "score_cell",
    "score_rows",
    "split_model_id",
    "stop_run",
    "studio_link",
    "summarize_models",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use (PEP 562)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
