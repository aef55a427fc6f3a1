"""What the store holds, as typed rows: runs, cells, calls, judgments, drafts, and their states."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any, ClassVar, Literal

from engine.jsonfast import loads
from engine.records import Record, coerce_floats

__all__ = [
    "ACTIVE_STATUSES",
    "RESUMABLE_STATUSES",
    "STALE_AFTER_S",
    "CacheEntry",
    "CallRow",
    "CellRow",
    "CellStatus",
    "DraftRow",
    "JudgmentRow",
    "LiveStatus",
    "ModelTotals",
    "RunRecord",
    "RunStatus",
    "RunTotals",
    "Usage",
    "new_run_id",
]

RunStatus = Literal["planned", "running", "completed", "stopped", "failed"]
"""A run's stored status."""

LiveStatus = Literal["planned", "running", "completed", "stopped", "failed", "interrupted"]
"""A run's status as a reader shows it: a `running` run whose process is gone is `interrupted`."""

CellStatus = Literal["scored", "failed"]
"""A finished cell: scored (its points were assessed) or failed (no response could be scored)."""

ACTIVE_STATUSES: tuple[LiveStatus, ...] = ("running", "planned")
"""Live statuses of a run that may still change on its own."""

RESUMABLE_STATUSES: tuple[LiveStatus, ...] = ("interrupted", "stopped", "failed")
"""Live statuses from which `blueprint run --resume` can finish a run."""

STALE_AFTER_S = 15.0
"""A running run without a heartbeat for this long is interrupted."""


def new_run_id() -> str:
    """Return an unguessable run id (128 random bits, URL-safe) that never starts with - or _.

    A leading `-` would read as an option on a command line.
    """
    while True:
        run_id = secrets.token_urlsafe(16)
        if run_id[0].isalnum():
            return run_id


def _alive(pid: int) -> bool:
    """Whether a process with this id exists on this machine (the store is local)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(kw_only=True, slots=True)
class RunRecord(Record):
    """One run as stored."""

    extra_keys: ClassVar[Literal["forbid", "ignore"]] = "ignore"

    id: str
    blueprint_hash: str
    title: str | None
    config_id: str | None
    status: RunStatus
    options: dict[str, Any]
    total_calls: int
    done_calls: int
    cached_calls: int
    failed_calls: int
    total_cells: int
    done_cells: int
    cost_usd: float
    input_tokens: int
    output_tokens: int
    created_at: str
    started_at: str | None
    finished_at: str | None
    heartbeat_at: str | None
    pid: int | None
    error: str | None
    comparison_path: str | None
    summary: dict[str, Any] | None

    def __post_init__(self) -> None:
        coerce_floats(self, ("cost_usd",))

    @property
    def live_status(self) -> LiveStatus:
        """The status as a reader should show it: a `running` run with no heartbeat is interrupted."""
        if self.status != "running":
            return self.status
        if self.heartbeat_at is None or (self.pid is not None and not _alive(self.pid)):
            return "interrupted"
        beat = datetime.fromisoformat(self.heartbeat_at)
        age = (datetime.now(UTC) - beat).total_seconds()
        return "running" if age < STALE_AFTER_S else "interrupted"

    @property
    def resumable(self) -> bool:
        """Whether `blueprint run --resume` can finish this run."""
        return self.live_status in RESUMABLE_STATUSES


@dataclass
class Usage:
    """Tokens and cost (USD) of calls: a cell's answers, or all of a run's calls (`RunTotals`)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    def add(self, input_tokens: int, output_tokens: int, cost_usd: float | None) -> None:
        """Count the tokens and cost of one or more calls (an unknown cost counts as 0)."""
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens
        self.cost_usd += cost_usd or 0.0


@dataclass
class RunTotals(Usage):
    """A run's call, token, cost and cell counters: the one set of them.

    Counted live (`engine.run.outcome.Progress` adds the plan's totals), stored by heartbeats
    and at the run's end.
    """

    done_calls: int = 0
    cached_calls: int = 0
    failed_calls: int = 0
    done_cells: int = 0

    def add_calls(
        self,
        calls: int,
        cached: int,
        input_tokens: int,
        output_tokens: int,
        cost_usd: float | None,
    ) -> None:
        """Count `calls` finished calls, `cached` of them answered from the cache.

        `cost_usd` is what they were paid (nothing for a cached call), the tokens are theirs.
        """
        self.done_calls += calls
        self.cached_calls += cached
        self.add(input_tokens, output_tokens, cost_usd)

    def totals(self) -> RunTotals:
        """A copy of just these counters, as the store takes them (never changed after)."""
        return RunTotals(**{f.name: getattr(self, f.name) for f in fields(RunTotals)})


