"""JSON input for jq: a streaming reader of concatenated JSON values, and ``fromjson``.

Two parsers produce the same values:

* ``JvParser`` is a port of jq 1.8's ``src/jv_parse.c`` state machine (``scan``,
  ``parse_token``, ``stream_token``, ``found_string``, ``check_literal``): it works on bytes,
  counts lines and columns as jq does, words every error as jq does (``Invalid string literal;
  expected ", but got ' at line 1, column 5``), takes jq's number literals (``nan``, ``01``,
  ``.5``, ``+1``, ``Infinity``: decNumber's ``decNumberFromString``), refuses what jq refuses
  (an unpaired ``\\ud800``, control characters in strings) and has jq's ``--stream`` mode
  (``[path, leaf]`` events as the text is read). It is iterative (jq's depth limit of 10000).
* The fast path, for plain JSON: ``json``'s C scanner, one call per line for JSONL, or
  ``raw_decode`` over a growing buffer for values that span lines (re-parsed only after the
  buffer doubles, so a large pretty-printed value costs linear time). Whatever it refuses, and
  any text holding a surrogate escape (where Python and jq differ), is handed to ``JvParser``
  from the start of the value, which then gives jq's value or jq's error.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, BinaryIO, Iterator

from sandbox.commands.jq.errors import JQError
from sandbox.commands.jq.values import decode_utf8

_WS = " \t\r\n"


class JSONParseError(Exception):
    """Malformed input JSON; ``str()`` is the message after ``jq: error (at ...): ``."""


# -- numbers -------------------------------------------------------------------------------------

_NUM_RE = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_SPECIAL_NUM_RE = re.compile(r"[-+]?(?:(inf(?:inity)?)|s?nan([0-9]*))", re.IGNORECASE)


def parse_number_literal(s: str) -> int | float | None:
    """A jq number from text, or None if the text is not one.

    jq 1.8 reads number literals (JSON input and ``tonumber``) with ``jv_number_with_literal``
    (src/jv.c), i.e. decNumber's ``decNumberFromString``: besides decimal numbers (leading
    zeros, a leading ``+``, ``.5`` and ``5.`` included) it takes, without regard to case and
    after an optional sign, ``Inf``/``Infinity`` and ``NaN``/``sNaN``; a NaN with a non-zero
    payload (``nan1``) is refused ("Reject NaN with payload digits")."""
    if not _NUM_RE.fullmatch(s):
        m = _SPECIAL_NUM_RE.fullmatch(s)
        if m is None:
            return None
        if m.group(1):
            return -math.inf if s[0] == "-" else math.inf
        if m.group(2).strip("0"):
            return None
        return math.nan
    if "." not in s and "e" not in s and "E" not in s:
        return int(s)
    return float(s)


# -- the port of jv_parse.c ----------------------------------------------------------------------

_INVALID: Any = object()  # jv_invalid(): no value
_NORMAL, _STRING, _ESCAPE = 0, 1, 2
# enum last_seen
_LAST_NONE, _LAST_OPEN_ARRAY, _LAST_OPEN_OBJECT, _LAST_COLON, _LAST_COMMA, _LAST_VALUE = range(6)
MAX_PARSING_DEPTH = 10000

# classify(): LITERAL is everything but whitespace, '"' and the six structure characters
_LIT_RUN = re.compile(rb'[^ \t\r\n"\[\],{}:]+')
_WS_RUN = re.compile(rb"[ \t\r\n]+")
_STR_STOP = re.compile(rb'["\\]')
_CTRL = re.compile(rb"[\x00-\x1f]")
_HEX4 = re.compile(rb"[0-9A-Fa-f]{4}")
_SIMPLE_ESC = {ord('"'): b'"', ord("\\"): b"\\", ord("/"): b"/", ord("b"): b"\b", ord("f"): b"\f",
               ord("t"): b"\t", ord("n"): b"\n", ord("r"): b"\r"}


class _Err(Exception):
    """A ``presult`` message of jv_parse.c (the position is added by the caller)."""


class JvParser:
    """jq 1.8's ``struct jv_parser`` (src/jv_parse.c), fed bytes with ``feed`` and closed with
    ``finish``; both yield the values (or, ``streaming``, the ``[path, leaf]`` and ``[path]``
    events) and raise ``JSONParseError`` with jq's message (``MSG at line L, column C``).
    With ``stream_errors`` an error is yielded as ``[message, path]`` and parsing stops."""

    def __init__(self, streaming: bool = False, stream_errors: bool = False, line: int = 1,
                 column: int = 0):
        self.streaming = streaming or stream_errors
        self.stream_errors = stream_errors
        self.stack: list = []  # parser: containers and the keys waiting for their value
        self.path: list = []  # streamer
        self.last_seen = _LAST_NONE
        self.output: Any = _INVALID
        self.next: Any = _INVALID
        self.token = bytearray()
        self.st = _NORMAL
        self.line = line
        self.column = column
        self.failed = False

    # state -----------------------------------------------------------------------------------

    def idle(self) -> bool:
        """Between values: nothing pending (the fast path may take over)."""
        return (self.st == _NORMAL and not self.token and not self.stack and not self.path
                and self.next is _INVALID and self.output is _INVALID)

    def _value(self, val: Any) -> None:
        if self.streaming:
            if self.next is not _INVALID or self.last_seen == _LAST_VALUE:
                raise _Err("Expected separator between values")
            self.last_seen = _LAST_VALUE if self.path else _LAST_NONE
        elif self.next is not _INVALID:
            raise _Err("Expected separator between values")
        self.next = val

    # tokens ----------------------------------------------------------------------------------

    def _parse_token(self, ch: int) -> None:
        stack = self.stack
        if ch == 0x5B or ch == 0x7B:  # [ {
            if len(stack) >= MAX_PARSING_DEPTH:
                raise _Err("Exceeds depth limit for parsing")
            if self.next is not _INVALID:
                raise _Err("Expected separator between values")
            stack.append([] if ch == 0x5B else {})
        elif ch == 0x3A:  # :
            if self.next is _INVALID:
                raise _Err("Expected string key before ':'")
            if not stack or type(stack[-1]) is not dict:
                raise _Err("':' not as part of an object")
            if type(self.next) is not str:
                raise _Err("Object keys must be strings")
            stack.append(self.next)
            self.next = _INVALID
        elif ch == 0x2C:  # ,
            if self.next is _INVALID:
                raise _Err("Expected value before ','")
            if not stack:
                raise _Err("',' not as part of an object or array")
            top = stack[-1]
            if type(top) is list:
                top.append(self.next)
                self.next = _INVALID
            elif type(top) is str:
                stack.pop()
                stack[-1][top] = self.next
                self.next = _INVALID
            else:  # this case hits on input like {"a", "b"}
                raise _Err("Objects must consist of key:value pairs")
        elif ch == 0x5D:  # ]
            if not stack or type(stack[-1]) is not list:
                raise _Err("Unmatched ']'")
            if self.next is not _INVALID:
                stack[-1].append(self.next)
            elif stack[-1]:  # this case hits on input like [1,2,3,]
                raise _Err("Expected another array element")
            self.next = stack.pop()
        else:  # }
            if not stack:
                raise _Err("Unmatched '}'")
            if self.next is not _INVALID:
                top = stack[-1]
                if type(top) is not str:
                    raise _Err("Objects must consist of key:value pairs")
                stack.pop()
                stack[-1][top] = self.next
            else:
                if type(stack[-1]) is not dict:
                    raise _Err("Unmatched '}'")
                if stack[-1]:
                    raise _Err("Expected another key-value pair")
            self.next = stack.pop()

    def _stream_token(self, ch: int) -> None:
        path = self.path
        last_seen = self.last_seen
        if ch == 0x5B:  # [
            if self.next is not _INVALID:
                raise _Err("Expected a separator between values")
            if last_seen == _LAST_OPEN_OBJECT:  # Looks like {["foo"]}
                raise _Err("Expected string key after '{', not '['")
            if last_seen == _LAST_COMMA and type(path[-1]) is not int:
                raise _Err("Expected string key after ',' in object, not '['")
            path.append(0)
            self.last_seen = _LAST_OPEN_ARRAY
        elif ch == 0x7B:  # {
            if last_seen == _LAST_VALUE:
                raise _Err("Expected a separator between values")
            if last_seen == _LAST_OPEN_OBJECT:
                raise _Err("Expected string key after '{', not '{'")
            if last_seen == _LAST_COMMA and type(path[-1]) is not int:
                raise _Err("Expected string key after ',' in object, not '{'")
            path.append(None)  # the key, not known yet
            self.last_seen = _LAST_OPEN_OBJECT
        elif ch == 0x3A:  # :
            if not path or type(path[-1]) is int:
                raise _Err("':' not as part of an object")
            if self.next is _INVALID or last_seen == _LAST_NONE:
                raise _Err("Expected string key before ':'")
            if type(self.next) is not str:
                raise _Err("Object keys must be strings")
            if last_seen != _LAST_VALUE:
                raise _Err("':' should follow a key")
            self.last_seen = _LAST_COLON
            path[-1] = self.next
            self.next = _INVALID
        elif ch == 0x2C:  # ,
            if last_seen != _LAST_VALUE:
                raise _Err("Expected value before ','")
            if not path:
                raise _Err("',' not as part of an object or array")
            last = path[-1]
            if type(last) is int:
                if self.next is not _INVALID:
                    self.output = [list(path), self.next]
                    self.next = _INVALID
                path[-1] = last + 1
                self.last_seen = _LAST_COMMA
            elif type(last) is str:
                if self.next is not _INVALID:
                    self.output = [list(path), self.next]
                    self.next = _INVALID
                path[-1] = None  # ready for another key:value pair
                self.last_seen = _LAST_COMMA
            else:  # this case hits on input like {,}
                raise _Err("Objects must consist of key:value pairs")
        elif ch == 0x5D:  # ]
            if not path:
                raise _Err("Unmatched ']' at the top-level")
            if last_seen == _LAST_COMMA:
                raise _Err("Expected another array element")
            if type(path[-1]) is not int:
                raise _Err("Unmatched ']' in the middle of an object")
            if self.next is not _INVALID:
                self.output = [list(path), self.next, True]
                self.next = _INVALID
            elif last_seen != _LAST_OPEN_ARRAY:
                self.output = [list(path)]
            path.pop()
            if last_seen == _LAST_OPEN_ARRAY:
                self.output = [list(path), []]  # empty arrays are leaves
            self.last_seen = _LAST_VALUE if path else _LAST_NONE
        else:  # }
            if not path:
                raise _Err("Unmatched '}' at the top-level")
            if last_seen == _LAST_COMMA:
                raise _Err("Expected another key:value pair")
            k = path[-1]
            if type(k) is int:
                raise _Err("Unmatched '}' in the middle of an array")
            if self.next is not _INVALID:
                if type(k) is not str:
                    raise _Err("Objects must consist of key:value pairs")
                self.output = [list(path), self.next, True]
                self.next = _INVALID
            else:
                if last_seen == _LAST_COLON:  # Looks like {"a":}
                    raise _Err("Missing value in key:value pair")
                if last_seen == _LAST_OPEN_ARRAY:
                    raise _Err("Unmatched '}' in the middle of an array")
                if last_seen != _LAST_VALUE and last_seen != _LAST_OPEN_OBJECT:
                    raise _Err("Unmatched '}'")
                if last_seen != _LAST_OPEN_OBJECT:
                    self.output = [list(path)]
            path.pop()
            if last_seen == _LAST_OPEN_OBJECT:
                self.output = [list(path), {}]
            self.last_seen = _LAST_VALUE if path else _LAST_NONE

    def _found_string(self) -> None:
        tok = bytes(self.token)
        if b"\\" not in tok:
            if _CTRL.search(tok):
                raise _Err("Invalid string: control characters from U+0000 through U+001F must be escaped")
            out = tok
        else:
            buf = bytearray()
            i, n = 0, len(tok)
            while i < n:
                j = tok.find(b"\\", i)
                seg = tok[i:] if j == -1 else tok[i:j]
                if _CTRL.search(seg):
                    raise _Err("Invalid string: control characters from U+0000 through U+001F must be escaped")
                buf += seg
                if j == -1:
                    break
                i = j + 1
                if i >= n:
                    raise _Err("Expected escape character at end of string")
                c = tok[i]
                i += 1
                simple = _SIMPLE_ESC.get(c)
                if simple is not None:
                    buf += simple
                    continue
                if c != 0x75:  # u
                    raise _Err("Invalid escape")
                if i + 4 > n:
                    raise _Err("Invalid \\uXXXX escape")
                if not _HEX4.fullmatch(tok, i, i + 4):
                    raise _Err("Invalid characters in \\uXXXX escape")
                cp = int(tok[i : i + 4], 16)
                i += 4
                if 0xD800 <= cp <= 0xDBFF:
                    if i + 6 > n or tok[i] != 0x5C or tok[i + 1] != 0x75:
                        raise _Err("Invalid \\uXXXX\\uXXXX surrogate pair escape")
                    low = int(tok[i + 2 : i + 6], 16) if _HEX4.fullmatch(tok, i + 2, i + 6) else -1
                    if not 0xDC00 <= low <= 0xDFFF:
                        raise _Err("Invalid \\uXXXX\\uXXXX surrogate pair escape")
                    i += 6
                    cp = 0x10000 + (((cp - 0xD800) << 10) | (low - 0xDC00))
                # jvp_utf8_encode writes a lone low surrogate as three bytes, which
                # jv_string_sized then finds invalid and replaces (U+FFFD)
                buf += chr(cp).encode("utf-8", "surrogatepass")
            out = bytes(buf)
        self._value(decode_utf8(out))
        self.token.clear()

    def _check_literal(self) -> None:
        tok = self.token
        if not tok:
            return
        c = tok[0]
        pattern = None
        v: Any = None
        if c == 0x74:
            pattern, v = b"true", True
        elif c == 0x66:
            pattern, v = b"false", False
        elif c == 0x27:
            raise _Err("Invalid string literal; expected \", but got '")
        elif c == 0x6E and len(tok) > 1 and tok[1] == 0x75:  # "nu": null ("nan" is a number)
            pattern, v = b"null", None
        if pattern is not None:
            if tok != pattern:
                raise _Err("Invalid literal")
            self._value(v)
        else:
            try:
                text = tok.decode("ascii")
            except UnicodeDecodeError:
                text = ""
            num = parse_number_literal(text) if text else None
            if num is None:
                raise _Err("Invalid numeric literal")
            self._value(num)
        tok.clear()

    def _check_done(self) -> Any:
        if self.streaming:
            if not self.path and self.next is not _INVALID:
                out = [list(self.path), self.next]
                self.next = _INVALID
                return out
            out = self.output
            if out is not _INVALID:
                if len(out) > 2:  # at the end of an array or object: one more event follows
                    self.output = out[:1]
                    return out[:2]
                self.output = _INVALID
            return out
        if not self.stack and self.next is not _INVALID:
            out = self.next
            self.next = _INVALID
            return out
        return _INVALID

    # driving ---------------------------------------------------------------------------------

    def _error(self, msg: str) -> Any:
        self.failed = True
        if self.stream_errors:
            return [msg, list(self.path)]
        raise JSONParseError(msg)

    def feed(self, data: bytes) -> Iterator[Any]:
        """Parse ``data``; yield each value completed in it."""
        if self.failed:
            return
        i, n = 0, len(data)
        streaming = self.streaming
        token = self.token
        try:
            while i < n:
                if streaming and self.output is not _INVALID:
                    out = self._check_done()
                    if out is not _INVALID:
                        yield out
                        continue
                if self.st == _NORMAL:
                    ch = data[i]
                    if ch in b' \t\r\n"[],{}:':
                        # a non-LITERAL character: the literal before it is complete
                        self.column += 1
                        if ch == 0x0A:
                            self.line += 1
                            self.column = 0
                        i += 1
                        self._check_literal()
                        out = self._check_done()
                        if ch == 0x22:
                            self.st = _STRING
                        elif ch > 0x20:
                            if streaming:
                                self._stream_token(ch)
                            else:
                                self._parse_token(ch)
                        else:
                            m = _WS_RUN.match(data, i)
                            if m is not None:  # the rest of a whitespace run does nothing
                                self._advance(data, i, m.end())
                                i = m.end()
                        out2 = self._check_done()
                        if out2 is not _INVALID:
                            out = out2
                        if out is not _INVALID:
                            yield out
                        continue
                    m = _LIT_RUN.match(data, i)
                    end = m.end()  # type: ignore[union-attr]
                    token += data[i:end]
                    self.column += end - i
                    i = end
                    continue
                # in a string
                if self.st == _ESCAPE:
                    ch = data[i]
                    token.append(ch)
                    self._advance(data, i, i + 1)
                    i += 1
                    self.st = _STRING
                    continue
                m = _STR_STOP.search(data, i)
                if m is None:
                    token += data[i:]
                    self._advance(data, i, n)
                    i = n
                    continue
                j = m.start()
                if j > i:
                    token += data[i:j]
                    self._advance(data, i, j)
                i = j + 1
                self.column += 1
                if data[j] == 0x5C:
                    token.append(0x5C)
                    self.st = _ESCAPE
                    continue
                self._found_string()
                self.st = _NORMAL
                out = self._check_done()
                if out is not _INVALID:
                    yield out
            if streaming and self.output is not _INVALID:
                # jv_parser_next looks for a pending event before it reads on
                while self.output is not _INVALID:
                    yield self._check_done()
        except _Err as e:
            yield from self._fail(f"{e} at line {self.line}, column {self.column}")

    def _fail(self, msg: str) -> Iterator[Any]:
        out = self._error(msg)
        if out is not None:
            yield out

    def _advance(self, data: bytes, i: int, j: int) -> None:
        nl = data.count(b"\n", i, j)
        if nl:
            self.line += nl
            self.column = j - data.rfind(b"\n", i, j) - 1
        else:
            self.column += j - i

    def finish(self) -> Iterator[Any]:
        """End of input (jv_parser_next at EOF)."""
        if self.failed:
            return
        if self.streaming:
            while self.output is not _INVALID:
                yield self._check_done()
        where = f"at EOF at line {self.line}, column {self.column}"
        if self.st != _NORMAL:
            yield from self._fail(f"Unfinished string {where}")
            return
        try:
            self._check_literal()
        except _Err as e:
            yield from self._fail(f"{e} {where}")
            return
        if (self.path if self.streaming else self.stack):
            yield from self._fail(f"Unfinished JSON term {where}")
            return
        if self.next is not _INVALID:
            v = self.next
            self.next = _INVALID
            yield [list(self.path), v] if self.streaming else v


# -- the fast path -------------------------------------------------------------------------------


def _constant(name: str) -> float:
    if name == "NaN":
        return math.nan
    if name == "Infinity":
        return math.inf
    return -math.inf


_decoder = json.JSONDecoder(strict=True, parse_constant=_constant)
_raw_decode = _decoder.raw_decode
_scan_once = _decoder.scan_once
#: Text the C scanner would read differently from jq: a surrogate escape (an unpaired one
#: is an error for jq, or U+FFFD; Python keeps it).
_SURROGATE_ESC = re.compile(r"\\u[dD][89a-fA-F]")
_SCALARS = (int, float, bool, type(None))
_DELIMS = frozenset(' \t\r\n"[],{}:')


def parse_json_text(text: str) -> Any:
    """``fromjson`` (jq 1.8 ``jv_parse_sized``): exactly one JSON value, jq's wording on error
    with `` (while parsing '...')`` after it."""
    stripped = text.strip(_WS)
    if stripped and not _SURROGATE_ESC.search(stripped):
        try:
            value, end = _scan_once(stripped, 0)
            if end == len(stripped):
                return value
        except (StopIteration, ValueError, RecursionError):
            pass
    p = JvParser()
    data = text.encode("utf-8", "surrogatepass")
    values: list = []
    try:
        for v in p.feed(data):
            values.append(v)
            if len(values) > 1:
                break
        if len(values) < 2:
            for v in p.finish():
                values.append(v)
    except JSONParseError as e:  # also "parser error after the first JSON value"
        raise JQError(f"{e} (while parsing '{text}')") from None
    if not values:
        raise JQError(f"Expected JSON value (while parsing '{text}')")
    if len(values) > 1:
        raise JQError(f"Unexpected extra JSON values (while parsing '{text}')")
    return values[0]


def stream_events(v: Any, path: list) -> Iterator[list]:
    """The ``--stream`` events of a complete value, as jv_parse.c's streamer emits them
    (and as ``tostream`` defines them): leaves ``[path, leaf]`` (empty containers are
    leaves) and, after the last child of a container, ``[path of that child]``."""
    t = type(v)
    if t is list and v:
        for i, x in enumerate(v):
            yield from stream_events(x, path + [i])
        yield [path + [len(v) - 1]]
    elif t is dict and v:
        k: Any = None
        for k, x in v.items():
            yield from stream_events(x, path + [k])
        yield [path + [k]]
    else:
        yield [path, v]


def _position(buf: bytes, at: int, line: int, col: int) -> tuple[int, int]:
    """jq's (line, column) at byte ``at`` of ``buf``, which starts at (line, col)."""
    nl = buf.count(b"\n", 0, at)
    if nl:
        return line + nl, at - (buf.rfind(b"\n", 0, at) + 1)
    return line, col + at


