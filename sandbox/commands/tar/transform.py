"""``--transform``/``--xform``: GNU tar's sed-like ``s/REGEX/REPLACEMENT/FLAGS`` expressions
(``transform.c``): several per option separated by ``;``, flags ``g``, ``i``, ``x``, a match
number, and ``r``/``R``, ``h``/``H``, ``s``/``S`` for the kinds of names they apply to
(``flags=`` sets the default); ``\\1``..``\\9``, ``&``, ``\\L \\U \\l \\u \\E`` and C escapes in
the replacement. Regular expressions are glibc's (POSIX BRE, ERE with ``x``), run by
``sandbox.regex``."""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.commands.tar.cli import CliError
from sandbox.limits import Budget
from sandbox.regex import Regex, RegexError, compile_regex

#: Which names an expression applies to (GNU's ``XFORM_*``).
REGFILE, LINK, SYMLINK = 1, 2, 4
ALL = REGFILE | LINK | SYMLINK
_KIND_FLAGS = {"r": (REGFILE, True), "R": (REGFILE, False), "h": (LINK, True),
               "H": (LINK, False), "s": (SYMLINK, True), "S": (SYMLINK, False)}
_CHAR_ESCAPES = {"\\": b"\\", "a": b"\a", "b": b"\b", "f": b"\f", "n": b"\n", "r": b"\r",
                 "t": b"\t", "v": b"\v", "&": b"&"}
_CASE = {"L": "locase", "l": "locase_next", "U": "upcase", "u": "upcase_next", "E": "stop"}


def _usage(message: str) -> CliError:
    return CliError(message, 2)


@dataclass
class Expression:
    """One compiled ``s`` expression."""

    regex: Regex
    global_: bool
    match_number: int
    flags: int
    #: Replacement segments: ("lit", bytes), ("ref", n) or ("case", what).
    segments: list[tuple[str, object]] = field(default_factory=list)


def _kind_flag(flags: int, c: str) -> int | None:
    if c not in _KIND_FLAGS:
        return None
    bit, on = _KIND_FLAGS[c]
    return flags | bit if on else flags & ~bit


class Transformer:
    """The ``--transform`` expressions of a run, in order."""

    def __init__(self, texts: list[str], budget: Budget | None = None):
        self.budget = budget
        self.default_flags = ALL
        self.expressions: list[Expression] = []
        for text in texts:
            rest = text.encode("utf-8", "surrogateescape")
            while rest:
                rest = self._parse(rest)

    def __bool__(self) -> bool:
        return bool(self.expressions)

    def _parse(self, expr: bytes) -> bytes:
        """GNU ``parse_transform_expr``: compile one expression; the text after it."""
        if expr[:1] != b"s":
            if expr.startswith(b"flags="):
                self.default_flags = 0
                i = 6
                while i < len(expr):
                    c = chr(expr[i])
                    i += 1
                    if c == ";":
                        break
                    got = _kind_flag(self.default_flags, c)
                    if got is None:
                        raise _usage(f"Unknown transform flag: {c}")
                    self.default_flags = got
                return expr[i:]
            raise _usage("Invalid transform expression")
        if len(expr) < 2:
            raise _usage("Invalid transform expression")
        delim = expr[1]
        i = 2
        while i < len(expr) and expr[i] != delim:
            if expr[i] == 0x5C and i + 1 < len(expr):
                i += 1
            i += 1
        if i >= len(expr):
            raise _usage("Invalid transform expression")
        j = i + 1
        while j < len(expr) and expr[j] != delim:
            if expr[j] == 0x5C and j + 1 < len(expr):
                j += 1
            j += 1
        if j >= len(expr):
            raise _usage("Invalid transform expression")
        global_ = False
        icase = extended = False
        match_number = 0
        flags = self.default_flags
        p = j + 1
        while p < len(expr) and expr[p] != 0x3B:
            c = chr(expr[p])
            if c == "g":
                global_ = True
            elif c == "i":
                icase = True
            elif c == "x":
                extended = True
            elif c.isdigit():
                q = p
                while q < len(expr) and chr(expr[q]).isdigit():
                    q += 1
                match_number = int(expr[p:q])
                p = q - 1
            else:
                got = _kind_flag(flags, c)
                if got is None:
                    raise _usage(f"Unknown flag in transform expression: {c}")
                flags = got
            p += 1
        if p < len(expr):
            p += 1  # the ';'
        pattern = expr[2:i]
        try:
            regex = compile_regex(pattern, extended=extended, icase=icase, dot_newline=True,
                                  glibc_syntax=True, budget=self.budget)
        except RegexError as err:
            raise _usage(f"Invalid transform expression: {err}") from None
        if pattern[:1] == b"^" or pattern[-1:] == b"$":
            global_ = False
        e = Expression(regex, global_, match_number, flags)
        self._replacement(e, expr[i + 1 : j], delim)
        self.expressions.append(e)
        return expr[p:]

    @staticmethod
    def _replacement(e: Expression, text: bytes, delim: int) -> None:
        """Compile the replacement into segments (GNU's ``add_*_segment``)."""
        segs = e.segments
        beg = cur = 0
        n = len(text)

        def literal(start: int, end: int) -> None:
            if end > start:
                segs.append(("lit", text[start:end]))

        while cur < n:
            c = text[cur]
            if c == 0x5C:
                literal(beg, cur)
                cur += 1
                nxt = chr(text[cur]) if cur < n else ""
                if nxt.isdigit() and nxt:
                    q = cur
                    while q < n and chr(text[q]).isdigit():
                        q += 1
                    ref = int(text[cur:q])
                    if ref > e.regex.groups:
                        raise _usage("Invalid transform replacement: back reference out of "
                                     "range")
                    segs.append(("ref", ref))
                    cur = q
                elif nxt in _CHAR_ESCAPES and nxt:
                    segs.append(("lit", _CHAR_ESCAPES[nxt]))
                    cur += 1
                elif nxt in _CASE and nxt:
                    segs.append(("case", _CASE[nxt]))
                    cur += 1
                elif cur < n and text[cur] == delim:
                    segs.append(("lit", bytes([delim])))
                    cur += 1
                else:
                    segs.append(("lit", b"\\" + text[cur : cur + 1]))
                    cur += 1
                beg = cur
            elif c == 0x26:
                literal(beg, cur)
                segs.append(("ref", 0))
                cur += 1
                beg = cur
            else:
                cur += 1
        literal(beg, cur)

    def apply(self, name: bytes, kind: int = REGFILE) -> bytes:
        """The name after every expression that applies to ``kind``."""
        for e in self.expressions:
            if e.flags & kind:
                name = _single(e, name)
        return name


