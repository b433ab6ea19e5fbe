"""GNU diffutils 3.8's comparison, ported: the identical prefix and suffix are skipped a line
at a time (io.c ``find_identical_ends``), lines that match nothing are discarded
(``discard_confusing_lines``), Myers' O(ND) middle snake splits the rest (gnulib
``diffseq.h``: ``diag`` with the "too expensive" cut-off, ``compareseq``), and
``shift_boundaries`` slides each run of changes to GNU's place. The result is the ``changed``
flags of both files, from which ``changes`` builds the hunks. Same input, same hunks as GNU.

``compare`` takes each line's key; ``compare_region`` starts after the identical ends and the
first pass of the discarding, and is what the C accelerator's ``diff_classes`` (class numbers
and the same discard codes) feeds.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import compress, repeat
from dataclasses import dataclass

from sandbox.limits import Budget


@dataclass
class Change:
    """One hunk: ``deleted`` lines from ``line0`` of file 0, ``inserted`` from ``line1``."""

    line0: int
    line1: int
    deleted: int
    inserted: int
    ignore: bool = False


_NONZERO = re.compile(rb"[\x01\x02]")
#: 1 for a kept (0) line, 0 for a discarded one.
_KEEP = bytes([1] + [0] * 255)


def _discard_codes(eq0: list, eq1: list) -> list[bytearray]:
    """The first pass of ``discard_confusing_lines``: per line of each file, 1 when it
    matches nothing in the other file, 2 when it matches more than ``many`` lines there, 0
    otherwise. Lines are compared by their keys (no class numbers: a key's hash is computed
    once and cached by the bytes object, so counting keys costs what counting classes did).
    The C accelerator's ``diff_classes`` computes the same codes from class numbers."""
    equivs = (eq0, eq1)
    uniques = (set(eq0), set(eq1))
    # A line is in exactly one file's set iff it is in the symmetric difference: one pass over
    # the sets, then each line is looked up in that (usually small, cache-friendly) set.
    lonely = uniques[0] ^ uniques[1]
    discarded = []
    for f in (0, 1):
        end = len(equivs[f])
        many = 5
        tem = end // 64
        tem >>= 2
        while tem > 0:
            many *= 2
            tem >>= 2
        # per line: 1 matches nothing in the other file, 2 matches more than ``many``
        # lines there, 0 otherwise. Only a file with ``many`` repeated lines can hold a line
        # that matches many: count the other file's lines only then.
        other, present = equivs[1 - f], uniques[1 - f]
        d = bytearray(map(lonely.__contains__, equivs[f]))
        if len(other) - len(present) >= many:
            heavy = {k for k, n in Counter(other).items() if n > many}
            if heavy:
                h = bytearray(map(heavy.__contains__, equivs[f]))
                d = bytearray((int.from_bytes(d, "big") | int.from_bytes(h, "big") << 1)
                              .to_bytes(end, "big"))
        discarded.append(d)
    return discarded


def _discard_confusing(equivs: tuple, discarded: list[bytearray] | None,
                       changed: tuple[bytearray, bytearray]) -> list[tuple[list, list[int]]]:
    """(undiscarded lines, their real indexes) of both files, given their first-pass codes
    (``_discard_codes``; None under --minimal, which discards nothing); discarded lines are
    marked changed. The lines are anything compared with ``==`` (keys or class numbers)."""
    if discarded is None:
        return [(list(eq), list(range(len(eq)))) for eq in equivs]
    for f in (0, 1):
        d = discarded[f]
        end = len(d)
        pos = 0
        while True:
            m = _NONZERO.search(d, pos)
            if m is None:
                break
            i = m.start()
            if d[i] == 2:
                d[i] = 0
            else:
                i = _discard_run(d, i, end)
            pos = i + 1
    out = []
    for f in (0, 1):
        d = discarded[f]
        eqs = equivs[f]
        ch = changed[f]
        keep = d.translate(_KEEP)
        real = list(compress(range(len(eqs)), keep))
        for m in _NONZERO.finditer(d):
            ch[m.start() + 1] = 1
        out.append((list(compress(eqs, keep)), real))
    return out


