"""Compile the awk AST to closures over a ``Runtime`` (see ``interp`` for the design)."""

from __future__ import annotations

import math

from sandbox.commands.awk import builtins as B
from sandbox.commands.awk.fmt import FormatError, sprintf
from sandbox.commands.awk.fmt import ran_out_message as _ran_out_message
from sandbox.commands.awk.interp import (
    BREAK, CONTINUE, AwkFatal, ExitProgram, NextFile, NextRecord, Ret, _walk,
)
from sandbox.commands.awk.values import (
    UNINIT, AwkArray, Str, StrNum, Uninit, num_to_str, str_to_num, strnum_value,
    subscript_of_num,
)
from sandbox.errors import LimitExceeded

_NUMERIC_OPS = {"+", "-", "*", "/", "%", "^"}


def _static_kind(node) -> str:
    """'num', 'str' or 'any': what a node's value always is."""
    k = node[0]
    if k == "num":
        return "num"
    if k == "str":
        return "str"
    if k in ("binop", "unary", "incdec", "cmp", "match", "and", "or", "in", "regex"):
        if k == "unary" and node[1] not in ("-", "+", "!"):
            return "any"
        return "num"
    if k == "concat":
        return "str"
    if k == "group":
        return _static_kind(node[1])
    if k == "assign" and node[1] != "=":
        return "num"
    if k == "getline":
        return "num"
    if k == "builtin":
        name = node[1]
        if name in B.NUMERIC_BUILTINS:
            return "num"
        if name in B.STRING_BUILTINS:
            return "str"
    return "any"


def _same(v):
    return v


def _const_field(rt, idx: int, conv):
    """Closure giving field ``idx + 1`` as text, a number in it through ``conv`` (CONVFMT
    for values, OFMT for print)."""
    def const_field():
        fl = rt.flds
        if fl is None:
            fl = rt.split()
        if idx < len(fl):
            v = fl[idx]
            return v if type(v) is not float else conv(v)
        return b""
    return const_field


def _loop(cond, body, step, tick, test_first: bool):
    """A while (``test_first``), do-while or for loop (``step`` after each pass, also on
    continue); the deadline is checked every 1,024 passes."""
    def loop():
        n = 0
        skip = not test_first
        while skip or cond():
            skip = False
            r = body()
            if r is not None:
                if r is BREAK:
                    break
                if r is not CONTINUE:
                    return r
            if step is not None:
                step()
            n += 1
            if not n & 1023:
                tick()
        return None
    return loop


def _cmp_op(op: str):
    if op == "<":
        return lambda a, b: a < b
    if op == "<=":
        return lambda a, b: a <= b
    if op == ">":
        return lambda a, b: a > b
    if op == ">=":
        return lambda a, b: a >= b
    if op == "==":
        return lambda a, b: a == b
    return lambda a, b: a != b


