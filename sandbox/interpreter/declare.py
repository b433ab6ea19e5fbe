"""``declare`` / ``typeset`` / ``local`` / ``readonly``: variables with attributes.

Attributes: ``-a`` indexed array, ``-A`` associative array, ``-i`` integer (assignments are
evaluated as arithmetic), ``-l`` / ``-u`` lower / upper case on assignment, ``-n`` nameref
(``sandbox.interpreter.namerefs``), ``-r`` read-only, ``-x`` exported; ``-g`` global inside a
function; ``-p`` prints variables the way bash does (``declare -a a=([0]="x")``, an array
declared without a value as ``declare -a a``); ``-F`` lists function names (``-f``, function
bodies, is refused with a one-line message). ``local -`` saves the ``set`` options until the
function returns. Inside a function ``declare`` and ``local`` make the variable local
(``restore_var`` puts the old one back on return). Array literals reach the builtin through
``Shell.decl_arrays`` (the parser keeps ``declare a=(...)`` as an assignment, never as a word
to split).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox.interpreter import namerefs, state, strops
from sandbox.interpreter.expand import ExpansionError, declare_text
from sandbox.interpreter import callstack

if TYPE_CHECKING:
    from sandbox.interpreter.core import IO, Shell

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: Marker ending an argv entry ``name=(`` whose elements wait in ``Shell.decl_arrays``.
ARRAY_MARK = "(\x00"
_ATTRS = "aAilnurx"
#: Pseudo-attribute of an array declared without a value (``declare -a a``: bash prints
#: ``declare -a a``, not ``declare -a a=()``); the first assignment removes it.
UNSET_ARRAY = "~"


def _print_functions(sh: "Shell", names: list[str], io_: "IO", prog: str) -> int:
    """``declare -f [NAME...]``: each function as bash prints it (``funcprint``); a body
    the sandbox can't print as bash does is refused in one line (status 1). Nothing runs."""
    from sandbox.interpreter import funcprint
    status = 0
    for n in names or sorted(sh.functions):
        func = sh.functions.get(n)
        if func is None:
            status = 1
            continue
        text = funcprint.render(func)
        if text is None:
            _err(sh, io_, prog, f"{n}: printing this function's body is not supported in the "
                 "sandbox (here-documents, array assignments and nested functions are not "
                 "printed); declare -F lists the names")
            status = 1
            continue
        io_.stdout.write(f"{text}\n".encode("utf-8", "surrogateescape"))
    return status


#: bash 5.2's usage line of each declaration builtin (after an invalid option).
_USAGE = {
    "declare": "declare: usage: declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p "
               "[-aAfFilnrtux] [name ...]\n",
    "typeset": "typeset: usage: typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p "
               "[-aAfFilnrtux] [name ...]\n",
    "local": "local: usage: local [option] name[=value] ...\n",
    "readonly": "readonly: usage: readonly [-aAf] [name[=value] ...] or readonly -p\n",
}


def _err(sh: "Shell", io_: "IO", prog: str, message: str) -> None:
    io_.stderr.write(f"{callstack.error_prefix(sh)}{prog}: {message}\n".encode("utf-8", "surrogateescape"))


def flags_of(sh: "Shell", name: str) -> str:
    """The attribute letters of ``name`` in ``declare -p``'s order."""
    at = sh.attrs.get(name, set())
    out = ""
    if name in sh.assoc:
        out += "A"
    elif name in sh.arrays:
        out += "a"
    for c in "ilnrtux":
        if c == "x":
            if name in sh.exported:
                out += c
        elif c in at:
            out += c
    return out


def print_var(sh: "Shell", name: str) -> str | None:
    """One ``declare -p`` line (without the newline), None if ``name`` is not set."""
    if name in sh.arrays:
        flags = flags_of(sh, name)
        if not sh.arrays[name] and UNSET_ARRAY in sh.attrs.get(name, ()):
            return f"declare -{flags} {name}"
        text = declare_text(sh, name)
        return text.replace(f"declare -{text.split()[1][1:]}", f"declare -{flags}", 1)
    value = sh.vars.get(name)
    flags = flags_of(sh, name) or "-"
    if value is None and name in ("PIPESTATUS", "BASH_REMATCH"):  # the shell's own arrays
        items = sh.list_var(name + "[@]") or []
        if items:
            body = " ".join(f"[{k}]={strops.dquote(v)}" for k, v in enumerate(items))
            return f"declare -a {name}=({body})"
    if value is None:
        if name in sh.attrs or name in sh.declared:
            return f"declare -{flags} {name}"
        return None
    return f"declare -{flags} {name}={strops.dquote(value)}"


