"""A JSON Schema of the blueprint authoring format, for editors (`blueprint schema`).

It describes what people write, with every alias: the header, prompts, messages and the
point forms (plain text, `"Point": "Citation"`, `$function` mappings with `weight` and
`citation` beside them, full `point`/`text`/`fn` objects, nested lists for alternative
paths). It is built from the pydantic models below, so each field's description shows up
as a hover hint. Each YAML document validates on its own: a header, one prompt, or a list
of prompts.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from engine.checks import function_names, lookup

__all__ = ["authoring_schema", "blueprint_schema"]

Weight = float


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class CitationObject(_Strict):
    """A source: a title (or name) and an optional link."""

    title: str | None = Field(default=None, description="The source's title.")
    name: str | None = Field(default=None, description="Another spelling of `title`.")
    url: str | None = Field(default=None, description="A link to the source.")


Citation = str | CitationObject


class _Counted(BaseModel):
    """The fields every point form has beside what it checks: its weight and its source."""

    weight: Weight | None = Field(
        default=None,
        description="How much this point counts, from 0.1 to 10 (default 1).",
        ge=0.1,
        le=10,
    )
    multiplier: Weight | None = Field(
        default=None, description="Another name for `weight`.", ge=0.1, le=10
    )
    citation: Citation | None = Field(default=None, description="Where the point comes from.")


class FunctionPoint(_Counted):
    """A deterministic check: `$name: argument`, optionally with `weight` and `citation`."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "patternProperties": {
                "^\\$": {
                    "description": "A point function and its argument, e.g. `$contains: Paris`, "
                    "`$word_count_between: [50, 200]`, `$matches: '^Yes'`, `$js: r.length < 500`."
                }
            },
            "additionalProperties": False,
            # "some key starts with $", said in draft-07 terms
            "not": {"propertyNames": {"not": {"pattern": "^\\$"}}},
        },
    )


class FullPoint(_Counted):
    """A point written out in full: judged text (`point`/`text`) or a function (`fn` + `arg`)."""

    model_config = ConfigDict(
        extra="forbid",
        populate_by_name=True,
        json_schema_extra={
            "anyOf": [{"required": ["text"]}, {"required": ["point"]}, {"required": ["fn"]}]
        },
    )

    text: str | None = Field(
        default=None, description="What a good answer does; an AI judge scores it."
    )
    point: str | None = Field(default=None, description="Another name for `text`.")
    fn: str | None = Field(default=None, description="A point function's name, e.g. `contains`.")
    fnArgs: Any = Field(default=None, description="The function's argument.")
    arg: Any = Field(default=None, description="Another name for `fnArgs`.")


class CitedPoint(RootModel[dict[str, str]]):
    """`"What a good answer does": "Its source"`: a judged point with a citation."""

    model_config = ConfigDict(json_schema_extra={"minProperties": 1, "maxProperties": 1})


PathPoint = str | FunctionPoint | FullPoint | CitedPoint
Point = str | FunctionPoint | FullPoint | CitedPoint | list[PathPoint]


class UserTurn(_Strict):
    """A user turn."""

    user: str | None = Field(description="What the user says.")


class AssistantTurn(_Strict):
    """An assistant turn; `null` marks a turn the model under test writes."""

    assistant: str | None = Field(description="A fixed assistant reply, or null for the model's.")


class AiTurn(_Strict):
    """Another name for an assistant turn."""

    ai: str | None = Field(description="Same as `assistant`.")


class SystemTurn(_Strict):
    """A system prompt turn."""

    system: str | None = Field(description="Instructions for the model.")


class RoleTurn(_Strict):
    """A turn written with `role` and `content`."""

    role: Literal["user", "assistant", "system"] = Field(description="Who speaks.")
    content: str | None = Field(
        default=None, description="What is said; null for the model's turn."
    )


Message = UserTurn | AssistantTurn | AiTurn | SystemTurn | RoleTurn
Points = list[Point]
RenderAs = Literal["markdown", "html", "plaintext"]


