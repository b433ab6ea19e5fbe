"""The awk command line, program assembly and the main record loop."""

from __future__ import annotations

import re

from sandbox.commands._locale import utf8_ctype
from sandbox.commands.awk.compiler import Compiler
from sandbox.commands.awk.interp import (
    AwkFatal, ExitProgram, NextFile, NextRecord, Runtime, StdoutFailed, _strerror,
    check_name_length,
)
from sandbox.commands.awk.parser import BUILTINS, KEYWORDS, AwkSyntaxError, parse, unescape_string
from sandbox.commands.awk.records import DirectoryInput, RecordReader, split_default
from sandbox.commands.awk.values import UNINIT, AwkArray, StrNum
from sandbox.errors import BrokenPipe, LimitExceeded
from sandbox.fs.base import FSError

USAGE = """Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:\t\tGNU long options: (standard)
\t-f progfile\t\t--file=progfile
\t-F fs\t\t\t--field-separator=fs
\t-v var=val\t\t--assign=var=val
Short options:\t\tGNU long options: (extensions)
\t-b\t\t\t--characters-as-bytes
\t-c\t\t\t--traditional
\t-C\t\t\t--copyright
\t-d[file]\t\t--dump-variables[=file]
\t-D[file]\t\t--debug[=file]
\t-e 'program-text'\t--source='program-text'
\t-E file\t\t\t--exec=file
\t-g\t\t\t--gen-pot
\t-h\t\t\t--help
\t-i includefile\t\t--include=includefile
\t-I\t\t\t--trace
\t-l library\t\t--load=library
\t-L[fatal|invalid|no-ext]\t--lint[=fatal|invalid|no-ext]
\t-M\t\t\t--bignum
\t-N\t\t\t--use-lc-numeric
\t-n\t\t\t--non-decimal-data
\t-o[file]\t\t--pretty-print[=file]
\t-O\t\t\t--optimize
\t-p[file]\t\t--profile[=file]
\t-P\t\t\t--posix
\t-r\t\t\t--re-interval
\t-s\t\t\t--no-optimize
\t-S\t\t\t--sandbox
\t-t\t\t\t--lint-old
\t-V\t\t\t--version

To report bugs, use the `gawkbug' program.
For full instructions, see the node `Bugs' in `gawk.info'
which is section `Reporting Problems and Bugs' in the
printed version.  This same information may be found at
https://www.gnu.org/software/gawk/manual/html_node/Bugs.html.
PLEASE do NOT try to report bugs by posting in comp.lang.awk,
or by using a web forum such as Stack Overflow.

gawk is a pattern scanning and processing language.
By default it reads standard input and writes standard output.

Examples:
\tawk '{ sum += $1 }; END { print sum }' file
\tawk -F: '{ print $1 }' /etc/passwd
"""

VERSION = """GNU Awk 5.2.1, API 3.2, PMA Avon 8-g1, (GNU MPFR 4.2.0, GNU MP 6.2.1)
Copyright (C) 1989, 1991-2022 Free Software Foundation.

This program is free software; you can redistribute it and/or modify
it under the terms of the GNU General Public License as published by
the Free Software Foundation; either version 3 of the License, or
(at your option) any later version.

This program is distributed in the hope that it will be useful,
but WITHOUT ANY WARRANTY; without even the implied warranty of
MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
GNU General Public License for more details.

You should have received a copy of the GNU General Public License
along with this program. If not, see http://www.gnu.org/licenses/.
"""

_ASSIGN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=", re.S)
_NOARG = set("bcCgh IMNnOPrsStV".replace(" ", ""))
_OPTARG_OPTIONAL = set("dDLop")


class Unsupported(Exception):
    """A gawk option this awk does not build: one line, status 2 (no usage text)."""


class UsageError(Exception):
    pass


class Options:
    def __init__(self):
        self.fs: str | None = None
        self.assigns: list[str] = []
        self.sources: list[tuple[str, str]] = []   # (kind 'f'/'e', text)
        self.char_mode = True
        self.help = False
        self.version = False
        self.inplace = False  #: ``-i inplace``: gawk's in-place editing of each file operand
        self.warnings: list[str] = []  #: gawk's ``-W NAME`` warnings (NAME no long option)


#: gawk's long options and the short letter each stands for.
_LONGS = {"field-separator": "F", "assign": "v", "file": "f", "source": "e",
          "characters-as-bytes": "b", "help": "h", "version": "V",
          "traditional": "c", "posix": "P", "re-interval": "r", "sandbox": "S",
          "optimize": "O", "no-optimize": "s", "non-decimal-data": "n",
          "lint": "L", "lint-old": "t", "bignum": "M", "use-lc-numeric": "N",
          "dump-variables": "d", "debug": "D", "pretty-print": "o",
          "profile": "p", "copyright": "C", "gen-pot": "g", "trace": "I",
          "exec": "E", "include": "i", "load": "l"}


