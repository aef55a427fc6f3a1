"""The run matrix: prompts × models × temperatures × system prompts, and what it will cost.

Rules follow Weval's run-config (spec §1.4-§1.6): `temperatures` (or `[temperature]`) are
permuted and each call uses the first defined of the permutation value, the prompt's
temperature, the header's, and 0; a `system` list (or `systems`) is permuted with
`[sp_idx:i]` ids when it has more than one entry; effective ids always carry `[temp:T]`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from engine.blueprint.models import Blueprint, Prompt
from engine.judge.keypoints import extraction_models, key_point_prompts
from engine.modelids import PROVIDERS, effective_model_id, split_model_id
from engine.providers import ChatMessage, ChatRequest
from engine.providers.custom import CustomModel
from engine.run.idealcheck import ideal_warnings
from engine.run.modelchoice import ModelChoice, choose_models, resolve_models
from engine.similarity.tables import embedding_model, uses_embeddings

if TYPE_CHECKING:
    from engine.judge.consensus import JudgeSpec
    from engine.run.recorded import Recorded

__all__ = [
    "EXTRACTED_POINTS_GUESS",
    "GENERATION_MAX_TOKENS",
    "CellPlan",
    "ModelChoice",
    "RunPlan",
    "choose_models",
    "judges_for",
    "plan_run",
    "prompt_problems",
    "resolve_models",
]

GENERATION_MAX_TOKENS = 2048
EXTRACTED_POINTS_GUESS = 5
"""Key points assumed per extracted prompt before they are known (judge-call estimates)."""


@dataclass(frozen=True)
class CellPlan:
    """One prompt × effective model: what will be generated and how."""

    prompt: Prompt
    base_model: str
    model_id: str
    temperature: float
    system: str | None
    system_index: int | None
    turns: int
    repeat: int = 0
    variant: str | None = None
    recorded: Recorded | None = field(default=None, compare=False, repr=False)
    """A stored answer to score instead of generating one (`blueprint rescore`; `turns` is 0)."""

    @property
    def key(self) -> tuple[str, str]:
        """(prompt id, effective model id)."""
        return (self.prompt.id, self.model_id)

    @property
    def offline(self) -> bool:
        """True for `ideal` and `replay:` models, answered without a provider."""
        return _offline(self.base_model)

    def opening(self) -> list[dict[str, Any]]:
        """The history before the first generated turn: system prompt and fixed turns."""
        history: list[dict[str, Any]] = (
            [{"role": "system", "content": self.system}] if self.system is not None else []
        )
        for msg in self.prompt.messages:
            if msg.is_placeholder:
                break
            history.append({"role": msg.role, "content": msg.content or ""})
        return history

    def request(self, history: list[dict[str, Any]], tools: list[Any] | None) -> ChatRequest:
        """The generation request for the turn after `history`."""
        if tools:
            return ChatRequest(
                model_id=self.base_model,
                messages=cast("list[ChatMessage]", history),
                temperature=self.temperature,
                max_tokens=GENERATION_MAX_TOKENS,
                tools=tools,
                prompt_id=self.prompt.id,
                variant=self.variant,
            )
        # Without tools every field is built here with its type (the history holds only
        # role/content texts): skip re-validation, it is per call (hot path).
        return ChatRequest.model_construct(
            model_id=self.base_model,
            messages=cast("list[ChatMessage]", history),
            temperature=self.temperature,
            max_tokens=GENERATION_MAX_TOKENS,
            tools=None,
            prompt_id=self.prompt.id,
            variant=self.variant,
        )


@dataclass
class RunPlan:
    """Everything a run will do, computed before anything is spent."""

    blueprint: Blueprint
    models: list[str]
    cells: list[CellPlan]
    judges: list[JudgeSpec] | None
    custom_judges: bool
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    custom: dict[str, CustomModel] = field(default_factory=dict)
    embedding_model: str | None = None
    """The model that embeds answers and ideals for similarity (None: no similarity)."""
    judge_keys: list[str] = field(default_factory=list, init=False, repr=False, compare=False)
    """Keys of the judge calls whose prompts are known in advance (set by `estimate_run`)."""
    cached: dict[str, dict[str, Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """The cached answers `estimate_run` read, by key (the run does not read them again)."""
    _openings: dict[tuple[str, str], tuple[ChatRequest, str]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def _opening(self, cell: CellPlan) -> tuple[ChatRequest, str]:
        found = self._openings.get(cell.key)
        if found is None:
            from engine.run.calls import call_key

            request = cell.request(cell.opening(), self.blueprint.tools)
            found = self._openings[cell.key] = (request, call_key("generate", request, cell.repeat))
        return found

    def opening_key(self, cell: CellPlan) -> str:
        """The cache key of a cell's first generated turn (computed once per cell)."""
        return self._opening(cell)[1]

    def opening_call(
        self, cell: CellPlan, history: list[dict[str, Any]]
    ) -> tuple[ChatRequest, str]:
        """The request of a cell's first generated turn after `history`, and its cache key.

        The request the key was computed from (built once per cell) when `history` is the
        opening it was built for (it always is, but for a fixed turn without content); else
        a new one, with the same key as before.
        """
        request, key = self._opening(cell)
        if request.messages != history:
            return cell.request(history, self.blueprint.tools), key
        return request, key

    @property
    def generation_calls(self) -> int:
        """Calls to the models under test (offline models make none)."""
        return sum(c.turns for c in self.cells if not _offline(c.base_model))

    @property
    def extractions(self) -> list[str]:
        """Prompts whose key points are extracted from their ideal (only when judging)."""
        if not self.judges:
            return []
        return [p.id for p in key_point_prompts(self.blueprint)]

    @property
    def extraction_models(self) -> list[str]:
        """The models tried, in order, to extract key points."""
        return extraction_models(self.blueprint)

    @property
    def extraction_calls(self) -> int:
        """One extraction call per such prompt (a failing model adds one for the next)."""
        return len(self.extractions)

    @property
    def judge_calls(self) -> int:
        """Judge calls if every judge answers (a backup judge may add some).

        Prompts whose points are extracted count `EXTRACTED_POINTS_GUESS` points each: an
        estimate until they are known.
        """
        if not self.judges:
            return 0
        return self.text_points * len(self.judges)

    @property
    def text_points(self) -> int:
        """Text points over the cells that will have an answer (each judged by every judge).

        Points still to be extracted from an ideal are guessed (`EXTRACTED_POINTS_GUESS`).
        """
        extracted = set(self.extractions)
        return sum(
            EXTRACTED_POINTS_GUESS
            if c.prompt.id in extracted
            else sum(1 for p in c.prompt.points if p.fn is None)
            for c in self.cells
            if c.recorded is None or c.recorded.answered
        )

    @property
    def embedding_calls(self) -> int:
        """Embedding calls at most: one per cell that may answer, one per ideal answer.

        Failed or empty answers are not embedded, and identical texts are embedded once.
        """
        if self.embedding_model is None:
            return 0
        answers = sum(1 for c in self.cells if c.recorded is None or c.recorded.answered)
        return answers + sum(1 for p in self.blueprint.prompts if p.ideal)

    @property
    def total_calls(self) -> int:
        """Extraction, generation, judge and embedding calls."""
        return (
            self.extraction_calls + self.generation_calls + self.judge_calls + self.embedding_calls
        )


