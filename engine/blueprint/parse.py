"""Read a blueprint file: layout detection, normalization, typed models (spec §1.2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, cast

from engine.blueprint.budget import PointBudget, check_prompt_count
from engine.blueprint.header import normalize_header, validate_external_services
from engine.blueprint.inputs import (
    check_input_size,
    max_input_bytes,
    read_blueprint_file,
    user_settings,
)
from engine.blueprint.layout import RawPrompt, split_layout
from engine.blueprint.models import Blueprint, Message, Point, Prompt, message_from_weval
from engine.blueprint.prompts import NormalizedPrompt, normalize_prompt
from engine.blueprint.source import (
    Span,
    joined_text,
    load_json_documents,
    load_yaml_documents,
    positioned,
    span_of_key,
    span_of_value,
)
from engine.blueprint.text import bounded_message, short
from engine.errors import BlueprintError
from engine.js.values import UNDEFINED, js_string, js_truthy, js_typeof
from engine.records import is_validation_error
from engine.settings import Settings

__all__ = [
    "blueprint_id_from_path",
    "config_id_of",
    "load_blueprint",
    "parse_blueprint",
    "split_layout",
]

_SUFFIXES = (
    (".civic.yml", ".civic.yaml"),
    (".weval.yml", ".weval.yaml"),
    (".yml", ".yaml"),
    (".json",),
)
_STANDARD_POINT_KEYS = ("text", "fn", "fnArgs", "arg", "multiplier", "citation")


def blueprint_id_from_path(path: str) -> str:
    """Return Weval's blueprint id for a file path (`a/b/x.weval.yml` -> `a__b__x`)."""
    for group in _SUFFIXES:
        for suffix in group:
            if path.endswith(suffix):
                path = path[: -len(suffix)]
                break
        else:
            continue
        break
    return path.replace("/", "__")


def config_id_of(blueprint: Blueprint) -> str:
    """The `configId` a run of `blueprint` is reported under: from its file path, else its id."""
    return blueprint_id_from_path(blueprint.source or "") or (blueprint.id or "blueprint")


def _point_from_weval(
    raw: Any, prompt_id: str, span: Span | None, inverted: bool, path: int | None
) -> Point:
    """Build an evaluator point from a normalized (or raw `$ref`) point, as upstream's evaluator does."""

    def fail(message: str) -> BlueprintError:
        return positioned(message, span)

    if isinstance(raw, str):
        return Point(text=raw, inverted=inverted, path=path, span=span)
    if not isinstance(raw, dict):
        raise fail(f"Invalid point definition found in prompt '{prompt_id}'.")
    multiplier: Any = raw.get("multiplier", UNDEFINED)
    if multiplier is not UNDEFINED and (
        not isinstance(multiplier, int | float)
        or isinstance(multiplier, bool)
        or not 0.1 <= multiplier <= 10
    ):
        raise fail(
            f"Point multiplier must be a number between 0.1 and 10. Found {short(multiplier)}. "
            f"Prompt ID: '{prompt_id}'. Fix the weight of the definition this `$ref` points to."
        )
    idiomatic = next((k for k in raw if k not in _STANDARD_POINT_KEYS and k.startswith("$")), None)
    text, fn = raw.get("text"), raw.get("fn")
    if js_truthy(text) and (js_truthy(fn) or idiomatic):
        raise fail(
            "Point object cannot have both 'text' and a function ('fn' or idiomatic). "
            f"Prompt ID: '{prompt_id}'. Split it into two points."
        )
    weight = 1.0 if multiplier is UNDEFINED else float(cast(float, multiplier))
    citation = raw.get("citation")
    if js_truthy(text):
        return Point(
            text=joined_text(text, span, f"text of a point of prompt '{prompt_id}'"),
            multiplier=weight,
            citation=citation,
            inverted=inverted,
            path=path,
            span=span,
        )
    name = fn if js_truthy(fn) else (idiomatic[1:] if idiomatic else None)
    if not name or not isinstance(name, str):
        raise fail(
            f"Point object must have 'text', 'fn', or an idiomatic function name (starting with $) "
            f"in prompt '{prompt_id}'. Check the definition this `$ref` points to."
        )
    args: Any = None
    for candidate in (raw.get("fnArgs"), raw.get("arg"), raw.get(idiomatic) if idiomatic else None):
        if candidate is not None:
            args = candidate
            break
    return Point(
        fn=name,
        args=args,
        has_args=args is not None,
        multiplier=weight,
        citation=citation,
        inverted=inverted,
        path=path,
        span=span,
    )


