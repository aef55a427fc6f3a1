"""Lint messages quote user input as a short one-line excerpt, however long or odd the input."""

from __future__ import annotations

import pytest

from tests.lint.helpers import lint_strict

LONG = "k" * 10_000
ODD = '"a\\nb\\u2028c' + "x" * 10_000 + '"'

# Keys longer than 1,024 characters must be written as explicit `? key` entries in YAML.
TEXTS = {
    "key": f"title: t\n? {LONG}\n: 1\n---\n- id: a\n  prompt: hi\n  should: [x]\n  ? {LONG}\n  : 2\n",
    "id": f"title: t\n---\n- id: {LONG}\n  prompt: hi\n  should: [x]\n- id: {LONG}\n  prompt: hi\n"
    "  should: [x]\n",
    "odd-id": f"title: t\n---\n- id: {ODD}\n  prompt: hi\n  should: [x]\n- id: {ODD}\n"
    "  prompt: hi\n  should: [x]\n",
    "model": f"title: t\nmodels: [{LONG}, 'openai:{LONG}', 'zz:{LONG}', 'opena:{LONG}', {ODD}]\n"
    "---\n- prompt: hi\n  should: [x]\n",
    "function": f"title: t\n---\n- prompt: hi\n  should:\n    - {{? ${LONG} : x}}\n"
    f"    - '${LONG}'\n    - {{? ${ODD[1:]} : x}}\n",
    "argument": f"title: t\n---\n- prompt: hi\n  should:\n    - $contains: {{? {LONG} : 1}}\n"
    f"    - $matches: '({LONG}'\n    - $js: '({LONG}'\n    - $call: {{url: {ODD}}}\n"
    f"    - $call: {{url: 'https://{LONG}.example/x'}}\n    - $ref: {ODD}\n",
    "odd-key": f"title: t\n? {ODD}\n: 1\n---\n- prompt: hi\n  should: [{{point: x, ? {ODD} : 1}}]\n"
    f"  role: {ODD}\n  messages: [{{? {ODD} : hi}}]\n",
    "quoted": f"title: t\n---\n- id: a\n  prompt: hi\n  should:\n    - '$contains: {LONG}'\n"
    f"    - - '$contains: {LONG}'\n      - x\n    - {{$contains: a, ? ${LONG} : b}}\n",
    "pair-and-service": f"title: t\nmodels:\n  - openai: {LONG}\nexternalServices:\n"
    f"  ? {LONG}\n  : {{url: 'https://example.org'}}\n---\n- id: a\n  prompt: hi\n"
    f"  should:\n    - $call: {{service: {LONG}}}\n",
}


@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
def test_every_message_quotes_a_short_one_line_excerpt(text: str) -> None:
    found = lint_strict(text)
    assert found and not any(d.code == "yaml-syntax" for d in found)
    for d in found:
        # Every quoted input is cut to ~40 characters; the longest fixed wording (the advice
        # of a refused `$call` on the allow-list) is ~400.
        assert "k" * 45 not in d.message and "x" * 45 not in d.message, d.code
        assert len(d.message) <= 450, (d.code, d.message[:120])
        assert not any(ch in d.message for ch in "\n\r\x85\u2028\u2029"), d.code
