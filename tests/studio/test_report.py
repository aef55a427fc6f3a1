"""The self-contained HTML report and the CSV export (engine/report, pure)."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser

from engine.blueprint import parse_blueprint
from engine.comparison import comparison_from_rows
from engine.report import CSV_COLUMNS, comparison_csv, csv_rows, render_html
from engine.store import Store, open_store
from tests.studio.helpers import make_run

HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def comparison_of(store: Store, run_id: str):
    run = store.get_run(run_id)
    bp = parse_blueprint(store.blueprint_text(run.blueprint_hash), source="or-paths.yml")
    return comparison_from_rows(bp, store.cells(run_id))


def parsed(doc: str) -> Tags:
    tags = Tags()
    tags.feed(doc)
    return tags


def assert_inert(doc: str) -> Tags:
    """No script, no event handler, nothing fetched: only inline CSS and in-page anchors."""
    tags = parsed(doc)
    names = {t for t, _ in tags.tags}
    assert not names & {"script", "img", "iframe", "object", "embed", "link", "base", "form"}
    for tag, attrs in tags.tags:
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            if name in ("src", "srcset", "action", "formaction", "poster", "background"):
                raise AssertionError(f"{tag} fetches {value}")
            if name == "href":
                assert (value or "").startswith("#"), value
            if name == "style":
                assert "url(" not in (value or "")
    assert "@import" not in doc and "url(" not in doc
    return tags


def test_report_has_the_scores_and_the_arithmetic(or_paths_run):
    store, run_id = or_paths_run
    comparison = comparison_of(store, run_id)
    doc = render_html(comparison, link=f"http://127.0.0.1:8501/results?run={run_id}")
    tags = assert_inert(doc)
    text = " ".join(tags.text)
    assert "Two good ways to answer" in text
    assert "Leaderboard" in text and "openai:fake-a" in text and "openai:fake-b" in text
    for model, summary in comparison.summaries().items():
        assert f"{summary.average:.2f}" in text, model
    # one rounding rule for scores: 2 decimals, never "1.0000 -> 1.00" (issue 31)
    assert "Final score: (1.00 + 1.00) / 2 = 1.00" in text and "1.000" not in text
    assert "← best path: this one counts" in text  # the studio's words (issue 39)
    assert "New Year's Day is on January 1 in the Gregorian calendar." in text
    assert 'http-equiv="Content-Security-Policy"' in doc and "default-src 'none'" in doc


def test_hostile_text_is_escaped_everywhere(llm_env, scripted_llm):
    from tests.fakes.llm_replies import FakeReply

    scripted_llm.reply_with(lambda request: FakeReply(text=HOSTILE))
    text = (
        f"title: 'T {HOSTILE}'\n"
        f"description: '{HOSTILE}'\n"
        "---\n"
        "- id: xss\n"
        f"  prompt: 'Say {HOSTILE}'\n"
        f"  ideal: '{HOSTILE}'\n"
        "  should:\n"
        "    - $contains: '<script>'\n"
    )
    store = open_store()
    run_id = make_run(store, text, ["openai:fake-a"], environ=llm_env)
    run = store.get_run(run_id)
    comparison = comparison_from_rows(
        parse_blueprint(store.blueprint_text(run.blueprint_hash)), store.cells(run_id)
    )
    doc = render_html(comparison, link=HOSTILE)
    tags = assert_inert(doc)
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in doc
    assert HOSTILE in " ".join(tags.text)  # shown as text, never as markup


def test_report_of_a_failed_cell_and_usage():
    data = {
        "configTitle": "Small",
        "promptIds": ["p1"],
        "evaluationResults": {
            "llmCoverageScores": {
                "p1": {
                    "m1": {
                        "keyPointsCount": 1,
                        "avgCoverageExtent": 0.25,
                        "pointAssessments": [
                            {"keyPointText": "Is kind", "coverageExtent": 0.25, "pathId": None}
                        ],
                    },
                    "m2": {"error": "Generation failed: timeout"},
                }
            }
        },
    }
    from engine.comparison import read_comparison

    doc = render_html(
        read_comparison(data),
        usage={
            ("p1", "m1"): {
                "latency_ms": 1500,
                "input_tokens": 10,
                "output_tokens": 5,
                "cost_usd": 0.001,
            }
        },
    )
    assert_inert(doc)
    assert "Generation failed: timeout" in doc
    assert "1.50 s" in doc and "answer $0.0010" in doc


def test_csv_has_one_row_per_prompt_model_point(or_paths_run):
    store, run_id = or_paths_run
    comparison = comparison_of(store, run_id)
    rows = list(csv.DictReader(io.StringIO(comparison_csv(comparison))))
    assert len(rows) == 2 * 5
    assert list(rows[0]) == list(CSV_COLUMNS)
    first = rows[0]
    # the name every page shows; Weval's id beside it (issue 31)
    assert first["prompt_id"] == "new-year" and first["model"] == "openai:fake-a"
    assert first["model_id"] == "openai:fake-a[temp:0]"
    assert first["point"] == 'Function: icontains("january 1")'
    assert first["path"] == "path_1" and first["status"] == "scored"
    assert float(first["cell_score"]) == 1.0


def test_csv_guards_against_spreadsheet_formulas():
    from engine.comparison import read_comparison

    data = {
        "evaluationResults": {
            "llmCoverageScores": {
                "=HYPERLINK(1)": {
                    "m": {
                        "pointAssessments": [
                            {"keyPointText": "+cmd", "coverageExtent": 1, "reflection": "@x"}
                        ]
                    },
                    "-bad": {"error": "=1+1"},
                }
            }
        }
    }
    rows = list(csv_rows(read_comparison(data)))
    assert rows[0]["prompt_id"] == "'=HYPERLINK(1)"
    assert rows[0]["model"] == "'-bad" and rows[0]["cell_error"] == "'=1+1"
    assert rows[0]["point"] is None
    assert rows[1]["point"] == "'+cmd" and rows[1]["reflection"] == "'@x"
