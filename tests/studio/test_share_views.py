"""The share page's pages and the report's views, read as HTML (no browser): what each holds.

A comparison of 120 prompts x 3 models, one with a hostile id and hostile answers, is drawn as
the share page would draw it (`studio.views.share.share_view` + `studio.core.run_files.run_file`) and as the
one-file report.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from engine.comparison import read_comparison
from engine.report import render_html
from engine.report.views.overview import date_words
from engine.report.views.palette import palette_css, score_class, score_colour
from studio.core.resultdata import Results
from studio.core.run_files import run_file
from studio.views.share.share_view import DETAILS_PER_PAGE, read_view, view_options
from tests.studio.test_report import assert_inert, parsed

HOSTILE = '<script>alert(1)</script>"&'
TOKEN = "T" * 32
MODELS = ["m-good", "m-mid", HOSTILE]


def _cell(score: float) -> dict[str, Any]:
    return {
        "keyPointsCount": 2,
        "avgCoverageExtent": score,
        "pointAssessments": [
            {"keyPointText": "Is kind", "coverageExtent": score, "reflection": f"{HOSTILE} why"},
            {"keyPointText": "Path A", "coverageExtent": score, "pathId": "path_0"},
            {"keyPointText": "Path B", "coverageExtent": 1 - score, "pathId": "path_1"},
        ],
    }


def comparison():
    prompts = [f"p{i:03d}" for i in range(119)] + [HOSTILE]
    scores = {"m-good": 0.9, "m-mid": 0.5, HOSTILE: 0.1}
    return read_comparison(
        {
            "configTitle": "Big",
            "timestamp": "2026-12-06T01-40-47-000Z",
            "promptIds": prompts,
            "effectiveModels": MODELS,
            "evaluationResults": {
                "llmCoverageScores": {p: {m: _cell(s) for m, s in scores.items()} for p in prompts}
            },
            "allFinalAssistantResponses": {
                p: {m: f"answer of {m} {HOSTILE} \u05e9\u05dc\u05d5\u05dd" for m in MODELS}
                for p in prompts
            },
        }
    )


def share_page(results: Results, **params: str) -> str:
    view = read_view(results, params)
    options = view_options(results, TOKEN, view)
    return run_file(results, "html", [], visitor=True, view=options)


def _hrefs(doc: str) -> list[str]:
    return [str(a["href"]) for tag, a in parsed(doc).tags if tag == "a" and "href" in a]


def test_a_share_page_holds_fifty_prompt_details_and_links_to_the_rest():
    results = Results(comparison())
    first = share_page(results)
    assert first.count("<section class=prompt") == DETAILS_PER_PAGE
    assert 'id="p-p000"' in first and 'id="p-p050"' not in first
    links = _hrefs(first)
    # the heatmap links every prompt: to its anchor here, or to the page that holds it
    assert "#p-p000" in links
    assert f"?token={TOKEN}&page=2#p-p050" in links
    assert f"?token={TOKEN}&page=3#p-%3Cscript%3Ealert%281%29%3C%2Fscript%3E%22%26" in links
    for href in links:  # every link stays on this share page with its token
        parts = urlsplit(href)
        assert not parts.scheme and not parts.netloc and parts.path == "", href
        assert href.startswith("#") or parse_qs(parts.query)["token"] == [TOKEN], href
    last = share_page(results, page="3")
    assert last.count("<section class=prompt") == 20
    assert "Pages: " in last and "<strong aria-current=page>3</strong>" in last
    # a page the run does not have shows the first
    assert share_page(results, page="9") == first


def test_one_prompt_s_page_shows_the_pair_asked_for():
    results = Results(comparison())
    doc = share_page(results, prompt="p007", a="m-mid", b=HOSTILE)
    assert doc.count("<section class=prompt") == 1 and "Leaderboard" not in doc
    pair = doc[doc.index("<div class=pair>") :]
    assert "answer of m-mid" in pair and "answer of m-good" not in pair
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pair and "<script>" not in doc
    back = f"?token={TOKEN}&page=1#p-p007"
    assert back in _hrefs(doc)
    # other pairs by plain links; an unknown model falls back to the default pair (the best)
    assert f"?token={TOKEN}&prompt=p007&a=m-good&b=%3Cscript%3E" in doc.replace("&amp;", "&")
    fallback = share_page(results, prompt="p007", a="nope", b="<b>")
    assert "answer of m-good" in fallback[fallback.index("<div class=pair>") :]
    assert "<b>" not in fallback


def test_the_report_holds_every_view_in_the_studio_s_palette():
    doc = render_html(comparison(), visitor=True)
    assert_inert(doc)
    text = " ".join(" ".join(parsed(doc).text).split())
    assert "Run of 6 December 2026, 01:40 UTC" in text
    assert "Models: m-good, m-mid, " + HOSTILE in text
    for heading in ["Leaderboard", "Scores by prompt", "Every prompt in detail"]:
        assert f"<h2>{heading}</h2>" in doc
    assert doc.count("<section class=prompt") == 120
    assert doc.count("<h4>Points × models</h4>") == 120
    assert doc.count("<h4>Why this score</h4>") == 120
    # the heatmap: each cell a number on the studio's palette and a link to its prompt
    assert '<td class=s90><a href="#p-p000">0.90</a></td>' in doc
    assert "hsl(" not in doc  # the old red-to-green scale is gone
    assert f".s90{{background:{score_colour(0.9)}}}" in doc
    # the per-path chart and the arithmetic, in the studio's words
    assert doc.count("<svg class=chart") == 360  # one per answer (each is computed its own way)
    assert "← best path: this one counts" in text
    # side by side: one picker for the page, every prompt's answers under it
    assert doc.count("type=radio") == 2 * len(MODELS)
    assert re.search(r"id=pa0 checked>m-good<", doc) and re.search(r"id=pb1 checked>m-mid<", doc)


def test_palette_classes_and_dates_in_words():
    assert score_class(None) == "na" and score_class(0.904) == "s90" and score_class(2) == "s100"
    css = palette_css()
    assert css.count("{background:") == 102
    assert f".s100{{background:{score_colour(1.0)}}}" in css
    assert date_words("2026-12-06T01-40-47-000Z") == "6 December 2026, 01:40 UTC"
    assert date_words("2026-01-09T23:05:00+00:00") == "9 January 2026, 23:05 UTC"
    assert date_words("not a date") is None and date_words(None) is None
