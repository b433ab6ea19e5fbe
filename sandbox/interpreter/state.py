"""Arrays of the shell state: indexed (sparse, ``dict[int, str]``) and associative
(``dict[str, str]``, listed in bash 5.2's own hash-table order), and the subscript rules.

``Shell`` keeps scalars in ``vars`` and arrays in ``arrays`` (a name is in one or the other);
``assoc`` holds the names of the associative ones. The element API takes bash's spelling
``name[subscript]`` with the subscript already expanded: an indexed array's subscript is
evaluated as arithmetic (negative counts from the end), an associative array's is the key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.errors import LimitExceeded
from sandbox.interpreter import callstack

if TYPE_CHECKING:
    from sandbox.interpreter.core import Shell

#: Most elements one array may hold (an attack like ``a=({1..99999999})`` stops here).
MAX_ELEMENTS = 100_000
#: Buckets of bash's associative arrays (assoc.h ASSOC_HASH_BUCKETS): their listing order.
_ASSOC_BUCKETS = 1024


class SubscriptError(Exception):
    """``a[-9]=x`` beyond the start, an empty key...: bash's message (status 1)."""


def _fnv(key: str) -> int:
    """bash's hash_string (FNV-1, 32 bits) of a key's bytes."""
    h = 2166136261
    for c in key.encode("utf-8", "surrogateescape"):
        h = ((h * 16777619) & 0xFFFFFFFF) ^ c
    return h


def assoc_order(keys: list[str]) -> list[str]:
    """Keys as bash lists them: by hash bucket, the newest first within a bucket."""
    mask = _ASSOC_BUCKETS - 1
    ranked = sorted(enumerate(keys), key=lambda p: (_fnv(p[1]) & mask, -p[0]))
    return [k for _, k in ranked]


def _with_attrs(sh: "Shell", at: set[str], value: str) -> str:
    """An element's value as ``declare -i`` / ``-l`` / ``-u`` make it."""
    if "i" in at:
        from sandbox.interpreter.arith import evaluate
        value = str(evaluate(value, sh, sh.nounset, sh.budget.check_time))
    if "l" in at:
        value = value.lower()
    elif "u" in at:
        value = value.upper()
    return value


def _resolved(sh: "Shell", base: str) -> str:
    """``base`` with a nameref followed (``declare -n r=a; r[1]=x`` assigns to ``a``)."""
    from sandbox.interpreter import namerefs
    if namerefs.is_ref(sh, base):
        try:
            return namerefs.resolve(sh, base).partition("[")[0]
        except namerefs.CircularRef as exc:
            from sandbox.interpreter.toplevel import AssignFailed
            raise AssignFailed(namerefs.warning(str(exc))) from None
    return base


def _assigned(sh: "Shell", base: str) -> None:
    """An array declared without a value has one now (``declare -p`` shows ``=(...)``)."""
    at = sh.attrs.get(base)
    if at and "~" in at:
        at.discard("~")


def split_name(name: str) -> tuple[str, str | None]:
    """``a[sub]`` -> (``a``, ``sub``); ``a`` -> (``a``, None)."""
    if name.endswith("]"):
        base, sep, sub = name[:-1].partition("[")
        if sep:
            return base, sub
    return name, None


def keys(sh: "Shell", base: str) -> list[str]:
    """The subscripts of an array in listing order (a set scalar has the one key ``0``)."""
    if sh.attrs:
        base = _resolved(sh, base)
    arr = sh.arrays.get(base)
    if arr is None:
        if base in sh.vars:
            return ["0"]
        if base in SPECIALS and base not in sh.unset_specials:  # ${!BASH_VERSINFO[@]}
            listed = special_list(sh, base)
            if listed is None:
                listed = [] if special(sh, base) is None else ["0"]
            return [str(i) for i in range(len(listed))]
        return []
    if base in sh.assoc:
        return assoc_order(list(arr))
    return [str(k) for k in sorted(arr)]


