"""The jq evaluator: AST (from ``parser.py``) compiled once into a tree of node objects.

Every node has ``ev(v, env)`` (iterate the outputs for input ``v``) and ``pv(v, path, env)``
(iterate ``(value, path)`` pairs, for path expressions such as ``path(f)``, ``del(f)`` and the
left side of assignments). Nodes that always produce exactly one output are ``simple`` and also
have ``one(v, env)``, which the hot loop uses to skip generator overhead.

``env`` is a linked list of ``(key, value, next)`` tuples: keys are the compile-time identities
of variables, labels and function definitions (lexical scoping resolved when compiling).
Values are never mutated in place: updates copy.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Iterator

from sandbox.commands.jq.errors import Break, JQError, JQSyntaxError
from sandbox.commands.jq.values import (
    describe,
    dump_trunc,
    dumps,
    equal,
    compare,
    truthy,
    type_name,
)

Env = Any  # (key, value, next) | None
Path = tuple

_local = threading.local()


class Runtime:
    """Per-run state shared by natives: budget, inputs, stderr, environment, named args."""

    def __init__(self, budget: Any = None, env: dict[str, str] | None = None):
        self.budget = budget
        self.env = env or {}
        self.ticks = 0
        self.next_input: Callable[[], Any] | None = None
        self.filename_source: Callable[[], Any] = lambda: None
        self.line_source: Callable[[], int] = lambda: 0
        self.stderr: Callable[[bytes], None] = lambda b: None
        self.named_args: dict[str, Any] = {}
        self.positional: list[Any] = []
        self.max_items = 2_000_000
        self.max_string = 16 << 20

    def tick(self, n: int = 1) -> None:
        """Count work; every few thousand units check the wall-clock budget."""
        self.ticks += n
        if self.ticks >= 256:
            self.ticks = 0
            if self.budget is not None:
                self.budget.check_time()


_DEFAULT_RT = Runtime()


def rt() -> Runtime:
    """The runtime of the evaluation running in this thread."""
    return getattr(_local, "rt", _DEFAULT_RT)


def set_runtime(r: Runtime | None) -> None:
    """Install (or clear) the runtime for this thread."""
    _local.rt = r if r is not None else _DEFAULT_RT


def lookup(env: Env, key: object) -> Any:
    """Find a binding by identity."""
    while env is not None:
        if env[0] is key:
            return env[1]
        env = env[2]
    raise JQError("internal error: unbound name")


def check_items(n: int) -> None:
    """Refuse to build collections beyond the sandbox's bound."""
    r = rt()
    if n > r.max_items:
        from sandbox.errors import LimitExceeded

        raise LimitExceeded("string_length", f"jq: value too large (more than {r.max_items} items); process the input in smaller pieces")


def check_str(n: int) -> None:
    """Refuse strings beyond ``Limits.string_length``."""
    r = rt()
    if n > r.max_string:
        from sandbox.errors import LimitExceeded

        raise LimitExceeded("string_length", f"jq: string length limit of {r.max_string} bytes exceeded")


# ---------------------------------------------------------------------------------------------
# value operations used by nodes
# ---------------------------------------------------------------------------------------------


def _num_index(v: float | int) -> int:
    if type(v) is int:
        return v
    import math

    if v != v:
        return 0
    if math.isinf(v):
        return int(1 << 62) if v > 0 else -(1 << 62)
    return math.floor(v)


def index_value(t: Any, k: Any) -> Any:
    """``t[k]`` with jq's rules (null-tolerant, negative indices, slices by object)."""
    tt = type(t)
    tk = type(k)
    if tt is dict and tk is str:
        return t.get(k)
    if tt is list and (tk is int or tk is float):
        if tk is float and k != k:
            return None
        i = _num_index(k)
        if i < 0:
            i += len(t)
            if i < 0:
                return None
        return t[i] if i < len(t) else None
    if t is None and (tk is str or tk is int or tk is float or tk is dict or k is None):
        return None
    if tk is dict and (tt is list or tt is str or t is None) and ("start" in k or "end" in k):
        return slice_value(t, k.get("start"), k.get("end"))
    if tt is list and tk is list:
        return indices_of(t, k)
    raise JQError(f"Cannot index {type_name(t)} with {type_name(k)} ({dump_trunc(k)})")


def _slice_bounds(n: int, start: Any, end: Any) -> tuple[int, int]:
    import math

    for x in (start, end):
        if x is not None and type(x) not in (int, float):
            raise JQError("Start and end indices of an array slice must be numbers")
    s = 0.0 if start is None else float(start)
    e = float(n) if end is None else float(end)
    if s != s:
        s = 0.0
    if e != e:
        e = float(n)
    if s < 0:
        s += n
    if e < 0:
        e += n
    if s < 0:
        s = 0
    if s > n:
        s = n
    if e > n:
        e = n
    if e < 0:
        e = 0
    si = int(math.floor(s))
    ei = int(math.ceil(e)) if e < n else n
    if ei > n:
        ei = n
    if ei < si:
        ei = si
    return si, ei


def slice_value(t: Any, start: Any, end: Any) -> Any:
    """``t[start:end]`` for arrays, strings and null."""
    if t is None:
        return None
    if type(t) is list or type(t) is str:
        s, e = _slice_bounds(len(t), start, end)
        return t[s:e]
    raise JQError(f"Cannot index {type_name(t)} with object ({dump_trunc({'start': start, 'end': end})})")


def indices_of(t: list, k: list) -> Any:
    """Start positions of sub-array ``k`` in ``t`` (jq 1.8 src/jv.c ``jv_array_indexes``: the
    result starts as ``jv_array()``, so an empty ``k`` gives ``[]``)."""
    if not k:
        return []
    out = []
    n = len(k)
    r = rt()
    first = k[0]
    for i in range(len(t) - n + 1):
        r.tick()
        if equal(t[i], first):
            r.tick(n)
            if all(equal(t[i + j], k[j]) for j in range(1, n)):
                out.append(i)
    return out


def iterate_value(t: Any) -> Iterator[Any]:
    """``t[]``."""
    tt = type(t)
    if tt is list:
        return iter(t)
    if tt is dict:
        return iter(t.values())
    raise JQError(f"Cannot iterate over {describe(t)}")


