"""Share state: results links and query parameters (pure)."""

from __future__ import annotations

import pytest

from engine.store import new_run_id
from studio.core.share import (
    ResultsView,
    base_url,
    is_draft_id,
    is_run_id,
    results_link,
    results_path,
)

RUN = new_run_id()


def test_engine_run_ids_are_run_ids():
    assert is_run_id(RUN)
    assert len(RUN) >= 22  # 128 random bits, URL-safe base64
    assert not is_run_id("short")
    assert not is_run_id("x" * 20 + "/..")
    assert not is_run_id(None)


def test_round_trip_through_query_params():
    view = ResultsView(run=RUN, page=3, prompt="new-year", model="openai:fake-a[temp:0]")
    params = view.to_query_params()
    assert params == {
        "run": RUN,
        "page": "3",
        "prompt": "new-year",
        "model": "openai:fake-a[temp:0]",
    }
    assert ResultsView.from_query_params(params) == view


def test_defaults_are_left_out_of_links():
    assert ResultsView(run=RUN).to_query_params() == {"run": RUN}
    assert ResultsView().to_query_params() == {}


@pytest.mark.parametrize(
    "params",
    [
        {"run": "../../etc/passwd"},
        {"run": "<script>"},
        {"run": ["a"]},
        {"page": "-1"},
        {"page": "abc"},
        {"prompt": "x" * 501},
    ],
)
def test_malformed_values_are_dropped(params):
    view = ResultsView.from_query_params(params)
    assert view.run is None
    assert view.page == 1
    assert view.prompt is None


def test_constructor_validates():
    with pytest.raises(ValueError, match="run id"):
        ResultsView(run="nope")
    with pytest.raises(ValueError, match="page"):
        ResultsView(page=0)


def test_links_carry_only_the_run_id():
    assert results_path(RUN) == f"/results?run={RUN}"
    assert results_link("http://127.0.0.1:8501", RUN) == f"http://127.0.0.1:8501/results?run={RUN}"
    assert results_link("", RUN) == f"/results?run={RUN}"
    with pytest.raises(ValueError):
        results_path("OPENAI_API_KEY=sk-secret")


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://127.0.0.1:8501/", "http://127.0.0.1:8501"),
        ("http://127.0.0.1:8501/results?run=abc", "http://127.0.0.1:8501"),
        ("https://host.example/studio/run", "https://host.example/studio"),
        ("https://host.example/studio/other", "https://host.example/studio/other"),
        (None, ""),
        ("javascript:alert(1)", ""),
    ],
)
def test_base_url_strips_the_page(url, expected):
    assert base_url(url, ("editor", "run", "results", "history")) == expected


def test_draft_ids():
    assert is_draft_id("AbCdEf12_-")
    assert not is_draft_id("saved:my blueprint")
    assert not is_draft_id("")
