"""The contract between the interpreter and every command.

A command is a module ``sandbox/commands/<name>.py`` (or a package ``<name>/``) that defines

    def run(ctx: CommandContext) -> int

and, if it can write files, ``def writes(args: list[str]) -> list[str]`` returning the operands
it may write (used by the guard for read-only policy and by the approval callback). A command
that runs other commands (find ``-exec``, xargs, timeout, env) defines
``def runs(args: list[str]) -> list[list[str]]`` returning the argv prefix of every command it
may run (``xargs -n1 grep -i x`` -> ``[["grep", "-i", "x"]]``; a bare ``xargs`` -> ``[["echo"]]``).
An operand the guard could not read as a literal word reaches ``runs`` as a string starting with
``DYNAMIC`` (NUL), so the guard refuses a command name built at run time. The command runs them
only through ``ctx.run_command``, which checks the allowlist again. The registry
in ``sandbox.commands`` finds it by its module name; adding a command is adding one file.

A command reads ``ctx.stdin`` as a stream, writes bytes to ``ctx.stdout`` / ``ctx.stderr``, and
touches files only through ``ctx``'s file methods, which take operands exactly as the user typed
them (relative to ``ctx.cwd``), enforce the policy (read-only, protected paths) and the write
budget, and raise ``FSError`` whose ``strerror`` is GNU's wording. It never touches the host OS.
It returns its exit status. It calls ``ctx.budget.check_time()`` in long loops. It lets
``BrokenPipe`` and ``LimitExceeded`` propagate.
"""

from __future__ import annotations

import errno
import io
from dataclasses import dataclass, field
from typing import BinaryIO, Callable, Protocol

from sandbox.fs.base import FileStat, FSError
from sandbox.fs.paths import normalize
from sandbox.fs.vfs import VirtualFS
from sandbox.limits import Budget, Limits
from sandbox.policy import Policy


#: Prefix of an argument the guard could not read as a literal word (see ``runs`` above).
DYNAMIC = "\x00"
#: glibc's buffer for a stdout that is a pipe or a file (st_blksize): a program whose stdio
#: buffers fully writes its output in blocks of this size, so a message it prints on stderr
#: comes before the part of its output that fills no whole block yet (``cmd 2>&1``).
STDIO_BLOCK = 4096
#: Names a command may never run, whatever the allowlist says (a shell would run any string).
NEVER_RUN: frozenset[str] = frozenset(
    "sh bash dash zsh ksh mksh csh tcsh fish busybox eval exec source . command builtin "
    "sudo su doas".split())


class Writer(Protocol):
    """Where a command's output goes: a pipe, a capture buffer or a file redirection."""

    def write(self, data: bytes) -> object:
        """Write bytes; may raise ``BrokenPipe`` when the reader has gone."""

    def flush(self) -> None:
        """Push buffered bytes on (no-op for most writers)."""


