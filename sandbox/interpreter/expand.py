"""Word expansion in bash's order: brace expansion, tilde, parameter and command
substitution, field splitting on IFS, globbing inside the jail, quote removal."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox.errors import LimitExceeded
from sandbox.fs.base import FSError
from sandbox.fs.paths import normalize
from sandbox.interpreter import patterns
from sandbox.interpreter.arith import ArithError, ArithUnbound, evaluate
from sandbox.parse.ast import DQ, ArithSub, CmdSub, Lit, Param, Part, Quoted, Tilde, Word

if TYPE_CHECKING:
    from sandbox.interpreter.core import Shell

Chunk = tuple[str, bool]  # (text, quoted)
_DEFAULT_IFS = " \t\n"


class ExpansionError(Exception):
    """An expansion error that ends the command (bash's ``bad substitution``,
    ``unbound variable``, ``${v:?msg}``). ``fatal`` errors exit a non-interactive shell."""

    def __init__(self, message: str, fatal: bool = True, status: int = 1):
        super().__init__(message)
        self.fatal = fatal
        self.status = status


# -- brace expansion --------------------------------------------------------------------------

_SEQ_RE = re.compile(r"^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$|^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$")


def _atoms(parts: list[Part]) -> list[object]:
    out: list[object] = []
    for p in parts:
        if isinstance(p, Lit):
            out.extend(p.text)
        else:
            out.append(p)
    return out


def _parts(atoms: list[object]) -> list[Part]:
    out: list[Part] = []
    buf: list[str] = []
    for a in atoms:
        if isinstance(a, str):
            buf.append(a)
        else:
            if buf:
                out.append(Lit("".join(buf)))
                buf = []
            out.append(a)  # type: ignore[arg-type]
    if buf:
        out.append(Lit("".join(buf)))
    return out


def _sequence(text: str, limit: int) -> list[str] | None:
    m = _SEQ_RE.match(text)
    if not m:
        return None
    if m.group(1) is not None:
        a_s, b_s, step_s = m.group(1), m.group(2), m.group(3)
        a, b = int(a_s), int(b_s)
        step = abs(int(step_s)) if step_s else 1
        step = step or 1
        count = abs(b - a) // step + 1
        if count > limit:
            raise LimitExceeded("brace_results", f"brace expansion limit of {limit} results "
                                "exceeded; use a smaller range")
        width = 0
        for s in (a_s, b_s):
            digits = s.lstrip("-")
            if len(digits) > 1 and digits.startswith("0"):
                width = max(len(a_s), len(b_s))
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        if width:
            return [(f"-{str(-v).zfill(width - 1)}" if v < 0 else str(v).zfill(width)) for v in rng]
        return [str(v) for v in rng]
    a, b = ord(m.group(4)), ord(m.group(5))
    step = abs(int(m.group(6))) if m.group(6) else 1
    step = step or 1
    rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
    return [chr(v) for v in rng]


def brace_expand(parts: list[Part], limit: int) -> list[list[Part]]:
    """Expand ``{a,b}`` and ``{x..y}`` in the unquoted text of a word (bounded by ``limit``)."""
    if not any(isinstance(p, Lit) and "{" in p.text for p in parts):
        return [parts]
    results = _expand_atoms(_atoms(parts), limit)
    return [_parts(r) for r in results]


def _expand_atoms(atoms: list[object], limit: int) -> list[list[object]]:
    n = len(atoms)
    i = 0
    while i < n:
        if atoms[i] == "{" and not (i > 0 and atoms[i - 1] == "$"):
            depth = 0
            commas: list[int] = []
            close = -1
            for j in range(i, n):
                a = atoms[j]
                if a == "{":
                    depth += 1
                elif a == "}":
                    depth -= 1
                    if depth == 0:
                        close = j
                        break
                elif a == "," and depth == 1:
                    commas.append(j)
            if close < 0:
                return [atoms]
            prefix, suffix = atoms[:i], atoms[close + 1:]
            alts: list[list[object]] | None = None
            if commas:
                bounds = [i] + commas + [close]
                alts = [atoms[bounds[k] + 1: bounds[k + 1]] for k in range(len(bounds) - 1)]
            else:
                inner = atoms[i + 1: close]
                if all(isinstance(a, str) for a in inner):
                    seq = _sequence("".join(inner), limit)  # type: ignore[arg-type]
                    if seq is not None:
                        alts = [list(s) for s in seq]
            if alts is None:
                i += 1
                continue
            out: list[list[object]] = []
            tails = _expand_atoms(suffix, limit)
            for alt in alts:
                for e in _expand_atoms(alt, limit):
                    for t in tails:
                        out.append(prefix + e + t)
                        if len(out) > limit:
                            raise LimitExceeded("brace_results", f"brace expansion limit of "
                                                f"{limit} results exceeded; use a smaller range")
            return out
        i += 1
    return [atoms]


# -- fields ----------------------------------------------------------------------------------


class _Fields:
    """Builds the fields of one word while expansions are appended."""

    def __init__(self, ifs: str | None):
        self.fields: list[list[Chunk]] = []
        self.cur: list[Chunk] = []
        self.started = False
        ifs = _DEFAULT_IFS if ifs is None else ifs
        self.ifs = ifs
        self.ifs_ws = "".join(c for c in ifs if c in " \t\n")
        self.ifs_other = "".join(c for c in ifs if c not in " \t\n")

    def literal(self, text: str, quoted: bool) -> None:
        if text or quoted:
            self.cur.append((text, quoted))
            self.started = True

    def end_field(self, force: bool = False) -> None:
        if self.started or force:
            self.fields.append(self.cur)
        self.cur = []
        self.started = False

    def split(self, text: str) -> None:
        """Append an unquoted expansion result, splitting it on IFS."""
        if not text:
            return
        if not self.ifs:
            self.literal(text, False)
            return
        ws, other = self.ifs_ws, self.ifs_other
        i, n = 0, len(text)
        buf: list[str] = []
        while i < n:
            c = text[i]
            if c in ws or c in other:
                if buf:
                    self.literal("".join(buf), False)
                    buf = []
                j = i
                while j < n and text[j] in ws:
                    j += 1
                hard = False
                if j < n and text[j] in other:
                    hard = True
                    j += 1
                    while j < n and text[j] in ws:
                        j += 1
                self.end_field(force=hard)
                i = j
            else:
                buf.append(c)
                i += 1
        if buf:
            self.literal("".join(buf), False)

    def finish(self) -> list[list[Chunk]]:
        if self.started:
            self.fields.append(self.cur)
        return self.fields


class Expander:
    """Expands words for one shell (``Shell`` holds variables, cwd and the run budget)."""

    def __init__(self, sh: "Shell"):
        self.sh = sh

    # -- public entry points --------------------------------------------------------------

    def words(self, words: list[Word]) -> list[str]:
        """Expand command words into argv: braces, expansions, splitting, globbing."""
        out: list[str] = []
        limit = self.sh.limits.brace_results
        for word in words:
            lit = _plain(word)
            if lit is not None:
                out.append(lit)
                continue
            for parts in brace_expand(word.parts, limit):
                for field in self._fields(parts, split=True):
                    out.extend(self._glob(field))
        return out

    def word(self, word: Word) -> str:
        """Expand a word without splitting or globbing (assignments, here-strings, case)."""
        lit = _plain(word)
        if lit is not None:
            return lit
        fields = self._fields(word.parts, split=False)
        return "".join(t for f in fields for t, _ in f)

    def redirect_target(self, word: Word) -> list[str]:
        """Expand a redirection target (split and globbed; must give exactly one word)."""
        lit = _plain(word)
        if lit is not None:
            return [lit]
        out: list[str] = []
        for field in self._fields(word.parts, split=True):
            out.extend(self._glob(field))
        return out

    def pattern(self, word: Word | None) -> tuple[Chunk, ...]:
        """Expand a pattern operand, keeping which characters were quoted."""
        if word is None:
            return ()
        fields = self._fields(word.parts, split=False)
        return tuple(c for f in fields for c in f)

    def arith(self, expr: Word) -> int:
        """Expand an arithmetic expression's text (like a double-quoted string) and evaluate
        it; an error is a fatal ``ExpansionError`` with bash's message."""
        text = self.word(expr)
        sh = self.sh
        try:
            return evaluate(text, sh, sh.nounset, sh.budget.check_time)
        except ArithUnbound as exc:
            raise ExpansionError(str(exc), status=exc.status) from None
        except ArithError as exc:
            raise ExpansionError(str(exc), status=exc.status) from None

    def heredoc(self, word: Word) -> str:
        """Expand a here-document body."""
        return self.word(word)

    # -- internals ------------------------------------------------------------------------

    def _fields(self, parts: list[Part], split: bool) -> list[list[Chunk]]:
        sh = self.sh
        fb = _Fields(sh.get_var("IFS") if split else "")
        for p in parts:
            self._part(p, fb, split, in_dq=False)
        fields = fb.finish()
        if not split and not fields:
            return [[("", True)]]
        return fields

    def _part(self, p: Part, fb: _Fields, split: bool, in_dq: bool) -> None:
        if isinstance(p, Lit):
            fb.literal(p.text, in_dq)
        elif isinstance(p, Quoted):
            fb.literal(p.text, True)
        elif isinstance(p, DQ):
            if not any(isinstance(q, Param) and q.op == "" and (q.name == "@" or q.name.endswith("[@]"))
                       for q in p.parts):
                fb.literal("", True)
            for q in p.parts:
                self._part(q, fb, split, in_dq=True)
        elif isinstance(p, Tilde):
            fb.literal(self.sh.get_var("HOME") or "/", True)
        elif isinstance(p, CmdSub):
            text = self.sh.command_substitution(p.body)
            if in_dq or not split:
                fb.literal(text, True)
            else:
                fb.split(text)
        elif isinstance(p, Param):
            try:
                self._param(p, fb, split, in_dq)
            except ArithError as exc:  # a bad subscript (`${a[&]}`): bash's fatal error
                raise ExpansionError(str(exc), status=exc.status) from None
        elif isinstance(p, ArithSub):
            text = str(self.arith(p.expr))
            if in_dq or not split:
                fb.literal(text, True)
            else:
                fb.split(text)

    def _param(self, p: Param, fb: _Fields, split: bool, in_dq: bool) -> None:
        sh = self.sh
        name = p.name
        if (name in ("@", "*") or name.endswith(("[@]", "[*]"))) and p.op in ("", "-", ":-", "+", ":+"):
            values = sh.list_var(name)
            if values is not None:
                is_set = bool(values)
                if p.op in ("-", ":-") and not is_set:
                    self._operand(p.arg, fb, split, in_dq)
                    return
                if p.op in ("+", ":+"):
                    if is_set:
                        self._operand(p.arg, fb, split, in_dq)
                    return
                at = name == "@" or name.endswith("[@]")
                if in_dq and at:
                    for k, v in enumerate(values):
                        if k:
                            fb.end_field(force=True)
                        fb.literal(v, True)
                    return
                if in_dq:
                    ifs = sh.get_var("IFS")
                    sep = " " if ifs is None else ifs[:1]
                    fb.literal(sep.join(values), True)
                    return
                for k, v in enumerate(values):
                    if k and split:
                        fb.end_field()
                    if split:
                        fb.split(v)
                    else:
                        fb.literal((" " if k else "") + v, False)
                return
        value = sh.get_var(name)
        op = p.op
        if op == "#len":
            if name in ("@", "*"):
                n = len(sh.positional)
            elif name.endswith(("[@]", "[*]")):
                n = len(sh.list_var(name) or [])
            else:
                if value is None and sh.nounset:
                    raise ExpansionError(f"{name}: unbound variable", status=127)
                n = len(value or "")
            self._emit(str(n), fb, split, in_dq)
            return
        if op in (":-", "-", ":=", "=", ":+", "+", ":?", "?"):
            unset = value is None or (op.startswith(":") and value == "")
            base = op.lstrip(":")
            if base == "-":
                if unset:
                    self._operand(p.arg, fb, split, in_dq)
                    return
            elif base == "=":
                if unset:
                    new = self.word(p.arg) if p.arg else ""
                    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                        raise ExpansionError(f"${name}: cannot assign in this way")
                    sh.set_var(name, new)
                    self._emit(new, fb, split, in_dq)
                    return
            elif base == "+":
                if not unset:
                    self._operand(p.arg, fb, split, in_dq)
                return
            elif base == "?":
                if unset:
                    msg = self.word(p.arg) if p.arg and p.arg.parts else (
                        "parameter null or not set" if value is None or op.startswith(":")
                        else "parameter not set")
                    raise ExpansionError(f"{name}: {msg}", status=127)
            self._emit(value or "", fb, split, in_dq)
            return
        if value is None:
            if sh.nounset and name not in ("@", "*"):
                raise ExpansionError(f"{name}: unbound variable", status=127)
            value = ""
        if op in ("#", "##", "%", "%%"):
            value = patterns.remove_affix(value, self.pattern(p.arg), op, sh.budget.check_time)
        elif op in ("/", "//", "/#", "/%"):
            repl = self.pattern(p.repl) if p.repl is not None else ()
            value = patterns.substitute(value, self.pattern(p.arg), repl, op, sh.budget.check_time)
        self._emit(value, fb, split, in_dq)

    def _operand(self, word: Word | None, fb: _Fields, split: bool, in_dq: bool) -> None:
        if word is None:
            return
        for q in word.parts:
            if isinstance(q, Lit) and not in_dq:
                # unquoted literal text of the operand is split like an expansion result
                if split:
                    fb.split(q.text)
                else:
                    fb.literal(q.text, False)
            else:
                self._part(q, fb, split, in_dq)

    def _emit(self, text: str, fb: _Fields, split: bool, in_dq: bool) -> None:
        self.sh.budget.check_string(len(text))
        if in_dq:
            fb.literal(text, True)
        elif not split:  # unsplit: still a pattern when it is one (case, [[ ]], ${v#$p})
            fb.literal(text, False)
        else:
            fb.split(text)

    def _glob(self, field: list[Chunk]) -> list[str]:
        text = "".join(t for t, _ in field)
        if not patterns.has_glob(tuple(field)):
            return [text]
        found = glob(self.sh, field)
        if found:
            return found
        if "nullglob" in self.sh.shopts:
            return []
        if "failglob" in self.sh.shopts:
            raise ExpansionError(f"no match: {text}", fatal=False)
        return [text]


