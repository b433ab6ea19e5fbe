"""grep's block fast paths: whole chunks at a time, no Python work per non-selected line.

Most of a model's greps are one literal word (``grep the``, ``grep -n user``, ``grep -c day``,
``grep '^{"role": "user"'``). Per block (a chunk cut at a line end), chosen from the density
of the previous block:

* sparse (fewer than one matching line per ``_DENSE_BYTES``): RE2 jumps from match to match
  (its literal search beats ``bytes.find``), runs of adjacent selected lines, or the gaps
  between matches for -v, are written as slices; -n/-H heads per matching line;
* dense: the block is split into lines once (C), the lines are tested with ``in`` /
  ``startswith`` / ``endswith`` / ``==`` through C-level ``map``/``compress``, and the output
  of the block is joined and written at once; ``-n`` numbers are the block's first line
  number plus the index.

Other RE2 patterns (``grepbuf_regex``) take the sparse form for plain, -c and -v output.

Exactness: a literal qualifies only when its parsed form is a plain sequence of valid UTF-8
characters, optionally anchored at one or both ends (``-x``), where byte-substring search is
the same as GNU's matching. Under ``-i`` every letter must have exactly its ASCII case pair as
counterparts (lines are lowered with ``bytes.lower``, ASCII only); a dense block that contains
a non-ASCII counterpart (``ſ`` for ``s``, ``ı`` for ``i``) goes to the general engine, as does
any block whose selected lines hold invalid UTF-8 (GNU suppresses those and says "binary file
matches"): nothing is written before that is known. ``-w`` checks the characters around each
occurrence as GNU does. Not handled here (the general engine runs): context, ``-b``, ``-T``,
colour, ``-z`` anchors, ``-q``, ``-l``/``-L`` and binary input (those stop at the first match).
"""

from __future__ import annotations

import operator
import time
from itertools import compress, repeat
from typing import TYPE_CHECKING, Iterable

from sandbox.commands.grep.cli import Config
import re2

from sandbox.regex import _UNANCHORED, Regex
from sandbox.regex.re2_backend import NotTranslatable, to_re2
from sandbox.regex.charsets import decode_at, decode_before, fold_variants, is_word_char

if TYPE_CHECKING:
    from sandbox.commands.grep.search import Grep, _FileState

_ASCII_WORD = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


class Literal:
    """A pattern that is one literal string: how lines are tested and what guards a block."""

    __slots__ = ("text", "anchor_start", "anchor_end", "icase", "guards", "words")

    def __init__(self, text: bytes, anchor_start: bool, anchor_end: bool, icase: bool,
                 guards: tuple[bytes, ...], words: bool):
        self.text = text  #: the literal (lowered under -i)
        self.anchor_start = anchor_start
        self.anchor_end = anchor_end
        self.icase = icase
        self.guards = guards  #: byte strings whose presence sends a block to the general engine
        self.words = words


def literal_of(cfg: Config, regex: Regex) -> Literal | None:
    """The literal fast-path matcher for this command line, or None when it does not apply."""
    if (cfg.before >= 0 or cfg.after >= 0 or cfg.byte_offset or cfg.initial_tab
            or cfg.quiet or cfg.list_files or not regex.uses_re2):
        return None
    if cfg.only_matching and (cfg.invert or cfg.lines):
        return None
    ast = regex.parsed.ast
    items = _flatten(ast)
    if items is None:
        return None
    anchor_start = bool(items) and items[0] == ("assert", "bol")
    if anchor_start:
        items = items[1:]
    anchor_end = bool(items) and items[-1] == ("assert", "eol")
    if anchor_end:
        items = items[:-1]
    if not items or any(node[0] != "char" for node in items):
        return None
    if (anchor_start or anchor_end) and (cfg.null_data or cfg.words or cfg.only_matching):
        return None
    chars = "".join(node[1] for node in items)
    if any(0xD800 <= ord(c) <= 0xDFFF for c in chars):
        return None  # an invalid byte written in the pattern
    guards: list[bytes] = []
    if cfg.icase:
        for c in chars:
            variants = set(fold_variants(c))
            pair = {c.lower(), c.upper()} if c.isascii() else {c}
            if not c.isascii() and len(variants) > 1:
                return None
            for v in variants - pair:
                if v.isascii():
                    return None
                guards.append(v.encode())
            if not pair <= variants | {c}:
                return None
        chars = chars.lower() if chars.isascii() else chars
        if not all(c.isascii() or len(fold_variants(c)) == 1 for c in chars):
            return None
    text = chars.encode()
    eol = b"\0" if cfg.null_data else b"\n"
    if eol in text or b"\0" in text:
        return None
    return Literal(text, anchor_start, anchor_end, cfg.icase, tuple(sorted(set(guards))),
                   cfg.words)