def parse_args(args: list[str]):
    opts = Options()
    i = 0
    n = len(args)
    while i < n:
        a = args[i]
        if a == "--":
            i += 1
            break
        if a.startswith("--") and len(a) > 2:
            name, eq, val = a[2:].partition("=")
            longs = _LONGS
            matches = [k for k in longs if k.startswith(name)]
            if name in longs:
                matches = [name]
            if len(matches) != 1:
                raise UsageError(f"unrecognized option '{a}'" if not matches else
                                 f"option '{a}' is ambiguous")
            c = longs[matches[0]]
            if c in "Fvfe" + "Eil":
                if not eq:
                    i += 1
                    if i >= n:  # gawk names the short option here
                        raise UsageError(f"option requires an argument -- {c}")
                    val = args[i]
                _apply(opts, c, val)
            else:
                _apply(opts, c, val if eq else None)
            i += 1
            continue
        if a.startswith("-") and len(a) > 1:
            j = 1
            rewritten = False
            while j < len(a):
                c = a[j]
                if c == "W":  # -W version, -Wposix: gawk's spelling of a long option
                    val, used = a[j + 1:], 1
                    if not val:
                        if i + 1 >= n:
                            raise UsageError("option requires an argument -- W")
                        val, used = args[i + 1], 2
                    head = [a[:j]] if j > 1 else []
                    name = val.partition("=")[0]
                    if not any(k.startswith(name) for k in _LONGS):
                        # gawk warns of a -W name matching no long option and goes on
                        opts.warnings.append(f"option `-W {val}' unrecognized, ignored")
                        args = [*args[:i], *head, *args[i + used:]]
                    else:
                        args = [*args[:i], *head, "--" + val, *args[i + used:]]
                    n = len(args)
                    rewritten = True
                    break
                if c in "Fvfe" + "Eil":
                    val = a[j + 1:]
                    if not val:
                        i += 1
                        if i >= n:
                            raise UsageError(f"option requires an argument -- {c}")
                        val = args[i]
                    _apply(opts, c, val)
                    break
                if c in _OPTARG_OPTIONAL:
                    _apply(opts, c, a[j + 1:] or None)
                    break
                if c in _NOARG or c == "h":
                    _apply(opts, c, None)
                    j += 1
                    continue
                raise UsageError(f"invalid option -- '{c}'")
            if not rewritten:
                i += 1
            continue
        break
    return opts, args[i:]


def _apply(opts: Options, c: str, val) -> None:
    if c == "F":
        opts.fs = val
    elif c == "v":
        opts.assigns.append(val)
    elif c == "f":
        opts.sources.append(("f", val))
    elif c == "e":
        opts.sources.append(("e", val))
    elif c == "E":
        opts.sources.append(("f", val))
    elif c == "b":
        opts.char_mode = False
    elif c == "h":
        opts.help = True
    elif c == "V":
        opts.version = True
    elif c == "i":
        opts.sources.append(("i", val))  # an include: the program still comes from -f/-e/ARG
    elif c == "l":
        raise UsageError(f"-l (loading extensions) is not supported in the sandbox")
    elif c == "n":
        raise UsageError("-n (--non-decimal-data) is not supported in the sandbox")
    elif c in _UNSUPPORTED:
        raise Unsupported(f"-{c} (--{_UNSUPPORTED[c]}) is not supported in the sandbox; "
                          "run the program without it")


#: gawk options whose effect is not built: refused rather than ignored (``-r``, ``-O`` and
#: ``-s`` change nothing here and are accepted).
_UNSUPPORTED = {"c": "traditional", "P": "posix", "L": "lint", "t": "lint-old", "M": "bignum",
                "N": "use-lc-numeric", "d": "dump-variables", "D": "debug",
                "o": "pretty-print", "p": "profile", "C": "copyright", "g": "gen-pot",
                "I": "trace", "S": "sandbox"}


class Source:
    """The program text with the origin of each line (for messages)."""

    def __init__(self):
        self.text = ""
        self.pieces: list[tuple[int, str, int]] = []  # (start offset, name, first line)

    def add(self, name: str, text: str) -> None:
        if self.text and not self.text.endswith("\n"):
            self.text += "\n"
        self.pieces.append((len(self.text), name, 1))
        self.text += text

    def where(self, pos: int) -> tuple[str, int, str, int]:
        """(source name, line number, line text, column) of an offset."""
        pos = max(0, min(pos, len(self.text)))
        start, name = 0, "cmd. line"
        for off, nm, _ in self.pieces:
            if off <= pos:
                start, name = off, nm
        line = self.text.count("\n", start, pos) + 1
        ls = self.text.rfind("\n", 0, pos) + 1
        le = self.text.find("\n", pos)
        if le < 0:
            le = len(self.text)
        return name, line, self.text[ls:le], pos - ls

    def name_line(self, line: int | None) -> str:
        """``name:line`` for a global line number (counted over the whole text)."""
        if line is None:
            return ""
        # map the global line to a piece
        offset = 0
        count = 1
        text = self.text
        while count < line:
            k = text.find("\n", offset)
            if k < 0:
                break
            offset = k + 1
            count += 1
        name, ln, _, _ = self.where(offset)
        return f"{name}:{ln}"


