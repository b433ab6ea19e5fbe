"""``tree``: list a directory tree as tree 2.1 does in a UTF-8 locale.

Options: ``-a`` (hidden names too), ``-d`` (directories only), ``-L LEVEL``, ``-f`` (full
paths), ``-i`` (no indentation lines), ``-F`` (``/`` after directories, ``*`` after
executables), ``-I PATTERN`` (leave out matching names), ``-P PATTERN`` (list only files that
match; directories are kept), ``-t`` (oldest first), ``-r``, ``--dirsfirst``, ``--filesfirst``,
``-n`` (no colour), ``-C`` (colour when ``TERM`` is set: ``LS_COLORS``'s ``di``/``ex``/``fi``,
or without it tree's defaults: directories ``01;34``, executables ``01;32``, other files ``00``), ``--noreport``, ``--prune`` (leave out
directories that end up empty), ``--``. The ``[...]`` information before a name, in tree's
order: ``-p`` (mode), ``-u``/``-g`` (owner, group: ``%-8s``), ``-s`` (size, ``%11d``), ``-h``/``--si``
(size as tree's ``psize``: ``%4d`` below a unit, else one decimal below 10 units), ``-D``
(mtime, ``%b %e %H:%M`` within six months past, else ``%b %e  %Y``; ``--timefmt FMT`` /
``--timefmt=FMT`` sets the format and implies ``-D``), ``--du`` (a directory's size is its own
plus what is listed below it; implies ``-s``; the report adds the sizes of every listed entry,
nested ones again, as tree 2.1 does). Patterns are tree's own
wildcards, matched byte by byte against the name: ``*``, ``?``, ``[...]`` (``^`` negates),
``\\`` escapes, ``|`` separates alternatives; each ``-I``/``-P`` adds alternatives.

As tree 2.1: option arguments are the next word (``-L 2``, never ``-L2``), the level is read
like ``strtoul`` (``2x`` is 2), names sort bytewise, the summary counts a top directory that lists anything,
a trailing ``/`` of an operand stays (``-f`` drops it), ``-F`` marks nothing with ``-d``,
a name with an unprintable character shows it as ``\\ooo`` (of the code point; when the name is
not valid UTF-8, of every non-ASCII byte, with C escapes and ``\\ `` for a space), an operand that is not a directory prints
``NAME  [error opening dir]`` (a missing one also makes the status 2). Other tree options are
refused with tree's ``Invalid argument`` message and usage (exit 1). Walks call the budget.
"""

from __future__ import annotations

import re
import time
from datetime import timezone

from sandbox.commands import _wcwidth
from sandbox.commands._identity import GROUP, USER
from sandbox.commands.base import CommandContext
from sandbox.commands.date import Moment, strftime
from sandbox.commands.ls.layout import format_date
from sandbox.fs.base import FileStat, FSError
from sandbox.fs.paths import normalize

USAGE = """usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]
\t[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]
\t[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]
\t[--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] [--device]
\t[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]
\t[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile]
\t[--fflinks] [--info] [--infofile[=]file] [--noreport] [--version]
\t[--help] [--] [directory ...]
"""
VERSION = "tree v2.1.0 \u00a9 1996 - 2022 by Steve Baker, Thomas Moore, Francesc Rocher, Florian Sesser, Kyosuke Tokoro\n"
BRANCH, LAST, PIPE, SPACE = "\u251c\u2500\u2500 ", "\u2514\u2500\u2500 ", "\u2502\u00a0\u00a0 ", "    "


class TreeExit(Exception):
    """Stop with ``status`` after ``message`` on stderr (and the usage when asked)."""

    def __init__(self, message: str, status: int = 1, usage: bool = False):
        super().__init__(message)
        self.status = status
        self.usage = usage


