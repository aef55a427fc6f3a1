"""Execute a planned run: generate, judge, score, store; resumable and stoppable.

Cells run concurrently (bounded); inside a cell the generated turns are produced in order.
Every call goes through `Caller` (log, cache, provider). A cell whose generation fails is
recorded with its error and the run goes on. A cell whose result cannot be written (a local
failure, such as a full disk) is not recorded at all: the run ends `failed` and a resume
retries it. At the end the comparison JSON is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import importlib
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.blueprint.models import Blueprint, Prompt
from engine.checks import CheckEnv
from engine.errors import EngineError, StoreError
from engine.judge.keypoints import with_key_points
from engine.providers import ChatRequest, ProviderPool
from engine.run.calls import Caller, CallEvent, CallResult, RunStopped, judge_request
from engine.run.cell import Conversation, cell_row
from engine.run.keypoints import EXTRACT_KIND, extract_all, known_calls_delta
from engine.run.outcome import Progress, RunOptions, RunOutcome
from engine.run.plan import CellPlan, RunPlan
from engine.settings import Settings, load_settings
from engine.store import CellRow, JudgmentRow, RunTotals, RunWriter, Store

if TYPE_CHECKING:
    from engine.assessment import PointAssessment
    from engine.comparison.cost import RunCost
    from engine.comparison.weval import Comparison
    from engine.judge.consensus import ConsensusJudge, JudgeSpec, JudgmentRecord
    from engine.judge.keypoints import KeyPoints
    from engine.scoring.cells import CellScore

__all__ = ["SCORING_MODULES", "execute_run"]

_JUDGED: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "judged_cell", default=None
)
"""The (prompt id, effective model) being judged: its judge calls are logged with it, so the
judging of an answer counts in its model's cost (`engine.comparison.cost`)."""

SCORING_MODULES = (
    "engine.assessment",
    "engine.checks.registry",
    "engine.conversation",
    "engine.scoring.aggregation",
    "engine.scoring.summary",
    "engine.comparison.weval",
    "engine.comparison.read",
    "engine.scoring.offline",
    "engine.comparison.build",
    "engine.scoring.variants",
)
"""What scores cells and writes the comparison (`engine.scoring.offline` and
`engine.comparison.build` import the rest), in an order that imports a few milliseconds' worth
at each step."""


async def _when_idle(steps: list[Callable[[], object]]) -> None:
    """Run `steps` one by one, each at a moment the event loop is idle.

    A run's start imports what scores cells (`SCORING_MODULES`) and prepares what its end
    needs this way: imported before the first calls they would delay them by about 20 ms;
    here, while the first calls are out, they fill the wait for the answers (`python -m
    bench.run --only cold`). The loop is idle when a 2 ms sleep ends on time. A thread would
    not do: it would hold the GIL while the first requests are being written. A step that
    fails ends the rest; its work is done again, failing with its error, where the run uses it.
    """
    loop = asyncio.get_running_loop()
    for step in steps:
        while True:
            before = loop.time()
            await asyncio.sleep(0.002)
            if loop.time() - before < 0.003:  # the sleep ended on time: nothing else to do
                break
        try:
            step()
        except Exception:
            return


def _imports(names: tuple[str, ...]) -> list[Callable[[], object]]:
    """Steps for `_when_idle` that import the modules of `names` not imported yet."""
    return [functools.partial(importlib.import_module, n) for n in names if n not in sys.modules]


def _failed(cell: CellPlan, message: str) -> CellScore:
    """The score of a cell that could not be answered or scored (`message` says why)."""
    from engine.scoring.cells import failed_cell

    return failed_cell(cell.prompt.id, cell.model_id, message)


