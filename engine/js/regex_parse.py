"""Parse JavaScript regular expressions (no `u` flag, Annex B syntax) into a tree, with V8's errors.

The parser follows V8's `RegExpParser` (Node 20) for patterns compiled without the `u`/`v` flags,
which is how every `matches*`/`imatch*` point function compiles them. It works on UTF-16 code
units, as JavaScript does. Errors carry V8's wording (`Unterminated character class`,
`Invalid group`, ...), so messages match upstream's exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, TypeAlias

from engine.js.charsets import (
    DIGIT,
    INF,
    SPACE,
    WORD,
    Ranges,
    complement,
    normalize,
    to_code_units,
)

__all__ = ["Node", "ParsedRegex", "RegexSyntaxError", "RegexTooDeep", "parse_regex"]

Node: TypeAlias = tuple[object, ...]
"""A tree node: ("char", cu) ("set", ranges, negated) ("dot",) ("bol",) ("eol",) ("wordb", negated)
("seq", items) ("alt", items) ("group", node) ("look", behind, negative, node)
("quant", node, min, max, greedy) ("backref", index_or_name)."""

_CONTROL: Final = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_OCTAL: Final = frozenset("01234567")  # `"" in _OCTAL` is False, so peek() at the end is safe


class RegexSyntaxError(ValueError):
    """An invalid pattern; `message` is V8's text (`Unterminated group`, ...)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RegexTooDeep(Exception):
    """Groups nest deeper than the parser's `max_nesting` (it stops instead of recursing)."""


@dataclass
class ParsedRegex:
    """The tree of a pattern plus what the translator needs to know about it."""

    tree: Node
    captures: int
    has_backrefs: bool = False
    has_quantified_lookaround: bool = False
    names: list[str] = field(default_factory=list)


_CLASS_ESCAPES: Final = {
    "d": DIGIT,
    "D": complement(DIGIT),
    "s": SPACE,
    "S": complement(SPACE),
    "w": WORD,
    "W": complement(WORD),
}


def _is_id_start(cp: int) -> bool:
    return cp in (0x24, 0x5F) or chr(cp).isidentifier()


def _is_id_part(cp: int) -> bool:
    return cp in (0x24, 0x200C, 0x200D) or ("a" + chr(cp)).isidentifier()


