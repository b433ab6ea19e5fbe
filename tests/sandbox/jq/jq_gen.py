"""Seeded generators of JSON values and jq programs for the differential tests.

Values cover deep nesting, unicode (including astral characters and control characters),
big and small numbers and empty containers. Programs are drawn from a grammar of jq
expressions over the builtins we implement; they are small so failures are easy to read.
Numbers are drawn so that their JSON text is canonical for both jq builds (no ``1.0`` or
``1e-7`` literals, which a decNumber jq prints verbatim).
"""

from __future__ import annotations

import json
import random
from typing import Any

_CHARS = list("abcxyz AZ019_-.,:/\\\"'\t\n") + ["é", "ß", "中", "😀", "\u0001", "\u007f", "\u2028", "\ufeff"]
_KEYS = ["a", "b", "c", "role", "content", "x y", "é", "", "0"]


def gen_string(rng: random.Random, max_len: int = 8) -> str:
    """A short string mixing ASCII, escapes and non-ASCII characters."""
    return "".join(rng.choice(_CHARS) for _ in range(rng.randint(0, max_len)))


def gen_number(rng: random.Random) -> int | float:
    """Integers (small, near 2**53, beyond it) and floats with canonical text."""
    r = rng.random()
    if r < 0.5:
        return rng.randint(-10, 10)
    if r < 0.6:
        return rng.choice([2**53, -(2**53), 2**53 + rng.randint(1, 9), 10**20 + 7, -(10**19)])
    if r < 0.9:
        # floats with a few significant digits and a fractional part
        while True:
            x = round(rng.uniform(-1000, 1000), rng.randint(1, 4))
            if not x.is_integer():
                return x
    return rng.choice([0.5, -0.25, 0.001, 123456.789, 3.14159, 1.5e10 + 0.5])


def gen_value(rng: random.Random, depth: int = 3) -> Any:
    """A random JSON value nested at most ``depth`` levels."""
    r = rng.random()
    if depth <= 0 or r < 0.35:
        kind = rng.choice(["null", "bool", "num", "num", "str", "str"])
        if kind == "null":
            return None
        if kind == "bool":
            return rng.random() < 0.5
        if kind == "num":
            return gen_number(rng)
        return gen_string(rng)
    if r < 0.65:
        return [gen_value(rng, depth - 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(_KEYS): gen_value(rng, depth - 1) for _ in range(rng.randint(0, 4))}


def deep_value(rng: random.Random, depth: int) -> Any:
    """A value nested ``depth`` levels deep (alternating arrays and objects)."""
    v: Any = gen_value(rng, 0)
    for i in range(depth):
        v = [v] if i % 2 else {"a": v}
    return v


def to_text(rng: random.Random, v: Any) -> str:
    """JSON text for ``v`` (random ASCII escaping and layout)."""
    if rng.random() < 0.3:
        return json.dumps(v, ensure_ascii=True, indent=rng.choice([None, 2]))
    return json.dumps(v, ensure_ascii=False)


# -- programs ---------------------------------------------------------------------------------

_PATHS = [".", ".a", ".b", ".[0]", ".[-1]", ".[]?", ".a?", ".[1:]", ".[:2]", ".a.b?", '.["c"]?', "..", ".[0]?"]
_UNARY = [
    "length", "type", "keys?", "keys_unsorted?", "tostring", "tojson", "not", "ascii_downcase?",
    "ascii_upcase?", "sort?", "unique?", "reverse?", "add?", "min?", "max?", "flatten?", "to_entries?",
    "paths", "[paths]", "tostream", "[tostream]", "explode?", "floor?", "sqrt?", "abs?",
    "isnan?", "isinfinite?", "values", "scalars", "arrays", "objects", "strings", "numbers", "nulls",
    "booleans", "iterables", "utf8bytelength?", "@json", "@text", "@base64?", "@uri?", "@html?",
    "@csv?", "@tsv?", "@sh?", "any?", "all?", "ltrimstr(\"a\")?", "rtrimstr(\"a\")?",
    "startswith(\"a\")?", "endswith(\"b\")?", "test(\"a\")?", "test(\"A\";\"i\")?",
    "[match(\"[a-c]\";\"g\").offset]?", "sub(\"a\";\"X\")?", "gsub(\"[ab]\";\"<\\(.)>\")?",
    "split(\",\")?", "join(\",\")?", "implode?", "tonumber?", "indices(\"a\")?",
    "index(\"a\")?", "rindex(\"a\")?", "has(\"a\")?", "has(0)?", "contains(\"a\")?", "inside(\"abc\")?",
    "to_entries?|from_entries?", "with_entries(.value|=tostring)?", "map(type)?", "map_values(length?)?",
    "del(.a)?", "del(.[0])?", "getpath([\"a\",0])?", "setpath([\"a\"];1)?", "delpaths([[0]])?",
    "[splits(\",\")]?", "group_by(type)?", "sort_by(type)?", "unique_by(length?)?", "min_by(length?)?",
    "max_by(length?)?", "walk(if type == \"number\" then .+1 else . end)", "first(.[]?)", "last(.[]?)",
    "[limit(2; .[]?)]", "isempty(.[]?)", "[.[]?|numbers]", "trim?", "ltrim?", "rtrim?",
    "combinations?|tojson", "transpose?", "splits(\"a\")?", "tojson|fromjson", "getpath([\"x\"])?",
    "to_entries?|map(.key)", "[..|numbers]", "[..|strings]|length", "in({\"a\":1})?", "ascii_downcase?|explode?",
    "[range(3)]", "[range(0;10;3)]", "[range(5;0;-2)]", "$__loc__", "@base64d?",
"[scan(\"[a-c]+\")]?", "capture(\"(?<x>[a-z])\")?", "splits(\", *\";null)?",
    "significand?", "getpath([])", "paths(type == \"number\")", "pick(.a)?", "pick(.[1])?",
    "have_decnum", "nan|isnan", "infinite|tostring", "[.[]?]|length",
    "todate?", "gmtime?", "gmtime?|mktime", "gmtime?|strftime(\"%c\")",
    "strftime(\"%A %B %d %Y %j %e %H:%M:%S %Z\")?", "(numbers|floor|todate)?",
]
_BINOPS = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "//"]
_LITERALS = ["1", "2", "0", "-1", "2.5", '"a"', '"x,y"', "null", "true", "false", "[]", "{}", "[1,2]", '{"a":1}', '"é😀"']