class _Runner:
    def __init__(
        self,
        run_id: str,
        plan: RunPlan,
        store: Store,
        pool: ProviderPool,
        options: RunOptions,
        stop: threading.Event,
        on_progress: Callable[[Progress], None] | None,
        settings: Settings,
        writer: RunWriter | None = None,
    ) -> None:
        self.run_id = run_id
        self.plan = plan
        self.blueprint: Blueprint = plan.blueprint
        self.store = store
        self.options = options
        self.stop = stop
        self.on_progress = on_progress
        self.writer: RunWriter = writer if writer is not None else store.writer()
        self.caller = Caller(
            pool=pool,
            store=store,
            writer=self.writer,
            run_id=run_id,
            use_cache=options.use_cache,
            stop=stop,
            on_call=self._on_call,
            concurrency=options.concurrency,
        )
        self.env = CheckEnv(settings=settings)
        self.progress = Progress(
            total_calls=options.planned_calls(plan.total_calls), total_cells=len(plan.cells)
        )
        for cell in plan.cells:
            self.progress.per_model.setdefault(cell.model_id, [0, 0])[1] += 1
        self.judge: ConsensusJudge | None = None
        if plan.judges:
            from engine.judge.consensus import ConsensusJudge

            self.judge = ConsensusJudge(
                plan.judges,
                self._judge_call,
                custom=plan.custom_judges,
                on_record=self._record_judgment,
                propagate=(RunStopped, StoreError),
            )
        self.budget_hit = False
        self.local_errors: list[str] = []
        self.key_points: dict[str, KeyPoints] = {}
        self.cells: list[CellPlan] = list(plan.cells)
        self.scores: dict[tuple[str, str], CellScore] = {}
        """The cells scored (and recorded) by this process, for the comparison at the end."""
        self.rows: dict[tuple[str, str], CellRow] = {}
        """The rows of those cells as they were written (the end reads back only the others)."""
        self.recorded_before = True
        """Whether the run had recorded cells before this process (a resume): `run` knows."""
        self.label: tuple[list[str], str] | None = None
        """The models of every cell and the comparison's run label for them, made while idle."""
        self.comparison: Comparison | None = None
        """The comparison of every cell, built once (`_comparison`) for the embeddings, the
        summary and the file."""
        self.embedding_left = False
        self.summary_error: str | None = None

    # --- progress ------------------------------------------------------------------

    def _on_call(self, event: CallEvent) -> None:
        p = self.progress
        if event.retried:
            p.failed_calls -= 1  # counted when it failed before the interruption
        if event.ok:
            if event.source == "log":
                return  # finished before an interruption: counted from the log at the start
            cached = event.source == "cache"
            cost = None if cached else event.cost_usd
            p.add_calls(1, int(cached), event.input_tokens, event.output_tokens, cost)
        else:
            p.failed_calls += 1
        if self.options.max_cost_usd is not None and p.cost_usd >= self.options.max_cost_usd:
            self.budget_hit = True
            self.stop.set()
        self._report()

    def _count_logged(self) -> None:
        """Count the calls this run finished (or failed) before an interruption."""
        p = self.progress
        for call in self.caller.log.values():
            if call.error is not None:
                p.failed_calls += 1
                continue
            uses = 1 + call.reuses  # each reuse was a cached call with the same tokens
            p.add_calls(
                uses,
                call.reuses + (1 if call.cached else 0),
                uses * (call.input_tokens or 0),
                uses * (call.output_tokens or 0),
                None if call.cached else call.cost_usd,
            )

    def _report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.progress)

    async def _heartbeat(self) -> None:
        while True:
            with contextlib.suppress(StoreError):  # a liveness signal: the next beat retries
                await self.writer.committed(
                    self.writer.heartbeat(self.run_id, self.progress.totals())
                )
            await asyncio.sleep(1.0)

    def _local_failure(self, exc: StoreError) -> None:
        self.local_errors.append(str(exc))

    # --- calls ---------------------------------------------------------------------

    async def _judge_call(self, judge: JudgeSpec, system: str, user: str) -> str:
        cell = _JUDGED.get()
        result = await self.caller.chat(
            "judge",
            judge_request(judge, system, user),
            prompt_id=cell[0] if cell else None,
            cell_model=cell[1] if cell else None,
        )
        return result.text

    def _written(self, future: Future[None]) -> None:
        exc = future.exception()
        if isinstance(exc, StoreError):
            self._local_failure(exc)

    def _record_judgment(self, record: JudgmentRecord) -> None:
        future = self.writer.record_judgment(
            JudgmentRow(
                run_id=self.run_id,
                prompt_id=record.prompt_id,
                model_id=record.model_id,
                point_index=record.point_index,
                judge_id=record.judge.label + (" [backup]" if record.backup else ""),
                judge_model=record.judge.model,
                raw_text=record.raw_text,
                class_name=record.class_name,
                score=record.score,
                reflection=record.reflection,
                error=record.error,
            )
        )
        future.add_done_callback(self._written)

    async def _generate(
        self, cell: CellPlan, history: list[dict[str, Any]], turn: int
    ) -> CallResult:
        if turn == 0:
            request, key = self.plan.opening_call(cell, history)
        else:
            request, key = cell.request(history, self.blueprint.tools), None
        return await self.caller.chat(
            "generate",
            request,
            key=key,
            repeat=cell.repeat,
            cache_ok=not cell.prompt.no_cache,
            prompt_id=cell.prompt.id,
            cell_model=cell.model_id,
        )

    # --- cells ---------------------------------------------------------------------

    async def run_cell(self, cell: CellPlan) -> None:
        if self.stop.is_set():
            return
        try:
            conv, score = await self._cell(cell)
            row = cell_row(self.run_id, conv, score)
            await self.writer.committed(self.writer.record_cell(row))
        except RunStopped:
            return
        except StoreError as exc:  # a local failure: left unrecorded for a resume
            self._local_failure(exc)
            return
        self.scores[cell.key] = score
        self.rows[cell.key] = row
        self.progress.done_cells += 1
        if score.failed:
            self.progress.failed_cells += 1
        self.progress.per_model.setdefault(cell.model_id, [0, 0])[0] += 1
        self._report()

    async def _cell(self, cell: CellPlan) -> tuple[Conversation, CellScore]:
        """Generate a cell's turns and score them.

        Raises:
            RunStopped: The run is stopping.
            StoreError: A call's answer could not be written.
        """
        if cell.recorded is not None:  # a re-score: the stored answer, never a new one
            try:
                conv = Conversation.stored(cell, cell.recorded.turns())
            except EngineError as exc:
                return Conversation(cell), _failed(cell, str(exc))
            if cell.recorded.error is not None:
                return conv, _failed(cell, cell.recorded.error)
        else:
            conv = Conversation(cell)
            try:
                await conv.generate(lambda history, turn: self._generate(cell, history, turn))
            except (RunStopped, StoreError):
                raise
            except EngineError as exc:
                return conv, _failed(cell, str(exc))
        if conv.empty:
            return conv, _failed(cell, "Model response generation failed or returned empty.")
        return conv, await self._score(cell, conv)

    async def _score(self, cell: CellPlan, conv: Conversation) -> CellScore:
        from engine.scoring.cells import finish_cell, ordered_points
        from engine.scoring.offline import score_cell

        extracted = self.key_points.get(cell.prompt.id)
        if extracted is not None and not extracted.ok:
            # Weval skips the prompt: kept as an answer, left out of the scores
            return finish_cell(cell.prompt.id, cell.model_id, [])
        evidence = conv.evidence()
        judged: tuple[list[PointAssessment], dict[str, Any] | None] | None = None
        _, texts = ordered_points(cell.prompt)
        if texts and self.judge is not None:
            _JUDGED.set((cell.prompt.id, cell.model_id))  # this task's context only
            judged = await self.judge.judge_points(self.blueprint, cell.prompt, evidence, texts)
        if _needs_network(cell.prompt):
            # $call / $factcheck block on HTTP: keep them off the event loop
            return await asyncio.to_thread(
                score_cell, self.blueprint, cell.prompt, evidence, self.env, judged
            )
        # plain functions take microseconds; threads would only add GIL hops
        return score_cell(self.blueprint, cell.prompt, evidence, self.env, judged)

    def prefetch(self, done: set[tuple[str, str]]) -> None:
        """Load the cached first answers of every cell still to run, and known judge answers, in bulk."""
        keys = [
            self.plan.opening_key(cell)
            for cell in self.plan.cells
            if cell.key not in done and not cell.prompt.no_cache and cell.recorded is None
        ]
        self.caller.prefetch(keys + self.plan.judge_keys, self.plan.cached)

    async def _extract(self, request: ChatRequest, key: str) -> CallResult:
        return await self.caller.chat(EXTRACT_KIND, request, key=key, prompt_id=request.prompt_id)

    async def extract(self) -> bool:
        """Extract the key points of prompts with only an ideal; False if the run cannot go on."""
        if not self.plan.extractions:
            return True
        try:
            prior = {}
            if self.options.key_points_from is not None:
                prior = self.store.run_calls(self.options.key_points_from, EXTRACT_KIND)
            log = {**prior, **self.caller.log}
            self.key_points = await extract_all(self.blueprint, self._extract, log)
        except RunStopped:
            return False
        except StoreError as exc:
            self._local_failure(exc)
            return False
        found = {
            pid: with_key_points(prompt, k.points)
            for pid, k in self.key_points.items()
            if k.points is not None and (prompt := self.blueprint.prompt(pid)) is not None
        }
        self.cells = [
            replace(c, prompt=found[c.prompt.id]) if c.prompt.id in found else c
            for c in self.plan.cells
        ]
        judges = len(self.plan.judges or [])
        self.progress.total_calls += known_calls_delta(self.key_points, self.plan.cells, judges)
        return True

    async def run(self) -> RunOutcome:
        done = self.store.cell_keys(self.run_id)
        self.recorded_before = bool(done)
        for key in done:
            self.progress.done_cells += 1
            self.progress.per_model.setdefault(key[1], [0, 0])[0] += 1
        self._count_logged()
        self.prefetch(done)
        self.store.set_run_status(self.run_id, "running")
        await self.run_cells(done)
        if self.options.summary_model and not self.stop.is_set() and not self.local_errors:
            await self._summarize(self.options.summary_model)
        return await asyncio.to_thread(self.finish)

    async def run_cells(self, done: set[tuple[str, str]]) -> None:
        """Run the plan's cells not in `done`, beating the heart meanwhile."""
        beat = asyncio.create_task(self._heartbeat())
        if not await self.extract():  # stopped while extracting key points
            beat.cancel()
            await asyncio.gather(beat, return_exceptions=True)
            return
        # The pool bounds calls in flight (`concurrency`); more cells than that may be between
        # calls (writing, scoring), so the pool stays busy while they do. A fixed set of
        # workers takes the cells in order: one task per cell would make the loop step through
        # every waiting cell before the first connection is even open.
        todo = iter([c for c in self.cells if c.key not in done])

        async def work() -> None:
            for cell in todo:  # one shared iterator: each cell is taken once
                await self.run_cell(cell)

        workers = min(max(1, self.options.concurrency) * 4, len(self.cells))
        idle = asyncio.create_task(_when_idle([*_imports(SCORING_MODULES), self._label]))
        try:
            await asyncio.gather(*(work() for _ in range(workers)))
            await self._embed()
        finally:
            beat.cancel()
            idle.cancel()
            await asyncio.gather(beat, idle, return_exceptions=True)

    async def _embed(self) -> None:
        """Embed the answers and ideals once every cell is recorded (similarity, §5.10)."""
        model = self.plan.embedding_model
        if model is None or self.stop.is_set() or self.local_errors:
            return
        rows = await asyncio.to_thread(self._rows)
        if len(rows) < len(self.plan.cells):
            return
        from engine.run.embedding import embed_answers

        comparison = self._comparison(rows)
        self.embedding_left = True
        try:
            await embed_answers(self.caller, model, comparison)
        except RunStopped:
            return
        except StoreError as exc:
            self._local_failure(exc)
            return
        self.embedding_left = self.stop.is_set()

    async def _summarize(self, model_id: str) -> None:
        """Write the executive summary once every cell is scored; a failure is only reported."""
        from engine.summary.service import SUMMARY_KIND, SummaryError, summarize_comparison

        rows = await asyncio.to_thread(self._rows)
        if len(rows) < len(self.plan.cells):
            return

        async def chat(request: ChatRequest) -> tuple[str, bool, float | None]:
            result = await self.caller.chat(SUMMARY_KIND, request)
            return result.text, result.source != "provider", result.cost_usd

        try:
            result = await summarize_comparison(self._comparison(rows), model_id, chat)
            await asyncio.to_thread(self.store.save_executive_summary, self.run_id, result.summary)
        except SummaryError as exc:
            self.summary_error = str(exc)

    def _label(self) -> None:
        """Make the run label of the comparison of every cell (its content hash, 2 ms)."""
        if self.options.out_dir is not None:
            from engine.comparison.weval import config_content_hash

            models = sorted({c.model_id for c in self.plan.cells})
            self.label = (models, config_content_hash(self.blueprint, models))

    def _comparison(self, rows: list[CellRow]) -> Comparison:
        """The comparison of every cell (`rows`, all of them), built on first use only.

        Its similarity tables, cost and summary are added by `_complete`, when it is written.
        """
        if self.comparison is None:
            from engine.comparison.build import comparison_from_rows

            models = sorted({r.model_id for r in rows})
            label = self.label[1] if self.label is not None and self.label[0] == models else None
            self.comparison = comparison_from_rows(
                self.blueprint, rows, self.key_points, self.scores, run_label=label
            )
        return self.comparison

    def _rows(self) -> list[CellRow]:
        """The run's recorded cells by prompt and model.

        This process's are taken as it wrote them; the others (a resumed run's) are read back.
        """
        mine = self.rows
        if not self.recorded_before:
            return [mine[key] for key in sorted(mine)]
        every = {r.key: r for r in self.store.cells(self.run_id)}
        every.update(mine)
        return [every[key] for key in sorted(every)]

    def finish(self) -> RunOutcome:
        self.writer.close()
        rows = self._rows()
        p = self.progress
        p.done_cells = len(rows)
        p.failed_cells = sum(1 for r in rows if r.failed)
        totals = self.progress.totals()
        if self.local_errors:
            error = f"{len(self.local_errors)} result(s) could not be saved: {self.local_errors[0]}"
            self.store.save_totals(self.run_id, totals)
            self.store.set_run_status(self.run_id, "failed", error)
            return RunOutcome("failed", None, None, p, error, cost=self._cost())
        if len(rows) < len(self.plan.cells) or self.embedding_left:
            error = (
                "Stopped: the budget (--max-cost) was reached."
                if self.budget_hit
                else "Stopped before every call was made."
            )
            self.store.save_totals(self.run_id, totals)
            self.store.set_run_status(self.run_id, "stopped", error)
            return RunOutcome("stopped", None, None, p, error, cost=self._cost())
        try:
            return self._complete(rows, totals)
        except BaseException:  # the comparison could not be written: the run is resumable
            self.store.save_totals(self.run_id, totals)
            raise

    def _cost(self, models: list[str] | None = None) -> RunCost:
        """What the run cost, read once from its call log (`models`: default, every cell's)."""
        from engine.comparison.build import run_cost

        return run_cost(
            self.store, self.run_id, sorted(self.progress.per_model) if models is None else models
        )

    def _complete(self, rows: list[CellRow], totals: RunTotals) -> RunOutcome:
        """Summarize the run, write its comparison (when asked) and record it completed."""
        from engine.comparison.weval import safe_timestamp
        from engine.run.assemble import with_similarity
        from engine.scoring.summary import CellOutcome, summarize_outcomes

        weights = {pr.id: pr.weight for pr in self.blueprint.prompts}
        summaries = summarize_outcomes(
            (CellOutcome(r.model_id, r.prompt_id, r.score, r.failed) for r in rows), weights
        )
        comparison = path = None
        if self.options.out_dir is not None:  # the full comparison only when it is written
            calls = (
                self.store.run_calls(self.run_id, kind="embed")
                if self.plan.embedding_model
                else None
            )
            comparison = with_similarity(self._comparison(rows), self.blueprint, calls)
            comparison.timestamp = safe_timestamp()  # the run's end, as the file says
            comparison.rescored_from = self.options.rescored_from
            cost = comparison.cost = self._cost(comparison.models)
            if self.options.summary_model and (
                written := self.store.executive_summary(self.run_id)
            ):
                comparison.extra["executiveSummary"] = written
            uncertainty = comparison.uncertainty()
            path = comparison.write(self.options.out_dir, uncertainty=uncertainty)
        else:
            from engine.stats import uncertainty_of

            cost = self._cost()
            uncertainty = uncertainty_of(rows, weights, exclude=("IDEAL_BENCHMARK",))
        summary = {m: s.model_dump() for m, s in summaries.items()}
        self.store.complete_run(self.run_id, totals, summary, str(path) if path else None)
        return RunOutcome(
            "completed",
            comparison,
            path,
            self.progress,
            summaries=summaries,
            key_points=self.key_points,
            summary_error=self.summary_error,
            uncertainty=uncertainty,
            cost=cost,
        )


