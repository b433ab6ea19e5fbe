"""gawk's ``rand()``/``srand()`` sequence and its ``for (k in a)`` order.

rand: gawk calls ``random()`` from its bundled BSD ``random.c`` (TYPE_4: degree 63, separation
1, Park-Miller seeding, 630 discarded values) behind a 512-entry shuffle buffer, and combines
two draws: ``(d1 / 2^31 + d2) / 2^31``. Reproduced exactly, so ``srand(1); print rand()``
prints what gawk prints.

Array order: gawk picks an array's type by its first subscript and lists it by walking
that type's table, and ``for_in_order`` replays the insertion order of the Python dict
through the same tables: a string array walks its hash table (``gst`` sdbm hash, prime sizes
13, 127, 1021..., grown at more than 2 entries per bucket, new entries at the head of their
chain); an integer array (first subscript negative) hashes 32-bit integers (Hsieh's mix,
buckets of two) and lists its strings first; a cint array (first subscript an integer >= 0)
lists its extra array (strings, negative integers, integers too sparse for its power-of-two
leaves) first, then its integers ascending.
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
_I32_MAX = 2 ** 31 - 1
_NHAT = 10
_THRESHOLD = 2 ** (_NHAT + 1)
_INT_CHAIN_MAX = 2


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


def _int_value(k: bytes) -> int | None:
    """The value of ``k`` when gawk files it as an integer subscript (``is_integer``: the
    string ``%d`` would print, within 32 bits), else None."""
    if len(k) > 11 or _INT_RE.match(k) is None:
        return None
    v = int(k)
    if v > _I32_MAX or v < -_I32_MAX - 1:
        return None
    return v


def is_cint(k: bytes) -> bool:
    """Whether ``k`` is a subscript gawk's cint array can hold (an integer >= 0)."""
    v = _int_value(k)
    return v is not None and v >= 0


def _int_hash(k: int, hsize: int) -> int:
    """gawk's ``int_hash`` (Paul Hsieh's final mix on the low 32 bits)."""
    m = 0xFFFFFFFF
    k &= m
    k ^= (k << 3) & m
    k = (k + (k >> 5)) & m
    k ^= (k << 4) & m
    k = (k + (k >> 17)) & m
    k ^= (k << 25) & m
    k = (k + (k >> 6)) & m
    return k % hsize


def _int_insert(chain: list, item) -> None:
    # buckets of two; a new bucket goes to the head of the chain
    if not chain or len(chain[0]) == 2:
        chain.insert(0, [item])
    else:
        chain[0].append(item)


def _int_order(keys: list) -> list:
    """gawk's ``int_array`` listing: its string part (a str array) first, then the hash
    table's buckets."""
    strs = []
    ints = []
    for k in keys:
        v = _int_value(k)
        if v is None:
            strs.append(k)
        else:
            ints.append((v, k))
    size = _SIZES[0]
    buckets: list = [[] for _ in range(size)]
    count = 0
    for item in ints:
        count += 1
        if count // size > _INT_CHAIN_MAX and size < _SIZES[-1]:
            new = next(s for s in _SIZES if s > size)
            nb: list = [[] for _ in range(new)]
            for chain in buckets:
                for bucket in chain:
                    for old in bucket:
                        _int_insert(nb[_int_hash(old[0], new)], old)
            buckets, size = nb, new
        _int_insert(buckets[_int_hash(item[0], size)], item)
    listed = [k for chain in buckets for bucket in chain for _, k in bucket]
    return (_str_order(strs) if strs else []) + listed


def _cint_leaf(k: int) -> tuple[int, int]:
    """(base, size) of the leaf array of gawk's cint array that holds ``k``."""
    if k < 2 ** _NHAT:
        return (k // 32) * 32, 32
    m = k.bit_length() - 1
    base = 1 << m
    while True:
        n = (m + 1) // 2
        size = 1 << n
        base += size * ((k - base) // size)
        if n <= _NHAT:
            return base, size
        m = n


def _cint_estimate(k: int) -> int:
    # cint_lookup's capacity estimate: the size of a leaf for k's power-of-two range
    m = _NHAT - 1 if k < 2 ** _NHAT else k.bit_length() - 1
    li = max(m, _NHAT)
    while li >= _NHAT:
        li = (li + 1) // 2
    return 1 << li


def _cint_order(keys: list) -> list:
    """gawk's ``cint_array`` listing: the extra array (non-integers, negative integers and
    integers too sparse for the power-of-two leaves) first, then the integers ascending."""
    cint = []
    extra = []
    leaves = set()
    capacity = 0
    for k in keys:
        v = _int_value(k)
        if v is None or v < 0 or capacity + _cint_estimate(v) - len(cint) > _THRESHOLD:
            extra.append(k)
            continue
        leaf = _cint_leaf(v)
        if leaf not in leaves:
            leaves.add(leaf)
            capacity += leaf[1]
        cint.append((v, k))
    cint.sort()
    head: list = []
    if extra:
        head = _int_order(extra) if _int_value(extra[0]) is not None else _str_order(extra)
    return head + [k for _, k in cint]


def for_in_order(d: dict) -> list:
    """The subscripts of ``d`` in gawk's ``for (k in d)`` order (its array type chosen by
    the first subscript, as gawk's ``null_lookup`` does)."""
    if not d:
        return []
    keys = list(d)
    if len(keys) == 1:
        return keys
    v = _int_value(keys[0])
    if v is None:
        return _str_order(keys)
    if v < 0:
        return _int_order(keys)
    return _cint_order(keys)