def _flatten(node: tuple) -> list[tuple] | None:
    kind = node[0]
    if kind in ("char", "assert"):
        return [node]
    if kind == "cat":
        out: list[tuple] = []
        for sub in node[1]:
            part = _flatten(sub)
            if part is None:
                return None
            out.extend(part)
        return out
    return None


def _word_ok(line: bytes, s: int, e: int) -> bool:
    """GNU's -w test for the match line[s:e]: no word character touches either end."""
    if s > 0:
        b = line[s - 1]
        if b < 0x80:
            if b in _ASCII_WORD:
                return False
        else:
            cp = decode_before(line, s, 0)
            if cp >= 0 and is_word_char(cp):
                return False
    if e < len(line):
        b = line[e]
        if b < 0x80:
            if b in _ASCII_WORD:
                return False
        else:
            cp = decode_at(line, e, len(line))[0]
            if cp >= 0 and is_word_char(cp):
                return False
    return True


def _word_spans(line: bytes, key: bytes, text: bytes) -> list[tuple[int, int]]:
    """Occurrences of ``text`` in ``key`` (``line`` lowered, or itself) that pass -w."""
    n = len(text)
    out = []
    p = key.find(text)
    while p >= 0:
        if _word_ok(line, p, p + n):
            out.append((p, p + n))
            p = key.find(text, p + n)
        else:
            p = key.find(text, p + 1)
    return out


def grepbuf(g: "Grep", st: "_FileState", beg: int, lim: int) -> int | None:
    """Select, count and print the lines of ``st.buf[beg:lim]`` (which ends with an eol) as
    ``Grep._grepbuf`` would; return the number of selected lines, or None to let the general
    engine do this block (nothing was written then)."""
    lit = g.literal
    assert lit is not None
    cfg = g.cfg
    buf = st.buf
    eol = g.eol
    heads = cfg.line_numbers or g.show_names
    if not g.dense and not (lit.words or cfg.only_matching or cfg.null_data
                            or (cfg.invert and (cfg.max_count >= 0 or heads))):
        # Sparse matches: RE2 jumps from match to match (its literal search beats bytes.find
        # and it folds case exactly, so no block guard is needed here).
        if heads:
            n = _grepbuf_heads(g, st, beg, lim)
        else:
            n, runs = _matched_runs_regex(g, buf, beg, lim,
                                          (1 << 62) if cfg.invert else st.outleft)
            matched = n
            n = _write_runs(g, st, beg, lim, buf[beg : lim - 1] if cfg.invert else b"", n,
                            runs)
            g.dense = matched * _DENSE_BYTES > lim - beg
            return n
        if n is not None:
            g.dense = n * _DENSE_BYTES_HEADS > lim - beg
        return n
    block = buf[beg : lim - 1]
    for guard in lit.guards:
        if guard in block:
            return None
    plain = not (lit.words or lit.anchor_start or lit.anchor_end or cfg.only_matching
                 or heads or (cfg.invert and cfg.max_count >= 0))
    if lit.icase:
        keys = block.lower().split(eol)
        # -c needs no original text (-w's test reads the same word characters when lowered).
        lines = keys if st.out_quiet else block.split(eol)
    else:
        lines = keys = block.split(eol)
    text = lit.text
    invert = cfg.invert
    spans: list[list[tuple[int, int]]] | None = None
    # Which lines match, as an iterable of booleans (C-level iteration where possible).
    if lit.words:
        if cfg.only_matching:
            spans = [_word_spans(line, key, text) if text in key else []
                     for line, key in zip(lines, keys)]
            hits: Iterable = [bool(x) for x in spans]
        else:
            hits = [text in key and bool(_word_spans(line, key, text))
                    for line, key in zip(lines, keys)]
    elif lit.anchor_start and lit.anchor_end:
        hits = map(operator.eq, keys, repeat(text))
    elif lit.anchor_start:
        hits = map(bytes.startswith, keys, repeat(text))
    elif lit.anchor_end:
        hits = map(bytes.endswith, keys, repeat(text))
    else:
        hits = map(operator.contains, keys, repeat(text))
    if invert:
        hits = map(operator.not_, hits)
    if st.out_quiet:
        n = min(sum(hits), st.outleft)  # -c: only the number counts
        matched = n if not invert else len(lines) - n
        if plain:
            g.dense = matched * _DENSE_BYTES > len(block)
        if n == 0:
            return 0
    elif plain:
        chosen = list(compress(lines, hits))
        if len(chosen) > st.outleft:
            del chosen[st.outleft :]
        n = len(chosen)
        matched = n if not invert else len(lines) - n
        g.dense = matched * _DENSE_BYTES > len(block)
        if n == 0:
            return 0
        out = _join_checked(g, chosen)
        if out is None:
            return None
        g.out.write(out)
        st.lastout = lim
    else:
        selected = list(compress(range(len(lines)), hits))
        if len(selected) > st.outleft:
            del selected[st.outleft :]
        n = len(selected)
        if n == 0:
            return 0
        if heads and not (lit.words or cfg.only_matching):
            g.dense = n * _DENSE_BYTES_HEADS > len(block)
        out = _render(g, st, beg, lines, keys, selected, spans, block.isascii())
        if out is None:
            return None
        g.out.write(out)
        st.lastout = lim  # only context output reads it, and context never comes here
    st.outleft -= n
    g.used = True
    return n


