"""Regular expressions for jq's ``test``/``match``/``capture``/``scan``/``split``/``sub``.

jq 1.8 (src/builtin.c ``f_match``) compiles with Oniguruma: ``onig_new(..., ONIG_OPTION_CAPTURE_GROUP
| flags, ONIG_ENCODING_UTF8, ONIG_SYNTAX_PERL_NT, ...)`` and reports a bad pattern as ``Regex
failure: `` and Oniguruma's message. An Oniguruma pattern in that syntax is parsed here and
written out for the ``regex`` module (which has what ``re`` lacks: ``\\p{...}`` with scripts and
blocks, ``\\X``, ``\\K``, ``\\G``, atomic groups and possessive quantifiers, subexpression calls,
conditionals, and a timeout). What Perl_NT syntax does, as libjq 1.8.2 shows it:

* Unknown escapes are the letter itself: ``\\h`` is ``h``, ``\\u0041`` is ``u0041``, ``\\v`` is
  ``v``, ``\\pL`` is ``pL``. ``\\x41``, ``\\x{41}``, ``\\o{101}``, ``\\101`` (octal when not a back
  reference), ``\\0``, ``\\cA``, ``\\e``, ``\\a`` are characters; ``\\xc3\\xa9`` are the bytes of
  one UTF-8 character.
* ``\\w`` is Alphabetic, Mark, Decimal_Number and Connector_Punctuation (standing alone also
  ``²³¹¼½¾``: Oniguruma's Latin-1 ctype table); ``\\d`` is Nd; ``\\s`` White_Space; ``\\N`` not
  a newline, ``\\O`` any character, ``\\R`` a line break, ``\\X`` a grapheme cluster;
  ``\\z`` the end, ``\\Z`` the end or before a final newline.
* ``\\p{Name}``, ``\\P{Name}``, ``\\p{^Name}``: general categories, scripts, ``In_Block`` and
  binary properties, the name taken without regard to case, ``_`` or ``-``; ``Is_``, ``L&``
  and ``key=value`` forms are refused. Standing alone they ignore ``i``; in brackets they fold.
* POSIX brackets ``[[:alpha:]]`` are Unicode (punct is P and S; graph excludes White_Space,
  Cc, Cs and Cn; print is graph and Zs); ``[`` inside brackets is a literal (no nested sets
  and no ``&&`` in this syntax); ``]`` first is a literal if another ``]`` follows.
* ``{,n}`` and other malformed intervals are literal text; ``a**`` repeats a repeat;
  ``(?imsx-imsx)`` lasts to the end of its group (also across ``|``); ``(?P<n>`` is refused.
* Every group captures (ONIG_OPTION_CAPTURE_GROUP), names may repeat (a back reference to a
  repeated name tries each group, ``capture`` keeps the last).

Flags: ``g`` global, ``i`` case-insensitive (full case folding: ``ß`` matches ``ss``), ``x``
extended, ``n`` ignore empty matches, ``s`` single line (the syntax's default already), ``p``
dot matches newline, ``l`` longest (the ``regex`` module's POSIX leftmost-longest).

Patterns that can backtrack catastrophically (a quantified group that itself contains a
quantifier or an alternation, such as ``(a+)+`` or ``(a|aa)*``) are run by RE2 when RE2 takes
the translation; every other search runs with a timeout bound to the run's deadline. Offsets
are in codepoints, as in jq.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import regex as _rx

from sandbox.commands.jq.errors import JQError
from sandbox.commands.jq.values import describe

try:  # optional linear-time engine for risky patterns
    import re2 as _re2
except Exception:  # pragma: no cover - dependency missing
    _re2 = None

_VALID_FLAGS = set("gimnpsxl")
_NESTED_QUANT = re.compile(r"\((?:[^()\\]|\\.)*(?:[*+?}]|\|)(?:[^()\\]|\\.)*\)\s*(?:[*+]|\{\d*,\d*\})")


class _Fail(Exception):
    """An Oniguruma compile error (its ``onig_error_code_to_str`` text)."""


# -- character sets --------------------------------------------------------------------------

# Fragments for the inside of a ``regex`` bracket expression; (fragment, negated).
_WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}"
_WORD_ALONE = _WORD + r"\xb2\xb3\xb9\xbc-\xbe"  # ONIGENC ISO-8859-1 ctype table's word bit
_WS = r"\p{White_Space}"
_POSIX: dict[str, tuple[str, bool]] = {
    "alnum": (r"\p{Alphabetic}\p{Nd}", False),
    "alpha": (r"\p{Alphabetic}", False),
    "ascii": (r"\x00-\x7f", False),
    "blank": (r"\p{Zs}\t", False),
    "cntrl": (r"\p{Cc}", False),
    "digit": (r"\p{Nd}", False),
    "graph": (_WS + r"\p{Cc}\p{Cs}\p{Cn}", True),
    "lower": (r"\p{Lowercase}", False),
    "print": (r"\u2028\u2029\p{Cc}\p{Cs}\p{Cn}", True),
    "punct": (r"\p{P}\p{S}", False),
    "space": (_WS, False),
    "upper": (r"\p{Uppercase}", False),
    "xdigit": (r"0-9A-Fa-f", False),
    "word": (_WORD, False),
}
# \p{Name} of the POSIX names (normalized); Punct is only P there, Word standing alone has
# the Latin-1 extras
_PROP_POSIX = dict(_POSIX)
_PROP_POSIX.update({"punct": (r"\p{P}", False), "any": (r"\x00-\U0010ffff", False)})

_ALL_TEXT: str | None = None


@lru_cache(maxsize=64)
def _ranges(frag: str) -> tuple[tuple[int, int], ...]:
    """The code points of ``[frag]`` (asked of the ``regex`` module over all of Unicode)."""
    global _ALL_TEXT
    if _ALL_TEXT is None:
        _ALL_TEXT = "".join(map(chr, range(0x110000)))
    out = []
    for m in _rx.finditer("[" + frag + "]+", _ALL_TEXT):
        out.append((m.start(), m.end() - 1))
    return tuple(out)


def _complement(rs) -> list[tuple[int, int]]:
    out = []
    lo = 0
    for a, b in sorted(rs):
        if a > lo:
            out.append((lo, a - 1))
        lo = max(lo, b + 1)
    if lo <= 0x10FFFF:
        out.append((lo, 0x10FFFF))
    return out


def _esc(cp: int) -> str:
    if cp < 0x80 and (chr(cp).isalnum()):
        return chr(cp)
    if cp <= 0xFFFF:
        return "\\u%04x" % cp
    return "\\U%08x" % cp


def _range_text(rs) -> str:
    return "".join(_esc(a) if a == b else _esc(a) + "-" + _esc(b) for a, b in rs)


def _class_text(items: list[tuple[str, bool]], negate: bool) -> str:
    """A bracket expression for the union of ``items``, complemented if ``negate``."""
    pos = [f for f, n in items if not n]
    neg = [f for f, n in items if n]
    if not neg:
        return "[" + ("^" if negate else "") + "".join(pos) + "]"
    if len(neg) == 1 and not pos:
        return "[" + ("" if negate else "^") + neg[0] + "]"
    rs: list[tuple[int, int]] = []
    for f in pos:
        rs.extend(_ranges(f))
    for f in neg:
        rs.extend(_complement(_ranges(f)))
    return "[" + ("^" if negate else "") + _range_text(_merge(rs)) + "]"


def _merge(rs):
    out: list[list[int]] = []
    for a, b in sorted(rs):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _property(raw: str, alone: bool) -> tuple[str, bool]:
    """``\\p{raw}``: (fragment, negated)."""
    neg = raw.startswith("^")
    name = raw[1:] if neg else raw
    norm = re.sub(r"[ _\-]", "", name).lower()
    bad = not norm or any(c in name for c in "=:&") or norm.startswith("is") or not re.fullmatch(r"[A-Za-z0-9 _\-.]+", name)
    if not bad:
        if norm in _PROP_POSIX:
            frag, n = _PROP_POSIX[norm]
            if norm == "word" and alone:
                frag = _WORD_ALONE
            return frag, n != neg
        try:
            _rx.compile(r"\p{%s}" % norm)
        except Exception:
            bad = True
    if bad:
        raise _Fail(f"invalid character property name {{{raw}}}")
    return r"\p{%s}" % norm, neg


# -- the translator --------------------------------------------------------------------------

_INTERVAL = re.compile(r"\{(\d+)(?:(,)(\d*))?\}")
_GROUP_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPT_LETTERS = set("imsx")
_SIMPLE_ESC = {"t": 9, "n": 10, "r": 13, "f": 12, "a": 7, "e": 27}


class _Translator:
    def __init__(self, pattern: str, extended: bool):
        self.p = pattern
        self.i = 0
        self.out: list[Any] = []
        self.names: list[str | None] = [None]  # by group number (0: the whole match)
        self.opened = 0
        # per nesting level: [extended, scoped flag strings]
        self.levels: list[list[Any]] = [[extended, [], "top"]]
        self.starts: list[int] = []  # out index where each open group starts
        self.anchor = False  # the last atom is an anchor or a look-around (not repeatable)
        self.content: list[list[bool]] = [[False, False]]  # per level: has anchors, has others
        self.lens: list[dict] = [{"alts": [], "cur": 0, "last": 0, "lb": False}]
        self.atom: int | None = None  # index in out where the last atom starts
        self.quantified = False
        self.refs: list[tuple[int, str, Any, int]] = []  # (out index, kind, key, opened then)

    # helpers ---------------------------------------------------------------------------------

    def emit_atom(self, text: Any, anchor: bool = False, length: int | None = 1) -> None:
        self.atom = len(self.out)
        self.quantified = False
        self.anchor = anchor
        if anchor:
            length = 0
        self.add_len(length)
        self.content[-1][0 if anchor else 1] = True
        self.out.append(text)

    # fixed lengths, for Oniguruma's look-behind rule: an alternation whose branches all have
    # a fixed length must have one length (ONIG_SYN_DIFFERENT_LEN_ALT_LOOK_BEHIND is off)

    def add_len(self, length: int | None) -> None:
        ln = self.lens[-1]
        ln["last"] = length
        ln["cur"] = None if ln["cur"] is None or length is None else ln["cur"] + length

    def group_len(self, ln: dict) -> int | None:
        alts = ln["alts"] + [ln["cur"]]
        if any(a is None for a in alts):
            return None
        if len(set(alts)) > 1:
            if ln["lb"] or any(x["lb"] for x in self.lens):
                raise _Fail("invalid pattern in look-behind")
            return None
        return alts[0]

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.p[j] if j < len(self.p) else ""

    # main ------------------------------------------------------------------------------------

    def run(self) -> str:
        p = self.p
        n = len(p)
        while self.i < n:
            c = p[self.i]
            if self.levels[-1][0]:
                if c in " \t\n\r\f\v":
                    self.i += 1
                    continue
                if c == "#":
                    j = p.find("\n", self.i)
                    self.i = n if j == -1 else j + 1
                    continue
            if c == "\\":
                self.escape()
            elif c == "[":
                self.i += 1
                self.emit_atom(self.char_class())
            elif c == "(":
                self.open_group()
            elif c == ")":
                if len(self.levels) == 1:
                    raise _Fail("unmatched close parenthesis")
                self.close_scopes()
                kind = self.levels.pop()[2]
                start = self.starts.pop()
                has_anchor, has_other = self.content.pop()
                ln = self.lens.pop()
                glen = self.group_len(ln)
                self.out.append(")" if kind != "absent" else ")(?s:.))*)")
                self.i += 1
                self.atom = start
                self.quantified = False
                # a look-around, or (?:) around anchors only, is an anchor itself
                text = self.out[start] or ""
                self.anchor = text[:3] in ("(?=", "(?!", "(?<") or (
                    kind == "group" and text == "(?:" and has_anchor and not has_other)
                self.content[-1][0 if self.anchor else 1] = True
                self.add_len(0 if self.anchor else (None if kind in ("absent",) or self.out[start] is None else glen))
            elif c == "|":
                self.close_scopes()
                self.lens[-1]["alts"].append(self.lens[-1]["cur"])
                self.lens[-1]["cur"] = 0
                self.out.append("|")
                for f in self.levels[-1][1]:
                    self.out.append(f"(?{f}:")
                self.i += 1
                self.atom = None
            elif c in "*+?":
                self.quantifier(c)
            elif c == "{":
                m = _INTERVAL.match(p, self.i)
                if m is None:
                    self.emit_atom("\\{")
                    self.i += 1
                else:
                    lo = int(m.group(1))
                    hi = m.group(3)
                    if m.group(2) and hi and int(hi) < lo:
                        raise _Fail("upper is smaller than lower in repeat range")
                    if lo > 100000 or (hi and int(hi) > 100000):
                        raise _Fail("too big number for repeat range")
                    self.quantifier(m.group(0), m.end())
            elif c == "}":
                self.emit_atom("\\}")
                self.i += 1
            elif c == ".":
                self.emit_atom(".")
                self.i += 1
            elif c in "^$":
                self.emit_atom(c, anchor=True)
                self.i += 1
            else:
                self.emit_atom(_rx.escape(c))
                self.i += 1
        if len(self.levels) > 1:
            raise _Fail("end pattern with unmatched parenthesis")
        self.close_scopes()
        return self.finish()

    def close_scopes(self) -> None:
        self.out.append(")" * len(self.levels[-1][1]))

    def quantifier(self, q: str, end: int | None = None) -> None:
        if self.atom is None:
            raise _Fail("target of repeat operator is not specified")
        if self.anchor:
            raise _Fail("target of repeat operator is invalid")
        self.i = end if end is not None else self.i + 1
        if self.quantified:  # a repeat of a repeat: a** is (?:a*)*
            self.out.insert(self.atom, "(?:")
            self.out.append(")")
        ln = self.lens[-1]
        m = re.fullmatch(r"\{(\d+)\}", q)
        last = ln["last"]
        if ln["cur"] is not None and last is not None:
            ln["cur"] -= last
        ln["last"] = None if m is None or last is None else last * int(m.group(1))
        ln["cur"] = None if ln["cur"] is None or ln["last"] is None else ln["cur"] + ln["last"]
        self.out.append(q)
        nxt = self.peek()
        if nxt == "?" or nxt == "+":
            self.out.append(nxt)
            self.i += 1
        self.quantified = True

    # groups ----------------------------------------------------------------------------------

    def push(self, text: str, kind: str, ext: bool | None = None) -> None:
        self.starts.append(len(self.out))
        self.out.append(text)
        self.levels.append([self.levels[-1][0] if ext is None else ext, [], kind])
        self.content.append([False, False])
        self.lens.append({"alts": [], "cur": 0, "last": 0, "lb": text.startswith("(?<")})
        self.atom = None
        self.quantified = False

    def open_group(self) -> None:
        p = self.p
        if not p.startswith("(?", self.i):
            self.i += 1
            self.opened += 1
            self.names.append(None)
            self.push("(", "cap")
            return
        j = self.i + 2
        c = p[j] if j < len(p) else ""
        if c == "#":
            k = p.find(")", j)
            if k == -1:
                raise _Fail("end pattern in group")
            self.i = k + 1
            return
        if c in (":", "=", "!", ">"):
            self.i = j + 1
            self.push("(?" + c, "group")
            return
        if c == "~":
            self.i = j + 1
            self.push("(?:(?:(?!", "absent")
            return
        if c == "<" and p[j + 1 : j + 2] in ("=", "!"):
            self.i = j + 2
            self.push("(?<" + p[j + 1], "group")
            return
        if c in ("<", "'"):
            close = ">" if c == "<" else "'"
            k = p.find(close, j + 1)
            name = p[j + 1 : k] if k != -1 else ""
            if k == -1 or not _GROUP_NAME.fullmatch(name):
                raise _Fail(f"invalid group name <{name}>")
            self.i = k + 1
            self.opened += 1
            self.names.append(name)
            self.push("(", "cap")
            return
        if c == "(":  # conditional (?(cond)yes|no)
            k = p.find(")", j + 1)
            if k == -1:
                raise _Fail("invalid conditional pattern")
            cond = p[j + 1 : k]
            if cond[:1] in ("<", "'") and cond[-1:] in (">", "'"):
                cond = cond[1:-1]
            self.i = k + 1
            self.starts.append(len(self.out))
            self.refs.append((len(self.out), "cond", cond, self.opened))
            self.out.append(None)
            self.levels.append([self.levels[-1][0], [], "group"])
            self.content.append([False, False])
            self.lens.append({"alts": [], "cur": 0, "last": 0, "lb": False})
            self.atom = None
            return
        if c == "&" or c == "R" or c.isdigit() or c in "+-" and p[j + 1 : j + 2].isdigit():
            k = p.find(")", j)
            if k == -1:
                raise _Fail("end pattern in group")
            key = p[j:k]
            self.i = k + 1
            if key.startswith("&"):
                key = key[1:]
            elif key == "R":
                key = "0"
            self.refs.append((len(self.out), "call", key, self.opened))
            self.emit_atom(None, length=None)
            return
        # options (?imsx-imsx) or (?imsx-imsx:...)
        k = j
        on, off, neg = "", "", False
        while k < len(p) and p[k] not in ":)":
            ch = p[k]
            if ch == "-" and not neg:
                neg = True
            elif ch in _OPT_LETTERS:
                if neg:
                    off += ch
                else:
                    on += ch
            else:
                raise _Fail("undefined group option")
            k += 1
        if k >= len(p):
            raise _Fail("end pattern in group")
        ext = self.levels[-1][0]
        if "x" in on:
            ext = True
        if "x" in off:
            ext = False
        flags = on.replace("x", "") + ("-" + off.replace("x", "") if off.replace("x", "") else "")
        if p[k] == ":":
            self.i = k + 1
            self.push(f"(?{flags}:" if flags else "(?:", "group", ext)
            return
        # (?flags): to the end of the enclosing group
        self.i = k + 1
        self.levels[-1][0] = ext
        if flags:
            self.levels[-1][1].append(flags)
            self.out.append(f"(?{flags}:")
        self.atom = None

    # escapes ---------------------------------------------------------------------------------

    def escape(self) -> None:
        p = self.p
        if self.i + 1 >= len(p):
            raise _Fail("end pattern at escape")
        e = p[self.i + 1]
        self.i += 2
        if e in "wWdDsS":
            self.emit_atom(_class_text([self.class_escape(e, alone=True)], False))
        elif e in "pP" and self.peek() == "{":
            k = p.find("}", self.i)
            if k == -1:
                raise _Fail("invalid character property name {%s" % p[self.i + 1 :])
            frag, neg = _property(p[self.i + 1 : k], alone=True)
            self.i = k + 1
            if e == "P":
                neg = not neg
            self.emit_atom("(?-i:" + _class_text([(frag, neg)], False) + ")")
        elif e in "bBAG":
            self.emit_atom("\\" + e, anchor=True)
        elif e == "K":
            self.emit_atom("\\K", anchor=True)
        elif e == "z":
            self.emit_atom("\\Z", anchor=True)
        elif e == "Z":
            self.emit_atom("(?=\\n?\\Z)", anchor=True)
        elif e == "N":
            self.emit_atom("[^\\n]")
        elif e == "O":
            self.emit_atom("(?s:.)")
        elif e == "R":
            self.emit_atom("(?>\\r\\n|[\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029])", length=None)
        elif e == "X":
            self.emit_atom("\\X", length=None)
        elif e in "yY":  # text segment boundary: approximated at marks and joiners
            b = "(?:\\A|\\Z|(?<!\\u200d)(?![\\p{M}\\u200d\\p{Emoji_Modifier}]))"
            self.emit_atom(b if e == "y" else f"(?!{b})", anchor=True)
        elif e == "Q":
            k = p.find("\\E", self.i)
            text = p[self.i :] if k == -1 else p[self.i : k]
            self.i = len(p) if k == -1 else k + 2
            for ch in text:
                self.emit_atom(_rx.escape(ch))
        elif e == "k" and self.peek() in ("<", "'"):
            key = self.bracketed()
            self.refs.append((len(self.out), "backref", key, self.opened))
            self.emit_atom(None, length=None)
        elif e == "g" and self.peek() in ("<", "'"):
            key = self.bracketed()
            self.refs.append((len(self.out), "call", key, self.opened))
            self.emit_atom(None, length=None)
        elif e in "123456789":
            j = self.i - 1
            m = re.match(r"\d+", p[j:])
            num = int(m.group(0))  # type: ignore[union-attr]
            if num <= 9 or num <= self.opened:
                self.i = j + len(m.group(0))  # type: ignore[union-attr]
                self.refs.append((len(self.out), "backref", str(num), self.opened))
                self.emit_atom(None, length=None)
            elif e in "89":
                self.emit_atom(e)
            else:
                self.i = j
                self.raw(self.octal(3))
        elif e == "0":
            self.raw(self.octal(2))
        else:
            brace = self.peek() == "{"
            cp = self.char_escape(e)
            if cp is None:
                self.emit_atom(_rx.escape(e))
            elif 0x80 <= cp < 0x100 and e == "x" and not brace:
                self.raw(cp)
            else:
                self.emit_atom(_esc(cp) if cp <= 0x10FFFF else "(?!)")

    def bracketed(self) -> str:
        close = ">" if self.peek() == "<" else "'"
        k = self.p.find(close, self.i + 1)
        if k == -1:
            raise _Fail("invalid group name <%s>" % self.p[self.i + 1 :])
        key = self.p[self.i + 1 : k]
        self.i = k + 1
        return key

    def octal(self, maxdigits: int) -> int:
        m = re.match(r"[0-7]{0,%d}" % maxdigits, self.p[self.i :])
        digits = m.group(0)  # type: ignore[union-attr]
        self.i += len(digits)
        return int(digits, 8) if digits else 0

    def char_escape(self, e: str) -> int | None:
        """The code point of a character escape after ``\\`` + e (self.i past e), or None
        for a letter that stands for itself."""
        p = self.p
        if e in _SIMPLE_ESC:
            return _SIMPLE_ESC[e]
        if e == "x":
            if self.peek() == "{":
                m = re.match(r"\{([0-9A-Fa-f]{1,8})\}", p[self.i :])
                if m is None:
                    raise _Fail("invalid code point value")
                self.i += m.end()
                return int(m.group(1), 16)
            m = re.match(r"[0-9A-Fa-f]{0,2}", p[self.i :])
            self.i += m.end()  # type: ignore[union-attr]
            return int(m.group(0), 16) if m.group(0) else 0  # type: ignore[union-attr]
        if e == "o" and self.peek() == "{":
            m = re.match(r"\{([0-7]{1,11})\}", p[self.i :])
            if m is None:
                raise _Fail("invalid code point value")
            self.i += m.end()
            return int(m.group(1), 8)
        if e == "c":
            if self.i >= len(p):
                raise _Fail("end pattern at control")
            ch = p[self.i]
            self.i += 1
            return 0x7F if ch == "?" else ord(ch) & 0x1F
        return None

    def raw(self, byte: int) -> None:
        """A raw byte (``\\xHH``, octal): bytes of 0x80 and up join the following ones into
        one UTF-8 character."""
        if byte < 0x80:
            self.emit_atom(_esc(byte))
            return
        data = bytearray([byte])
        p = self.p
        while self.i + 1 < len(p) and p[self.i] == "\\" and p[self.i + 1] in "x0":
            save = self.i
            self.i += 2
            if p[save + 1] == "x" and self.peek() != "{":
                m = re.match(r"[0-9A-Fa-f]{0,2}", p[self.i :])
                self.i += m.end()  # type: ignore[union-attr]
                b = int(m.group(0), 16) if m.group(0) else 0  # type: ignore[union-attr]
            elif p[save + 1] == "0":
                b = self.octal(2)
            else:
                self.i = save
                break
            if b < 0x80 or b >= 0x100:
                self.i = save
                break
            data.append(b)
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise _Fail("too short multibyte code string")
        for ch in text:
            self.emit_atom(_esc(ord(ch)))

    # bracket expressions ---------------------------------------------------------------------

    def class_escape(self, e: str, alone: bool = False) -> tuple[str, bool]:
        if e in "wW":
            return (_WORD_ALONE if alone else _WORD), e == "W"
        if e in "dD":
            return r"\p{Nd}", e == "D"
        return _WS, e == "S"

    def char_class(self) -> str:
        """After ``[``: the bracket expression up to its ``]`` (self.i past it)."""
        p = self.p
        n = len(p)
        negate = False
        if self.peek() == "^":
            negate = True
            self.i += 1
        items: list[tuple[str, bool]] = []
        first = True
        while True:
            if self.i >= n:
                raise _Fail("premature end of char-class")
            c = p[self.i]
            if c == "]" and not first:
                self.i += 1
                break
            if c == "]" and first and p.find("]", self.i + 1) == -1:
                raise _Fail("empty char-class")
            first = False
            cp: int | None = None
            item: tuple[str, bool] | None = None
            if c == "[" and p.startswith("[:", self.i):
                k = p.find(":]", self.i + 2)
                name = p[self.i + 2 : k] if k != -1 else ""
                if k != -1 and re.fullmatch(r"\^?[a-z]+", name):
                    neg = name.startswith("^")
                    if name.lstrip("^") not in _POSIX:
                        raise _Fail("invalid POSIX bracket type")
                    frag, n2 = _POSIX[name.lstrip("^")]
                    item = (frag, n2 != neg)
                    self.i = k + 2
                else:
                    cp = ord("[")
                    self.i += 1
            elif c == "\\":
                if self.i + 1 >= n:
                    raise _Fail("end pattern at escape")
                e = p[self.i + 1]
                self.i += 2
                if e in "wWdDsS":
                    item = self.class_escape(e)
                elif e in "pP" and self.peek() == "{":
                    k = p.find("}", self.i)
                    if k == -1:
                        raise _Fail("invalid character property name {%s" % p[self.i + 1 :])
                    frag, neg = _property(p[self.i + 1 : k], alone=False)
                    self.i = k + 1
                    item = (frag, neg != (e == "P"))
                elif e == "b":
                    cp = 8
                elif e in "01234567":
                    self.i -= 1
                    cp = self.octal(3)
                else:
                    cp = self.char_escape(e)
                    if cp is None:
                        cp = ord(e)
            else:
                cp = ord(c)
                self.i += 1
            if item is not None:
                items.append(item)
                continue
            assert cp is not None
            # a range?
            if p.startswith("-", self.i) and self.i + 1 < n and p[self.i + 1] != "]":
                self.i += 1
                hi = self.range_end()
                if hi is None:
                    raise _Fail("char-class value at end of range")
                if hi < cp:
                    raise _Fail("empty range in char class")
                items.append((_esc(cp) + "-" + _esc(min(hi, 0x10FFFF)), False))
                continue
            if cp <= 0x10FFFF:
                items.append((_esc(cp), False))
        if not items:
            return "(?!)" if not negate else "(?s:.)"
        return _class_text(items, negate)

    def range_end(self) -> int | None:
        p = self.p
        c = p[self.i]
        if c == "\\":
            e = p[self.i + 1] if self.i + 1 < len(p) else ""
            self.i += 2
            if e in "wWdDsS" or (e in "pP" and self.peek() == "{"):
                return None
            if e == "b":
                return 8
            if e in "01234567":
                self.i -= 1
                return self.octal(3)
            cp = self.char_escape(e)
            return ord(e) if cp is None else cp
        if c == "[" and p.startswith("[:", self.i) and p.find(":]", self.i) != -1:
            return None
        self.i += 1
        return ord(c)

    # references ------------------------------------------------------------------------------

    def finish(self) -> str:
        total = len(self.names) - 1
        by_name: dict[str, list[int]] = {}
        for idx, nm in enumerate(self.names):
            if nm is not None:
                by_name.setdefault(nm, []).append(idx)
        for pos, kind, key, opened in self.refs:
            nums = self.resolve(key, kind, by_name, total, opened)
            if kind == "backref":
                text = "\\g<%d>" % nums[0] if len(nums) == 1 else "(?:" + "|".join("\\g<%d>" % g for g in reversed(nums)) + ")"
            elif kind == "call":
                if len(nums) > 1:
                    raise _Fail(f"multiplex definition name <{key}> call")
                text = "(?R)" if nums[0] == 0 else "(?%d)" % nums[0]
            else:
                text = "(?(%d)" % nums[-1]
            self.out[pos] = text
        return "".join(x for x in self.out if x)

    def resolve(self, key: str, kind: str, by_name: dict, total: int, opened: int) -> list[int]:
        if re.fullmatch(r"[+-]?\d+", key):
            num = int(key)
            if key[0] == "-":
                num = opened + 1 + num
            elif key[0] == "+":
                num = opened + num
            if num < 0 or num > total or (num == 0 and kind != "call"):
                raise _Fail("invalid backref number/name")
            return [num]
        if key not in by_name:
            if kind == "cond":
                raise _Fail("invalid backref number/name")
            raise _Fail(f"undefined name <{key}> reference")
        return by_name[key]


class _Moved:
    """An empty match of a model text, moved to offset ``at + 1``."""

    __slots__ = ("spans",)

    def __init__(self, m: Any, at: int, groups: int):
        self.spans = [(at + 1, at + 1)] + [
            (-1, -1) if m.span(g)[0] == -1 else (at + 1, at + 1) for g in range(1, groups + 1)]

    def span(self, g: int = 0) -> tuple[int, int]:
        return self.spans[g]

    def start(self, g: int = 0) -> int:
        return self.spans[g][0]

    def end(self, g: int = 0) -> int:
        return self.spans[g][1]

    def group(self, g: int = 0) -> Any:
        return None if self.spans[g][0] == -1 else ""


class Compiled:
    """A translated pattern: ``search(text, pos)``, ``groups`` and ``names`` ({number:
    name}) as jq's captures report them."""

    __slots__ = ("rx", "groups", "names", "timed", "translated", "not_empty")

    def __init__(self, rx: Any, groups: int, names: dict[int, str], timed: bool, translated: str,
                 not_empty: bool = False):
        self.not_empty = not_empty
        self.rx = rx
        self.groups = groups
        self.names = names
        self.timed = timed
        self.translated = translated

    def search(self, text: str, pos: int = 0) -> Any:
        if not self.not_empty:
            return self._run(self.rx.search, text, pos)
        # "n": the pattern ends in (?!\G), so a match is tried at each start in turn (\G
        # is where a match attempt starts only for match())
        from sandbox.commands.jq.interp import rt

        r = rt()
        for p in range(pos, len(text) + 1):
            r.tick()
            m = self._run(self.rx.match, text, p)
            if m is not None:
                return m
        return None

    def empty_inside_char(self, ch: str, at: int) -> Any:
        """What Oniguruma matches when a search starts inside the multibyte character ``ch``
        (jq's loop steps one byte past an empty match): an empty match there is reported at
        the next character's offset ``at``. Modelled as a match between ``ch`` and a
        character that is in no class (unassigned U+0378: the undecodable rest of ``ch``)."""
        m = self.rx.match(ch + "\u0378", 1)
        if m is None or m.end() != 1:
            return None
        return _Moved(m, at - 1, self.groups)

    def _run(self, fn: Any, text: str, pos: int) -> Any:
        if not self.timed:
            return fn(text, pos)
        from sandbox.commands.jq.interp import rt

        budget = rt().budget
        if budget is None:
            return fn(text, pos)
        remaining = budget.remaining()
        if remaining <= 0:
            budget.check_time()
        try:
            return fn(text, pos, timeout=max(remaining, 0.001))
        except TimeoutError:
            pass
        budget.check_time()
        from sandbox.errors import LimitExceeded

        raise LimitExceeded("seconds", f"time limit of {budget.limits.seconds:g}s exceeded; make the command do less work")


