"""jq's builtin functions: Python natives plus a small prelude written in jq.

``builtin_table()`` returns the name/arity table the compiler resolves calls against; prelude
definitions are compiled on their first lookup, dates and regexes imported on first call. Natives
that take arguments either get the argument nodes (``gen`` kind, for filters such as
``select(f)``) or their values (``val`` kind: cartesian product, last argument outermost, as
jq's C builtins). Refused: ``get_search_list``, ``modulemeta`` and friends (compile error).
"""

from __future__ import annotations

import math
import re
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any, Callable, Iterator

from sandbox.commands.jq import interp as I
from sandbox.commands.jq.errors import Halt, JQError
from sandbox.commands.jq.values import (
    compare,
    describe,
    dumps,
    equal,
    format_number,
    sort_key,
    truthy,
    type_name,
)

_TABLE: dict[tuple[str, int], Any] = {}


class _ImportedOnFirstUse:
    """Stands for a module imported on first attribute access, each attribute then cached.

    Dates and regular expressions cost import time that most programs never use."""

    def __init__(self, module_name: str) -> None:
        self._module_name = module_name

    def __getattr__(self, attr: str) -> Any:
        import importlib

        value = getattr(importlib.import_module(self._module_name), attr)
        setattr(self, attr, value)
        return value


dates: Any = _ImportedOnFirstUse("sandbox.commands.jq.dates")
jqregex: Any = _ImportedOnFirstUse("sandbox.commands.jq.jqregex")


def native(name: str, arity: int = 0, kind: str = "val", paths: Callable | None = None):
    """Register a Python builtin."""

    def deco(fn: Callable) -> Callable:
        _TABLE[(name, arity)] = I.Native(name, arity, fn, kind, paths)
        return fn

    return deco


def _num(v: Any, who: str = "") -> float:
    if type(v) is int or type(v) is float:
        return v
    raise JQError(f"{describe(v)} number required")


# -- core -----------------------------------------------------------------------------------


@native("empty", 0, "gen", paths=lambda v, p, env, args: iter(()))
def _empty(v, env, args):
    return iter(())


@native("not")
def _not(v):
    return not truthy(v)


def _error_gen(v, env, args):
    if not args:
        raise JQError(v)
    for msg in args[0].ev(v, env):
        raise JQError(msg)
    return
    yield


_TABLE[("error", 0)] = I.Native("error", 0, lambda v, env, args: _error_gen(v, env, args), "gen",
                                 paths=lambda v, p, env, args: _error_gen(v, env, args))
_TABLE[("error", 1)] = I.Native("error", 1, lambda v, env, args: _error_gen(v, env, args), "gen",
                                 paths=lambda v, p, env, args: _error_gen(v, env, args))


def _select_ev(v, env, args):
    f = args[0]
    if f.simple:
        if truthy(f.one(v, env)):
            yield v
        return
    for c in f.ev(v, env):
        if truthy(c):
            yield v


def _select_pv(v, p, env, args):
    for c in args[0].ev(v, env):
        if truthy(c):
            yield v, p


_TABLE[("select", 1)] = I.Native("select", 1, _select_ev, "gen", paths=_select_pv)


@native("length")
def _length(v):
    t = type(v)
    if t is str or t is list or t is dict:
        return len(v)
    if v is None:
        return 0
    if t is int or t is float:
        return abs(v)
    raise JQError(f"{describe(v)} has no length")


@native("utf8bytelength")
def _utf8bytelength(v):
    if type(v) is not str:
        raise JQError(f"{describe(v)} only strings have UTF-8 byte length")
    return len(v.encode("utf-8", "surrogatepass"))


@native("type")
def _type(v):
    return type_name(v)


@native("keys")
def _keys(v):
    if type(v) is dict:
        return sorted(v)
    if type(v) is list:
        return list(range(len(v)))
    raise JQError(f"{describe(v)} has no keys")


@native("keys_unsorted")
def _keys_unsorted(v):
    if type(v) is dict:
        return list(v)
    if type(v) is list:
        return list(range(len(v)))
    raise JQError(f"{describe(v)} has no keys")


@native("has", 1)
def _has(v, k):
    if v is None:
        return False
    if type(v) is dict and type(k) is str:
        return k in v
    if type(v) is list and type(k) in (int, float):
        return 0 <= k < len(v)
    raise JQError(f"Cannot check whether {type_name(v)} has a {type_name(k)} key")


def _contains(a: Any, b: Any) -> bool:
    ta, tb = type_name(a), type_name(b)
    if ta != tb:
        raise JQError(f"{describe(a)} and {describe(b)} cannot have their containment checked")
    if ta == "object":
        return all(k in a and _contains(a[k], bv) for k, bv in b.items())
    if ta == "array":
        return all(any(type_name(x) == type_name(y) and _contains(x, y) for x in a) for y in b)
    if ta == "string":
        return b in a
    return equal(a, b)


@native("contains", 1)
@I.deep_guard("Containment check too deep")
def _contains_fn(v, b):
    return _contains(v, b)


@native("inside", 1)
@I.deep_guard("Containment check too deep")
def _inside(v, b):
    return _contains(b, v)


@native("add")
def _add(v):
    if type(v) is dict:
        v = list(v.values())
    elif type(v) is not list:
        raise JQError(f"Cannot iterate over {describe(v)}")
    if not v:
        return None
    acc = v[0]
    if type(acc) is str and all(type(x) is str for x in v):
        s = "".join(v)
        I.check_str(len(s))
        return s
    r = I.rt()
    for x in v[1:]:
        acc = I.add_values(acc, x)
        r.tick()
    return acc


def _add_f(v, env, args):
    acc = None
    r = I.rt()
    for x in args[0].ev(v, env):
        acc = I.add_values(acc, x)
        r.tick()
    yield acc


_TABLE[("add", 1)] = I.Native("add", 1, _add_f, "gen")


@native("tostring")
def _tostring(v):
    if type(v) is str:
        return v
    s = dumps(v)
    I.rt().tick(len(s) >> 8)
    return s


@native("tojson")
def _tojson(v):
    s = dumps(v)
    I.rt().tick(len(s) >> 8)
    I.check_str(len(s))
    return s


from sandbox.commands.jq.jsonparse import parse_number_literal, stream_events  # noqa: E402  (jq 1.8's literal rules, --stream's events)