@dataclass(frozen=True)
class CellRow:
    """One finished prompt × effective model of a run.

    JSON columns are kept as text and decoded on demand (`history`, `tool_call_data`,
    `result_data`): most readers need only the scalar columns.
    """

    run_id: str
    prompt_id: str
    model_id: str
    base_model: str
    status: CellStatus
    score: float | None = None
    response: str | None = None
    messages: str | None = None
    tool_calls: str | None = None
    error: str | None = None
    latency_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    result: str | None = None
    updated_at: str = ""

    @property
    def failed(self) -> bool:
        """True when no response could be scored."""
        return self.status == "failed"

    @property
    def key(self) -> tuple[str, str]:
        """(prompt id, effective model id)."""
        return (self.prompt_id, self.model_id)

    @property
    def history(self) -> list[dict[str, Any]]:
        """The conversation of the cell (system, fixed and generated turns)."""
        data = loads(self.messages) if self.messages else []
        return data if isinstance(data, list) else []

    @property
    def result_data(self) -> dict[str, Any] | None:
        """Weval's coverage result of the cell (`{error}` or the point assessments)."""
        data = loads(self.result) if self.result else None
        return data if isinstance(data, dict) else None


@dataclass(frozen=True)
class CallRow:
    """One model call of a run, as logged: its answer (JSON) or its error.

    `reuses` counts the later calls of the same run answered by this one (from the cache or
    shared while it was in flight): each counts as a cached call with the same tokens.
    """

    run_id: str
    key: str
    kind: str
    model_id: str
    prompt_id: str | None = None
    cell_model: str | None = None
    response: str | None = None
    error: str | None = None
    cached: bool = False
    latency_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    created_at: str = ""
    reuses: int = 0

    @property
    def answer(self) -> dict[str, Any] | None:
        """The decoded answer of a finished call (None for a failed one)."""
        data = loads(self.response) if self.response else None
        return data if isinstance(data, dict) else None


@dataclass(frozen=True)
class CallCost:
    """The logged calls of one kind, model and cell model, summed (`Store.call_costs`).

    Attributes:
        kind: `generate`, `judge`, `extract`, `embed` or `summary`.
        model_id: The model called.
        cell_model: The effective model whose answer the calls were for (generate, judge).
        cost_usd: The dollars of the calls that were paid for and priced.
        unpriced: How many paid calls have no known price.
    """

    kind: str
    model_id: str
    cell_model: str | None
    cost_usd: float
    unpriced: int = 0


@dataclass(frozen=True)
class CacheEntry:
    """An answer to keep for later runs, by call key (its value is the answer as JSON)."""

    key: str
    kind: str
    model_id: str
    value: str


@dataclass(frozen=True)
class JudgmentRow:
    """One judge's answer about one point of one cell."""

    run_id: str
    prompt_id: str
    model_id: str
    point_index: int
    judge_id: str
    judge_model: str
    raw_text: str | None = None
    class_name: str | None = None
    score: float | None = None
    reflection: str | None = None
    error: str | None = None
    created_at: str = ""


@dataclass(frozen=True)
class DraftRow:
    """A studio draft's listing entry (its text is read with `Store.draft`).

    Attributes:
        id: The draft's id.
        title: The blueprint's title in its latest version, if it has one.
        updated_at: Its latest save (ISO-8601, UTC).
        versions: How many versions it keeps (see `engine.store.versions`).
        author: Who made it (the member's e-mail in team mode; None in personal mode). A
            draft belongs to its author: in team mode nobody else lists or opens it.
    """

    id: str
    title: str | None
    updated_at: str
    versions: int = 0
    author: str | None = None


@dataclass(frozen=True)
class ModelTotals:
    """Per effective model of a run: cells, tokens, cost (USD) and mean latency (ms)."""

    cells: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