@lru_cache(maxsize=256)
def compile_regex(pattern: str, flags: str) -> tuple[Compiled, bool, bool]:
    """Compile ``pattern`` with jq ``flags``; return (compiled, global, ignore_empty)."""
    for f in flags:
        if f not in _VALID_FLAGS:
            raise JQError(f"{flags} is not a valid modifier string")
    not_empty = "n" in flags
    try:
        tr = _Translator(pattern, "x" in flags)
        translated = tr.run()
    except _Fail as e:
        raise JQError(f"Regex failure: {e}")
    except RecursionError:
        raise JQError("Regex failure: too big number")
    reflags = _rx.VERSION0
    if "i" in flags:
        reflags |= _rx.IGNORECASE | _rx.FULLCASE
    if "p" in flags:  # Oniguruma's MULTILINE: dot matches newline
        reflags |= _rx.DOTALL
    if "l" in flags:  # ONIG_OPTION_FIND_LONGEST
        reflags |= _rx.POSIX
    names = {g: nm for g, nm in enumerate(tr.names) if nm is not None}
    groups = len(tr.names) - 1
    if not_empty:
        # ONIG_OPTION_FIND_NOT_EMPTY: an empty match is no match, so the engine backtracks
        # into a longer one at the same place
        return _compile_rx("(?:" + translated + ")(?!\\G)", reflags, groups, names, flags, True)
    if _re2 is not None and _NESTED_QUANT.search(pattern) and "l" not in flags and "$" not in translated:
        try:
            opts = _re2.Options()
            opts.case_sensitive = "i" not in flags
            opts.dot_nl = "p" in flags
            opts.log_errors = False
            rx2 = _re2.compile(translated, opts)
            if rx2.groups == groups:
                return Compiled(rx2, groups, names, False, translated), "g" in flags, "n" in flags
        except Exception:
            pass
    return _compile_rx(translated, reflags, groups, names, flags, False)