@native("tonumber")
def _tonumber(v):
    if type(v) is int or type(v) is float:
        return v
    if type(v) is str:
        n = parse_number_literal(v)
        if n is None:
            raise JQError(f"{describe(v)} cannot be parsed as a number")
        return n
    raise JQError(f"{describe(v)} cannot be parsed as a number")


@native("toboolean")
def _toboolean(v):
    if type(v) is bool:
        return v
    if v == "true" and type(v) is str:
        return True
    if v == "false" and type(v) is str:
        return False
    raise JQError(f"{describe(v)} cannot be parsed as a boolean")


@native("fromjson")
def _fromjson(v):
    from sandbox.commands.jq.jsonparse import parse_json_text

    if type(v) is not str:
        raise JQError(f"{describe(v)} only strings can be parsed")
    return parse_json_text(v)


@native("ascii_downcase")
def _ascii_downcase(v):
    if type(v) is not str:
        raise JQError(f"{describe(v)} cannot be ascii_downcased, as it is not a string")
    return v.translate(_DOWN)


@native("ascii_upcase")
def _ascii_upcase(v):
    if type(v) is not str:
        raise JQError(f"{describe(v)} cannot be ascii_upcased, as it is not a string")
    return v.translate(_UP)


_DOWN = {i: i + 32 for i in range(65, 91)}
_UP = {i: i - 32 for i in range(97, 123)}


@native("explode")
def _explode(v):
    if type(v) is not str:
        raise JQError(f"{describe(v)} cannot be exploded, as it is not a string")
    return [ord(c) for c in v]


@native("implode")
def _implode(v):
    if type(v) is not list:
        raise JQError("implode input must be an array")
    out = []
    for c in v:
        if type(c) not in (int, float) or c != c:
            raise JQError(f"{describe(c) if c == c else 'number (null)'} can't be imploded, unicode codepoint needs to be numeric")
        cp = int(c) if not math.isinf(c) else -1
        if cp > 0x10FFFF or cp < 0 or 0xD800 <= cp < 0xE000:
            cp = 0xFFFD
        out.append(chr(cp))
    return "".join(out)


@native("_strindices", 1)
def _strindices(v, i):
    if type(v) is not str:
        raise JQError(f"{describe(v)} cannot be searched, as it is not a string")
    if type(i) is not str:
        raise JQError(f"{describe(i)} is not a string")
    return _str_indices(v, i)


@native("ltrimstr", 1)
def _ltrimstr(v, s):
    if type(v) is not str or type(s) is not str:
        raise JQError("startswith() requires string inputs")
    return v[len(s):] if v.startswith(s) else v


@native("rtrimstr", 1)
def _rtrimstr(v, s):
    if type(v) is not str or type(s) is not str:
        raise JQError("endswith() requires string inputs")
    return v[: len(v) - len(s)] if s and v.endswith(s) else v


@native("trimstr", 1)
def _trimstr(v, s):
    return _rtrimstr(_ltrimstr(v, s), s)


@native("startswith", 1)
def _startswith(v, s):
    if type(v) is not str or type(s) is not str:
        raise JQError("startswith() requires string inputs")
    return v.startswith(s)


@native("endswith", 1)
def _endswith(v, s):
    if type(v) is not str or type(s) is not str:
        raise JQError("endswith() requires string inputs")
    return v.endswith(s)


_WS = " \t\n\r\f\v\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def _trim_check(v):
    if type(v) is not str:
        raise JQError("trim input must be a string")


@native("trim")
def _trim(v):
    _trim_check(v)
    return v.strip(_WS)


@native("ltrim")
def _ltrim(v):
    _trim_check(v)
    return v.lstrip(_WS)


@native("rtrim")
def _rtrim(v):
    _trim_check(v)
    return v.rstrip(_WS)


@native("split", 1)
def _split1(v, sep):
    if type(v) is not str or type(sep) is not str:
        raise JQError("split input and separator must be strings")
    return I.split_string(v, sep)


@native("join", 1)
def _join(v, sep):
    if type(v) is dict:
        v = list(v.values())
    elif type(v) is not list:
        raise JQError(f"Cannot iterate over {describe(v)}")
    if not v:
        return ""
    out: Any = None
    for x in v:
        if out is None:
            out = ""
        else:
            out = I.add_values(out, sep)
        t = type(x)
        if t is bool or t is int or t is float:
            piece = dumps(x)
        elif x is None:
            piece = ""
        else:
            piece = x
        out = I.add_values(out, piece)
    return out


@native("reverse")
def _reverse(v):
    if type(v) is list:
        return v[::-1]
    n = _length(v)
    if not n:
        return []
    raise JQError(f"Cannot index {type_name(v)} with number ({format_number(n - 1)})")


@native("sort")
@I.deep_guard("Comparison too deep")
def _sort(v):
    if type(v) is not list:
        raise JQError(f"{describe(v)} cannot be sorted, as it is not an array")
    I.rt().tick(len(v))
    return sorted(v, key=sort_key)


@native("unique")
@I.deep_guard("Comparison too deep")
def _unique(v):
    if type(v) is not list:
        raise JQError(f"{describe(v)} cannot be sorted, as it is not an array")
    out = []
    prev = object()
    first = True
    for x in sorted(v, key=sort_key):
        if first or compare(x, prev) != 0:
            out.append(x)
        prev = x
        first = False
    return out


@native("min")
@I.deep_guard("Comparison too deep")
def _min(v):
    if type(v) is not list:  # jq 1.8 src/builtin.c minmax_by(values, keys): type_error2
        raise JQError(f"{describe(v)} and {describe(v)} cannot be iterated over")
    if not v:
        return None
    best = v[0]
    for x in v[1:]:
        if compare(x, best) < 0:
            best = x
    return best


@native("max")
@I.deep_guard("Comparison too deep")
def _max(v):
    if type(v) is not list:  # as min: f_max is minmax_by(x, x, 0)
        raise JQError(f"{describe(v)} and {describe(v)} cannot be iterated over")
    if not v:
        return None
    best = v[0]
    for x in v[1:]:
        if compare(x, best) >= 0:
            best = x
    return best