def add_values(a: Any, b: Any) -> Any:
    """jq's ``+``."""
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return arith("+", a, b)
    if ta is str and tb is str:
        if len(a) + len(b) > 65536:
            check_str(len(a) + len(b))
        return a + b
    if a is None:
        return b
    if b is None:
        return a
    if ta is list and tb is list:
        check_items(len(a) + len(b))
        return a + b
    if ta is dict and tb is dict:
        r = dict(a)
        r.update(b)
        return r
    raise JQError(f"{describe(a)} and {describe(b)} cannot be added")


_SAFE = 9007199254740992


def arith(op: str, a: Any, b: Any) -> Any:
    """``+ - *`` on numbers: exact for integers within 2**53, doubles otherwise (as jq)."""
    if type(a) is int and type(b) is int and -_SAFE <= a <= _SAFE and -_SAFE <= b <= _SAFE:
        r = a + b if op == "+" else (a - b if op == "-" else a * b)
        if -_SAFE <= r <= _SAFE:
            return r
        return float(r)
    x, y = float(a), float(b)
    return x + y if op == "+" else (x - y if op == "-" else x * y)


def _deep_merge(a: dict, b: dict) -> dict:
    r = dict(a)
    for k, v in b.items():
        if k in r and type(r[k]) is dict and type(v) is dict:
            r[k] = _deep_merge(r[k], v)
        else:
            r[k] = v
    return r


def deep_guard(message: str):
    """Decorator: a structure nested beyond Python's recursion limit becomes a jq error
    (jq's own limit is 10000 levels; ours is lower, see the module docs)."""

    def deco(fn):
        def wrapper(*args):
            try:
                return fn(*args)
            except RecursionError:
                raise JQError(message) from None

        wrapper.__name__ = fn.__name__
        wrapper.__doc__ = fn.__doc__
        return wrapper

    return deco


def binop_values(op: str, a: Any, b: Any) -> Any:
    """Apply a binary operator with jq's rules."""
    try:
        return _binop_values(op, a, b)
    except RecursionError:
        if op in ("==", "!="):
            raise JQError("Equality check too deep") from None
        if op == "*":
            raise JQError("Object merge too deep") from None
        raise JQError("Comparison too deep") from None


def _binop_values(op: str, a: Any, b: Any) -> Any:
    if op == "+":
        return add_values(a, b)
    ta, tb = type(a), type(b)
    anum = ta is int or ta is float
    bnum = tb is int or tb is float
    if op == "-":
        if anum and bnum:
            return arith("-", a, b)
        if ta is list and tb is list:
            return [x for x in a if not any(equal(x, y) for y in b)]
        raise JQError(f"{describe(a)} and {describe(b)} cannot be subtracted")
    if op == "*":
        if anum and bnum:
            return arith("*", a, b)
        if (ta is str and bnum) or (anum and tb is str):
            s, n = (a, b) if ta is str else (b, a)
            if n != n or n < 0:
                return None
            times = int(n) if n < 2**62 else 2**62
            if len(s) * times >= 2**31:
                raise JQError("Repeat string result too long")
            check_str(len(s) * times)
            return s * times
        if ta is dict and tb is dict:
            return _deep_merge(a, b)
        raise JQError(f"{describe(a)} and {describe(b)} cannot be multiplied")
    if op == "/":
        if anum and bnum:
            if b == 0:
                raise JQError(f"{describe(a)} and {describe(b)} cannot be divided because the divisor is zero")
            return float(a) / float(b)
        if ta is str and tb is str:
            return split_string(a, b)
        raise JQError(f"{describe(a)} and {describe(b)} cannot be divided")
    if op == "%":
        if anum and bnum:
            import math

            def to_int(x: Any) -> int:
                if type(x) is int:
                    return x
                if x != x:
                    return 0
                if math.isinf(x):
                    return (1 << 63) - 1 if x > 0 else -(1 << 63)
                xi = int(x)
                if xi > (1 << 63) - 1:
                    return (1 << 63) - 1
                if xi < -(1 << 63):
                    return -(1 << 63)
                return xi

            if (ta is float and a != a) or (tb is float and b != b):
                return float("nan")
            ai, bi = to_int(a), to_int(b)
            if bi == 0:
                raise JQError(f"{describe(a)} and {describe(b)} cannot be divided (remainder) because the divisor is zero")
            r = abs(ai) % abs(bi)
            if ai < 0:
                r = -r
            return r
        raise JQError(f"{describe(a)} and {describe(b)} cannot be divided (remainder)")
    if op == "==":
        return equal(a, b)
    if op == "!=":
        return not equal(a, b)
    c = compare(a, b)
    if op == "<":
        return c < 0
    if op == "<=":
        return c <= 0
    if op == ">":
        return c > 0
    if op == ">=":
        return c >= 0
    raise JQError(f"unknown operator {op}")


def split_string(s: str, sep: str) -> list[str]:
    """``"a,b" / ","`` and ``split(",")``."""
    if s == "":
        return []
    if sep == "":
        return list(s)
    return s.split(sep)


def getpath_value(v: Any, path: Any) -> Any:
    """``getpath(p)``."""
    if type(path) is not list:
        raise JQError("Path must be specified as an array")
    if len(path) > 10000:
        raise JQError("Path too deep")
    for k in path:
        if v is None:
            return None
        v = index_value(v, k)
    return v


def setpath_value(v: Any, path: list, i: int, new: Any) -> Any:
    """``setpath(p; x)`` (copying along the path; iterative, so long paths are fine)."""
    if len(path) > 10000:
        raise JQError("Path too deep")
    if len(path) - i > 200:
        # walk down, then rebuild bottom-up without recursion
        chain = [v]
        cur = v
        for k in path[i:]:
            cur = index_value(cur, k) if cur is not None else None
            chain.append(cur)
        result = new
        for j in range(len(path) - 1, i - 1, -1):
            result = _setpath_step(chain[j - i], path[j], result)
        return result
    return _setpath_rec(v, path, i, new)


def _setpath_step(v: Any, k: Any, child: Any) -> Any:
    return _setpath_rec(v, [k], 0, child)


