"""find's walk and the evaluation of its expression (GNU findutils 4.9 semantics).

Entries are visited in the host's readdir order where the directory is a host directory
(``LocalDir``: GNU's order on the same filesystem), else in sorted order. ``-depth``
visits a directory after its contents; ``-prune`` stops descent (not under ``-depth``);
``-quit`` stops at once (pending ``-exec ... +`` batches still run). The walk is iterative, so
deep trees cannot exhaust the Python stack.
"""

from __future__ import annotations

import calendar
import errno
import math
import time
from typing import Callable

from sandbox.commands import _identity
from sandbox.commands._quoting import quote
from sandbox.commands._subcommand import spawn
from sandbox.commands.base import CommandContext
from sandbox.commands.find import parse as P
from sandbox.commands.find.printf import compile_format, compile_render
from sandbox.commands._canonical import stat_through
from sandbox.commands._dirorder import in_directory_order
from sandbox.fs.base import DIR, LINK, TYPE_LETTER, FileStat, FSError

#: Directories held open at once during a walk (deeper ones are opened from the root).
HANDLE_DEPTH = 64
#: GNU's command-line size for ``-exec ... +`` batches.
EXEC_BATCH = 131072 - 2048


class Quit(Exception):
    """``-quit``."""


class Entry:
    """One visited file: its path as printed, its virtual path, depth, kind and (lazy) stat."""

    __slots__ = ("path", "vpath", "depth", "start", "name", "_stat", "pruned", "kind", "linked")

    def __init__(self, path: str, vpath: str, depth: int, start: str, name: str,
                 st: FileStat | None = None, kind: str | None = None):
        self.path = path
        self.vpath = vpath
        self.depth = depth
        self.start = start
        self.name = name
        self._stat = st
        self.pruned = False
        #: ``-L``: a link tested as the directory it names (never walked through)
        self.linked = False
        #: DIR or FILE when known without a stat (from the listing), else None.
        self.kind = st.kind if st is not None else kind

    def stat(self, fs) -> FileStat:  # type: ignore[no-untyped-def]
        """The entry's own stat, never following a link (one ``fs.lstat`` the first time;
        a link or special file is reported as such; raises ``FSError``)."""
        if self._stat is None:
            self._stat = fs.lstat(self.vpath)
            self.kind = self._stat.kind
        return self._stat

    def letter(self, fs) -> str:  # type: ignore[no-untyped-def]
        """The entry's ``-type`` letter (f d l p s c b)."""
        return TYPE_LETTER[self.kind if self.kind is not None else self.stat(fs).kind]

    def is_dir(self, fs) -> bool:  # type: ignore[no-untyped-def]
        """True for a directory (from the listing's kind when it told one)."""
        kind = self.kind
        if kind is None:
            return self.stat(fs).is_dir
        return kind == DIR


#: Primaries that never look at a file's stat (``-type`` and ``-delete`` need only its kind,
#: which directory listings tell): with only these, the walk lists kinds, not stats.
STATLESS = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
            "-iregex", "-type", "-xtype", "-print", "-print0", "-prune", "-quit", "-true",
            "-false", "-delete", "-exec", "-execdir", "-samefile", "-readable", "-writable",
            "-user", "-group", "-uid", "-gid", "-nouser", "-nogroup", "-lname", "-ilname",
            "-used", "-inum"} | P.GLOBAL_0
#: ``-printf`` directives that need no stat.
_STATLESS_DIRECTIVES = set("pfhPHdugyYlFUGiD")


#: Primaries with side effects (GNU's ``side_effects``): the optimiser never moves them.
SIDE_EFFECTS = {"-print", "-print0", "-printf", "-ls", "-delete", "-exec", "-execdir", "-prune",
                "-quit"}
#: GNU's evaluation cost classes of the primaries (``NeedsNothing`` = 0 for ``_FREE``, stat
#: tests 3; actions have side effects and are never swapped).
COSTS = {"-inum": 1, "-type": 2, "-xtype": 2, "-lname": 4, "-ilname": 4, "-readable": 5,
         "-writable": 5, "-executable": 5}