#: Below one matching line per this many bytes a block is "sparse": finding each match with
#: bytes.find beats splitting the block into lines (measured: about 0.5 us per match against
#: about 1 ms per MiB for split and test).
_DENSE_BYTES = 450
#: The same for lines printed with heads (-n, -H): each match found alone costs more there
#: (about 4 us), so splitting pays from one matching line per this many bytes.
_DENSE_BYTES_HEADS = 3000
#: The same for other RE2 patterns: a dense block is matched by one RE2 call per run of
#: adjacent matching lines (``_matched_runs_dense``, about 1.5 ms per MiB), a sparse one by
#: one call per matching line (about 2 us each).
_DENSE_BYTES_REGEX = 1400
#: Blocks at least this large time their RE2 search (see ``grepbuf_regex``).
_TIMED_BLOCK = 1 << 16


def _join_checked(g: "Grep", chosen: list[bytes]) -> bytes | None:
    """The selected lines joined with eols, or None if one holds invalid UTF-8 (GNU then
    suppresses it: the general engine handles the block)."""
    eol = g.eol
    chosen.append(b"")  # the final eol comes from the join: no second copy of the output
    joined = eol.join(chosen)  # an eol between lines: no sequence spans two lines
    if g.cfg.binary_files != "text" and not joined.isascii():
        try:
            joined.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return joined


def _render(g: "Grep", st: "_FileState", beg: int, lines: list[bytes], keys: list[bytes],
            selected: list[int], spans: list[list[tuple[int, int]]] | None,
            ascii_block: bool = False) -> bytes | None:
    """The output of the selected lines (heads included), or None if one of them would be
    suppressed for an encoding error (the general engine then reproduces GNU exactly);
    ``ascii_block`` says the whole block is ASCII (nothing to check)."""
    cfg = g.cfg
    eol = g.eol
    names = g.show_names
    numbers = cfg.line_numbers
    head = b""
    if names:
        head = st.name + (b"\0" if cfg.null_after_name else b":")
    first = st.line_count_at(beg) + 1 if numbers else 0
    if cfg.only_matching:
        text = g.literal.text if g.literal is not None else b""
        parts: list[bytes] = []
        for i in selected:
            line = lines[i]
            if spans is not None:
                found = [line[s:e] for s, e in spans[i]]
            elif g.literal is not None and g.literal.icase:
                key = keys[i]
                found = []
                n = len(text)
                p = key.find(text)
                while p >= 0:
                    found.append(line[p : p + n])
                    p = key.find(text, p + n)
            else:
                found = [text] * line.count(text)
            if numbers:
                prefix = head + b"%d:" % (first + i)
            else:
                prefix = head
            for m in found:
                parts.append(prefix + m + eol)
        return b"".join(parts)
    if cfg.binary_files != "text" and not ascii_block:
        joined = eol.join([lines[i] for i in selected])  # no sequence spans two lines
        if not joined.isascii():
            try:
                joined.decode("utf-8")
            except UnicodeDecodeError:
                return None
    if numbers:
        if names:
            chosen = [b"%s%d:%s" % (head, first + i, lines[i]) for i in selected]
        else:
            chosen = [b"%d:%s" % (first + i, lines[i]) for i in selected]
        chosen.append(b"")
        return eol.join(chosen)
    chosen = [lines[i] for i in selected]
    if names:
        return head + (eol + head).join(chosen) + eol
    return eol.join(chosen) + eol