def _setpath_rec(v: Any, path: list, i: int, new: Any) -> Any:
    if i == len(path):
        return new
    k = path[i]
    tk = type(k)
    tv = type(v)
    if tk is str:
        if tv is dict:
            r = dict(v)
            r[k] = _setpath_rec(v.get(k), path, i + 1, new)
            return r
        if v is None:
            return {k: _setpath_rec(None, path, i + 1, new)}
        raise JQError(f"Cannot index {type_name(v)} with \"{k}\"")
    if tk is int or tk is float:
        if tv is list or v is None:
            arr = list(v) if v is not None else []
            if tk is float and k != k:
                raise JQError("Cannot set array element at NaN index")
            idx = _num_index(k)
            if idx < 0:
                idx += len(arr)
                if idx < 0:
                    raise JQError("Out of bounds negative array index")
            if idx > 536870911:
                raise JQError("Array index too large")
            if idx >= len(arr):
                check_items(idx + 1)
                arr.extend([None] * (idx + 1 - len(arr)))
            arr[idx] = _setpath_rec(arr[idx], path, i + 1, new)
            return arr
        raise JQError(f"Cannot index {type_name(v)} with number ({dump_trunc(k)})")
    if tk is dict:
        if tv is list or v is None:
            arr = list(v) if v is not None else []
            s, e = _slice_bounds(len(arr), k.get("start"), k.get("end"))
            cur = arr[s:e]
            repl = _setpath_rec(cur, path, i + 1, new)
            if type(repl) is not list:
                raise JQError("A slice of an array can only be assigned another array")
            return arr[:s] + repl + arr[e:]
        if tv is str:
            raise JQError("Cannot update string slices")
        raise JQError(f"Cannot update field at object index of {type_name(v)}")
    if tk is list:
        raise JQError(f"Cannot update field at array index of {type_name(v)}")
    raise JQError(f"Invalid path component")


def delpaths_value(v: Any, paths: list) -> Any:
    """``delpaths(ps)``: delete longest/last paths first."""
    from sandbox.commands.jq.values import sort_key

    if type(paths) is not list:
        raise JQError("Paths must be specified as an array")
    for p in paths:
        if type(p) is not list:
            raise JQError("Path must be specified as an array")
    norm = []
    for p in paths:
        if len(p) > 10000:
            raise JQError("Path too deep")
        q = list(p)
        # resolve negative array indices against the value so deletions sort correctly
        cur = v
        for j, k in enumerate(q):
            if type(cur) is list and type(k) in (int, float):
                if k != k:
                    q = None
                    break
                if k < 0:
                    k2 = _num_index(k) + len(cur)
                    if k2 < 0:
                        q = None
                        break
                    q[j] = k2
            try:
                cur = index_value(cur, q[j]) if cur is not None else None
            except JQError:
                cur = None
        if q is not None:
            norm.append(q)
    ps = sorted(norm, key=sort_key, reverse=True)
    for p in ps:
        v = _delpath(v, p, 0)
    return v


def _delpath(v: Any, path: list, i: int) -> Any:
    if v is None:
        return None
    if i == len(path) - 1:
        k = path[i]
        tk, tv = type(k), type(v)
        if tv is dict:
            if tk is not str:
                raise JQError(f"Cannot delete field at index of object")
            if k in v:
                r = dict(v)
                del r[k]
                return r
            return v
        if tv is list:
            if tk is int or tk is float:
                idx = _num_index(k)
                if idx < 0:
                    idx += len(v)
                    if idx < 0:
                        raise JQError("Out of bounds negative array index")
                if idx >= len(v):
                    return v
                return v[:idx] + v[idx + 1 :]
            if tk is dict:
                s, e = _slice_bounds(len(v), k.get("start"), k.get("end"))
                return v[:s] + v[e:]
            raise JQError(f"Cannot delete field at object index of array")
        raise JQError(f"Cannot delete field at index of {type_name(v)}")
    if i >= len(path):
        return None
    k = path[i]
    child = index_value(v, k)
    if child is None:
        return v
    new_child = _delpath(child, path, i + 1)
    if type(k) is dict:
        s, e = _slice_bounds(len(v), k.get("start"), k.get("end"))
        return v[:s] + new_child + v[e:]
    return setpath_value(v, [k], 0, new_child)


# ---------------------------------------------------------------------------------------------
# nodes
# ---------------------------------------------------------------------------------------------


def _invalid_path(v: Any) -> JQError:
    return JQError(f"Invalid path expression with result {dump_trunc(v)}")


def _invalid_access(t: Any, k: Any) -> JQError:
    return JQError(f"Invalid path expression near attempt to access element {dump_trunc(k)} of {dump_trunc(t)}")


def _invalid_iterate(t: Any) -> JQError:
    return JQError(f"Invalid path expression near attempt to iterate through {dump_trunc(t)}")


def checked_path(x: Any, p: Path | None) -> list:
    """The path as a list, or jq's error if the expression was not a path expression."""
    if p is None:
        raise _invalid_path(x)
    return list(p)


class Node:
    """Base class of compiled nodes."""

    simple = False

    def ev(self, v: Any, env: Env) -> Iterator[Any]:
        """Outputs for input ``v``."""
        raise NotImplementedError

    def pv(self, v: Any, p: Path, env: Env) -> Iterator[tuple[Any, Path]]:
        """``(value, path)`` pairs; a non-path expression yields its values with path ``None``
        and the consumer reports "Invalid path expression" the way jq words it."""
        for x in self.ev(v, env):
            yield x, None

    def one(self, v: Any, env: Env) -> Any:
        """The single output of a ``simple`` node."""
        raise NotImplementedError


class Identity(Node):
    """``.``"""

    simple = True

    def ev(self, v, env):
        yield v

    def one(self, v, env):
        return v

    def pv(self, v, p, env):
        yield v, p


class RecurseDefault(Node):
    """``..`` (pre-order, iterative)."""

    def ev(self, v, env):
        stack = [v]
        r = rt()
        while stack:
            x = stack.pop()
            r.tick()
            yield x
            t = type(x)
            if t is list:
                stack.extend(reversed(x))
            elif t is dict:
                stack.extend(reversed(list(x.values())))

    def pv(self, v, p, env):
        if p is None:
            raise _invalid_iterate(v)
        stack = [(v, p)]
        r = rt()
        while stack:
            x, xp = stack.pop()
            r.tick()
            yield x, xp
            t = type(x)
            if t is list:
                stack.extend((x[i], xp + (i,)) for i in range(len(x) - 1, -1, -1))
            elif t is dict:
                items = list(x.items())
                stack.extend((val, xp + (k,)) for k, val in reversed(items))


