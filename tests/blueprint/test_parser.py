"""The parser on every layout, field, alias and point syntax (upstream's test facts, spec §7.3)."""

from __future__ import annotations

import json
import textwrap

import pytest

from engine.blueprint import blueprint_id_from_path, parse_blueprint
from engine.errors import BlueprintError
from engine.js.values import js_clean


def parse(text: str, **kw):
    return parse_blueprint(textwrap.dedent(text), **kw)


def weval(text: str, **kw) -> dict:
    return json.loads(json.dumps(js_clean(parse(text, **kw).to_weval())))


# --- layouts (spec §1.2) ---------------------------------------------------------------


def test_structure_1_header_and_prompt_list():
    bp = parse("""
        id: yaml-test-v1
        title: YAML Test
        ---
        - id: p1
          prompt: Hello
    """)
    assert bp.id == "yaml-test-v1" and bp.title == "YAML Test"
    assert [p.id for p in bp.prompts] == ["p1"]


def test_structure_2_stream_of_prompt_documents():
    bp = parse("""
        prompt: First prompt
        ---
        prompt: Second
        should: [does X]
        ---
        id: p3
        prompt: Third
    """)
    assert bp.id is None
    assert bp.prompts[0].messages[0].content == "First prompt"
    assert bp.prompts[2].id == "p3"


def test_structure_3_plain_list_has_empty_header():
    d = weval("""
        - prompt: What are the three primary colors?
        - prompt: Second
    """)
    assert len(d["prompts"]) == 2
    assert set(d) == {"prompts"}


def test_structure_4_prompts_key():
    bp = parse("""
        id: single-doc-with-prompts
        prompts:
          - id: p1
            prompt: Hi
    """)
    assert bp.id == "single-doc-with-prompts" and len(bp.prompts) == 1
    assert "prompts" in bp.to_weval() and bp.to_weval()["id"] == "single-doc-with-prompts"


def test_stream_of_list_documents_is_flattened():
    bp = parse("""
        - prompt: a
        ---
        - prompt: b
        - prompt: c
    """)
    assert len(bp.prompts) == 3


def test_header_without_prompts_and_promptText_only_quirk():
    assert parse("id: x\ntitle: y\n").prompts == []
    # Weval's detection ignores promptText: one such document is a header with 0 prompts.
    assert parse("promptText: hello\n").prompts == []


def test_single_prompt_document_with_ideal():
    bp = parse("prompt: Hi\nideal: An ideal.\n")
    assert (
        bp.prompts[0].ideal == "An ideal."
        and bp.to_weval()["prompts"][0]["idealResponse"] == "An ideal."
    )


def test_header_detection_with_expect_key_in_first_document():
    # With several documents, a first document that has `expect` is a prompt, not a header.
    bp = parse("prompt: a\nexpect: [x]\n---\nprompt: b\n")
    assert len(bp.prompts) == 2


def test_json_layout_and_yaml_normalize_identically():
    yaml_text = """
        title: T
        systemPrompt: Global system prompt
        ---
        - id: p1
          messages:
            - user: Hello
            - ai: Hi there
            - user: Bye
          should:
            - A simple conceptual point.
            - "Covers the 'prudent man' rule.": "Investment Advisers Act of 1940"
            - $contains: fiduciary
            - $ends_with: "."
            - {text: "A weighted conceptual point.", weight: 3.0}
            - {fn: "matches", arg: "[0-9]+", weight: 0.5}
          should_not:
            - $contains: guarantee
    """
    json_text = json.dumps(
        {
            "title": "T",
            "systemPrompt": "Global system prompt",
            "prompts": [
                {
                    "id": "p1",
                    "messages": [{"user": "Hello"}, {"ai": "Hi there"}, {"user": "Bye"}],
                    "should": [
                        "A simple conceptual point.",
                        {"Covers the 'prudent man' rule.": "Investment Advisers Act of 1940"},
                        {"$contains": "fiduciary"},
                        {"$ends_with": "."},
                        {"text": "A weighted conceptual point.", "weight": 3.0},
                        {"fn": "matches", "arg": "[0-9]+", "weight": 0.5},
                    ],
                    "should_not": [{"$contains": "guarantee"}],
                }
            ],
        }
    )
    a = weval(yaml_text)
    b = json.loads(json.dumps(js_clean(parse_blueprint(json_text, source="x.json").to_weval())))
    assert a == b
    p = a["prompts"][0]
    assert p["points"] == [
        {"text": "A simple conceptual point.", "multiplier": 1},
        {
            "text": "Covers the 'prudent man' rule.",
            "citation": "Investment Advisers Act of 1940",
            "multiplier": 1,
        },
        {"fn": "contains", "fnArgs": "fiduciary", "multiplier": 1},
        {"fn": "ends_with", "fnArgs": ".", "multiplier": 1},
        {"text": "A weighted conceptual point.", "multiplier": 3},
        {"fn": "matches", "fnArgs": "[0-9]+", "multiplier": 0.5},
    ]
    assert p["should_not"] == [{"fn": "contains", "fnArgs": "guarantee", "multiplier": 1}]
    assert p["messages"] == [
        {"role": "user", "content": "Hello"},
        {"role": "assistant", "content": "Hi there"},
        {"role": "user", "content": "Bye"},
    ]
    assert a["system"] == "Global system prompt" and "systemPrompt" not in a