def _discard_run(d: bytearray, i: int, end: int) -> int:
    """diffutils' treatment of one run of discardable lines starting at ``i``; returns where
    its loop index ends (the run's last line, or ``i`` when the run was cancelled)."""
    provisional = 0
    j = i
    while j < end:
        if d[j] == 0:
            break
        if d[j] == 2:
            provisional += 1
        j += 1
    while j > i and d[j - 1] == 2:
        j -= 1
        d[j] = 0
        provisional -= 1
    length = j - i
    if provisional * 4 > length:
        while j > i:
            j -= 1
            if d[j] == 2:
                d[j] = 0
        return i
    minimum = 1
    tem = length >> 2
    tem >>= 2
    while tem > 0:
        minimum <<= 1
        tem >>= 2
    minimum += 1
    j = 0
    consec = 0
    while j < length:
        if d[i + j] != 2:
            consec = 0
        else:
            consec += 1
            if minimum == consec:
                j -= consec
            elif minimum < consec:
                d[i + j] = 0
        j += 1
    j = 0
    consec = 0
    while j < length:
        if j >= 8 and d[i + j] == 1:
            break
        if d[i + j] == 2:
            consec = 0
            d[i + j] = 0
        elif d[i + j] == 0:
            consec = 0
        else:
            consec += 1
        if consec == 3:
            break
        j += 1
    i += length - 1
    j = 0
    consec = 0
    while j < length:
        if j >= 8 and d[i - j] == 1:
            break
        if d[i - j] == 2:
            consec = 0
            d[i - j] = 0
        elif d[i - j] == 0:
            consec = 0
        else:
            consec += 1
        if consec == 3:
            break
        j += 1
    return i


