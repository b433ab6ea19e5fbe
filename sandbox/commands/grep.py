"""grep: print lines that match patterns, as GNU grep 3.8 does in a UTF-8 locale.

Input is read in 1 MiB chunks cut at a line end and searched with one regex call per matching
line (RE2 for most patterns, see ``sandbox.regex``), so memory stays bounded and Python never
loops over non-matching lines. ``-m`` and ``-q`` stop reading at the match that ends the work.
Output follows a port of GNU's ``grepbuf``/``prtext``/``prline`` (context, group separators,
``-m`` trailing context, ``-o`` with context, binary files, encoding errors).

Differences from GNU, by design: ``-r`` walks directories in sorted order (GNU uses directory
order); ``-P`` is refused (use ``-E``); ``--color`` accepts ``never`` and ``auto`` (output is
never a terminal, so never coloured) and refuses ``always``; binary detection (a NUL byte)
looks at each 1 MiB chunk rather than GNU's 96 KiB buffers, so in a file larger than that the
point where output turns into "binary file matches" may differ; ``-D``/``-U``/``-u`` are
accepted and ignored; groups nested more than 120 deep are "Regular expression too big".
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from sandbox.commands.base import CommandContext
from sandbox.commands.options import NO_ARG, OPTIONAL, REQUIRED, OptionSpec, UsageError, parse
from sandbox.fs.base import FSError
from sandbox.regex import Regex, RegexError, compile_patterns
from sandbox.regex.charsets import decode_at, decode_before, is_word_char

CHUNK = 1 << 20

_SPEC = OptionSpec(
    short="EFGPe:f:iyvwxclLnhHoqsm:A:B:C:rRbZzaIUTVd:D:u0123456789",
    long={
        "extended-regexp": (NO_ARG, "E"),
        "fixed-strings": (NO_ARG, "F"),
        "basic-regexp": (NO_ARG, "G"),
        "perl-regexp": (NO_ARG, "P"),
        "regexp": (REQUIRED, "e"),
        "file": (REQUIRED, "f"),
        "ignore-case": (NO_ARG, "i"),
        "no-ignore-case": (NO_ARG, "no-ignore-case"),
        "invert-match": (NO_ARG, "v"),
        "word-regexp": (NO_ARG, "w"),
        "line-regexp": (NO_ARG, "x"),
        "count": (NO_ARG, "c"),
        "files-with-matches": (NO_ARG, "l"),
        "files-without-match": (NO_ARG, "L"),
        "line-number": (NO_ARG, "n"),
        "no-filename": (NO_ARG, "h"),
        "with-filename": (NO_ARG, "H"),
        "only-matching": (NO_ARG, "o"),
        "quiet": (NO_ARG, "q"),
        "silent": (NO_ARG, "q"),
        "no-messages": (NO_ARG, "s"),
        "max-count": (REQUIRED, "m"),
        "after-context": (REQUIRED, "A"),
        "before-context": (REQUIRED, "B"),
        "context": (REQUIRED, "C"),
        "group-separator": (REQUIRED, "group-separator"),
        "no-group-separator": (NO_ARG, "no-group-separator"),
        "recursive": (NO_ARG, "r"),
        "dereference-recursive": (NO_ARG, "R"),
        "include": (REQUIRED, "include"),
        "exclude": (REQUIRED, "exclude"),
        "exclude-dir": (REQUIRED, "exclude-dir"),
        "byte-offset": (NO_ARG, "b"),
        "null": (NO_ARG, "Z"),
        "null-data": (NO_ARG, "z"),
        "label": (REQUIRED, "label"),
        "initial-tab": (NO_ARG, "T"),
        "color": (OPTIONAL, "color"),
        "colour": (OPTIONAL, "color"),
        "text": (NO_ARG, "a"),
        "binary-files": (REQUIRED, "binary-files"),
        "line-buffered": (NO_ARG, "line-buffered"),
        "binary": (NO_ARG, "U"),
        "directories": (REQUIRED, "d"),
        "devices": (REQUIRED, "D"),
        "help": (NO_ARG, "help"),
        "version": (NO_ARG, "V"),
    },
)

_USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\n"


class _Fatal(Exception):
    """A usage or pattern error: message already formatted, exit status 2."""


@dataclass
class Config:
    """The parsed command line."""

    syntax: str = "G"
    patterns: list[bytes] = field(default_factory=list)
    have_patterns: bool = False
    icase: bool = False
    invert: bool = False
    words: bool = False
    lines: bool = False
    count: bool = False
    list_files: str = ""  # "l", "L" or ""
    line_numbers: bool = False
    with_filename: bool | None = None
    only_matching: bool = False
    quiet: bool = False
    no_messages: bool = False
    max_count: int = -1
    after: int = -1
    before: int = -1
    group_separator: bytes | None = b"--"
    recursive: bool = False
    includes: list[str] = field(default_factory=list)
    excludes: list[str] = field(default_factory=list)
    exclude_dirs: list[str] = field(default_factory=list)
    byte_offset: bool = False
    null_after_name: bool = False
    null_data: bool = False
    label: str = "(standard input)"
    initial_tab: bool = False
    binary_files: str = "binary"
    directories: str = "read"


def _context_number(value: str) -> int:
    try:
        n = int(value, 10)
        if n < 0 or not value.strip().lstrip("+").isdigit():
            raise ValueError
        return n
    except ValueError:
        raise _Fatal(f"{value}: invalid context length argument") from None


def _parse_args(ctx: CommandContext) -> tuple[Config, list[str]]:
    cfg = Config()
    try:
        opts, operands = parse(_SPEC, ctx.args)
    except UsageError as err:
        ctx.stderr.write(f"grep: {err}\n".encode("utf-8", "surrogateescape"))
        ctx.stderr.write(_USAGE.encode())
        ctx.stderr.write(b"Try 'grep --help' for more information.\n")
        raise _Fatal("") from None
    digits = ""
    matcher_set = False
    last_was_digit = False
    default_context = -1
    for key, value in opts:
        if key.isdigit() and len(key) == 1:
            digits = digits + key if last_was_digit else key
            last_was_digit = True
            default_context = int(digits)
            continue
        last_was_digit = False
        if key in ("E", "F", "G"):
            if matcher_set and cfg.syntax != key:
                raise _Fatal("conflicting matchers specified")
            cfg.syntax = key
            matcher_set = True
        elif key == "P":
            raise _Fatal("-P (Perl regular expressions) is not supported in this sandbox; "
                         "use -E (extended regular expressions) instead")
        elif key == "e":
            assert value is not None
            cfg.patterns.extend(value.encode("utf-8", "surrogateescape").split(b"\n"))
            cfg.have_patterns = True
        elif key == "f":
            assert value is not None
            try:
                data = ctx.read_bytes(value)
            except FSError as err:
                raise _Fatal(f"{value}: {err.strerror}") from None
            if data.endswith(b"\n"):
                data = data[:-1]
            if data or b"\n" in data:
                cfg.patterns.extend(data.split(b"\n"))
            elif ctx.read_bytes(value) == b"\n":
                cfg.patterns.append(b"")
            cfg.have_patterns = True
        elif key in ("i", "y"):
            cfg.icase = True
        elif key == "no-ignore-case":
            cfg.icase = False
        elif key == "v":
            cfg.invert = True
        elif key == "w":
            cfg.words = True
        elif key == "x":
            cfg.lines = True
        elif key == "c":
            cfg.count = True
        elif key in ("l", "L"):
            cfg.list_files = key
        elif key == "n":
            cfg.line_numbers = True
        elif key == "h":
            cfg.with_filename = False
        elif key == "H":
            cfg.with_filename = True
        elif key == "o":
            cfg.only_matching = True
        elif key == "q":
            cfg.quiet = True
        elif key == "s":
            cfg.no_messages = True
        elif key == "m":
            assert value is not None
            try:
                cfg.max_count = int(value, 10)
            except ValueError:
                raise _Fatal("invalid max count") from None
        elif key == "A":
            cfg.after = _context_number(value or "")
        elif key == "B":
            cfg.before = _context_number(value or "")
        elif key == "C":
            default_context = _context_number(value or "")
        elif key == "group-separator":
            cfg.group_separator = (value or "").encode("utf-8", "surrogateescape")
        elif key == "no-group-separator":
            cfg.group_separator = None
        elif key in ("r", "R"):
            cfg.recursive = True
        elif key == "include":
            cfg.includes.append(value or "")
        elif key == "exclude":
            cfg.excludes.append(value or "")
        elif key == "exclude-dir":
            cfg.exclude_dirs.append(value or "")
        elif key == "b":
            cfg.byte_offset = True
        elif key == "Z":
            cfg.null_after_name = True
        elif key == "z":
            cfg.null_data = True
        elif key == "label":
            cfg.label = value or ""
        elif key == "T":
            cfg.initial_tab = True
        elif key == "color":
            if value not in (None, "never", "no", "none", "auto", "tty", "if-tty"):
                if value in ("always", "yes", "force"):
                    raise _Fatal("--color=always is not supported in this sandbox; "
                                 "use --color=never")
                ctx.stderr.write(
                    f"grep: invalid argument ‘{value}’ for ‘--color’\n".encode(
                        "utf-8", "surrogateescape"))
                raise _Fatal("") from None
        elif key == "a":
            cfg.binary_files = "text"
        elif key == "I":
            cfg.binary_files = "without-match"
        elif key == "binary-files":
            if value not in ("binary", "text", "without-match"):
                raise _Fatal("unknown binary-files type")
            cfg.binary_files = value
        elif key == "d":
            if value not in ("read", "skip", "recurse"):
                raise _Fatal("unknown directories method")
            cfg.directories = value
            if value == "recurse":
                cfg.recursive = True
        elif key in ("line-buffered", "U", "u", "D"):
            pass
        elif key == "help":
            ctx.stdout.write(_USAGE.encode() + b"Search for PATTERNS in each FILE.\n")
            raise _Fatal("help")
        elif key == "V":
            ctx.stdout.write(b"grep (GNU grep) 3.8 (sandbox)\n")
            raise _Fatal("version")
    if default_context >= 0:
        if cfg.after < 0:
            cfg.after = default_context
        if cfg.before < 0:
            cfg.before = default_context
    if cfg.list_files:
        cfg.count = False  # GNU: -l / -L win over -c
    if not cfg.have_patterns:
        if not operands:
            ctx.stderr.write(_USAGE.encode())
            ctx.stderr.write(b"Try 'grep --help' for more information.\n")
            raise _Fatal("")
        cfg.patterns = operands[0].encode("utf-8", "surrogateescape").split(b"\n")
        operands = operands[1:]
    return cfg, operands


class _Stop(Exception):
    """-q found a match: stop everything."""


class Grep:
    """One grep invocation: configuration, compiled matcher, output state."""

    def __init__(self, ctx: CommandContext, cfg: Config, regex: Regex, show_names: bool):
        self.ctx = ctx
        self.cfg = cfg
        self.regex = regex
        self.show_names = show_names
        self.eol = b"\0" if cfg.null_data else b"\n"
        self.out = ctx.stdout
        self.used = False  # a line was selected before (GNU's ``used``: group separators)
        # The fast path applies when no line is printed as context and -v / -o are off.
        self.fast = cfg.before < 0 and cfg.after < 0 and not cfg.invert and not cfg.only_matching
        self.per_line = (not regex.uses_re2) or cfg.null_data
        # Searching the branches of a small alternation one by one is faster (see
        # Regex.alternatives); only the line finder uses them, -o / -w use the whole regex.
        self.branches = None if self.per_line else regex.alternatives()
        self._branch_buf: bytes | None = None
        self._branch_limit = -1
        self._branch_next: list[int] = []

    # -- matching -------------------------------------------------------------------------

    def _word_ok(self, buf: bytes, s: int, e: int, ls: int, le: int) -> bool:
        before = decode_before(buf, s, ls) if s > ls else -1
        after = decode_at(buf, e, le)[0] if e < le else -1
        return not (before >= 0 and is_word_char(before)) and not (
            after >= 0 and is_word_char(after))

    def _search(self, buf: bytes, pos: int, ls: int, le: int):
        """Search the line buf[ls:le] from ``pos``; spans are offsets into ``buf``."""
        if not self.cfg.null_data:
            m = self.regex.search(buf, pos, le)
            return None if m is None else m.span()
        m = self.regex.search(buf[ls:le], pos - ls)
        return None if m is None else (m.start() + ls, m.end() + ls)

    def _match_end(self, buf: bytes, s: int, limit: int, ls: int) -> int:
        """End of the longest match starting exactly at ``s`` and ending by ``limit``."""
        if not self.cfg.null_data:
            m = self.regex.match(buf, s, limit)
            return -1 if m is None else m.end()
        m = self.regex.match(buf[ls:limit], s - ls)
        return -1 if m is None else m.end() + ls

    def line_spans(self, buf: bytes, ls: int, le: int):
        """The matches -o prints in the line buf[ls:le] (GNU's walk, -w checks included)."""
        regex = self.regex
        pos = ls
        while pos <= le:
            self.ctx.budget.check_time()
            span = self._search(buf, pos, ls, le)
            if span is None:
                return
            s, e = span
            if self.cfg.words:
                found = False
                while True:
                    if self._word_ok(buf, s, e, ls, le):
                        found = True
                        break
                    if e > s:
                        shorter = self._match_end(buf, s, e - 1, ls)
                        if shorter > s:
                            e = shorter
                            continue
                    break
                if not found:
                    pos = _next_char(buf, s, le)
                    continue
            if e == s:
                pos = s + 1
                continue
            yield s, e
            pos = e

    def line_matches(self, buf: bytes, ls: int, le: int) -> bool:
        """True if the line buf[ls:le] contains a match (with -w rules)."""
        if not self.cfg.words:
            return self._search(buf, ls, ls, le) is not None
        pos = ls
        while pos <= le:
            span = self._search(buf, pos, ls, le)
            if span is None:
                return False
            s, e = span
            while True:
                if self._word_ok(buf, s, e, ls, le):
                    return True
                if e > s:
                    shorter = self._match_end(buf, s, e - 1, ls)
                    if shorter > s:
                        e = shorter
                        continue
                break
            pos = _next_char(buf, s, le)
        return False

    def next_match_line(self, buf: bytes, pos: int, end: int) -> tuple[int, int] | None:
        """The first line at or after ``pos`` (a line start) that matches: (start, end of
        content). ``end`` is the end of the region (lines end with eol or at ``end``)."""
        eol = self.eol
        if self.per_line:
            while pos < end:
                le = buf.find(eol, pos, end)
                if le < 0:
                    le = end
                if self.line_matches(buf, pos, le):
                    return pos, le
                pos = le + 1
                self.ctx.budget.check_time()
            return None
        search_start = self._branch_search_start if self.branches else self.regex.search_start
        # The region ends with an eol (or the file's last line); exclude the final eol so
        # the empty "line" after it is not searched.
        limit = end - 1 if buf[end - 1 : end] == eol else end
        while pos < end:
            s = search_start(buf, pos, limit)
            if s < 0:
                return None
            ls = buf.rfind(eol, pos, s) + 1 if s > pos else pos
            if ls < pos:
                ls = pos
            le = buf.find(eol, s, end)
            if le < 0:
                le = end
            if not self.cfg.words or self.line_matches(buf, ls, le):
                return ls, le
            pos = le + 1
            self.ctx.budget.check_time()
        return None

    def _branch_search_start(self, buf: bytes, pos: int, limit: int) -> int:
        """Leftmost match start of a top-level alternation, branch by branch: each branch's
        next start in this buffer is cached until the scan passes it."""
        if buf is not self._branch_buf or limit != self._branch_limit:
            self._branch_buf = buf
            self._branch_limit = limit
            self._branch_next = [-2] * len(self.branches)
        following = self._branch_next
        best = -1
        for i, branch in enumerate(self.branches):
            k = following[i]
            if k == -1:
                continue  # no match of this branch in the rest of the buffer
            if k < pos:
                k = branch.search_start(buf, pos, limit)
                following[i] = k
                if k < 0:
                    continue
            if best < 0 or k < best:
                best = k
        return best

    # -- output ---------------------------------------------------------------------------

    # -- one file -------------------------------------------------------------------------

    def grep_stream(self, stream, name: str, size: int | None) -> int:
        """Search one input; return the number of selected lines.

        A port of GNU grep's ``grep``/``grepbuf``/``prtext``/``prpending``/``prline`` so that
        context, separators, -m, -o and binary handling agree line for line. Offsets are into
        ``buf``, which holds the kept leading-context lines of the previous chunk followed by
        the new data.
        """
        cfg = self.cfg
        eol = self.eol
        out = self.out
        budget = self.ctx.budget
        st = _FileState()
        st.name = name.encode("utf-8", "surrogateescape")
        st._eol = eol
        if cfg.initial_tab:
            num = size if size is not None else 9223372036854775807
            if size is not None and cfg.line_numbers:
                num += 1
            st.width = len(str(num))
        binary_check = cfg.binary_files != "text"
        nul_check = binary_check and not cfg.null_data
        out_quiet = cfg.count or bool(cfg.list_files) or cfg.quiet
        done_on_match = bool(cfg.list_files) or cfg.quiet
        st.out_quiet = out_quiet
        st.outleft = cfg.max_count if cfg.max_count >= 0 else 1 << 62
        out_before, out_after = cfg.before, cfg.after
        first_null = -1
        zap = False
        nlines = 0
        kept = b""
        kept_ctx = 0  # length of the leading-context part of ``kept``
        lastout_kept = False
        base_lines = 0  # lines before buf[0]
        base_offset = 0  # file offset of buf[0]
        finished = False
        while not finished:
            chunk = stream.read(CHUNK)
            eof = not chunk
            if nul_check and first_null < 0 and b"\0" in chunk:
                if cfg.binary_files == "without-match":
                    return 0
                if not cfg.count:
                    done_on_match = True
                    st.out_quiet = True
                first_null = nlines
                zap = True
            if zap and chunk:
                chunk = chunk.replace(b"\0", eol)
            buf = kept + chunk
            st.buf = buf
            st.lastout = 0 if lastout_kept else -1
            st.counted_at = 0
            st.counted_lines = base_lines
            st.base_offset = base_offset
            beg = kept_ctx
            if eof:
                if beg >= len(buf):
                    break
                if not buf.endswith(eol):
                    buf += eol
                    st.buf = buf
                lim = len(buf)
            else:
                cut = buf.rfind(eol, beg)
                if cut < 0:
                    kept = buf
                    continue
                lim = cut + 1
            if beg < lim:
                if st.outleft:
                    nlines += self._grepbuf(st, beg, lim, done_on_match)
                if st.pending:
                    self._prpending(st, lim)
                if (not st.outleft and not st.pending) or (
                        done_on_match and max(0, first_null) < nlines):
                    break
            if eof:
                break
            # Keep the last out_before lines as possible leading context of the next chunk.
            b = lim
            k = 0
            while k < out_before and b > 0 and b != st.lastout:
                k += 1
                b = buf.rfind(eol, 0, b - 1) + 1
            lastout_kept = b == st.lastout
            if cfg.line_numbers:
                base_lines = st.line_count_at(b)
            base_offset += b
            kept = buf[b:]
            kept_ctx = lim - b
            budget.check_time()
        if (not out_quiet and cfg.binary_files == "binary"
                and (st.encoding_error_output or 0 <= first_null < nlines)):
            self.ctx.stderr.write(b"grep: " + st.name + b": binary file matches\n")
        return nlines

    def _grepbuf(self, st: "_FileState", beg: int, lim: int, done_on_match: bool) -> int:
        if self.fast and not st.pending:
            return self._grepbuf_fast(st, beg, lim, done_on_match)
        outleft0 = st.outleft
        invert = self.cfg.invert
        buf = st.buf
        p = beg
        if invert and st.out_quiet and not done_on_match:
            # -v with -c (or output turned off): count the lines between matches in bulk.
            eol = self.eol
            while p < lim and st.outleft > 0:
                found = self.next_match_line(buf, p, lim)
                gap_end = found[0] if found is not None else lim
                if p < gap_end:
                    gap = buf.count(eol, p, gap_end)
                    take = min(gap, st.outleft)
                    if take < gap:
                        # stop inside the gap, after ``take`` lines
                        for _ in range(take):
                            p = buf.index(eol, p) + 1
                        st.outleft -= take
                        self.used = True
                        return outleft0 - st.outleft
                    st.outleft -= take
                    self.used = True
                if found is None:
                    break
                p = found[1] + 1
            return outleft0 - st.outleft
        budget = self.ctx.budget
        while p < lim:
            found = self.next_match_line(buf, p, lim)
            if found is None:
                if not invert:
                    break
                b, endp = lim, lim
            else:
                b, endp = found[0], found[1] + 1
            if not invert or p < b:
                if invert:
                    self._prtext(st, p, b)
                else:
                    self._prtext(st, b, endp)
                if not st.outleft or done_on_match:
                    break
            p = endp
            budget.check_time()
        return outleft0 - st.outleft

    def _grepbuf_fast(self, st: "_FileState", beg: int, lim: int, done_on_match: bool) -> int:
        """``_grepbuf`` for the common case (no -v, -o or context): the same output, with
        runs of adjacent selected lines written at once and no per-line helper calls."""
        buf = st.buf
        find_line = self.next_match_line
        check_time = self.ctx.budget.check_time
        quiet = st.out_quiet
        heads = self.show_names or self.cfg.line_numbers or self.cfg.byte_offset
        check_encoding = self.cfg.binary_files != "text"
        outleft = st.outleft
        n = 0
        run_start = run_end = -1
        p = beg
        while p < lim and outleft:
            found = find_line(buf, p, lim)
            if found is None:
                break
            ls, le = found
            p = le + 1
            n += 1
            outleft -= 1
            if not quiet:
                if heads:
                    self._prline(st, ls, p, b":")
                elif ls == run_end:
                    run_end = p
                else:
                    if run_end > 0:
                        self._write_run(st, run_start, run_end, check_encoding)
                    run_start, run_end = ls, p
            if done_on_match:
                break
            if n & 1023 == 0:
                check_time()
        if run_end > 0:
            self._write_run(st, run_start, run_end, check_encoding)
        st.outleft = outleft
        if n:
            self.used = True
        return n

    def _write_run(self, st: "_FileState", start: int, end: int, check_encoding: bool) -> None:
        """Write the selected lines buf[start:end] (no prefixes), GNU's encoding check included."""
        buf = st.buf
        part = buf[start:end]
        if check_encoding and not part.isascii():
            try:
                part.decode("utf-8")
            except UnicodeDecodeError:
                p = start
                while p < end:
                    nl = buf.index(self.eol, p) + 1
                    self._prline(st, p, nl, b":")
                    p = nl
                return
        self.out.write(part)
        st.lastout = end

    def _prtext(self, st: "_FileState", beg: int, lim: int) -> None:
        cfg = self.cfg
        buf = st.buf
        eol = self.eol
        if not st.out_quiet and st.pending > 0:
            self._prpending(st, beg)
        p = beg
        if not st.out_quiet:
            bp = st.lastout if st.lastout >= 0 else 0
            for _ in range(cfg.before):
                if p > bp:
                    p = buf.rfind(eol, 0, p - 1) + 1
            if ((cfg.before >= 0 or cfg.after >= 0) and self.used and p != st.lastout
                    and cfg.group_separator is not None):
                self.out.write(cfg.group_separator + b"\n")
            while p < beg:
                nl = buf.index(eol, p) + 1
                self._prline(st, p, nl, b"-")
                p = nl
        if cfg.invert:
            n = 0
            while p < lim and n < st.outleft:
                nl = buf.index(eol, p) + 1
                if not st.out_quiet:
                    self._prline(st, p, nl, b":")
                p = nl
                n += 1
        else:
            if not st.out_quiet:
                self._prline(st, beg, lim, b":")
            n = 1
        st.pending = 0 if st.out_quiet else max(0, cfg.after)
        self.used = True
        st.outleft -= n

    def _prpending(self, st: "_FileState", lim: int) -> None:
        if st.lastout < 0:
            st.lastout = 0
        buf = st.buf
        while st.pending > 0 and st.lastout < lim:
            nl = buf.index(self.eol, st.lastout) + 1
            self._prline(st, st.lastout, nl, b"-")
            st.pending -= 1

    def _prline(self, st: "_FileState", beg: int, lim: int, sep: bytes) -> None:
        cfg = self.cfg
        buf = st.buf
        if cfg.only_matching:
            matching = (sep == b":") != cfg.invert
            if matching:
                msep = b"-" if cfg.invert else b":"
                for s, e in self.line_spans(buf, beg, lim - 1):
                    if not self._line_head(st, s, e - s, msep):
                        return
                    self.out.write(buf[s:e] + self.eol)
        else:
            if not self._line_head(st, beg, lim - 1 - beg, sep):
                return
            self.out.write(buf[beg:lim])
        st.lastout = lim

    def _line_head(self, st: "_FileState", beg: int, length: int, sep: bytes) -> bool:
        cfg = self.cfg
        buf = st.buf
        if cfg.binary_files != "text":
            part = buf[beg : beg + length]
            if not part.isascii():
                try:
                    part.decode("utf-8")
                except UnicodeDecodeError:
                    st.encoding_error_output = True
                    return False
        parts = []
        if self.show_names:
            parts.append(st.name)
            parts.append(b"\0" if cfg.null_after_name else sep)
        if cfg.line_numbers:
            text = str(st.line_count_at(beg) + 1).encode()
            parts.append(text.rjust(st.width) + sep)
        if cfg.byte_offset:
            text = str(st.base_offset + beg).encode()
            parts.append(text.rjust(st.width) + sep)
        if cfg.initial_tab and (self.show_names or cfg.line_numbers or cfg.byte_offset) and length:
            parts.append(b"\t")
        if parts:
            self.out.write(b"".join(parts))
        return True


def _next_char(buf: bytes, pos: int, end: int) -> int:
    """The offset of the character after the one at ``pos``."""
    if pos >= end:
        return pos + 1
    return pos + decode_at(buf, pos, end)[1]


class _FileState:
    """Per-file state of the GNU output algorithm."""

    def __init__(self) -> None:
        self.name = b""
        self.width = 0
        self.buf = b""
        self.lastout = -1  # offset just after the last printed line; -1: none
        self.pending = 0  # trailing context lines still to print
        self.outleft = 0  # selected lines still allowed by -m
        self.out_quiet = False
        self.encoding_error_output = False
        self.counted_at = 0
        self.counted_lines = 0
        self.base_offset = 0

    def line_count_at(self, pos: int) -> int:
        """Number of complete lines before offset ``pos`` in the file."""
        if pos >= self.counted_at:
            self.counted_lines += self.buf.count(self._eol, self.counted_at, pos)
        else:
            self.counted_lines -= self.buf.count(self._eol, pos, self.counted_at)
        self.counted_at = pos
        return self.counted_lines

    _eol = b"\n"  # the line terminator (NUL with -z)


def run(ctx: CommandContext) -> int:
    """Run grep; return 0 if a line was selected, 1 if none, 2 on error (unless -q matched)."""
    try:
        cfg, operands = _parse_args(ctx)
    except _Fatal as err:
        msg = str(err)
        if msg in ("help", "version"):
            return 0
        if msg:
            ctx.stderr.write(f"grep: {msg}\n".encode("utf-8", "surrogateescape"))
        return 2
    if cfg.max_count == 0 and cfg.list_files != "L":
        return 1  # GNU stops before compiling or reading anything
    try:
        regex = compile_patterns(
            cfg.patterns, syntax=cfg.syntax, icase=cfg.icase, whole_line=cfg.lines,
            multiline=not cfg.null_data, dot_newline=cfg.null_data, budget=ctx.budget)
    except RegexError as err:
        for message in err.args:
            ctx.stderr.write(f"grep: {message}\n".encode("utf-8", "surrogateescape"))
        return 2
    for w in regex.warnings:
        ctx.stderr.write(f"grep: warning: {w}\n".encode("utf-8", "surrogateescape"))
    if cfg.recursive and not operands:
        operands = ["."]
        implicit_dot = True
    else:
        implicit_dot = False
    if not operands:
        operands = ["-"]
    show_names = cfg.with_filename if cfg.with_filename is not None else (
        len(operands) > 1 or cfg.recursive)
    g = Grep(ctx, cfg, regex, show_names)
    status = {"matched": False, "error": False}
    try:
        for operand in operands:
            _grep_operand(g, operand, status, implicit_dot, top=True)
    except _Stop:
        return 0
    if status["error"] and not (cfg.quiet and status["matched"]):
        return 2
    return 0 if status["matched"] else 1


def _excluded(cfg: Config, name: str, command_line: bool) -> bool:
    base = name.rstrip("/").rsplit("/", 1)[-1]
    candidates = {base, name} if command_line else {base}
    for pat in cfg.excludes:
        if any(fnmatch.fnmatchcase(c, pat) for c in candidates):
            return True
    if cfg.includes:
        if not any(fnmatch.fnmatchcase(c, pat) for pat in cfg.includes for c in candidates):
            return True
    return False


def _grep_operand(g: Grep, operand: str, status: dict, implicit_dot: bool, top: bool) -> None:
    ctx, cfg = g.ctx, g.cfg
    if operand == "-" and top:
        _grep_one(g, None, cfg.label, None, status)
        return
    display = operand
    try:
        st = ctx.stat(operand)
    except FSError as err:
        if not cfg.no_messages:
            ctx.error(f"{operand}: {err.strerror}")
        status["error"] = True
        return
    if st.is_dir:
        if cfg.recursive:
            if not top or not implicit_dot:
                base = operand.rstrip("/").rsplit("/", 1)[-1]
                if cfg.exclude_dirs and not (top and operand in (".",)) and any(
                        fnmatch.fnmatchcase(base, p) for p in cfg.exclude_dirs):
                    return
            try:
                names = sorted(ctx.listdir(operand))
            except FSError as err:
                if not cfg.no_messages:
                    ctx.error(f"{operand}: {err.strerror}")
                status["error"] = True
                return
            for child in names:
                if top and implicit_dot:
                    child_path = child
                else:
                    child_path = operand + ("" if operand.endswith("/") else "/") + child
                _grep_operand(g, child_path, status, implicit_dot, top=False)
            return
        if cfg.directories == "skip":
            return
        if not cfg.no_messages:
            ctx.error(f"{operand}: Is a directory")
        status["error"] = True
        return
    if (cfg.includes or cfg.excludes) and _excluded(cfg, operand, top):
        return
    _grep_one(g, operand, display, st.size, status)


def _grep_one(g: Grep, operand: str | None, name: str, size: int | None,
              status: dict) -> None:
    ctx, cfg = g.ctx, g.cfg
    try:
        stream = ctx.stdin if operand is None else ctx.open_read(operand)
    except FSError as err:
        if not cfg.no_messages:
            ctx.error(f"{operand}: {err.strerror}")
        status["error"] = True
        return
    try:
        count = g.grep_stream(stream, name, size)
    except FSError as err:
        if not cfg.no_messages:
            ctx.error(f"{name}: {err.strerror}")
        status["error"] = True
        return
    finally:
        if operand is not None:
            stream.close()
    if count:
        status["matched"] = True
    nm = name.encode("utf-8", "surrogateescape")
    if cfg.quiet:
        if count:
            raise _Stop()
        return
    if cfg.count:
        if g.show_names:
            ctx.stdout.write(nm + (b"\0" if cfg.null_after_name else b":"))
        ctx.stdout.write(str(count).encode() + b"\n")
    if cfg.list_files == "l" and count:
        ctx.stdout.write(nm + (b"\0" if cfg.null_after_name else b"\n"))
    elif cfg.list_files == "L" and not count:
        ctx.stdout.write(nm + (b"\0" if cfg.null_after_name else b"\n"))