def test_top_level_json_array_is_a_prompt_list():
    bp = parse_blueprint('[{"prompt": "a"}]', fmt="json")
    assert len(bp.prompts) == 1


# --- header fields (spec §1.3) --------------------------------------------------------


def test_header_aliases_and_passthrough():
    d = weval("""
        configId: cid
        configTitle: ctitle
        my_custom_key: {a: 1}
        ---
        - prompt: x
    """)
    assert d["id"] == "cid" and d["title"] == "ctitle"
    assert "configId" not in d and "configTitle" not in d
    assert d["my_custom_key"] == {"a": 1}


def test_references_normalization():
    d = weval("""
        title: t
        citations:
          - {title: First reference, url: "https://example.com/1"}
          - Second reference
          - {name: Third reference}
    """)
    assert d["references"] == [
        {"title": "First reference", "url": "https://example.com/1"},
        {"title": "Second reference"},
        {"title": "Third reference"},
    ]
    assert "citations" not in d and "citation" not in d and "reference" not in d
    assert weval("title: t\ncitation: My only reference\n")["references"] == [
        {"title": "My only reference"}
    ]
    assert weval("title: t\nreference: {name: N, url: u}\n")["references"] == [
        {"title": "N", "url": "u"}
    ]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("title: t\nauthor: {url: x}\n", "Invalid 'author' object: missing 'name' string."),
        (
            "title: t\nauthor: 3\n",
            "Invalid 'author' field: must be a string or an object with 'name'.",
        ),
        ("title: t\nreferences: [3]\n", "Invalid 'reference'/'citation' field"),
        ("title: t\nreferences: [{url: x}]\n", "missing 'title' or 'name' string"),
        (
            "title: t\nrender_as: pdf\n",
            "Invalid global 'render_as' value. Must be one of: markdown, html, plaintext.",
        ),
        ("title: t\nmodels: openai:gpt-4o\n", "The 'models' field must be an array"),
        ("title: t\nmodels: [3]\n", "Invalid model definition: must be a string or an object."),
        ("title: t\nmodels: [{openai: gpt-4o}]\n", "'id' is required and must be a string"),
        ("title: t\nmodels: [{id: m, url: u, modelName: n}]\n", "'inherit' is required"),
        (
            "title: t\nmodels: [{id: m, url: u, modelName: n, inherit: openai, format: xml}]\n",
            "'format' must be either 'chat' or 'completions'",
        ),
        (
            "title: t\nmodels: [{id: m, url: u, modelName: n, inherit: openai, headers: [1]}]\n",
            "'headers', if provided, must be an object",
        ),
        ("title: t\ntools: {name: x}\n", "The 'tools' field must be an array of tool definitions."),
        ("title: t\ntools: [{description: x}]\n", "Invalid tool definition at index 0"),
        ("title: t\ntoolUse: [1]\n", "The 'toolUse' field must be an object."),
        (
            "title: t\ntoolUse: {outputFormat: xml}\n",
            "'toolUse.outputFormat' field, if provided, must be 'json-line'",
        ),
        (
            "title: t\ntoolUse: {maxSteps: 0}\n",
            "'toolUse.maxSteps' field, if provided, must be a positive number",
        ),
        (
            "title: t\nexternalServices: {svc: {method: GET}}\n",
            "External service 'svc' must have a 'url' field",
        ),
        (
            "title: t\nexternalServices: {svc: {url: '${X}'}}\n",
            "External service 'svc' has invalid URL: ${X}",
        ),
        (
            "title: t\nexternalServices: {svc: {url: 'https://a.b', method: DELETE}}\n",
            "invalid method: DELETE",
        ),
        (
            "title: t\nexternalServices: {svc: {url: 'https://a.b', timeout_ms: 0}}\n",
            "invalid timeout_ms: 0",
        ),
    ],
)
def test_header_errors_are_upstreams_and_positioned(text, needle):
    with pytest.raises(BlueprintError) as info:
        parse_blueprint(text, source="bp.yml")
    assert needle in info.value.message
    assert info.value.line is not None
    assert str(info.value).startswith(f"bp.yml:{info.value.line}:")


