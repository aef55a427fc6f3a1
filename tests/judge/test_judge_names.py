"""Judges are shown by one readable name, not Weval's `<id>(<provider:model>)` string."""

from __future__ import annotations

import pytest

from engine.judge.consensus import BACKUP_JUDGE, DEFAULT_JUDGES, JudgeSpec
from engine.modelids import judge_name


@pytest.mark.parametrize(
    ("judge_id", "shown"),
    [
        (
            "holistic-gemini-2-5-flash(openrouter:google/gemini-2.5-flash)",
            "gemini-2.5-flash (holistic)",
        ),
        ("standard(openai:fake-judge)", "fake-judge (standard)"),
        ("prompt-aware(ollama:llama3.2)", "llama3.2 (prompt-aware)"),
        (
            "backup-claude-4-5-haiku(openrouter:anthropic/claude-haiku-4.5)",
            "claude-haiku-4.5 (backup)",
        ),
        ("standard(openai:gpt-4.1-mini) [backup]", "gpt-4.1-mini (standard, backup)"),
        ("my-judge(openai:gpt-4.1-mini)", "my-judge (gpt-4.1-mini)"),
        ("a judge written by hand", "a judge written by hand"),
    ],
)
def test_a_judge_id_reads_as_one_name(judge_id: str, shown: str) -> None:
    assert judge_name(judge_id) == shown


def test_the_default_judges_have_names_apart() -> None:
    names = [judge_name(j.label) for j in (*DEFAULT_JUDGES, BACKUP_JUDGE)]
    assert len(set(names)) == len(names)
    assert all("(" not in n.split(" (")[0] and ":" not in n for n in names)
    assert judge_name(JudgeSpec("openai:gpt-4.1-mini").label) == "gpt-4.1-mini (standard)"
