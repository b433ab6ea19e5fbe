"""Word expansion in bash's order: brace expansion, tilde, parameter and command
substitution, field splitting on IFS, globbing inside the jail, quote removal."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from sandbox.errors import LimitExceeded
from sandbox.interpreter import globbing, namerefs, patterns, state, strops, tilde
from sandbox.interpreter.arith import ArithError, ArithUnbound, evaluate, subscript_quotes_removed
from sandbox.parse.ast import (
    DQ, ArithSub, Assign, CmdSub, DeclAssign, Lit, Param, Part, ProcSub, Quoted, Tilde, Word,
)
from sandbox.interpreter import callstack

if TYPE_CHECKING:
    from sandbox.interpreter.core import Shell

Chunk = tuple[str, bool]  # (text, quoted)
#: Parameter operators handled by ``Expander._param_extended``.
_EXTENDED_OPS = frozenset({":", "^", "^^", ",", ",,", "~", "~~", "@", "!keys", "!prefix"})
#: Pattern operators, applied to each element of ``$@`` and ``${a[@]}``.
_PATTERN_OPS = frozenset({"#", "##", "%", "%%", "/", "//", "/#", "/%"})
#: What ``${!v}`` accepts as the value of ``v``: a name, ``name[sub]``, or a special parameter.
_INDIRECT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[.*\])?|[0-9]+|[@*#?$!-]")


def attr_flags(sh: "Shell", base: str) -> str:
    """The attribute letters of a variable in bash's order for ``${v@a}`` / ``${v@A}``."""
    at = sh.attrs.get(base, ())
    is_array = base in sh.arrays
    return "".join(c for c in "aAinrtxlu" if (
        c == "a" and is_array and base not in sh.assoc or c == "A" and base in sh.assoc
        or c == "x" and base in sh.exported or c in "inrtlu" and c in at))


def declare_text(sh: "Shell", base: str) -> str:
    """``declare -a a=([0]="x" ...)`` as ``declare -p`` / ``${a[@]@A}`` print it."""
    flags = attr_flags(sh, base)
    keys = state.keys(sh, base)
    vals = state.values(sh, base) or []
    assoc = base in sh.assoc
    body = "".join(f"[{strops.dquote(k) if assoc and not re.fullmatch(r'[A-Za-z0-9_]+', k) else k}]={strops.dquote(v)} "
                   for k, v in zip(keys, vals))
    if assoc:
        return f"declare -{flags} {base}=({body})"
    return f"declare -{flags} {base}=({body.rstrip(' ')})"
_DEFAULT_IFS = " \t\n"


class ExpansionError(Exception):
    """An expansion error that ends the command (bash's ``bad substitution``,
    ``unbound variable``, ``${v:?msg}``). ``fatal`` errors exit a non-interactive shell."""

    def __init__(self, message: str, fatal: bool = True, status: int = 1):
        super().__init__(message)
        self.fatal = fatal
        self.status = status


class ArithExpansionError(ExpansionError):
    """An expansion error after which bash abandons the rest of the line (status 1), as its
    ``jump_to_top_level (DISCARD)`` does: an error in ``$(( ))``, a ``${v:off:len}`` whose
    length ends before the offset (``substring expression < 0``), ``${!x}`` naming nothing
    or no variable, ``${1:=x}``, a bad substitution. Only ``set -u``'s unbound variable and
    ``${v:?msg}`` end a non-interactive shell."""


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


class _RangeChar(str):
    """A ``\\`` or a backquote made by a character range (``{Z..a}``). bash expands braces
    on the word's text and then reads that text again, so such a character acts as if it had
    been typed there: a backslash quotes the character after it (and vanishes at the end of
    the word); a backquote opens a command substitution that nothing closes (bash's fatal
    ``bad substitution``), unless it ends the word (then it is itself)."""


def _rest_text(atoms: list[object]) -> str:
    return "".join(a if isinstance(a, str) else getattr(a, "text", "") for a in atoms)


