"""A bounded backtracking matcher for what RE2 cannot do (back-references, GNU word assertions,
invalid bytes in the pattern, huge repeat counts).

The AST is compiled to a small instruction list run by an explicit-stack VM (no Python
recursion, so long lines cannot overflow the stack). Matching is leftmost-longest: from the
leftmost start that matches, every path is explored and the longest end kept (the first path,
in greedy order, that reaches that end gives the groups).

Patterns without back-references memoise visited (instruction, position) states, which makes
the search linear in the input for a fixed pattern. With back-references the search can be
exponential, so the VM calls ``budget.check_time()`` every few thousand steps and raises
``LimitExceeded`` ("regex took too long") once the deadline passes, in any thread.
"""

from __future__ import annotations

from sandbox.errors import LimitExceeded
from sandbox.limits import Budget
from sandbox.regex.charsets import (
    class_ranges, decode_at, decode_before, fold_variants, in_ranges_bisect, is_word_char,
)
from sandbox.regex.parser import RegexError

# Opcodes
CHAR, ANY, SET, SPLIT, JMP, SAVE, ASSERT, BACKREF, MATCH, MARK, CHECK = range(11)

MAX_PROGRAM = 200_000
_CHECK_EVERY = 2048


class _SetPredicate:
    """Membership test of a bracket expression on a code point."""

    __slots__ = ("negated", "items", "icase", "newline_ok", "cache")

    def __init__(self, negated: bool, items: tuple, icase: bool, newline_ok: bool):
        self.negated = negated
        self.items = items
        self.icase = icase
        #: False when a newline never matches (line mode, or ``[^...]`` under REG_NEWLINE).
        self.newline_ok = newline_ok
        self.cache: dict[int, bool] = {}

    def _raw(self, ch: str) -> bool:
        cp = ord(ch)
        for item in self.items:
            kind = item[0]
            if kind == "range":
                if ord(item[1]) <= cp <= ord(item[2]):
                    return True
            elif kind == "class":
                name = item[1]
                if self.icase and name in ("upper", "lower"):
                    name = "alpha"  # as glibc and dfa do under REG_ICASE
                if in_ranges_bisect(cp, class_ranges(name)):
                    return True
            elif item[1] == ch:
                return True
        return False

    def __call__(self, cp: int) -> bool:
        hit = self.cache.get(cp)
        if hit is not None:
            return hit
        if cp == 10 and not self.newline_ok:
            result = False
        else:
            ch = chr(cp)
            found = self._raw(ch)
            if not found and self.icase:
                found = any(self._raw(v) for v in fold_variants(ch) if v != ch)
            result = found != self.negated
        self.cache[cp] = result
        return result


class Program:
    """A compiled instruction list plus what the VM needs to run it."""

    def __init__(self, ast: tuple, ngroups: int, icase: bool, dot_newline: bool,
                 memoize: bool, reg_newline: bool = False):
        self.code: list[tuple] = []
        self.icase = icase
        self.dot_newline = dot_newline
        #: glibc's REG_NEWLINE (sed's ``M``): only ``.`` and ``[^...]`` skip newlines.
        self.reg_newline = reg_newline and not dot_newline
        self.nregs = 2 * (ngroups + 1)
        self.memoize = memoize
        self.code.append((SAVE, 0))
        self._emit(ast)
        self.code.append((SAVE, 1))
        self.code.append((MATCH,))

    def _add(self, ins: tuple) -> int:
        self.code.append(ins)
        if len(self.code) > MAX_PROGRAM:
            raise RegexError("Regular expression too big")
        return len(self.code) - 1

    def _emit(self, node: tuple) -> None:
        kind = node[0]
        if kind == "char":
            c = node[1]
            cp = ord(c)
            if 0xDC80 <= cp <= 0xDCFF:
                self._add((CHAR, (bytes([cp - 0xDC00]),)))
            elif self.icase:
                self._add((CHAR, tuple(v.encode() for v in fold_variants(c))))
            else:
                self._add((CHAR, (c.encode(),)))
        elif kind == "any":
            self._add((ANY,))
        elif kind == "set":
            negated, escape = node[1], len(node) > 3
            newline_ok = self.dot_newline or (self.reg_newline and (escape or not negated))
            self._add((SET, _SetPredicate(negated, node[2], self.icase, newline_ok)))
        elif kind == "cat":
            for sub in node[1]:
                self._emit(sub)
        elif kind == "alt":
            branches = node[1]
            jumps = []
            for k, sub in enumerate(branches):
                if k < len(branches) - 1:
                    split = self._add((SPLIT, 0, 0))
                    self._emit(sub)
                    jumps.append(self._add((JMP, 0)))
                    self.code[split] = (SPLIT, split + 1, len(self.code))
                else:
                    self._emit(sub)
            for j in jumps:
                self.code[j] = (JMP, len(self.code))
        elif kind == "group":
            n = node[1]
            self._add((SAVE, 2 * n))
            self._emit(node[2])
            self._add((SAVE, 2 * n + 1))
        elif kind == "repeat":
            sub, lo, hi = node[1], node[2], node[3]
            for _ in range(lo):
                self._emit(sub)
            if hi is None:
                reg = self.nregs
                self.nregs += 1
                loop = self._add((MARK, reg))
                split = self._add((SPLIT, 0, 0))
                self._emit(sub)
                self._add((CHECK, reg))
                self._add((JMP, loop))
                self.code[split] = (SPLIT, split + 1, len(self.code))
            else:
                splits = []
                for _ in range(hi - lo):
                    splits.append(self._add((SPLIT, 0, 0)))
                    self._emit(sub)
                for s in splits:
                    self.code[s] = (SPLIT, s + 1, len(self.code))
        elif kind == "assert":
            self._add((ASSERT, node[1]))
        elif kind == "backref":
            self._add((BACKREF, node[1]))
        elif kind == "empty":
            pass