class _Seq:
    """gnulib diffseq.h over two class vectors."""

    def __init__(self, xv: list[int], yv: list[int], xreal: list[int], yreal: list[int],
                 changed: tuple[bytearray, bytearray], budget: Budget | None):
        self.xv = xv
        self.yv = yv
        self.xreal = xreal
        self.yreal = yreal
        self.changed = changed
        self.budget = budget
        diags = len(xv) + len(yv) + 3
        self.offset = len(yv) + 1
        self.fd = [0] * diags
        self.bd = [0] * diags
        too = 1
        while diags != 0:
            too <<= 1
            diags >>= 2
        self.too_expensive = max(4096, too)
        self.steps = 0

    def diag(self, xoff: int, xlim: int, yoff: int, ylim: int, minimal: bool):  # type: ignore[no-untyped-def]
        xv, yv = self.xv, self.yv
        o = self.offset
        fd, bd = self.fd, self.bd
        dmin = xoff - ylim
        dmax = xlim - yoff
        fmid = xoff - yoff
        bmid = xlim - ylim
        fmin = fmax = fmid
        bmin = bmax = bmid
        odd = (fmid - bmid) & 1
        fd[fmid + o] = xoff
        bd[bmid + o] = xlim
        big = 1 << 62
        c = 0
        budget = self.budget
        while True:
            c += 1
            if budget is not None and c & 255 == 0:
                budget.check_time()
            if fmin > dmin:
                fmin -= 1
                fd[fmin - 1 + o] = -1
            else:
                fmin += 1
            if fmax < dmax:
                fmax += 1
                fd[fmax + 1 + o] = -1
            else:
                fmax -= 1
            for d in range(fmax, fmin - 1, -2):
                tlo = fd[d - 1 + o]
                thi = fd[d + 1 + o]
                x = thi if tlo < thi else tlo + 1
                y = x - d
                while x < xlim and y < ylim and xv[x] == yv[y]:
                    x += 1
                    y += 1
                fd[d + o] = x
                if odd and bmin <= d <= bmax and bd[d + o] <= x:
                    return x, y, True, True
            if bmin > dmin:
                bmin -= 1
                bd[bmin - 1 + o] = big
            else:
                bmin += 1
            if bmax < dmax:
                bmax += 1
                bd[bmax + 1 + o] = big
            else:
                bmax -= 1
            for d in range(bmax, bmin - 1, -2):
                tlo = bd[d - 1 + o]
                thi = bd[d + 1 + o]
                x = tlo if tlo < thi else thi - 1
                y = x - d
                while xoff < x and yoff < y and xv[x - 1] == yv[y - 1]:
                    x -= 1
                    y -= 1
                bd[d + o] = x
                if not odd and fmin <= d <= fmax and x <= fd[d + o]:
                    return x, y, True, True
            if minimal:
                continue
            if c >= self.too_expensive:
                fxybest = -1
                fxbest = 0
                for d in range(fmax, fmin - 1, -2):
                    x = min(fd[d + o], xlim)
                    y = x - d
                    if ylim < y:
                        x = ylim + d
                        y = ylim
                    if fxybest < x + y:
                        fxybest = x + y
                        fxbest = x
                bxybest = big
                bxbest = 0
                for d in range(bmax, bmin - 1, -2):
                    x = max(xoff, bd[d + o])
                    y = x - d
                    if y < yoff:
                        x = yoff + d
                        y = yoff
                    if x + y < bxybest:
                        bxybest = x + y
                        bxbest = x
                if (xlim + ylim) - bxybest < fxybest - (xoff + yoff):
                    return fxbest, fxybest - fxbest, True, False
                return bxbest, bxybest - bxbest, False, True

    def compareseq(self, xoff: int, xlim: int, yoff: int, ylim: int, minimal: bool) -> None:
        """Iterative ``compareseq`` (an explicit stack instead of recursion)."""
        xv, yv = self.xv, self.yv
        ch0, ch1 = self.changed
        xreal, yreal = self.xreal, self.yreal
        stack = [(xoff, xlim, yoff, ylim, minimal)]
        while stack:
            xoff, xlim, yoff, ylim, minimal = stack.pop()
            while xoff < xlim and yoff < ylim and xv[xoff] == yv[yoff]:
                xoff += 1
                yoff += 1
            while xoff < xlim and yoff < ylim and xv[xlim - 1] == yv[ylim - 1]:
                xlim -= 1
                ylim -= 1
            if xoff == xlim:
                for y in range(yoff, ylim):
                    ch1[yreal[y] + 1] = 1
            elif yoff == ylim:
                for x in range(xoff, xlim):
                    ch0[xreal[x] + 1] = 1
            else:
                xmid, ymid, lo_min, hi_min = self.diag(xoff, xlim, yoff, ylim, minimal)
                stack.append((xmid, xlim, ymid, ylim, hi_min))
                stack.append((xoff, xmid, yoff, ymid, lo_min))


def _shift_boundaries(eqs: tuple[list[int], list[int]], changed: tuple[bytearray, bytearray]) -> None:
    """diffutils' ``shift_boundaries``; ``changed[f][i + 1]`` is line ``i``'s flag (the
    arrays have a 0 at each end)."""
    for f in (0, 1):
        ch = changed[f]
        other = changed[1 - f]
        equivs = eqs[f]
        i_end = len(equivs)
        # positions are shifted by one in the flag arrays
        i = 0
        j = 0
        while True:
            # Skip the unchanged lines before the next run (GNU steps one line at a time;
            # j consumes as many unchanged lines of the other file, jumping its runs).
            nxt = ch.find(1, i + 1)
            nxt = i_end if nxt < 0 else min(nxt - 1, i_end)
            k = nxt - i
            while k > 0:
                if other[j + 1]:
                    j = other.find(0, j + 1) - 1
                p = other.find(1, j + 1)
                avail = (1 << 62) if p < 0 else p - 1 - j
                take = avail if avail < k else k
                j += take
                k -= take
            i = nxt
            if i == i_end:
                break
            start = i
            i += 1
            while ch[i + 1]:
                i += 1
            while other[j + 1]:
                j += 1
            while True:
                runlength = i - start
                while start and equivs[start - 1] == equivs[i - 1]:
                    start -= 1
                    ch[start + 1] = 1
                    i -= 1
                    ch[i + 1] = 0
                    while ch[start]:  # changed[start - 1]
                        start -= 1
                    j -= 1
                    while other[j + 1]:
                        j -= 1
                corresponding = i if other[j] else i_end  # other_changed[j - 1]
                while i != i_end and equivs[start] == equivs[i]:
                    ch[start + 1] = 0
                    start += 1
                    ch[i + 1] = 1
                    i += 1
                    while ch[i + 1]:
                        i += 1
                    j += 1
                    while other[j + 1]:
                        j += 1
                        corresponding = i
                if runlength == i - start:
                    break
            while corresponding < i:
                start -= 1
                ch[start + 1] = 1
                i -= 1
                ch[i + 1] = 0
                j -= 1
                while other[j + 1]:
                    j -= 1


