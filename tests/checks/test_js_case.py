"""`*_word` functions fold case as JavaScript's `iu` flags do; QuickJS is the oracle for Node."""

from __future__ import annotations

import random

import pytest
import regex

from engine.js.case import iu_class
from engine.js.engine import js_regex_test
from tests.checks.conftest import raw

_SPECIAL = set(".*+?^${}()|[]\\")


def node_word(text: str, word: str, ignore_case: bool) -> bool:
    """Upstream's own test: the escaped word between Unicode boundaries, flags `u`/`iu`."""
    escaped = "".join("\\" + c if c in _SPECIAL else c for c in word)
    pattern = f"(?<![\\p{{L}}\\p{{N}}_]){escaped}(?![\\p{{L}}\\p{{N}}_])"
    return js_regex_test(pattern, "iu" if ignore_case else "u", text)


CASES = [
    ("İstanbul is big", "istanbul"),  # dotted capital I is not i under `iu`
    ("istanbul", "İstanbul"),
    ("İSTANBUL", "İstanbul"),
    ("i̇stanbul", "İstanbul"),  # i + combining dot (its toLowerCase) is not İ either
    ("ıstanbul", "Istanbul"),  # dotless i is not I
    ("DİYARBAKIR", "diyarbakir"),
    ("Straße", "STRASSE"),
    ("ſ", "s"),  # long s folds to s
    ("K", "k"),  # Kelvin sign folds to k
    ("ǅ", "ǆ"),
    ("ΐ", "ΐ"),  # U+1FD3 folds to U+0390
    ("ς", "Σ"),
    ("ϐ", "β"),
    ("ẞ", "ß"),
    ("ﬁ", "fi"),
    ("Ω", "ω"),  # Ohm sign
    ("Å", "å"),  # Angstrom sign
    ("𐐀 x", "𐐨"),  # Deseret, astral
    ("aͅ", "a"),  # U+0345 folds to iota: a letter under `iu`
    ("a.b", "A.B"),
]


@pytest.mark.parametrize(("text", "word"), CASES)
def test_icontains_word_folds_as_node(text: str, word: str) -> None:
    expected = node_word(text, word, True)
    assert raw("icontains_word", text, word) is expected
    assert raw("not_icontains_word", text, word) is (not expected)
    assert raw("contains_word", text, word) is node_word(text, word, False)


def test_dotted_capital_i_facts() -> None:
    assert raw("icontains_word", "İstanbul is big", "istanbul") is False
    assert raw("icontains_word", "I love İSTANBUL", "İstanbul") is True
    assert raw("icontains_word", "Istanbul", "ıstanbul") is False


def _cased_characters() -> list[str]:
    return [
        chr(c)
        for c in range(0x20, 0x20000)
        if not 0xD800 <= c <= 0xDFFF
        and (chr(c).lower() != chr(c) or chr(c).upper() != chr(c) or chr(c).casefold() != chr(c))
    ]


def test_random_words_of_cased_characters_match_as_node() -> None:
    cased = _cased_characters()
    rng = random.Random(11)
    for _ in range(300):
        word = "".join(rng.choice(cased) for _ in range(rng.randint(1, 3)))
        variants = [word, word.lower(), word.upper(), word.casefold(), word.title()]
        text = rng.choice(variants) + rng.choice(["", " ", "x", "-", "1"])
        assert raw("icontains_word", text, word) is node_word(text, word, True), (text, word)


def test_every_cased_character_s_class_is_what_quickjs_accepts() -> None:
    cased = _cased_characters()
    rng = random.Random(7)
    for ch in rng.sample(cased, 400):
        members = {ch, ch.lower(), ch.upper(), ch.casefold(), ch.title()}
        for other in (m for m in members if len(m) == 1):
            pattern = iu_class(ch)
            expected = js_regex_test(f"^\\u{{{ord(ch):x}}}$", "iu", other)
            assert (regex.fullmatch(pattern, other) is not None) is expected, (ch, other)


def test_a_very_long_word_runs_in_quickjs_with_the_same_answer() -> None:
    word = "İstanbul " * 300
    assert raw("icontains_word", "x " + word.upper() + " y", word) is node_word(
        "x " + word.upper() + " y", word, True
    )
    assert raw("icontains_word", "x " + word.lower(), word) is False
    assert raw("contains_word", "(" + word + ")", word) is True
