"""Differential test: our Python path for JS regexes agrees with QuickJS's own `RegExp.test`.

QuickJS is the oracle for matching. Validity follows Node 20 (V8), which differs from
QuickJS-ng in two known ways: QuickJS-ng accepts ES2025 modifiers `(?i:...)` and duplicate
group names in different alternatives; Node 20 rejects both (`Invalid group`,
`Duplicate capture group name`).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.js.engine import js_regex_test, quickjs_regex_error
from engine.js.regex import compile_js_regex, js_regex_error

TOKENS = [
    "a",
    "b",
    "A",
    "s",
    "k",
    "é",
    "ſ",
    "σ",
    "ß",
    ".",
    "-",
    " ",
    ",",
    "😀",
    r"\d",
    r"\D",
    r"\w",
    r"\W",
    r"\s",
    r"\S",
    r"\b",
    r"\B",
    r"\n",
    r"\t",
    r"\0",
    r"\1",
    r"\2",
    r"\x41",
    r"\u00e9",
    r"\cA",
    r"\c",
    r"\k",
    r"\p{L}",
    r"\.",
    r"\8",
    r"\07",
    r"\377",
    "\\",
    "[ab]",
    "[^a]",
    "[a-z]",
    r"[\d-z]",
    r"[\w.]",
    "[]",
    "[^]",
    "[A-Z]",
    r"[\s\S]",
    r"[\b]",
    "[",
    "]",
    "(",
    ")",
    "(?:",
    "(?=",
    "(?!",
    "(?<=",
    "(?<!",
    "(?<n>",
    r"\k<n>",
    "(?<m>",
    "*",
    "+",
    "?",
    "{2}",
    "{1,3}",
    "{2,}",
    "*?",
    "{1,}?",
    "{",
    "}",
    "{3,1}",
    "^",
    "$",
    "|",
]
TEXT_CHARS = "aAbB01 _\n\r\u2028\t\u00e9\u00c9\u017fsSkK\u212a\u03c3\u03c2\u03a3-.,{}[]()\\^$*+?|😀\ufeff\xa0ß\x01"

patterns = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=7).map("".join)
texts = st.lists(st.text(alphabet=TEXT_CHARS, max_size=12), min_size=1, max_size=4)


def _node20_divergence(pattern: str, ours: str | None) -> bool:
    return ours is not None and "Duplicate capture group name" in ours


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern=patterns, flags=st.sampled_from(["", "i"]), samples=texts)
def test_python_path_agrees_with_quickjs(pattern, flags, samples):
    ours = js_regex_error(pattern, flags)
    theirs = quickjs_regex_error(pattern, flags)
    if _node20_divergence(pattern, ours):
        return
    assert (ours is None) == (theirs is None), (pattern, ours, theirs)
    if ours is not None:
        return
    compiled = compile_js_regex(pattern, flags)
    for text in samples:
        assert compiled.test(text) == js_regex_test(pattern, flags, text), (pattern, flags, text)


BMP_CASED = st.integers(min_value=0x80, max_value=0xFFFF).filter(
    lambda c: not 0xD800 <= c <= 0xDFFF
)


@settings(max_examples=800, deadline=None)
@given(code=BMP_CASED)
def test_case_insensitive_classes_agree_with_quickjs(code):
    ch = chr(code)
    variants = {ch, ch.upper()[:1], ch.lower()[:1], "s", "k", "i"}
    pattern = f"\\u{code:04x}"
    compiled = compile_js_regex(pattern, "i")
    assert compiled.translated
    for text in variants:
        assert compiled.test(text) == js_regex_test(pattern, "i", text), (hex(code), text)
    range_pattern = f"[\\u{code:04x}-\\u{min(code + 40, 0xFFFF):04x}]"
    ranged = compile_js_regex(range_pattern, "i")
    for text in variants:
        assert ranged.test(text) == js_regex_test(range_pattern, "i", text), (hex(code), text)


HAND_VALID = [
    r"^\d{3}-\d{4}$",
    r"(?:ab|cd)+?e",
    r"[\u0041-\u005a]+",
    r"(?<!\$)\b\d+\b",
    r"\bcolou?r\b",
    r"(?=.*\d)(?=.*[a-z]).{8,}",
    r"^[^@\s]+@[^@\s]+\.[^@\s]+$",
    r"a{0,99999999999}",
    r"[-a]",
    r"[a-]",
    r"[a-b-c]",
    r"\/",
    r"x|",
    r"()",
    r"(|a)*b",
    r"(a*)*$",
    r"[\c_]",
    r"\c*",
    r"\x4",
    r"\u12",
    r"(?<n>a)|b",
    r"\k",
    r"(?=a)*b",
    r"(?!a){2}",
    r"a{,5}",
    r"\0\00\000\0000",
]


@pytest.mark.parametrize("pattern", HAND_VALID)
def test_hand_written_patterns_are_valid_and_agree(pattern):
    assert js_regex_error(pattern) is None
    assert quickjs_regex_error(pattern, "") is None
    for flags in ("", "i"):
        compiled = compile_js_regex(pattern, flags)
        for text in (
            "",
            "a",
            "ab",
            "A1b",
            "colour 42",
            "x@y.zz",
            "a{,5}",
            "aB3xyz!@#",
            "-",
            "\0\0\0\0",
        ):
            assert compiled.test(text) == js_regex_test(pattern, flags, text), (pattern, text)


V8_ERRORS = [
    ("(?i)x", "", "Invalid group"),
    ("(?i:x)", "", "Invalid group"),  # ES2025 modifiers: Node 20 rejects them
    ("[", "", "Unterminated character class"),
    ("[a", "i", "Unterminated character class"),
    ("(", "", "Unterminated group"),
    ("(?:a", "", "Unterminated group"),
    (")", "", "Unmatched ')'"),
    ("a)", "", "Unmatched ')'"),
    ("*", "", "Nothing to repeat"),
    ("a**", "", "Nothing to repeat"),
    ("^*", "", "Nothing to repeat"),
    ("{1}", "", "Nothing to repeat"),
    ("a|?", "", "Nothing to repeat"),
    ("\\", "", "\\ at end of pattern"),
    ("[\\", "", "\\ at end of pattern"),
    ("a{2,1}", "", "numbers out of order in {} quantifier"),
    ("[z-a]", "", "Range out of order in character class"),
    ("(?<1a>x)", "", "Invalid capture group name"),
    ("(?<a>x)(?<a>y)", "", "Duplicate capture group name"),
    ("(?<a>x)|(?<a>y)", "", "Duplicate capture group name"),
    ("(?<a>x)\\k<b>", "", "Invalid named capture referenced"),
    ("(?<a>x)\\k", "", "Invalid named reference"),
    ("(?<=a)*", "", "Invalid quantifier"),
]


@pytest.mark.parametrize(("pattern", "flags", "message"), V8_ERRORS)
def test_errors_use_v8_wording(pattern, flags, message):
    assert (
        js_regex_error(pattern, flags)
        == f"Invalid regular expression: /{pattern}/{flags}: {message}"
    )


def test_flags_and_u_mode_errors():
    assert js_regex_error("a", "x") == "Invalid flags supplied to RegExp constructor 'x'"
    assert js_regex_error("a", "ii") == "Invalid flags supplied to RegExp constructor 'ii'"
    assert js_regex_error(r"\p{L}", "u") is None
    assert js_regex_error(r"\p{Nope}", "u").startswith(r"Invalid regular expression: /\p{Nope}/u: ")
    assert js_regex_error("]", "u").startswith("Invalid regular expression: /]/u: ")
    assert compile_js_regex(r"\p{Lu}", "u").test("É") is True


def test_quickjs_runs_back_references_and_other_flags():
    assert not compile_js_regex(r"(a)\1").translated
    assert not compile_js_regex(r"(?=a)+a").translated
    assert not compile_js_regex("^b", "m").translated
    assert compile_js_regex("^b", "m").test("a\nb") is True
    assert compile_js_regex("^b").test("a\nb") is False
    assert compile_js_regex("a.c", "s").test("a\nc") is True


def test_case_insensitive_patterns_agree_with_quickjs_on_case_traps():
    """ASCII-only patterns take a fast IGNORECASE path: it must agree with JS on every trap."""
    import random

    rng = random.Random(5)
    atoms = [
        "a",
        "B",
        "z",
        "K",
        "s",
        "[a-f]",
        "[A-Z0-9]",
        "\\w",
        "\\W",
        "\\d",
        "\\s",
        ".",
        "[^a-c]",
        "\\b",
        "(?:ab|CD)",
        "x*",
        "[k-s]+",
        "\\u00e9",
        "é",
        "[À-ÿ]",
        "^",
        "$",
    ]
    texts = [
        "abc",
        "ABC",
        "ſ",
        "\u212a",
        "é",
        "É",
        "Straße",
        "KELVIN \u212a",
        "xyz 123",
        "İstanbul",
        "ǅ",
        "ΣΑΣ σας",
        "a\n",
    ]
    checked = 0
    for _ in range(3000):
        pattern = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 4)))
        for text in texts:
            try:
                ours = compile_js_regex(pattern, "i").test(text)
            except ValueError:
                continue
            assert ours is js_regex_test(pattern, "i", text), (pattern, text)
            checked += 1
    assert checked > 20_000
