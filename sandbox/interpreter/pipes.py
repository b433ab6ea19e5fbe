"""Byte streams of one run: bounded pipes between pipeline stages, the output capture, and
writers for file redirections. All blocking waits wake up regularly to check the run's
budget, so a stage blocked on a full or empty pipe ends when the run is over."""

from __future__ import annotations

import io
import re
import threading
from collections import deque

from sandbox.errors import BrokenPipe, LimitExceeded
from sandbox.limits import Budget

PIPE_CAPACITY = 64 * 1024


class RunBudget(Budget):
    """A ``Budget`` that can also be cancelled: once any thread hits a limit, every other
    thread of the run stops at its next check."""

    __slots__ = ("failure", "lock", "loop_iterations", "live_stages")

    def __init__(self, limits) -> None:  # type: ignore[no-untyped-def]
        super().__init__(limits)
        self.failure: LimitExceeded | None = None
        self.lock = threading.Lock()
        self.loop_iterations = 0
        self.live_stages = 0

    def start_stages(self, count: int) -> None:
        """Account for ``count`` more pipeline stage threads (raise past the limit)."""
        cap = getattr(self.limits, "pipeline_stages", 256)
        with self.lock:
            self.live_stages += count
            over = self.live_stages > cap
        if over:
            self.end_stages(count)
            exc = LimitExceeded("pipeline_stages", f"limit of {cap} pipeline stages running at "
                                "once exceeded; use fewer or shorter pipelines")
            self.fail(exc)
            raise exc

    def end_stages(self, count: int) -> None:
        """Pipeline stage threads finished."""
        with self.lock:
            self.live_stages -= count

    def fail(self, exc: LimitExceeded) -> None:
        """Record the first limit hit by any thread (later ones are ignored)."""
        with self.lock:
            if self.failure is None:
                self.failure = exc

    def check_time(self) -> None:
        """Raise if the run was cancelled by another thread or is past its deadline."""
        if self.failure is not None:
            raise self.failure
        try:
            super().check_time()
        except LimitExceeded as exc:
            self.fail(exc)
            raise

    def count_command(self) -> None:
        """Count one command (thread-safe)."""
        with self.lock:
            self.commands += 1
            over = self.commands > self.limits.commands
        if over:
            exc = LimitExceeded("commands", f"command limit of {self.limits.commands} "
                                "exceeded; run fewer commands")
            self.fail(exc)
            raise exc
        self.check_time()

    def count_iteration(self) -> None:
        """Count one loop iteration across all loops of the run."""
        with self.lock:
            self.loop_iterations += 1
            over = self.loop_iterations > self.limits.loop_iterations
        if over:
            exc = LimitExceeded("loop_iterations", f"loop iteration limit of "
                                f"{self.limits.loop_iterations} exceeded; loop fewer times")
            self.fail(exc)
            raise exc
        self.check_time()

    def charge_write(self, nbytes: int) -> None:
        """Charge written bytes (thread-safe)."""
        with self.lock:
            try:
                super().charge_write(nbytes)
            except LimitExceeded as exc:
                if self.failure is None:
                    self.failure = exc
                raise


