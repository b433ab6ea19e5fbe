"""``pr``: paginate or columnate files for printing (GNU coreutils 9.1).

A port of GNU pr's page machine (``print_page``, ``read_line``, ``store_columns``/``balance``,
``print_header``, the tab and separator handling) over byte streams, so pages, headers
(``%Y-%m-%d %H:%M`` from the file's mtime, or now for standard input and ``-m``; ``-D FORMAT``),
padding, columns down (``-COLUMN``), across (``-a``), in parallel (``-m``), numbering
(``-n[SEP[DIGITS]]``, ``-N``), margins (``-o``), widths (``-w``, ``-W``), separators (``-s``, ``-S``,
``-J``), ``-d``, ``-t``, ``-T``, ``-f``/``-F``, ``-l``, ``-h``, ``-e``, ``-i``, ``-c``, ``-v``, ``-r`` and
``+FIRST[:LAST]``/``--pages`` print what GNU prints. Like GNU pr (not multibyte aware), bytes
outside ASCII's printable range count as zero columns.
"""

from __future__ import annotations

import errno
import re
import time
from typing import BinaryIO

from sandbox.commands import _wcwidth
from sandbox.commands._numbers import xstrtoimax
from sandbox.commands._quoting import quote, quotef
from sandbox.commands.base import CommandContext
from sandbox.commands.date import Moment, resolve_zone, strftime
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError, mtime_ns_of

SPEC = OptionSpec(
    "0123456789D:FJN:S::TW:abcde::fh:i::l:mn::o:rs::tvw:",
    {
        "pages": (REQUIRED, "pages"),
        "columns": (REQUIRED, "columns"),
        "across": (NO_ARG, "a"),
        "show-control-chars": (NO_ARG, "c"),
        "double-space": (NO_ARG, "d"),
        "date-format": (REQUIRED, "D"),
        "expand-tabs": (OPTIONAL, "e"),
        "form-feed": (NO_ARG, "f"),
        "header": (REQUIRED, "h"),
        "output-tabs": (OPTIONAL, "i"),
        "join-lines": (NO_ARG, "J"),
        "length": (REQUIRED, "l"),
        "merge": (NO_ARG, "m"),
        "number-lines": (OPTIONAL, "n"),
        "first-line-number": (REQUIRED, "N"),
        "indent": (REQUIRED, "o"),
        "no-file-warnings": (NO_ARG, "r"),
        "separator": (OPTIONAL, "s"),
        "sep-string": (OPTIONAL, "S"),
        "omit-header": (NO_ARG, "t"),
        "omit-pagination": (NO_ARG, "T"),
        "show-nonprinting": (NO_ARG, "v"),
        "width": (REQUIRED, "w"),
        "page-width": (REQUIRED, "W"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "version"),
    },
    permute=False,
)

USAGE = """Usage: pr [OPTION]... [FILE]...
Paginate or columnate FILE(s) for printing.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  +FIRST_PAGE[:LAST_PAGE], --pages=FIRST_PAGE[:LAST_PAGE]
                    begin [stop] printing with page FIRST_[LAST_]PAGE
  -COLUMN, --columns=COLUMN
                    output COLUMN columns and print columns down,
                    unless -a is used. Balance number of lines in the
                    columns on each page
  -a, --across      print columns across rather than down, used together
                    with -COLUMN
  -c, --show-control-chars
                    use hat notation (^G) and octal backslash notation
  -d, --double-space
                    double space the output
  -D, --date-format=FORMAT
                    use FORMAT for the header date
  -e[CHAR[WIDTH]], --expand-tabs[=CHAR[WIDTH]]
                    expand input CHARs (TABs) to tab WIDTH (8)
  -F, -f, --form-feed
                    use form feeds instead of newlines to separate pages
                    (by a 3-line page header with -F or a 5-line header
                    and trailer without -F)
  -h, --header=HEADER
                    use a centered HEADER instead of filename in page header,
                    -h "" prints a blank line, don't use -h""
  -i[CHAR[WIDTH]], --output-tabs[=CHAR[WIDTH]]
                    replace spaces with CHARs (TABs) to tab WIDTH (8)
  -J, --join-lines  merge full lines, turns off -W line truncation, no column
                    alignment, --sep-string[=STRING] sets separators
  -l, --length=PAGE_LENGTH
                    set the page length to PAGE_LENGTH (66) lines
                    (default number of lines of text 56, and with -F 63).
                    implies -t if PAGE_LENGTH <= 10
  -m, --merge       print all files in parallel, one in each column,
                    truncate lines, but join lines of full length with -J
  -n[SEP[DIGITS]], --number-lines[=SEP[DIGITS]]
                    number lines, use DIGITS (5) digits, then SEP (TAB),
                    default counting starts with 1st line of input file
  -N, --first-line-number=NUMBER
                    start counting with NUMBER at 1st line of first
                    page printed (see +FIRST_PAGE)
  -o, --indent=MARGIN
                    offset each line with MARGIN (zero) spaces, do not
                    affect -w or -W, MARGIN will be added to PAGE_WIDTH
  -r, --no-file-warnings
                    omit warning when a file cannot be opened
  -s[CHAR], --separator[=CHAR]
                    separate columns by a single character, default for CHAR
                    is the <TAB> character without -w and 'no char' with -w.
                    -s[CHAR] turns off line truncation of all 3 column
                    options (-COLUMN|-a -COLUMN|-m) except -w is set
  -S[STRING], --sep-string[=STRING]
                    separate columns by STRING,
                    without -S: Default separator <TAB> with -J and <space>
                    otherwise (same as -S" "), no effect on column options
  -t, --omit-header  omit page headers and trailers;
                     implied if PAGE_LENGTH <= 10
  -T, --omit-pagination
                    omit page headers and trailers, eliminate any pagination
                    by form feeds set in input files
  -v, --show-nonprinting
                    use octal backslash notation
  -w, --width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters for
                    multiple text-column output only, -s[char] turns off (72)
  -W, --page-width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters always,
                    truncate lines, except -J option is set, no interference
                    with -S or -s
      --help        display this help and exit
      --version     output version information and exit
"""