def _keyed(v, env, f, what: str) -> list[tuple[list, Any]]:
    """jq 1.8 src/builtin.jq: ``def sort_by(f): _sort_by_impl(map([f]))`` (and so group_by,
    unique_by, min_by, max_by): ``map`` runs ``[f]`` over the values first (``Cannot iterate
    over T (V)`` for a scalar), then the C ``_impl`` refuses an input that is not an array
    with ``type_error2(input, keys, what)``."""
    if type(v) is not list:
        if type(v) is not dict:
            raise JQError(f"Cannot iterate over {describe(v)}")
        r = I.rt()
        keys = []
        for x in v.values():
            r.tick()
            keys.append(list(f.ev(x, env)))
        raise JQError(f"{describe(v)} and {describe(keys)} {what}")
    r = I.rt()
    out = []
    for x in v:
        r.tick()
        out.append((list(f.ev(x, env)), x))
    return out


_NOT_BOTH = "cannot be sorted, as they are not both arrays"
_NOT_ITER = "cannot be iterated over"


@I.deep_guard("Comparison too deep")
def _sort_by(v, env, args):
    return list(_sort_by_gen(v, env, args))


def _sort_by_gen(v, env, args):
    pairs = _keyed(v, env, args[0], _NOT_BOTH)
    pairs.sort(key=lambda kv: sort_key(kv[0]))
    yield [x for _, x in pairs]


@I.deep_guard("Comparison too deep")
def _group_by(v, env, args):
    return list(_group_by_gen(v, env, args))


def _group_by_gen(v, env, args):
    pairs = _keyed(v, env, args[0], _NOT_BOTH)
    pairs.sort(key=lambda kv: sort_key(kv[0]))
    groups: list[list] = []
    prev: Any = None
    for k, x in pairs:
        if groups and compare(k, prev) == 0:
            groups[-1].append(x)
        else:
            groups.append([x])
        prev = k
    yield groups


def _unique_by(v, env, args):
    for groups in _group_by(v, env, args):
        yield [g[0] for g in groups]


@I.deep_guard("Comparison too deep")
def _min_by(v, env, args):
    return list(_min_by_gen(v, env, args))


def _min_by_gen(v, env, args):
    pairs = _keyed(v, env, args[0], _NOT_ITER)
    if not pairs:
        yield None
        return
    best = pairs[0]
    for kv in pairs[1:]:
        if compare(kv[0], best[0]) < 0:
            best = kv
    yield best[1]


@I.deep_guard("Comparison too deep")
def _max_by(v, env, args):
    return list(_max_by_gen(v, env, args))


def _max_by_gen(v, env, args):
    pairs = _keyed(v, env, args[0], _NOT_ITER)
    if not pairs:
        yield None
        return
    best = pairs[0]
    for kv in pairs[1:]:
        if compare(kv[0], best[0]) >= 0:
            best = kv
    yield best[1]


for _n, _f in (("sort_by", _sort_by), ("group_by", _group_by), ("unique_by", _unique_by), ("min_by", _min_by), ("max_by", _max_by)):
    _TABLE[(_n, 1)] = I.Native(_n, 1, _f, "gen")


def _flatten(v: Any, depth: float) -> list:
    if depth < 0:
        raise JQError("flatten depth must not be negative")
    if type(v) is dict:
        v = list(v.values())
    elif type(v) is not list:
        raise JQError(f"Cannot iterate over {describe(v)}")
    out: list = []
    stack = [(iter(v), depth)]
    while stack:
        it, d = stack[-1]
        for x in it:
            if type(x) is list and d != 0:
                stack.append((iter(x), d - 1))
                break
            out.append(x)
        else:
            stack.pop()
    return out


@native("flatten")
def _flatten0(v):
    return _flatten(v, 1e18)


@native("flatten", 1)
def _flatten1(v, d):
    return _flatten(v, _num(d))


@native("to_entries")
def _to_entries(v):
    if type(v) is dict:
        return [{"key": k, "value": x} for k, x in v.items()]
    if type(v) is list:
        return [{"key": i, "value": x} for i, x in enumerate(v)]
    raise JQError(f"{describe(v)} has no keys")


@native("tostream", 0, "gen")
def _tostream(v, env, args):
    return stream_events(v, [])


def _fromstream(v, env, args):
    x: Any = None
    emit = False
    have = False
    for ev in args[0].ev(v, env):
        if emit:
            x, emit, have = None, False, False
        if type(ev) is not list or not ev or type(ev[0]) is not list:
            raise JQError("Invalid path expression")
        if len(ev) == 2:
            if len(ev[0]) == 0:
                emit = True
            x = I.setpath_value(x, ev[0], 0, ev[1])
            have = True
        else:
            if len(ev[0]) == 1:
                emit = True
        if emit:
            yield x


_TABLE[("fromstream", 1)] = I.Native("fromstream", 1, _fromstream, "gen")


@native("transpose")
def _transpose(v):
    if type(v) is dict:
        v = list(v.values())
    if type(v) is not list:
        raise JQError(f"Cannot iterate over {describe(v)}")
    n = 0
    for row in v:
        n = max(n, _length(row))
    return [[I.index_value(row, i) for row in v] for i in range(n)]


@native("abs")
def _abs(v):
    if type(v) is int or type(v) is float:
        return -v if v < 0 else v
    if compare(v, 0) < 0:
        raise JQError(f"{describe(v)} cannot be negated")
    return v


@native("indices", 1)
def _indices(v, i):
    # jq 1.8 src/builtin.jq: def indices($i): if type == "array" and ($i|type) == "array"
    # then .[$i] elif type == "array" then .[[$i]] elif type == "string" and ($i|type) ==
    # "string" then _strindices($i) else .[$i] end;
    if type(v) is list:
        return I.indices_of(v, i if type(i) is list else [i])
    if type(v) is str and type(i) is str:
        return _str_indices(v, i)
    return I.index_value(v, i)


def _str_indices(v: str, i: str) -> list:
    """jq 1.8 src/jv.c ``_jq_memmem`` loop of ``jv_string_indexes``: an empty needle is
    found nowhere (``[]``); the search goes on one byte after each hit, so hits overlap."""
    out: list = []
    if not i:
        return out
    r = I.rt()
    start = v.find(i)
    while start != -1:
        r.tick()
        out.append(start)
        start = v.find(i, start + 1)
    return out