class Literal(Node):
    """A constant."""

    simple = True

    def __init__(self, value: Any):
        self.value = value

    def ev(self, v, env):
        yield self.value

    def one(self, v, env):
        return self.value

    def pv(self, v, p, env):
        yield self.value, (p if self.value is None else None)


class Field(Node):
    """``TARGET.name`` with a constant string key (fast path of ``Index``)."""

    def __init__(self, target: Node, name: str):
        self.target = target
        self.name = name
        self.simple = target.simple

    def one(self, v, env):
        t = self.target.one(v, env)
        if type(t) is dict:
            return t.get(self.name)
        if t is None:
            return None
        return index_value(t, self.name)

    def ev(self, v, env):
        name = self.name
        for t in self.target.ev(v, env):
            if type(t) is dict:
                yield t.get(name)
            elif t is None:
                yield None
            else:
                yield index_value(t, name)

    def pv(self, v, p, env):
        name = self.name
        for t, tp in self.target.pv(v, p, env):
            if tp is None:
                raise _invalid_access(t, name)
            if t is None:
                yield None, tp + (name,)
            else:
                yield index_value(t, name), tp + (name,)


class Index(Node):
    """``TARGET[KEY]``: the key is evaluated against the original input (outer loop)."""

    def __init__(self, target: Node, key: Node):
        self.target = target
        self.key = key
        self.simple = target.simple and key.simple

    def one(self, v, env):
        return index_value(self.target.one(v, env), self.key.one(v, env))

    def ev(self, v, env):
        for k in self.key.ev(v, env):
            for t in self.target.ev(v, env):
                yield index_value(t, k)

    def pv(self, v, p, env):
        for k in self.key.ev(v, env):
            for t, tp in self.target.pv(v, p, env):
                if tp is None:
                    raise _invalid_access(t, k)
                if t is None:
                    if type(k) is dict:
                        yield None, tp + (k,)
                        continue
                    yield index_value(t, k), tp + (k,)
                else:
                    yield index_value(t, k), tp + (k,)


class Slice(Node):
    """``TARGET[FROM:TO]``."""

    def __init__(self, target: Node, lo: Node | None, hi: Node | None):
        self.target = target
        self.lo = lo or Literal(None)
        self.hi = hi or Literal(None)

    def ev(self, v, env):
        for hi in self.hi.ev(v, env):
            for lo in self.lo.ev(v, env):
                for t in self.target.ev(v, env):
                    yield slice_value(t, lo, hi)

    def pv(self, v, p, env):
        for hi in self.hi.ev(v, env):
            for lo in self.lo.ev(v, env):
                for t, tp in self.target.pv(v, p, env):
                    if tp is None:
                        raise _invalid_access(t, {"start": lo, "end": hi})
                    yield slice_value(t, lo, hi), tp + ({"start": lo, "end": hi},)


class Iterate(Node):
    """``TARGET[]``."""

    def __init__(self, target: Node):
        self.target = target

    def ev(self, v, env):
        r = rt()
        for t in self.target.ev(v, env):
            tt = type(t)
            if tt is list:
                if len(t) > 64:
                    for i, x in enumerate(t):
                        if not i & 63:
                            r.tick(64)
                        yield x
                else:
                    yield from t
            elif tt is dict:
                yield from t.values()
            else:
                raise JQError(f"Cannot iterate over {describe(t)}")

    def pv(self, v, p, env):
        for t, tp in self.target.pv(v, p, env):
            if tp is None:
                raise _invalid_iterate(t)
            tt = type(t)
            if tt is list:
                for i, x in enumerate(t):
                    yield x, tp + (i,)
            elif tt is dict:
                for k, x in t.items():
                    yield x, tp + (k,)
            else:
                raise JQError(f"Cannot iterate over {describe(t)}")


class OptStep(Node):
    """``TARGET.step?``: errors of TARGET propagate, only the step's own error is suppressed.

    ``step`` is an index/slice/iterate node applied to ``.``; key expressions inside it still
    see the original input, so the target value is passed through a binding-free wrapper.
    """

    def __init__(self, step: Node, target: Node):
        self.step = step
        self.target = target

    def ev(self, v, env):
        step = self.step
        for t in self.target.ev(v, env):
            try:
                yield from _StepInput(step, v).ev_on(t, env)
            except JQError:
                pass

    def pv(self, v, p, env):
        step = self.step
        for t, tp in self.target.pv(v, p, env):
            try:
                yield from _StepInput(step, v).pv_on(t, tp, env)
            except JQError:
                pass


class _StepInput:
    """Evaluate an index step on value ``t`` while its key expressions see input ``orig``."""

    __slots__ = ("step", "orig")

    def __init__(self, step: Node, orig: Any):
        self.step = step
        self.orig = orig

    def ev_on(self, t: Any, env: Env) -> Iterator[Any]:
        step = self.step
        if isinstance(step, Field):
            yield index_value(t, step.name) if t is not None else None
            return
        if isinstance(step, Index):
            for k in step.key.ev(self.orig, env):
                yield index_value(t, k)
            return
        if isinstance(step, Slice):
            for hi in step.hi.ev(self.orig, env):
                for lo in step.lo.ev(self.orig, env):
                    yield slice_value(t, lo, hi)
            return
        yield from iterate_value(t)

    def pv_on(self, t: Any, tp: Path, env: Env) -> Iterator[tuple[Any, Path]]:
        step = self.step
        if tp is None:
            raise _invalid_iterate(t) if isinstance(step, Iterate) else _invalid_access(t, getattr(step, "name", None))
        if isinstance(step, Field):
            yield (index_value(t, step.name) if t is not None else None), tp + (step.name,)
            return
        if isinstance(step, Index):
            for k in step.key.ev(self.orig, env):
                yield (index_value(t, k) if t is not None else None), tp + (k,)
            return
        if isinstance(step, Slice):
            for hi in step.hi.ev(self.orig, env):
                for lo in step.lo.ev(self.orig, env):
                    yield slice_value(t, lo, hi), tp + ({"start": lo, "end": hi},)
            return
        if type(t) is list:
            for i, x in enumerate(t):
                yield x, tp + (i,)
        elif type(t) is dict:
            for k, x in t.items():
                yield x, tp + (k,)
        else:
            raise JQError(f"Cannot iterate over {describe(t)}")