def _case(what: str, data: bytes) -> bytes:
    """GNU ``run_case_conv``: ``toupper``/``tolower`` of bytes (ASCII letters only)."""
    if not data:
        return data
    if what == "upcase_next":
        return data[:1].upper() + data[1:]
    if what == "locase_next":
        return data[:1].lower() + data[1:]
    if what == "upcase":
        return data.upper()
    if what == "locase":
        return data.lower()
    return data


def _single(e: Expression, name: bytes) -> bytes:
    """GNU ``_single_transform_name_to_obstack`` for one expression, with its quirk that a
    match skipped by a match number copies the text before it twice. Where GNU loops
    forever (an empty match in global mode), the next character is copied and matching goes
    on after it."""
    out: list[bytes] = []
    case_ctl = save_ctl = "stop"
    nmatches = 0
    data = name
    while data:
        m = e.regex.search(data)
        if m is not None:
            start, disp = m.span()
            if start:
                out.append(data[:start])
            nmatches += 1
            if e.match_number and nmatches < e.match_number:
                out.append(data[:disp])  # (an empty match is met again: the count ends it)
                data = data[disp:]
                continue
            for kind, value in e.segments:
                if kind == "lit":
                    piece = value  # type: ignore[assignment]
                elif kind == "ref":
                    piece = m.group(value)  # type: ignore[arg-type,assignment]
                    if piece is None:
                        continue
                else:
                    if value in ("upcase_next", "locase_next"):
                        if save_ctl in ("stop", "upcase", "locase"):
                            save_ctl = case_ctl
                    case_ctl = value  # type: ignore[assignment]
                    continue
                if case_ctl != "stop":
                    piece = _case(case_ctl, piece)  # type: ignore[arg-type]
                    if case_ctl in ("upcase_next", "locase_next"):
                        case_ctl, save_ctl = save_ctl, "stop"
                out.append(piece)  # type: ignore[arg-type]
            if disp == 0 and e.global_:
                out.append(data[:1])
                disp = 1
        else:
            disp = len(data)
            out.append(data)
        data = data[disp:]
        if not e.global_:
            out.append(data)
            break
    return b"".join(out)