class Pipe:
    """A bounded in-memory pipe between two pipeline stages."""

    def __init__(self, budget: RunBudget, capacity: int = PIPE_CAPACITY):
        self.budget = budget
        self.capacity = capacity
        self.chunks: deque[bytes] = deque()
        self.size = 0
        self.reader_closed = False
        self.writer_closed = False
        self.cond = threading.Condition()

    # writer side
    def write(self, data: bytes) -> int:
        """Block while the pipe is full; raise ``BrokenPipe`` once the reader is gone."""
        if not data:
            return 0
        view = bytes(data)
        with self.cond:
            pos = 0
            while pos < len(view):
                while self.size >= self.capacity and not self.reader_closed:
                    self.cond.wait(0.05)
                    self.budget.check_time()
                if self.reader_closed:
                    raise BrokenPipe("write to a pipe whose reader has gone")
                room = self.capacity - self.size
                piece = view[pos: pos + room]
                self.chunks.append(piece)
                self.size += len(piece)
                pos += len(piece)
                self.cond.notify_all()
        return len(view)

    def flush(self) -> None:
        """Nothing to flush."""

    def close_writer(self) -> None:
        """End of data for the reader."""
        with self.cond:
            self.writer_closed = True
            self.cond.notify_all()

    # reader side
    def read_some(self, n: int) -> bytes:
        """Up to ``n`` bytes; b"" at end of data. Blocks while empty."""
        with self.cond:
            while not self.chunks and not self.writer_closed:
                self.cond.wait(0.05)
                self.budget.check_time()
            if not self.chunks:
                return b""
            chunk = self.chunks[0]
            if len(chunk) <= n:
                self.chunks.popleft()
            else:
                self.chunks[0] = chunk[n:]
                chunk = chunk[:n]
            self.size -= len(chunk)
            self.cond.notify_all()
            return chunk

    def close_reader(self) -> None:
        """The reader is done: writers get ``BrokenPipe`` from now on."""
        with self.cond:
            self.reader_closed = True
            self.chunks.clear()
            self.size = 0
            self.cond.notify_all()


class _PipeRaw(io.RawIOBase):
    def __init__(self, pipe: Pipe):
        self.pipe = pipe

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[override]
        data = self.pipe.read_some(len(b))
        b[: len(data)] = data
        return len(data)

    def close(self) -> None:
        # A command closing its stdin must not close the pipe for the rest of the stage.
        pass


def pipe_reader(pipe: Pipe) -> io.BufferedReader:
    """A buffered binary stream reading from ``pipe``."""
    return io.BufferedReader(_PipeRaw(pipe), PIPE_CAPACITY)


class Capture:
    """The run's stdout or stderr: keeps bytes up to the shared output limit."""

    def __init__(self, account: "OutputAccount"):
        self.account = account
        self.buf = bytearray()

    def write(self, data: bytes) -> int:
        """Keep ``data`` (or what fits under the output limit, then stop the run)."""
        self.account.take(self, bytes(data))
        return len(data)

    def flush(self) -> None:
        """Nothing to flush."""

    def getvalue(self) -> bytes:
        """Everything kept so far."""
        return bytes(self.buf)


class OutputAccount:
    """Counts bytes returned on stdout+stderr against ``Limits.output_bytes``."""

    def __init__(self, budget: RunBudget):
        self.budget = budget
        self.limit = budget.limits.output_bytes
        self.used = 0
        self.cut = 0
        self.lock = threading.Lock()

    def take(self, capture: Capture, data: bytes) -> None:
        with self.lock:
            room = self.limit - self.used
            if len(data) <= room:
                capture.buf += data
                self.used += len(data)
                return
            if room > 0:
                capture.buf += data[:room]
                self.used += room
            self.cut += len(data) - max(room, 0)
        exc = LimitExceeded("output_bytes", f"output limit of {self.limit} bytes exceeded: "
                            "output truncated; print less (e.g. pipe through head)")
        self.budget.fail(exc)
        raise exc


class NullWriter:
    """``>/dev/null``."""

    def write(self, data: bytes) -> int:
        """Discard."""
        return len(data)

    def flush(self) -> None:
        """Nothing to flush."""