def _source_name(name: str) -> str:
    return name


def writes(args: list[str]) -> list[str]:
    """Literal redirection targets (``>``/``>>``) of the program in ``args``."""
    try:
        opts, rest = parse_args(list(args))
    except (UsageError, Unsupported):
        return []
    if any(kind != "i" for kind, _ in opts.sources):
        if any(kind == "f" for kind, _ in opts.sources):
            # the program is in a file the guard cannot read: nothing literal to report
            texts = [t for k, t in opts.sources if k == "e"]
        else:
            texts = [t for k, t in opts.sources if k != "i"]
    else:
        if not rest:
            return []
        texts = [rest[0]]
        rest = rest[1:]
    targets: list[str] = []
    if any(k == "i" and t in ("inplace", "inplace.awk") for k, t in opts.sources):
        # -i inplace rewrites every file operand (assignments and - excepted)
        targets += [a for a in rest if a != "-" and not _ASSIGN_RE.match(a)]
    for text in texts:
        try:
            p = parse(text)
        except Exception:
            continue
        trees = [p.begin, p.end, p.beginfile, p.endfile, p.items,
                 [f[2] for f in p.functions.values()]]

        def visit(node):
            if node and node[0] in ("print", "printf") and len(node) >= 5 and \
                    node[3] in (">", ">>") and node[4] is not None:
                t = node[4]
                while t[0] == "group":
                    t = t[1]
                if t[0] == "str":
                    name = t[1].decode("utf-8", "surrogateescape")
                    if name not in ("/dev/stdout", "/dev/stderr", "-") and name not in targets:
                        targets.append(name)
        from sandbox.commands.awk.interp import _walk
        _walk(trees, visit)
    return targets


_INCLUDE_RE = re.compile(r'^[ \t]*@(include|load)[ \t]+"([^"\n]*)"[ \t]*;?', re.M)


def _expand_includes(ctx, src: "Source", seen: set | None = None,
                     depth: int = 0) -> tuple["Source", str | None]:
    """gawk's ``@include "file"`` read through the jail (also as ``file.awk``), each file
    once; the included text comes before the piece that names it. ``@load`` is refused
    (no extensions). Returns the new source and an error message, if any."""
    seen = set() if seen is None else seen
    out = Source()
    pieces = src.pieces
    for k, (start, name, _) in enumerate(pieces):
        end = pieces[k + 1][0] if k + 1 < len(pieces) else len(src.text)
        text = src.text[start:end]
        where = f"awk: {name}:"
        for m in list(_INCLUDE_RE.finditer(text)):
            line = text.count("\n", 0, m.start()) + 1
            kind, target = m.group(1), m.group(2)
            if kind == "load":
                return out, (f"{where}{line}: error: cannot open shared library `{target}' "
                             "for reading: No such file or directory\n")
            data = None
            for cand in (target, target + ".awk"):
                try:
                    if ctx.exists(cand) and not ctx.stat(cand).is_dir:
                        data = ctx.read_bytes(cand)
                        target = cand
                        break
                except FSError:
                    continue
            if data is None:
                return out, (f"{where}{line}: error: cannot open source file `{target}' for "
                             "reading: No such file or directory\n")
            if target in seen:
                continue
            seen.add(target)
            if depth > 20:
                return out, f"{where}{line}: error: @include nested too deeply\n"
            inner = Source()
            inner.add(target, data.decode("utf-8", "surrogateescape"))
            inner, problem = _expand_includes(ctx, inner, seen, depth + 1)
            if problem is not None:
                return out, problem
            for j, (ist, iname, _) in enumerate(inner.pieces):
                iend = inner.pieces[j + 1][0] if j + 1 < len(inner.pieces) else len(inner.text)
                out.add(iname, inner.text[ist:iend])
        blanked = _INCLUDE_RE.sub("", text)
        out.add(name, blanked)
    return out, None


