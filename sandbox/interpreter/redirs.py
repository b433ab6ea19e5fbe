"""Redirections and the shell's table of file descriptors.

Descriptors 0, 1 and 2 of a command are the three streams of its ``IO``; descriptors 3 and up
(``exec 3>file``, ``{fd}>file``, ``3>&1``) live in ``Shell.fdmap`` (copied into subshells,
pipeline stages and command substitutions, as a fork copies the table). A redirection list is
applied to a working copy of the table; the command then runs with it and, afterwards, the
shell's own table is put back, except for what bash keeps:

* ``exec`` with redirections only changes the table for the rest of the shell;
* ``{var}>file`` on any command leaves the new descriptor (>= 10) open, ``$var`` naming it;
* ``N>&M-`` moves ``M`` to ``N``; like bash 5.2 it does not reopen ``M`` afterwards.

Every file is opened through ``CommandContext`` (the jail: read-only policy, protected paths,
the write budget); descriptors are Python stream objects, nothing on the host is opened.
"""

from __future__ import annotations

import errno
import io
import re
from typing import TYPE_CHECKING, BinaryIO

from sandbox.commands._stdin_errors import closed_stdin_line
from sandbox.commands._stdout_errors import stdout_failure
from sandbox.commands._writing import check_slashed_create
from sandbox.commands.base import CommandContext
from sandbox.fs.base import FSError
from sandbox.fs.paths import normalize
from sandbox.fs.vfs import DEV_FULL, DEV_NULL
from sandbox.interpreter.expand import plain
from sandbox.interpreter.pipes import FileWriter, NullWriter
from sandbox.parse.ast import Lit, Redirect

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

