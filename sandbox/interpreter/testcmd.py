"""``test`` / ``[``: bash 5.2's ``test.c``, and the file and variable tests ``[[ ]]`` shares.

Up to four arguments follow POSIX's rules by count (``posixtest``: ``[ ! x ]``, ``[ ( x ) ]``,
``[ x -a y ]``...), more go through bash's recursive ``expr``/``and``/``term`` grammar (``-a``
binds tighter than ``-o``, both sides always evaluated). Errors are bash's messages with
status 2 (``unary operator expected``, ``integer expression expected``, ``too many
arguments``, ``missing `]'``...).

File tests see the jail: a regular file or directory, ``/dev/null`` and ``/dev/std*`` as
character devices, and the links and special files a host process put in a directory
(``-h``/``-L`` a link, ``-p`` a FIFO, ``-S`` a socket; the other tests follow a link by name
inside the jail, never opening it); ``-u -g -k`` read the set-id and sticky bits (only a host
process can set them: ``chmod`` is refused); ``-r -w -x`` read the owner's permission bits (``-w`` is false under a
read-only policy); ``-O -G`` hold for every existing file (the sandbox user owns them all);
``-ef`` is the same existing path (no hard links). ``-t FD`` is false: there is no terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.commands._canonical import stat_through
from sandbox.fs.paths import normalize
from sandbox.fs.base import BLOCKDEV, CHARDEV, FIFO, LINK, SOCKET, FileStat, FSError
from sandbox.fs.vfs import DEVICES
from sandbox.interpreter.read import legal_number

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

UNARY = frozenset("-a -b -c -d -e -f -g -h -k -n -o -p -r -s -t -u -v -w -x -z -G -L -O -S -N "
                  "-R".split())
_STRING_BINARY = frozenset("= == != < >".split())
_INT_BINARY = frozenset("-eq -ne -lt -le -gt -ge".split())
_FILE_BINARY = frozenset("-nt -ot -ef".split())
BINARY = _STRING_BINARY | _INT_BINARY | _FILE_BINARY
#: ``set -o`` names that are on in a fresh ``bash -c`` and that the sandbox doesn't track.
#: ``/dev/stdin`` and its alias: what they test as depends on what fd 0 reads.
_STDIN = ("/dev/stdin", "/dev/fd/0")
#: The kernel's links to descriptors (``-h /dev/stdin`` holds).
_FD_LINKS = ("/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd", "/dev/fd/0", "/dev/fd/1",
             "/dev/fd/2")
_ALWAYS_ON = frozenset({"braceexpand", "hashall", "interactive-comments"})
_TRACKED = {"errexit": "errexit", "nounset": "nounset", "noglob": "noglob",
            "noclobber": "noclobber", "xtrace": "xtrace", "pipefail": "pipefail",
            "errtrace": "errtrace", "functrace": "functrace"}


class TestError(Exception):
    """A malformed test expression; ``str()`` is bash's message (status 2)."""


def option_on(sh: "Shell", name: str) -> bool:
    """``test -o NAME``: whether the ``set -o`` option is on (unknown names: false)."""
    attr = _TRACKED.get(name)
    if attr is not None:
        return bool(getattr(sh, attr, False))
    return name in _ALWAYS_ON


def _stat(sh: "Shell", operand: str, follow: bool = True):  # type: ignore[no-untyped-def]
    """(stat, virtual path) of ``operand`` (following a link by name: ``stat``), or
    (None, ""). The shell has the ``fs``, ``cwd`` and ``budget`` the resolution reads."""
    if operand == "":
        return None, ""
    vpath = normalize(operand, sh.cwd)
    if vpath in sh.procsubs:  # a process substitution's descriptor: a pipe
        return FileStat(FIFO, 0, 0.0, 0o600), vpath
    try:
        return stat_through(sh, operand, follow)  # type: ignore[arg-type]
    except (FSError, OSError, ValueError):
        return None, ""