def test_unparseable_env_url_points_at_the_url_line():
    err = pytest.raises(
        BlueprintError, parse_blueprint, "title: t\nexternalServices:\n  svc:\n    url: '${X}'\n"
    ).value
    assert err.line == 4
    assert "not substituted" in err.message


# --- prompt fields (spec §1.8) --------------------------------------------------------


def test_prompt_fields_and_aliases():
    d = weval("""
        render_as: html
        noCache: true
        ---
        - id: a
          promptText: Hello
          idealResponse: ideal text
          description: desc
          reference: {name: Src, url: u}
          importance: 2
          temperature: 0.5
          requiredTools: [x]
          prohibitedTools: [y]
          maxCalls: 3
          expectations: [one]
          tags: [dropped]
        - id: b
          prompt: Hi
          render_as: plaintext
          noCache: false
          system: null
    """)
    a, b = d["prompts"]
    assert a == {
        "messages": [{"role": "user", "content": "Hello"}],
        "id": "a",
        "idealResponse": "ideal text",
        "description": "desc",
        "citation": {"name": "Src", "url": "u"},
        "weight": 2,
        "render_as": "html",
        "temperature": 0.5,
        "noCache": True,
        "requiredTools": ["x"],
        "prohibitedTools": ["y"],
        "maxCalls": 3,
        "points": [{"text": "one", "multiplier": 1}],
    }
    assert b["render_as"] == "plaintext" and b["noCache"] is False and b["system"] is None


def test_messages_win_over_prompt_and_placeholders_survive():
    bp = parse("""
        - id: p
          prompt: dropped
          messages:
            - system: be brief
            - user: hi
            - assistant: null
            - user: more
    """)
    p = bp.prompts[0]
    assert [m.role for m in p.messages] == ["system", "user", "assistant", "user"]
    assert p.messages[2].is_placeholder
    assert p.to_weval()["messages"][2] == {"role": "assistant", "content": None}


def test_formal_and_odd_messages_pass_through_untouched():
    d = weval("""
        - id: p
          messages:
            - {role: user, content: hi, name: bob}
            - {content: only content}
    """)
    assert d["prompts"][0]["messages"] == [
        {"role": "user", "content": "hi", "name": "bob"},
        {"content": "only content"},
    ]


def test_no_cache_inheritance():
    d = weval(
        "noCache: true\ntitle: t\n---\n- {id: a, prompt: x}\n- {id: b, prompt: y, noCache: false}\n- {id: c, prompt: z, noCache: 0}\n"
    )
    assert [p["noCache"] for p in d["prompts"]] == [True, False, False]
    d = weval("title: t\n---\n- {id: a, prompt: x}\n")
    assert "noCache" not in d["prompts"][0]