@native("index", 1)
def _index(v, i):
    return I.index_value(_indices(v, i), 0)


@native("rindex", 1)
def _rindex(v, i):
    return I.index_value(I.slice_value(_indices(v, i), -1, None), 0)


@native("splits", 1, "gen")
def _splits1(v, env, args):
    for re_ in args[0].ev(v, env):
        yield from _split_re(v, re_, None)


def _split_re(v, regex, flags):
    if type(v) is not str:
        raise JQError(f"{describe(v)} cannot be matched, as it is not a string")
    prev = 0
    for m in jqregex.iter_matches(v, regex, flags, force_global=True):
        yield v[prev : m.start()]
        prev = m.end()
    yield v[prev:]


def _splits2(v, env, args):
    for flags in args[1].ev(v, env):
        for re_ in args[0].ev(v, env):
            yield from _split_re(v, re_, flags)


_TABLE[("splits", 2)] = I.Native("splits", 2, _splits2, "gen")


@native("split", 2)
def _split2(v, regex, flags):
    return list(_split_re(v, regex, flags))


def _re_args(val: Any) -> tuple[Any, Any]:
    t = type(val)
    if t is str:
        return val, None
    if t is list and len(val) > 1:
        return val[0], val[1]
    if t is list and len(val) > 0:
        return val[0], None
    raise JQError(f"{type_name(val)} not a string or array")


@native("test", 1)
def _test1(v, val):
    r, f = _re_args(val)
    return jqregex.match_list(v, r, f, test_only=True)


@native("test", 2)
def _test2(v, r, f):
    return jqregex.match_list(v, r, f, test_only=True)


@native("_match_impl", 3)
def _match_impl(v, r, f, t):
    return jqregex.match_list(v, r, f, test_only=truthy(t))


def _match_gen(v, env, args):
    if len(args) == 1:
        for val in args[0].ev(v, env):
            r, f = _re_args(val)
            yield from jqregex.match_list(v, r, f)
        return
    for f in args[1].ev(v, env):
        for r in args[0].ev(v, env):
            yield from jqregex.match_list(v, r, f)


_TABLE[("match", 1)] = I.Native("match", 1, _match_gen, "gen")
_TABLE[("match", 2)] = I.Native("match", 2, _match_gen, "gen")


def _capture_obj(m: dict) -> dict:
    out = {}
    for c in m["captures"]:
        if c["name"] is not None:
            out[c["name"]] = c["string"]
    return out


def _capture_gen(v, env, args):
    for m in _match_gen(v, env, args):
        yield _capture_obj(m)


_TABLE[("capture", 1)] = I.Native("capture", 1, _capture_gen, "gen")
_TABLE[("capture", 2)] = I.Native("capture", 2, _capture_gen, "gen")


def _scan_gen(v, env, args):
    flag_iter = args[1].ev(v, env) if len(args) > 1 else iter((None,))
    for f in flag_iter:
        for r in args[0].ev(v, env):
            fl = "g" + (f if type(f) is str else "") if f is None or type(f) is str else f
            if f is not None and type(f) is not str:
                raise JQError(f"{describe(f)} is not a string")
            for m in jqregex.match_list(v, r, fl):
                if m["captures"]:
                    yield [c["string"] for c in m["captures"]]
                else:
                    yield m["string"]


_TABLE[("scan", 1)] = I.Native("scan", 1, _scan_gen, "gen")
_TABLE[("scan", 2)] = I.Native("scan", 2, _scan_gen, "gen")


def _sub_gen(v, env, args, global_: bool):
    flag_iter = args[2].ev(v, env) if len(args) > 2 else iter(("",))
    for flags in flag_iter:
        if type(flags) is not str:
            raise JQError(f"{describe(flags)} is not a string")
        fl = flags + ("g" if global_ else "")
        for regex in args[0].ev(v, env):
            yield from _sub_one(v, env, regex, args[1], fl)


def _sub_one(v, env, regex, repl, flags):
    if type(v) is not str:
        raise JQError(f"{describe(v)} cannot be matched, as it is not a string")
    results: list[Any] = []
    prev = 0
    matched = False
    compiled = jqregex.compile_regex(regex, jqregex._check_args(v, regex, flags))[0]
    names = jqregex._names(compiled)
    for m in jqregex.iter_matches(v, regex, flags):
        matched = True
        gap = v[prev : m.start()]
        capobj = {}
        for g in range(1, compiled.groups + 1):
            if g in names:
                capobj[names[g]] = m.group(g)
        inserts = list(repl.ev(capobj, env))
        for ix, ins in enumerate(inserts):
            if type(ins) is not str:
                raise JQError(f"{describe(gap)} and {describe(ins)} cannot be added")
            if ix < len(results):
                results[ix] = I.add_values(results[ix], gap + ins)
            else:
                results.append(gap + ins)
        prev = m.end()
    if not matched:
        yield v
        return
    tail = v[prev:]
    emitted = False
    for r in results:
        out = I.add_values(r, tail)
        if truthy(out):
            emitted = True
            yield out
    if not emitted:
        yield v


_TABLE[("sub", 2)] = I.Native("sub", 2, lambda v, env, args: _sub_gen(v, env, args, False), "gen")
_TABLE[("sub", 3)] = I.Native("sub", 3, lambda v, env, args: _sub_gen(v, env, args, False), "gen")
_TABLE[("gsub", 2)] = I.Native("gsub", 2, lambda v, env, args: _sub_gen(v, env, args, True), "gen")
_TABLE[("gsub", 3)] = I.Native("gsub", 3, lambda v, env, args: _sub_gen(v, env, args, True), "gen")


# -- paths ----------------------------------------------------------------------------------


def _path_gen(v, env, args):
    for x, p in args[0].pv(v, (), env):
        yield I.checked_path(x, p)


_TABLE[("path", 1)] = I.Native("path", 1, _path_gen, "gen")


def _getpath_ev(v, env, args):
    for p in args[0].ev(v, env):
        try:
            yield I.getpath_value(v, p)
        except JQError:
            if type(p) is not list:
                raise
            raise


def _getpath_pv(v, p, env, args):
    if p is None:
        raise I._invalid_path(v)
    for path in args[0].ev(v, env):
        if type(path) is not list:
            raise JQError("Path must be specified as an array")
        try:
            val = I.getpath_value(v, path)
        except JQError:
            val = None
        yield val, p + tuple(path)