def file_test(sh: "Shell", op: str, operand: str) -> bool:
    """A unary file test (``-e -f -d -s -r -w -x -c ...``) of ``operand``."""
    if op in ("-h", "-L"):
        vpath = normalize(operand, sh.cwd) if operand else ""
        if vpath in _FD_LINKS or vpath in sh.procsubs:  # (a substitution's: a link to pipe:[N])
            return True
        st, _ = _stat(sh, operand, follow=False)
        return st is not None and st.kind == LINK
    st, path = _stat(sh, operand)
    if st is None:
        return False
    if path in _STDIN:  # fd 0 as the kernel's link shows it: the file it reads, or a pipe
        origin = getattr(sh._current_stdin, "redirected_from", None)
        if origin is not None:
            return file_test(sh, op, origin)
        return op in ("-p", "-e", "-a", "-r", "-w", "-O", "-G")
    if op == "-p":
        return st.kind == FIFO
    if op == "-S":
        return st.kind == SOCKET
    if op == "-b":
        return st.kind == BLOCKDEV
    device = path in DEVICES or st.kind == CHARDEV
    if op in ("-e", "-a", "-O", "-G"):
        return True
    if op == "-f":
        return st.is_file and not device
    if op == "-d":
        return st.is_dir
    if op == "-c":
        return device
    if op == "-s":
        return st.size > 0 and (st.is_file or st.is_dir or st.kind == LINK)
    # access as the sandbox has it (its own rights, as root's: every file readable and,
    # unless the policy says no, writable; executable with any x bit), as find's -readable
    # -writable -executable and as every command reads and writes
    if op == "-r":
        return True
    if op == "-w":
        return device or sh.policy.may_write(path)
    if op == "-x":
        return st.is_dir or bool(st.mode & 0o111)
    if op in ("-u", "-g", "-k"):  # set-id and sticky bits a host process set (chmod is refused)
        return bool(st.mode & {"-u": 0o4000, "-g": 0o2000, "-k": 0o1000}[op])
    return False  # -N: no access times in the jail


def unary_test(sh: "Shell", op: str, operand: str) -> bool:
    """bash's ``unary_test`` for ``test`` and ``[[ ]]``."""
    if op == "-z":
        return operand == ""
    if op == "-n":
        return operand != ""
    if op == "-v":  # `test -v 'm[$k]'`: the subscript is expanded once more, as in bash
        from sandbox.interpreter import state
        return sh.get_var(state.text_subscript(sh, operand)) is not None
    if op == "-R":
        from sandbox.interpreter import namerefs
        return namerefs.is_ref(sh, operand) and sh.get_var(operand) is not None
    if op == "-o":
        return option_on(sh, operand)
    if op == "-t":
        return False
    return file_test(sh, op, operand)


def file_compare(sh: "Shell", left: str, op: str, right: str) -> bool:
    """``-nt`` / ``-ot`` / ``-ef``."""
    a, pa = _stat(sh, left)
    b, pb = _stat(sh, right)
    if op == "-ef":
        return a is not None and b is not None and pa == pb
    if op == "-nt":
        return a is not None and (b is None or a.mtime > b.mtime)
    return b is not None and (a is None or a.mtime < b.mtime)


def int_compare(a: int, op: str, b: int) -> bool:
    """``-eq -ne -lt -le -gt -ge``."""
    return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b,
            "-ge": a >= b}[op]


def _binop(word: str) -> bool:
    """bash's ``test_binop`` (``-a``/``-o`` are not binary operators here)."""
    return word in BINARY


