"""The authoring JSON Schema: valid draft-07, accepts every parseable file, rejects wrong ones."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from engine.blueprint import parse_blueprint
from engine.blueprint.source import load_yaml_documents
from engine.errors import BlueprintError
from engine.lint.schema import authoring_schema
from tests.conftest import CORPUS, EXAMPLES

SCHEMA = authoring_schema()
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)


def _parseable() -> list[Path]:
    files = sorted(EXAMPLES.glob("*.yml"))
    if CORPUS is not None:
        for path in sorted((CORPUS / "blueprints").glob("*.yml")):
            try:
                parse_blueprint(path.read_text(encoding="utf-8"))
            except BlueprintError:
                continue
            files.append(path)
    return files


def _errors(doc: object) -> list[str]:
    return [e.message for e in VALIDATOR.iter_errors(json.loads(json.dumps(doc)))]


def test_schema_is_valid_draft7():
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_descriptions_come_from_the_models():
    prompt = SCHEMA["definitions"]["Prompt"]["properties"]
    assert "alternative paths" in prompt["should"]["description"]
    assert "JSON Schema" in prompt["schema"]["description"]
    header = SCHEMA["definitions"]["Header"]["properties"]
    assert "provider:model" in header["models"]["description"]
    assert (
        "0.1 to 10" in SCHEMA["definitions"]["FunctionPoint"]["properties"]["weight"]["description"]
    )


@pytest.mark.parametrize("path", _parseable(), ids=lambda p: p.name)
def test_every_document_of_every_parseable_file_validates(path: Path):
    for doc, span in load_yaml_documents(path.read_text(encoding="utf-8")):
        assert _errors(doc) == [], f"document at line {span.line}"


@pytest.mark.parametrize(
    "doc",
    [
        {"title": 5},
        {"title": "t", "models": "openai:gpt-4o"},
        {"prompt": "hi", "should": "a single text, not a list"},
        [{"prompt": "hi", "should": [{"weight": 2}]}],
        [{"prompt": "hi", "should": [{"$contains": "x", "weight": 20}]}],
        [{"prompt": "hi", "messages": [{"user": "a", "assistant": "b"}]}],
        [{"prompt": "hi", "shuold": ["x"]}],
        {"title": "t", "models": [{"openai": "gpt-4o"}]},
        "just a sentence",
    ],
)
def test_obviously_wrong_documents_are_rejected(doc: object):
    assert _errors(doc)


@pytest.mark.parametrize(
    "doc",
    [
        [
            {
                "id": "p",
                "prompt": "hi",
                "should": [
                    "judged text",
                    {"Covers X": "Source Y"},
                    {"$contains": "x", "weight": 2, "citation": "R1"},
                    {"point": "weighted", "weight": 3},
                    {"fn": "matches", "arg": "[0-9]+"},
                    [{"$icontains": "a"}, "text in a path"],
                    "$is_json",
                ],
                "schema": {"type": "object"},
            }
        ],
        {
            "id": "p",
            "messages": [
                {"system": "s"},
                {"user": "u"},
                {"ai": None},
                {"role": "user", "content": "c"},
            ],
        },
        {"title": "T", "models": ["openai:gpt-4o"], "systems": ["a", None]},
    ],
)
def test_every_point_form_and_alias_is_accepted(doc: object):
    assert _errors(doc) == []