def gen_program(rng: random.Random, depth: int = 3) -> str:
    """A random jq program."""
    r = rng.random()
    if depth <= 0 or r < 0.25:
        return rng.choice(_PATHS + _LITERALS + _UNARY)
    if r < 0.40:
        return f"{gen_program(rng, depth - 1)} | {gen_program(rng, depth - 1)}"
    if r < 0.48:
        return f"{gen_program(rng, depth - 1)}, {gen_program(rng, depth - 1)}"
    if r < 0.60:
        return f"(({gen_program(rng, depth - 1)}) {rng.choice(_BINOPS)} ({gen_program(rng, depth - 1)}))?"
    if r < 0.65:
        return f"[{gen_program(rng, depth - 1)}]"
    if r < 0.70:
        return f'{{"k": ({gen_program(rng, depth - 1)}), (tostring): 1}}'
    if r < 0.74:
        return f"if ({gen_program(rng, depth - 1)}) then ({gen_program(rng, depth - 1)}) else ({gen_program(rng, depth - 1)}) end"
    if r < 0.78:
        return f"try ({gen_program(rng, depth - 1)}) catch ."
    if r < 0.81:
        return f"reduce (.[]?) as $x (0; . + ($x|length? // 1))"
    if r < 0.84:
        return f"[foreach (.[]?) as $x (0; . + 1; [., ($x|type)])]"
    if r < 0.87:
        return f'"s\\({gen_program(rng, depth - 1)})e"'
    if r < 0.90:
        return f"({gen_program(rng, depth - 1)}) as $v | [$v, ({gen_program(rng, depth - 1)})]"
    if r < 0.92:
        return f"[paths({gen_program(rng, 0)})]?"
    if r < 0.94:
        return f"(.a?) |= ({gen_program(rng, depth - 1)})"
    if r < 0.96:
        return f"select({gen_program(rng, depth - 1)})"
    if r < 0.98:
        return f"label $out | ({gen_program(rng, depth - 1)}) | ., break $out"
    return f"def f(g): [g, .]; f({gen_program(rng, depth - 1)})"
