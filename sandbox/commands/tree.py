"""``tree``: list a directory tree as tree 2.1 does in a UTF-8 locale.

Options: ``-a`` (hidden names too), ``-d`` (directories only), ``-L LEVEL``, ``-f`` (full
paths), ``-i`` (no indentation lines), ``-F`` (``/`` after directories, ``*`` after
executables), ``-I PATTERN`` (leave out matching names), ``-P PATTERN`` (list only files that
match; directories are kept), ``-t`` (oldest first, whole seconds, then by name; ``-c`` too:
the jail keeps one time), ``-r``, ``--dirsfirst``, ``--filesfirst``,
``-n`` (no colour), ``-C`` (colour when ``TERM`` is set: ``LS_COLORS``'s ``di``/``ex``/``fi``,
or without it tree's defaults: directories ``01;34``, executables ``01;32``, other files ``00``), ``--noreport``, ``--prune`` (leave out
directories that end up empty), ``--``. The ``[...]`` information before a name, in tree's
order: ``-p`` (mode), ``-u``/``-g`` (owner, group: ``%-8s``), ``-s`` (size, ``%11d``), ``-h``/``--si``
(size as tree's ``psize``: ``%4d`` below a unit, else one decimal below 10 units), ``-D``
(mtime, ``%b %e %H:%M`` within six months past, else ``%b %e  %Y``; ``--timefmt FMT`` /
``--timefmt=FMT`` sets the format and implies ``-D``), ``--du`` (a directory's size is its own
plus what is listed below it; implies ``-s``; the report adds the sizes of every listed entry,
nested ones again, as tree 2.1 does). Order: ``-v``/``--sort=version``, ``--sort=size`` (largest
first), ``--sort=mtime`` (oldest first; ``ctime`` too: the jail keeps one time), ``-U`` (the
host's directory order); ``--charset ascii`` draws ``|--``; ``-Q`` quotes names, ``-N`` prints
them raw; ``--filelimit N`` leaves a directory of more than N shown entries unopened; ``-J``
writes tree 2.1's JSON (an operand that is not a directory is refused there: tree's JSON for
it is malformed), ``-X`` its XML (a missing operand refused likewise; the last of the two
wins); ``-o FILE`` writes the output there (created first, so it is listed);
``-x``, ``-l`` change nothing (one file system, no links). Patterns are tree's own
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

import functools
import json
import re
import time
from datetime import timezone

from sandbox.commands import _wcwidth
from sandbox.commands._identity import GROUP, USER
from sandbox.commands.base import CommandContext
from sandbox.commands.date import Moment, strftime
from sandbox.commands.ls.layout import format_date
from sandbox.commands._dirorder import in_directory_order
from sandbox.commands._writing import stat_operand
from sandbox.commands.sort import filevercmp
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

    def __init__(self, message: str, status: int = 1, usage: bool = False, quiet: bool = False):
        super().__init__(message)
        self.status = status
        self.usage = usage
        self.quiet = quiet  # the message is already written


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


def _xml_text(text: str) -> str:
    """A name as tree 2.1's ``-X`` writes it: ``& < > "`` as entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _json_string(text: str) -> str:
    """A name as tree's JSON writes it (``"`` and ``\\`` escaped, control characters as ``\\uXXXX``)."""
    return json.dumps(text, ensure_ascii=False)


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
        self.sort_by = "name"  # name version size mtime none (-U)
        self.ascii = self.quote = self.raw = self.json = self.xml = False
        self.filelimit = 0
        self.timefmt: str | None = None
        self.colors: dict[str, str] | None = None
        self.output: str | None = None  # -o FILE
        self.now = 0.0
        self.level = -1  # tree's Level: deepest level shown below the top is level + 1
        self.include: list[str] = []
        self.exclude: list[str] = []
        self.operands: list[str] = []
        self.dirs = self.files = 0
        self.over = 0  # --filelimit: the entry count of the directory walk() just left unopened
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
                elif arg.split("=", 1)[0] in ("--sort", "--charset", "--filelimit"):
                    name, eq, value = arg.partition("=")
                    if not eq:
                        if n >= len(args):
                            raise TreeExit(f"tree: Missing argument to {name}")
                        value = args[n]
                        n += 1
                    if name == "--charset":
                        self.ascii = value.lower() in ("ascii", "us-ascii", "ansi_x3.4-1968")
                    elif name == "--filelimit":
                        self.filelimit = _c_int(_strtoul(value))
                    else:
                        kinds = {"name": "name", "version": "version", "size": "size", "mtime": "mtime",
                                 "ctime": "mtime"}
                        if value not in kinds:
                            self.ctx.stderr.write(f"tree: Sort type '{value}' not valid, should be one of: "
                                                  .encode("utf-8", "surrogateescape"))
                            self.ctx.stdout.write(b"name,version,size,mtime,ctime\n")
                            raise TreeExit("", 1, quiet=True)
                        self.sort_by = kinds[value]
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
                if letter in "LPIo":
                    if n >= len(args):
                        raise TreeExit(f"tree: Missing argument to -{letter} option.")
                    value = args[n]
                    n += 1
                    if letter == "o":
                        self.output = value
                    elif letter == "L":
                        self.level = _c_int(_strtoul(value) - 1)
                        if self.level < 0:
                            raise TreeExit("tree: Invalid level, must be greater than 0.")
                    else:
                        (self.include if letter == "P" else self.exclude).append(value)
                elif letter in "adfiFrtc":  # (-c: by status change time, the jail's one time)
                    attr = {"a": "all", "d": "dirs_only", "f": "full", "i": "no_indent", "F": "classify",
                            "r": "reverse", "t": "by_time", "c": "by_time"}[letter]
                    setattr(self, attr, True)
                elif letter == "n":
                    pass  # no colour: the default; -C wins over it wherever it stands
                elif letter == "C":
                    self.color = True
                elif letter in "xl":
                    pass  # one file system, no symbolic links: nothing to do
                elif letter in "vUQNJX":
                    if letter == "v":
                        self.sort_by = "version"
                    elif letter == "U":
                        self.sort_by = "none"
                    elif letter in "JX":  # the last of -J and -X wins
                        self.json, self.xml = letter == "J", letter == "X"
                    else:
                        setattr(self, {"Q": "quote", "N": "raw"}[letter], True)
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
        if not self.open_output():
            return 1
        if self.json:
            return self.run_json(include, exclude)
        if self.xml:
            return self.run_xml(include, exclude)
        status = 0
        for operand in self.operands or ["."]:
            try:
                vpath = self.ctx.path(operand)
                st = stat_operand(self.ctx, operand)  # ``file/`` fails as a missing one
            except FSError:
                self.out.append(printable(operand) + "  [error opening dir]\n")
                status = 2
                continue
            if not st.is_dir:  # (with its information fields, never coloured or marked)
                self.out.append(self.info(st, st.size) + printable(operand) + "  [error opening dir]\n")
                self.files += 1
                self.used += st.size
                continue
            top = operand
            if self.full:
                while len(top) > 1 and top.endswith("/"):
                    top = top[:-1]
            head = len(self.out)
            self.out.append("")
            listed, size = self.walk(vpath, top, 0, "", include, exclude)
            total = st.size + size if self.du else st.size
            over = f"  [{self.over} entries exceeds filelimit, not opening dir]" if self.over else ""
            self.out[head] = (self.info(st, total) + self.paint(self.name_text(top), st)
                              + ("/" if self.classify and not self.dirs_only else "") + over + "\n")
            if listed:
                self.dirs += 1  # tree 2.1 counts a top directory only when it lists something
            else:  # and its own size in the --du total only when it lists nothing
                self.used += st.size
        if not self.noreport:
            report = f"{self.dirs} director{'y' if self.dirs == 1 else 'ies'}"
            if self.du:
                used = psize(self.used, self.human, self.si)
                report = f"{used}{'' if self.human or self.si else ' bytes'} used in {report}"
            if not self.dirs_only:
                report += f", {self.files} file{'' if self.files == 1 else 's'}"
            self.out.append("\n" + report + "\n")
        self.emit("".join(self.out).encode("utf-8", "surrogateescape"))
        return status

    def open_output(self) -> bool:
        """``-o FILE``: create it before the walk (as tree does, so it lists it); False after
        the error."""
        if self.output is None:
            return True
        try:
            self.ctx.write_bytes(self.output, b"")
        except FSError as e:
            self.ctx.stderr.write(f"tree: invalid filename '{self.output}'\n".encode("utf-8", "surrogateescape"))
            del e
            return False
        return True

    def emit(self, data: bytes) -> None:
        """The output, to stdout or the ``-o`` file."""
        if self.output is None:
            self.ctx.stdout.write(data)
        else:
            self.ctx.write_bytes(self.output, data)

    def entries(self, vpath: str, depth: int, include: "re.Pattern[bytes] | None",
                exclude: "re.Pattern[bytes] | None") -> list | None:
        """The shown entries of ``vpath`` as (key, name, virtual path, stat), filtered and in
        tree's order; None if it can't be read."""
        self.ctx.budget.check_time()
        try:
            names = self.ctx.fs.listdir(vpath)
        except FSError:
            return None
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
        how = "mtime" if self.by_time else self.sort_by
        if how == "none":
            entries = in_directory_order(self.ctx.fs, vpath, entries, key=lambda e: e[1])
        elif how == "version":
            entries.sort(key=functools.cmp_to_key(lambda a, b: filevercmp(a[0], b[0]) or (a[0] > b[0]) - (a[0] < b[0])))
        elif how == "size":
            entries.sort(key=lambda e: (-e[3].size, e[0]))
        elif how == "mtime":
            entries.sort(key=lambda e: (e[3].mtime // 1, e[0]))  # tree compares whole seconds
        else:
            entries.sort(key=lambda e: e[0])
        if self.reverse and how != "none":
            entries.reverse()
        if self.dirs_first:
            entries.sort(key=lambda e: not e[3].is_dir)
        elif self.files_first:
            entries.sort(key=lambda e: e[3].is_dir)
        if self.prune:
            entries = [e for e in entries if not e[3].is_dir or self._keeps(e[2], depth + 1, include, exclude)]
        return entries

    def name_text(self, path: str) -> str:
        """A name as tree prints it (``-N`` raw, ``-Q`` in double quotes)."""
        text = path if self.raw else printable(path)
        return f'"{text}"' if self.quote else text

    def walk(self, vpath: str, shown: str, depth: int, prefix: str,
             include: "re.Pattern[bytes] | None", exclude: "re.Pattern[bytes] | None") -> tuple[bool, int]:
        """Print the entries of ``vpath``; (whether there was any, what they add up to for
        ``--du``). ``self.over`` is set to the entry count where ``--filelimit`` stops."""
        self.over = 0
        entries = self.entries(vpath, depth, include, exclude)
        if entries is None:
            return False, 0
        if self.filelimit and len(entries) > self.filelimit:
            self.over = len(entries)
            return True, 0
        branch, last_branch, pipe = ("|-- ", "`-- ", "|   ") if self.ascii else (BRANCH, LAST, PIPE)
        total = 0
        for i, (_, name, child, st) in enumerate(entries):
            last = i == len(entries) - 1
            path = (shown.rstrip("/") if shown != "/" else "") + "/" + name if self.full else name
            mark = ("" if self.dirs_only else "/" if st.is_dir else "*" if st.mode & 0o111 else "") \
                if self.classify else ""
            lead = "" if self.no_indent else prefix + (last_branch if last else branch)
            line = len(self.out)
            self.out.append("")
            size = st.size
            over = 0
            if st.is_dir:
                self.dirs += 1
                if self.level < 0 or depth < self.level:
                    _, below = self.walk(child, path if self.full else shown + "/" + name, depth + 1,
                                         prefix + (SPACE if last else pipe), include, exclude)
                    over = self.over
                    if self.du:
                        size += below
            else:
                self.files += 1
            self.out[line] = (lead + self.info(st, size) + self.paint(self.name_text(path), st) + mark
                              + (f"  [{over} entries exceeds filelimit, not opening dir]" if over else "") + "\n")
            self.used += size
            total += size
        self.over = 0
        return bool(entries), total

    def json_info(self, st: FileStat, size: int) -> str:
        """The ``-J`` fields of the information options (tree 2.1's order)."""
        out = ""
        if self.perms:
            out += f',"mode":"{st.mode & 0o7777:04o}","prot":"{mode_string(st)}"'
        if self.owner:
            out += f',"user":"{USER}"'
        if self.group:
            out += f',"group":"{GROUP}"'
        if self.sizes:
            out += f',"size":"{psize(size, True, self.si).strip()}"' if self.human or self.si else f',"size":{size}'
        if self.dates:
            saved = (self.perms, self.owner, self.group, self.sizes)
            self.perms = self.owner = self.group = self.sizes = False
            out += ',"time":"' + self.info(st, 0)[1:-3] + '"'
            self.perms, self.owner, self.group, self.sizes = saved
        return out

    def walk_json(self, vpath: str, shown: str, depth: int, st: FileStat, indent: int,
                  include: "re.Pattern[bytes] | None", exclude: "re.Pattern[bytes] | None") -> tuple[str, int, bool]:
        """The ``-J`` text of the directory ``vpath`` (without a trailing newline), its size
        for ``--du``, and whether it listed anything."""
        pad = " " * indent
        head = f'{pad}{{"type":"directory","name":{_json_string(shown)}'
        entries = None
        if self.level < 0 or depth <= self.level:
            entries = self.entries(vpath, depth, include, exclude)
        size = st.size
        parts = []
        for _, name, child, cst in entries or []:
            path = (shown.rstrip("/") if shown != "/" else "") + "/" + name if self.full else name
            if cst.is_dir:
                self.dirs += 1
                text, below, _ = self.walk_json(child, path, depth + 1, cst, indent + 2, include, exclude)
                size += below if self.du else 0
                self.used += below
                parts.append(text)
            else:
                self.files += 1
                size += cst.size if self.du else 0
                self.used += cst.size
                parts.append(f'{pad}  {{"type":"file","name":{_json_string(path)}{self.json_info(cst, cst.size)}}}')
        head += self.json_info(st, size)
        if not parts:
            return head + "}", size if self.du else st.size, False
        return head + ',"contents":[\n' + ",\n".join(parts) + f"\n{pad}]}}", size if self.du else st.size, True

    def run_json(self, include: "re.Pattern[bytes] | None", exclude: "re.Pattern[bytes] | None") -> int:
        """``-J``: the tree as tree 2.1's JSON."""
        out = ["["]
        for operand in self.operands or ["."]:
            try:
                vpath = self.ctx.path(operand)
                st = self.ctx.fs.stat(vpath)
            except FSError:
                return self._plain_errors()
            if not st.is_dir:
                return self._plain_errors()
            text, _, listed = self.walk_json(vpath, operand, 0, st, 2, include, exclude)
            if len(out) > 1 and out[-1].endswith("]}"):
                out[-1] += ","  # tree 2.1 separates operands only after one that listed something
            out.append(text)
            if listed:
                self.dirs += 1
            else:  # (tree 2.1's --du total counts an operand's own size only when it is empty)
                self.used += st.size
        if self.noreport:
            out.append("\n]")
        else:
            report = '  {"type":"report"' + (f',"size":{self.used}' if self.du else "")
            report += f',"directories":{self.dirs}' + ("" if self.dirs_only else f',"files":{self.files}') + "}"
            out.append(",\n" + report + "\n]")
        self.emit(("\n".join(out[:-1]) + "\n" + out[-1] + "\n").encode("utf-8", "surrogateescape"))
        return 0

    def xml_info(self, st: FileStat, size: int) -> str:
        """The ``-X`` attributes of the information options (the ``-J`` fields; sizes in bytes
        even under ``-h``/``--si``)."""
        out = ""
        if self.perms:
            out += f' mode="{st.mode & 0o7777:04o}" prot="{mode_string(st)}"'
        if self.owner:
            out += f' user="{USER}"'
        if self.group:
            out += f' group="{GROUP}"'
        if self.sizes:
            out += f' size="{size}"'
        if self.dates:
            saved = (self.perms, self.owner, self.group, self.sizes)
            self.perms = self.owner = self.group = self.sizes = False
            out += ' time="' + _xml_text(self.info(st, 0)[1:-3]) + '"'
            self.perms, self.owner, self.group, self.sizes = saved
        return out

    def walk_xml(self, vpath: str, shown: str, depth: int, st: FileStat, indent: int,
                 include: "re.Pattern[bytes] | None", exclude: "re.Pattern[bytes] | None") -> tuple[list[str], int, bool]:
        """The ``-X`` lines of the directory ``vpath``, its size for ``--du``, and whether it
        listed anything (``walk_json``'s counting)."""
        pad = " " * indent
        entries = None
        if self.level < 0 or depth <= self.level:
            entries = self.entries(vpath, depth, include, exclude)
        size = st.size
        parts: list[str] = []
        for _, name, child, cst in entries or []:
            path = (shown.rstrip("/") if shown != "/" else "") + "/" + name if self.full else name
            if cst.is_dir:
                self.dirs += 1
                lines, below, _ = self.walk_xml(child, path, depth + 1, cst, indent + 2, include, exclude)
                size += below if self.du else 0
                self.used += below
                parts += lines
            else:
                self.files += 1
                size += cst.size if self.du else 0
                self.used += cst.size
                parts.append(f'{pad}  <file name="{_xml_text(path)}"{self.xml_info(cst, cst.size)}></file>')
        head = f'{pad}<directory name="{_xml_text(shown)}"{self.xml_info(st, size)}>'
        total = size if self.du else st.size
        if not parts and depth > 0:
            return [head + "</directory>"], total, False
        return [head, *parts, f"{pad}</directory>"], total, bool(parts)

    def run_xml(self, include: "re.Pattern[bytes] | None", exclude: "re.Pattern[bytes] | None") -> int:
        """``-X``: the tree as tree 2.1's XML."""
        out = ['<?xml version="1.0" encoding="UTF-8"?>', "<tree>"]
        for operand in self.operands or ["."]:
            try:
                vpath = self.ctx.path(operand)
                st = self.ctx.fs.stat(vpath)
            except FSError:
                return self._plain_errors("-X")
            if not st.is_dir:
                self.files += 1
                self.used += st.size
                out += [f'  <file name="{_xml_text(operand)}"{self.xml_info(st, st.size)}>'
                        "<error>error opening dir</error>", "  </file>"]
                continue
            lines, _, listed = self.walk_xml(vpath, operand, 0, st, 2, include, exclude)
            out += lines
            if listed:
                self.dirs += 1
            else:  # (as -J: an empty operand's own size joins the --du total)
                self.used += st.size
        if not self.noreport:
            out += ["  <report>", *([f"    <size>{self.used}</size>"] if self.du else []),
                    f"    <directories>{self.dirs}</directories>",
                    *([] if self.dirs_only else [f"    <files>{self.files}</files>"]), "  </report>"]
        out.append("</tree>")
        if self.no_indent:  # -i: no indentation and only the newlines tree always writes
            text = ""
            for line in out:
                line = line.lstrip(" ")
                hard = (line.startswith("<directory") and not line.endswith("</directory>")) \
                    or line.endswith("</error>")
                text += line + ("\n" if hard else "")
            self.emit((text + "\n").encode("utf-8", "surrogateescape"))
            return 0
        self.emit(("\n".join(out) + "\n").encode("utf-8", "surrogateescape"))
        return 0

    def _plain_errors(self, option: str = "-J") -> int:
        """A ``-J`` run over a missing or non-directory operand: tree 2.1's JSON for it is
        malformed; refused instead."""
        self.ctx.error(f"{option} with an operand that is not a directory is not supported in the sandbox")
        return 1

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


def writes(args: list[str]) -> list[str]:
    """The file ``-o FILE`` writes (the word after a cluster holding ``o``, as tree reads it)."""
    out = []
    n = 0
    while n < len(args):
        arg = args[n]
        n += 1
        if arg == "--":
            break
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            for letter in arg[1:]:
                if letter in "LPIo" and n < len(args):
                    if letter == "o":
                        out.append(args[n])
                    n += 1
    return out


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
        elif not stop.quiet:
            ctx.stderr.write((str(stop) + "\n").encode("utf-8", "surrogateescape"))
            if stop.usage:
                ctx.stderr.write(USAGE.encode())
        return max(stop.status, 0)
    return tree.run()
