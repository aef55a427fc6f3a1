"""Untrusted text -> safe Markdown (pure)."""

from __future__ import annotations

import pytest

from studio.core.textsafe import one_line, safe_markdown


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("plain words", "plain words"),
        ("[link](http://x)", r"\[link\]\(http\://x\)"),
        ("![img](http://x/a.png)", r"\!\[img\]\(http\://x/a\.png\)"),
        ("<script>alert(1)</script>", r"\<script\>alert\(1\)\</script\>"),
        (":red[alarm] :material/home:", r"\:red\[alarm\] \:material/home\:"),
        ("$x^2$", r"\$x\^2\$"),
        ("# heading", r"\# heading"),
        ("&lt;b&gt;", r"\&lt;b\&gt;"),
    ],
)
def test_everything_markdown_could_interpret_is_escaped(raw, expected):
    assert safe_markdown(raw) == expected


def test_code_spans_are_kept_as_code():
    assert safe_markdown("`titel` is unknown. Did you mean `title`?") == (
        "`titel` is unknown\\. Did you mean `title`?"
    )
    assert safe_markdown("`<img src=x>`") == "`<img src=x>`"


def test_one_line_shortens_and_marks_more_lines():
    assert one_line("  hello   world \nsecond") == "hello world …"
    assert one_line("x" * 100, 10) == "x" * 9 + "…"
    assert one_line(None) == ""