def _matched_runs_regex(g: "Grep", buf: bytes, beg: int, lim: int, most: int
                        ) -> tuple[int, list[int]]:
    """``_matched_runs`` for an RE2 pattern over buf[beg:lim] (which ends with an eol):
    one RE2 call per matching line, offsets relative to ``beg``."""
    match = g.regex._re2.Match  # type: ignore[union-attr]
    eol = g.eol
    find = buf.find
    rfind = buf.rfind
    limit = lim - 1  # the final eol: RE2 sees the line end there ((?m) mode)
    check_time = g.ctx.budget.check_time
    runs: list[int] = []
    n = 0
    p = beg
    run_end = -1
    while n < most and p < lim:
        s = match(_UNANCHORED, buf, p, limit)[0][0]
        if s < 0:
            break
        ls = rfind(eol, p, s) + 1 if s > p else p
        if ls < p:
            ls = p
        end = find(eol, s, lim) + 1
        if ls == run_end:
            runs[-1] = end - beg
        else:
            runs.append(ls - beg)
            runs.append(end - beg)
        run_end = end
        n += 1
        p = end
        if n & 4095 == 0:
            check_time()
    return n, runs


def _grepbuf_heads(g: "Grep", st: "_FileState", beg: int, lim: int) -> int | None:
    """Selected lines with names and/or numbers, found one RE2 call each (sparse blocks)."""
    cfg = g.cfg
    buf = st.buf
    n, runs = _matched_lines_regex(g, buf, beg, lim, st.outleft)
    if n == 0:
        return 0
    if not st.out_quiet:
        head = b""
        if g.show_names:
            head = st.name + (b"\0" if cfg.null_after_name else b":")
        numbers = cfg.line_numbers
        check = cfg.binary_files != "text"
        parts = []
        for k in range(0, len(runs), 2):
            ls, end = runs[k], runs[k + 1]
            line = buf[ls:end]
            if check and not line.isascii():
                try:
                    line.decode("utf-8")
                except UnicodeDecodeError:
                    return None  # a line GNU would suppress: the general engine handles it
            if numbers:
                parts.append(head + b"%d:" % (st.line_count_at(ls) + 1) + line)
            else:
                parts.append(head + line)
        g.out.write(b"".join(parts))
        st.lastout = lim
    st.outleft -= n
    g.used = True
    return n


def _matched_lines_regex(g: "Grep", buf: bytes, beg: int, lim: int, most: int
                         ) -> tuple[int, list[int]]:
    """Matching lines of buf[beg:lim] as a flat list [start, end, ...] (absolute offsets,
    ends after the eol), one RE2 call each."""
    match = g.regex._re2.Match  # type: ignore[union-attr]
    eol = g.eol
    find = buf.find
    rfind = buf.rfind
    limit = lim - 1
    out: list[int] = []
    n = 0
    p = beg
    while n < most and p < lim:
        s = match(_UNANCHORED, buf, p, limit)[0][0]
        if s < 0:
            break
        ls = rfind(eol, p, s) + 1 if s > p else p
        if ls < p:
            ls = p
        p = find(eol, s, lim) + 1
        out.append(ls)
        out.append(p)
        n += 1
    return n, out


def grepbuf_regex(g: "Grep", st: "_FileState", beg: int, lim: int) -> int | None:
    """Plain, -c, -v, -n and -H output for an RE2 pattern (see ``regex_plain``): in a sparse
    block the matching lines are found one RE2 call each, in a dense one a run of adjacent
    matching lines at a time (``_matched_runs_dense``); runs of selected lines are written as
    slices, or line by line with their heads."""
    cfg = g.cfg
    most = (1 << 62) if cfg.invert else st.outleft
    buf = st.buf
    # The two searches' cost per byte so far ([one call per line, one call per run]): the
    # run program of a large alternation can be slower than its matches one by one, so once
    # both were timed a dense block takes the cheaper (the output is the same either way).
    costs = g.search_costs
    runs_re2 = _runs_re2(g) if g.dense and not (0 < costs[0] < costs[1]) else None
    if runs_re2 is not None and not buf.isascii():
        try:
            buf[beg:lim].decode("utf-8")  # RE2 steps over no invalid byte: only valid text
        except UnicodeDecodeError:
            runs_re2 = None
    started = time.perf_counter()
    if runs_re2 is not None:
        n, runs = _matched_runs_dense(g, runs_re2, buf, beg, lim, most)
    else:
        n, runs = _matched_runs_regex(g, buf, beg, lim, most)
    if lim - beg >= _TIMED_BLOCK:
        costs[runs_re2 is not None] = (time.perf_counter() - started) / (lim - beg)
    g.dense = n * _DENSE_BYTES_REGEX > lim - beg
    return _write_runs(g, st, beg, lim, buf[beg : lim - 1] if cfg.invert else b"", n, runs)