def _compile_rx(translated: str, reflags: int, groups: int, names: dict, flags: str, not_empty: bool):
    try:
        rx = _rx.compile(translated, reflags)
    except _rx.error as e:
        msg = str(e.msg) if hasattr(e, "msg") else str(e)
        if "nothing to repeat" in msg or "multiple repeat" in msg:
            msg = "target of repeat operator is invalid"
        elif "look-behind" in msg or "lookbehind" in msg:
            msg = "invalid pattern in look-behind"
        raise JQError(f"Regex failure: {msg}")
    except (OverflowError, RecursionError, MemoryError):
        raise JQError("Regex failure: too big number for repeat range")
    return Compiled(rx, groups, names, True, translated, not_empty), "g" in flags, "n" in flags


def _names(compiled: Compiled) -> dict[int, str]:
    return compiled.names


def _match_obj(m: Any, names: dict[int, str], ngroups: int) -> dict:
    start, end = m.span()
    caps = []
    for g in range(1, ngroups + 1):
        s, e = m.span(g)
        if s == -1:
            caps.append({"offset": -1, "string": None, "length": 0, "name": names.get(g)})
        else:
            caps.append({"offset": s, "length": e - s, "string": m.group(g), "name": names.get(g)})
    return {"offset": start, "length": end - start, "string": m.group(0), "captures": caps}