def _points(items: list[Any], spans: list[Any], prompt_id: str, inverted: bool) -> list[Point]:
    out: list[Point] = []
    for index, item in enumerate(items):
        item_span = spans[index] if index < len(spans) else None
        if isinstance(item, list):
            for j, nested in enumerate(item):
                nested_span = (
                    item_span[j] if isinstance(item_span, list) and j < len(item_span) else None
                )
                out.append(_point_from_weval(nested, prompt_id, nested_span, inverted, index))
        else:
            span = item_span if isinstance(item_span, Span) else None
            out.append(_point_from_weval(item, prompt_id, span, inverted, None))
    return out


def _typed_prompt(normalized: NormalizedPrompt, generated: bool, raw: dict[str, Any]) -> Prompt:
    d = normalized.data
    pid = js_string(d["id"])
    messages: list[Message] = [
        message_from_weval(
            m, normalized.message_spans[i] if i < len(normalized.message_spans) else None
        )
        for i, m in enumerate(d.get("messages") or [])
    ]
    points = _points(d.get("points") or [], normalized.point_spans, pid, inverted=False)
    points += _points(d.get("should_not") or [], normalized.should_not_spans, pid, inverted=True)

    def text(key: str) -> str | None:
        value = d.get(key)
        if value is None:
            return None
        name = {"idealResponse": "ideal answer (`ideal`)"}.get(key, f"`{key}`")
        written = (key, "ideal") if key == "idealResponse" else (key,)  # as the file says it
        span = next((s for k in written if (s := span_of_key(raw, k))), normalized.span)
        return joined_text(value, span, f"{name} of prompt '{pid}'")

    return Prompt.validated(
        id=pid,
        id_generated=generated,
        messages=messages,
        description=text("description"),
        ideal=text("idealResponse"),
        has_system="system" in d,
        system=d.get("system"),
        citation=d.get("citation"),
        weight=d.get("weight"),
        render_as=d.get("render_as", "markdown"),
        temperature=d.get("temperature"),
        no_cache=d.get("noCache"),
        required_tools=d.get("requiredTools"),
        prohibited_tools=d.get("prohibitedTools"),
        max_calls=d.get("maxCalls"),
        points=points,
        response_schema=_schema(raw, pid),
        span=normalized.span,
        weval=d,
    )


def _schema(raw: dict[str, Any], prompt_id: str) -> dict[str, Any] | None:
    """Read our `schema:` extension (a JSON Schema for the answer); Weval drops this key."""
    schema = raw.get("schema")
    if schema is None:
        return None
    if not isinstance(schema, dict):
        span = span_of_value(raw, "schema")
        raise BlueprintError(
            f"In prompt '{prompt_id}', `schema` must be a JSON Schema mapping, for example "
            "`schema: {type: object, required: [answer]}`.",
            line=span.line if span else None,
            column=span.column if span else None,
        )
    return dict(schema)


