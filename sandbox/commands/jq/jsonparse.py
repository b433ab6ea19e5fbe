"""JSON input for jq: a streaming reader of concatenated JSON values, and ``fromjson``.

The reader parses value by value from a binary stream, never holding more than the current
value: one ``json.loads`` per line for JSONL (the C decoder), falling back to
``JSONDecoder.raw_decode`` over a growing buffer for values that span lines or lines holding
several values (the buffer is re-parsed only after it doubles, so a large pretty-printed value
costs linear time). Errors are worded like jq's parser (``Unfinished JSON term at EOF at line
2, column 0``); the wording of rarer errors is approximate.
"""

from __future__ import annotations

import json
import math
from typing import Any, BinaryIO, Iterator

from sandbox.commands.jq.errors import JQError
from sandbox.commands.jq.values import decode_utf8

_WS = " \t\r\n"


class JSONParseError(Exception):
    """Malformed input JSON; ``str()`` is the message after ``jq: error (at ...): ``."""


def _constant(name: str) -> float:
    if name == "NaN" or name == "-NaN":
        return math.nan
    if name == "Infinity":
        return math.inf
    return -math.inf


_decoder = json.JSONDecoder(strict=False, parse_constant=_constant)
_raw_decode = _decoder.raw_decode
_loads = _decoder.decode
_scan_once = _decoder.scan_once


def _line_col(text: str, pos: int, base_line: int) -> tuple[int, int]:
    line = base_line + text.count("\n", 0, pos)
    last_nl = text.rfind("\n", 0, pos)
    col = pos - (last_nl + 1)
    return line, col


def _describe_error(text: str, err: json.JSONDecodeError, base_line: int, at_eof: bool) -> str:
    pos = err.pos
    rest = text[pos:]
    msg = err.msg
    if not rest.strip(_WS):
        # input ended inside a value
        line, col = _line_col(text, len(text), base_line)
        return f"Unfinished JSON term at EOF at line {line + 1 if text.endswith(chr(10)) else line}, column {0 if text.endswith(chr(10)) else col}"
    # find the end of the offending token (jq reports the position after it)
    end = pos
    while end < len(text) and text[end] not in _WS + ",:]}[{\"":
        end += 1
    if end == pos:
        end = pos + 1
    line, col = _line_col(text, end, base_line)
    tok = text[pos:end]
    if msg.startswith("Expecting value"):
        c = text[pos]
        if c in "]}":
            kind = "Unmatched '%s'" % c if c == "]" else "Unmatched '}'"
            if c == "]" and text[:pos].rstrip(_WS).endswith(","):
                kind = "Expected another array element"
            return f"{kind} at line {line}, column {col}"
        if c == ",":
            return f"Expected value before ',' at line {line}, column {col}"
        if c == ":":
            return f"':' not as part of an object at line {line}, column {col}"
        # jq notices a bad literal at the delimiter after it, and counts that character
        if end >= len(text):
            where = f"at EOF at line {line}, column {col}"
        else:
            line, col = _line_col(text, end + 1, base_line)
            if text[end] == "\n":
                line, col = line, 0
            where = f"at line {line}, column {col}"
        if c.isalpha() and c in "tfn":
            return f"Invalid literal {where}"
        return f"Invalid numeric literal {where}"
    if msg.startswith("Expecting ',' delimiter") or msg.startswith("Expecting ':' delimiter"):
        if msg.startswith("Expecting ':'") and text[pos] in ",}":
            return f"Objects must consist of key:value pairs at line {line}, column {col}"
        # jq reports a missing separator once the next token has ended
        if text[pos] in "{[\"":
            return f"Expected separator between values at line {line}, column {col}"
        end2 = pos
        while end2 < len(text) and text[end2] not in _WS + ",:]}[{\"":
            end2 += 1
        line, col = _line_col(text, min(end2 + 1, len(text)), base_line)
        return f"Expected separator between values at line {line}, column {col}"
    if msg.startswith("Expecting property name"):
        c = text[pos]
        if c == "}":
            return f"Expected another key-value pair at line {line}, column {col}"
        return f"Object keys must be strings at line {line}, column {col}"
    if msg.startswith("Invalid \\escape") or msg.startswith("Invalid \\u"):
        return f"Invalid escape at line {line}, column {col}"
    return f"{msg} at line {line}, column {col}"


def _fix_nan_literals(text: str) -> str | None:
    """jq accepts ``nan`` as a literal; rewrite it to Python's ``NaN`` if that is the problem."""
    import re

    fixed = re.sub(r'(?<![A-Za-z0-9_"])-?(?:nan|NaN)(?![A-Za-z0-9_])', "NaN", text)
    return fixed if fixed != text else None


