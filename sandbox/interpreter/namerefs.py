"""Name references (``declare -n ref=target``, ``local -n``): bash 5.2's rules.

A nameref is a scalar with the ``n`` attribute whose value is the name it refers to
(``x``, or an element ``a[3]``). Reading, assigning, ``unset`` and array operations on the
nameref act on the variable it refers to, followed along a chain of namerefs; ``${!ref}``,
``declare -p ref``, ``declare +n ref`` and ``unset -n ref`` see the nameref itself. A chain
that comes back to where it started, or is longer than bash's ``NAMEREF_MAX`` (8), is a
"circular name reference": reading gives nothing (with bash's warning), assigning fails.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sandbox.interpreter import callstack

if TYPE_CHECKING:
    from sandbox.interpreter.core import Shell

#: bash's variables.c NAMEREF_MAX: the longest chain of namerefs followed.
NAMEREF_MAX = 8
#: What a nameref may refer to: a name or an array element (bash's valid_nameref_value).
_TARGET_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[.*\])?\Z", re.S)


class CircularRef(Exception):
    """A nameref chain that loops (``declare -n a=b b=a``)."""


def _base(name: str) -> str:
    return name.partition("[")[0] if "[" in name else name


def is_ref(sh: "Shell", name: str) -> bool:
    """True when ``name`` (or the array part of ``name[sub]``) is a nameref."""
    at = sh.attrs.get(_base(name))
    return at is not None and "n" in at


def valid_target(value: str) -> bool:
    """What ``declare -n ref=value`` accepts."""
    return bool(_TARGET_RE.match(value))


def resolve(sh: "Shell", name: str) -> str:
    """The name ``name`` finally refers to (subscript kept). Stops at a nameref without a
    value (which then stands for itself). Raises ``CircularRef`` for a loop."""
    base, sep, rest = name.partition("[")
    sub = sep + rest
    orig = base
    for _ in range(NAMEREF_MAX + 1):
        at = sh.attrs.get(base)
        if at is None or "n" not in at:
            return base + sub
        target = sh.vars.get(base)
        if not target:
            return base + sub
        if target.endswith("]"):  # `declare -n r='m[$k]'`: the subscript expands each use
            from sandbox.interpreter.state import text_subscript
            target = text_subscript(sh, target)
        tbase, tsep, trest = target.partition("[")
        if tsep and not sub:
            sub = tsep + trest
        base = tbase
        if base == orig:
            break
    raise CircularRef(orig)


def warning(name: str) -> str:
    """bash's message for a circular chain."""
    return f"warning: {name}: circular name reference"


def for_read(sh: "Shell", name: str) -> str | None:
    """``resolve`` for a lookup: None (the value is unset) after printing bash's warning
    for a circular chain."""
    try:
        return resolve(sh, name)
    except CircularRef as exc:
        sh._current_stderr.write(f"{callstack.error_prefix(sh)}{warning(str(exc))}\n".encode(
            "utf-8", "surrogateescape"))
        return None


def for_write(sh: "Shell", name: str, value: str) -> str | None:
    """``resolve`` for an assignment: the name to assign. A nameref without a value takes
    the assigned value as the name it refers to (bash: ``declare -n r; r=x``): None, done.
    A circular chain fails as in bash (``ExpansionError``: the assignment is an error)."""
    from sandbox.interpreter.toplevel import AssignFailed
    try:
        target = resolve(sh, name)
    except CircularRef as exc:
        raise AssignFailed(warning(str(exc))) from None
    if "[" not in target and is_ref(sh, target):
        if not valid_target(value):
            raise AssignFailed(f"`{value}': invalid variable name for name reference")
        sh.budget.check_string(len(value))
        sh.vars[target] = value
        return None
    return target