_STAT_COST = 3
_FREE = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
         "-true", "-false"}


def _side_effects(node: P.Node) -> bool:
    """True if the subtree holds an action, ``-prune`` or ``-quit``."""
    if node.kind == "pred":
        return node.name in SIDE_EFFECTS
    return any(_side_effects(n) for n in (node.left, node.right) if n is not None)


def _worst_cost(node: P.Node) -> int:
    """GNU's ``worst_cost``: the highest evaluation cost class in the subtree (operators and
    name tests cost nothing)."""
    if node.kind == "pred":
        return 0 if node.name in _FREE else COSTS.get(node.name, _STAT_COST)
    return max((_worst_cost(n) for n in (node.left, node.right) if n is not None), default=0)


def _compare(cmp: str, value: float, n: float) -> bool:
    return value > n if cmp == "gt" else value < n if cmp == "lt" else value == n


def base_name(path: str) -> str:
    """What ``-name`` matches: the last component (``/`` for the root)."""
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else ""
    return stripped.rsplit("/", 1)[-1]


#: How ``-ls`` spells a byte of a name (findutils' ``print_name_with_quoting``): these escapes,
#: printable ASCII as itself, any other byte (UTF-8 ones too) as ``\ooo``.
_LS_ESCAPES = {ord("\\"): b"\\\\", ord("\n"): b"\\n", ord("\b"): b"\\b", ord("\r"): b"\\r",
               ord("\t"): b"\\t", ord("\f"): b"\\f", ord(" "): b"\\ ", ord('"'): b'\\"'}
_LS_BYTES = [_LS_ESCAPES.get(c) or (bytes([c]) if 0o40 < c < 0o177 else b"\\%03o" % c) for c in range(256)]


def _ls_quoted(name: str) -> bytes:
    """A name as ``-ls`` prints it."""
    return b"".join(_LS_BYTES[c] for c in name.encode("utf-8", "surrogateescape"))