def parse_json_text(text: str) -> Any:
    """``fromjson``: exactly one JSON value (jq's wording on error)."""
    stripped = text.strip(_WS)
    if not stripped:
        raise JQError(f"Expected JSON value (while parsing '{text}')")
    try:
        return _loads(stripped)
    except json.JSONDecodeError as e:
        fixed = _fix_nan_literals(stripped)
        if fixed is not None:
            try:
                return _loads(fixed)
            except json.JSONDecodeError:
                pass
        if e.msg.startswith("Extra data"):
            raise JQError(f"Unexpected extra JSON values (while parsing '{text}')")
        msg = _describe_error(text, e, 1, True)
        if msg.startswith("Unfinished JSON term"):
            line, col = _line_col(text, len(text), 1)
            msg = f"Unfinished JSON term at EOF at line {line}, column {col}"
        raise JQError(f"{msg} (while parsing '{text}')")
    except RecursionError:
        raise JQError(f"Exceeds depth limit for parsing (while parsing '{text[:20]}')")


class InputReader:
    """Concatenated JSON values from a binary stream, with the line counter jq reports."""

    def __init__(self, stream: BinaryIO, budget: Any = None):
        self.stream = stream
        self.lines = 0  # newlines consumed so far
        self.budget = budget

    def values(self) -> Iterator[Any]:
        """Yield each value; raise ``JSONParseError`` at the first malformed one."""
        pending = ""
        pending_line = 0
        retry_at = 0
        first = True
        count = 0
        for raw in self.stream:
            count += 1
            if not count & 1023 and self.budget is not None:
                self.budget.check_time()
            if first:
                first = False
                if raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
            if not pending:
                self.lines += 1 if raw.endswith(b"\n") else 0
                try:
                    text = raw.decode("utf-8")
                    value, end = _scan_once(text, 0)
                    n = len(text)
                    if end == n or (end == n - 1 and text[end] == "\n") or not text[end:].strip(_WS):
                        yield value
                        continue
                except (StopIteration, ValueError, UnicodeDecodeError, RecursionError):
                    pass
                if True:
                    text = decode_utf8(raw)
                    if not text.strip(_WS):
                        continue
                    pending = text
                    pending_line = self.lines - (1 if raw.endswith(b"\n") else 0) + 1
                    retry_at = 0
            else:
                text = decode_utf8(raw)
                self.lines += 1 if raw.endswith(b"\n") else 0
                pending += text
            if len(pending) < retry_at:
                continue
            pending, pending_line, done = yield from self._drain(pending, pending_line, False)
            retry_at = 0 if done else max(len(pending) * 2, 4096)
        if pending.strip(_WS):
            pending, pending_line, _ = yield from self._drain(pending, pending_line, True)

    def _drain(self, pending: str, line: int, at_eof: bool):
        """Parse every complete value in ``pending``; return the unparsed rest."""
        idx = 0
        n = len(pending)
        while True:
            while idx < n and pending[idx] in _WS:
                idx += 1
            if idx >= n:
                return "", 0, True
            try:
                value, end = _raw_decode(pending, idx)
            except json.JSONDecodeError as e:
                fixed = _fix_nan_literals(pending[idx:])
                if fixed is not None:
                    try:
                        value, end2 = _raw_decode(fixed, 0)
                        # map the end back: only safe when the value is the whole rest
                        if not fixed[end2:].strip(_WS):
                            yield value
                            return "", 0, True
                    except json.JSONDecodeError:
                        pass
                rest = pending[e.pos :]
                incomplete = not rest.strip(_WS) or e.msg.startswith("Unterminated string")
                if incomplete and not at_eof:
                    return pending[idx:], line + pending.count("\n", 0, idx), False
                base = line
                msg = _describe_error(pending, e, base, at_eof)
                if incomplete and at_eof:
                    total_lines = self.lines
                    last_nl = pending.rfind("\n")
                    col = 0 if pending.endswith("\n") else len(pending) - (last_nl + 1)
                    what = "Unfinished string" if e.msg.startswith("Unterminated string") else "Unfinished JSON term"
                    msg = f"{what} at EOF at line {total_lines + 1}, column {col}"
                raise JSONParseError(msg)
            except RecursionError:
                raise JSONParseError("Exceeds depth limit for parsing")
            if end >= n and not at_eof and type(value) in (int, float):
                # a number at the very end of the buffer may continue on the next read
                return pending[idx:], line + pending.count("\n", 0, idx), False
            yield value
            idx = end