def _parts(atoms: list[object]) -> list[Part]:
    out: list[Part] = []
    buf: list[str] = []
    skip = False
    for k, a in enumerate(atoms):
        if skip:
            skip = False
            continue
        if isinstance(a, _RangeChar):
            nxt = atoms[k + 1] if k + 1 < len(atoms) else None
            if a == "`":
                if nxt is not None:
                    raise ExpansionError(
                        f'bad substitution: no closing "`" in `{_rest_text(atoms[k + 1:])}')
                buf.append("`")
            elif isinstance(nxt, str):  # `\x`: x quoted
                if buf:
                    out.append(Lit("".join(buf)))
                    buf = []
                out.append(Quoted(str(nxt)))
                skip = True
            else:  # at the end (or before an expansion) it goes, leaving the word quoted
                if buf:
                    out.append(Lit("".join(buf)))
                    buf = []
                out.append(Quoted(""))
            continue
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
    return [_RangeChar(chr(v)) if v in (92, 96) else chr(v) for v in rng]


def brace_expand(parts: list[Part], limit: int) -> list[list[Part]]:
    """Expand ``{a,b}`` and ``{x..y}`` in the unquoted text of a word (bounded by ``limit``)."""
    for p in parts:
        if isinstance(p, Lit) and "{" in p.text:
            break
    else:
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
            if close < 0:  # unmatched: this `{` is literal text, look further on
                i += 1
                continue
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
                        alts = [[s] if isinstance(s, _RangeChar) else list(s) for s in seq]
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
        #: Inside an assignment's value: ``~`` after ``:`` in operands expands too.
        self._assign = False

    # -- public entry points --------------------------------------------------------------

    def words(self, words: list[Word], eq: bool = True) -> list[str]:
        """Expand command words into argv: braces, tildes, expansions, splitting, globbing
        (``eq``: a word that looks like an assignment expands ``~`` after ``=`` and ``:``;
        not so in an array literal)."""
        out: list[str] = []
        limit = self.sh.limits.brace_results
        for word in words:
            lit = _plain(word)
            if lit is not None:
                out.append(lit)
                continue
            if isinstance(word.parts[0], DeclAssign):
                out.append(self._decl_arg(word.parts[0].assign))
                continue
            expanded = brace_expand(word.parts, limit)
            if len(expanded) > 1:
                expanded = [_rejoin_names(word, parts) for parts in expanded]
            for parts in expanded:
                if eq and tilde.assign_like(parts):
                    parts = tilde.expand(self.sh, parts, eq=True)
                else:
                    parts = tilde.expand(self.sh, parts)
                for field in self._fields(parts, split=True):
                    out.extend(self._glob(field))
        return out

    def word(self, word: Word, assign: bool = False, tildes: bool = True) -> str:
        """Expand a word without splitting or globbing (assignments, here-strings, case);
        ``assign``: an assignment's value (tildes after ``:`` expand too); ``tildes``: False
        for text that is never tilde-expanded (here-documents, arithmetic). Several fields
        (``"$@"``) are joined with spaces."""
        lit = _plain(word)
        if lit is not None:
            return lit
        saved = self._assign
        self._assign = assign
        try:
            parts = tilde.expand(self.sh, word.parts, assign=assign) if tildes else word.parts
            fields = self._fields(parts, split=False)
        finally:
            self._assign = saved
        if len(fields) == 1:
            return "".join(t for t, _ in fields[0])
        return " ".join("".join(t for t, _ in f) for f in fields)

    def redirect_target(self, word: Word) -> list[str]:
        """Expand a redirection target (split and globbed; must give exactly one word)."""
        lit = _plain(word)
        if lit is not None:
            return [lit]
        out: list[str] = []
        for field in self._fields(tilde.expand(self.sh, word.parts), split=True):
            out.extend(self._glob(field))
        return out

    def pattern(self, word: Word | None, tildes: bool = True, join: str = "",
                extglob: bool = False) -> tuple[Chunk, ...]:
        """Expand a pattern operand, keeping which characters were quoted (``tildes``: a
        leading ``~`` expands, as everywhere but after ``${v/#`` and ``${v/%``; ``join``
        goes between the words of ``"$@"``: a space in ``[[ ]]``). Extglob groups are
        patterns only under ``shopt -s extglob`` or with ``extglob`` (``[[ ]]``: bash
        always reads them there)."""
        if word is None:
            return ()
        parts = tilde.expand(self.sh, word.parts) if tildes else word.parts
        fields = self._fields(parts, split=False)
        out: list[Chunk] = []
        for k, f in enumerate(fields):  # "$@" / "${a[@]}": its words joined by ``join``
            if k and join:
                out.append((join, True))
            out.extend(f)
        if extglob or "extglob" in self.sh.shopts:
            return tuple(out)
        return patterns.literal_groups(tuple(out))

    def arith_word(self, expr: Word) -> str:
        """The text of an arithmetic expression, expanded as bash's ``expand_arith_string``
        does (like a double-quoted string; see ``arith.subscript_quotes_removed``)."""
        parts = subscript_quotes_removed(expr.parts)
        return self.word(expr if parts is None else Word(parts, expr.pos, expr.text), tildes=False)

    def arith(self, expr: Word, prefix: str = "") -> int:
        """Expand an arithmetic expression's text (like a double-quoted string) and evaluate
        it; an unset name under ``set -u`` is a fatal ``ExpansionError``, another error an
        ``ArithExpansionError`` (bash abandons the rest of the line)."""
        text = self.arith_word(expr)
        sh = self.sh
        try:
            return evaluate(text, sh, sh.nounset, sh.budget.check_time)
        except ArithUnbound as exc:
            raise ExpansionError(str(exc), status=exc.status) from None
        except ArithError as exc:
            raise ArithExpansionError(prefix + str(exc), status=exc.status) from None

    def heredoc(self, word: Word) -> str:
        """Expand a here-document body."""
        return self.word(word, tildes=False)

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
            for q in p.parts:  # (a "$@" alone may give no field at all)
                if isinstance(q, Param) and _at_list(q):
                    break
            else:
                fb.literal("", True)
            for q in p.parts:
                self._part(q, fb, split, in_dq=True)
        elif isinstance(p, Tilde):
            fb.literal(tilde.home(self.sh), True)
        elif isinstance(p, ProcSub):
            fb.literal(self.sh.process_substitution(p.body, p.out), True)
        elif isinstance(p, CmdSub):
            if p.error is not None:  # a backquoted body bash can't parse: its message, ""
                sh = self.sh
                try:
                    for line in p.error:
                        sh._current_stderr.write(f"bash: {line}\n".encode("utf-8", "surrogateescape"))
                except OSError:  # `2>&-`
                    pass
                sh._sub_status = sh.status = 2
                return
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
        if p.op == "bad":  # found by the parser; bash reports it when it runs
            text = p.arg.text if p.arg else ""
            if p.name != '"':  # (in "...", the text is the whole quoted string)
                text = f"${{{text}}}"
            raise ArithExpansionError(f"{text}: bad substitution")
        indirect = p.indirect
        if (p.index is not None or p.indirect) and p.written is None:
            p = dataclasses.replace(p, written=("!" if p.indirect else "") + p.name + (
                "" if p.index is None else f"[{p.index.text}]"))
        if sh.attrs and not p.indirect and namerefs.is_ref(sh, p.name):
            p = dataclasses.replace(p, name=namerefs.for_read(sh, p.name) or "",
                                    written=p.written or p.name)  # messages name the ref
        if p.indirect or p.index is not None or p.op in _EXTENDED_OPS or (
                p.op in _PATTERN_OPS and (p.name in ("@", "*") or p.name.endswith("]"))):
            p = self._param_extended(p, fb, split, in_dq)  # type: ignore[assignment]
            if p is None:
                return
        name = p.name
        if (name in ("@", "*") or name.endswith(("[@]", "[*]"))) and p.op in ("", "-", ":-", "+", ":+"):
            values = sh.list_var(name)
            if values is not None:
                is_set = bool(values)
                if p.op.startswith(":") and not indirect:
                    # null: the values joined as "$*" would be in quotes (else with spaces)
                    star = in_dq and (name == "*" or name.endswith("[*]"))
                    ifs = sh.get_var("IFS") if star else " "
                    is_set = (" " if ifs is None else ifs[:1]).join(values) != ""
                if p.op in ("-", ":-") and not is_set:
                    self._operand(p.arg, fb, split, in_dq)
                    return
                if p.op in ("+", ":+"):
                    if is_set:
                        self._operand(p.arg, fb, split, in_dq)
                    elif values and in_dq:  # "${@:+x}" with set -- '': one empty field
                        fb.literal("", True)
                    return
                self._emit_list(values, name == "@" or name.endswith("[@]"), fb, split, in_dq)
                return
        value = sh.get_var(name)
        op = p.op
        if op == "#len":
            if name in ("@", "*"):
                n = len(sh.positional)
            elif name.endswith(("[@]", "[*]")):
                values = sh.list_var(name)
                base_name = name[:-3]
                if not values and sh.nounset and sh.get_var(base_name) is None and (
                        base_name not in sh.arrays or "~" in sh.attrs.get(base_name, ())):
                    # bash: `${#a[@]}` of an unset array under set -u abandons the line
                    # (status 1); with set -e on the shell leaves (report_error)
                    shown = p.written.partition("[")[0] if p.written else base_name
                    if sh.errexit:
                        raise ExpansionError(f"{shown}: unbound variable", status=1)
                    raise ArithExpansionError(f"{shown}: unbound variable")
                n = len(values or [])
            else:
                if value is None and sh.nounset:
                    base_name, sub = state.split_name(name)
                    if sub is None:
                        raise ExpansionError(f"{p.written or name}: unbound variable",
                                             status=127)
                    # `${#a[k]}`: 0 for an unset element of a set array; an unset array (or
                    # a scalar) is named without its subscript (fatal, status 1)
                    if base_name not in sh.arrays or not sh.var_visible(base_name):
                        shown = (p.written or name).partition("[")[0]
                        raise ExpansionError(f"{shown}: unbound variable", status=1)
                n = len(value or "")
            self._emit(str(n), fb, split, in_dq)
            return
        if value is None and name.endswith("]"):  # every operator: ${m[$k]:-d}, ${a[-9]#x}
            self._warn_negative_index(name)
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
                    base_name, sub = state.split_name(name)
                    if sub is not None and sub not in ("@", "*") and re.fullmatch(
                            r"[A-Za-z_][A-Za-z0-9_]*", base_name):
                        try:
                            state.set_element(sh, base_name, sub, new)
                        except state.SubscriptError as exc:
                            raise ArithExpansionError(str(exc)) from None
                    elif not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                        raise ArithExpansionError(f"${name}: cannot assign in this way")
                    else:
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
                        "parameter null or not set" if op.startswith(":")
                        else "parameter not set")
                    raise ExpansionError(f"{name}: {msg}", status=127)
            self._emit(value or "", fb, split, in_dq)
            return
        unset = value is None
        if value is None:
            if sh.nounset and name not in ("@", "*"):
                # bash: `$1: unbound variable`, `m[$k]: ...` (as written)
                shown = p.written or ("$" + name if p.bare else name)
                raise ExpansionError(f"{shown}: unbound variable", status=127)
            value = ""
        if unset:  # an unset variable gives nothing, even for ${u/#/x}
            pass
        elif op in ("#", "##", "%", "%%"):
            value = patterns.remove_affix(value, self.pattern(p.arg), op, sh.budget.check_time)
        elif op in ("/", "//", "/#", "/%"):
            repl = self._repl(p)
            value = patterns.substitute(value, self.pattern(p.arg, op in ('/', '//')), repl, op,
                                         sh.budget.check_time)
        self._emit(value, fb, split, in_dq)

    def _warn_negative_index(self, name: str) -> None:
        """``${a[-3]}`` (or ``${a[i]}``, ``i=-3``) before the first element of an indexed
        array, or ``${m[$k]}`` with ``$k`` empty in an associative one: bash says ``a: bad
        array subscript`` and the expansion is empty. A subscript with a side effect (``i++``,
        ``n=1``) is not evaluated a second time here."""
        sh = self.sh
        base, sub = state.split_name(name)
        if sub is None:
            return
        if base in sh.assoc:
            bad = sub == ""
        elif not sub.strip() or re.search(r"\+\+|--|(?<![=!<>])=(?!=)", sub):
            return
        else:
            from sandbox.interpreter.arith import evaluate
            try:
                k = evaluate(sub, sh, False, sh.budget.check_time)
            except Exception:  # the expansion itself reports it
                return
            arr = sh.arrays.get(base)
            top = (max(arr) + 1) if arr else (1 if base in sh.vars else 0)
            bad = k + top < 0
        if bad:
            sh._current_stderr.write(f"{callstack.error_prefix(sh)}{base}: bad array subscript\n"
                                     .encode("utf-8", "surrogateescape"))
            sh.report_error_exit()  # err_badarraysub: set -e leaves

    def _decl_arg(self, a: "Assign") -> str:
        """``declare`` argument ``name=value`` (unsplit), ``name[sub]=value``, or for an array
        literal ``name=(`` + marker, its elements left in ``Shell.decl_arrays``."""
        op = "+=" if a.append else "="
        if a.array is not None:
            items: list[tuple[str | None, str]] = []
            for key, w in a.array:
                if key is None:
                    items.extend((None, v) for v in self.words([w], eq=False))
                else:
                    items.append((self.word(key), self.word(w)))
            self.sh.own_dict("decl_arrays")[a.name] = items
            return f"{a.name}{op}(\x00"
        name = a.name if a.index is None else f"{a.name}[{self.word(a.index)}]"
        return f"{name}{op}{self.word(a.value, assign=True)}"

    def _repl(self, p: Param) -> tuple[Chunk, ...]:
        """The replacement of ``${v/p/r}`` (all quoted when patsub_replacement is off:
        ``&`` is then not special)."""
        if p.repl is None:
            return ()
        repl = self.pattern(p.repl)
        if "patsub_replacement" not in self.sh.shopts:
            repl = tuple((t, True) for t, _ in repl)
        return repl

    def _emit_names(self, names: list[str], at: bool, fb: _Fields, split: bool,
                    in_dq: bool, keys: bool = False) -> None:
        """``${!a[*]}`` / ``${!p*}`` unquoted are one string joined with IFS's first
        character, then split (bash: with IFS='' one field, the keys then joined with
        spaces); the ``@`` forms a list."""
        if at or in_dq:
            self._emit_list(names, at, fb, split, in_dq)
            return
        ifs = self.sh.get_var("IFS")
        sep = " " if ifs is None or (keys and not ifs) else ifs[:1]
        self._emit(sep.join(names), fb, split, in_dq)

    def _emit_list(self, values: list[str], at: bool, fb: _Fields, split: bool,
                   in_dq: bool) -> None:
        """Emit a list of values: ``"$@"``-style (one field each) or joined (``$*``)."""
        for v in values:
            self.sh.budget.check_string(len(v))
        if in_dq and at:
            for k, v in enumerate(values):
                if k:
                    fb.end_field(force=True)
                fb.literal(v, True)
            return
        ifs = self.sh.get_var("IFS")
        sep = " " if ifs is None else ifs[:1]
        if in_dq:
            fb.literal(sep.join(values), True)
            return
        if not split:  # `x=$*` joins with IFS's first character, `x=${a[@]}` with spaces
            fb.literal((sep if not at else " ").join(values), False)
            return
        if fb.ifs:  # joined with IFS's first character, then split: IFS=x gives '' fields
            fb.split(sep.join(values))
            return
        for k, v in enumerate(values):
            if k:
                fb.end_field()
            fb.split(v)

    def _param_extended(self, p: Param, fb: _Fields, split: bool, in_dq: bool) -> Param | None:
        """Indirection, subscripts and the operators of ``_EXTENDED_OPS``; returns the
        parameter still to expand the ordinary way, or None when done."""
        sh = self.sh
        if p.indirect:
            if sh.attrs and p.op == "" and p.index is None and namerefs.is_ref(sh, p.name):
                self._emit(sh.vars.get(p.name, ""), fb, split, in_dq)  # ${!ref}: its target
                return None
            ref = p.name if p.index is None else f"{p.name}[{self.word(p.index)}]"
            target = sh.get_var(ref)  # `${!a[1]}`: the element names the variable
            if target is None and p.index is not None and sh.var_visible(p.name):
                # an unset element of a set array: bash expands the null value (`${!a[9]-x}`
                # gives x; plain, an unbound variable under `set -u`)
                return Param(ref, p.op, p.arg, p.repl, p.pos, written=p.written)
            if target is None or not _INDIRECT_RE.fullmatch(target):
                if target is None:
                    raise ArithExpansionError(f"{ref}: invalid indirect expansion")
                raise ArithExpansionError(f"{target}: invalid variable name")
            p = Param(state.text_subscript(sh, target), p.op, p.arg, p.repl, p.pos,
                      written=p.written)
            if p.op == "":
                return p
        if p.index is not None:
            p = Param(f"{p.name}[{self.word(p.index)}]", p.op, p.arg, p.repl, p.pos,
                      written=p.written)
        name, op = p.name, p.op
        is_list = name in ("@", "*") or name.endswith(("[@]", "[*]"))
        if op in _PATTERN_OPS and is_list:
            values = sh.list_var(name) or []
            pat = self.pattern(p.arg, op not in ("/#", "/%"))
            check = sh.budget.check_time
            if op[0] == "/":
                repl = self._repl(p)
                values = [patterns.substitute(v, pat, repl, op, check) for v in values]
            else:
                values = [patterns.remove_affix(v, pat, op, check) for v in values]
            self._emit_list(values, name == "@" or name.endswith("[@]"), fb, split, in_dq)
            return None
        if op not in _EXTENDED_OPS:
            return p
        at = name == "@" or name.endswith("[@]")
        if op == "!keys":
            base = name[:-3]
            if base in ("PIPESTATUS", "BASH_REMATCH"):
                keys = [str(k) for k in range(len(sh.list_var(name) or []))]
            else:
                keys = state.keys(sh, base)
            self._emit_names(keys, at, fb, split, in_dq, keys=True)
            return None
        if op == "!prefix":
            prefix = name[:-1]
            names = sorted(n for n in set(sh.vars) | set(sh.arrays) if n.startswith(prefix))
            self._emit_names(names, name.endswith("@"), fb, split, in_dq)
            return None
        if is_list:
            values = sh.list_var(name) or []
            if op == ":":
                if name in ("@", "*"):
                    values = [sh.arg0] + values
                    offset, length = self._slice_bounds(p)
                    try:
                        values = strops.slice_list(values, offset, length,
                                                   p.repl.text if p.repl else "")
                    except strops.SubstringError as exc:
                        raise ArithExpansionError(str(exc)) from None
                elif values:  # an empty array's bounds are not evaluated
                    values = self._array_slice(name[:-3], p)
            elif op == "@" and p.arg is not None and p.arg.text in ("A", "K", "a"):
                values = self._transform_array(name, p)
                if p.arg.text == "A" and not in_dq:
                    at = False
            elif op == "@" and p.arg is not None and p.arg.text == "k" and name[:-3] in sh.arrays:
                # bash 5.2: each key and each value its own word, the values as they are
                base = name[:-3]
                values = [w for k, v in zip(state.keys(sh, base), state.values(sh, base) or [])
                          for w in (k, v)]
            else:
                values = [self._transform(v, p, name) for v in values]
            self._emit_list(values, at, fb, split, in_dq)
            return None
        value = sh.get_var(name)
        if value is None and name.endswith("]"):
            self._warn_negative_index(name)
        if value is None and sh.nounset and not (op == "@" and p.arg and p.arg.text == "a"):
            raise ExpansionError(f"{p.written or name}: unbound variable", status=127)
        if op == ":" and value is None:  # bash doesn't evaluate the bounds of an unset name
            text = ""
        elif op == ":":
            offset, length = self._slice_bounds(p)
            try:
                text = strops.substring(value, offset, length, self._bounds_text(p))
            except strops.SubstringError as exc:
                raise ArithExpansionError(str(exc)) from None
        elif op == "@" and p.arg is not None and p.arg.text in ("A", "a", "K"):
            text = " ".join(self._transform_array(name, p)) if value is not None or \
                p.arg.text == "a" or (p.arg.text == "A" and name in sh.arrays) else ""
        else:
            text = "" if value is None else self._transform(value, p, name)
        self._emit(text, fb, split, in_dq)
        return None

    def _bounds_text(self, p: Param) -> str:
        """The length expression as written (bash names it in ``substring expression < 0``)."""
        return p.repl.text if p.repl else ""


    def _slice_bounds(self, p: Param) -> tuple[int, int | None]:
        where = f"{p.name}: "
        offset = self.arith(p.arg, where) if p.arg is not None and p.arg.text.strip() else 0
        length = None
        if p.repl is not None:
            length = self.arith(p.repl, where) if p.repl.text.strip() else 0
        return offset, length

    def _array_slice(self, base: str, p: Param) -> list[str]:
        """``${a[@]:off:len}``: elements whose index is at least ``off`` (sparse arrays)."""
        sh = self.sh
        offset, length = self._slice_bounds(p)
        if sh.attrs and namerefs.is_ref(sh, base):
            base = namerefs.for_read(sh, base) or base
        arr = sh.arrays.get(base)
        try:
            if arr is None and base in sh.vars:  # `${s[@]:0:1}` of a scalar: its substring
                return [strops.substring(sh.vars[base], offset, length, self._bounds_text(p))]
            if base in sh.assoc or arr is None:  # (also PIPESTATUS, BASH_REMATCH, FUNCNAME...)
                vals = sh.list_var(f"{base}[@]") or []
                return strops.slice_list(vals, offset, length, self._bounds_text(p))
        except strops.SubstringError as exc:
            raise ArithExpansionError(str(exc)) from None
        keys = sorted(arr)
        if offset < 0:
            offset += (keys[-1] + 1) if keys else 0
            if offset < 0:
                return []
        if length is not None and length < 0:
            raise ArithExpansionError(f"{self._bounds_text(p)}: substring expression < 0")
        chosen = [arr[k] for k in keys if k >= offset]
        return chosen if length is None else chosen[:length]

    def _transform(self, value: str, p: Param, name: str) -> str:
        op = p.op
        if op in ("^", "^^", ",", ",,", "~", "~~"):
            return strops.case_modify(value, op, self.pattern(p.arg, extglob=True)  # as bash
                                      if p.arg and p.arg.parts
                                      else ())
        letter = p.arg.text if p.arg is not None else ""
        if letter == "Q":
            return strops.quote(value)
        if letter == "E":
            return strops.expand_escapes(value)
        if letter == "P":
            from sandbox.interpreter import prompt
            try:
                return prompt.expand(self.sh, value)
            except prompt.PromptError as exc:
                raise ExpansionError(f"{name}: {exc}", fatal=False) from None
        if letter == "U":
            return value.upper()
        if letter == "u":
            return value[:1].upper() + value[1:]
        if letter == "L":
            return value.lower()
        if letter == "k":
            return strops.quote(value)
        raise ArithExpansionError(f"${{{name}@{letter}}}: bad substitution")

    def _transform_array(self, name: str, p: Param) -> list[str]:
        """``@A`` (the assignment that recreates it), ``@a`` (attribute letters), ``@K``."""
        sh = self.sh
        base, sub = state.split_name(name)
        letter = p.arg.text if p.arg is not None else ""
        is_array = base in sh.arrays
        flags = attr_flags(sh, base)
        if letter == "a":
            if sub in ("@", "*") and is_array:
                return [flags] * len(sh.arrays[base])
            return [flags]
        if letter == "K":
            if not is_array or sub not in ("@", "*"):  # one element: its value, quoted
                v = sh.get_var(name)
                return [] if v is None else [strops.quote(v)]
            text = " ".join(f"{strops.dquote(k) if base in sh.assoc and not _SIMPLE_KEY.fullmatch(k) else k} "
                            f"{strops.dquote(v)}" for k, v in
                            zip(state.keys(sh, base), state.values(sh, base) or []))
            # bash ends an associative array's list with a space (an indexed array's not)
            return [text + " " if text and base in sh.assoc else text]
        if sub is None and is_array:  # ${a@A}: element 0 as a scalar, with the flags
            v = sh.get_var(base)
            if v is None:
                return [f"declare -{flags} {base}"]
            return [f"declare -{flags} {base}={strops.quote(v)}"]
        if sub not in (None, "@", "*") or not is_array:
            v = sh.get_var(name if sub not in ("@", "*") else base)
            if v is None:
                return []
            if flags:
                return [f"declare -{flags} {base}={strops.quote(v)}"]
            return [f"{base}={strops.quote(v)}"]
        return [declare_text(sh, base)]

    def _operand(self, word: Word | None, fb: _Fields, split: bool, in_dq: bool) -> None:
        if word is None:
            return
        if in_dq:  # "${@-}": the operand gives one (maybe empty) field, never none
            fb.literal("", True)
        parts = word.parts if in_dq else tilde.expand(self.sh, word.parts, assign=self._assign)
        for q in parts:
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
        if self.sh.noglob or not patterns.has_glob(tuple(field)):
            return [text]
        if "extglob" not in self.sh.shopts:  # `p='@(a|b)'; echo $p`: no group then
            field = list(patterns.literal_groups(tuple(field)))
            if not patterns.has_glob(tuple(field)):
                return [text]
        found = glob(self.sh, field)
        if found:
            return found
        if "nullglob" in self.sh.shopts:
            return []
        if "failglob" in self.sh.shopts:
            raise ArithExpansionError(f"no match: {text}")  # the line is abandoned
        return [text]