def test_render_as_defaults_to_markdown():
    assert weval("- prompt: x\n")["prompts"][0]["render_as"] == "markdown"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (
            "- id: p1\n  prompt: x\n  system: [null, 'You are a tutor']\n",
            "Per-prompt 'system' must be a string or null, not an array",
        ),
        (
            "- id: p1\n  prompt: x\n  system: 123\n",
            "Invalid 'system' field in prompt 'p1': Must be a string or null",
        ),
        (
            "- id: p1\n  prompt: x\n  weight: 11\n",
            "Prompt weight must be a number between 0.1 and 10. Found 11. Prompt ID: 'p1'",
        ),
        ("- id: p1\n  prompt: x\n  render_as: pdf\n", "Invalid 'render_as' value on prompt"),
        (
            "- id: p1\n  prompt: x\n  temperature: hot\n",
            "Prompt temperature must be a number. Found string.",
        ),
        (
            "- id: p1\n  prompt: x\n  requiredTools: calc\n",
            "Prompt 'requiredTools' must be an array",
        ),
        (
            "- id: p1\n  prompt: x\n  maxCalls: -1\n",
            "Prompt 'maxCalls' must be a non-negative number",
        ),
        (
            "- id: p1\n  prompt: x\n  citation: 5\n",
            "Invalid 'citation'/'reference' field in prompt 'p1'",
        ),
        ("- id: p1\n  prompt: x\n  citation: {url: u}\n", "missing 'title' or 'name' string"),
        (
            "- id: p1\n  messages:\n    - { user: u, assistant: a }\n",
            "Each message in the shorthand format must have exactly one key",
        ),
        (
            "- id: p1\n  messages:\n    - bot: hi\n",
            "Invalid role 'bot' in message at index 0 in prompt 'p1'.",
        ),
        ("- id: p1\n  messages: hello\n", "`messages` must be a list"),
    ],
)
def test_prompt_errors(text, needle):
    with pytest.raises(BlueprintError) as info:
        parse_blueprint(text, source="bp.yml")
    assert needle in info.value.message
    assert info.value.line is not None


# --- points (spec §2.1) ---------------------------------------------------------------


def points(should: str) -> list:
    return weval(
        "- id: p\n  prompt: x\n  should:\n" + textwrap.indent(textwrap.dedent(should), "    ")
    )["prompts"][0]["points"]


def test_zero_argument_function_strings():
    assert points('- $factcheck\n- $is_json\n- "$"\n') == [
        {"fn": "factcheck", "multiplier": 1},
        {"fn": "is_json", "multiplier": 1},
        {"text": "$", "multiplier": 1},
    ]
    assert points("- $factcheck\n- $factcheck: with instruction\n- $contains: test\n") == [
        {"fn": "factcheck", "multiplier": 1},
        {"fn": "factcheck", "fnArgs": "with instruction", "multiplier": 1},
        {"fn": "contains", "fnArgs": "test", "multiplier": 1},
    ]


def test_quoted_function_string_is_reproduced_as_an_unknown_function():
    # Upstream quirk: the whole rest of the string becomes the function name.
    assert points("- \"$icontains: 'war of northern aggression'\"\n") == [
        {"fn": "icontains: 'war of northern aggression'", "multiplier": 1}
    ]


def test_zero_arg_strings_skip_name_normalization_but_objects_do_not():
    assert points(
        "- $contain\n- $match: x\n- $imatch: y\n- $not_contain: z\n- fn: contain_any_of\n  arg: [a]\n- $containsall: q\n"
    ) == [
        {"fn": "contain", "multiplier": 1},
        {"fn": "matches", "fnArgs": "x", "multiplier": 1},
        {"fn": "imatch", "fnArgs": "y", "multiplier": 1},
        {"fn": "not_contain", "fnArgs": "z", "multiplier": 1},
        {"fn": "contains_any_of", "fnArgs": ["a"], "multiplier": 1},
        {"fn": "containsall", "fnArgs": "q", "multiplier": 1},
    ]


def test_idiomatic_function_with_weight_and_citation_and_null_args():
    assert points("- $is_json: null\n  weight: 3.0\n  citation: R1\n") == [
        {"fn": "is_json", "fnArgs": None, "multiplier": 3, "citation": "R1"}
    ]


def test_full_object_falsy_fnargs_fall_through_to_arg():
    assert points("- fn: contains\n  fnArgs: ''\n  arg: x\n") == [
        {"fn": "contains", "fnArgs": "x", "multiplier": 1}
    ]


def test_point_key_and_block_scalar_citation_shorthand():
    assert points("- point: P\n  weight: 2\n- ? |\n    Multi\n    line\n  : Source\n") == [
        {"text": "P", "multiplier": 2},
        {"text": "Multi\nline\n", "citation": "Source", "multiplier": 1},
    ]


def test_alternative_paths_keep_structure_and_ids():
    bp = parse("""
        - id: p
          prompt: x
          should:
            - always required point
            - - path 1 point A
              - $contains: b
            - - path 2 single point
            - $contains: always required word
            - []
    """)
    d = bp.to_weval()["prompts"][0]["points"]
    assert d[1] == [
        {"text": "path 1 point A", "multiplier": 1},
        {"fn": "contains", "fnArgs": "b", "multiplier": 1},
    ]
    assert d[2] == [{"text": "path 2 single point", "multiplier": 1}]
    assert len(d) == 4  # the empty path is dropped
    assert [pt.path_id for pt in bp.prompts[0].points] == [None, "path_1", "path_1", "path_2", None]


