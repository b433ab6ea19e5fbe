"""The C accelerator ``sandbox._native._linescan.scan`` against a Python reference of its
documented behaviour (hypothesis): random blocks with NUL, CR, LF, invalid UTF-8 and
non-ASCII bytes, random byte-set patterns and keys, every flag combination grep uses, random
``most`` limits, and the block scanned whole or in random pieces cut at line ends (the result
must be the same). Where the C code answers "unknown" (None) the reference must agree that the
block holds a reason (a -w neighbour that is not ASCII, a printed line with invalid UTF-8).

LINESCAN_FUZZ_EXAMPLES sets the number of examples (default 3000; more in a nightly run).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox._native import linescan

L = linescan()
pytestmark = pytest.mark.skipif(L is None, reason="the C accelerator is not built "
                                "(or SANDBOX_NATIVE=0): nothing to fuzz")

EXAMPLES = int(os.environ.get("LINESCAN_FUZZ_EXAMPLES", "3000"))
ALPHABET = b"abAB_ 1T\r\n\x00\x80\xc3\xa9\xff"

ICASE, WORDS, BOL, EOL, INVERT, COUNT, NUMBERS, ONLY, CHECK = (1, 2, 4, 8, 16, 32, 64, 128,
                                                               256)


def _lower(data: bytes) -> bytes:
    return bytes(c + 32 if 65 <= c <= 90 else c for c in data)


def _ascii_word(c: int) -> bool:
    return chr(c).isascii() and (chr(c).isalnum() or c == 95)


def _utf8_ok(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def reference(block: bytes, alts: list[list[frozenset]], flags: int, most: int, head: bytes,
              lineno: int, eol: int, nonascii_word: bool) -> tuple[tuple, bool]:
    """(the result tuple, whether C may answer "unknown" instead) for one block."""
    t = _lower(block) if flags & ICASE else block
    n = len(t)
    maybe_unknown = False

    def matches(a: list[frozenset], s: int) -> bool:
        return s >= 0 and s + len(a) <= n and all(t[s + i] in a[i] for i in range(len(a)))

    def word_ok(s: int, e: int) -> bool:
        nonlocal maybe_unknown
        for k in ([s - 1] if s > 0 else []) + ([e] if e < n else []):
            c = t[k]
            if c >= 0x80:
                maybe_unknown = True
                if nonascii_word:
                    return False
            elif _ascii_word(c):
                return False
        return True

    def occurrences(ls: int, le: int) -> list[tuple[int, int]]:
        found = []
        for s in range(ls, le):
            for a in alts:
                if s + len(a) <= le and matches(a, s):
                    if not flags & WORDS or word_ok(s, s + len(a)):
                        found.append((s, len(a)))
        return found

    # a -w neighbour anywhere in the block may be looked at
    if flags & WORDS:
        for s in range(n):
            for a in alts:
                if matches(a, s):
                    word_ok(s, s + len(a))
    selected = 0
    out = bytearray()
    stop = n
    pos = 0
    number = lineno
    invalid_output = False
    while pos < n:
        le = block.index(eol, pos)
        if selected >= most:
            stop = pos
            break
        if flags & (BOL | EOL):
            hit = False
            for a in alts:
                w = len(a)
                if w > le - pos:
                    continue
                if flags & BOL and flags & EOL:
                    hit = hit or (w == le - pos and matches(a, pos))
                elif flags & BOL:
                    hit = hit or matches(a, pos)
                else:
                    hit = hit or matches(a, le - w)
            occ: list[tuple[int, int]] = []
        else:
            occ = occurrences(pos, le)
            hit = bool(occ)
        chosen = hit != bool(flags & INVERT)
        if chosen:
            selected += 1
            if not flags & COUNT:
                prefix = head + (b"%d:" % number if flags & NUMBERS else b"")
                if flags & ONLY and not flags & INVERT and not flags & (BOL | EOL):
                    p = pos
                    while True:
                        cands = [o for o in occ if o[0] >= p]
                        if not cands:
                            break
                        s = min(o[0] for o in cands)
                        w = max(o[1] for o in cands if o[0] == s)
                        out += prefix + block[s : s + w] + bytes([eol])
                        p = s + w
                else:
                    if flags & CHECK and not _utf8_ok(block[pos : le + 1]):
                        invalid_output = True
                    out += prefix + block[pos : le + 1]
            if selected >= most:
                stop = le + 1
                number += 1
                pos = le + 1
                break
        number += 1
        pos = le + 1
    else:
        stop = n
    if most == 0:
        stop = 0
    eols = block.count(bytes([eol]), 0, stop) if flags & NUMBERS else 0
    return (selected, bytes(out), stop, eols), maybe_unknown or invalid_output


@st.composite
def _position(draw: st.DrawFn, eol: int) -> frozenset:
    pool = [c for c in ALPHABET if c != eol]
    if draw(st.booleans()):
        return frozenset([draw(st.sampled_from(pool))])
    return frozenset(draw(st.sets(st.sampled_from(pool), min_size=1, max_size=6)))


@st.composite
def _case(draw: st.DrawFn) -> dict:
    eol = draw(st.sampled_from([10, 10, 10, 0]))
    lines = draw(st.lists(st.binary(max_size=12).map(
        lambda b: bytes(ALPHABET[x % len(ALPHABET)] for x in b).replace(bytes([eol]), b"a")),
        max_size=10))
    block = b"".join(line + bytes([eol]) for line in lines)
    pool = [c for c in ALPHABET if c != eol]
    alts = []
    for _ in range(draw(st.integers(1, 3))):
        seq = draw(st.lists(_position(eol), min_size=0, max_size=3))
        k = draw(st.integers(0, len(seq)))
        key = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2))
        seq = seq[:k] + [frozenset([c]) for c in key] + seq[k:]
        alts.append((seq, k, bytes(key)))
    anchored = draw(st.sampled_from([0, 0, 0, BOL, EOL, BOL | EOL]))
    flags = anchored
    for bit in (ICASE, INVERT, COUNT, NUMBERS, CHECK):
        if draw(st.booleans()):
            flags |= bit
    if not anchored:
        if draw(st.booleans()):
            flags |= WORDS
        if not flags & INVERT and draw(st.booleans()):
            flags |= ONLY
    most = draw(st.sampled_from([1 << 62, 0, 1, 2, 3, 5]))
    head = draw(st.sampled_from([b"", b"f:", b"x\x00"]))
    lineno = draw(st.integers(1, 10**6))
    cuts = sorted(draw(st.sets(st.integers(0, max(0, len(lines))), max_size=4)))
    return dict(block=block, alts=alts, flags=flags, most=most, head=head, lineno=lineno,
                eol=eol, lines=len(lines), cuts=cuts)


def _bitmap(pos: frozenset) -> bytes:
    bits = bytearray(32)
    for b in pos:
        bits[b >> 3] |= 1 << (b & 7)
    return bytes(bits)


def _scan_pieces(case: dict, c_alts: tuple) -> tuple | None:
    """scan() over the block cut at the chosen line ends, results combined."""
    block, eol = case["block"], case["eol"]
    ends = [i + 1 for i, c in enumerate(block) if c == eol]
    bounds = [0] + [ends[k - 1] for k in case["cuts"] if 0 < k <= len(ends)] + [len(block)]
    bounds = sorted(set(bounds))
    selected, out, lineno = 0, b"", case["lineno"]
    stop_total = eols_total = 0
    most = case["most"]
    for a, b in zip(bounds, bounds[1:]):
        res = L.scan(memoryview(block)[a:b], c_alts, case["flags"], most - selected,
                     case["head"], lineno, eol)
        if res is None:
            return None
        n, o, stop, eols = res
        selected += n
        out += o
        stop_total = a + stop
        eols_total += eols
        lineno += block.count(bytes([eol]), a, b)
        if selected >= most:
            break
    if len(bounds) == 1:  # an empty block: one call on nothing
        res = L.scan(b"", c_alts, case["flags"], most, case["head"], lineno, eol)
        if res is None:
            return None
        selected, out, stop_total, eols_total = res
    return selected, out, stop_total, eols_total


@settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 3000,
          suppress_health_check=list(HealthCheck))
@given(_case())
def test_scan_matches_reference(case: dict) -> None:
    c_alts = tuple((b"".join(_bitmap(p) for p in seq), k, key)
                   for seq, k, key in case["alts"])
    alts = [seq for seq, _, _ in case["alts"]]
    args = (case["block"], alts, case["flags"], case["most"], case["head"], case["lineno"],
            case["eol"])
    ref_a, unknown_a = reference(*args, nonascii_word=False)
    ref_b, unknown_b = reference(*args, nonascii_word=True)
    got_whole = L.scan(case["block"], c_alts, case["flags"], case["most"], case["head"],
                       case["lineno"], case["eol"])
    got_pieces = _scan_pieces(case, c_alts)
    for got in (got_whole, got_pieces):
        if got is None:
            assert unknown_a or unknown_b, f"unknown without a reason: {case}"
            continue
        assert got == ref_a, f"{case}\n C {got}\n ref {ref_a}"
        assert got == ref_b, f"{case}\n C {got}\n ref {ref_b}"
    if got_whole is not None and got_pieces is not None:
        assert got_whole == got_pieces


def test_scan_rejects_bad_arguments() -> None:
    """Malformed calls raise (ValueError/TypeError), never crash or read out of bounds."""
    one = (_bitmap(frozenset(b"a")), 0, b"a")
    bad_calls = [
        (b"abc", (one,), 0, 10, b"", 1, 10),  # no final eol
        (b"a\n", (), 0, 10, b"", 1, 10),  # no alternative
        (b"a\n", (one,) * 17, 0, 10, b"", 1, 10),  # too many
        (b"a\n", ((b"\0" * 31, 0, b"a"),), 0, 10, b"", 1, 10),  # sets not 32 bytes each
        (b"a\n", ((_bitmap(frozenset(b"a")), 1, b"a"),), 0, 10, b"", 1, 10),  # key past end
        (b"a\n", ((_bitmap(frozenset(b"a")), 1 << 62, b"a"),), 0, 10, b"", 1, 10),
        (b"a\n", ((_bitmap(frozenset(b"a")), -1, b"a"),), 0, 10, b"", 1, 10),
        (b"a\n", ((_bitmap(frozenset(b"ab")), 0, b"a"),), 0, 10, b"", 1, 10),  # key not a set
        (b"a\n", ((_bitmap(frozenset(b"a")), 0, b"b"),), 0, 10, b"", 1, 10),
        (b"a\n", ((_bitmap(frozenset(b"a\n")) + _bitmap(frozenset(b"a")), 1, b"a"),), 0, 10,
         b"", 1, 10),  # a set holds the eol
        (b"a\n", (one,), 0, -1, b"", 1, 10),  # negative most
        (b"a\n", (one,), 0, 10, b"", 1, 300),  # eol not a byte
        (b"a\n", (one,), 0, 10, b"", -1, 10),  # line numbers out of range
        (b"a\n", (one,), 0, 10, b"", (1 << 62) + 1, 10),
        (b"a\n", ((b"x", 0),), 0, 10, b"", 1, 10),  # alternative of the wrong shape
        (b"a\n", ("abc",), 0, 10, b"", 1, 10),
        ("a\n", (one,), 0, 10, b"", 1, 10),  # str, not bytes
    ]
    for call in bad_calls:
        with pytest.raises((ValueError, TypeError)):
            L.scan(*call)


def test_scan_large_output_and_numbers() -> None:
    """Output larger than the block (-n heads on many short lines) and numbers past 2**32."""
    block = b"a\n" * 100000
    one = (_bitmap(frozenset(b"a")), 0, b"a")
    n, out, stop, eols = L.scan(block, (one,), NUMBERS, 1 << 62, b"name:", 5_000_000_000, 10)
    assert n == 100000 and stop == len(block) and eols == 100000
    lines = out.split(b"\n")
    assert lines[0] == b"name:5000000000:a" and lines[-2] == b"name:5000099999:a"