def _runs_re2(g: "Grep") -> object | None:
    """The RE2 program matching a maximal run of adjacent lines that each hold a match of the
    pattern (compiled once per grep, None when it cannot be built). Groups don't capture:
    the binding asks RE2 for every group's span, which makes it run its slow NFA over the
    whole run."""
    cached = getattr(g, "_runs_program", False)
    if cached is not False:
        return cached  # type: ignore[return-value]
    program = None
    regex = g.regex
    try:
        inner = to_re2(regex.parsed.ast, regex.icase, regex.dot_newline, regex.reg_newline)
        options = re2.Options()
        options.longest_match = True
        options.case_sensitive = True
        options.never_capture = True
        options.max_mem = 64 << 20
        options.log_errors = False
        text = "(?m)^(?:[^\\n]*(?:" + inner + ")[^\\n]*\\n)+"
        program = re2.compile(text.encode(), options)._regexp
    except (NotTranslatable, re2.error):
        program = None
    g._runs_program = program  # type: ignore[attr-defined]
    return program


def _matched_runs_dense(g: "Grep", program: object, buf: bytes, beg: int, lim: int,
                        most: int) -> tuple[int, list[int]]:
    """``_matched_runs_regex`` with one RE2 call per run of adjacent matching lines; stops
    after ``most`` lines."""
    match = program.Match  # type: ignore[attr-defined]
    eol = g.eol
    count = buf.count
    find = buf.find
    check_time = g.ctx.budget.check_time
    runs: list[int] = []
    n = 0
    p = beg
    while n < most and p < lim:
        s, e = match(_UNANCHORED, buf, p, lim)[0]
        if s < 0:
            break
        k = count(eol, s, e)
        if n + k > most:
            e = s
            for _ in range(most - n):
                e = find(eol, e) + 1
            k = most - n
        runs.append(s - beg)
        runs.append(e - beg)
        n += k
        p = e
        if len(runs) & 4095 == 0:
            check_time()
    return n, runs


def regex_plain(cfg: Config, regex: Regex, branches: object) -> bool:
    """Whether ``grepbuf_regex`` applies: RE2, line mode, no -w (its retries need the general
    engine), no context, -o, -b, -T or colour, and -v only without -m."""
    return (regex.uses_re2 and not cfg.null_data and not cfg.words and branches is None
            and cfg.before < 0 and cfg.after < 0 and not cfg.only_matching
            and not cfg.byte_offset and not cfg.initial_tab and not cfg.color
            and not (cfg.invert and cfg.max_count >= 0))


def _write_runs(g: "Grep", st: "_FileState", beg: int, lim: int, block: bytes, n: int,
                runs: list[int]) -> int | None:
    """Count and write the selected lines given the runs of matching lines (offsets relative
    to ``beg``; ``block`` is buf[beg:lim-1], needed for -v only)."""
    invert = g.cfg.invert
    if invert:
        total = block.count(g.eol) + 1
        selected = total - n
        if selected == 0:
            return 0
        # The gaps between runs of matching lines are the selected lines.
        pieces = []
        p = 0
        for k in range(0, len(runs), 2):
            if runs[k] > p:
                pieces.append((p, runs[k]))
            p = runs[k + 1]
        if p <= len(block):
            pieces.append((p, len(block) + 1))
        n = selected
    else:
        if n == 0:
            return 0
        pieces = [(runs[k], runs[k + 1]) for k in range(0, len(runs), 2)]
    if not st.out_quiet:
        buf = st.buf
        cfg = g.cfg
        check = cfg.binary_files != "text"
        numbers = cfg.line_numbers
        names = g.show_names
        head = st.name + (b"\0" if cfg.null_after_name else b":") if names else b""
        eol = g.eol
        chunks = []
        for s, e in pieces:
            part = buf[beg + s : beg + e]
            if check and not part.isascii():
                try:
                    part.decode("utf-8")
                except UnicodeDecodeError:
                    return None  # a line GNU would suppress: the general engine handles it
            if numbers:
                first = st.line_count_at(beg + s) + 1
                lines = part.split(eol)
                lines.pop()  # after the final eol
                if names:
                    lines = [b"%s%d:%s" % (head, first + i, line)
                             for i, line in enumerate(lines)]
                else:
                    lines = [b"%d:%s" % (first + i, line) for i, line in enumerate(lines)]
                lines.append(b"")
                part = eol.join(lines)
            elif names:
                part = head + part[:-1].replace(eol, eol + head) + eol
            chunks.append(part)
        g.out.write(b"".join(chunks))
        st.lastout = lim
    st.outleft -= n
    g.used = True
    return n