_TABLE[("getpath", 1)] = I.Native("getpath", 1, _getpath_ev, "gen", paths=_getpath_pv)


@native("setpath", 2)
def _setpath(v, p, x):
    if type(p) is not list:
        raise JQError("Path must be specified as an array")
    return I.setpath_value(v, p, 0, x)


@native("delpaths", 1)
def _delpaths(v, ps):
    return I.delpaths_value(v, ps)


def _paths0(v, env, args):
    for _, p in I.RecurseDefault().pv(v, (), env):
        if p:
            yield list(p)


_TABLE[("paths", 0)] = I.Native("paths", 0, _paths0, "gen")


def _paths1(v, env, args):
    f = args[0]
    for x, p in I.RecurseDefault().pv(v, (), env):
        for c in f.ev(x, env):
            if truthy(c) and p:
                yield list(p)


_TABLE[("paths", 1)] = I.Native("paths", 1, _paths1, "gen")


def _recurse_ev(v, env, args):
    f = args[0]
    r = I.rt()
    stack: list[Iterator] = [iter((v,))]
    while stack:
        try:
            x = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        r.tick()
        yield x
        stack.append(iter(f.ev(x, env)))


def _recurse_pv(v, p, env, args):
    f = args[0]
    r = I.rt()
    stack: list[Iterator] = [iter(((v, p),))]
    while stack:
        try:
            x, xp = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        r.tick()
        if xp is None:
            raise I._invalid_iterate(x)
        yield x, xp
        stack.append(iter(f.pv(x, xp, env)))


_TABLE[("recurse", 1)] = I.Native("recurse", 1, _recurse_ev, "gen", paths=_recurse_pv)
_TABLE[("recurse", 0)] = I.Native(
    "recurse", 0, lambda v, env, args: I.RecurseDefault().ev(v, env), "gen",
    paths=lambda v, p, env, args: I.RecurseDefault().pv(v, p, env),
)


def _recurse2_ev(v, env, args):
    f, cond = args
    r = I.rt()
    stack: list[Iterator] = [iter((v,))]
    while stack:
        try:
            x = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        r.tick()
        yield x
        stack.append(y for y in f.ev(x, env) if any(truthy(c) for c in cond.ev(y, env)))


_TABLE[("recurse", 2)] = I.Native("recurse", 2, _recurse2_ev, "gen")


# -- generators and control -------------------------------------------------------------------


def _range_gen(v, env, args):
    r = I.rt()
    if len(args) == 1:
        for n in args[0].ev(v, env):
            _num(n)
            i: Any = 0
            while i < n:
                r.tick()
                yield i
                i += 1
        return
    if len(args) == 2:
        for lo in args[0].ev(v, env):
            for hi in args[1].ev(v, env):
                _num(lo)
                _num(hi)
                i = lo
                while i < hi:
                    r.tick()
                    yield i
                    i += 1
        return
    for lo in args[0].ev(v, env):
        for hi in args[1].ev(v, env):
            for by in args[2].ev(v, env):
                _num(lo), _num(hi), _num(by)
                i = lo
                if by > 0:
                    while i < hi:
                        r.tick()
                        yield i
                        i += by
                elif by < 0:
                    while i > hi:
                        r.tick()
                        yield i
                        i += by
                else:
                    if lo < hi:
                        while True:
                            r.tick()
                            yield i


for _a in (1, 2, 3):
    _TABLE[("range", _a)] = I.Native("range", _a, _range_gen, "gen")


def _limit_ev(v, env, args):
    for n in args[0].ev(v, env):
        if type(n) not in (int, float):
            raise JQError("Invalid limit: must be a number")
        if n < 0:
            raise JQError("limit doesn't support negative count")
        if n == 0:
            continue
        count = 0
        for x in args[1].ev(v, env):
            yield x
            count += 1
            if count >= n:
                break


def _limit_pv(v, p, env, args):
    for n in args[0].ev(v, env):
        if n < 0:
            raise JQError("limit doesn't support negative count")
        if n == 0:
            continue
        count = 0
        for x in args[1].pv(v, p, env):
            yield x
            count += 1
            if count >= n:
                break


_TABLE[("limit", 2)] = I.Native("limit", 2, _limit_ev, "gen", paths=_limit_pv)


def _skip_ev(v, env, args):
    for n in args[0].ev(v, env):
        if n < 0:
            raise JQError("skip doesn't support negative count")
        count = 0
        for x in args[1].ev(v, env):
            if count >= n:
                yield x
            count += 1


_TABLE[("skip", 2)] = I.Native("skip", 2, _skip_ev, "gen")


def _first_ev(v, env, args):
    for x in args[0].ev(v, env):
        yield x
        return


def _first_pv(v, p, env, args):
    for x in args[0].pv(v, p, env):
        yield x
        return


_TABLE[("first", 1)] = I.Native("first", 1, _first_ev, "gen", paths=_first_pv)


def _last_ev(v, env, args):
    last = _NONE = object()
    r = I.rt()
    for last in args[0].ev(v, env):
        r.tick()
    if last is not _NONE:
        yield last


def _last_pv(v, p, env, args):
    last = None
    for last in args[0].pv(v, p, env):
        pass
    if last is not None:
        yield last


_TABLE[("last", 1)] = I.Native("last", 1, _last_ev, "gen", paths=_last_pv)


def _nth_ev(v, env, args):
    for n in args[0].ev(v, env):
        if type(n) not in (int, float):
            raise JQError("nth/2: n must be a number")
        if n < 0:
            raise JQError("nth doesn't support negative indices")
        count = 0
        for x in args[1].ev(v, env):
            if count >= n:
                yield x
                break
            count += 1


_TABLE[("nth", 2)] = I.Native("nth", 2, _nth_ev, "gen")


def _until_ev(v, env, args):
    cond, nxt = args
    r = I.rt()
    stack: list[Iterator] = [iter((v,))]
    while stack:
        try:
            x = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        r.tick()
        for c in cond.ev(x, env):
            if truthy(c):
                yield x
            else:
                stack.append(iter(nxt.ev(x, env)))
                break


_TABLE[("until", 2)] = I.Native("until", 2, _until_ev, "gen")