def _plain(word: Word) -> str | None:
    """The value of a word made only of unquoted literal text without glob/brace characters."""
    parts = word.parts
    if len(parts) == 1:
        p = parts[0]
        if isinstance(p, Quoted):
            return p.text
        if isinstance(p, Lit) and not any(c in p.text for c in "*?[{"):
            return p.text
    return None


def _split_chunks(field: list[Chunk]) -> list[list[Chunk]]:
    """Split chunks on '/' into path components."""
    comps: list[list[Chunk]] = [[]]
    for text, quoted in field:
        pieces = text.split("/")
        for k, piece in enumerate(pieces):
            if k:
                comps.append([])
            if piece:
                comps[-1].append((piece, quoted))
    return comps


def glob(sh: "Shell", field: list[Chunk]) -> list[str]:
    """Paths in the jail matching a glob field, sorted; [] if none."""
    text = "".join(t for t, _ in field)
    absolute = text.startswith("/")
    comps = _split_chunks(field)
    if absolute:
        comps = comps[1:]
    limit = sh.limits.glob_results
    # each candidate: (display path, virtual path)
    cands: list[tuple[str, str]] = [("/" if absolute else "", "/" if absolute else sh.cwd)]
    fs = sh.fs
    last = len(comps) - 1
    for idx, comp in enumerate(comps):
        sh.budget.check_time()
        tcomp = tuple(comp)
        name_text = "".join(t for t, _ in comp)
        nxt: list[tuple[str, str]] = []
        trailing = idx == last
        if not comp:  # empty component (a//b or trailing slash)
            nxt = [(d + "/" if not d.endswith("/") else d, v) for d, v in cands]
            if trailing:
                nxt = [(d, v) for d, v in nxt if _is_dir(fs, v)]
            cands = nxt
            continue
        if not patterns.has_glob(tcomp):
            for d, v in cands:
                vp = normalize(name_text, v)
                nxt.append((_join(d, name_text), vp))
            if trailing:
                nxt = [(d, v) for d, v in nxt if fs.exists(v)]
            cands = nxt
            continue
        rx = patterns.to_regex(tcomp)
        dot_ok = name_text.startswith(".") or "dotglob" in sh.shopts
        for d, v in cands:
            try:
                names = fs.listdir(v)
            except (FSError, OSError):
                continue
            for name in sorted(names):
                if name.startswith(".") and not dot_ok:
                    continue
                if name in (".", ".."):
                    continue
                if rx.fullmatch(name):
                    nxt.append((_join(d, name), normalize(name, v)))
                    if len(nxt) > limit:
                        raise LimitExceeded("glob_results", f"glob limit of {limit} results "
                                            "exceeded; use a narrower pattern")
        if not trailing:
            nxt = [(dd, vv) for dd, vv in nxt if _is_dir(fs, vv)]
        cands = nxt
    return sorted(d for d, _ in cands)


def _join(display: str, name: str) -> str:
    if not display:
        return name
    if display.endswith("/"):
        return display + name
    return display + "/" + name


def _is_dir(fs, vpath: str) -> bool:  # type: ignore[no-untyped-def]
    try:
        return fs.stat(vpath).is_dir
    except (FSError, OSError):
        return False