class InputReader:
    """Concatenated JSON values from a binary stream, with the line counter jq reports.

    ``streaming`` (``--stream``) and ``stream_errors`` (``--stream-errors``) yield
    jv_parse.c's streaming events instead: those of each value the fast path reads, then
    those ``JvParser`` emits as it reads on (up to an error, as jq's streamer does)."""

    def __init__(self, stream: BinaryIO, budget: Any = None, streaming: bool = False,
                 stream_errors: bool = False):
        self.stream = stream
        self.lines = 0  # newlines consumed so far
        self.budget = budget
        self.streaming = streaming or stream_errors
        self.stream_errors = stream_errors

    def _check(self, count: int) -> None:
        if not count & 1023 and self.budget is not None:
            self.budget.check_time()

    def _first_line(self, raw: bytes) -> bytes:
        """jv_parser_set_buf's BOM handling: a UTF-8 BOM first is dropped, a part of one is
        "Malformed BOM"."""
        if raw[:1] == b"\xef":
            if not raw.startswith(b"\xef\xbb\xbf"):
                raise JSONParseError("Malformed BOM")
            return raw[3:]
        return raw

    def values(self) -> Iterator[Any]:
        """Yield each value; raise ``JSONParseError`` at the first malformed one."""
        streaming, stream_errors = self.streaming, self.stream_errors
        pending: list[bytes] = []  # lines of a value the fast path is still reading
        pending_len = 0
        pending_line, pending_col = 1, 0  # jq's position of pending's first byte
        retry_at = 0
        slow: JvParser | None = None
        first = True
        count = 0
        for raw in self.stream:
            count += 1
            self._check(count)
            if first:
                first = False
                raw = self._first_line(raw)
            line_no = self.lines + 1  # jq's line of this raw line's first byte
            self.lines += 1 if raw.endswith(b"\n") else 0
            if slow is not None:
                yield from slow.feed(raw)
                if slow.failed:
                    return
                if slow.idle() and raw.endswith(b"\n"):
                    slow = None
                continue
            if not pending:
                try:
                    text = raw.decode("utf-8")
                    if not _SURROGATE_ESC.search(text):
                        value, end = _scan_once(text, 0)
                        n = len(text)
                        if end == n or not text[end:].strip(_WS):
                            if streaming:
                                yield from stream_events(value, [])
                            else:
                                yield value
                            continue
                except (StopIteration, ValueError, UnicodeDecodeError, RecursionError):
                    pass
                if not raw.strip(b" \t\r\n"):
                    continue
                pending_line, pending_col = line_no, 0
            pending.append(raw)
            pending_len += len(raw)
            if pending_len < retry_at:
                continue
            buf = b"".join(pending) if len(pending) > 1 else pending[0]
            ok, at = yield from self._drain(buf)
            if ok:
                pending, pending_len, retry_at = [], 0, 0
                continue
            line, col = _position(buf, at, pending_line, pending_col)
            if ok is None:  # the port reads on from the start of the value at ``at``
                slow = JvParser(streaming, stream_errors, line, col)
                pending, pending_len, retry_at = [], 0, 0
                rest = buf[at:]
                yield from slow.feed(rest)
                if slow.failed:
                    return
                if slow.idle() and rest.endswith(b"\n"):
                    slow = None
                continue
            if at:  # incomplete: keep the unread part and wait for more
                buf = buf[at:]
                pending = [buf]
                pending_len = len(buf)
                pending_line, pending_col = line, col
            retry_at = max(pending_len * 2, 4096)
        if slow is None and pending:
            buf = b"".join(pending)
            ok, at = yield from self._drain(buf)
            if not ok:  # the port says what is wrong with the rest
                line, col = _position(buf, at, pending_line, pending_col)
                slow = JvParser(streaming, stream_errors, line, col)
                yield from slow.feed(buf[at:])
        if slow is not None:
            yield from slow.finish()

    def _drain(self, buf: bytes):
        """Fast-parse every complete value of ``buf``: (True, n) when all were read, (False,
        at) when the value at byte ``at`` is not complete yet, (None, at) when the port must
        read on from byte ``at``."""
        try:
            text = buf.decode("utf-8")
        except UnicodeDecodeError:
            return None, 0
        ascii_only = text.isascii()
        if _SURROGATE_ESC.search(text):
            return None, 0
        idx = 0
        n = len(text)
        while True:
            while idx < n and text[idx] in _WS:
                idx += 1
            if idx >= n:
                return True, len(buf)
            at = idx if ascii_only else len(text[:idx].encode("utf-8"))
            try:
                value, end = _raw_decode(text, idx)
            except json.JSONDecodeError as e:
                if not text[e.pos :].strip(_WS):
                    return False, at
                return None, at
            except RecursionError:
                return None, at
            if type(value) in _SCALARS:
                if end >= n:  # a number at the very end of the buffer may continue
                    return False, at
                if text[end] not in _DELIMS or text[end] in ",]}:":
                    # jq's literal token runs on (``truex``, ``1.2.3``); and scan() drops a
                    # literal that the structure character after it finds wrong (``1]``)
                    return None, at
            if self.streaming:
                yield from stream_events(value, [])
            else:
                yield value
            idx = end