def run(ctx) -> int:
    try:
        opts, rest = parse_args(ctx.args)
    except Unsupported as err:
        ctx.stderr.write(f"awk: {err}\n".encode())
        return 2
    except UsageError as err:
        # gawk's getopt says nothing of an unknown or ambiguous option: the usage alone
        if not str(err).startswith(("invalid option", "unrecognized option", "option '--")):
            ctx.stderr.write(f"awk: {err}\n".encode())
        ctx.stderr.write(USAGE.encode())
        return 1
    for warning in opts.warnings:
        ctx.stderr.write(f"awk: {warning}\n".encode("utf-8", "surrogateescape"))
    if opts.version:
        ctx.stdout.write(VERSION.encode())
        return 0
    if opts.help:
        ctx.stdout.write(USAGE.encode())
        return 0
    src = Source()
    includes = [t for k, t in opts.sources if k == "i"]
    opts.sources = [(k, t) for k, t in opts.sources if k != "i"]
    library = []
    for name in includes:  # -i FILE: FILE or FILE.awk (the jail has no AWKPATH library)
        found = next((c for c in (name, name + ".awk") if ctx.exists(c) and not ctx.stat(c).is_dir),
                     None)
        if found is None and name in ("inplace", "inplace.awk"):
            opts.inplace = True
            continue
        library.append(("f", found or name))
    if library:
        if not opts.sources:
            if not rest:
                ctx.stderr.write(USAGE.encode())
                return 1
            opts.sources = [("e", rest[0])]
            rest = rest[1:]
        opts.sources = library + opts.sources
    if opts.sources:
        for kind, text in opts.sources:
            if kind == "e":
                src.add("cmd. line", text)
                continue
            try:
                if text == "-":
                    data = ctx.stdin.read()
                else:
                    data = ctx.read_bytes(text)
            except FSError as err:
                msg = err.strerror or "No such file or directory"
                ctx.stderr.write(f"awk: fatal: cannot open source file `{text}' for reading: "
                                 f"{msg[0].upper() + msg[1:]}\n".encode("utf-8",
                                                                         "surrogateescape"))
                return 2
            if len(data) > ctx.budget.limits.script_bytes * 10:
                ctx.stderr.write(b"awk: fatal: program file too large\n")
                return 2
            src.add(text, data.decode("utf-8", "surrogateescape"))
    else:
        if not rest:
            ctx.stderr.write(USAGE.encode())
            return 1
        src.add("cmd. line", rest[0])
        rest = rest[1:]
    if "@" in src.text:
        src, problem = _expand_includes(ctx, src)
        if problem is not None:
            ctx.stderr.write(problem.encode("utf-8", "surrogateescape"))
            return 1
    try:
        parsed = parse(src.text)
    except AwkSyntaxError as err:
        _report_syntax(ctx, src, err)
        return 1 if err.kind not in ("refused", "fatal") else 2
    for w in getattr(parsed.lex, "warnings", []):
        ctx.stderr.write(f"awk: cmd. line:1: warning: {w}\n".encode("utf-8", "surrogateescape"))
    return _execute(ctx, src, parsed, opts, rest)


def _report_syntax(ctx, src: Source, err: AwkSyntaxError) -> None:
    if err.kind in ("error", "loop", "refused", "plain", "fatal") or err.pos is None:
        if err.pos is not None:
            name, line, _, _ = src.where(err.pos)
            where = f"{name}:{line}: "
        else:
            where = f"{src.pieces[0][1]}:1: " if src.pieces else ""
        if err.kind in ("refused", "fatal"):
            text = f"awk: {where}fatal: {err.message}\n"
        elif err.kind == "plain":
            text = f"awk: {where}{err.message}\n"
        else:
            text = f"awk: {where}error: {err.message}\n"
            if err.kind == "loop":
                text = text * 2
        ctx.stderr.write(text.encode("utf-8", "surrogateescape"))
        return
    pos = err.pos
    name, line, text, col = src.where(pos)
    if err.message.startswith("unexpected newline") and (err.implicit_newline or (
            pos < len(src.text) and src.text[pos] == "\n")):
        # gawk names the next line but shows the one the newline ends
        line += 1
    prefix = f"awk: {name}:{line}: "
    out = prefix + text + "\n" + prefix + " " * col + "^ " + err.message + "\n"
    ctx.stderr.write(out.encode("utf-8", "surrogateescape"))


def _fatal_text(rt, src: Source, err: AwkFatal) -> str:
    where = ""
    if err.line:
        where = src.name_line(err.line) + ": "
    elif src.pieces:
        where = ""
    rec = rt.record_where() if rt is not None else ""
    kind = err.kind
    return f"awk: {where}{rec}{kind}: {err.message}\n"


