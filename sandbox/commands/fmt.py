"""``fmt``: simple optimal text formatter (GNU coreutils 9.1): ``-w WIDTH``, ``-g GOAL``, ``-s``,
``-u``, ``-c``, ``-t``, ``-p PREFIX`` and the obsolete first-option ``-WIDTH``.

A line-by-line port of GNU fmt.c: the same paragraph reader (prefix, indentation, crown and
tagged modes, tabs remembered for the output), the same word scan (a sentence ends at
``[.?!]`` plus closing punctuation followed by two spaces or end of line), the same dynamic
program over break points with GNU's cost constants (short, ragged, widow, orphan, sentence,
punctuation and parenthesis terms), and the same flushing of paragraphs longer than 1000
words or 5000 characters, so the output matches byte for byte. Columns are bytes.
"""

from __future__ import annotations

import errno

from sandbox.commands._quoting import quote, quoteaf
from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError

SPEC = OptionSpec(
    short="0123456789cstuw:p:g:",
    long={
        "crown-margin": (NO_ARG, "c"),
        "prefix": (REQUIRED, "p"),
        "split-only": (NO_ARG, "s"),
        "tagged-paragraph": (NO_ARG, "t"),
        "uniform-spacing": (NO_ARG, "u"),
        "width": (REQUIRED, "w"),
        "goal": (REQUIRED, "g"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
)

HELP = """Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
      --help        display this help and exit
      --version     output version information and exit
"""

VERSION = """fmt (GNU coreutils) 9.1
Copyright (C) 2022 Free Software Foundation, Inc.
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.
This is free software: you are free to change and redistribute it.
There is NO WARRANTY, to the extent permitted by law.

Written by Ross Paterson."""

WIDTH = 75
LEEWAY = 7
DEF_INDENT = 3
TABWIDTH = 8
MAXWORDS = 1000
MAXCHARS = 5000
MAXCOST = (1 << 63) - 1
EOF = -1


def _equiv(n: int) -> int:
    return n * n


LINE_COST = _equiv(70)
SENTENCE_BONUS = _equiv(50)
NOBREAK_COST = _equiv(600)
PAREN_BONUS = _equiv(40)
PUNCT_BONUS = _equiv(40)
# GNU tests these with strchr, which also finds the string's terminating NUL.
_OPEN = frozenset(b"(['`\"\0")
_CLOSE = frozenset(b")]'\"\0")
_PERIOD = frozenset(b".?!\0")
_PUNCT = frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_SPACE = frozenset(b" \t\n\v\f\r")


def _short_cost(n: int) -> int:
    return _equiv(n * 10)


def _ragged_cost(n: int) -> int:
    return _short_cost(n) // 2 if _short_cost(n) >= 0 else -((-_short_cost(n)) // 2)


def _widow_cost(n: int) -> int:
    return _cdiv(_equiv(200), n + 2)


def _orphan_cost(n: int) -> int:
    return _cdiv(_equiv(150), n + 2)


def _cdiv(a: int, b: int) -> int:
    """C integer division (truncation toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


class Word:
    """One word of the paragraph being filled (GNU's ``WORD``)."""

    __slots__ = ("text", "length", "space", "paren", "period", "punct", "final", "line_length",
                 "best_cost", "next_break")

    def __init__(self) -> None:
        self.text = 0
        self.length = 0
        self.space = 0
        self.paren = self.period = self.punct = self.final = False
        self.line_length = 0
        self.best_cost = 0
        self.next_break = 0

    def copy_from(self, other: "Word") -> None:
        """Take every field of ``other`` (GNU's memmove of WORD structs)."""
        for name in self.__slots__:
            setattr(self, name, getattr(other, name))


class Formatter:
    """GNU fmt's globals and routines, for one run over several inputs."""

    def __init__(self, ctx: CommandContext, s: dict):
        self.ctx = ctx
        self.crown = s["crown"]
        self.tagged = s["tagged"]
        self.split_mode = s["split"]
        self.uniform = s["uniform"]
        self.max_width = s["max_width"]
        self.goal_width = s["goal_width"]
        self.prefix = s["prefix"]
        self.prefix_length = len(self.prefix)
        self.prefix_full_length = s["prefix_full_length"]
        self.prefix_lead_space = s["prefix_lead_space"]
        self.out = bytearray()
        self.parabuf = bytearray(MAXCHARS)
        self.words = [Word() for _ in range(MAXWORDS)]
        self.wptr = 0
        self.word_limit = 0
        self.tabs = False
        self.other_indent = 0
        self.first_indent = 0
        self.prefix_indent = 0
        self.next_prefix_indent = 0
        self.in_column = 0
        self.out_column = 0
        self.last_line_length = 0
        self.next_char = EOF
        self.data = b""
        self.pos = 0

    # -- input ---------------------------------------------------------------------------

    def getc(self) -> int:
        """The next input byte, or EOF."""
        if self.pos >= len(self.data):
            return EOF
        c = self.data[self.pos]
        self.pos += 1
        return c

    def fmt(self, data: bytes) -> None:
        """GNU ``fmt()`` over one input."""
        self.data, self.pos = data, 0
        self.tabs = False
        self.other_indent = 0
        self.next_char = self.get_prefix()
        while self.get_paragraph():
            self.fmt_paragraph()
            self.put_paragraph(self.word_limit)
            if len(self.out) > 1 << 16:
                self.flush_out()
        self.flush_out()

    def flush_out(self) -> None:
        """Write the pending output."""
        if self.out:
            self.ctx.stdout.write(bytes(self.out))
            self.out.clear()
            self.ctx.budget.check_time()

    def get_paragraph(self) -> bool:
        """Read one paragraph into the word table (copying lines that are not part of one)."""
        self.last_line_length = 0
        c = self.next_char
        while (c == 10 or c == EOF or self.next_prefix_indent < self.prefix_lead_space
               or self.in_column < self.next_prefix_indent + self.prefix_full_length):
            c = self.copy_rest(c)
            if c == EOF:
                self.next_char = EOF
                return False
            self.out.append(10)
            c = self.get_prefix()
        self.prefix_indent = self.next_prefix_indent
        self.first_indent = self.in_column
        self.wptr = 0
        self.word_limit = 0
        c = self.get_line(c)
        self.set_other_indent(self.same_para(c))
        if self.split_mode:
            pass
        elif self.crown:
            if self.same_para(c):
                while True:
                    c = self.get_line(c)
                    if not (self.same_para(c) and self.in_column == self.other_indent):
                        break
        elif self.tagged:
            if self.same_para(c) and self.in_column != self.first_indent:
                while True:
                    c = self.get_line(c)
                    if not (self.same_para(c) and self.in_column == self.other_indent):
                        break
        else:
            while self.same_para(c) and self.in_column == self.other_indent:
                c = self.get_line(c)
        last = self.words[self.word_limit - 1]
        last.period = last.final = True
        self.next_char = c
        return True

    def copy_rest(self, c: int) -> int:
        """Copy a line that is not part of a paragraph; return the \\n or EOF ending it."""
        self.out_column = 0
        if self.in_column > self.next_prefix_indent or (c != 10 and c != EOF):
            self.put_space(self.next_prefix_indent)
            for ch in self.prefix:
                if self.out_column == self.in_column:
                    break
                self.out.append(ch)
                self.out_column += 1
            if c != EOF and c != 10:
                self.put_space(self.in_column - self.out_column)
            if c == EOF and self.in_column >= self.next_prefix_indent + self.prefix_length:
                self.out.append(10)
        start = self.pos
        if c != 10 and c != EOF:
            end = self.data.find(b"\n", start)
            end = len(self.data) if end < 0 else end
            self.out.append(c)
            self.out += self.data[start:end]
            self.pos = end
            c = self.getc()
        return c

    def same_para(self, c: int) -> bool:
        """Could a line starting (after the prefix) with ``c`` continue the paragraph?"""
        return (self.next_prefix_indent == self.prefix_indent
                and self.in_column >= self.next_prefix_indent + self.prefix_full_length
                and c != 10 and c != EOF)

    def get_line(self, c: int) -> int:
        """Break one line into words; return the first non-blank byte of the next line."""
        words = self.words
        while True:
            w = words[self.word_limit]
            w.text = self.wptr
            while True:
                if self.wptr == MAXCHARS:
                    self.set_other_indent(True)
                    self.flush_paragraph()
                    w = words[self.word_limit]
                self.parabuf[self.wptr] = c
                self.wptr += 1
                c = self.getc()
                if c == EOF or c in _SPACE:
                    break
            w.length = self.wptr - w.text
            self.in_column += w.length
            self.check_punctuation(w)
            start = self.in_column
            c = self.get_space(c)
            w.space = self.in_column - start
            w.final = c == EOF or (w.period and (c == 10 or w.space > 1))
            if c == 10 or c == EOF or self.uniform:
                w.space = 2 if w.final else 1
            if self.word_limit == MAXWORDS - 2:
                self.set_other_indent(True)
                self.flush_paragraph()
            self.word_limit += 1
            if c == 10 or c == EOF:
                break
        return self.get_prefix()

    def get_prefix(self) -> int:
        """Read the prefix of a line: the first non-matching byte or the first after it."""
        self.in_column = 0
        c = self.get_space(self.getc())
        if self.prefix_length == 0:
            self.next_prefix_indent = min(self.prefix_lead_space, self.in_column)
        else:
            self.next_prefix_indent = self.in_column
            for pc in self.prefix:
                if c != pc:
                    return c
                self.in_column += 1
                c = self.getc()
            c = self.get_space(c)
        return c

    def get_space(self, c: int) -> int:
        """Skip blanks from ``c``, keeping the input column; the first non-blank byte."""
        while True:
            if c == 32:
                self.in_column += 1
            elif c == 9:
                self.tabs = True
                self.in_column = (self.in_column // TABWIDTH + 1) * TABWIDTH
            else:
                return c
            c = self.getc()

    def check_punctuation(self, w: Word) -> None:
        """GNU ``check_punctuation``: the paren, punct and period flags of ``w``."""
        buf = self.parabuf
        start = w.text
        finish = start + w.length - 1
        w.paren = buf[start] in _OPEN
        w.punct = buf[finish] in _PUNCT
        while start < finish and buf[finish] in _CLOSE:
            finish -= 1
        w.period = buf[finish] in _PERIOD

    def set_other_indent(self, same_paragraph: bool) -> None:
        """GNU ``set_other_indent``."""
        if self.split_mode:
            self.other_indent = self.first_indent
        elif self.crown:
            self.other_indent = self.in_column if same_paragraph else self.first_indent
        elif self.tagged:
            if same_paragraph and self.in_column != self.first_indent:
                self.other_indent = self.in_column
            elif self.other_indent == self.first_indent:
                self.other_indent = DEF_INDENT if self.first_indent == 0 else 0
        else:
            self.other_indent = self.first_indent

    # -- filling -------------------------------------------------------------------------

    def flush_paragraph(self) -> None:
        """Make room: output the paragraph up to a cheap break near its end."""
        words = self.words
        if self.word_limit == 0:
            self.out += self.parabuf[: self.wptr]
            self.wptr = 0
            return
        self.fmt_paragraph()
        split_point = self.word_limit
        best_break = MAXCOST
        w = words[0].next_break
        while w != self.word_limit:
            diff = words[w].best_cost - words[words[w].next_break].best_cost
            if diff < best_break:
                split_point = w
                best_break = diff
            if best_break <= MAXCOST - LINE_COST:
                best_break += LINE_COST
            w = words[w].next_break
        self.put_paragraph(split_point)
        start = words[split_point].text
        self.parabuf[0 : self.wptr - start] = self.parabuf[start : self.wptr]
        del self.parabuf[MAXCHARS:]
        self.parabuf.extend(b"\0" * (MAXCHARS - len(self.parabuf)))
        self.wptr -= start
        for k in range(split_point, self.word_limit + 1):
            words[k].text -= start
        moved = [Word() for _ in range(self.word_limit - split_point + 1)]
        for k, src in enumerate(range(split_point, self.word_limit + 1)):
            moved[k].copy_from(words[src])
        shift = split_point
        for k, word in enumerate(moved):
            words[k].copy_from(word)
            if words[k].next_break:
                words[k].next_break -= shift
        self.word_limit -= shift

    def fmt_paragraph(self) -> None:
        """The optimal breaks of every suffix of the paragraph (GNU's dynamic program)."""
        words = self.words
        limit = self.word_limit
        words[limit].best_cost = 0
        saved = words[limit].length
        words[limit].length = self.max_width
        goal = self.goal_width
        max_width = self.max_width
        for start in range(limit - 1, -1, -1):
            best = MAXCOST
            length = self.first_indent if start == 0 else self.other_indent
            w = start
            length += words[w].length
            while True:
                w += 1
                nxt = words[w]
                if w == limit:
                    wcost = 0
                else:
                    n = goal - length
                    wcost = _short_cost(n)
                    if nxt.next_break != limit:
                        wcost += _ragged_cost(length - nxt.line_length)
                wcost += nxt.best_cost
                if start == 0 and self.last_line_length > 0:
                    wcost += _ragged_cost(length - self.last_line_length)
                if wcost < best:
                    best = wcost
                    words[start].next_break = w
                    words[start].line_length = length
                if w == limit:
                    break
                length += words[w - 1].space + nxt.length
                if length >= max_width:
                    break
            words[start].best_cost = best + self.base_cost(start)
        words[limit].length = saved

    def base_cost(self, this: int) -> int:
        """GNU ``base_cost``: the constant part of breaking before word ``this``."""
        words = self.words
        cost = LINE_COST
        w = words[this]
        if this > 0:
            prev = words[this - 1]
            if prev.period:
                cost += -SENTENCE_BONUS if prev.final else NOBREAK_COST
            elif prev.punct:
                cost -= PUNCT_BONUS
            elif this > 1 and words[this - 2].final:
                cost += _widow_cost(prev.length)
        if w.paren:
            cost -= PAREN_BONUS
        elif w.final:
            cost += _orphan_cost(w.length)
        return cost

    # -- output --------------------------------------------------------------------------

    def put_paragraph(self, finish: int) -> None:
        """Output the lines from the first word up to (not including) word ``finish``."""
        self.put_line(0, self.first_indent)
        w = self.words[0].next_break
        while w != finish:
            self.put_line(w, self.other_indent)
            w = self.words[w].next_break

    def put_line(self, w: int, indent: int) -> None:
        """Output the line starting with word ``w`` at column ``indent``, prefix included."""
        words = self.words
        self.out_column = 0
        self.put_space(self.prefix_indent)
        self.out += self.prefix
        self.out_column += self.prefix_length
        self.put_space(indent - self.out_column)
        endline = words[w].next_break - 1
        buf = self.parabuf
        while w != endline:
            word = words[w]
            self.out += buf[word.text : word.text + word.length]
            self.out_column += word.length
            self.put_space(word.space)
            w += 1
        word = words[w]
        self.out += buf[word.text : word.text + word.length]
        self.out_column += word.length
        self.last_line_length = self.out_column
        self.out.append(10)

    def put_space(self, space: int) -> None:
        """``space`` columns of blanks (tabs when the input had tabs)."""
        target = self.out_column + space
        if self.tabs:
            tab_target = target // TABWIDTH * TABWIDTH
            if self.out_column + 1 < tab_target:
                while self.out_column < tab_target:
                    self.out.append(9)
                    self.out_column = (self.out_column // TABWIDTH + 1) * TABWIDTH
        if self.out_column < target:
            self.out += b" " * (target - self.out_column)
            self.out_column = target


def _width(text: str, high: int) -> int:
    """``xdectoumax(text, 0, high, "", "invalid width")``."""
    body = text.lstrip(" \t\n\v\f\r")
    if body.startswith("+"):
        body = body[1:]
    if not body.isdigit() or not body.isascii():
        raise ValueError(f"invalid width: {quote(text)}")
    value = int(body)
    if value > high:
        reason = "Numerical result out of range" if value <= (1 << 31) - 1 else "Value too large for defined data type"
        if value > (1 << 64) - 1:
            reason = "Value too large for defined data type"
        raise ValueError(f"invalid width: {quote(text)}: {reason}")
    return value


def run(ctx: CommandContext) -> int:
    """Reformat the paragraphs of each input."""
    args = list(ctx.args)
    width_option: str | None = None
    if args and args[0].startswith("-") and args[0][1:2].isdigit():
        width_option = args[0][1:]
        args = args[1:]
    try:
        opts, operands = parse(SPEC, args)
    except UsageError as err:
        return ctx.usage_error(str(err))
    s = {"crown": False, "tagged": False, "split": False, "uniform": False, "prefix": b"",
         "prefix_full_length": 0, "prefix_lead_space": 0}
    goal_option: str | None = None
    for key, value in opts:
        if key == "help":
            ctx.stdout.write(HELP.encode())
            return 0
        if key == "version":
            ctx.stdout.write(f"{VERSION}\n".encode())
            return 0
        if key.isdigit():
            ctx.error(f"invalid option -- {key}; -WIDTH is recognized only when it is the first\n"
                      "option; use -w N instead")
            ctx.stderr.write(b"Try 'fmt --help' for more information.\n")
            return 1
        if key == "c":
            s["crown"] = True
        elif key == "s":
            s["split"] = True
        elif key == "t":
            s["tagged"] = True
        elif key == "u":
            s["uniform"] = True
        elif key == "w":
            width_option = value or ""
        elif key == "g":
            goal_option = value or ""
        elif key == "p":
            raw = (value or "").encode("utf-8", "surrogateescape")
            lead = len(raw) - len(raw.lstrip(b" "))
            body = raw[lead:]
            s["prefix_lead_space"] = lead
            s["prefix_full_length"] = len(body)
            s["prefix"] = body.rstrip(b" ")
    try:
        max_width = _width(width_option, MAXCHARS // 2) if width_option is not None else WIDTH
        if goal_option is not None:
            goal_width = _width(goal_option, max_width)
            if width_option is None:
                max_width = goal_width + 10
        else:
            goal_width = max_width * (2 * (100 - LEEWAY) + 1) // 200
    except ValueError as err:
        ctx.error(str(err))
        return 1
    s["max_width"], s["goal_width"] = max_width, goal_width
    formatter = Formatter(ctx, s)
    status = 0
    for operand in operands or ["-"]:
        try:
            stream = ctx.stdin if operand == "-" else ctx.open_read(operand)
        except FSError as err:
            if err.errno != errno.EISDIR:  # GNU opens a directory; its read fails (below)
                ctx.error(f"cannot open {quoteaf(operand)} for reading: {err}")
                status = 1
                continue
            stream = None
        try:
            if stream is None:
                raise FSError(errno.EISDIR, operand)
            data = stream.read()
        except FSError:  # GNU's fmt: ``read error``, without the name or the errno
            ctx.error("read error")
            status = 1
            continue
        finally:
            if stream is not None and stream is not ctx.stdin:
                stream.close()
        formatter.fmt(data)
    return status
