"""Process substitution. ``<(cmd)``: the body runs first (in a subshell, output bounded by the
string limit); its output is then readable as ``/dev/fd/N`` by the command whose argument it
was (``diff <(sort a) <(sort b)``, ``while read l; do ...; done < <(cmd)``). ``>(cmd)``: what
the command writes to ``/dev/fd/N`` is kept (bounded the same way) and, once the command has
ended, the body runs in a subshell with it as its input and the shell's stdout and stderr
(``tee >(wc -l) >/dev/null``). Nothing leaves the sandbox: ``/dev/fd/N`` exists only in the
view of the filesystem given to that command, and the guard checked both bodies before the
script ran."""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING, BinaryIO

from sandbox.fs.base import FIFO, FileStat

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell
    from sandbox.parse.ast import Script

#: The first descriptor number bash gives a process substitution (then 62, 61, ...).
FIRST_FD = 63


class OutSub:
    """The write end of ``>(body)``: collects what is written, bounded by the string limit."""

    def __init__(self, body: "Script", budget: object, stdout: object, stderr: object):
        self.body = body
        self.budget = budget
        self.buf = bytearray()
        #: Where the body's output goes: the shell's streams when it was expanded.
        self.stdout = stdout
        self.stderr = stderr

    def write(self, data: bytes) -> int:
        """Keep ``data``."""
        self.buf += data
        self.budget.check_string(len(self.buf))  # type: ignore[attr-defined]
        return len(data)

    def flush(self) -> None:
        """Nothing to flush."""


def substitute(sh: "Shell", body: "Script", out: bool) -> str:
    """Expand ``<(body)`` (run it now) or ``>(body)`` (run it after the command); returns the
    ``/dev/fd/N`` path the command sees (63, 62, ... as bash numbers them)."""
    from sandbox.errors import LimitExceeded
    if sh.nesting > sh.limits.recursion_depth * 2:
        raise LimitExceeded("recursion_depth", "nesting limit exceeded in process "
                            "substitution; nest fewer commands")
    path = f"/dev/fd/{FIRST_FD - len(sh.procsubs)}"
    if out:
        sink = OutSub(body, sh.budget, None, None)
        sh.procsubs[path] = sink
        sh.outsubs.append(sink)
        return path
    from sandbox.interpreter.core import _BufferWriter
    buf = _BufferWriter(sh.budget)
    _run_body(sh, body, io.BytesIO(b""), buf, sh._current_stderr)
    sh.procsubs[path] = bytes(buf.buf)
    return path


def _run_body(sh: "Shell", body: "Script", stdin: BinaryIO, stdout: object, stderr: object) -> None:
    from sandbox.errors import BrokenPipe
    from sandbox.interpreter.core import IO, ExitShell, LoopControl, ReturnFromFunction
    sub = sh.copy()
    sub.nesting += 1
    sub.subshell_depth += 1
    sub.trace_level += 1
    sub_io = IO(stdin, stdout, stderr)  # type: ignore[arg-type]
    try:
        status = sub.run_script(body, sub_io)
    except ExitShell as e:
        status = e.status
    except (BrokenPipe, LoopControl, ReturnFromFunction):
        return
    if sub.traps:  # the EXIT trap the body set (traps.py)
        from sandbox.interpreter import traps
        traps.at_exit(sub, sub_io, status)


def run_pending(sh: "Shell", io_: "IO", mark: int) -> None:
    """Run the ``>(body)`` substitutions of the command that just ended (those after
    ``mark``), in order, each on what was written to it (its output to ``io_``, the shell's
    streams)."""
    pending = sh.outsubs[mark:]
    del sh.outsubs[mark:]
    run_sinks(sh, pending, io_.stdout, io_.stderr)


def run_sinks(sh: "Shell", pending: list, stdout: object, stderr: object) -> None:
    """Run each ``>(body)`` on what was written to it (output to its own streams if it
    has them, else to ``stdout``/``stderr``)."""
    for sink in pending:
        assert isinstance(sink, OutSub)
        _run_body(sh, sink.body, io.BytesIO(bytes(sink.buf)), sink.stdout or stdout,
                  sink.stderr or stderr)


class FdView:
    """A filesystem view where ``/dev/fd/N`` are the outputs of process substitutions; every
    other call goes to the real (virtual) filesystem."""

    def __init__(self, fs: object, fds: dict[str, bytes]):
        self._fs = fs
        self._fds = fds

    def __getattr__(self, name: str) -> object:
        return getattr(self._fs, name)

    def open_read(self, path: str) -> BinaryIO:
        """``/dev/fd/N``: the substitution's output; else the real file."""
        data = self._fds.get(path)
        if isinstance(data, OutSub):
            return io.BytesIO(b"")
        if data is not None:
            return io.BytesIO(data)
        return self._fs.open_read(path)  # type: ignore[attr-defined,no-any-return]

    def read_bytes(self, path: str) -> bytes:
        """Whole content (see ``open_read``)."""
        data = self._fds.get(path)
        if isinstance(data, OutSub):
            return b""
        return data if data is not None else self._fs.read_bytes(path)  # type: ignore[attr-defined,no-any-return]

    def write_bytes(self, path: str, data: bytes) -> None:
        """``/dev/fd/N`` of ``>(cmd)``: written to it; else the real file."""
        sink = self._fds.get(path)
        if isinstance(sink, OutSub):
            sink.write(data)
            return
        if sink is not None:
            return  # writing into <(cmd)'s descriptor: nothing reads it
        self._fs.write_bytes(path, data)  # type: ignore[attr-defined]

    def append_bytes(self, path: str, data: bytes) -> None:
        """Same as ``write_bytes`` for ``/dev/fd/N``; else append to the real file."""
        sink = self._fds.get(path)
        if isinstance(sink, OutSub):
            sink.write(data)
            return
        if sink is not None:
            return
        self._fs.append_bytes(path, data)  # type: ignore[attr-defined]

    def stat(self, path: str) -> FileStat:
        """A substitution's descriptor is a pipe (``test -p``, ``stat -L``: fifo, size 0)."""
        return self._pipe_stat(path) or self._fs.stat(path)  # type: ignore[attr-defined]

    def lstat(self, path: str) -> FileStat:
        """``stat`` for a substitution's descriptor (the pipe: the kernel's link to it is not
        modelled), else the mount table's ``lstat``."""
        return self._pipe_stat(path) or self._fs.lstat(path)  # type: ignore[attr-defined]

    def _pipe_stat(self, path: str) -> FileStat | None:
        if path not in self._fds:
            return None
        return FileStat(FIFO, 0, time.time(), 0o600)  # (a pipe's size is 0, as the kernel's)

    def exists(self, path: str) -> bool:
        """True for the substitutions' descriptors too."""
        return path in self._fds or self._fs.exists(path)  # type: ignore[attr-defined,no-any-return]
