"""find's walk and the evaluation of its expression (GNU findutils 4.9 semantics).

Entries are visited in the order the virtual filesystem lists them (sorted names; GNU uses
readdir order, so tests compare GNU's output sorted where order is the host's). ``-depth``
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
from sandbox.commands.find.printf import compile_format, render
from sandbox.fs.base import FileStat, FSError

#: GNU's command-line size for ``-exec ... +`` batches.
EXEC_BATCH = 131072 - 2048


class Quit(Exception):
    """``-quit``."""


class Entry:
    """One visited file: its path as printed, its virtual path, depth and (lazy) stat."""

    __slots__ = ("path", "vpath", "depth", "start", "name", "_stat", "pruned")

    def __init__(self, path: str, vpath: str, depth: int, start: str, name: str,
                 st: FileStat | None = None):
        self.path = path
        self.vpath = vpath
        self.depth = depth
        self.start = start
        self.name = name
        self._stat = st
        self.pruned = False

    def stat(self, fs) -> FileStat:  # type: ignore[no-untyped-def]
        if self._stat is None:
            self._stat = fs.stat(self.vpath)
        return self._stat


def _compare(cmp: str, value: float, n: float) -> bool:
    return value > n if cmp == "gt" else value < n if cmp == "lt" else value == n


def base_name(path: str) -> str:
    """What ``-name`` matches: the last component (``/`` for the root)."""
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else ""
    return stripped.rsplit("/", 1)[-1]


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
            return lambda e: ("d" if e.stat(fs).is_dir else "f") in kinds
        if name == "-size":
            cmp, n, unit = P.parse_size(args[0])
            return lambda e: _compare(cmp, -(-e.stat(fs).size // unit), n)
        if name == "-empty":
            def empty(e: Entry) -> bool:
                st = e.stat(fs)
                if st.is_dir:
                    return not fs.listdir(e.vpath)
                return st.size == 0
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
        if name in ("-nouser", "-nogroup", "-lname", "-ilname", "-used"):
            if name == "-used":
                P.parse_number(args[0], name)
            return lambda e: False  # virtual owners always exist; no symbolic links
        if name == "-readable":
            return lambda e: True
        if name == "-writable":
            policy = self.ctx.policy
            return lambda e: not policy.read_only and not policy.is_protected(e.vpath)
        if name == "-executable":
            return lambda e: e.stat(fs).is_dir or bool(e.stat(fs).mode & 0o111)
        if name == "-samefile":
            try:
                target = self.ctx.path(args[0])
                self.fs.stat(target)
            except FSError as exc:
                raise P.FindError(f"{quote(args[0])}: {exc}") from None
            return lambda e: e.vpath == target
        if name in ("-print", "-print0"):
            end = b"\n" if name == "-print" else b"\0"
            def print_(e: Entry) -> bool:
                self.emit(e.path.encode("utf-8", "surrogateescape") + end)
                return True
            return print_
        if name == "-printf":
            pieces = compile_format(self.ctx, args[0])
            def printf(e: Entry) -> bool:
                self.emit(render(self, pieces, e))
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

    def _ls(self, e: Entry) -> bool:
        st = e.stat(self.fs)
        from sandbox.commands.find.printf import mode_string
        blocks = -(-st.size // 4096) * 4
        mtime = st.mtime
        if self.now - 6 * 30.436875 * 86400 < mtime <= self.now + 3600:
            date = time.strftime("%b %e %H:%M", time.gmtime(mtime))
        else:
            date = time.strftime("%b %e  %Y", time.gmtime(mtime))
        line = (f"{0:9d} {blocks:6d} {mode_string(st)} {st.nlink:3d} {_identity.USER:<8s} "
                f"{_identity.GROUP:<8s} {st.size:8d} {date} {e.path}\n")
        self.emit(line.encode("utf-8", "surrogateescape"))
        return True

    def _delete(self, e: Entry) -> bool:
        if e.path == "." or e.path.rstrip("/") in (".", ""):
            return True
        try:
            if e.stat(self.fs).is_dir:
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
        k = node.kind
        if k == "pred":
            assert node.fn is not None
            return node.fn(e)
        if k == "and":
            return self.evaluate(node.left, e) and self.evaluate(node.right, e)  # type: ignore[arg-type]
        if k == "or":
            return self.evaluate(node.left, e) or self.evaluate(node.right, e)  # type: ignore[arg-type]
        if k == "not":
            return not self.evaluate(node.left, e)  # type: ignore[arg-type]
        if k == "comma":
            self.evaluate(node.left, e)  # type: ignore[arg-type]
            return self.evaluate(node.right, e)  # type: ignore[arg-type]
        return True

    def walk(self, start: str, expr: P.Node) -> None:
        """Visit ``start`` and everything below it."""
        o = self.options
        try:
            vpath = self.ctx.path(start)
            st = self.fs.stat(vpath)
        except FSError as exc:
            self.error(f"{quote(start)}: {exc}")
            return
        root = Entry(start, vpath, 0, start, base_name(start), st)
        # A filesystem may offer ``scandir(path)`` -> sorted (name, FileStat) pairs (one
        # directory read instead of a stat per entry); the protocol's listdir+stat otherwise.
        scandir = getattr(self.fs, "scandir", None)
        # stack items: (entry, children_done)
        stack: list[tuple[Entry, bool]] = [(root, False)]
        while stack:
            e, done = stack.pop()
            if done:
                if e.depth >= o.mindepth:
                    self.evaluate(expr, e)
                continue
            self.ctx.budget.check_time()
            try:
                is_dir = e.stat(self.fs).is_dir
            except FSError as exc:
                self.error(f"{quote(e.path)}: {exc}")
                continue
            if not o.depth and e.depth >= o.mindepth:
                self.evaluate(expr, e)
            descend = is_dir and (o.maxdepth is None or e.depth < o.maxdepth) and (
                o.depth or not e.pruned)
            if o.depth:
                stack.append((e, True))
            if not descend:
                continue
            try:
                if scandir is not None:  # (name, FileStat) pairs: no stat per entry
                    found = list(scandir(e.vpath))
                else:
                    found = [(n, None) for n in self.fs.listdir(e.vpath)]
            except FSError as exc:
                self.error(f"{quote(e.path)}: {exc}")
                continue
            prefix = e.path if e.path.endswith("/") else e.path + "/"
            vprefix = e.vpath.rstrip("/") + "/"
            for name, st in reversed(found):
                stack.append((Entry(prefix + name, vprefix + name, e.depth + 1, e.start, name,
                                    st), False))