def _while_ev(v, env, args):
    cond, update = args
    r = I.rt()
    stack: list[Iterator] = [iter((v,))]
    while stack:
        try:
            x = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        r.tick()
        for c in cond.ev(x, env):
            if truthy(c):
                yield x
                stack.append(iter(update.ev(x, env)))
            break


_TABLE[("while", 2)] = I.Native("while", 2, _while_ev, "gen")


def _repeat_ev(v, env, args):
    r = I.rt()
    f = args[0]
    while True:
        r.tick()
        yield from f.ev(v, env)


_TABLE[("repeat", 1)] = I.Native("repeat", 1, _repeat_ev, "gen")


def _isempty(v, env, args):
    for _ in args[0].ev(v, env):
        yield False
        return
    yield True


_TABLE[("isempty", 1)] = I.Native("isempty", 1, _isempty, "gen")


def _any_all(is_any: bool, arity: int):
    def gen(v, env, args):
        if arity == 2:
            src = args[0].ev(v, env)
            cond = args[1]
        else:
            src = I.iterate_value(v)
            cond = args[0] if arity == 1 else None
        for x in src:
            if cond is None:
                outs = (x,)
            else:
                outs = cond.ev(x, env)
            for c in outs:
                if truthy(c) == is_any:
                    yield is_any
                    return
        yield not is_any

    return gen


for _a in (0, 1, 2):
    _TABLE[("any", _a)] = I.Native("any", _a, _any_all(True, _a), "gen")
    _TABLE[("all", _a)] = I.Native("all", _a, _any_all(False, _a), "gen")


def _map_ev(v, env, args):
    f = args[0]
    out = []
    if f.simple:
        r = I.rt()
        for x in I.iterate_value(v):
            out.append(f.one(x, env))
            r.tick()
    else:
        for x in I.iterate_value(v):
            out.extend(f.ev(x, env))
            if len(out) > 65536:
                I.check_items(len(out))
    yield out


_TABLE[("map", 1)] = I.Native("map", 1, _map_ev, "gen")


def _walk_ev(v, env, args):
    f = args[0]

    def w(x):
        t = type(x)
        if t is dict:
            new = {}
            for k, val in x.items():
                for out in w(val):
                    new[k] = out
                    break
            x = new
        elif t is list:
            new_list = []
            for item in x:
                new_list.extend(w(item))
            x = new_list
        return f.ev(x, env)

    return w(v)


_TABLE[("walk", 1)] = I.Native("walk", 1, _walk_ev, "gen")


# -- I/O and environment ------------------------------------------------------------------------


def _input(v, env, args):
    r = I.rt()
    if r.next_input is None:
        raise JQError("No more inputs")
    yield r.next_input()


_TABLE[("input", 0)] = I.Native("input", 0, _input, "gen")


def _inputs(v, env, args):
    r = I.rt()
    while True:
        if r.next_input is None:
            return
        try:
            x = r.next_input()
        except JQError as e:
            if e.value == "No more inputs":
                return
            raise
        yield x


_TABLE[("inputs", 0)] = I.Native("inputs", 0, _inputs, "gen")


def _debug0(v, env, args):
    I.rt().stderr(('["DEBUG:",' + dumps(v) + "]\n").encode("utf-8", "surrogatepass"))
    yield v


def _debug1(v, env, args):
    for m in args[0].ev(v, env):
        I.rt().stderr(('["DEBUG:",' + dumps(m) + "]\n").encode("utf-8", "surrogatepass"))
    yield v


_TABLE[("debug", 0)] = I.Native("debug", 0, _debug0, "gen")
_TABLE[("debug", 1)] = I.Native("debug", 1, _debug1, "gen")


def _stderr(v, env, args):
    I.rt().stderr(dumps(v).encode("utf-8", "surrogatepass"))
    yield v


_TABLE[("stderr", 0)] = I.Native("stderr", 0, _stderr, "gen")


@native("input_filename")
def _input_filename(v):
    return I.rt().filename_source()


@native("input_line_number")
def _input_line_number(v):
    return I.rt().line_source()


@native("env")
def _env(v):
    return dict(I.rt().env)



@native("halt")
def _halt(v):
    raise Halt(0, None)


def _halt_error_msg(v: Any) -> bytes | None:
    if v is None:
        return None
    if type(v) is str:
        return v.encode("utf-8", "surrogatepass")
    return (dumps(v) + "\n").encode("utf-8", "surrogatepass")


@native("halt_error")
def _halt_error0(v):
    raise Halt(5, _halt_error_msg(v))


@native("halt_error", 1)
def _halt_error1(v, code):
    if type(code) not in (int, float):
        raise JQError("halt_error/1: number required")
    raise Halt(int(code), _halt_error_msg(v))


@native("now")
def _now(v):
    return time.time()


@native("mktime")
def _mktime(v):
    return dates.mktime(v)


@native("gmtime")
def _gmtime(v):
    return dates.gmtime(v)


@native("localtime")
def _localtime(v):
    return dates.localtime(v)


@native("strftime", 1)
def _strftime(v, fmt):
    return dates.strftime(v, fmt)


@native("strflocaltime", 1)
def _strflocaltime(v, fmt):
    return dates.strftime(v, fmt, "strflocaltime/1")


@native("strptime", 1)
def _strptime(v, fmt):
    return dates.strptime(v, fmt)


@native("todate")
def _todate(v):
    return dates.strftime(v, "%Y-%m-%dT%H:%M:%SZ")


@native("todateiso8601")
def _todateiso(v):
    return dates.strftime(v, "%Y-%m-%dT%H:%M:%SZ")


@native("fromdateiso8601")
def _fromdateiso(v):
    return dates.mktime(dates.strptime(v, "%Y-%m-%dT%H:%M:%SZ"))


@native("fromdate")
def _fromdate(v):
    return dates.mktime(dates.strptime(v, "%Y-%m-%dT%H:%M:%SZ"))


@native("format", 1)
def _format(v, name):
    if type(name) is not str:
        raise JQError(f"{describe(name)} is not a valid format")
    from sandbox.commands.jq.formats import apply_format

    return apply_format(name, v)


@native("have_decnum")
def _have_decnum(v):
    return True


@native("have_literal_numbers")
def _have_literal_numbers(v):
    return True


@native("infinite")
def _infinite(v):
    return math.inf