def values(sh: "Shell", base: str) -> list[str] | None:
    """The elements of an array in order, None if no such variable (a scalar: [value])."""
    if sh.attrs:
        base = _resolved(sh, base)
    arr = sh.arrays.get(base)
    if arr is None:
        v = sh.vars.get(base)
        if v is None and base in SPECIALS and base not in sh.unset_specials:
            return special_list(sh, base)  # ${BASH_VERSINFO[@]:0:2}
        return None if v is None else [v]
    if base in sh.assoc:
        return [arr[k] for k in assoc_order(list(arr))]
    return [arr[k] for k in sorted(arr)]


def index_of(sh: "Shell", base: str, sub: str, for_write: bool) -> int | str:
    """The key ``sub`` names in array ``base``: arithmetic for indexed arrays (negative
    counts from the end), the text itself for associative ones."""
    if base in sh.assoc:
        if sub == "" and for_write:
            raise SubscriptError(f"{base}[]: bad array subscript")
        return sub
    from sandbox.interpreter.arith import evaluate
    k = evaluate(sub, sh, sh.nounset, sh.budget.check_time) if sub.strip() else 0
    if k < 0:
        arr = sh.arrays.get(base)
        top = (max(arr) + 1) if arr else (1 if base in sh.vars else 0)
        k += top
        if k < 0:
            raise SubscriptError(f"{base}[{sub}]: bad array subscript")
    return k


def get(sh: "Shell", base: str, sub: str) -> str | None:
    """``${a[sub]}``."""
    try:
        k = index_of(sh, base, sub, False)
    except SubscriptError:
        return None
    arr = sh.arrays.get(base)
    if arr is None:
        return sh.vars.get(base) if k in (0, "0") else None
    return arr.get(k)  # type: ignore[call-overload]


def _as_array(sh: "Shell", base: str) -> dict:
    arr = sh.arrays.get(base)
    if arr is None:
        arr = {}
        old = sh.vars.pop(base, None)
        if old is not None:
            arr["0" if base in sh.assoc else 0] = old
        sh.arrays[base] = arr
    return arr


def set_element(sh: "Shell", base: str, sub: str, value: str, append: bool = False) -> None:
    """``a[sub]=value`` (``+=`` appends to the element)."""
    if sh.attrs:
        base = _resolved(sh, base)
        _assigned(sh, base)
        if "r" in sh.attrs.get(base, ()):
            from sandbox.interpreter.toplevel import AssignFailed
            raise AssignFailed(f"{base}: readonly variable")
    k = index_of(sh, base, sub, True)
    arr = _as_array(sh, base)
    at = sh.attrs.get(base) if sh.attrs else None
    if append:
        value = (f"{arr.get(k) or 0}+({value})" if at and "i" in at
                 else arr.get(k, "") + value)
    if at and not at.isdisjoint("ilu"):
        value = _with_attrs(sh, at, value)
    sh.budget.check_string(len(value))
    arr[k] = value
    if len(arr) > MAX_ELEMENTS:
        raise LimitExceeded("array_elements", f"array size limit of {MAX_ELEMENTS} elements "
                            "exceeded; use a file for big data")


def assign(sh: "Shell", base: str, items: list[tuple[str | None, str]], append: bool) -> None:
    """``a=(v1 [k]=v2 ...)`` (``+=`` adds after the last element / to the keys)."""
    if sh.attrs:
        base = _resolved(sh, base)
        _assigned(sh, base)
        if "r" in sh.attrs.get(base, ()):
            from sandbox.interpreter.toplevel import AssignFailed
            raise AssignFailed(f"{base}: readonly variable")
    assoc = base in sh.assoc
    old = sh.arrays.get(base)
    if append:
        arr = _as_array(sh, base)
    else:
        arr = {}
    nxt = (max(arr) + 1) if arr and not assoc else 0
    at = sh.attrs.get(base) if sh.attrs else None
    conv = at if at and not at.isdisjoint("ilu") else None
    if assoc and items and items[0][0] is None:  # bash 5.2: `m=(k v k2 v2)` pairs up
        words = [v for _, v in items]
        words += [""] * (len(words) % 2)
        items = list(zip(words[0::2], words[1::2]))  # type: ignore[arg-type]
    for key, value in items:
        if conv:
            value = _with_attrs(sh, conv, value)
        if key is None:
            if assoc:  # after a [k]=v element: bash warns and skips the word
                sh._current_stderr.write(
                    f"{callstack.error_prefix(sh)}{base}: '{value}': must use subscript when "
                    "assigning associative "
                    "array\n".encode("utf-8", "surrogateescape"))
                sh.report_error_exit()  # bash's report_error: set -e leaves
                continue
            k: int | str = nxt
        else:
            k = index_of(sh, base, key, True)
        arr[k] = value
        if not assoc:
            nxt = int(k) + 1  # type: ignore[arg-type]
        if len(arr) > MAX_ELEMENTS:
            raise LimitExceeded("array_elements", f"array size limit of {MAX_ELEMENTS} "
                                "elements exceeded; use a file for big data")
    sh.vars.pop(base, None)
    sh.arrays[base] = arr
    del old


