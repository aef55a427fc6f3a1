"""The Results page's win-rate table and agreement sentence (pure helpers)."""

from __future__ import annotations

from engine.review.preferences import agreement, win_rates
from engine.stats.proportion import wilson
from engine.store import PreferenceRow
from studio.views.results.preferences_view import agreement_words, win_rates_markdown

A, B = "openai:a", "openai:b"


def pick(choice: str, pid: str) -> PreferenceRow:
    return PreferenceRow("run-1", pid, A, B, "me", choice, "2026-12-01T06:00:00.000+00:00")  # type: ignore[arg-type]


def test_the_table_shows_counts_rate_and_interval_and_escapes_names():
    rates = win_rates([pick("a", "p1"), pick("b", "p2"), pick("same", "p3"), pick("a", "p4")])
    table = win_rates_markdown(rates, {A: "<img src=x>|[a](http://e)", B: "b"})
    row = table.splitlines()[-1]
    expected = wilson(2.5, 4)
    assert f"| 4 | 2 | 1 | 1 | 62% | {expected.low:.0%} to {expected.high:.0%} |" in row
    assert row.startswith(r"| \<img src\=x\>\|\[a\]\(http")  # a name is text, not markup
    assert row.count(" | ") == 7  # the name's `|` did not add a column


def test_the_agreement_sentence_says_the_share_and_its_interval():
    scores = {("p1", A): 1.0, ("p1", B): 0.5, ("p2", A): 0.5, ("p2", B): 0.52, ("p3", A): 0.4}
    found = agreement([pick("a", "p1"), pick("a", "p2"), pick("b", "p3")], scores)
    expected = wilson(1, 2)
    assert agreement_words(found) == (
        f"The judges' scores agree with 1 of 2 picks: 50%, likely between "
        f"{expected.low:.0%} and {expected.high:.0%} (1 pick(s) on unscored answers left out)."
    )
    nothing = agreement([pick("a", "p3")], scores)
    assert agreement_words(nothing).startswith("No pick is on two scored answers")
