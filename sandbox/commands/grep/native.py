"""grep's native block path: the C accelerator ``sandbox._native._linescan`` scans a block of
whole lines for a small set of fixed-length patterns and returns the block's count or output.

It applies when the pattern (after ``-e``/``-f``/``-x`` are merged into one AST) is a finite
set of at most ``MAX_ALTS`` strings of "positions", each position a literal character or a
bracket expression of ASCII characters only (``[0-9]``, ``[a-c]``; no negation, no class whose
members reach beyond ASCII), optionally anchored at both ends of every string (``^``, ``$``,
``-x``). Examples: ``the``, ``^{"role": "user"``, ``"role": "(user|assistant)"``,
``[0-9]T[0-9]``, ``-i 'pricing|deadline'``, ``-F -e a -e b``. For such a pattern, a line holds
a match exactly when one of the strings occurs in it as bytes: the strings are valid UTF-8 and
each position starts at a character boundary, so a byte occurrence is a character occurrence.

Case folding (``-i``): the block is lowered ASCII-wise (in C) and every position holds the
lowered bytes. An ASCII letter whose case counterparts in GNU's C.UTF-8 fold reach beyond
ASCII (``s``/``S`` -> U+017F, ``i``/``I`` -> U+0131, as GNU grep 3.8 matches them) adds that
counterpart's UTF-8 as a *guard*: a block holding a guard is left to the exact paths. A
non-ASCII character with counterparts, or a bracket expression whose fold leaves ASCII
(``[s]`` under -i), is not planned at all.

``-w`` follows GNU: an occurrence counts when no word character touches either end, and at a
start where the longest string fails a shorter one is tried; a non-ASCII neighbour makes the C
code return "unknown" for the block, which then takes the exact paths. So does a line to print
that holds invalid UTF-8 (GNU suppresses it and says "binary file matches"). Not planned:
context, ``-b``, ``-T``, colour, ``-q``/``-l``/``-L`` (they stop at the first match), ``-z``,
``-o`` with ``-v`` or ``-x``, anchors with ``-w`` or ``-o``.

``SANDBOX_NATIVE=0`` (or a missing build) turns the path off; the pure-Python paths then
produce the same bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox._native import linescan
from sandbox.commands.grep.cli import Config
from sandbox.regex import Regex
from sandbox.regex.charsets import fold_variants
from sandbox.regex.re2_backend import NotTranslatable, set_ranges

if TYPE_CHECKING:
    from sandbox.commands.grep.search import Grep, _FileState

#: At most this many strings (each is searched separately, so more would be slower than RE2;
#: the C code takes up to 16).
MAX_ALTS = 8
#: At most this many positions per string (the C code takes up to 1024).
MAX_LEN = 256

_Pos = frozenset  # the bytes allowed at one position (lowered under -i)


class Plan:
    """What the C scan needs for one grep: its alternatives, flags and the -i guards."""

    __slots__ = ("module", "alts", "flags", "guards", "longest")

    def __init__(self, module: object, alts: tuple, flags: int, guards: tuple[bytes, ...]):
        self.module = module
        self.alts = alts  #: tuple of (sets, key_off, key) as ``_linescan.scan`` takes them
        self.flags = flags  #: the flags every block shares
        self.guards = guards  #: byte strings whose presence leaves a block to the exact paths
        self.longest = max(len(a[0]) // 32 for a in alts)  #: the longest string's length


class _NotPlanned(Exception):
    pass


def plan_of(cfg: Config, regex: Regex) -> Plan | None:
    """The native plan for this command line, or None when the C path does not apply."""
    mod = linescan()
    if mod is None:
        return None
    if (cfg.before >= 0 or cfg.after >= 0 or cfg.byte_offset or cfg.initial_tab
            or cfg.quiet or cfg.list_files or cfg.null_data or cfg.color
            or not regex.uses_re2):
        return None
    if cfg.only_matching and (cfg.invert or cfg.lines):
        return None
    icase = regex.icase
    guards: set[bytes] = set()
    try:
        bol, eol, strings = _strings(regex.parsed.ast, icase, guards)
    except (_NotPlanned, NotTranslatable, RecursionError):
        return None
    if (bol or eol) and (cfg.words or cfg.only_matching):
        return None
    if not strings or len(strings) > MAX_ALTS:
        return None
    alts = []
    for seq in strings:
        if not seq or len(seq) > MAX_LEN:
            return None
        key_off, key = _key(seq)
        if not key:
            return None
        sets = b"".join(_bitmap(p) for p in seq)
        alts.append((sets, key_off, key))
    flags = 0
    if icase:
        flags |= mod.F_ICASE
    if cfg.words:
        flags |= mod.F_WORDS
    if bol:
        flags |= mod.F_BOL
    if eol:
        flags |= mod.F_EOL
    if cfg.invert:
        flags |= mod.F_INVERT
    if cfg.line_numbers:
        flags |= mod.F_NUMBERS
    if cfg.only_matching:
        flags |= mod.F_ONLY
    if cfg.binary_files != "text":
        flags |= mod.F_CHECK_UTF8
    return Plan(mod, tuple(alts), flags, tuple(sorted(guards)))


def _key(seq: list[frozenset]) -> tuple[int, bytes]:
    """The longest run of one-byte positions (the first such run on ties)."""
    best_off, best_len = 0, 0
    i = 0
    while i < len(seq):
        if len(seq[i]) == 1:
            j = i
            while j < len(seq) and len(seq[j]) == 1:
                j += 1
            if j - i > best_len:
                best_off, best_len = i, j - i
            i = j
        else:
            i += 1
    key = bytes(next(iter(seq[k])) for k in range(best_off, best_off + best_len))
    return best_off, key


def _bitmap(pos: frozenset) -> bytes:
    bits = bytearray(32)
    for b in pos:
        bits[b >> 3] |= 1 << (b & 7)
    return bytes(bits)


def _strings(ast: tuple, icase: bool, guards: set[bytes]
             ) -> tuple[bool, bool, list[list[frozenset]]]:
    """(anchored at the start, at the end, the strings): anchors must be on every branch."""
    branches = ast[1] if ast[0] == "alt" else [ast]
    anchors: set[tuple[bool, bool]] = set()
    out: list[list[frozenset]] = []
    for branch in branches:
        items = list(branch[1]) if branch[0] == "cat" else [branch]
        bol = bool(items) and items[0] == ("assert", "bol")
        if bol:
            items = items[1:]
        eol = bool(items) and items[-1] == ("assert", "eol")
        if eol:
            items = items[:-1]
        if len(items) == 1 and items[0][0] == "group" and (bol or eol):
            items = [items[0][2]]
        anchors.add((bol, eol))
        for seq in _expand(("cat", items), icase, guards):
            if seq not in out:
                out.append(seq)
            if len(out) > MAX_ALTS:
                raise _NotPlanned
    if len(anchors) != 1:
        raise _NotPlanned
    bol, eol = anchors.pop()
    return bol, eol, out


def _expand(node: tuple, icase: bool, guards: set[bytes]) -> list[list[frozenset]]:
    """Every string the node matches, as lists of positions."""
    kind = node[0]
    if kind == "char":
        return [_char(node[1], icase, guards)]
    if kind == "set":
        return [[_set(node, icase)]]
    if kind == "group":
        return _expand(node[2], icase, guards)
    if kind == "empty":
        return [[]]
    if kind == "alt":
        out: list[list[frozenset]] = []
        for sub in node[1]:
            for seq in _expand(sub, icase, guards):
                if seq not in out:
                    out.append(seq)
            if len(out) > MAX_ALTS:
                raise _NotPlanned
        return out
    if kind == "cat":
        acc: list[list[frozenset]] = [[]]
        for sub in node[1]:
            parts = _expand(sub, icase, guards)
            acc = [a + b for a in acc for b in parts]
            if len(acc) > MAX_ALTS or any(len(a) > MAX_LEN for a in acc):
                raise _NotPlanned
        return acc
    if kind == "repeat" and node[2] == node[3] and node[2] is not None and node[2] <= 8:
        return _expand(("cat", [node[1]] * node[2]), icase, guards)
    raise _NotPlanned  # any, negated sets, other repeats, asserts inside, backrefs


def _char(c: str, icase: bool, guards: set[bytes]) -> list[frozenset]:
    if 0xD800 <= ord(c) <= 0xDFFF:
        raise _NotPlanned  # an invalid byte written in the pattern
    if c in "\n\0":
        raise _NotPlanned
    if icase:
        variants = set(fold_variants(c))
        if c.isascii():
            pair = {c.lower(), c.upper()}
            if not pair <= variants | {c}:
                raise _NotPlanned
            for v in variants - pair:
                if v.isascii():
                    raise _NotPlanned
                guards.add(v.encode())
            return [_Pos([ord(c.lower())])]
        if len(variants) > 1:
            raise _NotPlanned
    return [_Pos([b]) for b in c.encode()]


def _set(node: tuple, icase: bool) -> frozenset:
    if node[1] or len(node) > 3:
        raise _NotPlanned  # negated, or \w \s ...
    ranges = set_ranges(node[2], icase, exclude_newline=True)
    members: set[int] = set()
    for lo, hi in ranges:
        if hi >= 0x80:
            raise _NotPlanned
        members.update(range(lo, hi + 1))
    members.discard(0)
    members.discard(10)
    if icase:
        members = {m + 32 if 65 <= m <= 90 else m for m in members}
    if not members:
        raise _NotPlanned
    return _Pos(members)


#: Most output bytes one C call may build: a block is scanned in pieces small enough for
#: this (with -n, -H and -o the output can be many times the input).
OUTPUT_CAP = 32 << 20


def grepbuf(g: "Grep", st: "_FileState", beg: int, lim: int) -> tuple[int, int]:
    """Select, count and print lines of ``st.buf[beg:lim]`` (which ends with an eol) as
    ``Grep._grepbuf`` would. Returns (selected lines, resume): the lines before ``resume``
    are done, those from ``resume`` to ``lim`` are left to the other paths (a block holding a
    -i guard, an answer the C code cannot give, a line too long for one call)."""
    plan = g.native
    assert plan is not None
    buf = st.buf
    if plan.guards and not buf.isascii():
        for guard in plan.guards:
            if buf.find(guard, beg, lim) >= 0:
                return 0, beg
    cfg = g.cfg
    mod = plan.module
    flags = plan.flags
    quiet = st.out_quiet
    numbers = cfg.line_numbers and not quiet
    head = b""
    if quiet:
        flags |= mod.F_COUNT  # type: ignore[attr-defined]
    elif g.show_names:
        head = st.name + (b"\0" if cfg.null_after_name else b":")
    # Output bytes per input byte at most: a head and a number per line (or per occurrence).
    ratio = 1 if quiet else len(head) + 24 + (plan.longest if cfg.only_matching else 0)
    step = max(OUTPUT_CAP // ratio, 1)
    eol = g.eol
    view = memoryview(buf)
    total = 0
    p = beg
    while p < lim and st.outleft > 0:
        end = lim
        if lim - p > step:
            end = buf.rfind(eol, p, p + step) + 1
            if end <= p:
                return total, p  # one line longer than a piece: the other paths
        first = st.line_count_at(p) + 1 if numbers else 0
        res = mod.scan(view[p:end], plan.alts, flags, st.outleft, head,  # type: ignore
                       first, eol[0])
        if res is None:
            return total, p
        n, out, stop, eols = res
        if numbers:
            st.counted_at = p + stop
            st.counted_lines = first - 1 + eols
        if n:
            if out:
                g.out.write(out)
                st.lastout = end
            st.outleft -= n
            g.used = True
            total += n
        p = end
        if p < lim:
            g.ctx.budget.check_time()
    return total, lim