@native("nan")
def _nan(v):
    return math.nan


@native("isinfinite")
def _isinfinite(v):
    return type(v) is float and math.isinf(v)


@native("isnan")
def _isnan(v):
    return type(v) is float and v != v


@native("isnormal")
def _isnormal(v):
    if type(v) is not int and type(v) is not float:
        return False
    x = v
    return not (x != x or math.isinf(x) or x == 0 or abs(x) < sys.float_info.min)





@native("bsearch", 1)
@I.deep_guard("Comparison too deep")
def _bsearch(v, target):
    if type(v) is not list:
        raise JQError(f"{describe(v)} cannot be searched from")
    lo, hi = 0, len(v) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        c = compare(v[mid], target)
        if c == 0:
            return mid
        if c < 0:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1 - lo


@native("builtins")
def _builtins(v):
    return [f"{n}/{a}" for (n, a) in builtin_table() if not n.startswith("_")]


@native("significand")
def _significand(v):
    x = float(_num(v))
    if x == 0 or math.isinf(x) or x != x:
        return x
    m, e = math.frexp(x)
    return m * 2


@native("logb")
def _logb(v):
    x = float(_num(v))
    if x == 0:
        return -math.inf
    if math.isinf(x):
        return math.inf
    return float(math.frexp(x)[1] - 1)


@native("gamma")
def _gamma(v):
    return math.lgamma(_num(v))


@native("lgamma")
def _lgamma(v):
    return math.lgamma(_num(v))


@native("tgamma")
def _tgamma(v):
    try:
        return math.gamma(_num(v))
    except (ValueError, OverflowError):
        return math.inf


@native("lgamma_r")
def _lgamma_r(v):
    x = _num(v)
    g = math.lgamma(x)
    sign = 1.0
    if x < 0 and math.floor(x) != x and int(math.floor(x)) % 2 == 0:
        sign = -1.0
    return [g, sign]


@native("frexp")
def _frexp(v):
    m, e = math.frexp(_num(v))
    return [m, e]


@native("modf")
def _modf(v):
    x = float(_num(v))
    if math.isinf(x):
        return [0.0 * (1 if x > 0 else -1), x]
    f, i = math.modf(x)
    return [f, i]


@native("ldexp", 2)
def _ldexp(v, a, b):
    return math.ldexp(_num(a), int(_num(b)))


@native("scalb", 2)
def _scalb(v, a, b):
    return _num(a) * 2.0 ** _num(b)


@native("scalbln", 2)
def _scalbln(v, a, b):
    return math.ldexp(_num(a), int(_num(b)))


@native("nearbyint")
def _nearbyint(v):
    return float(round(_num(v)))


@native("rint")
def _rint(v):
    return float(round(_num(v)))


@native("trunc")
def _trunc(v):
    x = _num(v)
    if type(x) is int:
        return x
    if math.isinf(x) or x != x:
        return x
    return float(math.trunc(x))


@native("round")
def _round(v):
    x = _num(v)
    if type(x) is int:
        return x
    if math.isinf(x) or x != x:
        return x
    return float(math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1))


@native("ceil")
def _ceil(v):
    x = _num(v)
    if type(x) is int or math.isinf(x) or x != x:
        return x
    return float(math.ceil(x))


@native("floor")
def _floor(v):
    x = _num(v)
    if type(x) is int or math.isinf(x) or x != x:
        return x
    return float(math.floor(x))


@native("fabs")
def _fabs(v):
    return abs(_num(v))


@native("sqrt")
def _sqrt(v):
    x = _num(v)
    if x < 0:
        return math.nan
    return math.sqrt(x)


def _math1(name: str, fn: Callable[[float], float]) -> None:
    def impl(v):
        x = _num(v)
        try:
            return fn(x)
        except (ValueError, ZeroDivisionError):
            return math.nan
        except OverflowError:
            return math.inf

    _TABLE[(name, 0)] = I.Native(name, 0, impl, "val")


def _log(x: float) -> float:
    if x == 0:
        return -math.inf
    if x < 0:
        return math.nan
    return math.log(x)


def _log10(x: float) -> float:
    if x == 0:
        return -math.inf
    if x < 0:
        return math.nan
    return math.log10(x)


def _log2(x: float) -> float:
    if x == 0:
        return -math.inf
    if x < 0:
        return math.nan
    return math.log2(x)


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


for _name, _fn in {
    "acos": math.acos, "acosh": math.acosh, "asin": math.asin, "asinh": math.asinh, "atan": math.atan,
    "atanh": math.atanh, "cbrt": lambda x: math.copysign(abs(x) ** (1.0 / 3), x), "cos": math.cos,
    "cosh": math.cosh, "exp": _exp, "exp10": lambda x: 10.0 ** x, "exp2": lambda x: 2.0 ** x,
    "expm1": math.expm1, "log": _log, "log10": _log10, "log1p": math.log1p, "log2": _log2,
    "sin": math.sin, "sinh": math.sinh, "tan": math.tan, "tanh": math.tanh,
    "j0": lambda x: _bessel(0, x), "j1": lambda x: _bessel(1, x), "y0": lambda x: _bessel_y(0, x), "y1": lambda x: _bessel_y(1, x),
    "erf": math.erf, "erfc": math.erfc,
}.items():
    _math1(_name, _fn)


def _bessel(n: int, x: float) -> float:
    # series expansion; adequate for the sandbox
    total = 0.0
    for k in range(60):
        total += (-1) ** k / (math.factorial(k) * math.factorial(k + n)) * (x / 2) ** (2 * k + n)
    return total


def _bessel_y(n: int, x: float) -> float:
    raise ValueError("unsupported")


def _math2(name: str, fn: Callable[[float, float], float]) -> None:
    def impl(v, a, b):
        x, y = _num(a), _num(b)
        try:
            return fn(x, y)
        except (ValueError, ZeroDivisionError):
            return math.nan
        except OverflowError:
            return math.inf

    _TABLE[(name, 2)] = I.Native(name, 2, impl, "val")


def _pow(x: float, y: float) -> float:
    try:
        r = math.pow(x, y)
    except ZeroDivisionError:
        return math.inf
    except ValueError:
        return math.nan
    return r


def _fmod(x, y):
    if y == 0:
        return math.nan
    return math.fmod(x, y)