_SIMPLE_KEY = re.compile(r"[A-Za-z0-9_]+")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _rejoin_names(word: Word, parts: list[Part]) -> list[Part]:
    """Brace expansion is textual in bash: ``{$a,b}_c`` becomes ``$a_c``, the variable
    ``a_c``. An unbraced ``$name`` that brace expansion put before name characters takes
    them into its name, as bash does."""
    out: list[Part] = []
    k = 0
    while k < len(parts):
        p = parts[k]
        nxt = parts[k + 1] if k + 1 < len(parts) else None
        if (isinstance(p, Param) and p.op == "" and not p.indirect and p.index is None
                and isinstance(nxt, Lit) and nxt.text[:1] in _NAME_CHARS
                and (p.name[:1].isalpha() or p.name[:1] == "_")
                and word.text[p.pos - word.pos + 1: p.pos - word.pos + 2] != "{"):
            j = 0
            while j < len(nxt.text) and nxt.text[j] in _NAME_CHARS:
                j += 1
            out.append(dataclasses.replace(p, name=p.name + nxt.text[:j]))
            if j < len(nxt.text):
                out.append(Lit(nxt.text[j:]))
            k += 2
            continue
        out.append(p)
        k += 1
    return out


def _at_list(p: Part) -> bool:
    """True for ``$@``/``${a[@]}`` forms that give no field at all when there are no values,
    even inside double quotes (``"${a[@]}"``, ``"${@+x}"``, ``"${a[@]#p}"``)."""
    if not isinstance(p, Param) or p.op in ("#len", "=", ":=", "?", ":?"):
        return False
    if p.op == "!prefix":
        return p.name.endswith("@")
    return p.name == "@" or p.name.endswith("[@]")


def _plain(word: Word) -> str | None:
    """The value of a word made only of unquoted literal text without glob/brace characters."""
    parts = word.parts
    if len(parts) == 1:
        p = parts[0]
        if isinstance(p, Quoted):
            return p.text
        if isinstance(p, Lit) and _SPECIAL_IN_PLAIN.search(p.text) is None:
            return p.text
    return None


_SPECIAL_IN_PLAIN = re.compile(r"[*?\[{~(]")
#: ``_plain`` for the other modules (redirection targets).
plain = _plain


def glob(sh: "Shell", field: list[Chunk]) -> list[str]:
    """Paths in the jail matching a glob field, sorted; [] if none (see ``globbing``)."""
    return globbing.glob(sh, field)