class MainInput:
    """The main input: the ARGV operands in order (assignments done as reached), or stdin."""

    def _last_line(self) -> int | None:
        """The source line gawk names when the next file fails to open: its last BEGINFILE,
        else its last rule once a record went through, else the last statement run (BEGIN's),
        else none."""
        parsed = self.rt.parsed
        if parsed.beginfile:
            return parsed.beginfile_line or None
        if parsed.items and self.rt.nr > 0:  # the rules have run on a record
            return parsed.items[-1][3]
        return self.rt.cur_line or None

    def __init__(self, rt, ctx):
        self.rt = rt
        self.ctx = ctx
        self.argi = 1
        self.reader: RecordReader | None = None
        self.stream = None
        self.used_file = False
        self.done = False

    def open_next(self) -> bool:
        rt = self.rt
        G = rt.G
        argv = G[rt.slots["ARGV"]]
        while True:
            argc = int(rt.N(G[rt.slots["ARGC"]]))
            if self.argi >= argc:
                break
            key = b"%d" % self.argi
            self.argi += 1
            v = argv.get(key)
            if v is None:
                continue
            arg = bytes(rt.S(v))
            if not arg:
                continue
            text = arg.decode("utf-8", "surrogateescape")
            if _ASSIGN_RE.match(text):
                assign_var(rt, text)
                continue
            self.used_file = True
            if text == "-" or text == "/dev/stdin":
                stream = self.ctx.stdin
            else:
                try:
                    check_name_length(text)
                    if self.ctx.stat(text).is_dir:
                        rt.filename = arg  # gawk: FILENAME is the directory, FNR 0
                        rt.G[rt.slots["FILENAME"]] = arg
                        rt.fnr = 0
                        self._warn_directory(text)
                        continue
                    stream = self.ctx.open_read(text)
                except FSError as err:  # gawk has set FNR to 0 for the next file by now;
                    msg = err.strerror or "No such file or directory"  # the line: the last run
                    rt.fnr = 0
                    raise AwkFatal(f"cannot open file `{text}' for reading: "
                                   f"{msg[0].upper() + msg[1:]}", self._last_line()) from None
            self._start(stream, arg)
            return True
        if not self.used_file:
            self.used_file = True
            self._start(self.ctx.stdin, b"-")
            return True
        self.done = True
        return False

    def _start(self, stream, name: bytes) -> None:
        rt = self.rt
        self.stream = stream
        self.reader = RecordReader(stream, rt.rs, rt.icase, rt.budget, rt.str_limit,
                                   single_byte=not rt.char_mode)
        rt.filename = name
        rt.G[rt.slots["FILENAME"]] = name
        rt.fnr = 0

    def _warn_directory(self, text: str) -> None:
        """gawk's warning names the source line of the last instruction run (none before
        any): a getline's, else the last rule's once records went through the rules."""
        rt = self.rt
        line = rt.cur_line
        items = rt.parsed.items
        if not line and rt.nr > 0 and items:
            line = items[-1][3]
        rt.warn(f"command line argument `{text}' is a directory: skipped", line or None)

    def skip_directory(self) -> None:
        """The current input turned out a directory on its first read (stdin, ``< dir``):
        skipped with gawk's warning, as an operand that is one."""
        self._warn_directory(bytes(self.rt.filename).decode("utf-8", "surrogateescape"))
        self.close_current()

    def close_current(self) -> None:
        if self.stream is not None and self.stream is not self.ctx.stdin:
            try:
                self.stream.close()
            except Exception:
                pass
        self.stream = None
        self.reader = None

    def getline_record(self):
        """The next main-input record for a plain ``getline`` (crossing files)."""
        rt = self.rt
        while True:
            if self.reader is None:
                if self.done or not self.open_next():
                    return None
            try:
                rec = self.reader.next()
            except DirectoryInput:
                self.skip_directory()
                continue
            if rec is not None:
                rt.G[rt.slots["RT"]] = self.reader.rt
                return rec
            self.close_current()


def assign_var(rt, text: str) -> None:
    name, _, value = text.partition("=")
    data = unescape_string(value.encode("utf-8", "surrogateescape"),
                           lambda w: rt.warn(w))
    slot = rt.slots.get(name)
    if slot is None:
        return
    cur = rt.G[slot]
    if type(cur) is AwkArray:
        raise AwkFatal(f"cannot use array `{name}' as a scalar variable")
    from sandbox.commands.awk import builtins as B
    v = StrNum(data)
    rt.G[slot] = v
    if name in B.SPECIAL_VARS:
        B.special_setter(rt, name)(v)