class Pipe(Node):
    """``A | B``."""

    def __init__(self, a: Node, b: Node):
        self.a = a
        self.b = b
        self.simple = a.simple and b.simple

    def one(self, v, env):
        return self.b.one(self.a.one(v, env), env)

    def ev(self, v, env):
        b = self.b
        if self.a.simple:
            yield from b.ev(self.a.one(v, env), env)
            return
        if b.simple:
            for x in self.a.ev(v, env):
                yield b.one(x, env)
            return
        for x in self.a.ev(v, env):
            yield from b.ev(x, env)

    def pv(self, v, p, env):
        for x, xp in self.a.pv(v, p, env):
            yield from self.b.pv(x, xp, env)


class Comma(Node):
    """``A, B``."""

    def __init__(self, a: Node, b: Node):
        self.a = a
        self.b = b

    def ev(self, v, env):
        yield from self.a.ev(v, env)
        yield from self.b.ev(v, env)

    def pv(self, v, p, env):
        yield from self.a.pv(v, p, env)
        yield from self.b.pv(v, p, env)


class Neg(Node):
    """Unary minus."""

    def __init__(self, e: Node):
        self.e = e
        self.simple = e.simple

    @staticmethod
    def _neg(x: Any) -> Any:
        if type(x) is int or type(x) is float:
            return -x
        raise JQError(f"{describe(x)} cannot be negated")

    def one(self, v, env):
        return self._neg(self.e.one(v, env))

    def ev(self, v, env):
        for x in self.e.ev(v, env):
            yield self._neg(x)


class BinOp(Node):
    """Arithmetic and comparison; the right operand is the outer loop, as in jq."""

    def __init__(self, op: str, a: Node, b: Node):
        self.op = op
        self.a = a
        self.b = b
        self.simple = a.simple and b.simple
        if op == "+":
            self.fn = add_values
        elif op == "==":
            self.fn = lambda x, y: binop_values("==", x, y)
        elif op == "!=":
            self.fn = lambda x, y: binop_values("!=", x, y)
        else:
            self.fn = lambda x, y, _op=op: binop_values(_op, x, y)

    def one(self, v, env):
        x = self.a.one(v, env)
        y = self.b.one(v, env)
        if self.op == "+" and type(x) is str and type(y) is str and len(x) + len(y) < 65536:
            return x + y
        return self.fn(x, y)

    def ev(self, v, env):
        fn = self.fn
        for y in self.b.ev(v, env):
            for x in self.a.ev(v, env):
                yield fn(x, y)


class And(Node):
    """``A and B`` (short-circuit)."""

    def __init__(self, a: Node, b: Node):
        self.a = a
        self.b = b
        self.simple = a.simple and b.simple

    def one(self, v, env):
        return truthy(self.a.one(v, env)) and truthy(self.b.one(v, env))

    def ev(self, v, env):
        for x in self.a.ev(v, env):
            if not truthy(x):
                yield False
                continue
            for y in self.b.ev(v, env):
                yield truthy(y)


class Or(Node):
    """``A or B`` (short-circuit)."""

    def __init__(self, a: Node, b: Node):
        self.a = a
        self.b = b
        self.simple = a.simple and b.simple

    def one(self, v, env):
        return truthy(self.a.one(v, env)) or truthy(self.b.one(v, env))

    def ev(self, v, env):
        for x in self.a.ev(v, env):
            if truthy(x):
                yield True
                continue
            for y in self.b.ev(v, env):
                yield truthy(y)


class Alt(Node):
    """``A // B``: the truthy outputs of A (errors in A suppressed), else B."""

    def __init__(self, a: Node, b: Node):
        self.a = a
        self.b = b

    def ev(self, v, env):
        found = False
        try:
            for x in self.a.ev(v, env):
                if truthy(x):
                    found = True
                    yield x
        except JQError:
            pass
        if not found:
            yield from self.b.ev(v, env)

    def pv(self, v, p, env):
        found = False
        try:
            for x, xp in self.a.pv(v, p, env):
                if truthy(x):
                    found = True
                    yield x, xp
        except JQError:
            pass
        if not found:
            yield from self.b.pv(v, p, env)


class If(Node):
    """``if C then A else B end``."""

    def __init__(self, cond: Node, then: Node, other: Node):
        self.cond = cond
        self.then = then
        self.other = other
        self.simple = cond.simple and then.simple and other.simple

    def one(self, v, env):
        if truthy(self.cond.one(v, env)):
            return self.then.one(v, env)
        return self.other.one(v, env)

    def ev(self, v, env):
        for c in self.cond.ev(v, env):
            if truthy(c):
                yield from self.then.ev(v, env)
            else:
                yield from self.other.ev(v, env)

    def pv(self, v, p, env):
        for c in self.cond.ev(v, env):
            if truthy(c):
                yield from self.then.pv(v, p, env)
            else:
                yield from self.other.pv(v, p, env)


class Try(Node):
    """``try A catch B`` and ``A?``: an error ends A's outputs."""

    def __init__(self, body: Node, handler: Node | None):
        self.body = body
        self.handler = handler

    def ev(self, v, env):
        try:
            for x in self.body.ev(v, env):
                yield x
        except JQError as e:
            if self.handler is not None:
                if isinstance(e.value, dict) and "__jq" in e.value:
                    raise
                yield from self.handler.ev(e.value, env)

    def pv(self, v, p, env):
        try:
            for x in self.body.pv(v, p, env):
                yield x
        except JQError as e:
            if self.handler is not None:
                yield from self.handler.pv(e.value, p, env)


class ArrayNode(Node):
    """``[E]``."""

    def __init__(self, e: Node | None):
        self.e = e
        self.simple = True

    def one(self, v, env):
        if self.e is None:
            return []
        if self.e.simple:
            return [self.e.one(v, env)]
        out = []
        append = out.append
        r = rt()
        n = 0
        for x in self.e.ev(v, env):
            append(x)
            n += 1
            if not n & 63:
                r.tick(64)
                if not n & 4095:
                    check_items(n)
        return out

    def ev(self, v, env):
        yield self.one(v, env)