def print_set(sh: "Shell", io_: "IO") -> int:
    """``set`` without arguments: each variable that has a value as ``name=value`` (quoted
    as bash's ``print_var_value`` quotes it; arrays as ``declare -p`` writes them), then
    each function, in name order."""
    from sandbox.interpreter import funcprint, xtrace
    lines: list[str] = []
    for n in sorted(set(sh.vars) | set(sh.arrays)):
        if n in sh.arrays:
            line = print_var(sh, n)
            if line is not None and "=" in line:
                lines.append(line.split(" ", 2)[2])
        elif n in sh.vars:
            v = sh.vars[n]
            v = xtrace.ansic_quote(v) if xtrace.should_ansic_quote(v) else \
                xtrace.single_quote(v) if xtrace.contains_metas(v) else v
            lines.append(f"{n}={v}")
    for n in sorted(sh.functions):
        text = funcprint.render(sh.functions[n])
        if text is not None:  # (a body this printer does not cover is left out)
            lines.append(text)
    io_.stdout.write("".join(x + "\n" for x in lines).encode("utf-8", "surrogateescape"))
    return 0


#: The ``set`` options ``local -`` saves (attributes of ``Shell``).
_SET_OPTIONS = ("errexit", "nounset", "xtrace", "noglob", "noclobber", "pipefail", "verbose",
                "allexport", "noexec", "braceexpand")


def options(sh: "Shell") -> dict[str, object]:
    """The ``set`` options as ``local -`` saves them."""
    return {k: getattr(sh, k) for k in _SET_OPTIONS if hasattr(sh, k)}


def restore_options(sh: "Shell", saved: dict[str, object]) -> None:
    """Put back what ``options`` saved (a function with ``local -`` returns)."""
    for k, v in saved.items():
        setattr(sh, k, v)


def _nameref_ok(sh: "Shell", io_: "IO", prog: str, name: str, value: str) -> bool:
    """``declare -n name=value``: bash's checks of the name referred to."""
    if not namerefs.valid_target(value):
        _err(sh, io_, prog, f"`{value}': invalid variable name for name reference")
        return False
    if value == name:
        _err(sh, io_, prog, f"{name}: nameref variable self references not allowed")
        return False
    return True


def _global_binding(sh: "Shell", name: str) -> int | None:
    """The index of the outermost function frame whose ``local`` hides the global ``name``
    (None when the global is the variable in sight)."""
    return next((k for k, frame in enumerate(sh.locals) if name in frame), None)


def _declare_global(sh: "Shell", argv: list[str], io_: "IO", frame: int) -> int:
    """``declare -g name...`` (one name) while a caller's ``local`` hides the global: the
    global (saved in that caller's frame) changes, the local in sight stays, as in bash."""
    base = state.split_name(argv[-1].partition("=")[0].rstrip("+"))[0]
    saved, hidden_attrs = sh.locals[frame], sh.local_attrs.get(frame + 1, {})
    visible, visible_attrs = sh.save_var(base), sh.attrs.pop(base, None)
    sh.restore_var(base, saved[base])
    if hidden_attrs.get(base) is not None:
        sh.attrs[base] = hidden_attrs[base]  # type: ignore[assignment]
    try:
        return b_declare(sh, argv, io_, in_global=True)
    finally:
        saved[base] = sh.save_var(base)
        attrs = sh.attrs.pop(base, None)
        if frame + 1 in sh.local_attrs:
            sh.local_attrs[frame + 1][base] = attrs
        elif attrs:
            sh.own_dict("local_attrs")[frame + 1] = {base: attrs}
        sh.restore_var(base, visible)
        if visible_attrs is not None:
            sh.attrs[base] = visible_attrs


