"""The reviewed prompts of the drafting help: what a model is asked, and nothing else.

Two requests: a blueprint from a goal written in a few sentences, and rubric points for one
prompt. Both ask for plain Weval YAML; the answer is never trusted (see `engine.drafting.check`).
"""

from __future__ import annotations

__all__ = [
    "DRAFT_MAX_TOKENS",
    "DRAFT_TEMPERATURE",
    "goal_messages",
    "points_messages",
    "rules",
]

DRAFT_TEMPERATURE = 0.3
DRAFT_MAX_TOKENS = 4000
_GOAL_CHARS = 4000

_RULES = """Rules for the YAML:
- Plain Weval blueprint YAML only, in one ```yaml fenced block, nothing else.
- Points are short plain sentences a judge can check in the answer.
- You may use these point functions: $contains, $icontains, $not_contains, $regex,
  $word_count_between. Never use $call, $external, $factcheck or $js.
- No anchors, aliases, tags, HTML, links or ${...} placeholders."""


def rules() -> str:
    """The rules every drafting request states for the YAML it asks for."""
    return _RULES


def goal_messages(goal: str) -> list[dict[str, str]]:
    """Ask for a whole blueprint (a header and 3 to 5 prompts) that tests `goal`."""
    system = f"""You help people who are not engineers write evaluations of language models
as Weval blueprints. Given a goal, write a blueprint: a header with `title` and `description`,
then `---`, then 3 to 5 prompts, each with an `id`, a `prompt`, `should` points and, where
useful, `should_not` points.

{_RULES}"""
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": "The goal, in the author's words:\n\n" + goal[:_GOAL_CHARS]},
    ]


def points_messages(prompt_text: str, existing: list[str]) -> list[dict[str, str]]:
    """Ask for `should` and `should_not` points for one prompt (not repeating `existing`)."""
    system = f"""You help people write rubric points for one prompt of a Weval blueprint.
Answer with a YAML mapping with the keys `should` and `should_not`, each a list of 2 to 6
points that a good answer to the prompt meets (or avoids).

{_RULES}"""
    have = "\n".join(f"- {p}" for p in existing[:50]) or "(none yet)"
    user = f"The prompt:\n\n{prompt_text[:_GOAL_CHARS]}\n\nPoints it already has:\n{have}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
