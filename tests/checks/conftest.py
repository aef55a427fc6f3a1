"""Helpers for the point-function tests: an environment, evidence and one-call evaluation."""

from __future__ import annotations

from typing import Any

import pytest

from engine.assessment import PointAssessment
from engine.blueprint.models import Blueprint, Point, Prompt
from engine.checks import CATALOGUE, CheckContext, CheckEnv, evaluate_point
from engine.evidence import Evidence
from engine.settings import Settings

_ABSENT = object()


def make_evidence(text: str = "", **fields: Any) -> Evidence:
    fields.setdefault("prompt_id", "test-prompt")
    fields.setdefault("model_id", "test-model")
    return Evidence(text=text, **fields)


def make_point(fn: str, args: Any = _ABSENT, **fields: Any) -> Point:
    if args is _ABSENT:
        return Point(fn=fn, **fields)
    return Point(fn=fn, args=args, has_args=args is not None, **fields)


def raw(
    fn: str,
    text: str,
    args: Any = None,
    env: CheckEnv | None = None,
    blueprint: Blueprint | None = None,
    prompt: Prompt | None = None,
    **evidence: Any,
) -> Any:
    """Call a registered function directly and return its upstream-shaped result."""
    ctx = CheckContext(make_evidence(text, **evidence), env or CheckEnv(), blueprint, prompt)
    return CATALOGUE[fn](text, args, ctx)


def assess(
    fn: str,
    text: str = "",
    args: Any = _ABSENT,
    *,
    env: CheckEnv | None = None,
    blueprint: Blueprint | None = None,
    prompt: Prompt | None = None,
    inverted: bool = False,
    **evidence: Any,
) -> PointAssessment:
    point = make_point(fn, args, inverted=inverted)
    return evaluate_point(
        point,
        make_evidence(text, **evidence),
        env=env or CheckEnv(),
        blueprint=blueprint,
        prompt=prompt,
    )


@pytest.fixture
def env() -> CheckEnv:
    return CheckEnv(settings=Settings())