class FileWriter:
    """Output redirected to a file: buffered, written through the sandbox filesystem.

    ``>`` truncates (creates) the file when the redirection is opened, as bash does; data is
    then written in pieces at the writer's own offset (appended while nothing else changed the
    file: the usual case; over what is there when another descriptor wrote it meanwhile, as
    with two ``open()``s of one file). ``>>`` always appends. Writes go through
    ``CommandContext`` so policy (read-only, protected paths) and the write budget apply.
    """

    FLUSH_AT = 1 << 20

    def __init__(self, ctx, operand: str, append: bool):  # type: ignore[no-untyped-def]
        self.ctx = ctx
        self.operand = operand
        self.buf = bytearray()
        self.closed = False
        #: Unbuffered (a descriptor that outlives its command: ``exec 3>f``, ``{fd}>f``):
        #: every write reaches the file at once, so later commands read it.
        self.direct = False
        self.append = append
        #: Where the next byte goes (``>``): bytes written since the truncation.
        self.offset = 0
        if not append:
            ctx.write_bytes(operand, b"")
        else:
            ctx.append_bytes(operand, b"")

    def file_target(self) -> tuple[str, int]:
        """(virtual path, bytes buffered and not yet in the file) of the file written: what
        ``cat`` compares its inputs with (GNU's ``input file is output file``)."""
        return self.ctx.path(self.operand), len(self.buf)

    def write(self, data: bytes) -> int:
        """Buffer ``data``; push it to the file every megabyte."""
        self.ctx.budget.charge_write(len(data))
        self.buf += data
        if self.direct or self.closed or len(self.buf) >= self.FLUSH_AT:
            self._push()
        return len(data)

    def _push(self) -> None:
        if self.buf:
            data = bytes(self.buf)
            self.buf.clear()
            fs, vpath = self.ctx.fs, self.ctx.path(self.operand)
            at, self.offset = self.offset, self.offset + len(data)
            if not self.append:
                try:
                    size = fs.stat(vpath).size
                except OSError:
                    size = at
                if size != at and vpath.startswith("/") and not vpath.startswith("/dev/"):
                    content = fs.read_bytes(vpath)
                    new = content[:at].ljust(at, b"\0") + data + content[at + len(data):]
                    self.ctx.budget.check_string(len(new))
                    fs.write_bytes(vpath, new)
                    return
            fs.append_bytes(vpath, data)

    def flush(self) -> None:
        """Push buffered bytes to the file."""
        self._push()

    def close(self) -> None:
        """Push the rest."""
        if not self.closed:
            self.closed = True
            self._push()


_TIME_DEFAULT = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
_TIME_POSIX = "real %2R\nuser %2U\nsys %2S"
_TIME_RE = re.compile(r"%(?:%|([0-3])?(l)?([RUSP]))")


def _time_field(seconds: float, digits: str | None, long: bool) -> str:
    n = 3 if digits is None else int(digits)
    if long:
        minutes, rest = divmod(seconds, 60.0)
        text = f"{rest:.{n}f}" if n else str(int(rest))
        return f"{int(minutes)}m{text}s"
    return f"{seconds:.{n}f}" if n else str(int(seconds))


def format_times(fmt: str, real: float, user: float, system: float) -> str:
    """``$TIMEFORMAT`` expanded as bash expands it (``%[p][l]R``/``U``/``S``, ``%P``,
    ``%%``)."""
    def one(m: re.Match) -> str:
        if m.group(0) == "%%":
            return "%"
        digits, long, what = m.group(1), bool(m.group(2)), m.group(3)
        if what == "P":
            return f"{(user + system) * 100 / real if real > 0 else 0:.2f}"
        value = {"R": real, "U": user, "S": system}[what]
        return _time_field(value, digits, long)
    return _TIME_RE.sub(one, fmt)


def timed(sh, node, io_) -> int:  # type: ignore[no-untyped-def]
    """``time [-p] pipeline``: run it, then report the time on stderr (real: wall clock;
    user: this run's CPU time; sys: 0 — the sandbox's own figures, never the host's)."""
    import dataclasses
    import time as _time
    start, cpu = _time.monotonic(), _time.process_time()
    status = 0
    if node.commands:
        status = sh.run_pipeline(dataclasses.replace(node, timed=None), io_)
    else:
        sh.status = 0
    real, user = _time.monotonic() - start, _time.process_time() - cpu
    fmt = _TIME_POSIX if node.timed == "p" else sh.get_var("TIMEFORMAT")
    if fmt is None:
        fmt = _TIME_DEFAULT
    if fmt:
        try:
            io_.stderr.write((format_times(fmt, real, user, 0.0) + "\n").encode("utf-8", "surrogateescape"))
        except OSError:
            pass
    return status