class ObjectNode(Node):
    """``{k: v, ...}``: cartesian product, first entry (and key before value) outermost."""

    def __init__(self, entries: list[tuple[Node, Node]]):
        self.entries = entries
        self.simple = all(k.simple and val.simple for k, val in entries)

    @staticmethod
    def _key(k: Any) -> str:
        if type(k) is not str:
            raise JQError(f"Cannot use {describe(k)} as object key")
        return k

    def one(self, v, env):
        out = {}
        for k, val in self.entries:
            key = k.one(v, env)
            if type(key) is not str:
                self._key(key)
            out[key] = val.one(v, env)
        return out

    def ev(self, v, env):
        if self.simple:
            yield self.one(v, env)
            return
        yield from self._build(v, env, 0, {})

    def _build(self, v, env, i, acc):
        if i == len(self.entries):
            yield dict(acc)
            return
        k, val = self.entries[i]
        for key in k.ev(v, env):
            if type(key) is not str:
                self._key(key)
            for x in val.ev(v, env):
                acc2 = dict(acc)
                acc2[key] = x
                yield from self._build(v, env, i + 1, acc2)


class Interp(Node):
    """String interpolation; the last interpolated part is the outermost loop."""

    def __init__(self, parts: list[Any], fmt: str | None):
        self.parts = parts
        self.fmt = fmt
        self.simple = all(isinstance(p, str) or p.simple for p in parts)

    def _fmt(self, x: Any) -> str:
        from sandbox.commands.jq.formats import apply_format

        if self.fmt is None:
            return x if type(x) is str else dumps(x)
        return apply_format(self.fmt, x)

    def one(self, v, env):
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
            else:
                out.append(self._fmt(p.one(v, env)))
        s = "".join(out)
        if len(s) > 65536:
            check_str(len(s))
        return s

    def ev(self, v, env):
        if self.simple:
            yield self.one(v, env)
            return
        for pieces in self._gen(v, env, len(self.parts) - 1):
            s = "".join(reversed(pieces))
            check_str(len(s))
            yield s

    def _gen(self, v, env, i):
        if i < 0:
            yield []
            return
        p = self.parts[i]
        if isinstance(p, str):
            for rest in self._gen(v, env, i - 1):
                yield [p] + rest
            return
        for x in p.ev(v, env):
            s = self._fmt(x)
            for rest in self._gen(v, env, i - 1):
                yield [s] + rest


class FormatNode(Node):
    """``@name`` applied to ``.``."""

    simple = True

    def __init__(self, name: str):
        from sandbox.commands.jq.formats import FORMATS

        if name not in FORMATS:
            raise JQSyntaxError(f"{name} is not a valid format")
        self.name = name

    def one(self, v, env):
        from sandbox.commands.jq.formats import apply_format

        return apply_format(self.name, v)

    def ev(self, v, env):
        yield self.one(v, env)


class VarRef(Node):
    """``$name`` (resolved to a binding identity at compile time)."""

    simple = True

    def __init__(self, key: object, name: str):
        self.key = key
        self.name = name

    def one(self, v, env):
        e = env
        key = self.key
        while e is not None:
            if e[0] is key:
                return e[1]
            e = e[2]
        raise JQError(f"${self.name} is not defined")

    def ev(self, v, env):
        yield self.one(v, env)

    def pv(self, v, p, env):
        yield self.one(v, env), None


class ConstVar(Node):
    """A global variable whose value is known when compiling (``$ENV``, ``$ARGS``, ``--arg``)."""

    simple = True

    def __init__(self, value: Any):
        self.value = value

    def one(self, v, env):
        return self.value

    def ev(self, v, env):
        yield self.value


class Reduce(Node):
    """``reduce SRC as $p (INIT; UPDATE)``."""

    def __init__(self, src: Node, binder: "Binder", init: Node, update: Node):
        self.src = src
        self.binder = binder
        self.init = init
        self.update = update
        self.simple = False

    def ev(self, v, env):
        r = rt()
        upd = self.update
        for acc in self.init.ev(v, env):
            for env2 in self.binder.bindings(self.src, v, env):
                r.tick()
                if upd.simple:
                    acc = upd.one(acc, env2)
                    continue
                last = None
                for last in upd.ev(acc, env2):
                    pass
                acc = last
            yield acc

    def pv(self, v, p, env):
        r = rt()
        for acc, accp in self.init.pv(v, p, env):
            for env2 in self.binder.bindings(self.src, v, env):
                r.tick()
                last = (None, accp)
                got = False
                for last in self.update.pv(acc, accp, env2):
                    got = True
                if not got:
                    last = (None, accp)
                acc, accp = last
            yield acc, accp


class Foreach(Node):
    """``foreach SRC as $p (INIT; UPDATE; EXTRACT)``."""

    def __init__(self, src: Node, binder: "Binder", init: Node, update: Node, extract: Node | None):
        self.src = src
        self.binder = binder
        self.init = init
        self.update = update
        self.extract = extract

    def ev(self, v, env):
        r = rt()
        for acc in self.init.ev(v, env):
            for env2 in self.binder.bindings(self.src, v, env):
                r.tick()
                for u in self.update.ev(acc, env2):
                    acc = u
                    if self.extract is None:
                        yield u
                    else:
                        yield from self.extract.ev(u, env2)

    def pv(self, v, p, env):
        r = rt()
        for acc, accp in self.init.pv(v, p, env):
            for env2 in self.binder.bindings(self.src, v, env):
                r.tick()
                for u, up in self.update.pv(acc, accp, env2):
                    acc, accp = u, up
                    if self.extract is None:
                        yield u, up
                    else:
                        yield from self.extract.pv(u, up, env2)


class Binder:
    """Destructuring: the variable keys of one ``as`` (with ``?//`` alternatives)."""

    def __init__(self, patterns: list[Any], all_keys: list[object]):
        self.patterns = patterns  # compiled pattern trees
        self.all_keys = all_keys

    def bindings(self, src: Node, v: Any, env: Env) -> Iterator[Env]:
        """Every environment produced by binding each output of ``src`` (single pattern)."""
        pat = self.patterns[0]
        if pat[0] == "pvar" and len(self.patterns) == 1:
            key = pat[1]
            for x in src.ev(v, env):
                yield (key, x, env)
            return
        for x in src.ev(v, env):
            base = env
            if len(self.patterns) > 1:
                for k in self.all_keys:
                    base = (k, None, base)
            yield from destructure(pat, x, v, base)

    def bind_value(self, pat: Any, x: Any, v: Any, env: Env) -> Iterator[Env]:
        """Bind one value with one pattern."""
        return destructure(pat, x, v, env)