def _typed_blueprint(weval: dict[str, Any], prompts: list[Prompt], source: str | None) -> Blueprint:
    def get(key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        value = weval.get(key)
        if isinstance(value, bool) or not isinstance(value, kind):
            return default
        return value

    evaluation = weval.get("evaluationConfig")
    return Blueprint.validated(
        id=js_string(weval["id"]) if "id" in weval else None,
        title=js_string(weval["title"])
        if "title" in weval and weval["title"] is not None
        else None,
        description=get("description", str),
        models=list(weval.get("models") or []) if isinstance(weval.get("models"), list) else [],
        system=weval.get("system"),
        systems=get("systems", list),
        temperature=get("temperature", (int, float)),
        temperatures=get("temperatures", list),
        concurrency=get("concurrency", int),
        tags=get("tags", list, []),
        evaluation_config=get("evaluationConfig", dict, {}) if isinstance(evaluation, dict) else {},
        point_defs=get("point_defs", dict, {}),
        tools=get("tools", list),
        external_services=get("externalServices", dict, {}),
        render_as=get("render_as", str),
        prompts=prompts,
        source=source,
        weval=weval,
    )


def _wrong_type(exc: Any, header: dict[str, Any], raw_prompts: list[RawPrompt]) -> BlueprintError:
    """A plain, positioned error for a value Weval passes through but a run cannot use."""
    loc = exc.errors()[0]["loc"]
    span: Span | None = None
    if loc and loc[0] == "prompts" and len(loc) > 1 and isinstance(loc[1], int):
        raw, span = raw_prompts[loc[1]] if loc[1] < len(raw_prompts) else (None, None)
        field = ".".join(str(part) for part in loc[2:3])
        span = span_of_value(raw, field) or span if isinstance(raw, dict) else span
    else:
        field = str(loc[0]) if loc else "a value"
        span = span_of_value(header, field)
    path = ".".join(str(part) for part in loc if part != "prompts") or field
    return positioned(
        f"`{short(path)}` holds a value of the wrong type (for example text where a number "
        "belongs). Write the kind of value this key takes (see the blueprint format).",
        span,
    )


def parse_blueprint(
    text: str,
    *,
    source: str | None = None,
    fmt: Literal["yaml", "json"] | None = None,
    settings: Settings | None = None,
) -> Blueprint:
    """Parse and normalize blueprint text exactly as Weval does, keeping positions.

    Args:
        text: The YAML or JSON text.
        source: The file name, used in error messages.
        fmt: `yaml` or `json`; by default, `json` when `source` ends in `.json`.
        settings: Gives the input size limit; by default the user's settings.

    Returns:
        The typed blueprint; `to_weval()` gives Weval's normalized object.

    Raises:
        BlueprintError: The text cannot be read as a blueprint. Its message reads
            `FILE:LINE:COL: what is wrong, and what to write instead`.
    """
    if fmt is None:
        fmt = "json" if source and source.lower().endswith(".json") else "yaml"
    check_input_size(text, max_input_bytes(settings), file=source)
    return _parse(text, source, fmt)


def _parse(text: str, source: str | None, fmt: Literal["yaml", "json"]) -> Blueprint:
    try:
        docs = load_json_documents(text) if fmt == "json" else load_yaml_documents(text)
        header, raw_prompts = split_layout(docs, fmt)
        check_prompt_count(raw_prompts)
        budget = PointBudget()
        weval = normalize_header(header)
        defs_source = (
            header.get("point_defs") if js_truthy(header.get("point_defs")) else header.get("defs")
        )
        defs: dict[str, Any] = dict(defs_source) if isinstance(defs_source, dict) else {}
        normalized: list[NormalizedPrompt] = []
        generated: list[bool] = []
        raws: list[dict[str, Any]] = []
        for raw, span in raw_prompts:
            if not isinstance(raw, dict):
                shown = (
                    "an empty item"
                    if raw is None
                    else f"a {js_typeof(raw) if not isinstance(raw, list) else 'list'}"
                )
                raise BlueprintError(
                    f"Each prompt must be a mapping such as `- id: p1` with `prompt: ...`; this is "
                    f"{shown}.",
                    line=span.line if span else None,
                    column=span.column if span else None,
                )
            budget.spend(raw, span)
            item = normalize_prompt(raw, header, defs, span)
            normalized.append(item)
            generated.append(not js_truthy(raw.get("id")))
            raws.append(raw)
        weval["prompts"] = [n.data for n in normalized]
        validate_external_services(header)
        try:
            prompts = [
                _typed_prompt(n, g, r) for n, g, r in zip(normalized, generated, raws, strict=True)
            ]
            return _typed_blueprint(weval, prompts, source)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            if not is_validation_error(exc):
                raise
            # a passed-through value of a type we cannot run
            raise _wrong_type(exc, header, raw_prompts) from None
    except BlueprintError as exc:
        bounded = BlueprintError(
            bounded_message(exc.message),
            file=source or exc.file,
            line=exc.line,
            column=exc.column,
            upstream=exc.upstream,
        )
        raise bounded from None


def load_blueprint(path: str | Path, *, settings: Settings | None = None) -> Blueprint:
    """Read and parse a blueprint file (refused beyond the input size limit).

    Raises:
        BlueprintError: The file cannot be read, is too large, is not UTF-8 or cannot be
            parsed; the message reads `FILE:LINE:COL: message` when there is a position.
    """
    settings = settings if settings is not None else user_settings()
    text = read_blueprint_file(path, settings=settings)
    return parse_blueprint(text, source=str(path), settings=settings)