def compare(keys0: list[bytes], keys1: list[bytes], raw0: list[bytes], raw1: list[bytes],
            minimal: bool = False, budget: Budget | None = None,
            horizon: int = 0) -> list[Change]:
    """The hunks between two files, given each line's comparison key (after -i/-b/-w...)
    and its raw bytes (for the identical prefix/suffix)."""
    n0, n1 = len(keys0), len(keys1)
    # find_identical_ends: whole identical lines at both ends are never part of a change.
    pre = 0
    while pre < n0 and pre < n1 and raw0[pre] == raw1[pre]:
        pre += 1
    suf = 0
    while suf < n0 - pre and suf < n1 - pre and raw0[n0 - 1 - suf] == raw1[n1 - 1 - suf]:
        suf += 1
    # GNU keeps HORIZON lines of each identical end in the compared region.
    pre = max(0, pre - horizon)
    suf = max(0, suf - horizon)
    eq0, eq1 = keys0[pre:n0 - suf], keys1[pre:n1 - suf]
    codes = None if minimal else _discard_codes(eq0, eq1)
    return compare_region(eq0, eq1, codes, pre, minimal, budget)


def compare_region(eq0, eq1, codes: list[bytearray] | None, pre: int, minimal: bool = False,  # type: ignore[no-untyped-def]
                   budget: Budget | None = None) -> list[Change]:
    """The hunks from the compared region (the lines after the ``pre`` lines of the
    identical prefix, up to the identical suffix) of both files: sequences compared with
    ``==`` (keys, or the class numbers of ``_linescan.diff_classes``), with the first-pass
    discard codes (None under --minimal)."""
    m0, m1 = len(eq0), len(eq1)
    changed = (bytearray(m0 + 2), bytearray(m1 + 2))
    (x, xr), (y, yr) = _discard_confusing((eq0, eq1), codes, changed)
    seq = _Seq(x, y, xr, yr, changed, budget)
    seq.compareseq(0, len(x), 0, len(y), minimal)
    _shift_boundaries((eq0, eq1), changed)
    # build_script, forward, jumping over unchanged runs with bytearray.find
    out: list[Change] = []
    ch0, ch1 = changed
    i0 = i1 = 0
    one, zero = b"\x01", b"\x00"
    while True:
        p0 = ch0.find(one, i0 + 1)
        p0 = m0 if p0 < 0 else p0 - 1
        p1 = ch1.find(one, i1 + 1)
        p1 = m1 if p1 < 0 else p1 - 1
        skip = min(p0 - i0, p1 - i1)
        i0 += skip
        i1 += skip
        if i0 >= m0 and i1 >= m1:
            break
        line0, line1 = i0, i1
        i0 = ch0.find(zero, i0 + 1) - 1
        i1 = ch1.find(zero, i1 + 1) - 1
        out.append(Change(line0 + pre, line1 + pre, i0 - line0, i1 - line1))
    return out