class Prompt(_Strict):
    """One prompt: the question (or conversation), an ideal answer, and the rubric."""

    id: str | int | None = Field(
        default=None, description="A short, stable id. Without one, Weval makes one from a hash."
    )
    prompt: str | None = Field(default=None, description="The question sent to the models.")
    promptText: str | None = Field(default=None, description="Another name for `prompt`.")
    messages: list[Message] | None = Field(
        default=None,
        description="A conversation instead of `prompt`: `- user: ...`, `- assistant: null`, ...",
    )
    ideal: str | None = Field(default=None, description="An ideal answer, for comparison.")
    idealResponse: str | None = Field(default=None, description="Another name for `ideal`.")
    description: str | None = Field(default=None, description="A note for readers.")
    system: str | None = Field(default=None, description="A system prompt for this prompt only.")
    citation: Citation | None = Field(default=None, description="Where the prompt comes from.")
    reference: Citation | None = Field(default=None, description="Another name for `citation`.")
    weight: Weight | None = Field(
        default=None,
        description="How much this prompt counts in averages (0.1 to 10).",
        ge=0.1,
        le=10,
    )
    importance: Weight | None = Field(
        default=None, description="Another name for `weight`.", ge=0.1, le=10
    )
    multiplier: Weight | None = Field(
        default=None, description="Another name for `weight`.", ge=0.1, le=10
    )
    render_as: RenderAs | None = Field(default=None, description="How answers are displayed.")
    temperature: float | None = Field(
        default=None, ge=0, le=2, description="Used only when the header sets no temperature."
    )
    noCache: bool | None = Field(default=None, description="Always ask the models again.")
    requiredTools: list[Any] | None = Field(
        default=None, description="Tools expected (not scored)."
    )
    prohibitedTools: list[Any] | None = Field(
        default=None, description="Tools to avoid (not scored)."
    )
    maxCalls: float | None = Field(
        default=None, ge=0, description="Most tool calls allowed (not scored)."
    )
    should: Points | None = Field(
        default=None,
        description="What a good answer does: text (judged), `$function: arg` (checked exactly), "
        "or nested lists (`- - ...`) for alternative paths, of which the best one counts.",
    )
    points: Points | None = Field(default=None, description="Another name for `should`.")
    expect: Points | None = Field(default=None, description="Another name for `should`.")
    expects: Points | None = Field(default=None, description="Another name for `should`.")
    expectations: Points | None = Field(default=None, description="Another name for `should`.")
    should_not: Points | None = Field(
        default=None, description="Deprecated: scored inverted. Prefer `$not_...` in `should`."
    )
    response_schema: dict[str, Any] | None = Field(
        default=None,
        alias="schema",
        description="Blueprint Studio extension: a JSON Schema the answer must satisfy "
        "(checked by `$schema_result`; Weval ignores it).",
    )


class Author(_Strict):
    """Who wrote the blueprint."""

    name: str = Field(description="The author's name.")
    url: str | None = Field(default=None, description="A link to the author.")
    image_url: str | None = Field(default=None, description="A picture of the author.")


class CustomModel(_Strict):
    """A model served by your own OpenAI-compatible endpoint."""

    id: str = Field(description="The id used in results.")
    url: str = Field(description="The endpoint's address.")
    modelName: str = Field(description="The model name sent to the endpoint.")
    inherit: str = Field(description="The provider whose protocol the endpoint speaks.")
    format: Literal["chat", "completions"] | None = Field(default=None, description="API style.")
    promptFormat: str | None = Field(default=None, description="Prompt template.")
    headers: dict[str, Any] | None = Field(default=None, description="Extra HTTP headers.")
    parameters: dict[str, Any] | None = Field(default=None, description="Extra request fields.")
    parameterMapping: dict[str, Any] | None = Field(default=None, description="Renamed fields.")


class Tool(_Strict):
    """A tool the model may call (traced as `TOOL_CALL` lines)."""

    name: str = Field(description="The tool's name.")
    description: str | None = Field(default=None, description="What the tool does.")
    schema_: dict[str, Any] | None = Field(
        default=None, alias="schema", description="A JSON Schema of its arguments."
    )


class ToolUse(_Strict):
    """How tool use is traced."""

    enabled: bool | None = Field(default=None, description="Turn tool use on.")
    mode: Literal["trace-only"] | None = Field(default=None, description="Only `trace-only`.")
    maxSteps: float | None = Field(default=None, ge=1, description="Most tool steps.")
    outputFormat: Literal["json-line"] | None = Field(default=None, description="Only `json-line`.")


class Service(_Strict):
    """An HTTP service that `$call` points can use by name."""

    url: str = Field(description="The service's full address.")
    method: Literal["GET", "POST", "PUT"] | None = Field(default=None, description="HTTP method.")
    headers: dict[str, Any] | None = Field(default=None, description="Headers; `${VAR}` allowed.")
    timeout_ms: float | None = Field(default=None, gt=0, description="Time limit in milliseconds.")
    cache: bool | None = Field(default=None, description="Reuse answers for 24 hours.")
    max_retries: int | None = Field(default=None, description="Retries after a failure.")
    retry_backoff_ms: float | None = Field(default=None, description="Wait between retries.")


References = Citation | list[Citation]
Systems = list[str | None]


