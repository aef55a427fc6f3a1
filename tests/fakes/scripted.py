"""Scripted answers for the summary and drafting tests: one model answers with a given text.

`answer_as(model, text)` answers requests for `model` with `text` (a string, or a function of
the request) and every other request as the fake server does by default (judges, echoes).
"""

from __future__ import annotations

from collections.abc import Callable

from tests.fakes.llm_replies import FakeReply, FakeRequest, echo_reply, first_word_rule, judge_reply

__all__ = ["SUMMARY_ANSWER", "answer_as"]

SUMMARY_ANSWER = """<key_finding>Model A answered <ref prompt="greet" /> warmly; Model B did not.</key_finding>
<key_finding>Both models kept the multi-turn chat on topic.</key_finding>
<strength>Model A[temp:0] repeated the question as asked.</strength>
<weakness>Model B missed the greeting.</weakness>
<pattern>Scores split on the text point only.</pattern>
<grade model="Model A" dimension="adherence">
REASONING: Model A did what was asked.
SCORE: 8/10
</grade>
<grade model="Model A" dimension="empathy">
REASONING: Not relevant here.
SCORE: N/A
</grade>
<grade model="Model B" dimension="adherence">
REASONING: Model B drifted.
SCORE: 4
</grade>
<grade model="Model Q" dimension="adherence">REASONING: nobody
SCORE: 9/10</grade>
<topic>Greetings</topic>"""
"""A well-formed summary of a run of two models (labels `Model A` and `Model B`)."""


def answer_as(
    model: str, text: str | Callable[[FakeRequest], str]
) -> Callable[[FakeRequest], FakeReply]:
    """A replier for `FakeLLM.reply_with`: `text` for `model`, the default answers otherwise."""
    rule = first_word_rule()

    def reply(request: FakeRequest) -> FakeReply:
        if request.model == model:
            return FakeReply(text=text if isinstance(text, str) else text(request))
        return judge_reply(request, rule) or echo_reply(request)

    return reply