def _offline(model: str) -> bool:
    provider = (split_model_id(model) or ("", ""))[0]
    info = PROVIDERS.get(provider)
    return info is not None and info.api == "offline"


def judges_for(
    blueprint: Blueprint, override: Sequence[str] | None
) -> tuple[list[JudgeSpec], bool]:
    """Return the judges (and whether they are custom): `--judges`, the blueprint's, or Weval's defaults."""
    from engine.judge.consensus import DEFAULT_JUDGES, JudgeSpec

    if override:
        return [JudgeSpec(m.strip(), "standard") for m in override if m.strip()], True
    coverage = blueprint.evaluation_config.get("llm-coverage")
    configured = coverage.get("judges") if isinstance(coverage, dict) else None
    if isinstance(configured, list) and configured:
        judges = [
            JudgeSpec(str(j.get("model")), str(j.get("approach") or "standard"), j.get("id"))
            for j in configured
            if isinstance(j, dict) and j.get("model")
        ]
        if judges:
            return judges, True
    return list(DEFAULT_JUDGES), False


def with_custom_judges(
    judges: Sequence[JudgeSpec], custom: Mapping[str, CustomModel]
) -> list[JudgeSpec]:
    """The judges, each one that names a custom model of the blueprint carrying its fingerprint.

    A blueprint's custom model object judges when `--judges` (or the blueprint's judges) name
    its `id`; its calls go to its `url` as its generation calls do.
    """
    return [
        replace(j, variant=custom[j.model].fingerprint) if j.model in custom else j for j in judges
    ]


def prompt_problems(prompt: Prompt) -> list[str]:
    """Weval's run-time message checks (spec §1.9), in plain words."""
    pid = prompt.id
    msgs = prompt.messages
    if not msgs:
        return [f"Prompt '{pid}' has no `prompt:` or `messages:`; there is nothing to send."]
    problems = []
    roles = [m.role for m in msgs]
    for i, m in enumerate(msgs):
        if m.role not in ("user", "assistant", "system"):
            problems.append(
                f"Prompt '{pid}', message {i}: invalid role '{m.role}'; use user, assistant or system."
            )
        elif m.content is None and m.role != "assistant":
            problems.append(f"Prompt '{pid}', message {i} ({m.role}) has no content.")
        elif m.content is not None and not m.content.strip():
            problems.append(f"Prompt '{pid}', message {i} ({m.role}): content cannot be empty.")
    body = [r for r in roles if r != "system"]
    if body and body[0] == "assistant":
        problems.append(f"Prompt '{pid}': the first message cannot be from the assistant.")
    for i in range(1, len(body)):
        if body[i] == body[i - 1] and body[i] in ("user", "assistant"):
            problems.append(
                f"Prompt '{pid}': two '{body[i]}' messages in a row; user and assistant must alternate."
            )
            break
    if body and body[-1] == "assistant" and msgs[-1].content is not None:
        problems.append(
            f"Prompt '{pid}': the conversation ends with a fixed assistant turn, so there is "
            "nothing for the model to write; end with a user turn or `assistant: null`."
        )
    return problems


