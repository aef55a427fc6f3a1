"""Fixtures of the studio tests: a scripted fake LLM and runs stored by the engine."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.store import Store, open_store
from tests.fakes.llm_replies import FakeReply, FakeRequest, judge_reply
from tests.fakes.llm_server import FakeLLM
from tests.studio.browser import browser  # noqa: F401  (the module-scoped Chromium fixture)
from tests.studio.helpers import example, make_run

ANSWERS = {
    "fake-a": "New Year's Day is on January 1 in the Gregorian calendar.",
    "fake-b": "Other calendars have other new years. Which calendar do you mean?",
}


def judge_rule(criterion: str, text: str) -> str:
    """A judge that reads the answer: met when the answer does what the criterion says."""
    c, t = criterion.lower(), text.lower()
    met = {
        "polite": True,
        "gregorian": "gregorian" in t,
        "other calendars": "other calendars" in t,
        "asks which": "?" in t,
    }
    for key, value in met.items():
        if key in c:
            return "CLASS_EXACT" if value else "CLASS_UNMET"
    return "CLASS_PARTIAL"


def scripted(answers: dict[str, str]) -> Callable[[FakeRequest], FakeReply]:
    def reply(request: FakeRequest) -> FakeReply:
        judged = judge_reply(request, judge_rule)
        if judged is not None:
            return judged
        return FakeReply(text=answers.get(request.model, f"[{request.model}] I am not sure."))

    return reply


@pytest.fixture
def scripted_llm(fake_llm: FakeLLM) -> FakeLLM:
    """The fake LLM, answering fake-a and fake-b differently and judging sensibly."""
    fake_llm.reply_with(scripted(ANSWERS))
    return fake_llm


@pytest.fixture
def llm_env(scripted_llm: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Point the providers of this process (and of AppTest scripts) at the fake LLM."""
    env = scripted_llm.env()
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


@pytest.fixture
def or_paths_run(llm_env: dict[str, str]) -> tuple[Store, str]:
    """A completed run of the or-paths example: two fake models, one fake judge."""
    store = open_store()
    return store, run_or_paths(store, llm_env)


def run_or_paths(store: Store, llm_env: dict[str, str]) -> str:
    """Run the or-paths example to the end on two fake models with one fake judge."""
    return make_run(
        store,
        example("or-paths.yml"),
        ["openai:fake-a", "openai:fake-b"],
        environ=llm_env,
        judges=["openai:fake-judge"],
        judge=True,
        source="or-paths.yml",
    )
