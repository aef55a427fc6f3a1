"""Execute a planned run: generate, judge, score, store; resumable and stoppable.

Cells run concurrently (bounded); inside a cell the generated turns are produced in order.
Every call goes through `Caller` (log, cache, provider). A cell whose generation fails is
recorded with its error and the run goes on. At the end the comparison JSON is written.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from engine.assessment import PointAssessment
from engine.blueprint.models import Blueprint, Message, Prompt
from engine.checks import CheckEnv
from engine.checks.jsstring import is_js_blank
from engine.errors import EngineError
from engine.evidence import Evidence
from engine.judge.consensus import ConsensusJudge, JudgeSpec, JudgmentRecord
from engine.offline import score_cell
from engine.providers import ProviderPool
from engine.run.assemble import comparison_from_rows, replay_rows
from engine.run.calls import Caller, CallEvent, CallResult, RunStopped, call_key, judge_request
from engine.run.outcome import Progress, RunOptions, RunOutcome
from engine.run.plan import CellPlan, RunPlan
from engine.scoring.cells import CellScore, failed_cell, ordered_points
from engine.scoring.summary import CellOutcome, summarize_outcomes
from engine.store.migrations import now
from engine.store.store import Store, StoreWriter

__all__ = ["execute_run"]


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
    ) -> None:
        self.run_id = run_id
        self.plan = plan
        self.blueprint: Blueprint = plan.blueprint
        self.store = store
        self.options = options
        self.stop = stop
        self.on_progress = on_progress
        self.writer: StoreWriter = store.writer()
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
        self.env = CheckEnv(settings=_settings())
        self.progress = Progress(total_calls=plan.total_calls, total_cells=len(plan.cells))
        for cell in plan.cells:
            self.progress.per_model.setdefault(cell.model_id, [0, 0])[1] += 1
        self.judge = (
            ConsensusJudge(
                plan.judges,
                self._judge_call,
                custom=plan.custom_judges,
                on_record=self._record_judgment,
                propagate=(RunStopped,),
            )
            if plan.judges
            else None
        )
        self.replays: dict[str, dict[str, dict[str, Any]]] = {}
        self.budget_hit = False

    # --- progress ------------------------------------------------------------------

    def _on_call(self, event: CallEvent) -> None:
        p = self.progress
        if event.ok:
            if event.source == "log":
                return  # finished before an interruption: already counted when the run resumed
            p.done_calls += 1
            if event.source == "cache":
                p.cached_calls += 1
            else:
                p.cost_usd += event.cost_usd or 0.0
            p.input_tokens += event.input_tokens
            p.output_tokens += event.output_tokens
        else:
            p.failed_calls += 1
        if self.options.max_cost_usd is not None and p.cost_usd >= self.options.max_cost_usd:
            self.budget_hit = True
            self.stop.set()
        self._report()

    def _report(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.progress)

    async def _heartbeat(self) -> None:
        while True:
            p = self.progress
            values = (
                now(),
                p.done_calls,
                p.cached_calls,
                p.failed_calls,
                p.done_cells,
                p.cost_usd,
                p.input_tokens,
                p.output_tokens,
                self.run_id,
            )

            def beat(conn: sqlite3.Connection, v: tuple[Any, ...] = values) -> None:
                conn.execute(
                    "UPDATE runs SET heartbeat_at=?, done_calls=?, cached_calls=?, failed_calls=?, "
                    "done_cells=?, cost_usd=?, input_tokens=?, output_tokens=? WHERE id=?",
                    v,
                )

            await asyncio.wrap_future(self.writer.submit(beat))
            await asyncio.sleep(1.0)

    # --- calls ---------------------------------------------------------------------

    async def _judge_call(self, judge: JudgeSpec, system: str, user: str) -> str:
        result = await self.caller.chat("judge", judge_request(judge, system, user))
        return result.text

    def _record_judgment(self, record: JudgmentRecord) -> None:
        values = (
            self.run_id,
            record.prompt_id,
            record.model_id,
            record.point_index,
            record.judge.label + (" [backup]" if record.backup else ""),
            record.judge.model,
            record.raw_text,
            record.class_name,
            record.score,
            record.reflection,
            record.error,
            now(),
        )
        self.writer.submit(
            lambda c: c.execute(
                "INSERT OR REPLACE INTO judgments VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", values
            )
        )

    async def _generate(
        self, cell: CellPlan, history: list[dict[str, Any]], turn: int
    ) -> CallResult:
        provider = cell.base_model.split(":", 1)[0]
        if cell.base_model == "ideal" or provider == "ideal":
            if not cell.prompt.ideal:
                raise EngineError(
                    f"prompt '{cell.prompt.id}' has no `ideal` response for the ideal model"
                )
            return CallResult(cell.prompt.ideal, None, 0, 0, 0.0, 0.0, "offline")
        if provider == "replay":
            path = cell.base_model.split(":", 1)[1]
            rows = self.replays.setdefault(path, replay_rows(path))
            row = rows.get(cell.prompt.id)
            if row is None or not isinstance(row.get("response"), str):
                raise EngineError(f"the replay file has no response for prompt '{cell.prompt.id}'")
            return CallResult(
                row["response"], None, 0, 0, float(row.get("duration_ms") or 0), 0.0, "offline"
            )
        return await self.caller.chat(
            "generate",
            cell.request(history, self.blueprint.tools),
            repeat=cell.repeat,
            cache_ok=not cell.prompt.no_cache,
            prompt_id=cell.prompt.id,
            cell_model=cell.model_id,
        )

    # --- cells ---------------------------------------------------------------------

    async def run_cell(self, cell: CellPlan, limit: asyncio.Semaphore) -> None:
        async with limit:
            if self.stop.is_set():
                return
            started = time.perf_counter()
            history: list[dict[str, Any]] = (
                [{"role": "system", "content": cell.system}] if cell.system is not None else []
            )
            generated: list[int] = []
            tool_calls = []
            durations: list[float] = []
            usage = [0, 0, 0.0]
            try:
                messages = cell.prompt.messages
                # None marks the final answer, generated after a conversation that ends with the user.
                turns: list[Message | None] = list(messages)
                if messages and messages[-1].role == "user":
                    turns.append(None)
                turn = 0
                for msg in turns:
                    if msg is not None and not msg.is_placeholder:
                        history.append({"role": msg.role, "content": msg.content})
                        continue
                    result = await self._generate(cell, list(history), turn)
                    turn += 1
                    history.append({"role": "assistant", "content": result.text})
                    generated.append(len(history) - 1)
                    durations.append(result.latency_ms)
                    for c in result.tool_calls or []:
                        tool_calls.append(c.model_copy(update={"message_index": len(history) - 1}))
                    usage[0] += result.input_tokens
                    usage[1] += result.output_tokens
                    usage[2] += result.cost_usd or 0.0
            except RunStopped:
                return
            except EngineError as exc:
                await self._save_cell(
                    cell,
                    failed_cell(cell.prompt.id, cell.model_id, str(exc)),
                    history,
                    None,
                    usage,
                    started,
                )
                return
            final = str(history[generated[-1]]["content"]) if generated else ""
            # Every value is built here with its declared type: skip re-validation (hot path).
            evidence = Evidence.model_construct(
                prompt_id=cell.prompt.id,
                model_id=cell.model_id,
                text="\n\n".join(str(history[i]["content"]) for i in generated),
                final_text=final,
                messages=history,
                generated_indices=generated,
                tool_calls=tool_calls or None,
                durations_ms=[d for d in durations if d > 0] or None,
                response_schema=cell.prompt.response_schema,
            )
            if is_js_blank(final) and not tool_calls:
                score = failed_cell(
                    cell.prompt.id,
                    cell.model_id,
                    "Model response generation failed or returned empty.",
                )
            else:
                judged: tuple[list[PointAssessment], dict[str, Any] | None] | None = None
                _, texts = ordered_points(cell.prompt)
                if texts and self.judge is not None:
                    try:
                        judged = await self.judge.judge_points(
                            self.blueprint, cell.prompt, evidence, texts
                        )
                    except RunStopped:
                        return
                if _needs_network(cell.prompt):
                    # $call / $factcheck block on HTTP: keep them off the event loop
                    score = await asyncio.to_thread(
                        score_cell, self.blueprint, cell.prompt, evidence, self.env, judged
                    )
                else:  # plain functions take microseconds; threads would only add GIL hops
                    score = score_cell(self.blueprint, cell.prompt, evidence, self.env, judged)
            await self._save_cell(cell, score, history, tool_calls, usage, started)

    async def _save_cell(
        self,
        cell: CellPlan,
        score: CellScore,
        history: list[dict[str, Any]],
        tool_calls: Any,
        usage: list[Any],
        started: float,
    ) -> None:
        failed = score.error is not None and not score.assessments
        final = next((m["content"] for m in reversed(history) if m["role"] == "assistant"), None)
        values = (
            self.run_id,
            cell.prompt.id,
            cell.model_id,
            cell.base_model,
            "failed" if failed else "scored",
            score.score,
            final,
            json.dumps(history, ensure_ascii=False),
            json.dumps([c.model_dump() for c in tool_calls]) if tool_calls else None,
            score.error if failed else None,
            (time.perf_counter() - started) * 1000,
            usage[0],
            usage[1],
            usage[2],
            json.dumps(score.to_weval(), ensure_ascii=False),
            now(),
        )
        await asyncio.wrap_future(
            self.writer.submit(
                lambda c: c.execute(
                    "INSERT OR REPLACE INTO cells(run_id, prompt_id, model_id, base_model, status, score, "
                    "response, messages, tool_calls, error, latency_ms, input_tokens, output_tokens, cost_usd, "
                    "result, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    values,
                )
            )
        )
        self.progress.done_cells += 1
        if failed:
            self.progress.failed_cells += 1
        self.progress.per_model.setdefault(cell.model_id, [0, 0])[0] += 1
        self._report()

    def prefetch(self, done: set[tuple[str, str]]) -> None:
        """Load the cached first answers of every cell still to run, in bulk."""
        keys = [
            call_key("generate", cell.request(cell.opening(), self.blueprint.tools), cell.repeat)
            for cell in self.plan.cells
            if cell.key not in done and not cell.prompt.no_cache and not cell.offline
        ]
        self.caller.prefetch(keys)

    async def run(self) -> RunOutcome:
        done = {(str(r["prompt_id"]), str(r["model_id"])) for r in self.store.cells(self.run_id)}
        for key in done:
            self.progress.done_cells += 1
            self.progress.per_model.setdefault(key[1], [0, 0])[0] += 1
        logged = sum(1 for _ in self.caller.log)
        self.progress.done_calls = min(logged, self.progress.total_calls)
        self.prefetch(done)
        self.store.set_run_status(self.run_id, "running")
        beat = asyncio.create_task(self._heartbeat())
        # The pool bounds calls in flight (`concurrency`); more cells than that may be between
        # calls (writing, scoring), so the pool stays busy while they do.
        limit = asyncio.Semaphore(max(1, self.options.concurrency) * 4)
        try:
            await asyncio.gather(
                *(self.run_cell(c, limit) for c in self.plan.cells if c.key not in done)
            )
        finally:
            beat.cancel()
            await asyncio.gather(beat, return_exceptions=True)
        return await asyncio.to_thread(self.finish)

    def finish(self) -> RunOutcome:
        self.writer.close()
        rows = self.store.cells(self.run_id)
        complete = len(rows) >= len(self.plan.cells)
        p = self.progress
        self.store.execute(
            "UPDATE runs SET done_calls=?, cached_calls=?, failed_calls=?, done_cells=?, cost_usd=?, "
            "input_tokens=?, output_tokens=? WHERE id=?",
            (
                p.done_calls,
                p.cached_calls,
                p.failed_calls,
                len(rows),
                p.cost_usd,
                p.input_tokens,
                p.output_tokens,
                self.run_id,
            ),
        )
        if not complete:
            status = "stopped"
            error = (
                "Stopped: the budget (--max-cost) was reached."
                if self.budget_hit
                else "Stopped before every call was made."
            )
            self.store.set_run_status(self.run_id, status, error)
            return RunOutcome(status, None, None, p, error)
        weights = {pr.id: pr.weight for pr in self.blueprint.prompts}
        summaries = summarize_outcomes(
            (
                CellOutcome(
                    str(r["model_id"]), str(r["prompt_id"]), r["score"], r["status"] == "failed"
                )
                for r in rows
            ),
            weights,
        )
        comparison = path = None
        if self.options.out_dir is not None:  # the full comparison only when it is written
            comparison = comparison_from_rows(self.blueprint, rows)
            path = comparison.write(self.options.out_dir)
        summary = {m: s.model_dump() for m, s in summaries.items()}
        self.store.execute(
            "UPDATE runs SET comparison_path=?, summary=? WHERE id=?",
            (str(path) if path else None, json.dumps(summary), self.run_id),
        )
        self.store.set_run_status(self.run_id, "completed")
        return RunOutcome("completed", comparison, path, p, summaries=summaries)


_NETWORK_FUNCTIONS = frozenset({"call", "external", "factcheck"})


def _needs_network(prompt: Prompt) -> bool:
    return any(p.fn in _NETWORK_FUNCTIONS for p in prompt.points)


def _settings() -> Any:
    from engine.settings import load_settings

    return load_settings()


async def execute_run(
    run_id: str,
    plan: RunPlan,
    store: Store,
    pool: ProviderPool,
    options: RunOptions,
    *,
    stop: threading.Event | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> RunOutcome:
    """Run (or resume) `run_id` to the end, or until `stop` is set or the budget is spent."""
    runner = _Runner(run_id, plan, store, pool, options, stop or threading.Event(), on_progress)
    try:
        return await runner.run()
    except BaseException as exc:
        status = (
            "stopped" if isinstance(exc, (KeyboardInterrupt, asyncio.CancelledError)) else "failed"
        )
        try:
            runner.writer.close()
        finally:
            store.set_run_status(
                run_id,
                status,
                f"{type(exc).__name__}: {exc}" if status == "failed" else "Interrupted.",
            )
        raise