def _drem(x, y):
    if y == 0:
        return math.nan
    return math.remainder(x, y)


for _name, _fn in {
    "pow": _pow, "atan2": math.atan2, "fmod": _fmod, "copysign": math.copysign, "drem": _drem,
    "remainder": _drem, "fdim": lambda x, y: x - y if x > y else 0.0, "fmax": lambda x, y: max(x, y),
    "fmin": lambda x, y: min(x, y), "hypot": math.hypot, "nextafter": math.nextafter,
    "nexttoward": math.nextafter,
}.items():
    _math2(_name, _fn)


@native("fma", 3)
def _fma(v, a, b, c):
    return _num(a) * _num(b) + _num(c)








# -- the jq prelude ----------------------------------------------------------------------------

PRELUDE = r"""
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type | . == "array" or . == "object");
def scalars: select(type | . != "array" and . != "object");
def isfinite: type == "number" and (isinfinite | not);
def normals: select(isnormal);
def finites: select(isfinite);
def map_values(f): .[] |= f;
def del(f): delpaths([path(f)]);
def from_entries: reduce .[] as $x ({}; . + { ($x | .key // .Key // .name // .Name):
    ($x | if has("value") then .value else .Value end) });
def with_entries(f): to_entries | map(f) | from_entries;
def in(xs): . as $x | xs | has($x);
def combinations:
    if length == 0 then [] else
        .[0][] as $x
          | (.[1:] | combinations) as $y
          | [$x] + $y
    end;
def combinations(n): . as $dot | [range(n) | $dot] | combinations;
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def pick(pathexps): . as $top
  | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def truncate_stream(stream): . as $n | null | stream | . as $input
  | if (.[0] | length) > $n then setpath([0]; $input[0][$n:]) else empty end;
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def get_prog_origin: null;
def get_jq_origin: null;
"""


_PRELUDE_HEAD = re.compile(r"def ([A-Za-z_][A-Za-z_0-9]*)(?:\(([^)]*)\))?:")
_prelude_sources: dict[tuple[str, int], str] | None = None  # each definition's text, by key
_prelude_defs: dict[tuple[str, int], Any] = {}  # definitions compiled completely, readable by all
_prelude_pending: dict[tuple[str, int], Any] = {}  # being compiled by the thread holding the lock
_prelude_lock = threading.RLock()  # pipeline stages run in threads; compiling may recurse


def _split_prelude() -> dict[tuple[str, int], str]:
    """Cut ``PRELUDE`` into its definitions (each starts a line with ``def``), keyed by name/arity."""
    sources: dict[tuple[str, int], str] = {}
    for chunk in re.split(r"^(?=def )", PRELUDE, flags=re.M):
        head = _PRELUDE_HEAD.match(chunk)
        if head is None:
            continue
        params = head.group(2)
        arity = 0 if params is None else params.count(";") + 1
        sources[(head.group(1), arity)] = chunk
    return sources


def _prelude_def(key: tuple[str, int]) -> Any:
    """The prelude definition ``key`` compiled (on first use), or None when the prelude has none.

    Only what a program references gets parsed and compiled, so a cold ``jq .`` pays nothing
    for the prelude. Names in a body resolve as they did when the prelude was compiled whole.
    Definitions (with those they pulled in) become visible to other threads only once every
    body is compiled: an unfinished one would run as the identity."""
    found = _prelude_defs.get(key)
    if found is not None:
        return found
    with _prelude_lock:
        found = _prelude_defs.get(key) or _prelude_pending.get(key)
        if found is not None:
            return found
        text = _prelude_keys().get(key)
        if text is None:
            return None
        outermost = not _prelude_pending
        try:
            found = _compile_prelude_def(key, text)
        except BaseException:
            if outermost:
                _prelude_pending.clear()
            raise
        if outermost:
            _prelude_defs.update(_prelude_pending)
            _prelude_pending.clear()
        return found


def _compile_prelude_def(key: tuple[str, int], text: str) -> Any:
    """Parse and compile one prelude definition; registers it in ``_prelude_pending`` first so
    that its body (and the bodies it pulls in) can call it."""
    from sandbox.commands.jq.compiler import Compiler, Globals
    from sandbox.commands.jq.parser import Lexer, Parser

    _, name, params, body = Parser(Lexer(text + " .").tokens(), text).parse_def()
    fdef = I.FuncDef(name, params)
    found = I.GlobalDef(fdef)
    _prelude_pending[key] = found
    inner = None
    for i, p in enumerate(params):
        pname = p[1:] if p.startswith("$") else p
        inner = (("param", pname, 0, fdef.param_keys[i]), inner)
        if p.startswith("$"):
            inner = (("var", pname, 0, fdef.var_keys[i]), inner)
    fdef.body = Compiler(Globals(_BUILTINS, {})).compile(body, inner)
    return found


class BuiltinTable(Mapping):
    """Every builtin by (name, arity): the Python natives, and the jq-defined prelude (which
    wins over a native of the same key), each prelude definition compiled on first lookup.

    Iterating compiles the whole prelude; keys come natives first, in registration order,
    then the prelude's new names in source order."""

    def get(self, key: Any, default: Any = None) -> Any:
        """The builtin ``key`` or ``default``."""
        found = _prelude_def(key) if key in _prelude_keys() else None
        if found is not None:
            return found
        return _TABLE.get(key, default)

    def __getitem__(self, key: Any) -> Any:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return key in _TABLE or key in _prelude_keys()

    def __iter__(self) -> Iterator[tuple[str, int]]:
        prelude = _prelude_keys()
        for key in prelude:
            _prelude_def(key)
        yield from _TABLE
        yield from (key for key in prelude if key not in _TABLE)

    def __len__(self) -> int:
        return len(_TABLE) + sum(1 for key in _prelude_keys() if key not in _TABLE)


def _prelude_keys() -> dict[tuple[str, int], str]:
    """The prelude's definition texts by key (split on first use)."""
    global _prelude_sources
    if _prelude_sources is None:
        with _prelude_lock:
            if _prelude_sources is None:
                _prelude_sources = _split_prelude()
    return _prelude_sources


_BUILTINS = BuiltinTable()


def builtin_table() -> BuiltinTable:
    """Every builtin, keyed by (name, arity); see ``BuiltinTable``."""
    return _BUILTINS