class _Parser:
    def __init__(self, units: str, max_nesting: int) -> None:
        self.s = units
        self.depth = 0
        self.max_nesting = max_nesting
        self.n = len(units)
        self.i = 0
        self.captures, self.has_named = self._scan_captures()
        self.group_count = 0
        self.names: list[str] = []
        self.refs: list[str] = []
        self.info = ParsedRegex(tree=("seq", ()), captures=self.captures)

    def _scan_captures(self) -> tuple[int, bool]:
        """Count capturing groups ahead of parsing (V8's ScanForCaptures)."""
        s, n, i, count, named = self.s, self.n, 0, 0, False
        while i < n:
            c = s[i]
            if c == "\\":
                i += 2
                continue
            if c == "[":
                i += 1
                while i < n and s[i] != "]":
                    i += 2 if s[i] == "\\" else 1
            elif c == "(":
                if s.startswith("(?", i):
                    if s.startswith("(?<", i) and i + 3 < n and s[i + 3] not in "=!":
                        count += 1
                        named = True
                else:
                    count += 1
            i += 1
        return count, named

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < self.n else ""

    def parse(self) -> ParsedRegex:
        tree = self.disjunction()
        if self.i < self.n:  # only an unmatched ')' stops the top-level disjunction
            raise RegexSyntaxError("Unmatched ')'")
        for ref in self.refs:
            if ref not in self.names:
                raise RegexSyntaxError("Invalid named capture referenced")
        self.info.tree = tree
        self.info.names = self.names
        return self.info

    def disjunction(self) -> Node:
        alts = [self.alternative()]
        while self.peek() == "|":
            self.i += 1
            alts.append(self.alternative())
        return alts[0] if len(alts) == 1 else ("alt", tuple(alts))

    def alternative(self) -> Node:
        items: list[Node] = []
        while self.i < self.n and self.s[self.i] not in "|)":
            items.append(self.term())
        return items[0] if len(items) == 1 else ("seq", tuple(items))

    def term(self) -> Node:
        c = self.s[self.i]
        if c == "^":
            self.i += 1
            return ("bol",)
        if c == "$":
            self.i += 1
            return ("eol",)
        if c == "\\" and self.peek(1) in ("b", "B"):
            self.i += 2
            return ("wordb", self.s[self.i - 1] == "B")
        if c in "*+?":
            raise RegexSyntaxError("Nothing to repeat")
        if c == "{" and self.interval(self.i) is not None:
            raise RegexSyntaxError("Nothing to repeat")
        atom: Node
        lookbehind = False
        lookaround = False
        if c == "(":
            atom, lookaround, lookbehind = self.group()
        elif c == "[":
            atom = self.char_class()
        elif c == ".":
            self.i += 1
            atom = ("dot",)
        elif c == "\\":
            atom = self.atom_escape()
        else:
            self.i += 1
            atom = ("char", ord(c))
        return self.quantifier(atom, lookaround, lookbehind)

    def interval(self, j: int) -> tuple[int, int, int] | None:
        """Parse `{n}`, `{n,}` or `{n,m}` at `j`; return (min, max, end) or None."""
        s, n = self.s, self.n
        j += 1
        start = j
        while j < n and s[j].isdigit() and s[j].isascii():
            j += 1
        if j == start:
            return None
        low = min(int(s[start:j]), INF)
        high = low
        if j < n and s[j] == ",":
            j += 1
            start = j
            while j < n and s[j].isdigit() and s[j].isascii():
                j += 1
            high = min(int(s[start:j]), INF) if j > start else INF
        if j < n and s[j] == "}":
            return low, high, j + 1
        return None

    def quantifier(self, atom: Node, lookaround: bool, lookbehind: bool) -> Node:
        c = self.peek()
        if c in ("*", "+", "?"):
            low, high = {"*": (0, INF), "+": (1, INF), "?": (0, 1)}[c]
            self.i += 1
        elif c == "{" and (parsed := self.interval(self.i)) is not None:
            low, high, self.i = parsed
            if low > high:
                raise RegexSyntaxError("numbers out of order in {} quantifier")
        else:
            return atom
        greedy = True
        if self.peek() == "?":
            self.i += 1
            greedy = False
        if lookbehind:
            raise RegexSyntaxError("Invalid quantifier")
        if lookaround:
            self.info.has_quantified_lookaround = True
        return ("quant", atom, low, high, greedy)

    def group(self) -> tuple[Node, bool, bool]:
        s, i = self.s, self.i
        behind = negative = False
        kind = "capture"
        if s.startswith("(?", i):
            nxt = self.peek(2)
            if nxt == ":":
                kind, self.i = "group", i + 3
            elif nxt in ("=", "!"):
                kind, negative, self.i = "look", nxt == "!", i + 3
            elif nxt == "<" and self.peek(3) in ("=", "!"):
                kind, behind, negative, self.i = "look", True, self.peek(3) == "!", i + 4
            elif nxt == "<":
                self.i = i + 3
                name = self.group_name()
                if name in self.names:
                    raise RegexSyntaxError("Duplicate capture group name")
                self.names.append(name)
            else:
                raise RegexSyntaxError("Invalid group")
        else:
            self.i = i + 1
        if kind == "capture":
            self.group_count += 1
            if self.group_count > 0xFFFF:
                raise RegexSyntaxError("Too many captures")
        self.depth += 1
        if self.depth > self.max_nesting:
            raise RegexTooDeep
        body = self.disjunction()
        self.depth -= 1
        if self.i >= self.n:
            raise RegexSyntaxError("Unterminated group")
        self.i += 1  # ')'
        if kind == "look":
            return ("look", behind, negative, body), True, behind
        return ("group", body), False, False

    def group_name(self) -> str:
        """Read `name>` (V8's ParseCaptureGroupName); the position is after the `<`."""
        out: list[str] = []
        while True:
            if self.i >= self.n:
                raise RegexSyntaxError("Invalid capture group name")
            cp = ord(self.s[self.i])
            self.i += 1
            if 0xD800 <= cp <= 0xDBFF and 0xDC00 <= ord(self.peek() or "\0") <= 0xDFFF:
                cp = 0x10000 + ((cp - 0xD800) << 10) + (ord(self.s[self.i]) - 0xDC00)
                self.i += 1
            if cp == 0x5C and self.peek() == "u":
                self.i += 1
                cp = self.name_unicode_escape()
            elif cp == 0x5C:
                raise RegexSyntaxError("Invalid capture group name")
            if not out:
                if not _is_id_start(cp):
                    raise RegexSyntaxError("Invalid capture group name")
            elif cp == 0x3E:
                return "".join(out)
            elif not _is_id_part(cp):
                raise RegexSyntaxError("Invalid capture group name")
            out.append(chr(cp))

    def name_unicode_escape(self) -> int:
        s = self.s
        if self.peek() == "{":
            end = s.find("}", self.i)
            digits = s[self.i + 1 : end] if end > 0 else ""
            if not digits or not set(digits) <= _HEX or int(digits, 16) > 0x10FFFF:
                raise RegexSyntaxError("Invalid Unicode escape")
            self.i = end + 1
            return int(digits, 16)
        digits = s[self.i : self.i + 4]
        if len(digits) < 4 or not set(digits) <= _HEX:
            raise RegexSyntaxError("Invalid Unicode escape")
        self.i += 4
        cp = int(digits, 16)
        if 0xD800 <= cp <= 0xDBFF and s.startswith("\\u", self.i):
            low = s[self.i + 2 : self.i + 6]
            if len(low) == 4 and set(low) <= _HEX and 0xDC00 <= int(low, 16) <= 0xDFFF:
                self.i += 6
                return 0x10000 + ((cp - 0xD800) << 10) + (int(low, 16) - 0xDC00)
        return cp

    def octal(self) -> int:
        """Read a legacy octal escape starting at the current digit (at most 0o377)."""
        s = self.s
        value = ord(s[self.i]) - 0x30
        self.i += 1
        if self.peek() in _OCTAL:
            value = value * 8 + ord(s[self.i]) - 0x30
            self.i += 1
            if value < 32 and self.peek() in _OCTAL:
                value = value * 8 + ord(s[self.i]) - 0x30
                self.i += 1
        return value

    def hex_escape(self, count: int) -> int | None:
        digits = self.s[self.i + 2 : self.i + 2 + count]
        if len(digits) == count and set(digits) <= _HEX:
            self.i += 2 + count
            return int(digits, 16)
        return None

    def char_escape(self, in_class: bool) -> int | Ranges:
        """Parse an escape (the position is at the backslash); return a code unit or a set."""
        if self.i + 1 >= self.n:
            raise RegexSyntaxError("\\ at end of pattern")
        d = self.s[self.i + 1]
        if d in _CLASS_ESCAPES:
            self.i += 2
            return _CLASS_ESCAPES[d]
        if d in _CONTROL:
            self.i += 2
            return _CONTROL[d]
        if d == "c":
            letter = self.peek(2)
            if letter.isascii() and letter.isalpha():
                self.i += 3
                return ord(letter) & 0x1F
            if in_class and letter and ((letter.isascii() and letter.isdigit()) or letter == "_"):
                self.i += 3
                return ord(letter) & 0x1F
            self.i += 1  # the backslash is a literal; `c` is read next
            return 0x5C
        if d in ("x", "u"):
            value = self.hex_escape(2 if d == "x" else 4)
            if value is not None:
                return value
            self.i += 2
            return ord(d)
        if d in _OCTAL:
            self.i += 1
            return self.octal()
        if in_class and d == "b":
            self.i += 2
            return 0x08
        self.i += 2
        return ord(d)

    def atom_escape(self) -> Node:
        d = self.peek(1)
        if d and "1" <= d <= "9":
            j = self.i + 1
            while j < self.n and "0" <= self.s[j] <= "9":
                j += 1
            index = int(self.s[self.i + 1 : j])
            if index <= self.captures:
                self.i = j
                self.info.has_backrefs = True
                return ("backref", index)
            if d in ("8", "9"):
                self.i += 2
                return ("char", ord(d))
        if d == "k" and self.has_named:
            if self.peek(2) != "<":
                raise RegexSyntaxError("Invalid named reference")
            self.i += 3
            name = self.group_name()
            self.refs.append(name)
            self.info.has_backrefs = True
            return ("backref", name)
        value = self.char_escape(in_class=False)
        return ("set", value, False) if isinstance(value, tuple) else ("char", value)

    def class_atom(self) -> int | Ranges:
        if self.s[self.i] == "\\":
            return self.char_escape(in_class=True)
        self.i += 1
        return ord(self.s[self.i - 1])

    def char_class(self) -> Node:
        self.i += 1
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        parts: list[tuple[int, int]] = []

        def add(atom: int | Ranges) -> None:
            if isinstance(atom, tuple):
                parts.extend(atom)
            else:
                parts.append((atom, atom))

        while self.i < self.n and self.s[self.i] != "]":
            first = self.class_atom()
            if self.peek() != "-":
                add(first)
                continue
            self.i += 1
            if self.i >= self.n:
                break
            if self.s[self.i] == "]":
                add(first)
                add(0x2D)
                break
            second = self.class_atom()
            if isinstance(first, tuple) or isinstance(second, tuple):
                add(first)
                add(0x2D)
                add(second)
                continue
            if first > second:
                raise RegexSyntaxError("Range out of order in character class")
            parts.append((first, second))
        if self.i >= self.n:
            raise RegexSyntaxError("Unterminated character class")
        self.i += 1
        return ("set", normalize(parts), negated)


def parse_regex(pattern: str, max_nesting: int = 64) -> ParsedRegex:
    """Parse a JavaScript pattern (compiled without `u`) into a tree.

    Args:
        pattern: The pattern source, as a Python string (astral characters are split into
            surrogate pairs first, as JavaScript sees them).
        max_nesting: How deeply groups may nest before `RegexTooDeep` is raised; the parser
            recurses a few frames per level, so keep this well under the recursion limit.

    Returns:
        The tree and facts about it (captures, back-references, quantified lookarounds).

    Raises:
        RegexSyntaxError: The pattern is invalid; the message is V8's.
        RegexTooDeep: Groups nest deeper than `max_nesting`.
    """
    return _Parser(to_code_units(pattern), max_nesting).parse()