def _execute(ctx, src: Source, parsed, opts: Options, operands: list[str]) -> int:
    rt = None
    try:
        rt = Runtime(ctx, parsed, "cmd. line", opts.char_mode and utf8_ctype(ctx.env))
        comp = Compiler(rt, parsed)
        comp.compile_functions()
        for name, cell in comp.compiled_funcs.items():
            params = comp.funcs[name][0]
            rt.user_functions[name] = _callable(rt, cell, len(params))
        begin = [comp.stmt(b) for b in parsed.begin]
        end = [comp.stmt(b) for b in parsed.end]
        beginfile = [comp.stmt(b) for b in parsed.beginfile]
        endfile = [comp.stmt(b) for b in parsed.endfile]
        rules = [_compile_rule(comp, rt, item, k) for k, item in enumerate(parsed.items)]
        _setup_globals(rt, ctx, operands)
        if opts.fs is not None:
            fs = opts.fs
            data = unescape_string(fs.encode("utf-8", "surrogateescape"))
            rt.G[rt.slots["FS"]] = data
            rt.set_fs(data)
        for a in opts.assigns:
            name, eq, _value = a.partition("=")
            if not eq:
                ctx.stderr.write(f"awk: `{a}' argument to `-v' not in `var=value' form\n\n"
                                 .encode("utf-8", "surrogateescape"))
                ctx.stderr.write(USAGE.encode())
                return 1
            if opts.inplace and name in ("inplace::suffix", "inplace::enable"):
                continue  # the inplace namespace's own variables (InPlace reads them)
            if not _ASSIGN_RE.match(a):  # gawk's arg_assign, in its words
                raise AwkFatal(f"`{name}' is not a legal variable name")
            if name in KEYWORDS or name in BUILTINS:
                raise AwkFatal(f"cannot use gawk builtin `{name}' as variable name")
            assign_var(rt, a)
        rt.main_input = MainInput(rt, ctx)
        rt.inplace = InPlace(rt, ctx, opts.assigns) if opts.inplace else None
    except AwkFatal as err:
        ctx.stderr.write(_fatal_text(rt, src, err).encode("utf-8", "surrogateescape"))
        return err.status
    status = 0
    try:
        try:
            try:
                for b in begin:
                    b()
                if rules or end or beginfile or endfile or rt.inplace is not None:
                    _main_loop(rt, comp, rules, beginfile, endfile)
            except ExitProgram:
                pass
            rt.in_record = False
            if rt.inplace is not None:  # inplace.awk's END comes before the program's
                rt.inplace.end()
            try:
                for b in end:
                    b()
            except ExitProgram:
                pass
            status = rt.exit_status
        except NextRecord:
            raise AwkFatal("`next' used in BEGIN or END action", rt.cur_line)
        except NextFile:
            raise AwkFatal("`nextfile' used in BEGIN or END action", rt.cur_line)
        finally:
            try:
                rt.close_all()
            except AwkFatal:
                if rt.stdout_failed is not None:  # print > "/dev/stdout": fatal at its flush
                    raise
    except AwkFatal as err:
        try:
            rt.flush_stdout()
        except LimitExceeded:
            raise
        except StdoutFailed:
            pass
        ctx.stderr.write(_fatal_text(rt, src, err).encode("utf-8", "surrogateescape"))
        return err.status
    except StdoutFailed as err:  # the last write, at exit: gawk's warning, status 1
        ctx.stderr.write(f"awk: {rt.record_where()}warning: error writing standard output: "
                         f"{err}\n".encode("utf-8", "surrogateescape"))
        return rt.exit_status or 1
    except RecursionError:
        rt.flush_stdout()
        raise LimitExceeded("recursion_depth", "awk: program nested or recursing too deeply")
    except TypeError as err:
        rt.flush_stdout()
        ctx.stderr.write(_fatal_text(rt, src, AwkFatal(
            "attempt to use array in a scalar context", rt.cur_line)).encode())
        return 2
    return status


def _callable(rt, cell, nparams):
    def call(args):
        frame = list(args) + [UNINIT] * (nparams - len(args))
        saved = rt.frame
        rt.frame = frame
        try:
            r = cell[0]()
        finally:
            rt.frame = saved
        return r.value if r is not None and hasattr(r, "value") else UNINIT
    return call


def _setup_globals(rt, ctx, operands: list[str]) -> None:
    G = rt.G
    argv = G[rt.slots["ARGV"]]
    argv[b"0"] = StrNum(b"awk")
    for i, a in enumerate(operands, 1):
        argv[b"%d" % i] = StrNum(a.encode("utf-8", "surrogateescape"))
    G[rt.slots["ARGC"]] = float(len(operands) + 1)
    env = G[rt.slots["ENVIRON"]]
    for k, v in ctx.env.items():
        if v is None:
            continue
        env[k.encode("utf-8", "surrogateescape")] = StrNum(v.encode("utf-8",
                                                                     "surrogateescape"))
    proc = G[rt.slots["PROCINFO"]]
    proc[b"version"] = b"5.2.1"
    proc[b"FS"] = b"FS"
    proc[b"strftime"] = b"%a %b %e %H:%M:%S %Z %Y"
    proc[b"platform"] = b"posix"
    proc[b"pid"] = 1000.0
    proc[b"ppid"] = 1.0


def _print_record(rt):
    """The action of a rule without one: print $0."""
    get0 = rt.get0
    out = rt.out
    flush = rt.flush_print

    def print_record():
        out.extend(get0())
        out.extend(rt.ors)
        if len(out) > 65536:
            flush()
    return print_record


