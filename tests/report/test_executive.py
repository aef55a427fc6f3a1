"""An executive summary read from any comparison file: Weval's own, or a hostile one."""

from __future__ import annotations

from engine.report.executive import executive_html, read_executive


def test_wevals_linked_summary_reads_as_plain_words():
    view = read_executive(
        {
            "modelId": "openrouter:google/gemini-2.5-flash",
            "content": "raw",
            "isStructured": True,
            "structured": {
                "keyFindings": [
                    "[gpt-4o](#model-perf:openai:gpt-4o) led on [p1](#prompt-detail:p1)."
                ],
                "strengths": [],
                "weaknesses": ['<ref maker="MK_5000" /> lagged ![x](http://e.example/i.png)'],
                "patterns": [],
                "grades": [
                    {"modelId": "openai:gpt-4o", "grades": {"clarity": 8, "depth": None, "x": 3}},
                    {"modelId": "m", "grades": {"clarity": 99, "tone": True}},
                ],
            },
        }
    )
    assert view is not None
    assert view.sections == [
        ("Key findings", ["gpt-4o led on p1."]),
        ("Weaknesses", ["lagged x"]),
    ]
    assert view.grades == [("openai:gpt-4o", [("Clarity", 8.0)])]  # out of range and bools go


def test_unusable_summaries_show_nothing_and_text_is_escaped():
    assert read_executive(None) is None
    assert read_executive({"modelId": 5, "content": "  "}) is None
    assert read_executive([1, 2]) is None
    view = read_executive({"modelId": "<b>m</b>", "content": 'a & "b" <i>x</i>'})
    assert view is not None and view.content == 'a & "b" x'
    page = executive_html(view)
    assert "<b>" not in page and "Written by a model (m)" in page
    assert "a &amp; &quot;b&quot; x" in page