class Walker:
    """Evaluates the expression over every start point."""

    def __init__(self, ctx: CommandContext, options: P.Options):
        self.ctx = ctx
        self.fs = ctx.fs
        self.options = options
        self.status = 0
        self.now = time.time()
        self.batches: list[tuple[list[str], list[str], str | None]] = []
        self.out: list[bytes] = []
        self.out_size = 0
        #: Set by ``make`` when a primary reads stats (else listings give kinds only).
        self.needs_stat = False

    # -- output -------------------------------------------------------------------------

    def emit(self, data: bytes) -> None:
        self.out.append(data)
        self.out_size += len(data)
        if self.out_size > 65536:
            self.flush()

    def flush(self) -> None:
        if self.out:
            self.ctx.stdout.write(b"".join(self.out))
            self.out = []
            self.out_size = 0

    def error(self, message: str) -> None:
        self.flush()
        self.ctx.error(message)
        self.status = 1

    # -- predicates -----------------------------------------------------------------------

    def make(self, name: str, args: list) -> Callable[["Entry"], bool]:
        """The function of one primary (errors in its arguments raise ``FindError``)."""
        fs = self.fs
        if name not in STATLESS and name != "-printf":
            self.needs_stat = True
        if name in ("-true", "-prune") or name in P.GLOBAL_0:
            if name == "-prune":
                def prune(e: Entry) -> bool:
                    e.pruned = True
                    return True
                return prune
            return lambda e: True
        if name == "-false":
            return lambda e: False
        if name == "-quit":
            def quit_(e: Entry) -> bool:
                raise Quit()
            return quit_
        if name in ("-name", "-iname"):
            if "/" in args[0] and args[0] != "/" and self.options.warn:
                self.ctx.error(f"warning: {quote(name)} matches against basenames only, but the "
                               "given pattern contains a directory separator (\u2018/\u2019), "
                               "thus the expression will evaluate to false all the time.  Did "
                               f"you mean {quote('-wholename')}?")
            rx = P.glob(args[0], name == "-iname")
            return lambda e: rx.match(e.name) is not None
        if name in ("-path", "-ipath", "-wholename", "-iwholename"):
            rx = P.glob(args[0], name.startswith("-i"))
            return lambda e: rx.match(e.path) is not None
        if name in ("-regex", "-iregex"):
            return self._regex(args[0], name == "-iregex")
        if name in ("-type", "-xtype"):
            kinds = P.parse_types(args[0], name)
            if name == "-xtype":  # the type of what a link names (a dangling one: l)
                return lambda e: self._followed_letter(e) in kinds
            return lambda e: e.letter(fs) in kinds
        if name == "-size":
            cmp, n, unit = P.parse_size(args[0])
            return lambda e: _compare(cmp, -(-e.stat(fs).size // unit), n)
        if name == "-empty":
            def empty(e: Entry) -> bool:
                st = e.stat(fs)
                if st.is_dir:
                    return not fs.listdir(e.vpath)
                return st.is_file and st.size == 0
            return empty
        if name in ("-newer", "-anewer", "-cnewer") or name.startswith("-newer"):
            if name.startswith("-newer") and len(name) == 8:
                x, y = name[6], name[7]
                if x not in "acmB" or y not in "acmtB":
                    raise P.FindError(f"invalid predicate `{name}'")
                if "B" in (x, y):
                    self.ctx.error("This system does not provide a way to find the birth "
                                   "time of a file.")
                    raise P.FindError(f"invalid predicate `{name}'")
                if y == "t":
                    ref_t = self._date(args[0])
                    return lambda e: e.stat(fs).mtime > ref_t
            try:
                ref = self.fs.stat(self.ctx.path(args[0])).mtime
            except FSError as exc:
                raise P.FindError(f"{quote(args[0])}: {exc}") from None
            return lambda e: e.stat(fs).mtime > ref
        if name in ("-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin"):
            cmp, n = P.parse_number(args[0], name)
            unit = 86400 if name.endswith("time") else 60
            return self._time_test(cmp, n, unit)
        if name in ("-perm",):
            kind, bits = P.parse_perm(args[0])
            def perm(e: Entry) -> bool:
                m = e.stat(fs).mode & 0o7777
                if kind == "all":
                    return m & bits == bits
                if kind == "any":
                    return bits == 0 or m & bits != 0
                return m == bits
            return perm
        if name in ("-links", "-inum"):
            cmp, n = P.parse_number(args[0], name)
            if name == "-inum":
                return lambda e: _compare(cmp, 0, n)
            return lambda e: _compare(cmp, e.stat(fs).nlink, n)
        if name in ("-user", "-uid", "-group", "-gid"):
            value = args[0]
            ident = (_identity.USER, _identity.UID) if name in ("-user", "-uid") else (
                _identity.GROUP, _identity.GID)
            if name in ("-uid", "-gid"):
                cmp, n = P.parse_number(value, name)
                return lambda e: _compare(cmp, ident[1], n)
            if value == ident[0] or value.isdigit():
                ok = value == ident[0] or int(value) == ident[1]
                return lambda e: ok
            what = ("is not the name of a known user" if name == "-user"
                    else "is not the name of an existing group")
            raise P.FindError(f"{quote(value)} {what}")
        if name in ("-lname", "-ilname"):
            rx = P.glob(args[0], name == "-ilname")
            return lambda e: e.letter(fs) == "l" and rx.match(self.link_text(e)) is not None
        if name in ("-nouser", "-nogroup", "-used"):
            if name == "-used":
                P.parse_number(args[0], name)
            return lambda e: False  # virtual owners always exist
        if name == "-readable":
            return lambda e: True
        if name == "-writable":
            policy = self.ctx.policy
            return lambda e: policy.may_write(e.vpath)
        if name == "-executable":
            return lambda e: e.stat(fs).is_dir or bool(e.stat(fs).mode & 0o111)
        if name == "-samefile":
            try:
                target = self.ctx.path(args[0])
                ident = self.fs.lstat(target).version
            except FSError as exc:
                raise P.FindError(f"{quote(args[0])}: {exc}") from None
            # a host directory's version holds the inode: two names of one file (a hard link
            # a host process made) have the same; other backends: the same path only
            inode = ident if isinstance(ident, tuple) and len(ident) == 4 else None
            return lambda e: e.vpath == target or (
                inode is not None and e.stat(fs).version == inode)
        if name in ("-print", "-print0"):
            end = b"\n" if name == "-print" else b"\0"
            def print_(e: Entry) -> bool:
                self.emit(e.path.encode("utf-8", "surrogateescape") + end)
                return True
            return print_
        if name == "-printf":
            pieces = compile_format(self.ctx, args[0])
            if any(isinstance(p, tuple) and (p[2] or p[1] not in _STATLESS_DIRECTIVES)
                   for p in pieces):
                self.needs_stat = True
            draw = compile_render(self, pieces)

            def printf(e: Entry) -> bool:
                self.emit(draw(e))
                return True
            return printf
        if name == "-ls":
            return self._ls
        if name == "-delete":
            return self._delete
        if name in ("-exec", "-execdir"):
            return self._exec(args[0], args[1], name == "-execdir")
        raise P.FindError(f"{name}: not supported in the sandbox")

    def _date(self, text: str) -> float:
        """``-newerXt``'s date string, as GNU date reads it (UTC)."""
        from datetime import timezone
        from sandbox.commands.date import DateError, Moment, parse_date
        sec = math.floor(self.now)
        try:
            moment = Moment(sec, int((self.now - sec) * 1e9), timezone.utc, "UTC")
            seconds, nanos = parse_date(text, moment, timezone.utc)
        except DateError:
            raise P.FindError(f"I cannot figure out how to interpret {quote(text)} as a date "
                              "or time") from None
        return seconds + nanos / 1e9

    def _regex(self, pattern: str, icase: bool) -> Callable[[Entry], bool]:
        from sandbox.regex import RegexError, compile_regex
        flavour = P.regex_flavour(self.options.regextype)
        text = P.emacs_to_ere(pattern) if flavour == "emacs" else pattern
        try:
            rx = compile_regex(text.encode("utf-8", "surrogateescape"),
                               extended=flavour != "basic", icase=icase,
                               dot_newline=flavour != "emacs", budget=self.ctx.budget)
        except RegexError as exc:
            raise P.FindError(f"failed to compile regular expression '{pattern}': {exc}") from None

        def regex(e: Entry) -> bool:
            data = e.path.encode("utf-8", "surrogateescape")
            m = rx.match(data)
            return m is not None and m.end() == len(data)
        return regex

    def _time_test(self, cmp: str, n: float, unit: int) -> Callable[[Entry], bool]:
        origin = self.now
        if self.options.daystart:
            origin = (math.floor(self.now / 86400) + 1) * 86400
        fs = self.fs

        # GNU (measured): -mtime +N: more than N+1 days; -N: less than N days; N: [N, N+1)
        # days. -mmin +N / -N: more / less than N minutes; N: (N-1, N] minutes.
        gt = (n + 1) * unit if unit == 86400 else n * unit

        def test(e: Entry) -> bool:
            age = origin - e.stat(fs).mtime
            if cmp == "gt":
                return age > gt
            if cmp == "lt":
                return age < n * unit
            if unit == 86400:
                return n * unit <= age < (n + 1) * unit
            return (n - 1) * unit < age <= n * unit  # -mmin N: (N-1, N] minutes
        return test

    def link_text(self, e: Entry) -> str:
        """The text of the link ``e`` ("" if it can't be read)."""
        try:
            return self.fs.readlink(e.vpath)
        except FSError:
            return ""

    def _as_named(self, e: Entry) -> bool:
        """``-L``: a link below a start point is tested as what it names (a dangling one stays
        a link). A directory it names is tested as one but not walked through it. False
        after GNU's error for a link that loops (the entry is not tested)."""
        try:
            st, _ = stat_through(self.ctx, e.vpath)
        except FSError as exc:
            if exc.errno == errno.ELOOP:
                self.error(f"{quote(e.path)}: {exc}")
                return False
            return True
        e._stat, e.kind = st, st.kind
        e.linked = st.is_dir
        return True

    def _followed_letter(self, e: Entry, printf: bool = False) -> str:
        """``-xtype`` (``printf``: ``%Y``): the type of what ``e`` names when it is a link
        (resolved by name inside the jail, never opened). A dangling link is ``l`` (``%Y``:
        ``N``); a loop is GNU's error and no type (``%Y``: ``L``)."""
        letter = e.letter(self.fs)
        if letter != "l":
            return letter
        try:
            return TYPE_LETTER[stat_through(self.ctx, e.vpath)[0].kind]
        except FSError as exc:
            if exc.errno == errno.ELOOP:
                if printf:
                    return "L"
                self.error(f"{quote(e.path)}: {exc}")
                return ""
            return "N" if printf else "l"

    def _ls(self, e: Entry) -> bool:
        st = e.stat(self.fs)
        from sandbox.commands.find.printf import mode_string
        blocks = -(-st.size // 4096) * 4 if st.is_file or st.is_dir else 0
        mtime = st.mtime
        if self.now - 6 * 30.436875 * 86400 < mtime <= self.now + 3600:
            date = time.strftime("%b %e %H:%M", time.gmtime(mtime))
        else:
            date = time.strftime("%b %e  %Y", time.gmtime(mtime))
        line = (f"{0:9d} {blocks:6d} {mode_string(st)} {st.nlink:3d} {_identity.USER:<8s} "
                f"{_identity.GROUP:<8s} {st.size:8d} {date} ").encode()
        line += _ls_quoted(e.path)
        if st.kind == LINK:
            line += b" -> " + _ls_quoted(self.link_text(e))
        self.emit(line + b"\n")
        return True

    def _delete(self, e: Entry) -> bool:
        if e.path == "." or e.path.rstrip("/") in (".", ""):
            return True
        try:
            if e.is_dir(self.fs):
                self.ctx.rmdir(e.vpath)
            else:
                self.ctx.remove(e.vpath)
        except FSError as exc:
            self.error(f"cannot delete {quote(e.path)}: {exc}")
            return False
        return True

    def _exec(self, cmd: list[str], plus: bool, in_dir: bool) -> Callable[[Entry], bool]:
        def where(e: Entry) -> tuple[str, str | None]:
            if not in_dir:
                return e.path, None
            parent = e.vpath.rsplit("/", 1)[0] or "/"
            if e.depth == 0 and e.vpath == self.ctx.path("."):
                return "./" + base_name(e.path) if e.path != "." else "./.", parent
            return "./" + e.name, parent

        if plus:
            def batch(e: Entry) -> bool:
                arg, cwd = where(e)
                for b in self.batches:
                    if b[0] is cmd and b[2] == cwd:
                        size = sum(len(a.encode("utf-8", "surrogateescape")) + 1 for a in cmd + b[1])
                        if size + len(arg.encode("utf-8", "surrogateescape")) + 1 > EXEC_BATCH:
                            self.run_batch(b)
                            b[1].clear()
                        b[1].append(arg)
                        break
                else:
                    if in_dir:
                        for b in list(self.batches):
                            if b[0] is cmd:
                                self.run_batch(b)
                                self.batches.remove(b)
                    self.batches.append((cmd, [arg], cwd))
                return True
            return batch

        def execute(e: Entry) -> bool:
            arg, cwd = where(e)
            argv = [a.replace("{}", arg) for a in cmd]
            self.flush()
            return self.run(argv, cwd) == 0
        return execute

    def run(self, argv: list[str], cwd: str | None) -> int:
        self.ctx.budget.check_time()
        return spawn(self.ctx, argv, lambda name, why: f"{quote(name)}: {why}", cwd=cwd)

    def run_batch(self, b: tuple[list[str], list[str], str | None]) -> None:
        cmd, args, cwd = b
        if not args:
            return
        self.flush()
        argv = cmd[:-1] + args
        if self.run(argv, cwd) != 0:
            self.status = 1

    def finish(self) -> None:
        """Run the pending ``-exec ... +`` batches."""
        for b in self.batches:
            self.run_batch(b)
        self.batches = []
        self.flush()

    # -- evaluation -------------------------------------------------------------------------

    def evaluate(self, node: P.Node, e: Entry) -> bool:
        """The value of ``node`` for ``e`` (the tree walked node by node)."""
        return self.compile(node)(e)

    def compile(self, node: P.Node) -> Callable[[Entry], bool]:
        """``node`` as one function of the entry (operators as closures; option nodes fold
        away), so the walk pays no dispatch per node."""
        k = node.kind
        if k == "pred":
            assert node.fn is not None
            return node.fn
        if k in ("and", "or", "comma"):
            assert node.left is not None and node.right is not None
            if k == "and" and node.left.kind == "true":
                return self.compile(node.right)
            if k == "and" and node.right.kind == "true":
                return self.compile(node.left)
            if k == "comma":
                return self._comma(node)
            left, right = self.compile(node.left), self.compile(node.right)
            if k == "and":
                return lambda e: left(e) and right(e)
            return lambda e: left(e) or right(e)
        if k == "not":
            assert node.left is not None
            inner = self.compile(node.left)
            return lambda e: not inner(e)
        return lambda e: True

    def _comma(self, node: P.Node) -> Callable[[Entry], bool]:
        """A chain ``A , B , ...`` in the order GNU find 4.9 evaluates it: its optimiser
        (``do_arm_swaps``, CBO level 2) visits the chain's operators from the last one back
        to the first, and swaps each operator's two arms when neither has side effects and
        the left one's worst evaluation cost is higher (names and operators cost nothing,
        then ``-inum``, ``-type``, stat tests, ``-lname``, access tests): one backward
        bubble pass, so ``-type d , -true`` tests ``-type d`` last. The chain's value is its
        last element's."""
        elements: list[P.Node] = []
        while node.kind == "comma":
            assert node.left is not None and node.right is not None
            elements.append(node.right)
            node = node.left
        elements.append(node)
        elements.reverse()
        for k in range(len(elements) - 1, 0, -1):
            a, b = elements[k - 1], elements[k]
            if not _side_effects(a) and not _side_effects(b) and _worst_cost(a) > _worst_cost(b):
                elements[k - 1], elements[k] = b, a
        fns = [self.compile(el) for el in elements]
        *first, last = fns

        def comma(e: Entry) -> bool:
            for fn in first:
                fn(e)
            return last(e)
        return comma

    def _listing(self, e: Entry, parent: object) -> tuple[list, object]:
        """(entries, open handle or None) of a directory in the host's readdir order where it
        is a host directory (as GNU's), else sorted: entries are (name, stat or None, kind or
        None); empty after an error (reported)."""
        found, handle = self._sorted_listing(e, parent)
        if len(found) > 1 and handle is None:  # (a held-open host directory lists in order)
            found = in_directory_order(self.fs, e.vpath, found, key=lambda item: item[0])
        return found, handle

    def _sorted_listing(self, e: Entry, parent: object) -> tuple[list, object]:
        """(entries, open handle or None) of a directory, sorted by name: see ``_listing``.

        Where no primary reads stats and the filesystem offers ``open_scan`` (a directory held
        open, its children opened relative to it: one open per directory), the listing gives
        kinds only; else ``scandir`` (sorted (name, FileStat) pairs from one directory read),
        ``scan_kinds``, or the protocol's listdir."""
        fs = self.fs
        try:
            if self._open_scan is not None and e.depth < HANDLE_DEPTH:
                handle = self._open_scan(e.vpath, parent, e.name)
                if handle is not None:
                    try:
                        if self.needs_stat:  # in readdir order: GNU's (see _listing)
                            return [(n, st, None) for n, st in handle.scan_stats(False)], handle
                        return [(n, None, k) for n, k in handle.scan(False)], handle
                    except BaseException:
                        handle.close()
                        raise
            if not self.needs_stat:
                if self._scan_kinds is not None:
                    return [(n, None, k) for n, k in self._scan_kinds(e.vpath)], None
            if self._scandir is not None:
                return [(n, st, None) for n, st in self._scandir(e.vpath)], None
            return [(n, None, None) for n in fs.listdir(e.vpath)], None
        except FSError as exc:
            self.error(f"{quote(e.path)}: {exc}")
            return [], None

    def walk(self, start: str, expr: P.Node) -> None:
        """Visit ``start`` and everything below it (iteratively: one stack frame per open
        directory, files evaluated as their directory's listing is read)."""
        o = self.options
        fs = self.fs
        try:
            vpath = self.ctx.path(start)
            st = fs.lstat(vpath)  # -P: a start point that is a link is listed, not followed
            if st.kind == LINK and o.follow in ("H", "L"):
                try:  # -H/-L: a start point that is a link counts as what it names
                    st, vpath = stat_through(self.ctx, start)
                except FSError as exc:
                    if exc.errno == errno.ELOOP:
                        raise
                    # dangling: the link itself, as GNU's
            if start.endswith("/") and st.kind not in (DIR, LINK):
                raise FSError(errno.ENOTDIR, vpath)  # the kernel refuses ``file/``
        except FSError as exc:
            self.error(f"{quote(start)}: {exc}")
            return
        self._scandir = getattr(fs, "scandir", None)
        self._scan_kinds = getattr(fs, "scan_kinds", None)
        self._open_scan = getattr(fs, "open_scan", None)
        test = self.compile(expr)
        check = self.ctx.budget.check_time
        depth_first, mindepth = o.depth, o.mindepth
        maxdepth = o.maxdepth if o.maxdepth is not None else 1 << 62
        root = Entry(start, vpath, 0, start, base_name(start), st)
        if not depth_first and mindepth <= 0:
            test(root)
        if not root.is_dir(fs) or maxdepth <= 0 or (root.pruned and not depth_first):
            if depth_first and mindepth <= 0:
                test(root)
            return
        # stack items: (directory entry, path prefixes, iterator over its listing, handle)
        stack: list = []

        def push(d: Entry, parent: object) -> None:
            check()
            found, handle = self._listing(d, parent)
            prefix = d.path if d.path.endswith("/") else d.path + "/"
            vprefix = d.vpath.rstrip("/") + "/"
            stack.append((d, prefix, vprefix, iter(found), handle))

        try:
            push(root, None)
            count = 0
            while stack:
                d, prefix, vprefix, it, handle = stack[-1]
                depth = d.depth + 1
                for name, cst, kind in it:
                    count += 1
                    if not count & 255:
                        check()
                    e = Entry(prefix + name, vprefix + name, depth, start, name, cst, kind)
                    if e.kind is None:
                        try:
                            e.stat(fs)
                        except FSError as exc:
                            self.error(f"{quote(e.path)}: {exc}")
                            continue
                    if e.kind == LINK and o.follow == "L" and not self._as_named(e):
                        continue
                    if not depth_first and depth >= mindepth:
                        test(e)
                    if (e.kind == DIR and depth < maxdepth and (depth_first or not e.pruned)
                            and not e.linked):
                        push(e, handle)
                        break
                    if depth_first and depth >= mindepth:
                        test(e)
                else:
                    stack.pop()
                    if handle is not None:
                        handle.close()
                    if depth_first and d.depth >= mindepth:
                        test(d)
        finally:
            for item in stack:
                if item[4] is not None:
                    item[4].close()