#: The first descriptor bash gives ``{var}>file``.
FIRST_VAR_FD = 10
#: Descriptors above this are refused (bash: ``ulimit -n``; "Bad file descriptor").
MAX_FD = 1023
_DEVFD_RE = re.compile(r"/dev/fd/([0-9]+)")
_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class RedirectFailed(Exception):
    """A redirection that could not be made; ``message`` is bash's (without ``bash: ``)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
        #: Where the message goes (stderr as the redirections so far left it).
        self.stderr: object = None


class ClosedWriter:
    """A closed output descriptor (``>&-``): writing fails with EBADF, as in bash."""

    def write(self, data: bytes) -> int:
        """Fail: the descriptor is closed."""
        raise OSError(errno.EBADF, "Bad file descriptor")

    def flush(self) -> None:
        """Nothing to flush."""


class FullWriter(ClosedWriter):
    """``> /dev/full``: every write fails with ENOSPC, as the device does."""

    def write(self, data: bytes) -> int:
        """Fail: no space left on the device."""
        if not data:
            return 0
        raise OSError(errno.ENOSPC, "No space left on device")


class ClosedReader(io.BytesIO):
    """A closed input descriptor (``<&-``): reads as end of file."""


class _BadReader(io.RawIOBase):
    """What a command reads from a closed stdin: every read fails with EBADF (``tried``: a
    read was made, so the program also fails to close it at exit: ``after_closed_stdin``)."""

    tried = False

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[no-untyped-def,override]
        self.tried = True
        raise FSError(errno.EBADF, "-")


def after_closed_stdin(name: str, stdin: object, stderr: object, status: int) -> int:
    """The status of program ``name`` that ended normally: if it read its closed stdin
    (``for_command``'s stand-in), the line it prints when closing that fails too
    (``_stdin_errors``) and status 1."""
    raw = getattr(stdin, "raw", None)
    if not isinstance(raw, _BadReader) or not raw.tried:
        return status
    line = closed_stdin_line(name)
    if line is None:
        return status
    try:
        stderr.write(line.encode())  # type: ignore[attr-defined]
    except OSError:
        pass
    return 1


class _DirReader(io.RawIOBase):
    """``cmd < dir``: bash opens a directory for reading; every read then fails (EISDIR), and
    each command reports that as it does (``cat: -: Is a directory``, read's ``read error``)."""

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[no-untyped-def,override]
        raise FSError(errno.EISDIR, "-")


def for_command(io_: "IO") -> tuple[object, object]:
    """The stdin and stderr a command from the registry gets: a closed stdin fails its
    reads (``cat: -: Bad file descriptor``); a closed stderr swallows its messages (the
    command's status is its own, as with a real closed descriptor)."""
    stdin, stderr = io_.stdin, io_.stderr
    if isinstance(stdin, ClosedReader):
        stdin = io.BufferedReader(_BadReader())
    if isinstance(stderr, ClosedWriter):
        stderr = NullWriter()
    return stdin, stderr


def is_closed(stream: object) -> bool:
    """True for a descriptor closed by ``>&-`` / ``<&-``."""
    return isinstance(stream, (ClosedWriter, ClosedReader))


class ReadWriteFile:
    """``<>``: one file open for reading and writing with a shared offset (``exec 8<>f;
    read l <&8; echo x >&8`` writes after what was read). Each operation goes through the
    jail's filesystem, so the file is always what other commands see."""

    def __init__(self, ctx: CommandContext, operand: str):
        self.ctx = ctx
        self.operand = operand
        self.vpath = ctx.path(operand)
        self.offset = 0
        if not ctx.fs.exists(self.vpath):
            ctx.write_bytes(operand, b"")

    def _content(self) -> bytes:
        return self.ctx.fs.read_bytes(self.vpath)

    def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes from the offset (all the rest when ``n`` < 0)."""
        data = self._content()
        end = len(data) if n is None or n < 0 else self.offset + n
        chunk = data[self.offset:end]
        self.offset += len(chunk)
        return chunk

    def read1(self, n: int = -1) -> bytes:
        """Same as ``read``."""
        return self.read(n)

    def readline(self, limit: int = -1) -> bytes:
        """One line from the offset."""
        data = self._content()
        nl = data.find(b"\n", self.offset)
        end = len(data) if nl < 0 else nl + 1
        if limit is not None and limit >= 0:
            end = min(end, self.offset + limit)
        chunk = data[self.offset:end]
        self.offset += len(chunk)
        return chunk

    def __iter__(self):  # type: ignore[no-untyped-def]
        while True:
            line = self.readline()
            if not line:
                return
            yield line

    def readable(self) -> bool:
        """Yes."""
        return True

    def write(self, data: bytes) -> int:
        """Write at the offset, over what is there (the file grows as needed)."""
        data = bytes(data)
        self.ctx.budget.charge_write(len(data))
        if self.ctx.fs.stat(self.vpath).size == self.offset:  # at the end: a plain append
            self.ctx.fs.append_bytes(self.vpath, data)
            self.offset += len(data)
            return len(data)
        content = self._content()
        new = content[:self.offset] + data + content[self.offset + len(data):]
        self.ctx.budget.check_string(len(new))
        self.ctx.fs.write_bytes(self.vpath, new)
        self.offset += len(data)
        return len(data)

    def flush(self) -> None:
        """Nothing is buffered."""

    def close(self) -> None:
        """Nothing to release."""


_NO_FDS: frozenset[int] = frozenset()
#: Which of the descriptors 0-2 a redirection list left alone, by bit mask (1: 0, 2: 1, 4: 2).
_UNTOUCHED = tuple(tuple(fd for fd in range(3) if mask & (1 << fd)) for mask in range(8))


class Applied:
    """The result of applying a redirection list: the command's ``IO`` and how to undo."""

    __slots__ = ("io", "closers", "saved", "keep", "table", "outer", "start", "untouched")

    def __init__(self, io_: "IO", table: dict[int, object]):
        self.io = io_
        self.table = table
        self.closers: list[FileWriter] = []
        #: fdmap entries to put back afterwards: fd -> old stream (None: was not open);
        #: None while there are none.
        self.saved: dict[int, object] | None = None
        #: descriptors whose new state outlives the command ({var}>, the source of N>&M-).
        self.keep: "set[int] | frozenset[int]" = _NO_FDS
        #: The caller's streams, the command's at the start, and which of 0-2 it left alone
        #: (an ``exec`` inside a compound changes those for the caller too, as in bash).
        self.outer = io_
        self.start: tuple[object, object, object] = (io_.stdin, io_.stdout, io_.stderr)
        self.untouched: tuple[int, ...] = ()

    def keep_fd(self, fd: int) -> None:
        """Leave descriptor ``fd`` as the redirection made it after the command."""
        if not self.keep:
            self.keep = set()
        self.keep.add(fd)  # type: ignore[union-attr]


def _ctx(sh: "Shell", io_: "IO") -> CommandContext:
    return CommandContext(argv=["bash"], stdin=io_.stdin, stdout=io_.stdout,
                          stderr=io_.stderr, fs=sh.fs, cwd=sh.cwd, budget=sh.budget,
                          policy=sh.policy)


def open_all(sh: "Shell", redirects: list[Redirect], io_: "IO", persist: bool = False) -> Applied:
    """Apply ``redirects`` in order on a copy of the descriptor table.

    Returns the ``Applied`` result (the table's new streams are already installed in
    ``sh.fdmap``; call ``finish`` after the command). ``persist`` (``exec``): the caller's
    ``io_`` is changed in place and nothing is undone. Raises ``RedirectFailed`` (after
    undoing what was done) or lets ``ExpansionError`` through.
    """
    fdmap = sh.fdmap
    if not persist and not fdmap and len(redirects) == 1:
        quick = _quick_output(sh, redirects[0], io_)
        if quick is not None:
            return quick
    table: dict[int, object] = {0: io_.stdin, 1: io_.stdout, 2: io_.stderr}
    if fdmap:
        table.update(fdmap)
    applied = Applied(io_, table)
    try:
        for r in redirects:
            _apply(sh, r, table, applied, io_, persist)
    except RedirectFailed as exc:
        for w in applied.closers:
            w.close()
        exc.stderr = table[2]  # bash prints it where stderr points at that moment
        raise
    except BaseException:
        for w in applied.closers:
            w.close()
        raise
    start = (table[0], table[1], table[2])
    new_io = io_ if persist else type(io_)(*start)  # (type(io_) is core's IO)
    if persist:
        io_.stdin, io_.stdout, io_.stderr = start  # type: ignore[assignment]
    if fdmap or len(table) > 3:
        for fd in set(table) | set(fdmap):
            if fd < 3:
                continue
            new = table.get(fd)
            old = fdmap.get(fd)
            if new is old:
                continue
            if not persist and fd not in applied.keep:
                if applied.saved is None:
                    applied.saved = {}
                applied.saved[fd] = old
            if new is None or is_closed(new):
                fdmap.pop(fd, None)
            else:
                fdmap[fd] = new
    if not persist and applied.keep:
        for fd in applied.keep:  # bash keeps these in the shell's own table
            if fd < 3:
                setattr(io_, ("stdin", "stdout", "stderr")[fd], table[fd])
    applied.io = new_io
    applied.start = start
    applied.untouched = _UNTOUCHED[(start[0] is io_.stdin) + 2 * (start[1] is io_.stdout)
                                   + 4 * (start[2] is io_.stderr)]
    return applied


def _dot_component(target: str) -> bool:
    """True if a path has a ``.`` or ``..`` component (``/.memory`` has none)."""
    if "." not in target:
        return False
    parts = target.split("/")
    return "." in parts or ".." in parts


def _quick_output(sh: "Shell", r: Redirect, io_: "IO") -> Applied | None:
    """``cmd > file`` / ``cmd >> file`` to a plain path (the usual redirection, alone on a
    command, no descriptors 3 and up): what ``_apply`` does, in fewer steps. None when
    the redirection is not of that kind (the general path handles it)."""
    op = r.op
    if r.varname is not None or (op != ">" and op != ">>") or r.fd not in (None, 1):
        return None
    target = plain(r.target)  # type: ignore[arg-type]
    if not target or _dot_component(target):
        return None
    vpath = normalize(target, sh.cwd)
    if vpath.startswith("/dev/"):
        return None
    applied = Applied(io_, {})
    try:
        writer = _open_writer(sh, io_, op, target, vpath, {}, applied, False)
    except FSError as exc:
        raise RedirectFailed(f"{target}: {exc}") from None
    except RedirectFailed as exc:
        exc.stderr = io_.stderr
        raise
    applied.start = (io_.stdin, writer, io_.stderr)
    applied.io = type(io_)(*applied.start)
    applied.untouched = (0, 2)
    return applied


def finish(sh: "Shell", applied: Applied) -> None:
    """After the command: flush the files it opened and put the descriptor table back."""
    for w in applied.closers:
        w.close()
    if applied.io is not applied.outer:
        for fd in applied.untouched:
            name = ("stdin", "stdout", "stderr")[fd]
            now = getattr(applied.io, name)
            if now is not applied.start[fd]:
                setattr(applied.outer, name, now)
    if applied.saved:
        for fd, old in applied.saved.items():
            if old is None:
                sh.fdmap.pop(fd, None)
            else:
                sh.fdmap[fd] = old


def _bad_fd(word: str) -> RedirectFailed:
    return RedirectFailed(f"{word}: Bad file descriptor")


def _alloc(table: dict[int, object]) -> int:
    fd = FIRST_VAR_FD
    while fd in table and not is_closed(table[fd]):
        fd += 1
    if fd > MAX_FD:
        raise RedirectFailed("redirection error: cannot duplicate fd: Too many open files")
    return fd


def _apply(sh: "Shell", r: Redirect, table: dict[int, object], applied: Applied, io_: "IO",
           persist: bool) -> None:
    op = r.op
    default = 0 if op.startswith("<") else 1
    named = r.varname is not None
    if named and op in (">&", "<&") and r.target is not None and _close_word(sh, r):
        # {var}>&- closes the descriptor whose number $var holds
        value = sh.get_var(r.varname) or ""  # type: ignore[arg-type]
        if not value.isdigit():
            raise RedirectFailed(f"{value}: Bad file descriptor" if value else
                                 f"{r.varname}: ambiguous redirect")
        fd = int(value)
        if fd not in table or is_closed(table[fd]):
            raise _bad_fd(value)
        table[fd] = ClosedReader() if fd == 0 else ClosedWriter()
        applied.keep_fd(fd)
        return
    fd = -1 if named else (r.fd if r.fd is not None else default)  # -1: allocated below
    if fd > MAX_FD:
        raise _bad_fd(str(fd))
    stream = _open_stream(sh, r, table, applied, io_, fd if fd >= 0 else 10, persist or named)
    if stream is None:
        return
    if named:
        fd = _alloc(table)
        try:
            sh.set_var(r.varname, str(fd))  # type: ignore[arg-type]
        except Exception as exc:
            raise RedirectFailed(str(exc)) from None
        applied.keep_fd(fd)
        if isinstance(stream, FileWriter) and stream in applied.closers:
            applied.closers.remove(stream)  # stays open after the command
            stream.direct = True
    if op in ("&>", "&>>") or (op == ">&" and r.fd is None and not named and
                                not isinstance(stream, _Dup)):
        table[1] = stream
        table[2] = stream
        return
    if isinstance(stream, _Dup):
        if stream.stream is None:
            return
        was_open = table.get(fd) is not None and not is_closed(table[fd])
        table[fd] = stream.stream
        if stream.move is not None:
            src = stream.move
            table[src] = ClosedReader() if src == 0 else ClosedWriter()
            if not was_open:  # bash 5.2 reopens M only when N had to be saved
                applied.keep_fd(src)
        return
    table[fd] = stream


class _Dup:
    """``N>&M`` / ``N<&M`` (``move``: ``N>&M-`` closes M)."""

    __slots__ = ("stream", "move")

    def __init__(self, stream: object, move: int | None):
        self.stream = stream
        self.move = move


def _has_brace(word: object) -> bool:
    for p in word.parts:  # type: ignore[attr-defined]
        if isinstance(p, Lit) and "{" in p.text and ("," in p.text or ".." in p.text):
            return True
    return False


def _close_word(sh: "Shell", r: Redirect) -> bool:
    lit = r.target.literal() if r.target is not None else None
    return lit == "-"


def _open_stream(sh: "Shell", r: Redirect, table: dict[int, object], applied: Applied,
                 io_: "IO", fd: int, lasting: bool) -> object | None:
    """The stream a redirection puts on its descriptor (a ``_Dup`` for ``>&N``)."""
    op = r.op
    if op in ("<<", "<<-"):
        if r.heredoc is None:  # never delimited (`$(<<E)`): bash reads an empty body
            text = ""
        else:
            text = r.heredoc.text if r.heredoc_quoted else sh.expander.heredoc(r.heredoc)
        data = text.encode("utf-8", "surrogateescape")
        sh.budget.check_string(len(data))
        return io.BytesIO(data)
    assert r.target is not None
    if op == "<<<":
        text = sh.expander.word(r.target) + "\n"
        data = text.encode("utf-8", "surrogateescape")
        sh.budget.check_string(len(data))
        return io.BytesIO(data)
    target = plain(r.target)
    if target is None:
        if _has_brace(r.target):  # bash brace-expands a target too: {a,b} is ambiguous
            words = sh.expander.words([r.target])
        else:
            words = sh.expander.redirect_target(r.target)
        if len(words) != 1:
            raise RedirectFailed(f"{r.target.text}: ambiguous redirect")
        target = words[0]
    if op in (">&", "<&"):
        dup = _dup_target(target, table, fd)
        if dup is not None:
            return dup
        if op == "<&" or r.fd not in (None, 1):
            raise RedirectFailed(f"{target}: ambiguous redirect")
        op = "&>"  # >&word: stdout and stderr to the file
    if target == "":
        raise RedirectFailed(": No such file or directory")
    ctx: CommandContext | None = None  # made when a file is opened (not for /dev/null)
    if _dot_component(target):  # `nope/../x`: the jail checks what precedes (ctx.path)
        ctx = _ctx(sh, io_)
        try:
            vpath = ctx.path(target)
        except FSError as exc:
            raise RedirectFailed(f"{target}: {exc}") from None
    else:
        vpath = normalize(target, sh.cwd)
    procsubs = sh.procsubs
    if procsubs and vpath in procsubs:
        data = procsubs[vpath]
        if op in ("<", "<>"):
            if isinstance(data, (bytes, bytearray)):
                return io.BytesIO(bytes(data))
        elif not isinstance(data, (bytes, bytearray)):
            return data  # an output process substitution's buffer
    m = _DEVFD_RE.fullmatch(vpath) if vpath.startswith("/dev/fd/") else None
    if m and vpath not in procsubs:
        src = int(m.group(1))
        stream = table.get(src)
        if stream is None or is_closed(stream):
            raise RedirectFailed(f"{target}: No such file or directory")
        return stream
    try:
        if op == "<":
            if vpath == "/dev/stdin":
                return table[0]
            if vpath in ("/dev/stdout", "/dev/stderr", "/dev/null"):
                return read_from(io.BytesIO(b""), DEV_NULL)
            ctx = ctx or _ctx(sh, io_)
            if ctx.stat(target).is_dir:
                return io.BufferedReader(_DirReader())
            return read_from(ctx.open_read(target), vpath)
        if op == "<>":
            if vpath == "/dev/null":
                return NullWriter()
            ctx = ctx or _ctx(sh, io_)
            if ctx.fs.exists(vpath) and ctx.stat(target).is_dir:
                raise RedirectFailed(f"{target}: Is a directory")
            check_slashed_create(ctx, target)
            return ReadWriteFile(ctx, target)
        return _open_writer(sh, ctx or io_, op, target, vpath, table, applied, lasting)
    except FSError as exc:
        raise RedirectFailed(f"{target}: {exc}") from None


def read_from(stream: BinaryIO, vpath: str) -> BinaryIO:
    """Mark ``stream`` (an input redirection's) as reading the file ``vpath``, so that
    ``test -p/-f/-c /dev/stdin`` see what fd 0 is, as the kernel's ``/dev/stdin`` link does;
    an unmarked stdin is a pipe (a pipeline's, a here-document's, the run's own)."""
    try:
        stream.redirected_from = vpath  # type: ignore[attr-defined]
    except AttributeError:  # a stream type without attributes: seen as a pipe
        pass
    return stream


def _dup_target(target: str, table: dict[int, object], fd: int) -> object | None:
    """``>&N`` / ``>&N-`` / ``>&-``: the stream (a ``_Dup``) or None when ``target`` is a
    file name. Raises for a descriptor that is not open."""
    if target == "-":
        return _Dup(ClosedReader() if fd == 0 else ClosedWriter(), None)
    move = target.endswith("-") and target[:-1].isdigit()
    digits = target[:-1] if move else target
    if not digits.isdigit():
        return None
    src = int(digits) if len(digits) < 6 else MAX_FD + 1
    stream = table.get(src)
    if src == fd:  # 3>&3 / 3>&3-: nothing to do, not even a check (as bash)
        return _Dup(None, None)
    if stream is None or is_closed(stream):
        raise _bad_fd(digits)
    return _Dup(stream, src if move else None)


def _open_writer(sh: "Shell", where: "CommandContext | IO", op: str, target: str, vpath: str,
                 table: dict[int, object], applied: Applied, lasting: bool) -> object:
    """Output: ``>`` ``>>`` ``>|`` ``&>`` ``&>>``, through the jail (``where``: the context
    to open it with, or the streams to make one of)."""
    if vpath.startswith("/dev/"):
        if vpath == "/dev/null" or vpath == "/dev/stdin":
            return NullWriter()
        if vpath == "/dev/stdout":
            return table[1]
        if vpath == "/dev/stderr":
            return table[2]
        if vpath == DEV_FULL:
            return FullWriter()
    ctx = where if isinstance(where, CommandContext) else _ctx(sh, where)
    check_slashed_create(ctx, target)  # (`> new/`, `> file/`: open(2) refuses them)
    append = op in (">>", "&>>")
    try:
        st = sh.fs.stat(vpath)
    except (FSError, OSError):
        st = None
    if st is not None and st.is_dir:
        raise RedirectFailed(f"{target}: Is a directory")
    if sh.noclobber and op in (">", "&>") and st is not None and st.is_file:
        raise RedirectFailed(f"{target}: cannot overwrite existing file")
    writer = FileWriter(ctx, target, append)
    if lasting:
        writer.direct = True
    else:
        applied.closers.append(writer)
    return writer




def _keep_output_substitutions(sh: "Shell", before: tuple, io_: "IO") -> None:
    """``exec > >(tee log)``: a ``>(cmd)`` that ``exec`` made a descriptor of the shell runs
    when the run ends (``end_of_run``), on everything written to it, its output going where
    the shell's output went before the ``exec``."""
    from sandbox.interpreter.procsub import OutSub
    installed = [io_.stdin, io_.stdout, io_.stderr, *sh.fdmap.values()]
    for sink in list(sh.outsubs):
        if isinstance(sink, OutSub) and any(sink is x for x in installed):
            sh.outsubs.remove(sink)
            sink.stdout, sink.stderr = before[1], before[2]
            sh.__dict__.setdefault("lasting_outsubs", []).append(sink)


def end_of_run(sh: "Shell", stdout: object, stderr: object) -> None:
    """Run the ``>(cmd)`` substitutions that ``exec`` kept (see above), once, in order."""
    pending = sh.__dict__.pop("lasting_outsubs", None)
    if pending:
        from sandbox.interpreter.procsub import run_sinks
        run_sinks(sh, pending, stdout, stderr)


def run_exec(sh: "Shell", argv: list[str], assigns: list, redirects: list[Redirect],
             io_: "IO") -> int:
    """``exec``: with redirections only, they stay for the rest of the shell (status 0, or
    1 when one fails). ``exec CMD ARGS`` (only under ``Policy(dynamic=True)``; the guard
    refuses it otherwise) runs CMD with those redirections and then ends the shell with its
    status, as the program bash execs would: a function or a builtin that is not also a
    program is ``not found`` (127)."""
    from sandbox.interpreter.core import _PROGRAM_BUILTINS, ExitShell
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if args and args[0].startswith("-") and args[0] != "-":
        sh.diag(io_, f"exec: {args[0][:2]}: invalid option")
        io_.stderr.write(b"exec: usage: exec [-cl] [-a name] [command [argument ...]]\n")
        return 2
    if args and not sh.policy.dynamic:  # defence in depth: the guard refused it already
        sh.diag(io_, "exec: running a command is not allowed: exec replaces the shell; "
                "run the command directly")
        return 126
    sh.budget.count_command()
    if sh.xtrace and not args:
        sh.trace(["exec"], io_)
    before = (io_.stdin, io_.stdout, io_.stderr)
    if sh.open_redirects(redirects, io_, persist=True) is None:
        return 1
    _keep_output_substitutions(sh, before, io_)
    if not args:
        return 0
    name = args[0]
    from sandbox import commands as registry
    from sandbox.interpreter.core import BUILTINS
    program = (name in _PROGRAM_BUILTINS or name in sh.commands
               or (name not in BUILTINS and registry.get(name) is not None))
    if not program:
        sh.diag(io_, f"exec: {name}: not found")
        raise ExitShell(127)
    functions, sh.functions = sh.functions, {}
    try:
        status = sh.dispatch(args, assigns, io_)
    finally:
        sh.functions = functions
    raise ExitShell(status)


def write_failed(io_: "IO", name: str, prefix: str, exc: OSError) -> int:
    """A command's write to stdout failed (a closed descriptor, ``/dev/full``): for a builtin
    (``prefix`` is ``bash: line N: ``) bash's ``NAME: write error: REASON`` and status 1, for a
    program what that program prints and its status (``_stdout_errors``); on stderr, if that
    is open."""
    if prefix:
        reason = "Bad file descriptor" if exc.errno == errno.EBADF else (exc.strerror or "I/O error")
        text, status = f"{prefix}{name}: write error: {reason}\n", 1
    else:
        text, status = stdout_failure(name, exc)
    try:
        if text:
            io_.stderr.write(text.encode())
    except OSError:
        pass
    return status


def report(sh: "Shell", exc: RedirectFailed, io_: "IO") -> None:
    """Print a failed redirection's message where bash does (stderr if still open)."""
    from sandbox.interpreter.core import IO
    err = exc.stderr if exc.stderr is not None else io_.stderr
    try:
        sh.diag(IO(io_.stdin, err, err), exc.message)  # type: ignore[arg-type]
    except OSError:
        pass
