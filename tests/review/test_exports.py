"""Reviewers' verdicts in the CSV, the comparison JSON (`blueprintStudio.reviews`) and the HTML."""

from __future__ import annotations

import csv
import io
import json

from engine.comparison import read_comparison
from engine.report import CSV_COLUMNS, comparison_csv, render_html
from engine.report.csv import REVIEW_COLUMNS
from engine.report.reviews import comparison_json_with_reviews
from tests.review.data import CLEAR, VAGUE, comparison, review

HOSTILE = '<script>alert(1)</script> & "quotes"'


def verdicts():
    return [
        review("p1", "openai:a", VAGUE, 0.25, judge=0.5625, comment=HOSTILE, index=1),
        review("p1", "openai:a", VAGUE, 0.5, author="ana@example.org", comment="=SUM(A1)", index=1),
        review("p1", "openai:b", CLEAR, 0.9375, verdict="agree", judge=0.9375),
        review("p2", "openai:a", VAGUE, 0.0, answer="Another answer."),  # not this run's answer
    ]


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_csv_has_review_columns_only_when_asked():
    assert list(rows(comparison_csv(comparison()))[0]) == list(CSV_COLUMNS)
    table = rows(comparison_csv(comparison(), verdicts()))
    assert list(table[0]) == [*CSV_COLUMNS, *REVIEW_COLUMNS]
    by = {(r["prompt_id"], r["model"], r["point"]): r for r in table}
    vague = by[("p1", "openai:a", VAGUE)]
    assert vague["review_verdict"] == "score"
    assert float(vague["review_score"]) == 0.375  # the mean of the two reviewers
    assert vague["review_author"] == "ana@example.org, me"
    assert (
        HOSTILE in vague["review_comment"]
        and "ana@example.org: =SUM(A1)" in vague["review_comment"]
    )
    agreed = by[("p1", "openai:b", CLEAR)]
    assert (agreed["review_verdict"], float(agreed["review_score"])) == ("agree", 0.9375)
    assert by[("p2", "openai:a", VAGUE)]["review_verdict"] == ""  # a verdict on another answer


def test_a_comment_that_looks_like_a_formula_is_defused():
    verdict = review("p1", "openai:a", VAGUE, 0.5, author="=evil", comment="x", index=1)
    table = rows(comparison_csv(comparison(), [verdict]))
    vague = next(r for r in table if r["model"] == "openai:a" and r["point"] == VAGUE)
    assert vague["review_comment"].startswith("'=") and vague["review_author"].startswith("'=")


def test_the_comparison_json_keeps_verdicts_in_our_own_block():
    comp = comparison()
    data = json.loads(comparison_json_with_reviews(comp, verdicts()))
    assert data["evaluationResults"] == json.loads(comp.to_json())["evaluationResults"]
    block = data["blueprintStudio"]["reviews"]
    assert [(r["promptId"], r["model"], r["point"], r["author"], r["verdict"]) for r in block] == [
        ("p1", "openai:a", 2, "ana@example.org", "score"),  # same time: by author
        ("p1", "openai:a", 2, "me", "score"),
        ("p1", "openai:b", 1, "me", "agree"),
    ]
    assert block[1]["comment"] == HOSTILE and block[1]["keyPointText"] == VAGUE
    again = read_comparison(data)  # a reader of the file (ours, or Weval's) is not disturbed
    assert again.cells.keys() == comp.cells.keys()


def test_the_html_report_shows_verdicts_escaped():
    doc = render_html(comparison(), reviews=verdicts())
    assert "<script>alert" not in doc
    assert (
        "Reviewer me scores it (0.25): &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"
        in doc
    )
    assert "Reviewer me agrees with the judge (0.94)" in doc
    assert "Reviewer me scores it (0.00)" not in doc  # the verdict on another answer
    assert "Reviewer" not in render_html(comparison())