@dataclass
class CommandContext:
    """Everything a command may use. ``argv[0]`` is the command name."""

    argv: list[str]
    stdin: BinaryIO
    stdout: Writer
    stderr: Writer
    fs: VirtualFS
    cwd: str = "/"
    env: dict[str, str] = field(default_factory=dict)
    budget: Budget = field(default_factory=lambda: Budget(Limits()))
    policy: Policy = field(default_factory=Policy)
    #: The interpreter's sub-command runner (see ``run_command``); None outside a shell.
    runner: Callable[..., int] | None = None
    #: What a bash builtin kept here (``printf``) puts before its diagnostics when the shell
    #: runs it: ``bash: line N: `` (the interpreter sets it; ``bash: `` elsewhere).
    shell_prefix: str = "bash: "

    def run_command(self, argv: list[str], stdin: BinaryIO, stdout: "Writer", stderr: "Writer",
                    env: dict[str, str] | None = None, budget: Budget | None = None,
                    cwd: str | None = None) -> int:
        """Run another command (for find -exec, xargs, env, timeout); returns its status.

        The allowlist is checked again here. Raises ``FSError(ENOENT)`` when there is no such
        command and ``FSError(EACCES)`` when the policy does not allow it; the caller reports
        them as GNU's tool does (exit 127 / 126). ``budget`` (default ``ctx.budget``) lets
        ``timeout`` give the command an earlier deadline; ``cwd`` (default ``ctx.cwd``) is the
        command's working directory (``find -execdir``, ``env -C``).
        """
        if self.runner is None:
            raise FSError(errno.ENOENT, argv[0] if argv else "")
        return self.runner(list(argv), stdin, stdout, stderr,
                           dict(self.env) if env is None else env, cwd or self.cwd,
                           budget or self.budget)

    @property
    def prog(self) -> str:
        """The command's name as GNU tools print it in messages."""
        return self.argv[0]

    @property
    def args(self) -> list[str]:
        """Arguments after the command name."""
        return self.argv[1:]

    # -- messages -------------------------------------------------------------------------

    def error(self, message: str) -> None:
        """Write ``prog: message`` and a newline to stderr."""
        self.stderr.write(f"{self.prog}: {message}\n".encode("utf-8", "surrogateescape"))

    def usage_error(self, message: str, status: int = 1) -> int:
        """Report a command-line error the GNU way and return ``status``."""
        self.error(message)
        self.stderr.write(f"Try '{self.prog} --help' for more information.\n".encode())
        return status

    # -- paths ----------------------------------------------------------------------------

    def path(self, operand: str) -> str:
        """The absolute, normalised virtual path of an operand (``""`` names nothing: ENOENT).

        Like the kernel, a ``.`` or ``..`` component needs what precedes it to be an existing
        directory: ``nope/../x`` is ENOENT and ``file/../x`` ENOTDIR, not ``x``.
        """
        if operand == "":
            raise FSError(errno.ENOENT, "")
        if "/." in operand:
            self._check_dot_prefixes(operand)
        return normalize(operand, self.cwd)

    def _check_dot_prefixes(self, operand: str) -> None:
        parts = operand.split("/")
        named = False
        for i, part in enumerate(parts):
            if part in (".", ".."):
                if named:
                    prefix = normalize("/".join(parts[:i]) or "/", self.cwd)
                    if not self.fs.stat(prefix).is_dir:
                        raise FSError(errno.ENOTDIR, prefix)
            elif part:
                named = True

    def check_write(self, operand: str) -> str:
        """The virtual path of an operand this command may write; ``FSError`` (EROFS under a
        read-only policy, EACCES for a protected path) when it may not. Nothing is written."""
        vpath = self.path(operand)
        if vpath in ("/dev/null", "/dev/stdout", "/dev/stderr") or vpath.startswith("/dev/fd/"):
            return vpath  # (/dev/fd/N: a process substitution's pipe, or nothing at all)
        if self.policy.read_only:
            raise FSError(errno.EROFS, vpath)
        if self.policy.is_protected(vpath):
            raise FSError(errno.EACCES, vpath, "Permission denied (this file is append-only or protected)")
        return vpath

    #: The former private name (awk's redirections still call it).
    _check_write = check_write

    # -- reading --------------------------------------------------------------------------

    def open_read(self, operand: str) -> BinaryIO:
        """Open a file operand for streaming reads (``/dev/stdin`` is this command's stdin)."""
        vpath = self.path(operand)
        if vpath == "/dev/stdin":
            return _Unclosable(self.stdin)
        if vpath in ("/dev/stdout", "/dev/stderr"):
            return io.BytesIO(b"")
        if operand.endswith("/") and not self.fs.stat(vpath).is_dir:
            raise FSError(errno.ENOTDIR, vpath)  # the kernel refuses `file/`
        return self.fs.open_read(vpath)

    def read_bytes(self, operand: str) -> bytes:
        """Whole content of a file operand."""
        with self.open_read(operand) as f:
            return f.read()

    def stat(self, operand: str) -> FileStat:
        """``FileStat`` of an operand."""
        return self.fs.stat(self.path(operand))

    def exists(self, operand: str) -> bool:
        """True if the operand names a file or directory."""
        return self.fs.exists(self.path(operand))

    def listdir(self, operand: str) -> list[str]:
        """Sorted names in a directory operand."""
        return self.fs.listdir(self.path(operand))

    # -- writing (policy and write budget enforced here) ------------------------------------

    def write_bytes(self, operand: str, data: bytes) -> None:
        """Atomically replace a file operand with ``data``."""
        vpath = self.check_write(operand)
        if vpath == "/dev/stdout":
            self.stdout.write(data)
            return
        if vpath == "/dev/stderr":
            self.stderr.write(data)
            return
        self.budget.charge_write(len(data))
        self.fs.write_bytes(vpath, data)

    def append_bytes(self, operand: str, data: bytes) -> None:
        """Append ``data`` to a file operand as one piece."""
        vpath = self.check_write(operand)
        if vpath == "/dev/stdout":
            self.stdout.write(data)
            return
        if vpath == "/dev/stderr":
            self.stderr.write(data)
            return
        self.budget.charge_write(len(data))
        self.fs.append_bytes(vpath, data)

    def mkdir(self, operand: str) -> None:
        """Create one directory."""
        self.fs.mkdir(self.check_write(operand))

    def remove(self, operand: str) -> None:
        """Remove a file."""
        self.fs.remove(self.check_write(operand))

    def rmdir(self, operand: str) -> None:
        """Remove an empty directory."""
        self.fs.rmdir(self.check_write(operand))

    def rename(self, src: str, dst: str) -> None:
        """Move a file or directory (both ends are checked against the policy)."""
        self.fs.rename(self.check_write(src), self.check_write(dst))

    def set_mtime(self, operand: str, mtime: float) -> None:
        """Set a file's modification time."""
        self.fs.set_mtime(self.check_write(operand), mtime)


class _Unclosable(io.RawIOBase):
    """A view of stdin that a command may ``close`` without closing the pipe itself."""

    def __init__(self, inner: BinaryIO):
        self._inner = inner

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:  # type: ignore[override]
        return self._inner.read(n)

    def readline(self, size: int = -1) -> bytes:  # type: ignore[override]
        return self._inner.readline(size)

    def readinto(self, b) -> int:  # type: ignore[override]
        data = self._inner.read(len(b))
        b[: len(data)] = data
        return len(data)