INT_MAX = (1 << 31) - 1
INT_MIN = -(1 << 31)
UINTMAX_MAX = (1 << 64) - 1
EOF = -1
ANYWHERE = 0
OPEN, FF_FOUND, ON_HOLD, CLOSED = range(4)
_NL, _FF, _TAB, _BS, _SP = 10, 12, 9, 8, 32
_SPACES = " \t\n\v\f\r"
_READ = 64 * 1024


class _Die(Exception):
    """GNU's ``die``: print ``args[0]`` (if any) and exit 1; ``usage`` adds the Try line."""

    def __init__(self, message: str | None, usage: bool = False):
        super().__init__(message)
        self.usage = usage


def _isprint(c: int) -> bool:
    return 0x20 <= c < 0x7F


def mbswidth(data: bytes) -> int:
    """gnulib ``mbswidth(s, 0)`` in C.UTF-8: invalid bytes count 1, controls 0."""
    total = 0
    for ch in data.decode("utf-8", "surrogateescape"):
        cp = ord(ch)
        if 0xDC80 <= cp <= 0xDCFF:
            total += 1
            continue
        w = _wcwidth.width(cp)
        if w >= 0:
            total += w
        elif not (cp < 0x20 or 0x7F <= cp < 0xA0):
            total += 1
    return total


def _getoptnum(text: str, low: int, what: str) -> int:
    """``xdectoimax(text, low, INT_MAX, "", what, 0)``."""
    status, value = xstrtoimax(text)
    if status in ("invalid", "suffix"):
        raise _Die(f"{what}: {quote(text)}")
    if status == "overflow" or value > INT_MAX:
        raise _Die(f"{what}: {quote(text)}: Value too large for defined data type")
    if value < low:
        raise _Die(f"{what}: {quote(text)}: Numerical result out of range")
    return value


def _strtoumax_prefix(text: str) -> tuple[str, int, int]:
    """xstrtoumax with an end pointer: (status, value, index after the digits)."""
    i = 0
    while i < len(text) and text[i] in _SPACES:
        i += 1
    if i < len(text) and text[i] == "-":
        return "invalid", 0, 0
    j = i + (1 if i < len(text) and text[i] == "+" else 0)
    k = j
    while k < len(text) and "0" <= text[k] <= "9":
        k += 1
    if k == j:
        return "invalid", 0, 0
    digits = text[j:k].lstrip("0") or "0"
    value = int(digits) if len(digits) < 25 else UINTMAX_MAX + 1
    if value > UINTMAX_MAX:
        return "overflow", UINTMAX_MAX, k
    return ("ok" if k == len(text) else "suffix"), value, k


class _Reader:
    """``getc``/``ungetc`` over a byte stream, in blocks."""

    def __init__(self, ctx: CommandContext, stream: BinaryIO | None, name: str, error: FSError | None = None):
        self.ctx = ctx
        self.stream = stream
        self.name = name
        self.error = error
        self.data = b""
        self.pos = 0
        self.back: int | None = None
        self.eof = False

    def getc(self) -> int:
        if self.back is not None:
            c, self.back = self.back, None
            return c
        if self.pos < len(self.data):
            c = self.data[self.pos]
            self.pos += 1
            return c
        if self.eof:
            return EOF
        if self.error is not None:
            raise _Die(f"{quotef(self.name)}: {self.error.strerror}")
        self.ctx.budget.check_time()
        try:
            self.data = self.stream.read(_READ) if self.stream is not None else b""
        except FSError as err:
            raise _Die(f"{quotef(self.name)}: {err.strerror}") from None
        self.pos = 0
        if not self.data:
            self.eof = True
            return EOF
        self.pos = 1
        return self.data[0]

    def ungetc(self, c: int) -> None:
        if c != EOF:
            self.back = c


class _Column:
    """GNU's ``struct COLUMN``."""

    def __init__(self) -> None:
        self.fp: _Reader | None = None
        self.name = ""
        self.status = OPEN
        self.stored = False  # print_func == print_stored / char_func == store_char
        self.current_line = 0
        self.lines_stored = 0
        self.lines_to_print = 0
        self.start_position = 0
        self.numbered = False
        self.full_page_printed = False


