"""gawk's ``rand()``/``srand()`` sequence and its ``for (k in a)`` order.

rand: gawk calls ``random()`` from its bundled BSD ``random.c`` (TYPE_4: degree 63, separation
1, Park-Miller seeding, 630 discarded values) behind a 512-entry shuffle buffer, and combines
two draws: ``(d1 / 2^31 + d2) / 2^31``. Reproduced exactly, so ``srand(1); print rand()``
prints what gawk prints.

Array order: gawk lists a string-indexed array by walking its hash table (``gst`` sdbm hash,
prime table sizes 13, 127, 1021..., chains grown at more than 2 entries per bucket, new
entries at the head of their chain); an array whose first subscript was an integer keeps the
non-negative integers in ascending order after the other subscripts. ``for_in_order`` replays
the insertion order of the Python dict through that table.
"""

from __future__ import annotations

import re

_DEG = 63
_SEP = 1


def _good_rand(x: int) -> int:
    x &= 0xFFFFFFFF
    if x >= 0x80000000:
        x -= 0x100000000
    if x == 0:
        x = 123459876
    hi = int(x / 127773)
    lo = x - hi * 127773
    x = 16807 * lo - 2836 * hi
    if x < 0:
        x += 0x7FFFFFFF
    return x & 0xFFFFFFFF


class GawkRandom:
    """The generator behind gawk's rand()."""

    def __init__(self, seed: int = 1):
        self.seed(seed)

    def seed(self, seed: int) -> None:
        st = [0] * _DEG
        st[0] = seed & 0xFFFFFFFF
        for i in range(1, _DEG):
            st[i] = _good_rand(st[i - 1])
        self.st = st
        self.f = _SEP
        self.r = 0
        self.shuffle_init = True
        for _ in range(10 * _DEG):
            self.random()

    def _old(self) -> int:
        st = self.st
        f, r = self.f, self.r
        v = (st[f] + st[r]) & 0xFFFFFFFF
        st[f] = v
        f += 1
        if f >= _DEG:
            f = 0
            r += 1
        else:
            r += 1
            if r >= _DEG:
                r = 0
        self.f, self.r = f, r
        return (v >> 1) & 0x7FFFFFFF

    def random(self) -> int:
        if self.shuffle_init:
            self.buf = [self._old() for _ in range(512)]
            self.s = self._old()
            self.shuffle_init = False
        r = self._old()
        k = self.s & 511
        self.s = self.buf[k]
        self.buf[k] = r
        return self.s

    def rand(self) -> float:
        while True:
            d1 = self.random()
            d2 = self.random()
            t = 0.5 + ((d1 / 2147483648.0 + d2) / 2147483648.0)
            t -= 0.5
            if t != 1.0:
                return t


_SIZES = (13, 127, 1021, 8191, 16381, 32749, 65497, 131101, 262147, 524309, 1048583, 2097169,
          4194319, 8388617, 16777259, 33554467, 67108879, 134217757, 268435459, 536870923,
          1073741827)
_INT_RE = re.compile(rb"-?[1-9][0-9]*\Z|0\Z")


def _hash(s: bytes) -> int:
    h = 0
    for c in s:
        if c >= 128:
            c -= 256  # C's char is signed
        htmp = (h << 6) & 0xFFFFFFFF
        h = (c + htmp + (htmp << 10) - h) & 0xFFFFFFFF
    return h


def _str_order(keys) -> list:
    size = 0
    buckets: list = []
    count = 0
    for k in keys:
        code = _hash(k)
        if not buckets:
            size = _SIZES[0]
            buckets = [[] for _ in range(size)]
        count += 1
        if count // size > 2 and size < _SIZES[-1]:
            new = next(s for s in _SIZES if s > size)
            nb: list = [[] for _ in range(new)]
            for chain in buckets:
                for item in chain:  # chain head first; each moves to its new chain's head
                    nb[item[1] % new].insert(0, item)
            buckets, size = nb, new
        buckets[code % size].insert(0, (k, code))
    return [k for chain in buckets for k, _ in chain]


def is_cint(k: bytes) -> bool:
    return len(k) < 11 and _INT_RE.match(k) is not None and not k.startswith(b"-")


def for_in_order(d: dict) -> list:
    """The subscripts of ``d`` in gawk's ``for (k in d)`` order."""
    if not d:
        return []
    keys = list(d)
    if len(keys) == 1:
        return keys
    first = keys[0]
    if _INT_RE.match(first) and len(first) < 11:
        ints = []
        others = []
        for k in keys:
            if is_cint(k):
                ints.append(k)
            else:
                others.append(k)
        ints.sort(key=int)
        if others and _INT_RE.match(others[0]):
            # the overflow table is itself an integer array: its strings come first
            strs = [k for k in others if not _INT_RE.match(k)]
            nums = [k for k in others if _INT_RE.match(k)]
            return _str_order(strs) + nums + ints
        return _str_order(others) + ints
    return _str_order(keys)