def _turns(prompt: Prompt) -> int:
    placeholders = sum(1 for m in prompt.messages if m.is_placeholder)
    last = prompt.messages[-1] if prompt.messages else None
    return placeholders + (1 if last is not None and last.role == "user" else 0)


def _systems(blueprint: Blueprint) -> list[str | None] | None:
    systems = blueprint.systems
    if isinstance(blueprint.system, list) and not systems:
        systems = list(blueprint.system)
    return list(systems) if systems else None


def plan_run(
    blueprint: Blueprint,
    *,
    models: Sequence[str] | None = None,
    judges: Sequence[str] | None = None,
    judge: bool = True,
    repeats: int = 1,
    collections: Mapping[str, Sequence[str]] | None = None,
) -> RunPlan:
    """Expand the run matrix and collect every problem that would stop the run.

    With `repeats` > 1 every cell is generated that many times, as separate effective models
    `<id>[rep:k]` (k from 0); the repeat index is part of every cache key, so repeats are real
    calls, and a later run with the same repeats reuses them. `collections` are the known
    model collections (default: the shipped ones and the user's settings).
    """
    choice = choose_models(blueprint, models, collections)
    model_ids, problems = choice.models, choice.problems
    warnings: list[str] = list(choice.warnings)
    variants_of = {m: c.fingerprint for m, c in choice.custom.items()}
    temps: list[float | None]
    if blueprint.temperatures:
        temps = [float(t) for t in blueprint.temperatures]
        if blueprint.temperature is not None:
            warnings.append(
                "Both `temperature` and `temperatures` are set; `temperature` is ignored."
            )
    else:
        temps = [blueprint.temperature]
    systems = _systems(blueprint)
    if systems is not None:
        if any(s is not None and not isinstance(s, str) for s in systems):
            problems.append("`systems` must be a list of texts or null.")
        if sum(1 for s in systems if s is None) > 1:
            problems.append("The `systems` list can contain at most one null entry.")
    global_system = blueprint.system if isinstance(blueprint.system, str) else None
    cells: list[CellPlan] = []
    for prompt in blueprint.prompts:
        problems += prompt_problems(prompt)
        if systems is not None and prompt.has_system and prompt.system:
            problems.append(
                f"Prompt '{prompt.id}' has its own `system`, but the header permutes `systems`; "
                "remove one of them."
            )
        variants: list[tuple[str | None, int | None]] = (
            [(s, i if len(systems) > 1 else None) for i, s in enumerate(systems)]
            if systems is not None
            else [(prompt.system if prompt.has_system else global_system, None)]
        )
        for model in model_ids:
            for temp in temps:
                effective = next(
                    (t for t in (temp, prompt.temperature, blueprint.temperature) if t is not None),
                    0.0,
                )
                for system, index in variants:
                    model_id = effective_model_id(model, effective, index)
                    for repeat in range(max(1, repeats)):
                        cells.append(
                            CellPlan(
                                prompt=prompt,
                                base_model=model,
                                model_id=f"{model_id}[rep:{repeat}]" if repeats > 1 else model_id,
                                temperature=float(effective),
                                system=system,
                                system_index=index,
                                turns=_turns(prompt),
                                repeat=repeat,
                                variant=variants_of.get(model),
                            )
                        )
    judge_list: list[JudgeSpec] | None = None
    custom = False
    texts = any(pt.fn is None for pr in blueprint.prompts for pt in pr.points)
    if judge and (texts or key_point_prompts(blueprint)):
        judge_list, custom = judges_for(blueprint, judges)
        judge_list = with_custom_judges(judge_list, choice.custom)
    elif not judge and key_point_prompts(blueprint):
        warnings.append(
            "Prompts with only an `ideal` answer get their key points extracted by an LLM "
            "and judged; without judging they are not extracted and get no score."
        )
    return RunPlan(
        blueprint=blueprint,
        models=model_ids,
        cells=cells,
        judges=judge_list,
        custom_judges=custom,
        problems=list(dict.fromkeys(problems)),
        warnings=warnings + ideal_warnings(blueprint, model_ids),
        custom={
            m: c
            for m, c in choice.custom.items()
            if m in model_ids or any(j.model == m for j in judge_list or ())
        },
        embedding_model=embedding_model(blueprint) if uses_embeddings(blueprint) else None,
    )