_NETWORK_FUNCTIONS = frozenset({"call", "external", "factcheck"})


def _needs_network(prompt: Prompt) -> bool:
    return any(p.fn in _NETWORK_FUNCTIONS for p in prompt.points)


async def execute_run(
    run_id: str,
    plan: RunPlan,
    store: Store,
    pool: ProviderPool,
    options: RunOptions,
    *,
    stop: threading.Event | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    settings: Settings | None = None,
) -> RunOutcome:
    """Run (or resume) `run_id` to the end, or until `stop` is set or the budget is spent.

    `settings` (default: read once from `$BLUEPRINT_HOME`) are what point functions may use.
    """
    runner = _Runner(
        run_id,
        plan,
        store,
        pool,
        options,
        stop or threading.Event(),
        on_progress,
        settings if settings is not None else load_settings(),
    )
    try:
        return await runner.run()
    except BaseException as exc:
        stopped = isinstance(exc, (KeyboardInterrupt, asyncio.CancelledError))
        if stopped:
            error = "Interrupted."
        elif isinstance(exc, EngineError):
            error = str(exc)
        else:
            error = f"Unexpected error ({type(exc).__name__}); please report it."
        try:
            runner.writer.close()
        finally:
            store.set_run_status(run_id, "stopped" if stopped else "failed", error)
        raise
