"""Tokenizer for the jq language.

Produces ``Token`` objects. A string literal becomes one ``STR`` token whose ``value`` is a list
of parts: plain ``str`` pieces and, for each ``\\(...)`` interpolation, the list of tokens inside
it (parsed later by the parser). Refuses nothing but malformed text, which raises ``JQSyntaxError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import re

from sandbox.commands.jq.errors import JQError, JQSyntaxError
from sandbox.commands.jq.jsonparse import parse_json_text

KEYWORDS = frozenset(
    "def if then elif else end as reduce foreach try catch label import include and or "
    "__loc__ module".split()
)

# longest first
_PUNCT = [
    "?//=", "?//", "|=", "+=", "-=", "*=", "/=", "%=", "//=", "==", "!=", "<=", ">=", "//", "..",
    ".", "[", "]", "{", "}", "(", ")", "|", ",", ":", ";", "=", "<", ">", "+", "-", "*", "/",
    "%", "?", "$",
]

_CLOSER = {"(": ")", "[": "]", "{": "}"}
_ESCAPE_RUN = re.compile(r"(?:\\[^u(]|\\u[a-zA-Z0-9]{0,4})+")


@dataclass
class Token:
    """One token: ``kind`` (IDENT, FIELD, VAR, NUM, STR, FORMAT, KEYWORD, OP, EOF), its value
    and its position (offset into the program text, 1-based line)."""

    kind: str
    value: Any
    pos: int
    line: int

    def __repr__(self) -> str:
        return f"Token({self.kind},{self.value!r})"


def _is_ident_start(c: str) -> bool:
    return c.isascii() and (c.isalpha() or c == "_")


def _is_ident_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


class Lexer:
    """Turns program text into tokens (see ``tokenize``)."""

    def __init__(self, text: str):
        self.text = text
        self.i = 0
        self.n = len(text)

    def line_at(self, pos: int) -> int:
        """1-based line number of an offset."""
        return self.text.count("\n", 0, pos) + 1

    def error(self, msg: str, pos: int | None = None) -> JQSyntaxError:
        """A syntax error at ``pos``."""
        return JQSyntaxError(msg)

    def skip_ws(self) -> None:
        """Skip whitespace and comments."""
        t, n = self.text, self.n
        while self.i < n:
            c = t[self.i]
            if c in " \t\r\n\f\v":
                self.i += 1
            elif c == "#":
                # comment to end of line; a backslash before the newline continues it (jq 1.7)
                while self.i < n and t[self.i] != "\n":
                    if t[self.i] == "\\" and self.i + 1 < n:
                        self.i += 2
                        continue
                    self.i += 1
            else:
                break

    def tokens(self, until_paren: bool = False) -> list[Token]:
        """Tokenize to the end, or to the ``)`` closing an interpolation when ``until_paren``."""
        out: list[Token] = []
        #: The brackets still open: src/lexer.l's start-condition stack, where a closing
        #: bracket that is not the innermost open one's is an INVALID_CHARACTER token.
        opened: list[str] = []
        t = self.text
        while True:
            self.skip_ws()
            if self.i >= self.n:
                if until_paren:
                    raise self.error("unterminated string interpolation")
                out.append(Token("EOF", None, self.i, self.line_at(self.i)))
                return out
            start = self.i
            c = t[start]
            if until_paren and c == ")" and not opened:
                self.i += 1  # the end of the interpolation's tokens: bison's token name
                out.append(Token("EOF", "QQSTRING_INTERP_END", start, self.line_at(start)))
                return out
            if c in "([{":
                opened.append(_CLOSER[c])
            elif c in ")]}":
                if opened and opened[-1] == c:
                    opened.pop()
                else:
                    self.i += 1
                    out.append(Token("INVALID", "INVALID_CHARACTER", start, self.line_at(start)))
                    continue
            if c == '"':
                out.append(Token("STR", self.string(), start, self.line_at(start)))
                continue
            if c.isdigit() or (c == "." and start + 1 < self.n and t[start + 1].isdigit()):
                out.append(Token("NUM", self.number(), start, self.line_at(start)))
                continue
            if c == "." and start + 1 < self.n and (_is_ident_start(t[start + 1])):
                j = start + 2
                while j < self.n and _is_ident_char(t[j]):
                    j += 1
                self.i = j
                out.append(Token("FIELD", t[start + 1 : j], start, self.line_at(start)))
                continue
            if c == "$" and start + 1 < self.n and _is_ident_start(t[start + 1]):
                j = self._ident_end(start + 1)
                self.i = j
                name = t[start + 1 : j]
                out.append(Token("VAR", name, start, self.line_at(start)))
                continue
            if c == "@" and start + 1 < self.n and _is_ident_start(t[start + 1]):
                j = start + 2
                while j < self.n and _is_ident_char(t[j]):
                    j += 1
                self.i = j
                out.append(Token("FORMAT", t[start + 1 : j], start, self.line_at(start)))
                continue
            if _is_ident_start(c):
                j = self._ident_end(start)
                self.i = j
                word = t[start:j]
                kind = "KEYWORD" if word in KEYWORDS else "IDENT"
                out.append(Token(kind, word, start, self.line_at(start)))
                continue
            for p in _PUNCT:
                if t.startswith(p, start):
                    self.i = start + len(p)
                    out.append(Token("OP", p, start, self.line_at(start)))
                    break
            else:
                raise self.error(f"syntax error, unexpected INVALID_CHARACTER")

    def _ident_end(self, j: int) -> int:
        t = self.text
        while True:
            while j < self.n and _is_ident_char(t[j]):
                j += 1
            if t.startswith("::", j) and j + 2 < self.n and _is_ident_start(t[j + 2]):
                j += 2
                continue
            return j

    def number(self) -> float | int:
        """Scan a number literal."""
        t = self.text
        j = self.i
        while j < self.n and t[j].isdigit():
            j += 1
        is_float = False
        if j < self.n and t[j] == ".":
            is_float = True
            j += 1
            while j < self.n and t[j].isdigit():
                j += 1
        if j < self.n and t[j] in "eE":
            k = j + 1
            if k < self.n and t[k] in "+-":
                k += 1
            if k < self.n and t[k].isdigit():
                is_float = True
                j = k
                while j < self.n and t[j].isdigit():
                    j += 1
        text = t[self.i : j]
        self.i = j
        if not is_float:
            return int(text)
        return float(text)

    def string(self) -> list[Any]:
        """Scan a string literal starting at the opening quote; return its parts."""
        t = self.text
        self.i += 1
        parts: list[Any] = []
        buf: list[str] = []
        while True:
            if self.i >= self.n:
                raise self.error("unterminated string literal")
            c = t[self.i]
            if c == '"':
                self.i += 1
                break
            if c == "\\":
                if self.i + 1 >= self.n:
                    raise self.error("unterminated string literal")
                e = t[self.i + 1]
                if e != "(":
                    # src/lexer.l: a run of escapes, (\\[^u(]|\\u[a-zA-Z0-9]{0,4})+, is one
                    # QQSTRING_TEXT token, read with jv_parse_sized("\"" + run + "\"")
                    m = _ESCAPE_RUN.match(t, self.i)
                    run = m.group(0) if m else t[self.i : self.i + 2]
                    self.i += len(run)
                    try:
                        buf.append(parse_json_text('"' + run + '"'))
                    except JQError as err:
                        raise self.error(str(err.value))
                elif e == "(":
                    if buf:
                        parts.append("".join(buf))
                        buf = []
                    self.i += 2
                    sub = self.tokens(until_paren=True)
                    parts.append(sub)
            else:
                buf.append(c)
                self.i += 1
        if buf or not parts:
            parts.append("".join(buf))
        return parts


def tokenize(text: str) -> list[Token]:
    """Tokenize a whole jq program."""
    return Lexer(text).tokens()