class Compiler:
    def __init__(self, rt, parsed):
        self.rt = rt
        self.parsed = parsed
        self.funcs = {name: (params, body, line) for name, (_, params, body, line)
                      in parsed.functions.items()}
        self.locals: dict[str, int] | None = None
        self.cur_func: str | None = None
        self.compiled_funcs: dict[str, list] = {}
        self.uses_getline_plain = False
        self.uses_nf_or_dynamic_fields = False
        self.max_const_field = 0
        self.assigns_rs = False
        self.assigns_icase = False
        self._analyse()

    # ---------------------------------------------------------------- analysis ----------

    def _scopes(self):
        p = self.parsed
        main = [p.begin, p.end, p.beginfile, p.endfile, p.items]
        yield None, main
        for name, (params, body, _) in self.funcs.items():
            yield name, body

    def _analyse(self) -> None:
        self.global_arrays: set[str] = set()
        self.param_arrays: dict[str, set[int]] = {f: set() for f in self.funcs}
        self.global_names: set[str] = set()
        changed = True

        def mark(scope, name):
            nonlocal changed
            if scope is not None:
                params = self.funcs[scope][0]
                if name in params:
                    i = params.index(name)
                    if i not in self.param_arrays[scope]:
                        self.param_arrays[scope].add(i)
                        changed = True
                    return
            if name not in self.global_arrays:
                self.global_arrays.add(name)
                changed = True

        while changed:
            changed = False
            for scope, tree in self._scopes():
                def visit(node, scope=scope):
                    k = node[0]
                    if k == "index":
                        mark(scope, node[1])
                    elif k == "in":
                        mark(scope, node[2])
                    elif k == "forin":
                        mark(scope, node[3])
                    elif k == "delete":
                        mark(scope, node[2])
                    elif k == "builtin":
                        pos = B.ARRAY_ARGS.get(node[1], ())
                        for j in pos:
                            if j < len(node[2]) and node[2][j][0] == "var":
                                mark(scope, node[2][j][1])
                    elif k == "call":
                        f = node[1]
                        if f in self.param_arrays:
                            for j, a in enumerate(node[2]):
                                if a[0] == "var" and j in self.param_arrays[f]:
                                    mark(scope, a[1])
                _walk(tree, visit)
        # collect the global names, field use and other facts
        for scope, tree in self._scopes():
            params = self.funcs[scope][0] if scope is not None else []

            def visit2(node, params=params, scope=scope):
                k = node[0]
                if k == "var" and node[1] not in params:
                    self.global_names.add(node[1])
                    if node[1] == "NF":
                        self.uses_nf_or_dynamic_fields = True
                elif k in ("index", "in", "forin", "delete"):
                    name = node[1] if k == "index" else node[2] if k in ("in", "delete") else node[3]
                    if name not in params:
                        self.global_names.add(name)
                    if k == "forin" and node[2][1] not in params:
                        self.global_names.add(node[2][1])
                elif k == "field":
                    e = node[1]
                    if e[0] == "num" and e[1] >= 1 and e[1] == int(e[1]):
                        self.max_const_field = max(self.max_const_field, int(e[1]))
                    elif not (e[0] == "num" and e[1] == 0):
                        self.uses_nf_or_dynamic_fields = True
                elif k == "getline":
                    if node[1] == "plain":
                        self.uses_getline_plain = True
                    if node[2] is None or node[2][0] == "field":
                        self.uses_nf_or_dynamic_fields = True
                elif k == "assign" or k == "incdec":
                    target = node[2] if k == "assign" else node[3]
                    if target[0] == "field":
                        self.uses_nf_or_dynamic_fields = True
                    if target[0] == "var" and target[1] == "RS":
                        self.assigns_rs = True
                    if target[0] == "var" and target[1] == "IGNORECASE":
                        self.assigns_icase = True
                elif k == "builtin" and node[1] in ("sub", "gsub") and (
                        len(node[2]) < 3 or node[2][2][0] == "field"):
                    self.uses_nf_or_dynamic_fields = True
                elif k == "builtin" and node[1] in ("sub", "gsub") and len(node[2]) >= 3 and \
                        node[2][2][0] == "var" and node[2][2][1] == "RS":
                    self.assigns_rs = True
                elif k == "builtin" and node[1] == "split" and len(node[2]) < 3:
                    self.uses_nf_or_dynamic_fields = True
                elif k == "call":
                    pass
            _walk(tree, visit2)
        for name in ("NF", "NR", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP",
                     "RSTART", "RLENGTH", "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV", "RT",
                     "IGNORECASE", "ERRNO", "PROCINFO", "FIELDWIDTHS", "FPAT", "BINMODE",
                     "LINT", "TEXTDOMAIN"):
            self.global_names.add(name)
        self.global_arrays |= {"ENVIRON", "ARGV", "PROCINFO"}
        rt = self.rt
        for name in sorted(self.global_names):
            if name in self.funcs:
                continue
            rt.slots[name] = len(rt.G)
            rt.G.append(AwkArray() if name in self.global_arrays else UNINIT)
        rt.errno_slot = rt.slots["ERRNO"]
        G = rt.G
        for name, val in (("FS", b" "), ("OFS", b" "), ("ORS", b"\n"), ("RS", b"\n"),
                          ("SUBSEP", b"\x1c"), ("CONVFMT", b"%.6g"), ("OFMT", b"%.6g"),
                          ("RSTART", 0.0), ("RLENGTH", -1.0), ("FILENAME", b""),
                          ("RT", b""), ("IGNORECASE", 0.0), ("ERRNO", b""),
                          ("BINMODE", 0.0), ("TEXTDOMAIN", b"messages"), ("LINT", 0.0),
                          ("FIELDWIDTHS", b""), ("FPAT", b"[^[:space:]]+")):
            G[rt.slots[name]] = val
        for name in self.global_arrays:
            if name in self.funcs:
                raise AwkFatal(f"function name `{name}' previously defined", None, 1,
                               "error")
        if not self.uses_nf_or_dynamic_fields and self.max_const_field > 0:
            rt.max_field = self.max_const_field

    # ---------------------------------------------------------------- variables ---------

    def is_local(self, name: str) -> bool:
        return self.locals is not None and name in self.locals

    def is_array_name(self, name: str) -> bool:
        if self.is_local(name):
            return self.locals[name] in self.param_arrays[self.cur_func]
        return name in self.global_arrays

    def array_getter(self, name: str):
        """A closure returning the array called ``name`` (created for a local if unset)."""
        rt = self.rt
        if self.is_local(name):
            i = self.locals[name]
            fname = self.cur_func

            def get_local_array():
                d = rt.frame[i]
                if type(d) is not AwkArray:
                    if d is UNINIT:
                        d = AwkArray()
                        rt.frame[i] = d
                    else:
                        raise AwkFatal(f"attempt to use scalar parameter `{name}' as an array",
                                       rt.cur_line)
                return d
            return get_local_array
        if name in self.funcs:
            raise AwkFatal(f"function `{name}' called with space between name and `(',\n"
                           "or used as a variable or an array", None, 1, "error")
        d = self.rt.G[self.rt.slots[name]]
        return lambda: d

    def static_array(self, name: str):
        """The dict of a global array (None for locals)."""
        if self.is_local(name):
            return None
        return self.rt.G[self.rt.slots[name]]

    # ---------------------------------------------------------------- expressions -------

    def cval(self, node):
        """Closure returning the node's awk value."""
        return getattr(self, "v_" + node[0])(node)

    def cstr(self, node):
        k = node[0]
        rt = self.rt
        if k == "str":
            s = node[1]
            return lambda: s
        if k == "field":
            return self.field_str(node)
        if k == "concat":
            return self.v_concat(node)
        if k == "group":
            return self.cstr(node[1])
        if k == "var" and not self.is_local(node[1]) and node[1] not in ("NF", "NR", "FNR"):
            if node[1] in self.global_arrays:
                return self._array_as_scalar(node[1])
            G = rt.G
            i = rt.slots[node[1]]
            S = rt.S

            def var_str():
                v = G[i]
                return v if type(v) is not float else S(v)
            return var_str
        if _static_kind(node) == "num":
            f = self.cnum(node)
            convfmt_s = num_to_str

            def num_as_str():
                return convfmt_s(f(), rt.convfmt)
            return num_as_str
        f = self.cval(node)
        S = rt.S
        return lambda: S(f())

    def typing_elem(self, node, conv):
        """An array element used where gawk 5.2 turns an untyped element into a string
        (print, printf's arguments, index()): the element becomes "" for good (later
        comparisons treat it as a string); ``conv`` renders the value."""
        key = self.subscript(node[2])
        d = self.static_array(node[1])
        arr = (lambda: d) if d is not None else self.array_getter(node[1])

        def typed():
            dd = arr()
            k = key()
            v = dd.get(k)
            if v is None or type(v) is Uninit:
                dd[k] = v = b""
            return conv(v)
        return typed

    def _field_out(self, node):
        """$n as print shows it: a number assigned to a field goes out with OFMT."""
        rt = self.rt
        e = node[1]
        if e[0] == "num" and e[1] >= 1:
            return _const_field(rt, int(e[1]) - 1, rt.O)
        if e[0] == "num":
            return self.cstr(node)
        f = self.cval(node)
        O = rt.O
        return lambda: O(f())

    def cout(self, node):
        """Closure returning the print form (OFMT for numbers)."""
        k = node[0]
        rt = self.rt
        if k in ("str", "concat"):
            return self.cstr(node)
        if k == "field":
            return self._field_out(node)
        if k == "group":
            return self.cout(node[1])
        if k == "index":
            return self.typing_elem(node, rt.O)
        if _static_kind(node) == "num":
            f = self.cnum(node)

            def num_out():
                v = f()
                if v.is_integer():
                    return b"%d" % int(v)
                return num_to_str(v, rt.ofmt)
            return num_out
        f = self.cval(node)
        O = rt.O
        return lambda: O(f())

    def cnum(self, node):
        k = node[0]
        rt = self.rt
        if k == "num":
            v = node[1]
            return lambda: v
        if k == "binop":
            return self.binop_num(node)
        if k == "unary":
            op = node[1]
            if op == "-":
                f = self.cnum(node[2])
                return lambda: -f()
            if op == "+":
                return self.cnum(node[2])
            f = self.cbool(node[2])
            return lambda: 0.0 if f() else 1.0
        if k == "group":
            return self.cnum(node[1])
        if k == "field":
            if node[1][0] == "num" and node[1][1] >= 1:
                getf = self.field_str(node)
                return lambda: str_to_num(getf())
        if k == "var" and not self.is_local(node[1]) and node[1] not in ("NF", "NR", "FNR") \
                and node[1] not in self.global_arrays:
            G = rt.G
            i = rt.slots[node[1]]

            def var_num():
                v = G[i]
                return v if type(v) is float else str_to_num(v)
            return var_num
        if k in ("cmp", "match", "and", "or", "in"):
            f = self.cbool(node)
            return lambda: 1.0 if f() else 0.0
        if k == "incdec" or (k == "assign" and node[1] != "="):
            return self.cval(node)
        f = self.cval(node)
        N = rt.N
        return lambda: N(f())

    def cbool(self, node):
        k = node[0]
        rt = self.rt
        if k == "cmp":
            return self.compare(node)
        if k == "match":
            return self.match_bool(node)
        if k == "regex":
            rx = self.const_regex(node[1])
            get0 = rt.get0

            def regex_bool():
                r = get0()
                return rx.search_start(r, 0, len(r)) >= 0
            return regex_bool
        if k == "and":
            a, b = self.cbool(node[1]), self.cbool(node[2])
            return lambda: a() and b()
        if k == "or":
            a, b = self.cbool(node[1]), self.cbool(node[2])
            return lambda: a() or b()
        if k == "unary" and node[1] == "!":
            if _static_kind(node[2]) == "num" and node[2][0] not in ("cmp", "match", "and",
                                                                     "or", "in", "regex"):
                g = self.cnum(node[2])
                return lambda: g() == 0.0
            f = self.cbool(node[2])
            return lambda: not f()
        if k == "group":
            return self.cbool(node[1])
        if k == "in":
            return self.in_bool(node)
        if k == "str":
            v = bool(node[1])
            return lambda: v
        if _static_kind(node) == "num":
            f = self.cnum(node)
            return lambda: f() != 0.0
        if k == "field" and node[1][0] == "num" and node[1][1] != 0:
            getf = self.field_str(node)

            def field_bool():
                v = getf()
                if type(v) is bytes:
                    n = strnum_value(v)
                    if n is not None:
                        return n != 0.0
                    return len(v) > 0
                return B.truth(v)
            return field_bool
        f = self.cval(node)
        truth = B.truth
        return lambda: truth(f())

    # -- leaves --

    def v_num(self, node):
        v = node[1]
        return lambda: v

    def v_str(self, node):
        v = node[1]
        return lambda: v

    def v_group(self, node):
        return self.cval(node[1])

    def v_regex(self, node):
        f = self.cbool(node)
        return lambda: 1.0 if f() else 0.0

    def const_regex(self, text: bytes):
        rt = self.rt
        return _LazyRegex(rt, text)

    def regex_arg(self, node):
        """A regexp operand: a /literal/ or a dynamic string; returns a closure giving a
        compiled regex."""
        rt = self.rt
        if node[0] == "regex":
            rx = self.const_regex(node[1])
            return lambda: rx.get()
        f = self.cstr(node)
        regex = rt.regex
        return lambda: regex(f())

    def _array_as_scalar(self, name):
        rt = self.rt
        line = self.cur_line
        d = rt.G[rt.slots[name]]

        def bad():
            if not d:
                raise AwkFatal(f"attempt to use scalar `{name}' as an array", line)
            raise AwkFatal(f"attempt to use array `{name}' in a scalar context", line)
        return bad

    def v_var(self, node):
        name = node[1]
        rt = self.rt
        if self.is_local(name):
            i = self.locals[name]
            return lambda: rt.frame[i]
        if name in self.funcs:
            raise AwkFatal(f"function `{name}' called with space between name and `(',\n"
                           "or used as a variable or an array", None, 1, "error")
        if name == "NF":
            return lambda: float(rt.get_nf())
        if name == "NR":
            return lambda: float(rt.nr)
        if name == "FNR":
            return lambda: float(rt.fnr)
        if name in self.global_arrays:
            return self._array_as_scalar(name)
        G = rt.G
        i = rt.slots[name]
        return lambda: G[i]

    def subscript(self, subs):
        """Closure computing the array subscript of a list of expressions."""
        rt = self.rt
        if len(subs) == 1:
            e = subs[0]
            k = e[0]
            if k == "field" or k == "str" or k == "concat":
                return self.cstr(e)
            if k == "num":
                key = subscript_of_num(e[1], b"%.6g") if e[1].is_integer() else None
                if key is not None:
                    return lambda: key
            f = self.cval(e)
            key_of = rt.key
            return lambda: key_of(f())
        fs = [self.cstr(e) for e in subs]

        def multi():
            return rt.subsep.join([f() for f in fs])
        return multi

    def v_index(self, node):
        name = node[1]
        key = self.subscript(node[2])
        d = self.static_array(name)
        if d is not None:
            def elem():
                k = key()
                v = d.get(k)
                if v is None:
                    d[k] = v = UNINIT
                return v
            return elem
        arr = self.array_getter(name)

        def elem_dyn():
            dd = arr()
            k = key()
            v = dd.get(k)
            if v is None:
                dd[k] = v = UNINIT
            return v
        return elem_dyn

    def field_str(self, node):
        """Closure giving $n as bytes (CONVFMT for assigned numbers)."""
        rt = self.rt
        e = node[1]
        if e[0] == "num" and e[1] >= 0:
            n = int(e[1])
            if n == 0:
                return rt.get0
            return _const_field(rt, n - 1, rt.S)
        fi = self.cval(e)
        line = self.cur_line
        index = rt.field_index
        getfield_str = rt.getfield_str

        def fdyn():
            return getfield_str(index(fi(), line))
        return fdyn

    def v_field(self, node):
        rt = self.rt
        e = node[1]
        if e[0] == "num" and e[1] >= 0:
            n = int(e[1])
            if n == 0:
                get0 = rt.get0

                def f0():
                    r = get0()
                    if type(r) is bytes:
                        if r is rt.str_rec:
                            return r if rt.rec_num is None else rt.rec_num
                        return StrNum(r)
                    return r
                return f0
            idx = n - 1

            def fconst():
                fl = rt.flds
                if fl is None:
                    fl = rt.split()
                if idx < len(fl):
                    v = fl[idx]
                    t = type(v)
                    if t is bytes:
                        return StrNum(v)
                    if t is Str:
                        return bytes(v)
                    return v
                return StrNum()
            return fconst
        fi = self.cval(e)
        line = self.cur_line
        index = rt.field_index
        getfield = rt.getfield
        return lambda: getfield(index(fi(), line))

    # -- operators --

    def binop_num(self, node):
        op = node[1]
        if op in ("/", "%") and node[3][0] == "num" and node[3][1] == 0.0:
            raise AwkFatal("division by zero attempted" + (" in `%'" if op == "%" else ""),
                           self.cur_line, 1, "error")
        a = self.cnum(node[2])
        b = self.cnum(node[3])
        line = self.cur_line
        if op == "+":
            return lambda: a() + b()
        if op == "-":
            return lambda: a() - b()
        if op == "*":
            return lambda: a() * b()
        if op == "/":
            def div():
                x = a()
                y = b()
                if y == 0.0:
                    raise AwkFatal("division by zero attempted", line, 2, "fatal")
                return x / y
            return div
        if op == "%":
            def mod():
                x = a()
                y = b()
                if y == 0.0:
                    raise AwkFatal("division by zero attempted in `%'", line, 2, "fatal")
                try:
                    return math.fmod(x, y)
                except ValueError:  # fmod(inf, y): the x87 default NaN, which gawk prints -nan
                    return math.copysign(math.nan, -1.0)
            return mod
        power = B.power
        return lambda: power(a(), b())

    def v_binop(self, node):
        return self.binop_num(node)

    def v_unary(self, node):
        return self.cnum(node)

    def v_concat(self, node):
        parts = [self.cstr(e) for e in node[1]]
        rt = self.rt
        limit = rt.str_limit
        if len(parts) == 2:
            a, b = parts

            def concat2():
                r = a() + b()
                if len(r) > limit:
                    rt.budget.check_string(len(r))
                return r
            return concat2

        def concat():
            r = b"".join([p() for p in parts])
            if len(r) > limit:
                rt.budget.check_string(len(r))
            return r
        return concat

    def v_cmp(self, node):
        f = self.compare(node)
        return lambda: 1.0 if f() else 0.0

    def _cmp_str(self, node):
        """A string comparison's operand that may be a number (see ``B.cmp_num_str``)."""
        f = self.cval(node)
        rt = self.rt
        S = rt.S

        def cmp_str():
            v = f()
            if type(v) is float:
                return B.cmp_num_str(v, rt.convfmt)
            return S(v)
        return cmp_str

    def _fixtyping(self, node, f):
        """A comparison operand ``$k``: once compared in a record, a NaN field compares as
        the number it is (see ``Runtime.fixtyped``)."""
        if node[0] != "field" or node[1][0] != "num" or node[1][1] < 1:
            return f
        k = int(node[1][1])
        rt = self.rt

        def field_operand():
            v = f()
            if type(v) is StrNum and b"nan" in v:
                x = strnum_value(v)
                if x is not None and x != x and rt.fixtyped(k):
                    return x
            return v
        return field_operand

    def compare(self, node):
        op, a, b = node[1], node[2], node[3]
        ka, kb = _static_kind(a), _static_kind(b)
        test = _cmp_op(op)
        rt = self.rt
        if ka == "num" and kb == "num":
            fa, fb = self.cnum(a), self.cnum(b)
            if op == "<":
                return lambda: fa() < fb()
            if op == ">":
                return lambda: fa() > fb()
            if op == "==":
                return lambda: fa() == fb()
            return lambda: test(fa(), fb())
        if ka == "str" or kb == "str":
            fa = self.cstr(a) if ka == "str" or a[0] == "field" else self._cmp_str(a)
            fb = self.cstr(b) if kb == "str" or b[0] == "field" else self._cmp_str(b)
            if op == "==":
                def str_eq():
                    x, y = fa(), fb()
                    if rt.icase:
                        return B.fold(x) == B.fold(y)
                    return x == y
                return str_eq

            def str_cmp():
                x, y = fa(), fb()
                if rt.icase:
                    x, y = B.fold(x), B.fold(y)
                return test(x, y)
            return str_cmp
        # a field against a number constant: the common `$3 > 10`
        if a[0] == "field" and a[1][0] == "num" and a[1][1] >= 1 and b[0] == "num":
            idx = int(a[1][1]) - 1
            n = b[1]
            sn = num_to_str(n, b"%.6g")

            def field_num():
                fl = rt.flds
                if fl is None:
                    fl = rt.split()
                v = fl[idx] if idx < len(fl) else b""
                if type(v) is bytes:  # as read: a strnum
                    x = strnum_value(v)
                    if x is not None:
                        if x == x or rt.fixtyped(idx + 1):
                            return test(x, n)
                        return test(1, 0)  # see compare_values
                    return test(v, sn if rt.convfmt == b"%.6g" else num_to_str(n, rt.convfmt))
                return B.compare_values(test, v, n, rt)
            return field_num
        fa = self.cval(a) if ka != "num" else self.cnum(a)
        fb = self.cval(b) if kb != "num" else self.cnum(b)
        fa, fb = self._fixtyping(a, fa), self._fixtyping(b, fb)
        cv = B.compare_values

        def generic():
            return cv(test, fa(), fb(), rt)
        return generic

    def match_bool(self, node):
        neg = node[1]
        subj = self.cstr(node[2])
        rxf = self.regex_arg(node[3])
        if neg:
            def nomatch():
                s = subj()
                return rxf().search_start(s, 0, len(s)) < 0
            return nomatch

        def match():
            s = subj()
            return rxf().search_start(s, 0, len(s)) >= 0
        return match

    def v_match(self, node):
        f = self.match_bool(node)
        return lambda: 1.0 if f() else 0.0

    def v_and(self, node):
        f = self.cbool(node)
        return lambda: 1.0 if f() else 0.0

    v_or = v_and

    def in_bool(self, node):
        key = self.subscript(node[1])
        d = self.static_array(node[2])
        if d is not None:
            return lambda: key() in d
        arr = self.array_getter(node[2])
        return lambda: key() in arr()

    def v_in(self, node):
        f = self.in_bool(node)
        return lambda: 1.0 if f() else 0.0

    def v_cond(self, node):
        c = self.cbool(node[1])
        a, b = self.cval(node[2]), self.cval(node[3])
        return lambda: a() if c() else b()

    # -- assignment --

    def lvalue(self, node):
        """(getter, setter) closures for an lvalue node; the setter takes a value."""
        rt = self.rt
        k = node[0]
        if k == "var":
            name = node[1]
            if self.is_local(name):
                i = self.locals[name]

                def lget():
                    return rt.frame[i]

                def lset(v):
                    if type(rt.frame[i]) is AwkArray:
                        raise AwkFatal(f"attempt to use array `{name}' in a scalar context",
                                       rt.cur_line)
                    rt.frame[i] = v
                return lget, lset
            if name in self.global_arrays:
                bad = self._array_as_scalar(name)
                return bad, lambda v: bad()
            if name in self.funcs:
                raise AwkFatal(f"function `{name}' called with space between name and `(',\n"
                               "or used as a variable or an array", None, 1, "error")
            G = rt.G
            i = rt.slots[name]
            getter = self.v_var(node)
            hook = B.special_setter(rt, name) if name in B.SPECIAL_VARS else None
            if hook is not None:
                def sset(v):
                    G[i] = v
                    hook(v)
                return getter, sset

            def gset(v):
                G[i] = v
            return getter, gset
        if k == "index":
            raise AssertionError("index lvalues are compiled by their users")
        if k == "field":
            e = node[1]
            line = self.cur_line
            if e[0] == "num" and e[1] >= 0:
                n = int(e[1])
                return (lambda: rt.getfield(n)), (lambda v: rt.setfield(n, v))
            fi = self.cval(e)
            index = rt.field_index
            cache = [0]

            def fget():
                cache[0] = index(fi(), line)
                return rt.getfield(cache[0])

            def fset(v):
                rt.setfield(cache[0], v)
            return fget, fset
        if k == "group":
            return self.lvalue(node[1])
        raise AwkFatal("assignment to a non-lvalue", self.cur_line, 1, "error")

    def v_assign(self, node):
        op, target, expr = node[1], node[2], node[3]
        rt = self.rt
        line = self.cur_line
        if target[0] == "group":
            target = target[1]
        if op == "=":
            rhs = self.cval(expr)
            if _static_kind(expr) == "str":
                rhs = self.cstr(expr)
        else:
            rhs = self.cnum(expr)
        arith = None if op == "=" else B.arith_op(op[:-1], line)
        N = rt.N
        if target[0] == "index":
            key = self.subscript(target[2])
            d = self.static_array(target[1])
            arr = (lambda: d) if d is not None else self.array_getter(target[1])
            if arith is None:
                def assign_elem():
                    v = rhs()  # gawk: the value first, then where it goes
                    dd = arr()
                    k = key()
                    if type(v) is AwkArray:
                        raise AwkFatal("attempt to use array in a scalar context", rt.cur_line)
                    dd[k] = v
                    return v
                return assign_elem

            def op_elem():
                r = rhs()
                dd = arr()
                k = key()
                old = dd.get(k)
                x = old if type(old) is float else (N(old) if old is not None else 0.0)
                v = arith(x, r)
                dd[k] = v
                return v
            return op_elem
        if target[0] == "field":
            e = target[1]
            if e[0] == "num" and e[1] >= 0:
                n = int(e[1])
                if arith is None:
                    def assign_field():
                        v = rhs()
                        rt.setfield(n, v)
                        return v
                    return assign_field

                def op_field():
                    r = rhs()
                    v = arith(N(rt.getfield(n)), r)
                    rt.setfield(n, v)
                    return v
                return op_field
            fi = self.cval(e)
            index = rt.field_index

            def assign_dyn_field():
                r = rhs()
                i = index(fi(), line)
                v = r if arith is None else arith(N(rt.getfield(i)), r)
                rt.setfield(i, v)
                return v
            return assign_dyn_field
        get, set_ = self.lvalue(target)
        if target[0] == "var" and not self.is_local(target[1]) and \
                target[1] not in B.SPECIAL_VARS and target[1] not in self.global_arrays:
            G = rt.G
            i = rt.slots[target[1]]
            if arith is None:
                def assign_global():
                    v = rhs()
                    if type(v) is AwkArray:
                        raise AwkFatal("attempt to use array in a scalar context", rt.cur_line)
                    G[i] = v
                    return v
                return assign_global
            if op == "+=":
                def add_global():
                    r = rhs()
                    old = G[i]
                    v = (old if type(old) is float else N(old)) + r
                    G[i] = v
                    return v
                return add_global

            def op_global():
                r = rhs()
                old = G[i]
                v = arith(old if type(old) is float else N(old), r)
                G[i] = v
                return v
            return op_global
        if arith is None:
            def assign_any():
                v = rhs()
                if type(v) is AwkArray:
                    raise AwkFatal("attempt to use array in a scalar context", rt.cur_line)
                set_(v)
                return v
            return assign_any

        def op_any():
            r = rhs()
            v = arith(N(get()), r)
            set_(v)
            return v
        return op_any

    def v_incdec(self, node):
        op, pre, target = node[1], node[2], node[3]
        delta = 1.0 if op == "++" else -1.0
        rt = self.rt
        N = rt.N
        if target[0] == "group":
            target = target[1]
        if target[0] == "index":
            key = self.subscript(target[2])
            d = self.static_array(target[1])
            arr = (lambda: d) if d is not None else self.array_getter(target[1])
            if pre:
                def pre_elem():
                    dd = arr()
                    k = key()
                    old = dd.get(k)
                    v = (old if type(old) is float else (N(old) if old is not None else 0.0)) \
                        + delta
                    dd[k] = v
                    return v
                return pre_elem
            if d is not None:
                def post_elem_static():
                    k = key()
                    old = d.get(k)
                    if old is None:
                        d[k] = delta
                        return 0.0
                    x = old if type(old) is float else N(old)
                    d[k] = x + delta
                    return x
                return post_elem_static

            def post_elem():
                dd = arr()
                k = key()
                old = dd.get(k)
                x = old if type(old) is float else (N(old) if old is not None else 0.0)
                dd[k] = x + delta
                return x
            return post_elem
        if target[0] == "var" and not self.is_local(target[1]) and \
                target[1] not in B.SPECIAL_VARS and target[1] not in self.global_arrays:
            G = rt.G
            i = rt.slots[target[1]]
            if pre:
                def pre_global():
                    old = G[i]
                    v = (old if type(old) is float else N(old)) + delta
                    G[i] = v
                    return v
                return pre_global

            def post_global():
                old = G[i]
                x = old if type(old) is float else N(old)
                G[i] = x + delta
                return x
            return post_global
        get, set_ = self.lvalue(target)
        if pre:
            def pre_any():
                v = N(get()) + delta
                set_(v)
                return v
            return pre_any

        def post_any():
            x = N(get())
            set_(x + delta)
            return x
        return post_any

    # -- calls --

    def v_call(self, node):
        name, args, line = node[1], node[2], node[3]
        rt = self.rt
        if name not in self.funcs:
            for a in args:  # for the errors gawk finds in them while parsing
                if a[0] != "var":
                    self.cval(a)

            def undefined():
                raise AwkFatal(f"function `{name}' not defined", line)
            return undefined
        params = self.funcs[name][0]
        extra_fns = []
        if len(args) > len(params):
            # gawk evaluates the extra arguments, drops them and warns, at every call
            extra_fns = [self.cval(a) for a in args[len(params):]]
            too_many = f"function `{name}' called with more arguments than declared"
            args = args[:len(params)]
        arrays = self.param_arrays[name]
        argfns = []
        for j, a in enumerate(args):
            if a[0] == "var":
                vname = a[1]
                if j in arrays:
                    argfns.append(self._array_arg(vname, name, params[j]))
                    continue
                if self.is_array_name(vname):
                    argfns.append(self._array_arg(vname, name, params[j]))
                    continue
                if self.is_local(vname):
                    argfns.append(self._local_passthrough(vname))
                    continue
            argfns.append(self.cval(a))
        nparams = len(params)
        nargs = len(args)
        fresh_arrays = [j for j in range(nargs, nparams) if j in arrays]
        cell = self.compiled_funcs.setdefault(name, [None])
        max_depth = rt.max_depth

        def call():
            frame = [f() for f in argfns]
            if extra_fns:
                for f in extra_fns:
                    f()
                rt.warn(too_many, line)
            if nargs < nparams:
                frame.extend([UNINIT] * (nparams - nargs))
                for j in fresh_arrays:
                    frame[j] = AwkArray()
            saved = rt.frame
            rt.depth += 1
            if rt.depth > max_depth:
                rt.depth -= 1
                raise LimitExceeded("recursion_depth",
                                    f"awk: function call nesting deeper than {max_depth}; "
                                    "recurse less")
            rt.frame = frame
            saved_line = rt.cur_line
            try:
                r = cell[0]()
            finally:
                rt.frame = saved
                rt.depth -= 1
                rt.cur_line = saved_line
            if r is not None and type(r) is Ret:
                return r.value
            return UNINIT
        return call

    def _local_passthrough(self, vname):
        """A caller's local passed on: an array or a scalar value (untyped locals that the
        callee uses as arrays become arrays here, by reference)."""
        rt = self.rt
        i = self.locals[vname]
        return lambda: rt.frame[i]

    def _array_arg(self, vname, fname, pname):
        rt = self.rt
        if self.is_local(vname):
            i = self.locals[vname]

            def local_array_arg():
                d = rt.frame[i]
                if d is UNINIT:
                    d = AwkArray()
                    rt.frame[i] = d
                elif type(d) is not AwkArray:
                    raise AwkFatal(f"attempt to use scalar parameter `{pname}' as an array",
                                   rt.cur_line)
                return d
            return local_array_arg
        if vname in self.global_arrays:
            d = rt.G[rt.slots[vname]]
            return lambda: d
        G = rt.G
        slot = rt.slots[vname]

        def scalar_as_array():
            raise AwkFatal(f"attempt to use scalar parameter `{pname}' as an array",
                           rt.cur_line)
        if G[slot] is UNINIT:
            return scalar_as_array
        return scalar_as_array

    def v_builtin(self, node):
        return B.compile_builtin(self, node)

    def v_getline(self, node):
        return B.compile_getline(self, node)

    # ---------------------------------------------------------------- statements --------

    cur_line = 0

    def stmt(self, node):
        k = node[0]
        if node[1]:
            self.cur_line = node[1]
        return getattr(self, "s_" + k)(node)

    def s_block(self, node):
        stmts = [self.stmt(s) for s in node[2]]
        if not stmts:
            return lambda: None
        if len(stmts) == 1:
            return stmts[0]
        if len(stmts) == 2:
            a, b = stmts

            def block2():
                r = a()
                if r is not None:
                    return r
                return b()
            return block2

        def block():
            for s in stmts:
                r = s()
                if r is not None:
                    return r
            return None
        return block

    def _with_line(self, f, line):
        rt = self.rt

        def at_line():
            rt.cur_line = line
            return f()
        return at_line

    def s_expr(self, node):
        e = node[2]
        line = node[1]
        rt = self.rt
        if e[0] in ("assign", "incdec"):
            f = self.cval(e)
        elif e[0] in ("builtin", "call", "getline"):
            f = self.cval(e)
        else:
            f = self.cval(e)

        def expr_stmt():
            rt.cur_line = line
            f()
        return expr_stmt

    def s_print(self, node):
        args, redir, target = node[2], node[3], node[4]
        rt = self.rt
        line = node[1]
        if not args:
            parts = [rt.get0]
        else:
            parts = [self.cout(a) for a in args]
        limit = rt.str_limit
        if redir is None:
            out = rt.out
            flush = rt.flush_print
            if len(parts) == 1:
                p = parts[0]

                def print1():
                    out.extend(p())
                    out.extend(rt.ors)
                    if len(out) > 65536:
                        flush()
                return print1

            def printn():
                out.extend(rt.ofs.join([p() for p in parts]))
                out.extend(rt.ors)
                if len(out) > 65536:
                    flush()
            return printn
        tf = self.cstr(target)
        stream = rt.stream

        def print_redir():
            rt.cur_line = line
            where = tf()  # gawk evaluates the target before the items
            data = rt.ofs.join([p() for p in parts]) + rt.ors
            stream(redir, where).write(data)
        return print_redir

    def s_printf(self, node):
        args, redir, target = node[2], node[3], node[4]
        rt = self.rt
        line = node[1]
        fmt = self.cstr(args[0])
        vals = [self.typing_elem(a, _same) if a[0] == "index" else self.cval(a)
                for a in args[1:]]
        S, N = rt.S, rt.N

        def render():
            f = fmt()
            try:
                return sprintf(f, [v() for v in vals], N, S, rt.char_mode)
            except FormatError as err:
                raise AwkFatal(_ran_out_message(f, err.pos), line)
        if redir is None:
            def printf_out():
                rt.cur_line = line
                rt.write_out(render())
            return printf_out
        tf = self.cstr(target)

        def printf_redir():
            rt.cur_line = line
            where = tf()
            data = render()
            rt.stream(redir, where).write(data)
        return printf_redir

    def s_if(self, node):
        c = self.cbool(node[2])
        then = self.stmt(node[3])
        other = self.stmt(node[4]) if node[4] is not None else None
        if other is None:
            def if_():
                if c():
                    return then()
            return if_

        def if_else():
            if c():
                return then()
            return other()
        return if_else

    def s_while(self, node):
        return _loop(self.cbool(node[2]), self.stmt(node[3]), None, self.rt.tick, True)

    def s_do(self, node):
        return _loop(self.cbool(node[3]), self.stmt(node[2]), None, self.rt.tick, False)

    def s_for(self, node):
        init = self.stmt(node[2]) if node[2] is not None else None
        c = self.cbool(node[3]) if node[3] is not None else (lambda: True)
        incr = self.stmt(node[4]) if node[4] is not None else None
        loop = _loop(c, self.stmt(node[5]), incr, self.rt.tick, True)
        if init is None:
            return loop

        def for_():
            init()
            return loop()
        return for_

    def s_switch(self, node):
        subject = self.cval(node[2])
        rt = self.rt
        tests = []
        starts = []
        bodies: list = []
        default = None
        for kind, value, body in node[3]:
            starts.append(len(bodies))
            bodies.extend(self.stmt(s) for s in body)
            if kind == "default":
                default = starts[-1]
                continue
            if value[0] == "group":
                value = value[1]
            if value[0] == "regex":
                tests.append((self.const_regex(value[1]), None, starts[-1]))
            else:
                const = value[1] if value[0] == "str" else self.cnum(value)()
                tests.append((None, const, starts[-1]))
        eq = _cmp_op("==")
        cv = B.compare_values

        def switch():
            v = subject()
            at = default
            for rx, const, start in tests:
                if rx is not None:
                    s = rt.S(v)
                    if rx.search_start(s, 0, len(s)) >= 0:
                        at = start
                        break
                elif cv(eq, v, const, rt):
                    at = start
                    break
            if at is None:
                return None
            for k in range(at, len(bodies)):
                r = bodies[k]()
                if r is not None:
                    return None if r is BREAK else r
            return None
        return switch

    def s_forin(self, node):
        var, arrname, body = node[2], node[3], self.stmt(node[4])
        _, set_ = self.lvalue(var)
        arr = self.array_getter(arrname)
        rt = self.rt
        order = B.for_in_keys
        tick = rt.tick

        def forin():
            d = arr()
            n = 0
            for k in order(rt, d):
                set_(StrNum(k) if type(k) is bytes else k)
                r = body()
                if r is not None:
                    if r is BREAK:
                        break
                    if r is not CONTINUE:
                        return r
                n += 1
                if not n & 1023:
                    tick()
            return None
        return forin

    def s_next(self, node):
        def next_():
            raise NextRecord()
        return next_

    def s_nextfile(self, node):
        def nextfile():
            raise NextFile()
        return nextfile

    def s_exit(self, node):
        rt = self.rt
        e = self.cnum(node[2]) if node[2] is not None else None

        def exit_():
            if e is not None:
                rt.exit_status = int(e()) & 255
            raise ExitProgram(rt.exit_status)
        return exit_

    def s_return(self, node):
        e = self.cval(node[2]) if node[2] is not None else None
        if e is None:
            r = Ret(UNINIT)
            return lambda: r

        def return_():
            v = e()
            if type(v) is AwkArray:
                raise AwkFatal("attempt to use array in a scalar context", self.rt.cur_line)
            return Ret(v)
        return return_

    def s_break(self, node):
        return lambda: BREAK

    def s_continue(self, node):
        return lambda: CONTINUE

    def s_delete(self, node):
        name, subs = node[2], node[3]
        arr = self.array_getter(name)
        if subs is None:
            def delete_all():
                arr().clear()
            return delete_all
        key = self.subscript(subs)

        def delete_one():
            arr().pop(key(), None)
        return delete_one

    # ---------------------------------------------------------------- functions ---------

    def compile_functions(self) -> None:
        for name, (params, body, line) in self.funcs.items():
            self.locals = {p: i for i, p in enumerate(params)}
            self.cur_func = name
            f = self.stmt(body)
            self.compiled_funcs.setdefault(name, [None])[0] = f
        self.locals = None
        self.cur_func = None


class _LazyRegex:
    """A regexp constant, compiled on first use (and again when IGNORECASE changes)."""

    __slots__ = ("rt", "text", "rx", "icase")

    def __init__(self, rt, text: bytes):
        self.rt = rt
        self.text = text
        self.rx = None
        self.icase = None
        self.get()

    def get(self):
        if self.rx is None or self.icase != self.rt.icase:
            self.icase = self.rt.icase
            self.rx = self.rt.regex(self.text, self.icase)
        return self.rx

    def search_start(self, data, pos, endpos):
        rx = self.rx
        if self.icase != self.rt.icase:
            rx = self.get()
        return rx.search_start(data, pos, endpos)

    def search(self, data, pos=0, endpos=None, not_bol=False):
        return self.get().search(data, pos, endpos, not_bol=not_bol)


def _ran_out(fmt: bytes) -> int:
    return max(0, len(fmt.decode("utf-8", "surrogateescape")) - 1)