def _dedupe_rule(comp, rt, pat):
    """``!a[$n]++`` alone as a rule (print the first record with each value of $n): one
    closure per record instead of the generic chain, same effects on ``a``."""
    if pat[0] != "unary" or pat[1] != "!" or pat[2][0] != "incdec" or pat[2][1] != "++" \
            or pat[2][2]:
        return None
    target = pat[2][3]
    if target[0] != "index" or len(target[2]) != 1 or target[2][0][0] != "field":
        return None
    e = target[2][0][1]
    if e[0] != "num" or e[1] < 1 or not float(e[1]).is_integer():
        return None
    d = comp.static_array(target[1])
    if d is None:
        return None
    idx = int(e[1]) - 1
    S, N = rt.S, rt.N
    print_record = _print_record(rt)

    def first(k) -> bool:
        # a[k]++ and whether a[k] was 0 before
        old = d.get(k)
        if old is None:
            d[k] = 1.0
            return True
        x = old if type(old) is float else N(old)
        d[k] = x + 1.0
        return x == 0.0

    def dedupe():
        fl = rt.flds
        if fl is None:
            fl = rt.split()
        if idx < len(fl):
            k = fl[idx]
            if type(k) is float:
                k = S(k)
        else:
            k = b""
        if first(k):
            print_record()

    def block(recs: list) -> None:
        # a whole block of records split by the default FS, no \r \v \f in it
        get = d.get
        ors = rt.ors
        out = rt.out
        flush = rt.flush_print
        m = idx + 1
        for rec in recs:
            fl = rec.split(None, m)
            k = fl[idx] if idx < len(fl) else b""
            old = get(k)
            if old is None:
                d[k] = 1.0
            else:  # first(k) inline: this loop is the hot path
                x = old if type(old) is float else N(old)
                d[k] = x + 1.0
                if x != 0.0:
                    continue
            out.extend(rec)
            out.extend(ors)
            if len(out) > 65536:
                flush()
        n = len(recs)
        rt.nr += n
        rt.fnr += n
        rt.rec = recs[-1]
        rt.flds = None
        rt.str_rec = None
    dedupe.block = block
    return dedupe


def _compile_rule(comp, rt, item, k):
    pat, pat2, body, line = item
    comp.cur_line = line
    if body is None and pat is not None and pat2 is None:
        fast = _dedupe_rule(comp, rt, pat)
        if fast is not None:
            return fast
    if body is None:
        action = _print_record(rt)
    else:
        action = comp.stmt(body)
    if pat is None:
        return action
    if pat2 is None:
        test = comp.cbool(pat)

        def rule():
            if test():
                action()
        rule.pattern = test
        rule.action = action
        return rule
    start = comp.cbool(pat)
    stop = comp.cbool(pat2)
    state = [False]

    def range_rule():
        if not state[0]:
            if not start():
                return
            state[0] = True
        if stop():
            state[0] = False
        action()
    return range_rule


def _prefilter_regex(rt, comp, items):
    """A multiline regex matching the lines some rule could act on, when every rule is
    ``/re/ {...}`` (so lines no regex matches need only be counted), else None."""
    if not items or comp.assigns_icase:
        return None
    from sandbox.commands.awk.awkregex import parse_gawk
    from sandbox.regex import Regex, RegexError
    from sandbox.regex.parser import ParsedRegex
    branches = []
    groups = 0
    for pat, pat2, _body, _line in items:
        if pat is None or pat2 is not None or pat[0] != "regex":
            return None
        try:
            parsed = parse_gawk(pat[1].decode("utf-8", "surrogateescape"))
        except RegexError:
            return None
        text = repr(parsed.ast)
        if "'bot'" in text or "'eot'" in text:
            return None
        branches.append(parsed.ast)
        groups += parsed.groups
    ast = branches[0] if len(branches) == 1 else ("alt", branches)
    try:
        rx = Regex(ParsedRegex(ast, 0 if len(branches) > 1 else groups, False, []),
                   icase=rt.icase, multiline=True, dot_newline=True, budget=rt.budget)
    except Exception:
        return None
    return rx


class InPlace:
    """gawk's ``-i inplace``: while a file operand is read, standard output goes to a buffer
    that replaces the file when the next file begins or END starts (``INPLACE_SUFFIX`` or
    ``-v inplace::suffix=SFX`` keeps the original as FILE+SFX). Standard input is left alone,
    with gawk's warning."""

    def __init__(self, rt, ctx, assigns: list[str]):
        self.rt = rt
        self.ctx = ctx
        self.name: str | None = None
        self.suffix: bytes | None = None
        self.fallback = b""  #: a -v INPLACE_SUFFIX=, when the program never names it
        for a in assigns:
            name, _eq, value = a.partition("=")
            if name == "inplace::suffix":
                self.suffix = value.encode("utf-8", "surrogateescape")
            elif name == "INPLACE_SUFFIX":
                self.fallback = unescape_string(value.encode("utf-8", "surrogateescape"))

    def begin(self, filename: bytes) -> None:
        """Start capturing standard output for ``filename``."""
        name = filename.decode("utf-8", "surrogateescape")
        if name in ("", "-", "/dev/stdin"):
            self.rt.flush_stdout()
            self.ctx.stderr.write(b"awk: inplace:59: warning: inplace::begin: disabling in-place "
                                  b"editing for invalid FILENAME `" + filename + b"'\n")
            return
        self.rt.flush_stdout()
        self.rt.capture = bytearray()
        self.name = name

    def end(self) -> None:
        """Replace the file being edited (if any) with what was printed."""
        rt = self.rt
        if self.name is None:
            return
        rt.flush_stdout()
        data = bytes(rt.capture or b"")
        rt.capture = None
        name, self.name = self.name, None
        suffix = self.suffix
        if not suffix:
            slot = rt.slots.get("INPLACE_SUFFIX")
            suffix = bytes(rt.S(rt.G[slot])) if slot is not None else self.fallback
        try:
            if suffix:
                self.ctx.write_bytes(name + suffix.decode("utf-8", "surrogateescape"),
                                     self.ctx.read_bytes(name))
            self.ctx.write_bytes(name, data)
        except FSError as err:
            raise AwkFatal(f"inplace::end: cannot write `{name}': {_strerror(err)}") from None


