"""The plan warns before a run when `ideal` has no answer for some prompts (issue 14)."""

from __future__ import annotations

from engine.blueprint import parse_blueprint
from engine.run import plan_run

BLUEPRINT = """title: t
models: [ideal]
---
- id: with-ideal
  prompt: hi
  ideal: Hello.
  should: [$contains: Hello]
- id: no-ideal
  prompt: bye
  should: [$contains: Bye]
- id: blank-ideal
  prompt: again
  ideal: "  "
  should: [$contains: Again]
"""


def test_ideal_without_answers_is_warned_about_before_the_run():
    plan = plan_run(parse_blueprint(BLUEPRINT), judge=False)
    warning = next(w for w in plan.warnings if "`ideal`" in w)
    assert "no answer for 2 of 3 prompts ('no-ideal', 'blank-ideal')" in warning
    assert "Add an `ideal:` answer" in warning
    assert not plan.problems  # a warning, not a problem: the other prompts still run


def test_no_warning_when_ideal_is_not_run_or_every_prompt_has_one():
    bp = parse_blueprint(BLUEPRINT)
    assert not [
        w for w in plan_run(bp, models=["openai:gpt-4o"], judge=False).warnings if "ideal" in w
    ]
    full = parse_blueprint(BLUEPRINT.split("- id: no-ideal")[0])
    assert not [w for w in plan_run(full, judge=False).warnings if "ideal" in w]


def test_many_missing_prompts_are_listed_briefly():
    prompts = "".join(f"- id: p{i}\n  prompt: q\n  should: [$contains: x]\n" for i in range(40))
    plan = plan_run(parse_blueprint("title: t\nmodels: [ideal]\n---\n" + prompts), judge=False)
    (warning,) = [w for w in plan.warnings if "ideal" in w]
    assert "and 35 more" in warning and len(warning) < 400