class _Pr:
    """The state of one ``pr`` run (GNU's globals)."""

    def __init__(self, ctx: CommandContext):
        self.ctx = ctx
        self.out = bytearray()
        self.parallel_files = False
        self.explicit_columns = False
        self.extremities = True
        self.keep_FF = False
        self.print_a_FF = False
        self.print_a_header = False
        self.use_form_feed = False
        self.print_across_flag = False
        self.storing_columns = True
        self.balance_columns = False
        self.lines_per_page = 66
        self.lines_per_header = 5
        self.lines_per_footer = 5
        self.lines_per_body = 0
        self.chars_per_line = 72
        self.truncate_lines = False
        self.join_lines = False
        self.chars_per_column = 0
        self.untabify_input = False
        self.input_tab_char = _TAB
        self.chars_per_input_tab = 8
        self.tabify_output = False
        self.output_tab_char = _TAB
        self.chars_per_output_tab = 8
        self.spaces_not_printed = 0
        self.chars_per_margin = 0
        self.output_position = 0
        self.input_position = 0
        self.failed_opens = False
        self.columns = 1
        self.first_page_number = 0
        self.last_page_number = UINTMAX_MAX
        self.files_ready_to_read = 0
        self.page_number = 0
        self.line_number = 0
        self.numbered_lines = False
        self.number_separator = _TAB
        self.line_count = 1
        self.skip_count = True
        self.start_line_num = 1
        self.chars_per_number = 5
        self.number_width = 0
        self.use_esc_sequence = False
        self.use_cntrl_prefix = False
        self.double_space = False
        self.total_files = 0
        self.ignore_failed_opens = False
        self.use_col_separator = False
        self.col_sep_string = b""
        self.separators_not_printed = 0
        self.padding_not_printed = 0
        self.pad_vertically = False
        self.custom_header: bytes | None = None
        self.date_format = "%Y-%m-%d %H:%M"
        self.date_text = b""
        self.file_text = b""
        self.header_width_available = 0
        self.last_line = False
        self.align_empty_cols = False
        self.empty_line = False
        self.FF_only = False
        self.column_vector: list[_Column] = []
        self.buff = bytearray()
        self.line_vector: list[int] = []
        self.end_vector: list[int] = []
        self.now: tuple[int, int] | None = None
        self._plain = re.compile(b"[!-~]+")

    # -- output ------------------------------------------------------------------------------
    def putchar(self, c: int) -> None:
        self.out.append(c)
        if len(self.out) >= _READ:
            self.flush()

    def write(self, data: bytes) -> None:
        self.out += data
        if len(self.out) >= _READ:
            self.flush()

    def flush(self) -> None:
        if self.out:
            self.ctx.stdout.write(bytes(self.out))
            self.out.clear()
            self.ctx.budget.check_time()

    # -- setup -------------------------------------------------------------------------------
    def cols_ready_to_print(self) -> int:
        n = 0
        for q in self.column_vector[: self.columns]:
            if q.status in (OPEN, FF_FOUND) or (self.storing_columns and q.lines_stored > 0 and q.lines_to_print > 0):
                n += 1
        return n

    def init_parameters(self, number_of_files: int) -> None:
        chars_used_by_number = 0
        self.lines_per_body = self.lines_per_page - self.lines_per_header - self.lines_per_footer
        if self.lines_per_body <= 0:
            self.extremities = False
            self.keep_FF = True
        if not self.extremities:
            self.lines_per_body = self.lines_per_page
        if self.double_space:
            self.lines_per_body //= 2
        if number_of_files == 0:
            self.parallel_files = False
        if self.parallel_files:
            self.columns = number_of_files
        if self.storing_columns:
            self.balance_columns = True
        if self.columns > 1:
            if not self.use_col_separator:
                self.col_sep_string = b"\t" if self.join_lines else b" "
                self.use_col_separator = True
            elif not self.join_lines and self.col_sep_string == b"\t":
                self.col_sep_string = b" "
            self.truncate_lines = True
            if self.col_sep_string != b"\t":
                self.untabify_input = True
            self.tabify_output = True
        else:
            self.storing_columns = False
        if self.join_lines:
            self.truncate_lines = False
        if self.numbered_lines:
            self.line_count = self.start_line_num
            if self.number_separator == _TAB:
                self.number_width = self.chars_per_number + (8 - self.chars_per_number % 8)
            else:
                self.number_width = self.chars_per_number + 1
            if self.parallel_files:
                chars_used_by_number = self.number_width
        sep_chars = min((self.columns - 1) * len(self.col_sep_string), INT_MAX)
        useful = self.chars_per_line - chars_used_by_number - sep_chars
        if useful < INT_MIN:
            useful = 0
        self.chars_per_column = int(useful / self.columns) if useful >= 0 else -((-useful) // self.columns)
        if self.chars_per_column < 1:
            raise _Die("page width too narrow")
        # Bytes that print_char/store_char handle one column at a time with nothing pending:
        # read_line copies runs of them at once (``_bulk``).
        plain = [c for c in range(0x20, 0x7F)
                 if c != self.input_tab_char and not (c == _SP and self.tabify_output)]
        self._plain = re.compile(b"[" + b"".join(re.escape(bytes([c])) for c in plain) + b"]+")

    def open_file(self, name: str, p: _Column) -> bool:
        if name == "-":
            p.name = "standard input"
            p.fp = _Reader(self.ctx, self.ctx.stdin, p.name)
        else:
            p.name = name
            try:
                p.fp = _Reader(self.ctx, self.ctx.open_read(name), name)
            except FSError as err:
                if err.errno == errno.EISDIR:
                    p.fp = _Reader(self.ctx, None, name, err)
                else:
                    self.failed_opens = True
                    if not self.ignore_failed_opens:
                        self.ctx.error(f"{quotef(name)}: {err.strerror}")
                    return False
        p.status = OPEN
        p.full_page_printed = False
        self.total_files += 1
        return True

    def init_header(self, filename: str, has_file: bool) -> None:
        if filename == "-":
            has_file = False
        seconds = nanos = None
        if has_file:
            try:
                st = self.ctx.stat(filename)
                ns = mtime_ns_of(st)
                seconds, nanos = ns // 1_000_000_000, ns % 1_000_000_000
            except FSError:
                seconds = None
        if seconds is None:
            if self.now is None:
                ns = time.time_ns()
                self.now = (ns // 1_000_000_000, ns % 1_000_000_000)
            seconds, nanos = self.now
        zone, zone_name = resolve_zone(self.ctx.env.get("TZ"))
        try:
            text = strftime(self.date_format, Moment(seconds, nanos or 0, zone, zone_name))
            self.date_text = text.encode("utf-8", "surrogateescape")
        except Exception:  # noqa: BLE001 - GNU prints seconds.nanoseconds when localtime fails
            self.date_text = f"{seconds}.{nanos or 0:09d}".encode()
        if self.custom_header is not None:
            self.file_text = self.custom_header
        else:
            self.file_text = b"" if not has_file else filename.encode("utf-8", "surrogateescape")
        self.header_width_available = self.chars_per_line - mbswidth(self.date_text) - mbswidth(self.file_text)

    def init_fps(self, number_of_files: int, names: list[str]) -> bool:
        self.total_files = 0
        self.column_vector = [_Column() for _ in range(self.columns)]
        if self.parallel_files:
            kept = []
            for name in names:
                p = _Column()
                if self.open_file(name, p):
                    kept.append(p)
            self.columns = len(kept)
            self.column_vector = kept
            if self.columns == 0:
                return False
            self.init_header("", False)
        else:
            p = self.column_vector[0]
            if number_of_files > 0:
                if not self.open_file(names[0], p):
                    return False
                self.init_header(names[0], True)
                p.lines_stored = 0
            else:
                p.name = "standard input"
                p.fp = _Reader(self.ctx, self.ctx.stdin, p.name)
                p.status = OPEN
                p.full_page_printed = False
                self.total_files += 1
                self.init_header("", False)
                p.lines_stored = 0
            for q in self.column_vector[1:]:
                q.name = p.name
                q.fp = p.fp
                q.status = OPEN
                q.full_page_printed = False
                q.lines_stored = 0
        self.files_ready_to_read = self.total_files
        return True

    def init_funcs(self) -> None:
        h = self.chars_per_margin
        sep = len(self.col_sep_string)
        if not self.truncate_lines:
            h_next = ANYWHERE
        elif self.parallel_files and self.numbered_lines:
            h_next = h + self.chars_per_column + self.number_width
        else:
            h_next = h + self.chars_per_column
        h = h + sep
        i = 1
        for p in self.column_vector[: self.columns - 1]:
            p.stored = self.storing_columns
            p.numbered = self.numbered_lines and (not self.parallel_files or i == 1)
            p.start_position = h
            if not self.truncate_lines:
                h = ANYWHERE
                h_next = ANYWHERE
            else:
                h = h_next + sep
                h_next = h + self.chars_per_column
            i += 1
        p = self.column_vector[self.columns - 1]
        p.stored = self.storing_columns and self.balance_columns
        p.numbered = self.numbered_lines and (not self.parallel_files or i == 1)
        p.start_position = h

    def close_file(self, p: _Column) -> None:
        if p.status == CLOSED:
            return
        if not self.parallel_files:
            for q in self.column_vector[: self.columns]:
                q.status = CLOSED
                if q.lines_stored == 0:
                    q.lines_to_print = 0
        else:
            p.status = CLOSED
            p.lines_to_print = 0
        self.files_ready_to_read -= 1

    def hold_file(self, p: _Column) -> None:
        if not self.parallel_files:
            for q in self.column_vector[: self.columns]:
                q.status = FF_FOUND if self.storing_columns else ON_HOLD
        else:
            p.status = ON_HOLD
        p.lines_to_print = 0
        self.files_ready_to_read -= 1

    def reset_status(self) -> None:
        for p in self.column_vector[: self.columns]:
            if p.status == ON_HOLD:
                p.status = OPEN
                self.files_ready_to_read += 1
        if self.storing_columns:
            self.files_ready_to_read = 0 if self.column_vector[0].status == CLOSED else 1

    def print_files(self, number_of_files: int, names: list[str]) -> None:
        self.init_parameters(number_of_files)
        if not self.init_fps(number_of_files, names):
            return
        if self.first_page_number > 1:
            if not self.skip_to_page(self.first_page_number):
                return
            self.page_number = self.first_page_number
        else:
            self.page_number = 1
        self.init_funcs()
        self.line_number = self.line_count
        while self.print_page():
            pass

    def init_page(self) -> None:
        if self.storing_columns:
            self.store_columns()
            for p in self.column_vector[: self.columns - 1]:
                p.lines_to_print = p.lines_stored
            p = self.column_vector[self.columns - 1]
            if self.balance_columns:
                p.lines_to_print = p.lines_stored
            else:
                p.lines_to_print = self.lines_per_body if p.status == OPEN else 0
        else:
            for p in self.column_vector[: self.columns]:
                p.lines_to_print = self.lines_per_body if p.status == OPEN else 0

    def align_column(self, p: _Column) -> None:
        self.padding_not_printed = p.start_position
        if len(self.col_sep_string) < self.padding_not_printed:
            self.pad_across_to(self.padding_not_printed - len(self.col_sep_string))
            self.padding_not_printed = ANYWHERE
        if self.use_col_separator:
            self.print_sep_string()
        if p.numbered:
            self.add_line_number(p)

    def print_page(self) -> bool:
        self.init_page()
        if self.cols_ready_to_print() == 0:
            return False
        if self.extremities:
            self.print_a_header = True
        self.pad_vertically = False
        pv = False
        lines_left_on_page = self.lines_per_body
        if self.double_space:
            lines_left_on_page *= 2
        while lines_left_on_page > 0 and self.cols_ready_to_print() > 0:
            self.ctx.budget.check_time()
            self.output_position = 0
            self.spaces_not_printed = 0
            self.separators_not_printed = 0
            self.pad_vertically = False
            self.align_empty_cols = False
            self.empty_line = True
            for p in self.column_vector[: self.columns]:
                self.input_position = 0
                if p.lines_to_print > 0 or p.status == FF_FOUND:
                    self.FF_only = False
                    self.padding_not_printed = p.start_position
                    done = self.print_stored(p) if p.stored else self.read_line(p)
                    if not done:
                        self.read_rest_of_line(p)
                    pv |= self.pad_vertically
                    p.lines_to_print -= 1
                    if p.lines_to_print <= 0 and self.cols_ready_to_print() == 0:
                        break
                    if self.parallel_files and p.status != OPEN:
                        if self.empty_line:
                            self.align_empty_cols = True
                        elif p.status == CLOSED or (p.status == ON_HOLD and self.FF_only):
                            self.align_column(p)
                elif self.parallel_files:
                    if self.empty_line:
                        self.align_empty_cols = True
                    else:
                        self.align_column(p)
                if self.use_col_separator:
                    self.separators_not_printed += 1
            if self.pad_vertically:
                self.putchar(_NL)
                lines_left_on_page -= 1
            if self.cols_ready_to_print() == 0 and not self.extremities:
                break
            if self.double_space and pv:
                self.putchar(_NL)
                lines_left_on_page -= 1
        if lines_left_on_page == 0:
            for p in self.column_vector[: self.columns]:
                if p.status == OPEN:
                    p.full_page_printed = True
        self.pad_vertically = pv
        if self.pad_vertically and self.extremities:
            self.pad_down(lines_left_on_page + self.lines_per_footer)
        elif self.keep_FF and self.print_a_FF:
            self.putchar(_FF)
            self.print_a_FF = False
        self.page_number += 1
        if self.last_page_number < self.page_number:
            return False
        self.reset_status()
        return True

    def store_columns(self) -> None:
        line = 0
        self.buff = bytearray()
        buff_start = 0
        last_col = self.columns if self.balance_columns else self.columns - 1
        total = self.lines_per_body * self.columns + 1
        if len(self.line_vector) < total:
            self.line_vector = [0] * total
            self.end_vector = [0] * total
        for p in self.column_vector[:last_col]:
            p.lines_stored = 0
        for p in self.column_vector[:last_col]:
            if not self.files_ready_to_read:
                break
            p.current_line = line
            j = self.lines_per_body
            while j and self.files_ready_to_read:
                if p.status == OPEN:
                    self.input_position = 0
                    if not self.read_line(p):
                        self.read_rest_of_line(p)
                    if p.status == OPEN or buff_start != len(self.buff):
                        p.lines_stored += 1
                        self.line_vector[line] = buff_start
                        self.end_vector[line] = self.input_position
                        line += 1
                        buff_start = len(self.buff)
                j -= 1
        self.line_vector[line] = buff_start
        if self.balance_columns:
            self.balance(line)

    def balance(self, total_stored: int) -> None:
        first_line = 0
        for i, p in enumerate(self.column_vector[: self.columns], start=1):
            lines = total_stored // self.columns
            if i <= total_stored % self.columns:
                lines += 1
            p.lines_stored = lines
            p.current_line = first_line
            first_line += lines

    def char_func(self, p: _Column, c: int) -> None:
        if p.stored:
            self.buff.append(c)
        else:
            self.print_char(c)

    def add_line_number(self, p: _Column) -> None:
        text = b"%*d" % (self.chars_per_number, self.line_number)
        self.line_number += 1
        for c in text[len(text) - self.chars_per_number:]:
            self.char_func(p, c)
        if self.columns > 1:
            if self.number_separator == _TAB:
                for _ in range(self.number_width - self.chars_per_number):
                    self.char_func(p, _SP)
            else:
                self.char_func(p, self.number_separator)
        else:
            self.char_func(p, self.number_separator)
            if self.number_separator == _TAB:
                self.output_position += self.chars_per_output_tab - self.output_position % self.chars_per_output_tab
        if self.truncate_lines and not self.parallel_files:
            self.input_position += self.number_width

    def pad_across_to(self, position: int) -> None:
        if self.tabify_output:
            self.spaces_not_printed = position - self.output_position
        else:
            h = self.output_position
            while h + 1 <= position:
                h += 1
                self.putchar(_SP)
            self.output_position = position

    def pad_down(self, lines: int) -> None:
        if self.use_form_feed:
            self.putchar(_FF)
        else:
            self.write(b"\n" * max(lines, 0))

    def read_rest_of_line(self, p: _Column) -> None:
        f = p.fp
        assert f is not None
        while True:
            c = f.getc()
            if c == _NL:
                return
            if c == _FF:
                c = f.getc()
                if c != _NL:
                    f.ungetc(c)
                if self.keep_FF:
                    self.print_a_FF = True
                self.hold_file(p)
                return
            if c == EOF:
                self.close_file(p)
                return

    def skip_read(self, p: _Column, column_number: int) -> None:
        f = p.fp
        assert f is not None
        single_ff = False
        c = f.getc()
        if c == _FF and p.full_page_printed:
            c = f.getc()
            if c == _NL:
                c = f.getc()
        p.full_page_printed = False
        if c == _FF:
            single_ff = True
        if self.last_line:
            p.full_page_printed = True
        while c != _NL:
            if c == _FF:
                if self.last_line:
                    if not self.parallel_files:
                        for q in self.column_vector[: self.columns]:
                            q.full_page_printed = False
                    else:
                        p.full_page_printed = False
                c = f.getc()
                if c != _NL:
                    f.ungetc(c)
                self.hold_file(p)
                break
            if c == EOF:
                self.close_file(p)
                break
            c = f.getc()
        if self.skip_count and (not self.parallel_files or column_number == 1) and not single_ff:
            self.line_count += 1

    def print_white_space(self) -> None:
        h_old = self.output_position
        goal = h_old + self.spaces_not_printed
        tab = self.chars_per_output_tab
        while goal - h_old > 1:
            h_new = h_old + (tab - h_old % tab)
            if h_new > goal:
                break
            self.putchar(self.output_tab_char)
            h_old = h_new
        while h_old + 1 <= goal:
            h_old += 1
            self.putchar(_SP)
        self.output_position = goal
        self.spaces_not_printed = 0

    def print_sep_string(self) -> None:
        if self.separators_not_printed <= 0:
            if self.spaces_not_printed > 0:
                self.print_white_space()
            return
        s = self.col_sep_string
        remaining = len(s)
        k = 0
        while self.separators_not_printed > 0:
            while remaining > 0:
                remaining -= 1
                c = s[k]
                k += 1
                if c == _SP:
                    self.spaces_not_printed += 1
                else:
                    if self.spaces_not_printed > 0:
                        self.print_white_space()
                    self.putchar(c)
                    self.output_position += 1
            if self.spaces_not_printed > 0:
                self.print_white_space()
            self.separators_not_printed -= 1

    def print_char(self, c: int) -> None:
        if self.tabify_output:
            if c == _SP:
                self.spaces_not_printed += 1
                return
            if self.spaces_not_printed > 0:
                self.print_white_space()
            if not _isprint(c):
                if c == _BS:
                    self.output_position -= 1
            else:
                self.output_position += 1
        self.putchar(c)

    def skip_to_page(self, page: int) -> bool:
        n = 1
        while n < page:
            self.ctx.budget.check_time()
            for _ in range(1, self.lines_per_body):
                for j, p in enumerate(self.column_vector[: self.columns], start=1):
                    if p.status == OPEN:
                        self.skip_read(p, j)
            self.last_line = True
            for j, p in enumerate(self.column_vector[: self.columns], start=1):
                if p.status == OPEN:
                    self.skip_read(p, j)
            if self.storing_columns:
                for p in self.column_vector[: self.columns]:
                    if p.status != CLOSED:
                        p.status = ON_HOLD
            self.reset_status()
            self.last_line = False
            if self.files_ready_to_read < 1:
                self.ctx.error(f"starting page number {page} exceeds page count {n}")
                break
            n += 1
        return self.files_ready_to_read > 0

    def print_header(self) -> None:
        self.output_position = 0
        self.pad_across_to(self.chars_per_margin)
        self.print_white_space()
        if self.page_number == 0:
            raise _Die("page number overflow")
        page_text = b"Page %d" % self.page_number
        available = max(0, self.header_width_available - len(page_text))
        lhs = available >> 1
        rhs = available - lhs
        self.write(b"\n\n" + b" " * self.chars_per_margin + self.date_text + b" " * max(lhs, 1)
                   + self.file_text + b" " * max(rhs, 1) + page_text + b"\n\n\n")
        self.print_a_header = False
        self.output_position = 0

    def read_line(self, p: _Column) -> bool:
        f = p.fp
        assert f is not None
        c = f.getc()
        last_input_position = self.input_position
        if c == _FF and p.full_page_printed:
            c = f.getc()
            if c == _NL:
                c = f.getc()
        p.full_page_printed = False
        clump = b""
        if c == _FF:
            c = f.getc()
            if c != _NL:
                f.ungetc(c)
            self.FF_only = True
            if self.print_a_header and not self.storing_columns:
                self.pad_vertically = True
                self.print_header()
            elif self.keep_FF:
                self.print_a_FF = True
            self.hold_file(p)
            return True
        if c == EOF:
            self.close_file(p)
            return True
        if c != _NL:
            clump = self.char_to_clump(c)
        if self.truncate_lines and self.input_position > self.chars_per_column:
            self.input_position = last_input_position
            return False
        if not p.stored:
            self.pad_vertically = True
            if self.print_a_header and not self.storing_columns:
                self.print_header()
            if self.parallel_files and self.align_empty_cols:
                k = self.separators_not_printed
                self.separators_not_printed = 0
                for q in self.column_vector[:k]:
                    self.align_column(q)
                    self.separators_not_printed += 1
                self.padding_not_printed = p.start_position
                self.spaces_not_printed = self.chars_per_column if self.truncate_lines else 0
                self.align_empty_cols = False
            if len(self.col_sep_string) < self.padding_not_printed:
                self.pad_across_to(self.padding_not_printed - len(self.col_sep_string))
                self.padding_not_printed = ANYWHERE
            if self.use_col_separator:
                self.print_sep_string()
        if p.numbered:
            self.add_line_number(p)
        self.empty_line = False
        if c == _NL:
            return True
        for ch in clump:
            self.char_func(p, ch)
        while True:
            self._bulk(p, f)
            c = f.getc()
            if c == _NL:
                return True
            if c == _FF:
                c = f.getc()
                if c != _NL:
                    f.ungetc(c)
                if self.keep_FF:
                    self.print_a_FF = True
                self.hold_file(p)
                return True
            if c == EOF:
                self.close_file(p)
                return True
            last_input_position = self.input_position
            clump = self.char_to_clump(c)
            if self.truncate_lines and self.input_position > self.chars_per_column:
                self.input_position = last_input_position
                return False
            for ch in clump:
                self.char_func(p, ch)

    def _bulk(self, p: _Column, f: _Reader) -> None:
        """Copy a run of plain printable bytes from ``f``'s buffer as read_line would one by one."""
        if f.back is not None or f.pos >= len(f.data):
            return
        m = self._plain.match(f.data, f.pos)
        if m is None:
            return
        end = m.end()
        if self.truncate_lines:
            room = self.chars_per_column - self.input_position
            if room <= 0:
                return
            end = min(end, f.pos + room)
        chunk = f.data[f.pos:end]
        f.pos = end
        self.input_position += len(chunk)
        if p.stored:
            self.buff += chunk
            return
        if self.tabify_output:
            if self.spaces_not_printed > 0:
                self.print_white_space()
            self.output_position += len(chunk)
        self.write(chunk)

    def print_stored(self, p: _Column) -> bool:
        line = p.current_line
        p.current_line += 1
        first = self.line_vector[line]
        last = self.line_vector[line + 1]
        self.pad_vertically = True
        if self.print_a_header:
            self.print_header()
        if p.status == FF_FOUND:
            for q in self.column_vector[: self.columns]:
                q.status = ON_HOLD
            if self.column_vector[0].lines_to_print <= 0:
                if not self.extremities:
                    self.pad_vertically = False
                return True
        sep = len(self.col_sep_string)
        if sep < self.padding_not_printed:
            self.pad_across_to(self.padding_not_printed - sep)
            self.padding_not_printed = ANYWHERE
        if self.use_col_separator:
            self.print_sep_string()
        for c in self.buff[first:last]:
            self.print_char(c)
        if self.spaces_not_printed == 0:
            self.output_position = p.start_position + self.end_vector[line]
            if p.start_position - sep == self.chars_per_margin:
                self.output_position -= sep
        return True

    def char_to_clump(self, c: int) -> bytes:
        chars_per_c = 8
        if c == self.input_tab_char:
            chars_per_c = self.chars_per_input_tab
        if c == self.input_tab_char or c == _TAB:
            width = chars_per_c - self.input_position % chars_per_c
            clump = b" " * width if self.untabify_input else bytes([c])
        elif not _isprint(c):
            if self.use_esc_sequence:
                width, clump = 4, b"\\%03o" % c
            elif self.use_cntrl_prefix:
                if c < 0o200:
                    width, clump = 2, bytes([0x5E, c ^ 0o100])
                else:
                    width, clump = 4, b"\\%03o" % c
            elif c == _BS:
                width, clump = -1, bytes([c])
            else:
                width, clump = 0, bytes([c])
        else:
            width, clump = 1, bytes([c])
        if width < 0 and self.input_position == 0:
            clump = b""
            self.input_position = 0
        elif width < 0 and self.input_position <= -width:
            self.input_position = 0
        else:
            self.input_position += width
        return clump


# -- the command line -----------------------------------------------------------------------------

def _getoptarg(arg: str, switch: str) -> tuple[int | None, int | None]:
    """``-eCHAR WIDTH`` style arguments: (character or None, number or None); raises ``_Die``."""
    data = arg.encode("utf-8", "surrogateescape")
    char = None
    if data and not 0x30 <= data[0] <= 0x39:
        char = data[0]
        data = data[1:]
    if not data:
        return char, None
    text = data.decode("utf-8", "surrogateescape")
    status, value = xstrtoimax(text)
    if status == "ok":
        if value <= 0:
            status = "invalid"
        elif value > INT_MAX:
            status = "overflow"
    if status != "ok":
        detail = ": Value too large for defined data type" if status == "overflow" else ""
        raise _Die(f"'-{switch}' extra characters or invalid number in the argument: {quote(text)}{detail}",
                  usage=True)
    return char, value


def _first_last_page(pr: _Pr, pages: str, label: str) -> bool:
    """GNU's ``first_last_page`` for ``+PAGES`` (``label`` ``+``) or ``--pages``: True when set,
    False when the range is refused; raises ``_Die`` with xstrtol_fatal's message."""

    def fatal(status: str) -> _Die:
        if status == "overflow":
            return _Die(f"{label} argument '{pages}' too large")
        if status == "suffix":
            return _Die(f"invalid suffix in {label} argument '{pages}'")
        return _Die(f"invalid {label} argument '{pages}'")

    status, first, end = _strtoumax_prefix(pages)
    if status not in ("ok", "suffix"):
        raise fatal(status)
    if not first:
        return False
    last = UINTMAX_MAX
    rest = pages[end:]
    if rest.startswith(":"):
        status, last, _ = _strtoumax_prefix(rest[1:])
        if status != "ok":
            raise fatal(status)
        if last < first:
            return False
        rest = ""
    if rest:
        return False
    pr.first_page_number = first
    pr.last_page_number = last
    return True


def _words(args: list[str]) -> list[tuple[str, list[tuple[str, str | None]] | str]]:
    """The command line in getopt's order: ("opts", [(key, value)]) or ("file", name) items;
    raises ``UsageError`` at the first bad option (items before it are kept in ``.items``)."""
    items: list[tuple[str, list[tuple[str, str | None]] | str]] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            items.extend(("rest", a) for a in args[i + 1:])
            break
        if not arg.startswith("-") or arg == "-":
            items.append(("operand", arg))
            i += 1
            continue
        try:
            opts, _ = parse(SPEC, [arg])
            used = 1
        except UsageError as err:
            if "requires an argument" not in str(err) or i + 1 >= len(args):
                err.items = items  # type: ignore[attr-defined]
                raise
            opts, _ = parse(SPEC, args[i:i + 2])
            used = 2
        items.append(("opts", opts))
        i += used
    return items


def run(ctx: CommandContext) -> int:
    """Run ``pr``."""
    pr = _Pr(ctx)
    try:
        return _run(ctx, pr)
    except _Die as die:
        pr.flush()
        if die.args[0] is not None:
            ctx.error(die.args[0])
        if die.usage:
            ctx.stderr.write(b"Try 'pr --help' for more information.\n")
        return 1


def _run(ctx: CommandContext, pr: _Pr) -> int:
    error = None
    try:
        items = _words(ctx.args)
    except UsageError as err:
        items, error = err.items, str(err)  # type: ignore[attr-defined]
    files: list[str] = []
    digits = ""
    digit_run = False
    old_options = old_w = old_s = False
    for kind, payload in items:
        if kind in ("operand", "rest"):
            digit_run = False
            name = payload
            assert isinstance(name, str)
            if kind == "operand" and pr.first_page_number == 0 and name.startswith("+"):
                if _first_last_page(pr, name[1:], "+"):
                    continue
            files.append(name)
            continue
        assert isinstance(payload, list)
        for key, value in payload:
            if len(key) == 1 and key.isdigit():
                digits = (digits if digit_run else "") + key
                digit_run = True
                continue
            digit_run = False
            if key == "help":
                ctx.stdout.write(USAGE.encode())
                return 0
            if key == "version":
                ctx.stdout.write(b"pr (GNU coreutils) 9.1\n")
                return 0
            if key == "pages":
                if not _first_last_page(pr, value or "", "--pages"):
                    raise _Die(f"invalid page range {quote(value or '')}")
            elif key == "columns":
                pr.columns = _getoptnum(value or "", 1, "invalid number of columns")
                pr.explicit_columns = True
                digits = ""
            elif key == "a":
                pr.print_across_flag = True
                pr.storing_columns = False
            elif key == "c":
                pr.use_cntrl_prefix = True
            elif key == "d":
                pr.double_space = True
            elif key == "D":
                pr.date_format = value or ""
            elif key == "e":
                if value:
                    char, number = _getoptarg(value, "e")
                    if char is not None:
                        pr.input_tab_char = char
                    if number is not None:
                        pr.chars_per_input_tab = number
                pr.untabify_input = True
            elif key in "fF":
                pr.use_form_feed = True
            elif key == "h":
                pr.custom_header = (value or "").encode("utf-8", "surrogateescape")
            elif key == "i":
                if value:
                    char, number = _getoptarg(value, "i")
                    if char is not None:
                        pr.output_tab_char = char
                    if number is not None:
                        pr.chars_per_output_tab = number
                pr.tabify_output = True
            elif key == "J":
                pr.join_lines = True
            elif key == "l":
                pr.lines_per_page = _getoptnum(value or "", 1, "'-l PAGE_LENGTH' invalid number of lines")
            elif key == "m":
                pr.parallel_files = True
                pr.storing_columns = False
            elif key == "n":
                pr.numbered_lines = True
                if value:
                    char, number = _getoptarg(value, "n")
                    if char is not None:
                        pr.number_separator = char
                    if number is not None:
                        pr.chars_per_number = number
            elif key == "N":
                pr.skip_count = False
                pr.start_line_num = _getoptnum(value or "", INT_MIN, "'-N NUMBER' invalid starting line number")
            elif key == "o":
                pr.chars_per_margin = _getoptnum(value or "", 0, "'-o MARGIN' invalid line offset")
            elif key == "r":
                pr.ignore_failed_opens = True
            elif key == "s":
                old_options = old_s = True
                if not pr.use_col_separator and value:
                    pr.col_sep_string = value.encode("utf-8", "surrogateescape")
            elif key == "S":
                old_s = False
                pr.col_sep_string = b""
                pr.use_col_separator = True
                if value:
                    pr.col_sep_string = value.encode("utf-8", "surrogateescape")
            elif key == "t":
                pr.extremities = False
                pr.keep_FF = True
            elif key == "T":
                pr.extremities = False
                pr.keep_FF = False
            elif key == "v":
                pr.use_esc_sequence = True
            elif key == "w":
                old_options = old_w = True
                width = _getoptnum(value or "", 1, "'-w PAGE_WIDTH' invalid number of characters")
                if not pr.truncate_lines:
                    pr.chars_per_line = width
            elif key == "W":
                old_w = False
                pr.truncate_lines = True
                pr.chars_per_line = _getoptnum(value or "", 1, "'-W PAGE_WIDTH' invalid number of characters")
    if error is not None:
        return ctx.usage_error(error)
    if digits:
        pr.columns = _getoptnum(digits, 1, "invalid number of columns")
        pr.explicit_columns = True
    if pr.first_page_number == 0:
        pr.first_page_number = 1
    if pr.parallel_files and pr.explicit_columns:
        raise _Die("cannot specify number of columns when printing in parallel")
    if pr.parallel_files and pr.print_across_flag:
        raise _Die("cannot specify both printing across and printing in parallel")
    if old_options:
        if old_w:
            if pr.parallel_files or pr.explicit_columns:
                pr.truncate_lines = True
                if old_s:
                    pr.use_col_separator = True
            else:
                pr.join_lines = True
        elif not pr.use_col_separator:
            if old_s and (pr.parallel_files or pr.explicit_columns):
                if not pr.truncate_lines:
                    pr.join_lines = True
                    if pr.col_sep_string:
                        pr.use_col_separator = True
                else:
                    pr.use_col_separator = True
    if not files:
        pr.print_files(0, [])
    elif pr.parallel_files:
        pr.print_files(len(files), files)
    else:
        for name in files:
            pr.print_files(1, [name])
    pr.flush()
    return 1 if pr.failed_opens else 0