class Header(_Strict):
    """The blueprint's header: title, models and settings for every prompt."""

    id: str | None = Field(default=None, description="Ignored by Weval: the id is the file name.")
    configId: str | None = Field(default=None, description="Another name for `id`.")
    title: str | None = Field(default=None, description="A human title.")
    configTitle: str | None = Field(default=None, description="Another name for `title`.")
    description: str | None = Field(
        default=None, description="What this blueprint tests (Markdown)."
    )
    author: str | Author | None = Field(default=None, description="Who wrote it.")
    reference: References | None = Field(default=None, description="Sources.")
    citation: References | None = Field(default=None, description="Another name for `references`.")
    references: References | None = Field(default=None, description="Sources.")
    citations: References | None = Field(default=None, description="Another name for `references`.")
    tags: list[str] | None = Field(default=None, description="Free-form tags.")
    models: list[str | CustomModel] | None = Field(
        default=None, description="Model ids `provider:model`, e.g. `openai:gpt-4.1-mini`."
    )
    system: str | Systems | None = Field(
        default=None, description="A system prompt for all prompts."
    )
    systemPrompt: str | None = Field(default=None, description="Another name for `system`.")
    systems: Systems | None = Field(
        default=None, description="System prompts to compare (null: none; at most one null)."
    )
    temperature: float | None = Field(default=None, ge=0, le=2, description="One temperature.")
    temperatures: list[float] | None = Field(default=None, description="Temperatures to compare.")
    concurrency: int | None = Field(default=None, description="How many calls at once.")
    evaluationConfig: dict[str, Any] | None = Field(
        default=None, description="Judge settings, under `llm-coverage:`."
    )
    embeddingModel: str | None = Field(default=None, description="Model for similarity scores.")
    point_defs: dict[str, str | FunctionPoint | FullPoint] | None = Field(
        default=None, description="Reusable points, used with `$ref: name`."
    )
    defs: dict[str, str | FunctionPoint | FullPoint] | None = Field(
        default=None, description="Old name for `point_defs`."
    )
    tools: list[Tool] | None = Field(default=None, description="Tools the model may call.")
    toolUse: ToolUse | None = Field(default=None, description="How tool use is traced.")
    context: dict[str, Any] | None = Field(default=None, description="Free-form context.")
    render_as: RenderAs | None = Field(default=None, description="How answers are displayed.")
    noCache: bool | None = Field(default=None, description="Always ask the models again.")
    externalServices: dict[str, Service] | None = Field(
        default=None, description="Services that `$call` points use by name."
    )
    prompts: list[Prompt] | None = Field(
        default=None, description="The prompts, when everything is in one document."
    )


class BlueprintDocument(RootModel[Header | Prompt | list[Prompt]]):
    """One YAML document of a blueprint: the header, one prompt, or a list of prompts."""


def _to_draft7(node: Any) -> Any:
    """Point references at `definitions` and drop the noise of `default: null`."""
    if isinstance(node, dict):
        return {k: _to_draft7(v) for k, v in node.items() if not (k == "default" and v is None)}
    if isinstance(node, list):
        return [_to_draft7(v) for v in node]
    if isinstance(node, str) and node.startswith("#/$defs/"):
        return "#/definitions/" + node[len("#/$defs/") :]
    return node


def blueprint_schema(function_help: dict[str, str] | None = None) -> dict[str, Any]:
    """Return the JSON Schema (draft-07) of one blueprint YAML document.

    Args:
        function_help: Optional `name -> summary` of point functions, shown as hints for
            `$name` keys.
    """
    raw = BlueprintDocument.model_json_schema()
    defs = raw.pop("$defs", {})
    schema: dict[str, Any] = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Weval blueprint (one YAML document)",
        "description": "A header, one prompt, or a list of prompts. Separate documents with `---`.",
        **{k: v for k, v in raw.items() if k not in ("title", "description")},
        "definitions": defs,
    }
    if function_help:
        point = copy.deepcopy(defs["FunctionPoint"])
        point.setdefault("properties", {}).update(
            {
                f"${name}": {"description": summary}
                for name, summary in sorted(function_help.items())
            }
        )
        defs["FunctionPoint"] = point
    return _to_draft7(schema)  # type: ignore[no-any-return]


def authoring_schema() -> dict[str, Any]:
    """The schema `blueprint schema` prints: `blueprint_schema` with every point function's hint."""
    help_: dict[str, str] = {}
    for name in function_names():
        check = lookup(name)
        if check is not None:
            example = f" Example: `{check.example.removeprefix('- ')}`." if check.example else ""
            help_[name] = f"{check.summary} Argument: {check.args}.{example}"
    return blueprint_schema(help_)