def _main_loop(rt, comp, rules, beginfile, endfile) -> None:
    mi = rt.main_input
    # (the block loops set RT once per block: a program that reads it goes record by record)
    fast = not comp.uses_getline_plain and not comp.assigns_rs and "RT" not in comp.global_names
    one = rules[0] if len(rules) == 1 else None
    pre = _prefilter_regex(rt, comp, rt.parsed.items) if fast else None
    while True:
        if mi.reader is None:  # (a getline in BEGIN may have opened the first file)
            if not mi.open_next():
                break
            if rt.inplace is not None:  # inplace.awk's BEGINFILE runs before the program's
                rt.inplace.end()
                rt.inplace.begin(rt.filename)
            for b in beginfile:
                b()
        reader = mi.reader
        rt.in_record = True
        try:
            if pre is not None and reader.mode == "char" and reader.rs == b"\n" and \
                    pre.icase == rt.icase:
                _prefilter_file(rt, reader, rules, one, pre)
            elif fast and reader.mode == "char":
                _fast_file(rt, reader, rules, one)
            else:
                _general_file(rt, mi, rules)
        except NextFile:
            pass
        except DirectoryInput:  # gawk skips it before BEGINFILE would end: no ENDFILE
            rt.in_record = False
            mi.skip_directory()
            continue
        rt.in_record = False
        for b in endfile:
            b()
        mi.close_current()


def _record_step(rt, rules, one):
    """The run of the rules on one record, as the block loops below feed them."""
    if one is None:
        def one():
            for r in rules:
                r()

    def step(rec: bytes, nr: int, fnr: int) -> None:
        rt.nr = nr
        rt.fnr = fnr
        rt.rec = rec
        rt.flds = None
        rt.str_rec = None
        try:
            one()
        except NextRecord:
            pass
    return step


def _fast_file(rt, reader, rules, one) -> None:
    lines = reader.lines
    step = _record_step(rt, rules, one)
    block = getattr(one, "block", None)
    while True:
        recs = lines()
        if recs is None:
            rt.ws_clean = False
            return
        rt.ws_clean = reader.clean
        if block is not None and recs and reader.clean and rt.fs_split is split_default:
            block(recs)
            rt.G[rt.slots["RT"]] = reader.rt
            continue
        nr = rt.nr
        fnr = rt.fnr
        for rec in recs:
            step(rec, nr + 1, fnr + 1)
            nr = rt.nr
            fnr = rt.fnr
        rt.G[rt.slots["RT"]] = reader.rt


def _prefilter_file(rt, reader, rules, one, rx) -> None:
    """Records of one file when every rule is ``/re/ {...}``: search the regex over whole
    blocks and run the rules only on the lines it matches (others are just counted)."""
    raw = reader.raw
    search = rx.search_start
    step = _record_step(rt, rules, one)
    rt.ws_clean = False
    done_last = False
    last = None
    while True:
        got = raw()
        if got is None:
            break
        data, final = got
        n = len(data)
        pos = 0
        nr = rt.nr
        fnr = rt.fnr
        while pos < n:
            m = search(data, pos, n)
            if m < 0 or m >= n:
                break
            ls = data.rfind(b"\n", pos, m) + 1
            if ls == 0:
                ls = pos
            le = data.find(b"\n", m)
            if le < 0:
                le = n
            skipped = data.count(b"\n", pos, ls) + 1
            step(data[ls:le], nr + skipped, fnr + skipped)
            nr = rt.nr
            fnr = rt.fnr
            pos = le + 1
            done_last = le >= n - 1
        if pos < n:
            done_last = False
            k = data.count(b"\n", pos, n)
            if final:
                k += 1
            nr += k
            fnr += k
        rt.nr = nr
        rt.fnr = fnr
        if n:
            end = n - 1 if data.endswith(b"\n") else n
            last = data[data.rfind(b"\n", 0, end) + 1:end]
    if last is not None and not done_last:
        rt.rec = last
        rt.flds = None
        rt.str_rec = None
    rt.G[rt.slots["RT"]] = b"\n" if last is not None else b""


def _general_file(rt, mi, rules) -> None:
    rt.ws_clean = False
    RT = rt.slots["RT"]
    G = rt.G
    while True:
        reader = mi.reader
        if reader is None:
            return
        rec = reader.next()
        if rec is None:
            return
        G[RT] = reader.rt
        rt.nr += 1
        rt.fnr += 1
        rt.rec = rec
        rt.flds = None
        rt.str_rec = None
        try:
            for r in rules:
                r()
        except NextRecord:
            pass