def test_dollar_strings_inside_paths_are_text():
    assert points("- - $is_json\n  - other\n") == [
        [{"text": "$is_json", "multiplier": 1}, {"text": "other", "multiplier": 1}]
    ]


def test_empty_nested_arrays_are_filtered():
    assert points("- []\n- - valid point\n- []\n") == [[{"text": "valid point", "multiplier": 1}]]


def test_should_not_and_aliases():
    bp = parse(
        "- id: p\n  prompt: x\n  expects: [a]\n  should_not:\n    - $contains: bad\n    - - t\n"
    )
    assert [(p.inverted, p.path_id) for p in bp.prompts[0].points] == [
        (False, None),
        (True, None),
        (True, "path_1"),
    ]


@pytest.mark.parametrize(
    ("should", "needle"),
    [
        ('- point: "t"\n  fn: "f"\n', "Point cannot have both 'text' and 'fn' defined"),
        (
            '- point: "bad weight"\n  weight: 101\n',
            "Point multiplier must be a number between 0.1 and 10",
        ),
        ("- 123\n", "Point must be a string, array, or object"),
        (
            "- weight: 2.0\n",
            "Point must define 'text', a function ('fn' or '$...'), or a 'Point: Citation' pair",
        ),
        ("- - - a\n", "Nested arrays within nested arrays are not supported"),
        ("- - a\n  - [b]\n", "Nested arrays within alternative paths are not supported"),
        ("- - a\n  - 5\n", "Invalid point format in alternative path"),
        ("- $ref: nope\n", "Undefined definition 'nope' referenced in prompt 'p'."),
        ("- $ref\n", "Invalid $ref usage in prompt 'p'. Expected a string name."),
    ],
)
def test_point_errors(should, needle):
    text = "- id: p\n  prompt: x\n  should:\n" + textwrap.indent(should, "    ")
    with pytest.raises(BlueprintError) as info:
        parse_blueprint(text, source="bp.yml")
    assert needle in info.value.message
    assert info.value.line is not None and info.value.line >= 4


def test_point_error_is_at_the_offending_line():
    text = "- id: p\n  prompt: x\n  should:\n    - fine\n    - point: heavy\n      weight: 50\n"
    err = pytest.raises(BlueprintError, parse_blueprint, text).value
    assert (err.line, err.column) == (5, 7)


# --- point_defs / $ref (spec §2.5) ----------------------------------------------------


def test_ref_string_and_object_definitions():
    bp = parse("""
        title: t
        point_defs:
          long_enough: "Math.max(0, r.length - 10) > 0"
          scorer: {$js: "r.length > 2"}
        ---
        - id: p
          prompt: x
          should:
            - $ref: long_enough
              weight: 2
              citation: C
            - $ref: scorer
              weight: 5
            - - $ref: {name: long_enough}
    """)
    pts = bp.to_weval()["prompts"][0]["points"]
    assert pts[0] == {
        "fn": "js",
        "fnArgs": "Math.max(0, r.length - 10) > 0",
        "multiplier": 2,
        "citation": "C",
    }
    assert pts[1] == {
        "$js": "r.length > 2"
    }  # object definitions arrive unnormalized; weight dropped
    assert pts[2] == [{"fn": "js", "fnArgs": "Math.max(0, r.length - 10) > 0", "multiplier": 1}]
    typed = bp.prompts[0].points
    assert (typed[1].fn, typed[1].args, typed[1].multiplier) == ("js", "r.length > 2", 1.0)
    assert "point_defs" in bp.to_weval()


def test_legacy_defs_is_used_and_dropped():
    d = weval("title: t\ndefs:\n  d: 'true'\n---\n- id: p\n  prompt: x\n  should: [{$ref: d}]\n")
    assert "defs" not in d
    assert d["prompts"][0]["points"] == [{"fn": "js", "fnArgs": "true", "multiplier": 1}]


# --- hash ids (spec §1.10) ------------------------------------------------------------


def test_hash_id_matches_weval():
    bp = parse("- prompt: This prompt needs an ID.\n  ideal: An ideal response.\n")
    assert bp.prompts[0].id == "hash-d35001ad5740"
    assert bp.prompts[0].id_generated


