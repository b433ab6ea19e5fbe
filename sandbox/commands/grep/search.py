"""The search and output engine of grep: a port of GNU's ``grep``/``grepbuf``/``prtext``/
``prpending``/``prline`` over chunks of input (see the package docstring)."""

from __future__ import annotations

from sandbox.commands._locale import WIDE_LEAD as _WIDE_LEAD, narrow, widen
from sandbox.commands.base import CommandContext
from sandbox.commands.grep.cli import Config
from sandbox.commands.grep.color import Colors
from sandbox.commands.grep.fast import grepbuf as fast_grepbuf
from sandbox.commands.grep.fast import grepbuf_regex, literal_of, regex_plain
from sandbox.commands.grep.native import grepbuf as native_grepbuf
from sandbox.commands.grep.native import plan_of as native_plan_of
from sandbox.regex import Regex
from sandbox.regex.charsets import decode_at, decode_before, is_word_char

#: Bytes read per chunk (tests make it small to put chunk edges everywhere).
CHUNK = 1 << 20
#: A chunk longer than this is searched in place, its first (partial) line apart.
_SPLIT_MIN = 0

class _Stop(Exception):
    """-q found a match: stop everything."""


class Grep:
    """One grep invocation: configuration, compiled matcher, output state."""

    def __init__(self, ctx: CommandContext, cfg: Config, regex: Regex, show_names: bool,
                 colors: Colors | None = None, single_byte: bool = False):
        self.ctx = ctx
        self.cfg = cfg
        self.regex = regex
        self.show_names = show_names
        #: -r with one operand: names are shown once that operand is found to be a directory.
        self.auto_names = False
        self.eol = b"\0" if cfg.null_data else b"\n"
        #: The C locale: input is searched widened (``_locale.widen``: one character per
        #: byte, the patterns were widened alike) and the output narrowed back.
        self.single_byte = single_byte
        self.out = _Narrowing(ctx.stdout) if single_byte else ctx.stdout
        self.used = False  # a line was selected before (GNU's ``used``: group separators)
        # The fast path applies when no line is printed as context and -v / -o are off.
        #: The --color=always capabilities, or None.
        self.colors = colors
        self.fast = (cfg.before < 0 and cfg.after < 0 and not cfg.invert
                     and not cfg.only_matching and colors is None)
        #: grep -P (``perl.PerlRegex``): -w / -x are in the pattern, a line is searched whole.
        self.perl = getattr(regex, "perl", False)
        self.words = cfg.words and not self.perl
        self.required = regex.required if self.perl else b""
        self.per_line = (not regex.uses_re2) or cfg.null_data
        # Searching the branches of a small alternation one by one is faster (see
        # Regex.alternatives); only the line finder uses them, -o / -w use the whole regex.
        self.branches = None if self.per_line else regex.alternatives()
        self._branch_buf: bytes | None = None
        self._branch_limit = -1
        self._branch_next: list[int] = []
        #: The C block path (``native.py``), or None (not built, SANDBOX_NATIVE=0, or the
        #: pattern or options are not of its kind).
        self.native = None if colors is not None else native_plan_of(cfg, regex)
        #: The block fast path for literal patterns (``fast.py``), or None.
        self.literal = None if colors is not None else literal_of(cfg, regex)
        #: Whether the last block had many matching lines (the literal path then splits
        #: blocks into lines instead of finding each match).
        self.dense = False
        #: The block path for other RE2 patterns (plain, -c, -v): see ``fast.regex_plain``.
        self.regex_plain = (self.literal is None and not self.per_line
                            and regex_plain(cfg, regex, self.branches))
        #: Seconds per byte of the RE2 block searches, [per line, per run] (``fast.py``).
        self.search_costs = [0.0, 0.0]

    # -- matching -------------------------------------------------------------------------

    def _word_ok(self, buf: bytes, s: int, e: int, ls: int, le: int) -> bool:
        before = decode_before(buf, s, ls) if s > ls else -1
        after = decode_at(buf, e, le)[0] if e < le else -1
        return not (before >= 0 and is_word_char(before)) and not (
            after >= 0 and is_word_char(after))

    def _search(self, buf: bytes, pos: int, ls: int, le: int):
        """Search the line buf[ls:le] from ``pos``; spans are offsets into ``buf``."""
        if self.perl:
            return self.regex.search_line(buf, pos, ls, le)
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
            if self.words:
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
        if not self.words:
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
            required = self.required
            while pos < end:
                if required:
                    # grep -P: only a line holding the pattern's literal can match.
                    k = buf.find(required, pos, end)
                    if k < 0:
                        return None
                    if k > pos:
                        pos = buf.rfind(eol, pos, k) + 1 or pos
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
        self.current_name = name  # named by grep -P's "exceeded PCRE's backtracking limit"
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
        base_wide = 0  # stand-ins before it (C locale: see _FileState.base_wide)
        count_wide = self.single_byte and cfg.byte_offset
        finished = False
        no_context = out_before < 0 and out_after < 0
        reader = _Reader(stream, CHUNK, nul_check)
        while not finished:
            chunk = reader.read()
            if self.single_byte:
                chunk = widen(chunk)
            eof = not chunk
            if nul_check and first_null < 0 and reader.binary:
                if cfg.binary_files == "without-match":
                    return 0
                if not cfg.count:
                    done_on_match = True
                    st.out_quiet = True
                first_null = nlines
                zap = True
            if zap and chunk:
                chunk = chunk.replace(b"\0", eol)
            split = -1
            if kept and not kept_ctx and no_context and len(chunk) > _SPLIT_MIN:
                split = chunk.find(eol)
            if split >= 0:
                # The line across the chunk edge goes alone, the rest of the chunk is
                # searched in place: no copy of the whole chunk (a fresh 1 MiB buffer per
                # chunk costs more in page faults than the search itself).
                parts = ((kept + chunk[: split + 1], 0), (chunk, split + 1))
            else:
                parts = ((kept + chunk, 0),)
            del chunk
            for buf, start in parts:
                # ``start``: where the unsearched data of buf begins (base_* describe it).
                st.buf = buf
                st.lastout = start if lastout_kept else -1
                st.counted_at = start
                st.counted_lines = base_lines
                st.base_offset = base_offset - start
                if count_wide:
                    st.base_wide = base_wide - buf.count(_WIDE_LEAD, 0, start)
                beg = start + kept_ctx
                if eof:
                    if beg >= len(buf):
                        finished = True
                        break
                    if not buf.endswith(eol):
                        buf += eol
                        st.buf = buf
                    lim = len(buf)
                else:
                    cut = buf.rfind(eol, beg)
                    if cut < 0:
                        kept = buf[start:] if start else buf
                        continue
                    lim = cut + 1
                if beg < lim:
                    if st.outleft:
                        dense = self.dense
                        nlines += self._grepbuf(st, beg, lim, done_on_match)
                        if start == 0 and split >= 0:
                            self.dense = dense  # one line says nothing of the density
                    if st.pending:
                        self._prpending(st, lim)
                    if (not st.outleft and not st.pending) or (
                            done_on_match and max(0, first_null) < nlines):
                        finished = True
                        break
                if eof:
                    finished = True
                    break
                # Keep the last out_before lines as possible leading context of the next
                # chunk.
                b = lim
                k = 0
                while k < out_before and b > 0 and b != st.lastout:
                    k += 1
                    b = buf.rfind(eol, 0, b - 1) + 1
                lastout_kept = b == st.lastout
                if cfg.line_numbers:
                    base_lines = st.line_count_at(b)
                base_offset += b - start
                if count_wide:
                    base_wide += buf.count(_WIDE_LEAD, start, b)
                kept = buf[b:]
                kept_ctx = lim - b
            del buf, parts
            budget.check_time()
        if (not out_quiet and cfg.binary_files == "binary"
                and (st.encoding_error_output or 0 <= first_null < nlines)):
            self.ctx.stderr.write(b"grep: " + st.name + b": binary file matches\n")
        return nlines

    def _grepbuf(self, st: "_FileState", beg: int, lim: int, done_on_match: bool) -> int:
        if self.native is not None and not done_on_match and not st.pending:
            n, beg = native_grepbuf(self, st, beg, lim)
            if beg >= lim or not st.outleft:
                return n
            return n + self._grepbuf_python(st, beg, lim, done_on_match)
        return self._grepbuf_python(st, beg, lim, done_on_match)

    def _grepbuf_python(self, st: "_FileState", beg: int, lim: int, done_on_match: bool
                        ) -> int:
        """``_grepbuf`` without the C path: the literal and RE2 block paths, else GNU's
        line-by-line algorithm."""
        if self.literal is not None and not done_on_match and not st.pending:
            n = fast_grepbuf(self, st, beg, lim)
            if n is not None:
                return n
        elif self.regex_plain and not done_on_match and not st.pending:
            n = grepbuf_regex(self, st, beg, lim)
            if n is not None:
                return n
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
                text = cfg.group_separator
                if self.colors is not None:
                    text = self.colors.wrap(self.colors.separator, text)
                self.out.write(text + b"\n")
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
        if self.colors is not None:
            self._prline_color(st, beg, lim, sep)
            return
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

    def _prline_color(self, st: "_FileState", beg: int, lim: int, sep: bytes) -> None:
        """GNU's ``prline`` with colours (``print_line_middle`` / ``print_line_tail``)."""
        cfg = self.cfg
        buf = st.buf
        c = self.colors
        assert c is not None
        out = self.out
        only = cfg.only_matching
        if not only and not self._line_head(st, beg, lim - 1 - beg, sep):
            return
        selected = sep == b":"
        matching = selected != cfg.invert
        line_color = c.selected_line if selected != (cfg.invert and c.reverse) else (
            c.context_line)
        match_color = c.selected_match if selected else c.context_match
        p = beg
        if (only and matching) or line_color or match_color:
            if matching and (only or match_color):
                cur = beg
                msep = b"-" if cfg.invert else b":"
                for s, e in self.line_spans(buf, beg, lim - 1):
                    if only:
                        if not self._line_head(st, s, e - s, msep):
                            return
                    else:
                        out.write(c.start(line_color) + buf[cur:s])
                    out.write(c.wrap(match_color, buf[s:e]))
                    if only:
                        out.write(self.eol)
                    cur = e
                p = lim if only else cur
            if not only and line_color:
                end = lim
                if end > p and buf[end - 1 : end] == self.eol:
                    end -= 1
                if end > p and buf[end - 1] == 13:
                    end -= 1
                if end > p:
                    out.write(c.wrap(line_color, buf[p:end]))
                    p = end
        if not only and lim > p:
            out.write(buf[p:lim])
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
        c = self.colors
        if c is not None:
            sep_text = c.wrap(c.separator, sep)
            if self.show_names:
                parts.append(c.wrap(c.filename, st.name))
                parts.append(b"\0" if cfg.null_after_name else sep_text)
            if cfg.line_numbers:
                text = str(st.line_count_at(beg) + 1).encode()
                parts.append(c.wrap(c.line_number, text.rjust(st.width)) + sep_text)
            if cfg.byte_offset:
                text = str(self._file_offset(st, beg)).encode()
                parts.append(c.wrap(c.byte_offset, text.rjust(st.width)) + sep_text)
        else:
            if self.show_names:
                parts.append(st.name)
                parts.append(b"\0" if cfg.null_after_name else sep)
            if cfg.line_numbers:
                text = str(st.line_count_at(beg) + 1).encode()
                parts.append(text.rjust(st.width) + sep)
            if cfg.byte_offset:
                text = str(self._file_offset(st, beg)).encode()
                parts.append(text.rjust(st.width) + sep)
        if cfg.initial_tab and (self.show_names or cfg.line_numbers or cfg.byte_offset) and length:
            parts.append(b"\t")
        if parts:
            self.out.write(b"".join(parts))
        return True


    def _file_offset(self, st: "_FileState", beg: int) -> int:
        """The file offset of buf[beg] (-b), of the input before widening."""
        if not self.single_byte:
            return st.base_offset + beg
        buf = st.buf
        seen_buf, seen_at, seen = st.wide_seen
        if seen_buf is not buf or beg < seen_at:  # a new buffer: count from its start
            seen_at, seen = 0, 0
        seen += buf.count(_WIDE_LEAD, seen_at, beg)
        st.wide_seen = (buf, beg, seen)
        return st.base_offset + beg - 3 * (st.base_wide + seen)


