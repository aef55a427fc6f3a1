"""Typed evidence evaluators: required/forbidden text and tools, max duration, schema, tool errors.

Discipline (from the `exact` evaluators this follows):

* a vacuous configuration (no substrings, an empty tool name, a limit <= 0, a rate outside
  [0, 1]) is `errored` with a `config_error` finding, never a pass;
* missing evidence (no timings, no schema anywhere, no tool operations) is `unverified`,
  decided before evaluating, never a pass and never a fail;
* every failure carries findings whose evidence ids resolve to `EvidenceRef`s in the same
  assessment;
* reflections and findings never quote model output or tool content: only counts, fixed
  tokens, hashes, byte counts and the user's own arguments.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any, Final, cast

from engine.assessment import EvidenceRef, Finding
from engine.checks.context import CheckContext
from engine.checks.outcome import Outcome
from engine.checks.text import is_number, js_json_parse

__all__ = [
    "forbidden_text",
    "forbidden_tool",
    "max_duration",
    "required_text",
    "required_tool",
    "schema_result",
    "text_list_error",
    "tool_error_rate",
]


def _ref(
    ref_id: str,
    kind: Any,
    material: str,
    *,
    message_index: int | None = None,
    excerpt: str | None = None,
    detail: str | None = None,
) -> EvidenceRef:
    data = material.encode("utf-8", "surrogatepass")
    return EvidenceRef(
        id=ref_id,
        kind=kind,
        message_index=message_index,
        byte_count=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        excerpt=excerpt if excerpt is not None else f"[{len(data):,} bytes]",
        detail=detail,
    )


def _config_error(message: str) -> Outcome:
    finding = Finding(code="config_error", message=message)
    return Outcome(status="errored", error=message, reflection=message, findings=(finding,))


def _unverified(code: str, message: str) -> Outcome:
    return Outcome(
        status="unverified", reflection=message, findings=(Finding(code=code, message=message),)
    )


def _passed(reflection: str) -> Outcome:
    return Outcome(status="scored", score=1.0, reflection=reflection)


def _failed(reflection: str, findings: list[Finding], refs: list[EvidenceRef]) -> Outcome:
    return Outcome(
        status="scored",
        score=0.0,
        reflection=reflection,
        findings=tuple(findings),
        evidence=tuple(refs),
    )


def text_list_error(name: str) -> Any:
    """Validator: a non-empty list of non-empty strings."""

    def check(args: Any, has_args: bool) -> str | None:
        if isinstance(args, list) and args and all(isinstance(s, str) and s for s in args):
            return None
        return f"'{name}' needs a non-empty list of non-empty strings, e.g. [\"refund\"]."

    return check


def _assistant_turns(ctx: CheckContext) -> list[tuple[int | None, str]]:
    """The generated assistant turns (index, text); the subject text if none are recorded."""
    evidence = ctx.evidence
    turns: list[tuple[int | None, str]] = []
    for index in evidence.generated_indices:
        if 0 <= index < len(evidence.messages):
            message = evidence.messages[index]
            content = message.get("content")
            if message.get("role") == "assistant" and isinstance(content, str):
                turns.append((index, content))
    return turns or [(None, evidence.text)]


def _text_check(args: Any, ctx: CheckContext, *, name: str, forbidden: bool) -> Outcome:
    problem = text_list_error(name)(args, True)
    if problem:
        return _config_error(problem)
    turns = _assistant_turns(ctx)
    total = sum(len(t.encode("utf-8", "surrogatepass")) for _, t in turns)
    findings: list[Finding] = []
    refs: list[EvidenceRef] = []
    for needle in args:
        hits = [(i, t, t.find(needle)) for i, t in turns if needle in t]
        if forbidden and hits:
            ids = []
            for index, turn, at in hits:
                before = len(turn[:at].encode("utf-8", "surrogatepass"))
                after = len(turn[at + len(needle) :].encode("utf-8", "surrogatepass"))
                ref_id = f"ev{len(refs) + 1}"
                excerpt = f"[{before:,} bytes] {needle} [{after:,} bytes]"
                kind = "message" if index is not None else "output"
                refs.append(_ref(ref_id, kind, turn, message_index=index, excerpt=excerpt))
                ids.append(ref_id)
            message = f"Forbidden text '{needle}' appears in {len(hits)} assistant turn(s)."
            findings.append(Finding(code="forbidden_text", message=message, evidence=ids))
        elif not forbidden and not hits:
            ids = []
            for index, turn in turns:
                ref_id = f"ev{len(refs) + 1}"
                kind = "message" if index is not None else "output"
                refs.append(_ref(ref_id, kind, turn, message_index=index))
                ids.append(ref_id)
            message = f"Required text '{needle}' was not found in {len(turns)} assistant turn(s)."
            findings.append(Finding(code="required_text_missing", message=message, evidence=ids))
    summary = f"{len(args)} substring(s) over {len(turns)} assistant turn(s), {total:,} bytes"
    if findings:
        return _failed(f"{len(findings)} of {summary} failed.", findings, refs)
    verdict = "none appears" if forbidden else "all appear"
    return _passed(f"Checked {summary}: {verdict}.")


def required_text(text: str, args: Any, ctx: CheckContext) -> Outcome:
    """Every substring appears in the assistant's output (never the user's turns)."""
    return _text_check(args, ctx, name="required_text", forbidden=False)


def forbidden_text(text: str, args: Any, ctx: CheckContext) -> Outcome:
    """No substring appears in the assistant's output (never the user's turns)."""
    return _text_check(args, ctx, name="forbidden_text", forbidden=True)


def tool_name_error(args: Any, has_args: bool) -> str | None:
    """Validator: a non-empty tool name."""
    if isinstance(args, str) and args.strip():
        return None
    return "A tool name (a non-empty string) is required, e.g. $required_tool: lookup_account."


def _source(ctx: CheckContext) -> str:
    calls = ctx.tool_calls
    return calls[0].source if calls else ("native" if ctx.evidence.tool_calls else "trace")


def _call_ref(ref_id: str, position: int, call: Any) -> EvidenceRef:
    material = json.dumps(call.arguments, sort_keys=True, default=str)
    detail = f"tool call #{position + 1} ({call.source})"
    return _ref(ref_id, "tool_call", material, message_index=call.message_index, detail=detail)


def _tool_check(args: Any, ctx: CheckContext, *, forbidden: bool) -> Outcome:
    problem = tool_name_error(args, True)
    if problem:
        return _config_error(problem)
    calls = ctx.tool_calls
    named = [(i, c) for i, c in enumerate(calls) if c.name == args]
    counted = f"{len(calls)} tool call(s) recorded ({_source(ctx)})"
    if forbidden and named:
        refs = [_call_ref(f"ev{k + 1}", i, c) for k, (i, c) in enumerate(named)]
        message = f"Forbidden tool '{args}' was called {len(named)} time(s)."
        finding = Finding(code="forbidden_tool", message=message, evidence=[r.id for r in refs])
        return _failed(f"{message} {counted}.", [finding], refs)
    if not forbidden and not named:
        ref = _ref("ev1", "conversation", str(len(calls)), detail=counted)
        message = f"Required tool '{args}' was not called; {counted}."
        finding = Finding(code="required_tool_missing", message=message, evidence=["ev1"])
        return _failed(message, [finding], [ref])
    verdict = f"called {len(named)} time(s)" if named else "not called"
    return _passed(f"Tool '{args}' {verdict}; {counted}.")


def required_tool(text: str, args: Any, ctx: CheckContext) -> Outcome:
    """A tool call with this name appears (native calls, else the TOOL_CALL trace)."""
    return _tool_check(args, ctx, forbidden=False)


def forbidden_tool(text: str, args: Any, ctx: CheckContext) -> Outcome:
    """No tool call with this name appears (alias `$no_tool_call`)."""
    return _tool_check(args, ctx, forbidden=True)


_DURATION: Final = re.compile(r"\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m)?\s*", re.IGNORECASE)
_UNIT_MS: Final = {"ms": 1.0, "s": 1000.0, "m": 60_000.0}


def parse_duration_ms(args: Any) -> float | None:
    """`"30s"`, `"500ms"`, `"2m"` or a number of milliseconds; None if unusable or <= 0."""
    if is_number(args):
        value = float(args)
    elif isinstance(args, str) and (match := _DURATION.fullmatch(args)):
        value = float(match.group(1)) * _UNIT_MS[(match.group(2) or "ms").lower()]
    else:
        return None
    return value if math.isfinite(value) and value > 0 else None


def duration_error(args: Any, has_args: bool) -> str | None:
    """Validator: a positive duration."""
    if parse_duration_ms(args) is not None:
        return None
    return 'max_duration needs a positive limit such as "30s", "500ms" or 1500 (milliseconds).'


def max_duration(text: str, args: Any, ctx: CheckContext) -> Outcome:
    """The largest recorded timed span is within the limit."""
    limit = parse_duration_ms(args)
    if limit is None:
        return _config_error(duration_error(args, True) or "")
    spans = ctx.evidence.durations_ms
    if not spans:
        return _unverified("no_timing", "No timed spans were recorded for this response.")
    longest = max(range(len(spans)), key=lambda i: spans[i])
    took = spans[longest]
    summary = f"The longest of {len(spans)} recorded span(s) took {took:g} ms (limit {limit:g} ms)"
    if took > limit:
        ref = _ref("ev1", "timing", f"{took!r}", detail=f"span #{longest + 1}: {took:g} ms")
        finding = Finding(code="duration_exceeded", message=summary + ".", evidence=["ev1"])
        return _failed(summary + ".", [finding], [ref])
    return _passed(summary + ".")


def schema_result(text: str, args: Any, ctx: CheckContext) -> Outcome:
    """The structured output (the subject text, parsed as JSON) satisfies the JSON Schema."""
    schema: Any = args
    if args is None:
        schema = ctx.prompt.response_schema if ctx.prompt is not None else None
        schema = schema if schema is not None else ctx.evidence.response_schema
    if schema is not None and not isinstance(schema, dict | bool):
        return _config_error("schema_result needs a JSON Schema object (or no argument).")
    if schema is None:
        return _unverified("no_schema", "No JSON Schema was given (argument or prompt `schema:`).")
    import jsonschema  # imported on first use: most blueprints have no schema

    validator_cls = jsonschema.validators.validator_for(schema)
    try:
        validator_cls.check_schema(cast(Any, schema))
    except jsonschema.SchemaError as exc:
        return _config_error(
            f"The JSON Schema is invalid: `{exc.validator}` at {_path(exc.absolute_schema_path)}."
        )
    output = _ref("ev1", "output", text)
    ok, value = js_json_parse(text)
    if not ok:
        message = "The structured output is not JSON."
        return _failed(
            message, [Finding(code="not_json", message=message, evidence=["ev1"])], [output]
        )
    errors = sorted(
        validator_cls(schema).iter_errors(value), key=lambda e: list(e.absolute_schema_path)
    )
    if not errors:
        return _passed("The structured output satisfies the schema.")
    findings = []
    for error in errors[:5]:
        expected = json.dumps(error.validator_value, default=str)
        expected = expected if len(expected) <= 120 else expected[:117] + "..."
        message = f"`{error.validator}` failed at schema path {_path(error.absolute_schema_path)} (schema: {expected})."
        findings.append(Finding(code="schema_violation", message=message, evidence=["ev1"]))
    return _failed(
        f"{len(errors)} schema violation(s) in the structured output.", findings, [output]
    )


def _path(parts: Any) -> str:
    return "/" + "/".join(str(p) for p in parts) if parts else "/"


def rate_error(args: Any, has_args: bool) -> str | None:
    """Validator: nothing, a rate in [0, 1], or `{max: rate}`."""
    rate = args.get("max") if isinstance(args, dict) else args
    if args is None or (is_number(rate) and 0 <= rate <= 1):
        return None
    return "tool_error_rate takes a maximum rate in [0, 1]: a number such as 0.2, or {max: 0.2}."


def tool_error_rate(text: str, args: Any, ctx: CheckContext) -> Outcome:
    """The share of tool operations that failed; fails when it exceeds the maximum, if given."""
    problem = rate_error(args, True)
    if problem:
        return _config_error(problem)
    limit = args.get("max") if isinstance(args, dict) else args
    calls = ctx.tool_calls
    if not calls:
        return _unverified("no_tool_operations", "No tool operations were recorded or traced.")
    failed = [(i, c) for i, c in enumerate(calls) if c.error is not None]
    rate = len(failed) / len(calls)
    summary = f"{len(failed)} of {len(calls)} tool operation(s) failed (rate {rate:.4g})"
    if limit is None:
        return _passed(f"{summary}; no maximum was set.")
    if rate > limit:
        refs = [
            _ref(
                f"ev{k + 1}",
                "tool_call",
                c.error or "",
                message_index=c.message_index,
                detail=f"tool call #{i + 1} failed",
            )
            for k, (i, c) in enumerate(failed)
        ]
        message = f"{summary}, over the maximum {limit:g}."
        finding = Finding(
            code="tool_error_rate_exceeded", message=message, evidence=[r.id for r in refs]
        )
        return _failed(message, [finding], refs)
    return _passed(f"{summary}, within the maximum {limit:g}.")