def unset_element(sh: "Shell", base: str, sub: str) -> None:
    """``unset 'a[sub]'``: ``a[@]`` and ``a[*]`` empty an indexed array (an associative one
    loses the key ``@`` or ``*``; a scalar is not an array variable, as bash says)."""
    arr = sh.arrays.get(base)
    if arr is None:
        if base in sh.vars and sub in ("@", "*"):
            raise SubscriptError(f"{base}: not an array variable")
        if base in sh.vars and sub in ("0", "-0"):
            sh.vars.pop(base, None)
        return
    if sub in ("@", "*") and base not in sh.assoc:
        arr.clear()  # type: ignore[union-attr]
        return
    k = index_of(sh, base, sub, False)
    arr.pop(k, None)  # type: ignore[call-overload]


# -- special variables ------------------------------------------------------------------------

#: Variables the shell computes (unless the script assigned them: then they are plain).
SPECIALS = frozenset({"RANDOM", "SRANDOM", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME",
                      "BASH_VERSION", "BASHPID", "PPID", "UID", "EUID", "HOSTNAME", "FUNCNAME",
                      "BASH_VERSINFO", "LINENO", "BASH_LINENO", "BASH_SOURCE", "BASH_COMMAND",
                      "BASH_SUBSHELL", "SHELLOPTS", "BASHOPTS", "MACHTYPE", "HOSTTYPE",
                      "OPTERR"})
#: bash 5.2's configure-time names of this machine type (as the reference bash reports them).
MACHTYPE, HOSTTYPE = "x86_64-pc-linux-gnu", "x86_64"
BASH_VERSION = "5.2.15(1)-release"
BASH_VERSINFO = ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"]


def _intrand32(last: int) -> int:
    """bash's Park-Miller step (variables.c intrand32)."""
    if last == 0:
        last = 123459876
    h, low = divmod(last, 127773)
    t = 16807 * low - 2836 * h
    if t < 0:
        t += 0x7FFFFFFF
    return t


def next_random(sh: "Shell") -> int:
    """The next ``$RANDOM``: bash 5.2's sequence (``RANDOM=42`` gives bash's numbers)."""
    if sh.rand_seed is None:  # first use in this shell: seeded from the clock (bash too)
        import time
        sh.rand_seed = (int(time.time() * 1000) ^ id(sh)) & 0xFFFFFFFF
    while True:
        sh.rand_seed = _intrand32(sh.rand_seed)
        value = ((sh.rand_seed >> 16) ^ (sh.rand_seed & 0xFFFF)) & 0x7FFF
        if value != sh.rand_last:
            sh.rand_last = value
            return value


def seed_random(sh: "Shell", value: str) -> None:
    """``RANDOM=N`` seeds the generator (bash's sbrand)."""
    from sandbox.interpreter.arith import ArithError, evaluate
    try:
        sh.rand_seed = evaluate(value, sh, False, sh.budget.check_time) & 0xFFFFFFFF
    except ArithError:
        sh.rand_seed = 0
    sh.rand_last = 0