def psize(size: int, human: bool, si: bool) -> str:
    """tree 2.1's ``psize`` (with its leading space)."""
    if not (human or si):
        return " %11d" % size
    unit, step = ("dkMGTPEZY", 1000) if si else ("BKMGTPEZY", 1024)
    idx = 0 if size < step else 1
    while size >= step * step:
        idx += 1
        size //= step
    if not idx:
        return " %4d" % size
    return (" %3.0f%c" if size // step >= 10 else " %3.1f%c") % (size / step, unit[idx])


def mode_string(st: FileStat) -> str:
    """``drwxr-xr-x`` of a stat."""
    chars = ["d" if st.is_dir else "-"]
    for shift in (6, 3, 0):
        bits = (st.mode >> shift) & 7
        chars += ["r" if bits & 4 else "-", "w" if bits & 2 else "-", "x" if bits & 1 else "-"]
    return "".join(chars)


def _strtoul(text: str) -> int:
    """C ``strtoul(text, NULL, 0)`` (sign, 0x, leading 0 octal; junk ends the number)."""
    m = re.match(r"\s*([-+]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)?", text)
    if not m or not m.group(2):
        return 0
    digits = m.group(2)
    value = int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 8) if digits.startswith("0") else int(digits)
    value = min(value, (1 << 64) - 1)
    return (-value) % (1 << 64) if m.group(1) == "-" else value