def _check_args(v: Any, regex: Any, flags: Any) -> str:
    if type(v) is not str:
        raise JQError(f"{describe(v)} cannot be matched, as it is not a string")
    if type(regex) is not str:
        raise JQError(f"{describe(regex)} cannot be matched, as it is not a string")
    if flags is not None and type(flags) is not str:
        raise JQError(f"{describe(flags)} is not a string")
    return flags or ""


def iter_matches(v: Any, regex: Any, flags: Any, force_global: bool = False):
    """Python match objects of ``regex`` in ``v`` as jq enumerates them."""
    from sandbox.commands.jq.interp import rt

    fl = _check_args(v, regex, flags)
    compiled, glob, skip_empty = compile_regex(regex, fl)
    if compiled.not_empty:  # "n": the pattern itself refuses empty matches (a \K may still
        skip_empty = False  # leave the reported match empty, as in Oniguruma)
    glob = glob or force_global
    r = rt()
    if not glob:
        pos = 0
        while pos <= len(v):
            m = compiled.search(v, pos)
            if m is None:
                return
            if skip_empty and m.end() == m.start():
                pos = m.start() + 1
                continue
            yield m
            return
        return
    # jq 1.8's f_match loop: search again from where the match ended, or one past an empty
    # match (so no non-empty match is tried where an empty one was found), up to the end
    pos, end = 0, len(v)
    while pos <= end:
        m = compiled.search(v, pos)
        if m is None:
            return
        r.tick()
        if m.end() == m.start():
            k = m.start()
            pos = k + 1
            if skip_empty:
                continue
            yield m
            # jq's next search starts one *byte* on: inside a multibyte character
            # Oniguruma matches the empty string again, once a continuation byte, each
            # reported at the next character's offset
            if k < end and v[k] > "\x7f":
                m2 = compiled.empty_inside_char(v[k], pos)
                if m2 is not None:
                    for _ in range(len(v[k].encode("utf-8", "surrogatepass")) - 1):
                        yield m2
            continue
        pos = m.end()
        yield m


def match_list(v: Any, regex: Any, flags: Any, test_only: bool = False) -> Any:
    """``_match_impl``: a list of match objects, or a boolean for ``test``."""
    if test_only:
        fl = _check_args(v, regex, flags)
        compiled, _glob, skip_empty = compile_regex(regex, fl)
        if not skip_empty or compiled.not_empty:
            return compiled.search(v) is not None
        for _ in iter_matches(v, regex, flags):
            return True
        return False
    out = []
    compiled = compile_regex(regex, _check_args(v, regex, flags))[0]
    names = compiled.names
    ngroups = compiled.groups
    for m in iter_matches(v, regex, flags):
        out.append(_match_obj(m, names, ngroups))
    return out


def captures_of(m: Any, compiled: Compiled) -> dict:
    """The named-capture object that ``sub``'s replacement sees (a repeated name: the last)."""
    out = {}
    for idx, name in compiled.names.items():
        out[name] = m.group(idx)
    return out