def _next_char(buf: bytes, pos: int, end: int) -> int:
    """The offset of the character after the one at ``pos``."""
    if pos >= end:
        return pos + 1
    return pos + decode_at(buf, pos, end)[1]


#: GNU grep reads a file in 96 KiB buffers and turns to "binary file" mode at the first buffer
#: holding a NUL: lines that end before that buffer are output as text.
WINDOW = 96 * 1024


class _Narrowing:
    """A writer that undoes ``widen`` on what it passes on (grep in the C locale)."""

    def __init__(self, out):
        self.target = out

    def write(self, data: bytes) -> object:
        """Write ``data`` narrowed."""
        return self.target.write(narrow(bytes(data)))

    def flush(self) -> None:
        """Flush the target."""
        self.target.flush()


class _Reader:
    """Chunks of at most ``size`` bytes of a stream, cut so that one starts exactly where
    GNU's buffer holding the first NUL starts (file offsets that are multiples of ``WINDOW``).
    ``binary`` tells whether the last chunk returned lies at or after that point, so binary
    detection does not depend on the chunk size."""

    def __init__(self, stream, size: int, detect: bool):
        self.stream = stream
        self.size = max(1, size)
        self.detect = detect
        self.raw = b""
        self.raw_pos = 0  # file offset of raw[0]
        self.read_pos = 0  # file offset of the next byte to read
        self.eof = False
        self.nul_at = -1  # start of the window holding the first NUL, -1 if none yet
        self.binary = False

    def _fill(self, want: int) -> None:
        if self.eof or len(self.raw) >= want:
            return
        end = self.read_pos + want - len(self.raw)
        if self.detect:
            end = -(-end // WINDOW) * WINDOW  # whole windows, so each is checked entirely
        parts = []
        need = end - self.read_pos
        while need > 0:
            data = self.stream.read(need)
            if not data:
                self.eof = True
                break
            parts.append(data)
            need -= len(data)
        data = b"".join(parts)
        if self.detect and self.nul_at < 0:
            q = data.find(b"\0")
            if q >= 0:
                self.nul_at = (self.read_pos + q) // WINDOW * WINDOW
        self.read_pos += len(data)
        self.raw = self.raw + data if self.raw else data

    def read(self) -> bytes:
        """The next chunk (empty at the end of the stream)."""
        limit = self.size
        while True:
            self._fill(limit)
            if self.size >= WINDOW:
                limit = max(limit, len(self.raw))  # all that was read: no slicing copy
            if 0 <= self.nul_at and self.raw_pos < self.nul_at < self.raw_pos + limit:
                limit = self.nul_at - self.raw_pos
            if len(self.raw) >= limit or self.eof:
                break
        out = self.raw[:limit]
        self.raw = self.raw[limit:]
        self.binary = 0 <= self.nul_at <= self.raw_pos and bool(out)
        self.raw_pos += len(out)
        return out


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
        #: Stand-ins (``_locale.widen``) before buf[0], to turn base_offset back into a file
        #: offset (grep -b in the C locale).
        self.base_wide = 0
        #: (buffer, offset, stand-ins in buffer[:offset]): -b counts them incrementally.
        self.wide_seen: tuple = (None, 0, 0)

    def line_count_at(self, pos: int) -> int:
        """Number of complete lines before offset ``pos`` in the file."""
        if pos >= self.counted_at:
            self.counted_lines += self.buf.count(self._eol, self.counted_at, pos)
        else:
            self.counted_lines -= self.buf.count(self._eol, pos, self.counted_at)
        self.counted_at = pos
        return self.counted_lines

    _eol = b"\n"  # the line terminator (NUL with -z)