def _c_int(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def compile_pattern(pattern: str) -> "re.Pattern[bytes]":
    """tree's ``patmatch`` wildcards (see the module docstring) as an anchored bytes regex."""
    alternatives = []
    for alt in pattern.encode("utf-8", "surrogateescape").split(b"|"):
        out = []
        i = 0
        while i < len(alt):
            c = alt[i:i + 1]
            if c == b"*":
                out.append(b".*")
            elif c == b"?":
                out.append(b".")
            elif c == b"\\" and i + 1 < len(alt):
                i += 1
                out.append(re.escape(alt[i:i + 1]))
            elif c == b"[":
                j = alt.find(b"]", i + 2 if alt[i + 1:i + 2] in (b"^", b"]") else i + 1)
                if j < 0:
                    out.append(re.escape(c))
                else:
                    body = alt[i + 1:j]
                    negate = body.startswith(b"^")
                    if negate:
                        body = body[1:]
                    members = b"".join(b"\\" + bytes([b]) if b in b"\\^[]" else bytes([b]) for b in body)
                    out.append(b"[" + (b"^" if negate else b"") + members + b"]")
                    i = j
            else:
                out.append(re.escape(c))
            i += 1
        alternatives.append(b"".join(out))
    return re.compile(b"(?:" + b"|".join(alternatives) + b")\\Z", re.S)


_NAMED = {7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r"}


def printable(name: str) -> str:
    """tree's ``printit``: unprintable characters as ``\\ooo``."""
    data = name.encode("utf-8", "surrogateescape")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # tree's byte-wise fallback: C escapes, "\\ " for a space
        return "".join("\\ " if b == 0x20 else "\\" + _NAMED[b] if b in _NAMED else chr(b) if 0x20 < b < 0x7F
                       else "\\%03o" % b for b in data)
    return "".join(ch if _wcwidth.is_printable(ord(ch)) else "\\%03o" % ord(ch) for ch in text)


class _Tree:
    def __init__(self, ctx: CommandContext):
        self.ctx = ctx
        self.all = self.dirs_only = self.full = self.no_indent = self.classify = False
        self.dirs_first = self.files_first = self.noreport = False
        self.reverse = self.by_time = False
        self.perms = self.owner = self.group = self.sizes = self.human = self.si = False
        self.dates = self.du = self.prune = self.color = False
        self.timefmt: str | None = None
        self.colors: dict[str, str] | None = None
        self.now = 0.0
        self.level = -1  # tree's Level: deepest level shown below the top is level + 1
        self.include: list[str] = []
        self.exclude: list[str] = []
        self.operands: list[str] = []
        self.dirs = self.files = 0
        self.used = 0  # --du's report: the sizes of every listed entry added up
        self.out: list[str] = []

    def parse(self, args: list[str]) -> None:
        """tree 2.1's own argument loop."""
        options = True
        n = 0
        while n < len(args):
            arg = args[n]
            n += 1
            if not (options and arg.startswith("-") and len(arg) > 1):
                self.operands.append(arg)
                continue
            if arg.startswith("--"):
                if arg == "--":
                    options = False
                elif arg == "--dirsfirst":
                    self.dirs_first = True
                elif arg == "--filesfirst":
                    self.files_first = True
                elif arg == "--noreport":
                    self.noreport = True
                elif arg == "--du":
                    self.du = self.sizes = True
                elif arg == "--si":
                    self.si = self.sizes = True
                elif arg == "--prune":
                    self.prune = True
                elif arg == "--timefmt" or arg.startswith("--timefmt="):
                    if arg == "--timefmt":
                        if n >= len(args):
                            raise TreeExit("tree: Missing argument to --timefmt")
                        value = args[n]
                        n += 1
                    else:
                        value = arg[len("--timefmt="):]
                    self.timefmt, self.dates = value, True
                elif arg == "--help":
                    raise TreeExit("", 0)
                elif arg == "--version":
                    raise TreeExit("", -1)
                else:
                    raise TreeExit(f"tree: Invalid argument `{arg}'.", 1, usage=True)
                continue
            for letter in arg[1:]:
                if letter in "LPI":
                    if n >= len(args):
                        raise TreeExit(f"tree: Missing argument to -{letter} option.")
                    value = args[n]
                    n += 1
                    if letter == "L":
                        self.level = _c_int(_strtoul(value) - 1)
                        if self.level < 0:
                            raise TreeExit("tree: Invalid level, must be greater than 0.")
                    else:
                        (self.include if letter == "P" else self.exclude).append(value)
                elif letter in "adfiFrt":
                    attr = {"a": "all", "d": "dirs_only", "f": "full", "i": "no_indent", "F": "classify",
                            "r": "reverse", "t": "by_time"}[letter]
                    setattr(self, attr, True)
                elif letter == "n":
                    pass  # no colour: the default; -C wins over it wherever it stands
                elif letter == "C":
                    self.color = True
                elif letter in "pugshD":
                    attr = {"p": "perms", "u": "owner", "g": "group", "s": "sizes", "h": "human",
                            "D": "dates"}[letter]
                    setattr(self, attr, True)
                    if letter == "h":
                        self.sizes = True
                else:
                    raise TreeExit(f"tree: Invalid argument -`{letter}'.", 1, usage=True)

    def info(self, st: FileStat, size: int) -> str:
        """The ``[...]  `` before a name (empty without an information option)."""
        fields = ""
        if self.perms:
            fields += " " + mode_string(st)
        if self.owner:
            fields += " %-8s" % USER
        if self.group:
            fields += " %-8s" % GROUP
        if self.sizes:
            fields += psize(size, self.human, self.si)
        if self.dates:
            if self.timefmt is not None:
                seconds = int(st.mtime // 1)
                fields += " " + strftime(self.timefmt, Moment(seconds, int((st.mtime - seconds) * 1e9),
                                                             timezone.utc, "UTC"))
            else:
                fields += " " + format_date(st.mtime, self.now, ("%b %e  %Y", "%b %e %H:%M"))
        return "[" + fields[1:] + "]  " if fields else ""

    def paint(self, text: str, st: FileStat) -> str:
        """``text`` in tree's default colours under ``-C``."""
        if not self.color or "TERM" not in self.ctx.env:  # tree 2.1: no TERM, no colour
            return text
        if self.colors is None:
            given = self.ctx.env.get("LS_COLORS")
            self.colors = {"di": "01;34", "ex": "01;32", "fi": "00"} if given is None else dict(
                item.split("=", 1) for item in given.split(":") if "=" in item)
        code = self.colors.get("di" if st.is_dir else "ex" if st.mode & 0o111 else "fi")
        return f"\033[{code}m{text}\033[0m" if code else text

    def run(self) -> int:
        self.now = time.time()
        include = compile_pattern("|".join(self.include)) if self.include else None
        exclude = compile_pattern("|".join(self.exclude)) if self.exclude else None
        status = 0
        for operand in self.operands or ["."]:
            try:
                vpath = self.ctx.path(operand)
                st = self.ctx.fs.stat(vpath)
            except FSError:
                self.out.append(printable(operand) + "  [error opening dir]\n")
                status = 2
                continue
            if not st.is_dir:
                self.out.append(printable(operand) + "  [error opening dir]\n")
                self.files += 1
                continue
            top = operand
            if self.full:
                while len(top) > 1 and top.endswith("/"):
                    top = top[:-1]
            head = len(self.out)
            self.out.append("")
            listed, size = self.walk(vpath, top, 0, "", include, exclude)
            total = st.size + size if self.du else st.size
            self.out[head] = (self.info(st, total) + self.paint(printable(top), st)
                              + ("/" if self.classify and not self.dirs_only else "") + "\n")
            if listed:
                self.dirs += 1  # tree 2.1 counts a top directory only when it lists something
        if not self.noreport:
            report = f"{self.dirs} director{'y' if self.dirs == 1 else 'ies'}"
            if self.du:
                used = psize(self.used, self.human, self.si)
                report = f"{used}{'' if self.human or self.si else ' bytes'} used in {report}"
            if not self.dirs_only:
                report += f", {self.files} file{'' if self.files == 1 else 's'}"
            self.out.append("\n" + report + "\n")
        self.ctx.stdout.write("".join(self.out).encode("utf-8", "surrogateescape"))
        return status

    def walk(self, vpath: str, shown: str, depth: int, prefix: str,
             include: "re.Pattern[bytes] | None", exclude: "re.Pattern[bytes] | None") -> tuple[bool, int]:
        """Print the entries of ``vpath``; (whether there was any, what they add up to for
        ``--du``)."""
        self.ctx.budget.check_time()
        try:
            names = self.ctx.fs.listdir(vpath)
        except FSError:
            return False, 0
        entries = []
        for name in names:
            if name.startswith(".") and not self.all:
                continue
            key = name.encode("utf-8", "surrogateescape")
            child = normalize(name, vpath)
            try:
                st = self.ctx.fs.stat(child)
            except FSError:
                continue
            if exclude is not None and exclude.match(key):
                continue
            if not st.is_dir and (self.dirs_only or include is not None and not include.match(key)):
                continue
            entries.append((key, name, child, st))
        entries.sort(key=(lambda e: (e[3].mtime, e[0])) if self.by_time else (lambda e: e[0]))
        if self.reverse:
            entries.reverse()
        if self.dirs_first:
            entries.sort(key=lambda e: not e[3].is_dir)
        elif self.files_first:
            entries.sort(key=lambda e: e[3].is_dir)
        if self.prune:
            entries = [e for e in entries if not e[3].is_dir or self._keeps(e[2], depth + 1, include, exclude)]
        total = 0
        for i, (_, name, child, st) in enumerate(entries):
            last = i == len(entries) - 1
            path = (shown.rstrip("/") if shown != "/" else "") + "/" + name if self.full else name
            mark = ("" if self.dirs_only else "/" if st.is_dir else "*" if st.mode & 0o111 else "") \
                if self.classify else ""
            lead = "" if self.no_indent else prefix + (LAST if last else BRANCH)
            line = len(self.out)
            self.out.append("")
            size = st.size
            if st.is_dir:
                self.dirs += 1
                if self.level < 0 or depth < self.level:
                    _, below = self.walk(child, path if self.full else shown + "/" + name, depth + 1,
                                         prefix + (SPACE if last else PIPE), include, exclude)
                    if self.du:
                        size += below
            else:
                self.files += 1
            self.out[line] = lead + self.info(st, size) + self.paint(printable(path), st) + mark + "\n"
            self.used += size
            total += size
        return bool(entries), total

    def _keeps(self, vpath: str, depth: int, include: "re.Pattern[bytes] | None",
               exclude: "re.Pattern[bytes] | None") -> bool:
        """``--prune``: True if the directory ``vpath`` would list a file (at any depth shown)."""
        if self.dirs_only:  # tree 2.1 keeps every directory under -d
            return True
        if self.level >= 0 and depth > self.level:
            return False
        try:
            names = self.ctx.fs.listdir(vpath)
        except FSError:
            return False
        for name in names:
            if name.startswith(".") and not self.all:
                continue
            key = name.encode("utf-8", "surrogateescape")
            if exclude is not None and exclude.match(key):
                continue
            child = normalize(name, vpath)
            try:
                st = self.ctx.fs.stat(child)
            except FSError:
                continue
            if st.is_dir:
                if self._keeps(child, depth + 1, include, exclude):
                    return True
            elif not self.dirs_only and (include is None or include.match(key)):
                return True
        return False


def run(ctx: CommandContext) -> int:
    """Run ``tree``."""
    tree = _Tree(ctx)
    try:
        tree.parse(ctx.args)
    except TreeExit as stop:
        if stop.status == 0:
            ctx.stdout.write(USAGE.encode())
        elif stop.status == -1:
            ctx.stdout.write(VERSION.encode())
            return 0
        else:
            ctx.stderr.write((str(stop) + "\n").encode("utf-8", "surrogateescape"))
            if stop.usage:
                ctx.stderr.write(USAGE.encode())
        return max(stop.status, 0)
    return tree.run()
