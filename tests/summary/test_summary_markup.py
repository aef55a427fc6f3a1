"""The summary cleaner keeps only text: nested or split tags never come out as tags (item 6)."""

from __future__ import annotations

import re

import pytest

from engine.report.executive import read_executive
from engine.summary.anonymize import Anonymizer
from engine.summary.parse import clean_text, parse_summary

TAG = re.compile(r"<[A-Za-z/!?]")
TRICKS = [
    "<scr<b>ipt>alert(1)</scr<i>ipt>",
    "<im<i>g src=x onerror=alert(1)>",
    "<<<b>b>b>img src=x onerror=alert(1)>",
    "<img src=x onerror=" + "a" * 400 + ">",
    "<\x00script>alert(1)</script>",
    "<!-- x --><svg/onload=alert(1)>",
]


@pytest.mark.parametrize("trick", TRICKS)
def test_no_tag_survives_the_cleaner(trick: str) -> None:
    assert not TAG.search(clean_text(f"Model A did well. {trick} The end."))


@pytest.mark.parametrize("trick", TRICKS)
def test_the_stored_executive_summary_holds_no_tag_anywhere(trick: str) -> None:
    answer = (
        f"Overview {trick}\n<key_finding>Finding {trick}</key_finding>\n"
        f'<grade model="Model A" dimension="clarity">SCORE: 7\nREASONING: Clear {trick}</grade>'
    )
    summary = parse_summary(answer, Anonymizer(["openai:m"]), "openai:judge")
    assert not TAG.search(str(summary))
    assert "Finding" in summary["structured"]["keyFindings"][0]


@pytest.mark.parametrize("trick", TRICKS)
def test_a_comparison_files_summary_is_read_as_text(trick: str) -> None:
    view = read_executive(
        {"modelId": "m", "content": f"Hello {trick}", "structured": {"keyFindings": [trick]}}
    )
    assert view is not None and not TAG.search(str(view))


def test_plain_comparisons_in_text_are_kept() -> None:
    assert clean_text("Model A scored 3 < 5 and <b>bold</b> words.") == (
        "Model A scored 3 < 5 and bold words."
    )
