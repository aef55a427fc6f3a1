"""The quick try's summary: said by our code from a comparison, and read by the assistant."""

from __future__ import annotations

from engine.assessment import PointAssessment
from engine.comparison.weval import Comparison
from engine.drafting.converse import HISTORY_SENT, converse
from engine.drafting.quick_try import SUMMARY_PREFIX, quick_try_summary
from engine.scoring.cells import CellScore
from engine.store import open_store
from tests.fakes.scripted import answer_as

A, B = "openai:small", "anthropic:tiny"


def _cell(prompt: str, model: str, *extents: float) -> CellScore:
    points = [
        PointAssessment(key_point_text=f"{prompt} point {i + 1}", coverage_extent=e)
        for i, e in enumerate(extents)
    ]
    return CellScore(
        prompt_id=prompt,
        model_id=model,
        assessments=points,
        score=round(sum(extents) / len(extents), 2),
    )


def _comparison() -> Comparison:
    cells = {
        "p1": {A: _cell("p1", A, 1.0, 0.8), B: _cell("p1", B, 0.6, 1.0)},
        "p2": {A: _cell("p2", A, 0.4, 0.0), B: _cell("p2", B, 0.2, 0.0)},
        "p3": {
            A: _cell("p3", A, 1.0, 0.0),
            B: CellScore(prompt_id="p3", model_id=B, error="HTTP 500 from the API"),
        },
    }
    return Comparison(
        config_id="c",
        config_title="Tax",
        run_label="l",
        timestamp="t",
        models=[A, B],
        prompt_ids=["p1", "p2", "p3"],
        cells=cells,
    )


def test_the_summary_names_low_prompts_zero_points_and_failures():
    text = quick_try_summary(_comparison(), "/results?run=abc123")
    lines = text.splitlines()
    assert lines[0] == f"{SUMMARY_PREFIX} (3 prompts, 2 models):"
    assert f"- {A}: average 0.53 over 3 scored prompts" in lines  # (0.9 + 0.2 + 0.5) / 3
    assert f"- {B}: average 0.45 over 2 scored prompts, 1 failed" in lines
    assert (
        "- prompt p2 scored 0.20 or less on every model: its points may be too strict or unclear"
        in lines
    )
    assert not any("prompt p1 scored" in line or "prompt p3 scored" in line for line in lines)
    assert '- prompt p2, point "p2 point 2" scored 0 on every model' in lines
    assert not any('"p2 point 1"' in line or '"p3 point 2"' in line for line in lines)
    assert "- 1 answer failed (no answer could be scored)" in text
    assert lines[-1] == "Full results: /results?run=abc123"


def test_the_latest_quick_try_is_sent_with_the_next_message_even_when_old(fake_llm):
    store = open_store()
    store.save_draft("d", "title: Old\n---\n- id: a\n  prompt: Hi\n", "Old")
    summary = quick_try_summary(_comparison())
    store.add_draft_message("d", "assistant", summary)
    for n in range(HISTORY_SENT):
        store.add_draft_message("d", "user" if n % 2 == 0 else "assistant", f"message {n}")
    fake_llm.reply_with(answer_as("assistant", "Shall I loosen p2's second point?"))
    turn = converse(
        store,
        "openai:assistant",
        "title: Old\n---\n- id: a\n  prompt: Hi\n",
        store.draft_messages("d"),
        "What went wrong?",
        environ=fake_llm.env(),
    )
    assert turn.words == "Shall I loosen p2's second point?"
    [call] = fake_llm.calls
    assert call.messages[1] == {"role": "assistant", "content": summary}
    assert call.messages[2]["content"] == "message 0"
    assert len(call.messages) == HISTORY_SENT + 3