def b_declare(sh: "Shell", argv: list[str], io_: "IO", in_global: bool = False) -> int:
    """``declare [-aAilrux] [-gpF] [name[=value]...]`` (also ``typeset``, ``local``)."""
    prog = argv[0]
    if prog == "local" and not sh.locals:  # (before bash looks at the options)
        _err(sh, io_, prog, "can only be used in a function")
        return 1
    on: set[str] = set()
    off: set[str] = set()
    opts: set[str] = set()
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if len(a) < 2 or a[0] not in "-+" or "=" in a:
            break
        for c in a[1:]:
            if c in _ATTRS:
                (on if a[0] == "-" else off).add(c)
            elif c in "gpfF":
                opts.add(c)
            else:
                _err(sh, io_, prog, f"{a[0]}{c}: invalid option")
                io_.stderr.write(_USAGE.get(prog, _USAGE["declare"]).encode())
                return 2
        i += 1
    names = argv[i:]
    if "f" in opts and "F" not in opts:
        return _print_functions(sh, names, io_, prog)
    if "F" in opts:
        status = 0
        for n in names or sorted(sh.functions):
            if n in sh.functions:  # `declare -F f` prints the name, `declare -F` all, as bash
                line = n if names else f"declare -f{'x' if n in sh.exported_funcs else ''} {n}"
                io_.stdout.write(f"{line}\n".encode("utf-8", "surrogateescape"))
            else:
                status = 1
        return status
    if "p" in opts or not names:
        return _print(sh, names, on, io_, prog)
    local = bool(sh.locals) and "g" not in opts and prog != "readonly"
    status = 0
    if "g" in opts and sh.locals and not in_global:
        flags = argv[1:len(argv) - len(names)]
        for arg in names:
            frame = _global_binding(sh, state.split_name(arg.partition("=")[0].rstrip("+"))[0])
            if frame is None:
                status |= b_declare(sh, [prog, *flags, arg], io_, in_global=True)
            else:
                status |= _declare_global(sh, [prog, *flags, arg], io_, frame)
        return status
    for arg in names:
        if arg == "-" and prog == "local" and sh.locals:  # `local -`: set options come back
            sh.own_dict("local_opts").setdefault(len(sh.locals), options(sh))
            continue
        name, eq, value = arg.partition("=")
        append = name.endswith("+")
        if append:
            name = name[:-1]
        base, sub = state.split_name(name)
        if not _NAME_RE.match(base):
            _err(sh, io_, prog, f"`{arg}': not a valid identifier")
            status = 1
            continue
        if "n" in on and eq and not _nameref_ok(sh, io_, prog, base, value):
            status = 1
            continue
        if "n" in on and base in sh.arrays and not (local and base not in sh.locals[-1]):
            _err(sh, io_, prog, f"{base}: reference variable cannot be an array")
            status = 1
            continue
        if "r" in sh.attrs.get(base, ()) and (eq or on - {"r"}) and "n" not in on | off:
            _err(sh, io_, prog, f"{base}: readonly variable")
            status = 1
            continue
        if local and base not in sh.locals[-1]:
            sh.locals[-1][base] = sh.save_var(base)
            saved_attrs = sh.attrs.pop(base, None)
            sh.own_dict("local_attrs").setdefault(len(sh.locals), {})[base] = saved_attrs
            if not eq or value != ARRAY_MARK:
                sh.arrays.pop(base, None)
                sh.assoc.discard(base)
                sh.vars.pop(base, None)
        if "n" not in on | off and sh.attrs and namerefs.is_ref(sh, base):
            target = namerefs.for_read(sh, name)
            if target is None:
                status = 1
                continue
            base, sub = state.split_name(target)
            name = target
            if "r" in sh.attrs.get(base, ()) and (eq or on - {"r"}):
                _err(sh, io_, prog, f"{base}: readonly variable")
                status = 1
                continue
        if "a" in on and base in sh.assoc:
            _err(sh, io_, prog, f"{base}: cannot convert associative to indexed array")
            status = 1
            continue
        if "A" in on and base in sh.arrays and base not in sh.assoc and sh.arrays[base]:
            _err(sh, io_, prog, f"{base}: cannot convert indexed to associative array")
            status = 1
            continue
        fresh = base not in sh.arrays and base not in sh.vars
        if "A" in on:
            if base not in sh.assoc:
                sh.arrays[base] = {}
                sh.vars.pop(base, None)
            sh.assoc.add(base)
        elif "a" in on and base not in sh.arrays:
            old = sh.vars.pop(base, None)
            sh.arrays[base] = {} if old is None else {0: old}
        attrs = sh.attrs.setdefault(base, set())
        if fresh and not eq and on & {"a", "A"}:
            attrs.add(UNSET_ARRAY)
        attrs |= on & set("ilnu")
        attrs -= off & set("ilnu")
        if "n" in on:  # a nameref has no integer or case attribute (bash drops them)
            attrs -= set("ilu")
        if "u" in on:
            attrs.discard("l")
        if "l" in on:
            attrs.discard("u")
        if "x" in on:
            sh.exported.add(base)
        if "x" in off:
            sh.exported.discard(base)
        sh.own_set("declared").add(base)
        try:
            if eq and "n" in on:
                sh.budget.check_string(len(value))
                sh.vars[base] = value
            elif eq and value == ARRAY_MARK:
                items = sh.decl_arrays.pop(base, []) if sh.decl_arrays else []
                state.assign(sh, base, items, append)
            elif eq:
                if append and "i" in attrs:
                    value = f"{sh.get_var(name) or 0}+({value})"
                elif append:
                    value = (sh.get_var(name) or "") + value
                sh.set_var(name, value)
        except state.SubscriptError as exc:
            _err(sh, io_, prog, str(exc))
            status = 1
        except ExpansionError as exc:
            _err(sh, io_, prog, str(exc))
            status = 1
        if "r" in on:
            attrs.add("r")
        if not attrs:
            sh.attrs.pop(base, None)
    return status


