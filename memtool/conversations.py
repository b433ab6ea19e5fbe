"""Recall memory: ``conversations.jsonl``, one JSON object per turn, append-only.

``record()`` appends ``{"role", "content", "timestamp", **extra}`` as exactly one line with one
``append_bytes`` call, which the store guarantees never to split or interleave with another
appender's (threads, processes, machines), whatever the line's length. If the file does not
end with a newline (a hand edit), one is added first. Secrets are redacted.

``recent(n)`` reads backwards from the end in blocks, so its cost depends on n, not on the
size of the file. Malformed lines are skipped with a ``MalformedLineWarning``.
"""

from __future__ import annotations

import io
import json
import time
import warnings
from json.encoder import encode_basestring as _json_string
from typing import Any, Iterator

from sandbox.fs.base import FileSystem, FSError

from memtool.layout import CONVERSATIONS
from memtool.secrets import SecretScanner

BLOCK = 64 * 1024
RESERVED = ("role", "content", "timestamp")


class MalformedLineWarning(UserWarning):
    """A line of conversations.jsonl is not a JSON object (it was skipped)."""


_stamp_second = -1
_stamp_prefix = ""


def utc_timestamp() -> str:
    """Now as ISO 8601 UTC with milliseconds: ``2026-01-31T09:15:02.123Z``."""
    global _stamp_second, _stamp_prefix
    now = time.time()
    second = int(now)
    if second != _stamp_second:
        _stamp_prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _stamp_second = second
    millis = min(999, int((now - second) * 1000))
    return f"{_stamp_prefix}.{millis:03d}Z"


def _redact_value(value: Any, scanner: SecretScanner) -> Any:
    if isinstance(value, str):
        return scanner.redact(value)
    if isinstance(value, dict):
        return {k: _redact_value(v, scanner) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact_value(v, scanner) for v in value]
    return value


def parse_turn(raw: bytes) -> dict[str, Any] | None:
    """The turn on one line of the log, or None if the line is not one JSON object."""
    try:
        obj = json.loads(raw)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def encode_turn(turn: dict[str, Any]) -> bytes:
    """One JSONL line (UTF-8, newline-terminated; lone surrogates fall back to \\u escapes)."""
    text = json.dumps(turn, ensure_ascii=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(turn, ensure_ascii=True).encode("ascii")
    return data + b"\n"


class Conversations:
    """The conversation log of one store."""

    def __init__(self, store: FileSystem, scanner: SecretScanner | None = None,
                 path: str = CONVERSATIONS, append_only: bool = True):
        self.store = store
        #: The log is append-only for both tools, so a store's lock-free ``append_line`` (one
        #: ``O_APPEND`` write that also adds a missing final newline) is safe when it has one.
        self._append_line = getattr(store, "append_line", None) if append_only else None
        self.scanner = scanner or SecretScanner()
        self.path = path
        #: Size of the file right after this object's last append, when known. A file still
        #: of that size ends with our newline, so its last byte need not be read again.
        self._size_after_append = -1

    def _tail_state(self) -> tuple[bool, int]:
        """(the file lacks a final newline, its size now; -1 if missing)."""
        try:
            st = self.store.stat(self.path)
        except FSError:
            return False, -1
        if st.size == 0 or st.size == self._size_after_append:
            return False, st.size
        with self.store.open_read(self.path) as f:
            try:
                f.seek(st.size - 1)
                last = f.read(1)
            except (OSError, io.UnsupportedOperation):
                last = f.read()[-1:]
        return last not in (b"\n", b""), st.size

    def record(self, role: str, content: Any, **extra: Any) -> dict[str, Any]:
        """Append one turn; return the object written (secrets already redacted)."""
        if not isinstance(role, str) or not role:
            raise ValueError("role must be a non-empty string such as 'user' or 'assistant'")
        if extra:
            for key in RESERVED:
                if key in extra:
                    raise ValueError(f"{key!r} is set by record(); it cannot be passed as an extra field")
        if not extra and type(content) is str:
            # The common turn, encoded without building a JSON encoder: the same bytes as
            # encode_turn() (json.dumps quotes strings with this very function).
            content = self.scanner.redact(content)
            stamp = utc_timestamp()
            turn: dict[str, Any] = {"role": role, "content": content, "timestamp": stamp}
            try:
                line = (f'{{"role": {_json_string(role)}, "content": {_json_string(content)}, '
                        f'"timestamp": "{stamp}"}}\n').encode("utf-8")
            except UnicodeEncodeError:
                line = encode_turn(turn)
        else:
            turn = {
                "role": role,
                "content": _redact_value(content, self.scanner),
                "timestamp": utc_timestamp(),
            }
            for key, value in extra.items():
                turn[key] = _redact_value(value, self.scanner)
            line = encode_turn(turn)
        if self._append_line is not None and "/" not in self.path:
            self._append_line(self.path, line)
            return turn
        missing_newline, size = self._tail_state()
        if missing_newline:
            # A hand edit left no final newline: re-check and append under the lock.
            with self.store.lock(self.path):
                missing_newline, size = self._tail_state()
                if missing_newline:
                    line = b"\n" + line
                self.store.append_bytes(self.path, line)
        else:
            self.store.append_bytes(self.path, line)
        # If nobody else appended in between, the file now ends exactly here (and with "\n").
        self._size_after_append = size + len(line) if size >= 0 else -1
        return turn

    def _lines_backwards(self, path: str | None = None) -> Iterator[bytes]:
        """The lines of the log (or ``path``) from last to first, read in blocks from the
        end."""
        try:
            f = self.store.open_read(self.path if path is None else path)
        except FSError as e:
            if e.errno == 2:
                return
            raise
        with f:
            try:
                end = f.seek(0, 2)
            except (OSError, io.UnsupportedOperation):
                data = f.read()
                yield from reversed(data.split(b"\n"))
                return
            pos = end
            tail = b""
            while pos > 0:
                size = min(BLOCK, pos)
                pos -= size
                f.seek(pos)
                block = f.read(size) + tail
                parts = block.split(b"\n")
                tail = parts[0]
                for line in reversed(parts[1:]):
                    yield line
            yield tail

    def _all_lines_backwards(self) -> Iterator[bytes]:
        """The log's lines from last to first, then its archives' (newest first)."""
        yield from self._lines_backwards()
        if "/" in self.path:
            return
        from memtool.rotation import archives

        for path in reversed(archives(self.store, self.path)):
            yield from self._lines_backwards(path)

    def recent(self, n: int = 20) -> list[dict[str, Any]]:
        """The last ``n`` turns, oldest first, read on into the archive
        (``archive/conversations-YYYY-MM.jsonl``, ``memtool.rotation``) when the log holds
        fewer. Blank lines are ignored; malformed lines (not one JSON object) are skipped
        with a ``MalformedLineWarning``."""
        if n <= 0:
            return []
        turns: list[dict[str, Any]] = []
        for raw in self._all_lines_backwards():
            if not raw.strip():
                continue
            obj = parse_turn(raw)
            if obj is None:
                warnings.warn(
                    f"skipped a malformed line in {self.path} ({len(raw)} bytes, not a JSON object)",
                    MalformedLineWarning,
                    stacklevel=2,
                )
                continue
            turns.append(obj)
            if len(turns) >= n:
                break
        turns.reverse()
        return turns