def destructure(pat: Any, x: Any, v: Any, env: Env) -> Iterator[Env]:
    """Bind ``x`` against a compiled pattern; key expressions see input ``v``."""
    kind = pat[0]
    if kind == "pvar":
        yield (pat[1], x, env)
        return
    if kind == "parray":
        if x is not None and type(x) is not list:
            raise JQError(f"Cannot index {type_name(x)} with number")
        yield from _destructure_seq([(i, sub) for i, sub in enumerate(pat[1])], x, v, env, True)
        return
    if kind == "pobj":
        yield from _destructure_obj(pat[1], 0, x, v, env)
        return
    raise JQError("bad pattern")


def _destructure_seq(items, x, v, env, is_array):
    if not items:
        yield env
        return
    (i, sub), rest = items[0], items[1:]
    val = index_value(x, i) if x is not None else None
    for env2 in destructure(sub, val, v, env):
        yield from _destructure_seq(rest, x, v, env2, is_array)


def _destructure_obj(entries, i, x, v, env):
    if i == len(entries):
        yield env
        return
    keynode, sub, varkey = entries[i]
    for k in keynode.ev(v, env):
        if type(k) is not str:
            raise JQError(f"Cannot index {type_name(x)} with {type_name(k)}")
        if x is not None and type(x) is not dict:
            raise JQError(f"Cannot index {type_name(x)} with \"{k}\"")
        val = x.get(k) if x is not None else None
        env2 = env
        if varkey is not None:
            env2 = (varkey, val, env2)
        if sub is not None:
            for env3 in destructure(sub, val, v, env2):
                yield from _destructure_obj(entries, i + 1, x, v, env3)
        else:
            yield from _destructure_obj(entries, i + 1, x, v, env2)


class As(Node):
    """``SRC as PATTERNS | BODY`` (with ``?//`` alternatives)."""

    def __init__(self, src: Node, binder: Binder, body: Node):
        self.src = src
        self.binder = binder
        self.body = body
        pat = binder.patterns[0]
        self.simple = src.simple and body.simple and len(binder.patterns) == 1 and pat[0] == "pvar"

    def one(self, v, env):
        return self.body.one(v, (self.binder.patterns[0][1], self.src.one(v, env), env))

    def ev(self, v, env):
        if len(self.binder.patterns) == 1:
            for env2 in self.binder.bindings(self.src, v, env):
                yield from self.body.ev(v, env2)
            return
        for x in self.src.ev(v, env):
            yield from self._alternatives(x, v, env, False, None)

    def _alternatives(self, x, v, env, paths, p):
        base = env
        for k in self.binder.all_keys:
            base = (k, None, base)
        pats = self.binder.patterns
        for idx, pat in enumerate(pats):
            try:
                for env2 in destructure(pat, x, v, base):
                    if paths:
                        yield from self.body.pv(v, p, env2)
                    else:
                        yield from self.body.ev(v, env2)
                return
            except JQError as e:
                if idx == len(pats) - 1:
                    raise
                continue

    def pv(self, v, p, env):
        if len(self.binder.patterns) == 1:
            for env2 in self.binder.bindings(self.src, v, env):
                yield from self.body.pv(v, p, env2)
            return
        for x in self.src.ev(v, env):
            yield from self._alternatives(x, v, env, True, p)


class Label(Node):
    """``label $name | BODY``."""

    def __init__(self, key: object, body: Node):
        self.key = key
        self.body = body

    def ev(self, v, env):
        token = object()
        try:
            yield from self.body.ev(v, (self.key, token, env))
        except Break as b:
            if b.label is not token:
                raise

    def pv(self, v, p, env):
        token = object()
        try:
            yield from self.body.pv(v, p, (self.key, token, env))
        except Break as b:
            if b.label is not token:
                raise


class BreakNode(Node):
    """``break $name``."""

    def __init__(self, key: object):
        self.key = key

    def ev(self, v, env):
        raise Break(lookup(env, self.key))
        yield

    def pv(self, v, p, env):
        raise Break(lookup(env, self.key))
        yield


class Loc(Node):
    """``$__loc__``."""

    simple = True

    def __init__(self, line: int):
        self.value = {"file": "<top-level>", "line": line}

    def one(self, v, env):
        return dict(self.value)

    def ev(self, v, env):
        yield dict(self.value)


class Closure:
    """A function definition together with the environment it was defined in."""

    __slots__ = ("fdef", "env")

    def __init__(self, fdef: "FuncDef", env: Env):
        self.fdef = fdef
        self.env = env


class FuncDef(Node):
    """``def name(params): body; REST``."""

    def __init__(self, name: str, params: list[str]):
        self.name = name
        self.params = params
        self.key = object()
        self.param_keys: list[object] = [object() for _ in params]
        self.var_keys: list[object | None] = [object() if p.startswith("$") else None for p in params]
        self.body: Node = Identity()
        self.rest: Node = Identity()

    def ev(self, v, env):
        yield from self.rest.ev(v, (self.key, Closure(self, env), env))

    def pv(self, v, p, env):
        yield from self.rest.pv(v, p, (self.key, Closure(self, env), env))


class ParamClosure:
    """A filter argument: the argument's node with the caller's environment."""

    __slots__ = ("node", "env")

    def __init__(self, node: Node, env: Env):
        self.node = node
        self.env = env


def _bind_args(fdef: FuncDef, args: list[Node], caller_env: Env, def_env: Env, v: Any) -> Iterator[Env]:
    """Bind a user function's parameters (``$`` params: cartesian, first parameter outermost)."""
    env = def_env
    value_params = []
    for i, a in enumerate(args):
        env = (fdef.param_keys[i], ParamClosure(a, caller_env), env)
        if fdef.var_keys[i] is not None:
            value_params.append(i)
    if not value_params:
        yield env
        return
    yield from _bind_values(fdef, args, caller_env, env, v, value_params, 0)


def _bind_values(fdef, args, caller_env, env, v, idxs, j):
    if j == len(idxs):
        yield env
        return
    i = idxs[j]
    for x in args[i].ev(v, caller_env):
        env2 = (fdef.var_keys[i], x, (fdef.param_keys[i], ParamClosure(Literal(x), None), env))
        yield from _bind_values(fdef, args, caller_env, env2, v, idxs, j + 1)