def _print(sh: "Shell", names: list[str], on: set[str], io_: "IO", prog: str) -> int:
    status = 0
    lines: list[str] = []
    if not names:
        every = sorted(set(sh.vars) | set(sh.arrays))
        if prog == "local" and sh.locals:  # `local -p`: this function's variables
            every = [n for n in every if n in sh.locals[-1]]
        for n in every:
            if on and not all(c in flags_of(sh, n) for c in on):
                continue
            line = print_var(sh, n)
            if line:
                lines.append(line)
    io_.stdout.write("".join(x + "\n" for x in lines).encode("utf-8", "surrogateescape"))
    for n in names:  # each line or message in turn, as bash prints them
        line = print_var(sh, n)
        if line is None:
            _err(sh, io_, prog, f"{n}: not found")
            status = 1
        else:
            io_.stdout.write((line + "\n").encode("utf-8", "surrogateescape"))
    return status


def b_readonly(sh: "Shell", argv: list[str], io_: "IO") -> int:
    """``readonly [-aAp] [name[=value]...]``: ``declare -r`` at global scope."""
    args = argv[1:]
    if not args or args == ["-p"]:
        for n in sorted(set(sh.vars) | set(sh.arrays)):
            if "r" in sh.attrs.get(n, ()):
                line = print_var(sh, n)
                if line:
                    io_.stdout.write((line + "\n").encode("utf-8", "surrogateescape"))
        return 0
    k = 0  # options end at the first other word (or after `--`), as bash's getopt ends them
    while k < len(args) and args[k].startswith("-") and len(args[k]) > 1 and "=" not in args[k]:
        k += 1
        if args[k - 1] == "--":
            break
    flags = [a for a in args[:k] if a != "--"]
    for f in flags:
        bad = next((c for c in f[1:] if c not in "aAfp"), None)
        if bad is not None:  # bash's readonly takes -a -A -f -p only
            _err(sh, io_, "readonly", f"-{bad}: invalid option")
            io_.stderr.write(_USAGE["readonly"].encode())
            return 2
    rest = args[k:]
    if not any("=" in a for a in rest):  # `readonly -a x`: only read-only, not an array
        flags = [f.replace("a", "").replace("A", "") for f in flags]
        flags = [f for f in flags if f != "-"]
    return b_declare(sh, ["readonly", "-r" + "".join(f[1:] for f in flags), *rest], io_)