class _Test:
    """One evaluation of ``test``'s arguments (bash's ``posixtest`` and ``expr``)."""

    def __init__(self, sh: "Shell", args: list[str]):
        self.sh = sh
        self.argv = args
        self.argc = len(args)
        self.pos = 0

    def advance(self, need_more: bool) -> None:
        self.pos += 1
        if need_more and self.pos >= self.argc:
            raise TestError("argument expected")

    def run(self) -> bool:
        argc = self.argc
        if argc == 0:
            return False
        a = self.argv
        if argc == 1:
            value = a[0] != ""
            self.pos = argc
        elif argc == 2:
            value = self.two_arguments()
        elif argc == 3:
            value = self.three_arguments()
        elif argc == 4 and a[0] == "!":
            self.advance(True)
            value = not self.three_arguments()
        elif argc == 4 and a[0] == "(" and a[3] == ")":
            self.advance(True)
            value = self.two_arguments()
            self.pos = argc
        else:
            value = self.expr()
        if self.pos < argc:
            if a[self.pos].startswith("-"):
                raise TestError(f"syntax error: `{a[self.pos]}' unexpected")
            raise TestError("too many arguments")
        return value

    def two_arguments(self) -> bool:
        a, p = self.argv, self.pos
        if a[p] == "!":
            self.pos = self.argc
            return a[p + 1] == ""
        if len(a[p]) == 2 and a[p][0] == "-" and a[p] in UNARY:
            value = self.unary_operator()
            self.pos = self.argc
            return value
        raise TestError(f"{a[p]}: unary operator expected")

    def three_arguments(self) -> bool:
        a, p = self.argv, self.pos
        if _binop(a[p + 1]):
            value = self.binary_operator()
        elif a[p + 1] in ("-a", "-o"):
            x, y = a[p] != "", a[p + 2] != ""
            value = (x and y) if a[p + 1] == "-a" else (x or y)
        elif a[p] == "!":
            self.advance(True)
            value = not self.two_arguments()
        elif a[p] == "(" and a[p + 2] == ")":
            value = a[p + 1] != ""
        else:
            raise TestError(f"{a[p + 1]}: binary operator expected")
        self.pos = self.argc
        return value

    def expr(self) -> bool:
        if self.pos >= self.argc:
            raise TestError("argument expected")
        return self.or_()

    def or_(self) -> bool:
        value = self.and_()
        if self.pos < self.argc and self.argv[self.pos] == "-o":
            self.advance(False)
            right = self.or_()
            return right or value
        return value

    def and_(self) -> bool:
        value = self.term()
        if self.pos < self.argc and self.argv[self.pos] == "-a":
            self.advance(False)
            right = self.and_()
            return right and value
        return value

    def term(self) -> bool:
        a = self.argv
        if self.pos >= self.argc:
            raise TestError("argument expected")
        word = a[self.pos]
        if word == "!":
            self.advance(True)
            return not self.term()
        if word == "(":
            self.advance(True)
            value = self.expr()
            if self.pos >= self.argc:
                raise TestError("`)' expected")
            if a[self.pos] != ")":
                raise TestError(f"`)' expected, found {a[self.pos]}")
            self.advance(False)
            return value
        if self.pos + 3 <= self.argc and _binop(a[self.pos + 1]):
            return self.binary_operator()
        if self.pos + 2 <= self.argc and word in UNARY:
            return self.unary_operator()
        self.advance(False)
        return word != ""

    def unary_operator(self) -> bool:
        op = self.argv[self.pos]
        if op == "-t":
            self.advance(False)
            if self.pos < self.argc:
                if legal_number(self.argv[self.pos]) is not None:
                    self.advance(False)
                return False  # no descriptor is a terminal
            return False
        self.advance(True)
        value = unary_test(self.sh, op, self.argv[self.pos])
        self.advance(False)
        return value

    def binary_operator(self) -> bool:
        a, p = self.argv, self.pos
        x, op, y = a[p], a[p + 1], a[p + 2]
        self.pos += 3
        if op in ("=", "=="):
            return x == y
        if op == "!=":
            return x != y
        if op in ("<", ">"):
            bx = x.encode("utf-8", "surrogateescape")
            by = y.encode("utf-8", "surrogateescape")
            return bx < by if op == "<" else bx > by
        if op in _FILE_BINARY:
            return file_compare(self.sh, x, op, y)
        left, right = legal_number(x), legal_number(y)
        if left is None:
            raise TestError(f"{x}: integer expression expected")
        if right is None:
            raise TestError(f"{y}: integer expression expected")
        return int_compare(left, op, right)


def b_test(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``test EXPR`` and ``[ EXPR ]``: 0 true, 1 false, 2 for a malformed expression."""
    prog = argv[0]
    args = argv[1:]
    if prog == "[":
        if not args or args[-1] != "]":
            sh.diag(io_, "[: missing `]'")
            return 2
        args = args[:-1]
    try:
        return 0 if _Test(sh, args).run() else 1
    except TestError as exc:
        sh.diag(io_, f"{prog}: {exc}")
        return 2