class CallLocal(Node):
    """Call of a user-defined function found in the environment."""

    def __init__(self, fdef: FuncDef, args: list[Node]):
        self.fdef = fdef
        self.args = args

    def _closure(self, env) -> Closure:
        return lookup(env, self.fdef.key)

    def ev(self, v, env):
        clo = self._closure(env)
        r = rt()
        r.tick()
        fdef = self.fdef
        base = (fdef.key, clo, clo.env)
        for env2 in _bind_args(fdef, self.args, env, base, v):
            yield from fdef.body.ev(v, env2)

    def pv(self, v, p, env):
        clo = self._closure(env)
        fdef = self.fdef
        base = (fdef.key, clo, clo.env)
        for env2 in _bind_args(fdef, self.args, env, base, v):
            yield from fdef.body.pv(v, p, env2)


class CallParam(Node):
    """Call of a filter parameter (evaluated in its caller's environment)."""

    def __init__(self, key: object):
        self.key = key

    def ev(self, v, env):
        pc = lookup(env, self.key)
        return pc.node.ev(v, pc.env)

    def pv(self, v, p, env):
        pc = lookup(env, self.key)
        return pc.node.pv(v, p, pc.env)


class GlobalDef:
    """A builtin defined in jq (compiled once; its free names are globals or parameters)."""

    def __init__(self, fdef: FuncDef):
        self.fdef = fdef


class CallGlobal(Node):
    """Call of a jq-defined builtin."""

    def __init__(self, g: GlobalDef, args: list[Node]):
        self.g = g
        self.args = args

    def ev(self, v, env):
        fdef = self.g.fdef
        rt().tick()
        for env2 in _bind_args(fdef, self.args, env, None, v):
            yield from fdef.body.ev(v, env2)

    def pv(self, v, p, env):
        fdef = self.g.fdef
        for env2 in _bind_args(fdef, self.args, env, None, v):
            yield from fdef.body.pv(v, p, env2)


class Native:
    """A builtin implemented in Python.

    ``fn(v, env, args)`` iterates outputs; ``one`` (optional) computes the single output when
    every argument is simple; ``paths`` (optional) is the path-mode implementation;
    ``cartesian``: evaluate the arguments to values (last argument outermost, as jq's C
    functions do) and call ``fn(v, *values)`` returning one value.
    """

    def __init__(self, name: str, arity: int, fn: Callable, kind: str = "gen", paths: Callable | None = None):
        self.name = name
        self.arity = arity
        self.fn = fn
        self.kind = kind  # "gen": fn(v, env, args) -> iterator; "val": fn(v, *values) -> value
        self.paths = paths


class CallNative(Node):
    """Call of a Python builtin."""

    def __init__(self, nat: Native, args: list[Node]):
        self.nat = nat
        self.args = args
        self.simple = nat.kind == "val" and all(a.simple for a in args)
        self.fn = nat.fn

    def one(self, v, env):
        try:
            return self.fn(v, *[a.one(v, env) for a in self.args])
        except _PY_ERRORS as e:
            raise JQError(f"{self.nat.name}/{self.nat.arity}: {_py_error_text(e)}")

    def ev(self, v, env):
        nat = self.nat
        if nat.kind == "gen":
            return _guard(nat.fn(v, env, self.args), nat)
        if self.simple:
            return iter((self.one(v, env),))
        return _guard(self._cartesian(v, env), nat)

    def _cartesian(self, v, env):
        args = self.args
        fn = self.fn
        n = len(args)

        def rec(i: int, vals: list):
            if i < 0:
                yield fn(v, *vals)
                return
            for x in args[i].ev(v, env):
                vals[i] = x
                yield from rec(i - 1, vals)

        return rec(n - 1, [None] * n)

    def pv(self, v, p, env):
        if self.nat.paths is not None:
            return self.nat.paths(v, p, env, self.args)
        return Node.pv(self, v, p, env)


_PY_ERRORS = (TypeError, ValueError, OverflowError, IndexError, KeyError, ZeroDivisionError, AttributeError, UnicodeError)


def _py_error_text(e: Exception) -> str:
    """A one-line description of an unexpected Python error (no host paths, no traceback)."""
    if isinstance(e, OverflowError):
        return "number out of range"
    return "invalid argument"


def _guard(it: Iterator[Any], nat: "Native") -> Iterator[Any]:
    """Turn stray Python errors of a native into jq errors."""
    try:
        yield from it
    except _PY_ERRORS as e:
        raise JQError(f"{nat.name}/{nat.arity}: {_py_error_text(e)}")


class Assign(Node):
    """Assignment operators ``= |= += -= *= /= %= //=``."""

    def __init__(self, op: str, lhs: Node, rhs: Node):
        self.op = op
        self.lhs = lhs
        self.rhs = rhs

    def ev(self, v, env):
        op = self.op
        r = rt()
        if op == "=":
            for val in self.rhs.ev(v, env):
                out = v
                for x, path in self.lhs.pv(v, (), env):
                    r.tick()
                    out = setpath_value(out, checked_path(x, path), 0, val)
                yield out
            return
        if op == "|=":
            yield modify(v, self.lhs, env, lambda x: self.rhs.ev(x, env))
            return
        arith = op[:-1]
        for val in self.rhs.ev(v, env):
            if arith == "//":
                yield modify(v, self.lhs, env, lambda x, _val=val: iter((x if truthy(x) else _val,)))
            else:
                yield modify(v, self.lhs, env, lambda x, _val=val: iter((binop_values(arith, x, _val),)))


def modify(v: Any, lhs: Node, env: Env, update: Callable[[Any], Iterator[Any]]) -> Any:
    """``lhs |= update``: first output replaces, no output deletes (deletions applied last)."""
    r = rt()
    dels: list[list] = []
    out = v
    for x, path in lhs.pv(v, (), env):
        r.tick()
        plist = checked_path(x, path)
        cur = getpath_value(out, plist)
        got = False
        for new in update(cur):
            out = setpath_value(out, plist, 0, new)
            got = True
            break
        if not got:
            dels.append(plist)
    if dels:
        out = delpaths_value(out, dels)
    return out