def _too_long() -> LimitExceeded:
    return LimitExceeded(
        "seconds",
        "regex took too long: the pattern backtracks too much on this input; simplify it",
    )


def run_search(prog: Program, data: bytes, pos: int, endpos: int, not_bol: bool,
               multiline: bool, budget: Budget, anchored: bool = False) -> list[int] | None:
    """Leftmost-longest search of ``data[pos:endpos]``; return the register list or None."""
    code = prog.code
    icase = prog.icase
    dot_newline = prog.dot_newline
    memo: set[int] | None = set() if prog.memoize else None
    width = endpos + 2
    steps = 0
    deadline = budget.deadline
    import time as _time
    monotonic = _time.monotonic

    def assertion(kind: str, p: int) -> bool:
        if kind == "bol":
            if p == 0:
                return not not_bol
            return multiline and data[p - 1] == 10 or (p == pos and p > 0 and False)
        if kind == "eol":
            if p == endpos:
                return True
            return multiline and data[p] == 10
        if kind == "bot":
            return p == 0
        if kind == "eot":
            return p == endpos
        # As glibc's regex: an invalid byte 0xNN counts as the character U+00NN here.
        before = decode_before(data, p)
        if before < 0 and p > 0:
            before = data[p - 1]
        after = -1
        if p < endpos:
            after = decode_at(data, p, endpos)[0]
            if after < 0:
                after = data[p]
        wb = before >= 0 and is_word_char(before)
        wa = after >= 0 and is_word_char(after)
        if kind == "wordb":
            return wb != wa
        if kind == "nwordb":
            return wb == wa
        if kind == "wbeg":
            return wa and not wb
        return wb and not wa  # wend

    start = pos
    last_start = pos if anchored else endpos
    while start <= last_start:
        if start > pos and start < endpos and 0x80 <= data[start] < 0xC0:
            # Never start inside a valid multibyte character (glibc searches by character).
            lead = _char_start(data, start)
            if lead < start and decode_at(data, lead, endpos)[1] > start - lead:
                start += 1
                continue
        regs: list[int] = [-1] * prog.nregs
        best_end = -1
        best_regs: list[int] | None = None
        stack: list[tuple] = [(0, start)]
        while stack:
            item = stack.pop()
            if len(item) == 3:  # undo a register
                regs[item[1]] = item[2]
                continue
            pc, p = item
            while True:
                steps += 1
                if steps % _CHECK_EVERY == 0 and monotonic() > deadline:
                    raise _too_long()
                if memo is not None:
                    key = pc * width + p
                    if key in memo:
                        break
                    memo.add(key)
                ins = code[pc]
                op = ins[0]
                if op == CHAR:
                    for alt in ins[1]:
                        if data.startswith(alt, p) and p + len(alt) <= endpos:
                            p += len(alt)
                            pc += 1
                            break
                    else:
                        break
                elif op == ANY or op == SET:
                    if p >= endpos:
                        break
                    cp, n = decode_at(data, p, endpos)
                    if cp < 0:
                        break
                    if op == ANY:
                        if cp == 10 and not dot_newline:
                            break
                    elif not ins[1](cp):
                        break
                    p += n
                    pc += 1
                elif op == SPLIT:
                    stack.append((ins[2], p))
                    pc = ins[1]
                elif op == JMP:
                    pc = ins[1]
                elif op == SAVE or op == MARK:
                    r = ins[1]
                    stack.append((None, r, regs[r]))
                    regs[r] = p
                    pc += 1
                elif op == CHECK:
                    if regs[ins[1]] == p:
                        break  # an iteration that matched nothing: stop looping
                    pc += 1
                elif op == ASSERT:
                    if not assertion(ins[1], p):
                        break
                    pc += 1
                elif op == BACKREF:
                    n = ins[1]
                    s, e = regs[2 * n], regs[2 * n + 1]
                    if s < 0 or e < 0:
                        break
                    length = e - s
                    if p + length > endpos:
                        break
                    if data[s:e] == data[p : p + length]:
                        p += length
                    elif icase and data[s:e].decode("utf-8", "surrogateescape").lower() == data[
                        p : p + length
                    ].decode("utf-8", "surrogateescape").lower():
                        p += length
                    else:
                        break
                    pc += 1
                else:  # MATCH
                    if p > best_end:
                        best_end = p
                        best_regs = regs[: prog.nregs]
                        best_regs[1] = p
                    break
            if best_end == endpos:
                break
        if best_regs is not None:
            return best_regs
        start += 1
    return None


def _char_start(data: bytes, pos: int) -> int:
    """Offset of the lead byte of a possible multibyte character covering ``pos``."""
    k = pos
    while k > 0 and pos - k < 3 and 0x80 <= data[k] < 0xC0:
        k -= 1
    return k
