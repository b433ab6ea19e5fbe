"""Compile a jq AST (tuples from ``parser.py``) into evaluator nodes (``interp.py``).

Names are resolved lexically here, once: a variable becomes the identity of its binding, a
call becomes a direct reference to a user definition, a parameter, a jq-defined builtin or a
Python builtin. Unknown names are compile errors worded as jq words them
(``foo/0 is not defined``, ``$x is not defined``).
"""

from __future__ import annotations

from typing import Any

from sandbox.commands.jq import interp as I
from sandbox.commands.jq.errors import JQSyntaxError

Scope = Any  # linked list: (entry, next) | None; entry = (kind, name, arity, target)


class Globals:
    """What the root scope offers: builtins and the global variables of one run."""

    def __init__(self, builtins: dict[tuple[str, int], Any], variables: dict[str, Any]):
        self.builtins = builtins
        self.variables = variables


def _find(scope: Scope, kind: str, name: str, arity: int = 0) -> Any:
    while scope is not None:
        entry, scope = scope
        if entry[1] == name:
            if kind == "func" and entry[0] in ("func", "param") and entry[2] == arity:
                return entry
            if kind == entry[0] and kind in ("var", "label"):
                return entry
        # a parameter `f` is also visible as function f/0 only
    return None


class Compiler:
    """Turns one AST into nodes against a ``Globals``."""

    def __init__(self, glob: Globals):
        self.glob = glob

    def compile(self, ast: tuple, scope: Scope = None) -> I.Node:
        """Compile a node."""
        kind = ast[0]
        method = getattr(self, "c_" + kind)
        return method(ast, scope)

    # -- simple nodes ----------------------------------------------------------------------

    def c_identity(self, ast, scope):
        return I.Identity()

    def c_recurse_default(self, ast, scope):
        return I.RecurseDefault()

    def c_literal(self, ast, scope):
        return I.Literal(ast[1])

    def c_paren(self, ast, scope):
        return self.compile(ast[1], scope)

    def c_index(self, ast, scope):
        target = self.compile(ast[1], scope)
        key = ast[2]
        if ast[-1] == "opt":
            return I.OptStep(I.Index(I.Identity(), self.compile(key, scope)) if not (key[0] == "literal" and isinstance(key[1], str)) else I.Field(I.Identity(), key[1]), target)
        if key[0] == "literal" and isinstance(key[1], str):
            return I.Field(target, key[1])
        return I.Index(target, self.compile(key, scope))

    def c_slice(self, ast, scope):
        target = self.compile(ast[1], scope)
        lo = self.compile(ast[2], scope) if ast[2] is not None else None
        hi = self.compile(ast[3], scope) if ast[3] is not None else None
        if ast[-1] == "opt":
            return I.OptStep(I.Slice(I.Identity(), lo, hi), target)
        return I.Slice(target, lo, hi)

    def c_iterate(self, ast, scope):
        if ast[-1] == "opt":
            return I.OptStep(I.Iterate(I.Identity()), self.compile(ast[1], scope))
        return I.Iterate(self.compile(ast[1], scope))

    def c_pipe(self, ast, scope):
        return I.Pipe(self.compile(ast[1], scope), self.compile(ast[2], scope))

    def c_comma(self, ast, scope):
        return I.Comma(self.compile(ast[1], scope), self.compile(ast[2], scope))

    def c_neg(self, ast, scope):
        return I.Neg(self.compile(ast[1], scope))

    def c_binop(self, ast, scope):
        return I.BinOp(ast[1], self.compile(ast[2], scope), self.compile(ast[3], scope))

    def c_and(self, ast, scope):
        return I.And(self.compile(ast[1], scope), self.compile(ast[2], scope))

    def c_or(self, ast, scope):
        return I.Or(self.compile(ast[1], scope), self.compile(ast[2], scope))

    def c_alt(self, ast, scope):
        return I.Alt(self.compile(ast[1], scope), self.compile(ast[2], scope))

    def c_if(self, ast, scope):
        other = self.compile(ast[3], scope) if ast[3] is not None else I.Identity()
        return I.If(self.compile(ast[1], scope), self.compile(ast[2], scope), other)

    def c_try(self, ast, scope):
        handler = self.compile(ast[2], scope) if ast[2] is not None else None
        return I.Try(self.compile(ast[1], scope), handler)

    def c_array(self, ast, scope):
        return I.ArrayNode(self.compile(ast[1], scope) if ast[1] is not None else None)

    def c_object(self, ast, scope):
        entries = [(self.compile(k, scope), self.compile(v, scope)) for k, v in ast[1]]
        return I.ObjectNode(entries)

    def c_interp(self, ast, scope):
        parts = [p if isinstance(p, str) else self.compile(p, scope) for p in ast[1]]
        return I.Interp(parts, ast[2])

    def c_format(self, ast, scope):
        return I.FormatNode(ast[1])

    def c_loc(self, ast, scope):
        return I.Loc(ast[1])

    def c_var(self, ast, scope):
        name = ast[1]
        entry = _find(scope, "var", name)
        if entry is not None:
            return I.VarRef(entry[3], name)
        if name in self.glob.variables:
            return I.ConstVar(self.glob.variables[name])
        raise JQSyntaxError(f"${name} is not defined")

    def c_assign(self, ast, scope):
        return I.Assign(ast[1], self.compile(ast[2], scope), self.compile(ast[3], scope))

    # -- binding forms ---------------------------------------------------------------------

    def _binder(self, patterns: list, scope: Scope) -> tuple[I.Binder, Scope]:
        names: dict[str, object] = {}
        for pat in patterns:
            for n in _pattern_vars(pat):
                if n not in names:
                    names[n] = object()
        inner = scope
        for n, key in names.items():
            inner = (("var", n, 0, key), inner)
        compiled = [self._pattern(p, inner, names) for p in patterns]
        return I.Binder(compiled, list(names.values())), inner

    def _pattern(self, pat: tuple, scope: Scope, names: dict[str, object]) -> tuple:
        kind = pat[0]
        if kind == "pvar":
            return ("pvar", names[pat[1]])
        if kind == "parray":
            return ("parray", [self._pattern(p, scope, names) for p in pat[1]])
        entries = []
        for keyast, sub, var in pat[1]:
            keynode = self.compile(keyast, scope)
            entries.append(
                (keynode, self._pattern(sub, scope, names) if sub is not None else None, names[var] if var else None)
            )
        return ("pobj", entries)

    def c_as(self, ast, scope):
        src = self.compile(ast[1], scope)
        binder, inner = self._binder(ast[2], scope)
        body = self.compile(ast[3], inner)
        return I.As(src, binder, body)

    def c_reduce(self, ast, scope):
        src = self.compile(ast[1], scope)
        binder, inner = self._binder(ast[2], scope)
        init = self.compile(ast[3], scope)
        update = self.compile(ast[4], inner)
        return I.Reduce(src, binder, init, update)

    def c_foreach(self, ast, scope):
        src = self.compile(ast[1], scope)
        binder, inner = self._binder(ast[2], scope)
        init = self.compile(ast[3], scope)
        update = self.compile(ast[4], inner)
        extract = self.compile(ast[5], inner) if ast[5] is not None else None
        return I.Foreach(src, binder, init, update, extract)

    def c_label(self, ast, scope):
        key = object()
        inner = (("label", ast[1], 0, key), scope)
        return I.Label(key, self.compile(ast[2], inner))

    def c_break(self, ast, scope):
        entry = _find(scope, "label", ast[1])
        if entry is None:
            raise JQSyntaxError(f"$*label-{ast[1]} is not defined")
        return I.BreakNode(entry[3])

    # -- functions -------------------------------------------------------------------------

    def define(self, name: str, params: list[str], body_ast: tuple, scope: Scope) -> tuple[I.FuncDef, Scope]:
        """Compile a definition; return it and the scope in which it is visible."""
        fdef = I.FuncDef(name, params)
        self_scope = (("func", name, len(params), fdef), scope)
        inner = self_scope
        for i, p in enumerate(params):
            pname = p[1:] if p.startswith("$") else p
            inner = (("param", pname, 0, fdef.param_keys[i]), inner)
            if p.startswith("$"):
                inner = (("var", pname, 0, fdef.var_keys[i]), inner)
        fdef.body = self.compile(body_ast, inner)
        return fdef, self_scope

    def c_funcdef(self, ast, scope):
        _, name, params, body_ast, rest_ast = ast
        fdef, self_scope = self.define(name, params, body_ast, scope)
        fdef.rest = self.compile(rest_ast, self_scope)
        return fdef

    def c_call(self, ast, scope):
        _, name, args_ast, line = ast
        arity = len(args_ast)
        entry = _find(scope, "func", name, arity)
        args = [self.compile(a, scope) for a in args_ast]
        if entry is not None:
            if entry[0] == "param":
                return I.CallParam(entry[3])
            return I.CallLocal(entry[3], args)
        target = self.glob.builtins.get((name, arity))
        if target is None:
            if name in ("get_search_list", "modulemeta", "get_prog_origin", "get_jq_origin", "import", "include"):
                from sandbox.commands.jq.parser import MODULES_REFUSED

                raise JQSyntaxError(MODULES_REFUSED)
            raise JQSyntaxError(f"{name}/{arity} is not defined")
        if isinstance(target, I.GlobalDef):
            return I.CallGlobal(target, args)
        special = getattr(target, "special", None)
        if special is not None:
            node = special(args)
            if node is not None:
                return node
        return I.CallNative(target, args)


def _pattern_vars(pat: tuple) -> list[str]:
    kind = pat[0]
    if kind == "pvar":
        return [pat[1]]
    out: list[str] = []
    if kind == "parray":
        for p in pat[1]:
            out.extend(_pattern_vars(p))
        return out
    for _key, sub, var in pat[1]:
        if var:
            out.append(var)
        if sub is not None:
            out.extend(_pattern_vars(sub))
    return out