def test_hash_id_changes_with_rubric_and_ignores_float_spelling():
    a = parse("- prompt: x\n  should: [{text: a, weight: 2.0}]\n").prompts[0].id
    b = parse("- prompt: x\n  should: [{text: a, weight: 2}]\n").prompts[0].id
    c = parse("- prompt: x\n  should: [{text: b, weight: 2}]\n").prompts[0].id
    assert a == b != c


def test_numeric_id_stays_a_number_in_weval_output():
    bp = parse("- id: 42\n  prompt: x\n")
    assert bp.to_weval()["prompts"][0]["id"] == 42 and bp.prompts[0].id == "42"


# --- YAML 1.2 semantics (spec §8.3, §9) -----------------------------------------------


def test_yaml_12_scalars_like_js_yaml():
    d = weval("""
        - id: p
          prompt: "x"
          should:
            - $contains_any_of: [yes, no, on, off, 1:30, 012, 0o17, 0x1F, .5, 1e3, ~]
    """)
    assert d["prompts"][0]["points"][0]["fnArgs"] == [
        "yes",
        "no",
        "on",
        "off",
        "1:30",
        12,
        15,
        31,
        0.5,
        1000,
        None,
    ]


def test_block_scalar_at_end_of_file_keeps_its_newline():
    assert (
        weval("- id: p\n  prompt: |\n    hello")["prompts"][0]["messages"][0]["content"]
        == "hello\n"
    )


def test_duplicate_keys_are_rejected_with_both_positions():
    err = pytest.raises(BlueprintError, parse_blueprint, "title: a\ntitle: b\n").value
    assert (err.line, err.column) == (2, 1)
    assert "first on line 1" in err.message


def test_anchors_and_merge_keys():
    d = weval("""
        - id: p
          prompt: x
          should: &rubric [a, b]
        - id: q
          prompt: y
          should: *rubric
    """)
    assert d["prompts"][1]["points"] == d["prompts"][0]["points"]


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("title: A: B\n", 1, "quotes"),
        ('- id: p\n  should: [[ "a" ]\nnext: 1\n', 3, "not closed"),
        ("title: t\n\tdescription: x\n", 2, "tab"),
        ('title: "unclosed\n', 2, "never closed"),
        ("", 1, "empty"),
        ("just a string\n", 1, "Document must be an object or array"),
        ("- 5\n", 1, "Each prompt must be a mapping"),
    ],
)
def test_syntax_errors_are_positioned_plain_words(text, line, needle):
    err = pytest.raises(BlueprintError, parse_blueprint, text, source="f.yml").value
    assert err.line == line
    assert needle in err.message
    assert str(err).startswith(f"f.yml:{line}:")


def test_invalid_json_is_positioned():
    err = pytest.raises(
        BlueprintError, parse_blueprint, '{"id": "json-fail", "prompts": [}', fmt="json"
    ).value
    assert err.line == 1 and err.column == 33
    assert "not valid JSON" in err.message


# --- positions ------------------------------------------------------------------------


def test_every_prompt_and_point_knows_its_line_and_column():
    bp = parse("""
        title: t
        ---
        - id: a
          prompt: x
          should:
            - first
            - $contains: y
            - - alt 1
              - alt 2
        - id: b
          messages:
            - user: hi
    """)
    a, b = bp.prompts
    assert (a.span.line, a.span.column) == (4, 3)
    assert [(pt.span.line, pt.span.column) for pt in a.points] == [(7, 7), (8, 7), (9, 9), (10, 9)]
    assert (b.span.line, b.messages[0].span.line) == (11, 13)


def test_blueprint_ids_from_paths():
    cases = {
        "my-test.yml": "my-test",
        "subdir/my-test.yml": "subdir__my-test",
        "a/b/c/my-test.yml": "a__b__c__my-test",
        "special.weval.yml": "special",
        "subdir/special.civic.yaml": "subdir__special",
        "v1.2.3/my.special-test.yml": "v1.2.3__my.special-test",
        "": "",
        "no-extension": "no-extension",
    }
    for path, expected in cases.items():
        assert blueprint_id_from_path(path) == expected


def test_garbage_never_raises_anything_but_blueprint_error():
    samples = [
        "{",
        "[[[",
        "- - - -",
        ": :",
        "? ? ?",
        "!!binary x",
        "*a",
        "a: &a [*a]",
        "\x00",
        "%YAML 9.9\n---\n",
    ]
    for text in samples:
        try:
            parse_blueprint(text)
        except BlueprintError:
            pass
