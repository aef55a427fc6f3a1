"""Lint of model collections and custom model objects: names, addresses, header variables."""

from __future__ import annotations

from engine.settings import Settings
from tests.lint.helpers import codes, find, span

P = "- id: p\n  prompt: hi\n  should: [a]\n"
KNOWN = (
    "CLAUDES, CORE, EXPERIMENTAL, FRONTIER, LLAMAS, OPENAI_GPT4O_SNAPSHOTS, OPEN_SOURCE_CORE, QUICK"
)

CUSTOM = (
    """models:
  - id: my-local
    url: http://127.0.0.1:8000/v1/chat/completions
    modelName: tiny
    inherit: openai
    headers:
      X-Token: "Bearer ${TEAM_TOKEN}"
---
"""
    + P
)


def test_an_unknown_collection_is_an_error_listing_the_known_ones():
    (d,) = find("models:\n  - CROE\n---\n" + P, "unknown-collection")
    assert d.severity == "error" and span(d) == (2, 5, 2, 9)
    assert f"Known collections: {KNOWN}." in d.message and "Did you mean `CORE`?" in d.message
    assert "[collections]" in d.message


def test_collections_from_settings_are_known_and_replace_shipped_ones():
    settings = Settings(collections={"MINE": ("openai:a",), "CORE": ()})
    text = "models: [MINE, CORE]\n---\n" + P
    found = find(text, "model-collection", settings=settings)
    assert [d.message[:40] for d in found] == [
        "`MINE` is a model collection from your s",
        "The model collection `CORE` is empty in ",
    ]
    assert "runs 1 model (openai:a)" in found[0].message
    (unknown,) = find("models: [NOPE]\n---\n" + P, "unknown-collection", settings=settings)
    assert "Known collections: CLAUDES, CORE," in unknown.message and "MINE" in unknown.message


def test_an_empty_shipped_collection_says_it_adds_no_models():
    (d,) = find("models: [FRONTIER]\n---\n" + P, "model-collection")
    assert "empty in Weval's list" in d.message


def test_a_custom_model_on_this_machine_needs_the_model_allow_list():
    (d,) = find(CUSTOM, "model-host-refused")
    assert d.severity == "error" and span(d) == (3, 10, 3, 51)
    assert "BLUEPRINT_MODEL_ALLOW=127.0.0.1" in d.message
    allowed = Settings(model_allow=("127.0.0.1",), call_env=("TEAM_TOKEN",))
    assert codes(CUSTOM, settings=allowed) == []
    calls_only = Settings(call_allow=("127.0.0.1",), call_env=("TEAM_TOKEN",))
    assert "model-host-refused" in codes(CUSTOM, settings=calls_only)


def test_a_header_variable_must_be_allowed():
    settings = Settings(model_allow=("127.0.0.1",))
    (d,) = find(CUSTOM, "custom-model", settings=settings)
    assert span(d)[0] == 7 and "variable TEAM_TOKEN" in d.message
    assert "BLUEPRINT_CALL_ENV" in d.message


def test_google_chat_shape_is_refused_with_what_to_write():
    text = CUSTOM.replace("inherit: openai", "inherit: google")
    settings = Settings(model_allow=("127.0.0.1",), call_env=("TEAM_TOKEN",))
    (d,) = find(text, "custom-model", settings=settings)
    assert span(d)[:2] == (5, 14) and "`inherit: openai`" in d.message


def test_a_custom_model_id_is_not_a_provider_or_collection_elsewhere():
    text = CUSTOM.replace("---\n", "  - my-local\n---\n")
    settings = Settings(model_allow=("127.0.0.1",), call_env=("TEAM_TOKEN",))
    assert codes(text, settings=settings) == []


def test_weval_errors_of_custom_models_are_reported_at_the_entry():
    text = CUSTOM.replace("    modelName: tiny\n", "")
    (d,) = find(text, "invalid-blueprint")
    assert "'modelName' is required and must be a string" in d.message and d.line == 2


def test_a_header_with_a_line_break_is_reported():
    text = CUSTOM.replace('"Bearer ${TEAM_TOKEN}"', '"a\\nInjected: 1"')
    settings = Settings(model_allow=("127.0.0.1",))
    (d,) = find(text, "custom-model", settings=settings)
    assert "one line of plain ASCII text" in d.message
