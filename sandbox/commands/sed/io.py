"""sed's input (lines from a list of files, with one line of lookahead for ``$``) and outputs
(stdout, the in-place file, ``w`` files), with GNU's "missing newline" bookkeeping."""

from __future__ import annotations

from typing import BinaryIO, Callable

from sandbox.commands.base import STDIO_BLOCK, CommandContext
from sandbox.fs.base import FSError

CHUNK = 1 << 16


class Sink:
    """A byte destination with a buffer: flushed past ``limit`` bytes, on ``flush`` and at the
    end. Several ``Output`` objects may share one sink (``w /dev/stdout`` and stdout)."""

    __slots__ = ("buf", "_write", "limit")

    def __init__(self, write: Callable[[bytes], object] | None, limit: int = CHUNK):
        self.buf = bytearray()
        self._write = write
        self.limit = limit

    def add(self, data: bytes) -> None:
        """Append bytes, writing them on once the buffer is large enough (a large piece of
        bytes goes straight through, not copied into the buffer and out again)."""
        if self._write is not None and len(data) >= self.limit and type(data) is bytes:
            if self.buf:
                self.flush()
            self._write(data)
            return
        self.buf += data
        if self._write is not None and len(self.buf) >= self.limit:
            self.flush()

    def flush(self) -> None:
        """Write the buffered bytes on (a sink without a writer keeps them)."""
        if self._write is not None and self.buf:
            data = bytes(self.buf)
            self.buf.clear()
            self._write(data)

    def flush_blocks(self) -> None:
        """Write on what GNU sed's stdio would have written by now: its stdout to a pipe or
        file is fully buffered in ``STDIO_BLOCK``-byte blocks and its messages are not
        preceded by a flush, so ``sed p f nope 2>&1`` shows the message before short output."""
        whole = len(self.buf) - len(self.buf) % STDIO_BLOCK
        if self._write is not None and whole:
            data = bytes(self.buf[:whole])
            del self.buf[:whole]
            self._write(data)


class Output:
    """One output stream as GNU's ``struct output``: remembers whether the last thing written
    lacked its final newline, so the next write first adds it."""

    __slots__ = ("sink", "missing_newline", "delim")

    def __init__(self, sink: Sink, delim: bytes):
        self.sink = sink
        self.missing_newline = False
        self.delim = delim

    def fix_missing(self) -> None:
        """Write the newline a previous unterminated line left out."""
        if self.missing_newline:
            self.sink.add(self.delim)
            self.missing_newline = False

    def line(self, text: bytes, terminated: bool) -> None:
        """Write a line of pattern space; ``terminated`` adds the delimiter."""
        if self.missing_newline:
            self.sink.add(self.delim)
            self.missing_newline = False
        if terminated:
            self.sink.add(text + self.delim)
        else:
            self.sink.add(text)
            self.missing_newline = True

    def raw(self, data: bytes) -> None:
        """Write bytes as they are (appended text, ``r`` file content, ``=``, ``l``)."""
        if self.missing_newline:
            self.sink.add(self.delim)
            self.missing_newline = False
        self.sink.add(data)


class Input:
    """Lines of a list of file operands read as one stream (``-`` is stdin).

    ``read_line`` returns (line without delimiter, had delimiter) or None at the end;
    ``at_end`` tells whether no line follows (it opens the next files to find out, as GNU).
    Files that cannot be read are reported through ``report`` and skipped.
    """

    def __init__(self, ctx: CommandContext, files: list[str], delim: int,
                 report: Callable[[str, FSError], None]):
        self.ctx = ctx
        self.files = files
        self.next_index = 0
        self.delim = delim
        self.report = report
        self.stream: BinaryIO | None = None
        self.buf = b""
        self.pos = 0
        self.name = "-"
        self.eof = True
        self.started = False  # a line was read: later read failures while peeking are EOF

    def _open_next(self) -> bool:
        """Open the next readable file; False when there is none left."""
        while self.next_index < len(self.files):
            operand = self.files[self.next_index]
            self.next_index += 1
            try:
                if operand == "-":
                    stream = self.ctx.stdin
                else:
                    if self.ctx.stat(operand).is_dir:
                        self.report(operand, FSError(21, operand, "Is a directory"))
                        continue
                    stream = self.ctx.open_read(operand)
            except FSError as err:
                self.report(operand, err)
                continue
            self._close()
            self.stream = stream
            self.name = operand
            self.buf = b""
            self.pos = 0
            self.eof = False
            return True
        return False

    def _close(self) -> None:
        if self.stream is not None and self.stream is not self.ctx.stdin:
            try:
                self.stream.close()
            except Exception:  # noqa: BLE001 - closing a read stream cannot matter
                pass
        self.stream = None

    def close(self) -> None:
        """Release the open stream."""
        self._close()

    def _fill(self, peek: bool = False) -> bool:
        """Read more of the current file into the buffer; False at its end.

        A failed read (``sed p < dir``) ends the run as GNU's ``ck_getdelim`` does (status 4),
        except while looking ahead for ``$`` after a line was read: GNU's ``getc`` there takes
        the failure for the end of that file."""
        if self.eof or self.stream is None:
            return False
        try:
            data = self.stream.read(CHUNK)
        except FSError as err:
            if peek and self.started:
                self.eof = True
                return False
            from sandbox.commands.sed.execute import SedRuntimeError

            name = "stdin" if self.stream is self.ctx.stdin else self.name
            raise SedRuntimeError(f"read error on {name}: {err}", 4) from None
        if not data:
            self.eof = True
            return False
        if self.pos:
            self.buf = self.buf[self.pos:] + data
            self.pos = 0
        else:
            self.buf += data
        return True

    def _has_data(self, peek: bool = False) -> bool:
        """True if the current file has at least one more byte."""
        if self.pos < len(self.buf):
            return True
        return self._fill(peek)

    def read_line(self) -> tuple[bytes, bool] | None:
        """The next line, or None when every file is exhausted."""
        while not self._has_data():
            if not self._open_next():
                return None
        self.started = True
        delim = self.delim
        while True:
            i = self.buf.find(delim, self.pos)
            if i >= 0:
                line = self.buf[self.pos:i]
                self.pos = i + 1
                return line, True
            if not self._fill():
                line = self.buf[self.pos:]
                self.buf = b""
                self.pos = 0
                return line, False

    def at_end(self) -> bool:
        """True if no line follows in this input (later files are opened to find out)."""
        while not self._has_data(peek=True):
            if not self._open_next():
                return True
        return False

    def take_buffer(self) -> bytes:
        """Remove and return what is buffered of the current file (for fast paths)."""
        data = self.buf[self.pos:]
        self.buf = b""
        self.pos = 0
        return data