def special(sh: "Shell", name: str) -> str | None:
    """The value of one of ``SPECIALS`` (None: unset)."""
    import time
    if name == "RANDOM":
        return str(next_random(sh))
    if name == "SRANDOM":  # bash 5.1's 32-bit random numbers (from the system's source)
        import secrets
        return str(secrets.randbits(32))
    if name == "SECONDS":
        return str(int(time.monotonic() - sh.start_time) + sh.seconds_offset)
    if name == "EPOCHSECONDS":
        return str(int(time.time()))
    if name == "EPOCHREALTIME":
        return f"{time.time():.6f}"
    if name == "BASH_VERSION":
        return BASH_VERSION
    if name == "BASH_VERSINFO":
        return BASH_VERSINFO[0]
    if name == "BASHPID":
        return str(sh.bashpid)
    if name in ("UID", "EUID"):
        return "1000"
    if name == "PPID":
        return "999"
    if name == "HOSTNAME":
        return "sandbox"
    if name == "FUNCNAME":
        return sh.funcstack[-1] if sh.funcstack else None
    if name == "LINENO":
        from sandbox.interpreter import callstack
        return str(callstack.lineno(sh))
    if name in ("BASH_LINENO", "BASH_SOURCE"):
        values = special_list(sh, name)
        return values[0] if values else None
    if name == "BASH_COMMAND":
        from sandbox.interpreter import funcprint
        return funcprint.command_text(sh.cur_command)
    if name == "BASH_SUBSHELL":
        return str(sh.subshell_depth)
    if name == "SHELLOPTS":  # the `set -o` options that are on, in bash's (sorted) order
        from sandbox.interpreter.builtins import options_on
        return ":".join(options_on(sh))
    if name == "BASHOPTS":
        from sandbox.interpreter.shopt import OPTIONS
        return ":".join(n for n in sorted(OPTIONS) if n in sh.shopts)
    if name == "MACHTYPE":
        return MACHTYPE
    if name == "HOSTTYPE":
        return HOSTTYPE
    if name == "OPTERR":
        return "1"
    return None


def special_list(sh: "Shell", base: str) -> list[str] | None:
    """``${FUNCNAME[@]}``, ``${BASH_VERSINFO[@]}`` (None for other names)."""
    if base == "FUNCNAME":
        return list(reversed(sh.funcstack))
    if base == "BASH_VERSINFO":
        return list(BASH_VERSINFO)
    if base in ("BASH_LINENO", "BASH_SOURCE"):
        from sandbox.interpreter import callstack
        return (callstack.bash_lineno if base == "BASH_LINENO" else callstack.bash_source)(sh)
    return None


# -- subscripts given as text ------------------------------------------------------------------

_SUB_VAR_RE = None


def _expand_subscript(sh: "Shell", text: str) -> str:
    """The key a subscript written in a string names (``test -v 'm[$k]'``, ``printf -v
    'm["K"]'``, a nameref ``'m[$k]'``): bash expands it once more -- quotes removed,
    ``$name`` / ``${name}`` replaced. Command substitutions stay literal: the guard never
    saw them, so they never run."""
    import re
    global _SUB_VAR_RE
    if _SUB_VAR_RE is None:
        _SUB_VAR_RE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
    out: list[str] = []
    i, n = 0, len(text)
    quote = ""
    while i < n:
        c = text[i]
        if quote == "'":
            if c == "'":
                quote = ""
            else:
                out.append(c)
            i += 1
            continue
        if c == "\\" and i + 1 < n and (not quote or text[i + 1] in '$`"\\'):
            out.append(text[i + 1])
            i += 2
            continue
        if c == "'" and not quote:
            quote = "'"
            i += 1
            continue
        if c == '"':
            quote = "" if quote else '"'
            i += 1
            continue
        if c == "$":
            m = _SUB_VAR_RE.match(text, i)
            if m:
                out.append(sh.get_var(m.group(1) or m.group(2)) or "")
                i = m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


def text_subscript(sh: "Shell", name: str) -> str:
    """``name[sub]`` as given in a string, with ``sub`` expanded as bash expands it there
    (see ``_expand_subscript``); other names unchanged."""
    if not name.endswith("]") or "[" not in name:
        return name
    base, _, sub = name[:-1].partition("[")
    if not any(c in sub for c in "$'\"\\`"):
        return name
    if sh.policy.dynamic and ("$(" in sub or "`" in sub):
        from sandbox.interpreter import dynamic
        key = dynamic.expand_subscript_code(sh, sub)
        return name if key is None else f"{base}[{key}]"
    return f"{base}[{_expand_subscript(sh, sub)}]"
