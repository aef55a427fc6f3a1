"""The models a run answers in this process: `ideal` (the prompt's ideal response) and `replay:<file>`.

`app:<name>` (a chat app's pasted answers) is registered too, only to refuse: its answers are
scored as given (`engine.run.pasted`), never asked for.

They are providers like any other (`engine.providers.LocalModel`), registered with the run's
`ProviderPool`, so the run code calls every model the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.blueprint.models import Blueprint
from engine.errors import EngineError
from engine.providers import ChatRequest, ChatResponse
from engine.providers.types import LocalModel

__all__ = ["AppAnswers", "IdealModel", "ReplayModel", "local_models"]


def _answer(request: ChatRequest, text: str, latency_ms: float = 0.0) -> ChatResponse:
    return ChatResponse(
        text=text, latency_ms=latency_ms, attempts=1, model=request.model_id, cost_usd=0.0
    )


class IdealModel:
    """`ideal`: answers every turn of a prompt with the prompt's `ideal` response."""

    def __init__(self, blueprint: Blueprint) -> None:
        self.blueprint = blueprint

    def check(self, model_id: str) -> str | None:
        """Always answerable (a prompt without `ideal` fails its own cell)."""
        return None

    async def chat(self, request: ChatRequest) -> ChatResponse:
        """The ideal response of the request's prompt.

        Raises:
            EngineError: The prompt has no `ideal` response.
        """
        prompt = self.blueprint.prompt(request.prompt_id or "")
        if prompt is None or not prompt.ideal:
            raise EngineError(
                f"prompt '{request.prompt_id}' has no `ideal` response for the ideal model"
            )
        return _answer(request, prompt.ideal)


class ReplayModel:
    """`replay:<file>`: answers from a responses JSONL file (the first row per prompt id)."""

    def __init__(self) -> None:
        self._files: dict[str, dict[str, dict[str, Any]]] = {}

    def check(self, model_id: str) -> str | None:
        """Why the model's file cannot be read (None when it is there)."""
        path = model_id.partition(":")[2].strip()
        if not Path(path).is_file():
            return f"The replay file '{path}' does not exist (model `{model_id}`)."
        return None

    async def chat(self, request: ChatRequest) -> ChatResponse:
        """The recorded response of the request's prompt.

        Raises:
            EngineError: The file cannot be read or has no response for the prompt.
        """
        path = request.model_id.partition(":")[2].strip()
        rows = self._files.get(path)
        if rows is None:
            from engine.run.assemble import replay_rows  # the run's scoring modules

            rows = self._files[path] = replay_rows(path)
        row = rows.get(request.prompt_id or "")
        if row is None or not isinstance(row.get("response"), str):
            raise EngineError(f"the replay file has no response for prompt '{request.prompt_id}'")
        return _answer(request, row["response"], float(row.get("duration_ms") or 0))


class AppAnswers:
    """`app:<name>`: a chat app's answers, pasted by a person; there is nothing to ask."""

    def check(self, model_id: str) -> str | None:
        """Always why not: an app's answers are pasted, then scored, never generated."""
        return (
            f"`{model_id}` stands for a chat app's pasted answers: it cannot be run. Paste "
            'its answers in the studio (Run page, "Pasted answers") or score them with '
            "`blueprint score FILE --responses ANSWERS.jsonl`."
        )

    async def chat(self, request: ChatRequest) -> ChatResponse:
        """Never answers.

        Raises:
            EngineError: Always (see `check`).
        """
        raise EngineError(self.check(request.model_id) or "")


def local_models(blueprint: Blueprint) -> dict[str, LocalModel]:
    """The local models of a run of `blueprint`, by provider prefix."""
    return {"ideal": IdealModel(blueprint), "replay": ReplayModel(), "app": AppAnswers()}
