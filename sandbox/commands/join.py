"""``join``: join lines of two sorted files on a common field (GNU coreutils 9.1).

Options: ``-1 F``, ``-2 F``, ``-j F`` (and the obsolete attached ``-j1 F`` / ``-j2 F``), ``-a N``,
``-v N``, ``-e STRING``, ``-o FORMAT`` (``0``, ``M.N`` lists, ``auto``), ``-t CHAR`` (``''`` is
the whole line, ``'\\0'`` NUL), ``-i``, ``--header``, ``--check-order``, ``--nocheck-order``,
``-z``. Field splitting, key comparison (bytes; ASCII case folding with ``-i``), the pairing of
runs of equal keys, order warnings (``FILE:N: is not sorted: LINE``) and every message follow
GNU's join.c.
"""

from __future__ import annotations

import errno
import re

from sandbox.commands._quoting import quote, quoteaf, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, parse_command_line
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="a:e:i1:2:j:o:t:v:z",
    long={
        "ignore-case": (NO_ARG, "i"),
        "check-order": (NO_ARG, "check-order"),
        "nocheck-order": (NO_ARG, "nocheck-order"),
        "zero-terminated": (NO_ARG, "z"),
        "header": (NO_ARG, "header"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.

When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM             also print unpairable lines from file FILENUM, where
                           FILENUM is 1 or 2, corresponding to FILE1 or FILE2
  -e STRING              replace missing (empty) input fields with STRING;
                           I.e., missing fields specified with '-12jo' options
  -i, --ignore-case      ignore differences in case when comparing fields
  -j FIELD               equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT              obey FORMAT while constructing output line
  -t CHAR                use CHAR as input and output field separator
  -v FILENUM             like -a FILENUM, but suppress joined output lines
  -1 FIELD               join on this FIELD of file 1
  -2 FIELD               join on this FIELD of file 2
      --check-order      check that the input is correctly sorted, even
                           if all input lines are pairable
      --nocheck-order    do not check that the input is correctly sorted
      --header           treat the first line in each file as field headers,
                           print them without trying to pair them
  -z, --zero-terminated  line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Unless -t CHAR is given, leading blanks separate fields and are ignored,
else fields are separated by CHAR.  Any FIELD is a field number counted
from 1.  FORMAT is one or more comma or blank separated specifications,
each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,
the remaining fields from FILE1, the remaining fields from FILE2, all
separated by CHAR.  If FORMAT is the keyword 'auto', then the first
line of each file determines the number of fields output for each line.

Important: FILE1 and FILE2 must be sorted on the join fields.
E.g., use "sort -k 1b,1" if 'join' has no options,
or use "join -t ''" if 'sort' has no options.
Note, comparisons honor the rules specified by 'LC_COLLATE'.
If the input is not sorted and some lines cannot be joined, a
warning message will be given.
"""

VERSION = """join (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Mike Haertel."""
SIZE_MAX = (1 << 64) - 1
_UNSIGNED = re.compile(r"[ \t\n\v\f\r]*\+?([0-9]+)", re.DOTALL)
_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class JoinError(Exception):
    """A fatal error; ``str()`` is the message."""


def join_field(text: str) -> int:
    """GNU ``string_to_join_field``: the 0-based field index (huge values clamp)."""
    m = _UNSIGNED.fullmatch(text)
    if m is None or int(m.group(1)) == 0:
        raise JoinError(f"invalid field number: {quote(text)}")
    return min(int(m.group(1)), SIZE_MAX) - 1


def field_list(text: str) -> list[tuple[int, int]]:
    """GNU ``add_field_list``: (file, field) pairs; file 0 is the join field."""
    out: list[tuple[int, int]] = []
    for spec in re.split(r"[, \t]", text):
        if spec[:1] == "0":
            if spec != "0":
                raise JoinError(f"invalid field specifier: {quote(spec)}")
            out.append((0, 0))
        elif spec[:1] in ("1", "2"):
            if spec[1:2] != ".":
                raise JoinError(f"invalid field specifier: {quote(spec)}")
            out.append((int(spec[0]), join_field(spec[2:])))
        else:
            raise JoinError(f"invalid file number in field spec: {quote(spec)}")
    return out


class Line:
    """One input line: its text (without terminator) and its fields."""

    __slots__ = ("text", "fields")

    def __init__(self, text: bytes, fields: list[bytes]):
        self.text = text
        self.fields = fields


BLANK = Line(b"", [])


def split_fields(text: bytes, tab: int | None) -> list[bytes]:
    """GNU ``xfields``: fields of a line (``tab`` None: runs of blanks, 10: the whole line)."""
    if not text:
        return []
    if tab is None:
        stripped = text.lstrip(b" \t\n")
        if not stripped:
            return []
        parts = re.split(rb"[ \t\n]+", stripped)
        return parts
    if tab == 10:
        return [text]
    return text.split(bytes([tab]))


class Joiner:
    """The settings and order-check state of one join run."""

    def __init__(self, ctx: CommandContext, s: dict):
        self.ctx = ctx
        self.s = s
        self.out: list[bytes] = []
        self.seen_unpairable = False
        self.warned = [False, False]
        self.autocount = [0, 0]
        tab = s["tab"]
        self.osep = b" " if tab is None else bytes([tab])

    def key(self, line: Line, which: int) -> bytes | None:
        """The join field of ``line`` (None when missing or empty)."""
        jf = self.s["fields"][which]
        if jf < len(line.fields):
            value = line.fields[jf]
            if value:
                return value.translate(_UPPER) if self.s["icase"] else value
        return None

    def cmp(self, a: Line, b: Line, wa: int, wb: int) -> int:
        """GNU ``keycmp``."""
        ka, kb = self.key(a, wa), self.key(b, wb)
        if ka is None:
            return 0 if kb is None else -1
        if kb is None:
            return 1
        return (ka > kb) - (ka < kb)

    def check_order(self, prev: Line, cur: Line, which: int, number: int) -> None:
        """Warn (or die with ``--check-order``) when ``cur`` sorts before ``prev``."""
        check = self.s["check"]
        if check is False or self.warned[which] or not (check or self.seen_unpairable):
            return
        if self.cmp(prev, cur, which, which) > 0:
            name = self.s["names"][which]
            self.flush()
            text = cur.text.decode("utf-8", "surrogateescape")
            self.ctx.error(f"{name}:{number}: is not sorted: {text}")
            if check:
                raise JoinError("")
            self.warned[which] = True

    def field(self, line: Line, n: int) -> bytes:
        """GNU ``prfield``."""
        if n < len(line.fields) and line.fields[n]:
            return line.fields[n]
        return self.s["empty"]

    def emit(self, l1: Line, l2: Line) -> None:
        """GNU ``prjoin``: one output line."""
        fields = self.s["fields"]
        outlist = self.s["outlist"]
        pieces: list[bytes] = []
        if outlist:
            for file, n in outlist:
                if file == 0:
                    pieces.append(self.field(l2, fields[1]) if l1 is BLANK else self.field(l1, fields[0]))
                else:
                    pieces.append(self.field(l1 if file == 1 else l2, n))
        else:
            pieces.append(self.field(l2, fields[1]) if l1 is BLANK else self.field(l1, fields[0]))
            for k, line in ((0, l1), (1, l2)):
                count = self.autocount[k] if self.s["auto"] else len(line.fields)
                jf = fields[k]
                for i in range(count):
                    if i != jf:
                        pieces.append(self.field(line, i))
        self.out.append(self.osep.join(pieces) + self.s["eol"])
        if len(self.out) >= 4096:
            self.flush()
            self.ctx.budget.check_time()

    def flush(self) -> None:
        """Write the pending output lines."""
        if self.out:
            self.ctx.stdout.write(b"".join(self.out))
            self.out.clear()


class Reader:
    """Lines of one input, read in order with GNU's ``get_line`` order check."""

    def __init__(self, joiner: Joiner, lines: list[bytes], which: int):
        self.joiner = joiner
        self.lines = lines
        self.which = which
        self.pos = 0
        self.prev: Line | None = None

    def get(self) -> Line | None:
        """The next line, or None at end of input."""
        if self.pos >= len(self.lines):
            return None
        text = self.lines[self.pos]
        self.pos += 1
        line = Line(text, split_fields(text, self.joiner.s["tab"]))
        if self.prev is not None:
            self.joiner.check_order(self.prev, line, self.which, self.pos)
        self.prev = line
        return line


def _options(ctx: CommandContext, opts: list[tuple[str, str | None]]) -> dict:
    s: dict = {"fields": [None, None], "unpaired": [False, False], "pairables": True, "empty": b"",
               "outlist": [], "auto": False, "tab": None, "icase": False, "check": None,
               "header": False, "eol": b"\n"}
    for key, value in opts:
        value = value or ""
        if key in "av":
            if key == "v":
                s["pairables"] = False
            m = re.fullmatch(r"[ \t\n\v\f\r]*\+?([0-9]+)", value)
            if m is None or int(m.group(1)) not in (1, 2):
                raise JoinError(f"invalid field number: {quote(value)}")
            s["unpaired"][int(m.group(1)) - 1] = True
        elif key == "e":
            s["empty"] = value.encode("utf-8", "surrogateescape")
        elif key == "i":
            s["icase"] = True
        elif key in "12":
            _set_field(s, int(key) - 1, join_field(value))
        elif key == "j":
            if value in ("1j", "2j"):  # the obsolete -j1 / -j2: resolved by _operands
                continue
            field = join_field(value)
            _set_field(s, 0, field)
            _set_field(s, 1, field)
        elif key == "o":
            if value == "auto":
                s["auto"] = True
            else:
                s["outlist"].extend(field_list(value))
        elif key == "t":
            raw = value.encode("utf-8", "surrogateescape")
            new = raw[0] if raw else 10
            if len(raw) > 1:
                if raw == b"\\0":
                    new = 0
                else:
                    raise JoinError(f"multi-character tab {quote(value)}")
            if s["tab"] is not None and s["tab"] != new:
                raise JoinError("incompatible tabs")
            s["tab"] = new
        elif key == "z":
            s["eol"] = b"\0"
        elif key == "check-order":
            s["check"] = True
        elif key == "nocheck-order":
            s["check"] = False
        elif key == "header":
            s["header"] = True
    return s


def _set_field(s: dict, which: int, value: int) -> None:
    current = s["fields"][which]
    if current is not None and current != value:
        raise JoinError(f"incompatible join fields {current + 1}, {value + 1}")
    s["fields"][which] = value


def run(ctx: CommandContext) -> int:
    """Join two sorted inputs."""
    parsed = parse_command_line(ctx, SPEC, HELP, version=VERSION)
    if isinstance(parsed, int):
        return parsed
    opts, operands = parsed
    try:
        events = _events(ctx.args)
        s = _options(ctx, [(k, v) for kind, k, v in events if kind == "opt"])
        operands = _operands(s, events)
    except JoinError as err:
        ctx.error(str(err))
        return 1
    except _ExtraOperand as extra:
        return ctx.usage_error(f"extra operand {quoteaf(str(extra))}")
    if len(operands) < 2:
        if not operands:
            return ctx.usage_error("missing operand")
        return ctx.usage_error(f"missing operand after {quote(operands[-1])}")
    s["fields"] = [0 if f is None else f for f in s["fields"]]
    s["names"] = operands
    # GNU opens both files, then reads: a missing second file is reported before a first
    # one that cannot be read (``join - x < dir``), and a read error is ``read error``.
    opened: list[object] = []
    contents: list[bytes] = []
    try:
        for name in operands:
            if name == "-":
                if "-" in operands[: len(opened)]:
                    ctx.error("both files cannot be standard input: No such file or directory")
                    return 1
                opened.append(None)
                continue
            try:
                opened.append(ctx.open_read(name))
            except FSError as err:
                if err.errno != errno.EISDIR:
                    ctx.error(f"{quotef(name)}: {err}")
                    return 1
                opened.append(err)  # a directory opens; its read fails (below)
        for stream in opened:
            try:
                if isinstance(stream, FSError):
                    raise stream
                contents.append(ctx.stdin.read() if stream is None else stream.read())
            except FSError as err:
                ctx.error(f"read error: {err}")
                return 1
    finally:
        for stream in opened:
            if stream is not None and not isinstance(stream, FSError):
                stream.close()
    joiner = Joiner(ctx, s)
    eol = s["eol"]
    readers = []
    for k, data in enumerate(contents):
        lines = data.split(eol) if data else []
        if lines and lines[-1] == b"":
            lines.pop()
        readers.append(Reader(joiner, lines, k))
    try:
        _join(joiner, readers[0], readers[1])
    except JoinError:
        joiner.flush()
        return 1
    joiner.flush()
    if joiner.warned[0] or joiner.warned[1]:
        ctx.error("input is not in sorted order")
        return 1
    return 0


class _ExtraOperand(Exception):
    """A third operand that no option can take; ``str()`` is the word."""


_TAKES_ARG = set("aeo12jtv")


def _events(args: list[str]) -> list[tuple[str, str, str | None]]:
    """The command line in order, as getopt with ``-`` first walks it: ``("opt", key, value)``
    and ``("operand", "", word)``; an attached ``-j1``/``-j2`` is reported with value ``1j``/``2j``.
    (``parse_command_line`` has already refused any line getopt refuses.)"""
    events: list[tuple[str, str, str | None]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            events.append(("dashdash", "", None))
            events += [("operand", "", a) for a in args[i:]]
            break
        if arg.startswith("--"):
            name = arg[2:].split("=", 1)[0]
            key = next(v[1] for k, v in SPEC.long.items() if k == name or k.startswith(name))
            events.append(("opt", key, None))
            continue
        if not arg.startswith("-") or arg == "-":
            events.append(("operand", "", arg))
            continue
        j = 1
        while j < len(arg):
            ch = arg[j]
            j += 1
            if ch not in _TAKES_ARG:
                events.append(("opt", ch, None))
                continue
            if j < len(arg):
                value = arg[j:]
                if ch == "j" and value in ("1", "2"):
                    value += "j"
            else:
                value = args[i]
                i += 1
            events.append(("opt", ch, value))
            break
    return events


def _operands(s: dict, events: list[tuple[str, str, str | None]]) -> list[str]:
    """GNU's ``add_file_name``: the two operands, giving a word after ``-j1``, ``-j2`` or
    ``-o LIST`` to that option when a third operand shows it was not a file."""
    names: list[str] = []
    status: list[str] = []
    pending_j = [0, 0]
    prev = "operand"
    for kind, key, value in events:
        current = "operand"
        if kind == "dashdash":
            prev = "operand"
            continue
        if kind == "opt":
            if key == "j" and value in ("1j", "2j"):
                pending_j[int(value[0]) - 1] += 1
                current = "j" + value[0]
            elif key == "o":
                current = "o"
        else:
            word = value or ""
            if len(names) == 2:
                op0 = status[0] == "operand"
                arg = names[op0]
                tag = status[op0]
                if tag == "operand":
                    raise _ExtraOperand(word)
                if tag == "j1":
                    pending_j[0] -= 1
                    _set_field(s, 0, join_field(arg))
                elif tag == "j2":
                    pending_j[1] -= 1
                    _set_field(s, 1, join_field(arg))
                else:
                    s["outlist"].extend(field_list(arg))
                if not op0:
                    status[0], names[0] = status[1], names[1]
                del names[1:], status[1:]
            names.append(word)
            status.append(prev)
            if prev == "o":
                current = "o"
        prev = current
    for k in (0, 1):
        if pending_j[k]:
            _set_field(s, 0, k)
            _set_field(s, 1, k)
    return names


def _join(j: Joiner, r1: Reader, r2: Reader) -> None:
    """GNU ``join()``: walk both inputs, pairing runs of equal keys."""
    s = j.s
    seq1: list[Line] = []
    seq2: list[Line] = []
    first = r1.get()
    if first is not None:
        seq1.append(first)
    first = r2.get()
    if first is not None:
        seq2.append(first)
    if s["auto"]:
        j.autocount = [len(seq1[0].fields) if seq1 else 0, len(seq2[0].fields) if seq2 else 0]
    if s["header"] and (seq1 or seq2):
        j.emit(seq1[0] if seq1 else BLANK, seq2[0] if seq2 else BLANK)
        r1.prev = r2.prev = None
        if seq1:
            seq1 = _advance(r1)
        if seq2:
            seq2 = _advance(r2)
    while seq1 and seq2:
        diff = j.cmp(seq1[0], seq2[0], 0, 1)
        if diff < 0:
            if s["unpaired"][0]:
                j.emit(seq1[0], BLANK)
            seq1 = _advance(r1)
            j.seen_unpairable = True
            continue
        if diff > 0:
            if s["unpaired"][1]:
                j.emit(BLANK, seq2[0])
            seq2 = _advance(r2)
            j.seen_unpairable = True
            continue
        eof1 = eof2 = False
        while True:
            line = r1.get()
            if line is None:
                eof1 = True
                break
            seq1.append(line)
            if j.cmp(line, seq2[0], 0, 1) != 0:
                break
        while True:
            line = r2.get()
            if line is None:
                eof2 = True
                break
            seq2.append(line)
            if j.cmp(seq1[0], line, 0, 1) != 0:
                break
        if s["pairables"]:
            n1 = len(seq1) if eof1 else len(seq1) - 1
            n2 = len(seq2) if eof2 else len(seq2) - 1
            for a in seq1[:n1]:
                for b in seq2[:n2]:
                    j.emit(a, b)
                j.ctx.budget.check_time()
        seq1 = [] if eof1 else [seq1[-1]]
        seq2 = [] if eof2 else [seq2[-1]]
    # Unless --nocheck-order, GNU reads the tails to check their order (until it has warned).
    checktail = s["check"] is not False and not (j.warned[0] and j.warned[1])
    if (s["unpaired"][0] or checktail) and seq1:
        if s["unpaired"][0]:
            j.emit(seq1[0], BLANK)
        if seq2:
            j.seen_unpairable = True
        while True:
            line = r1.get()
            if line is None:
                break
            if s["unpaired"][0]:
                j.emit(line, BLANK)
            if j.warned[0] and not s["unpaired"][0]:
                break
    if (s["unpaired"][1] or checktail) and seq2:
        if s["unpaired"][1]:
            j.emit(BLANK, seq2[0])
        if seq1:
            j.seen_unpairable = True
        while True:
            line = r2.get()
            if line is None:
                break
            if s["unpaired"][1]:
                j.emit(BLANK, line)
            if j.warned[1] and not s["unpaired"][1]:
                break


def _advance(reader: Reader) -> list[Line]:
    line = reader.get()
    return [] if line is None else [line]
