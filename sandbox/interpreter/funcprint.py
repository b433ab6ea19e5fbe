"""``declare -f`` / ``typeset -f``: a function printed as bash 5.2 prints it (print_cmd.c).

Covered: simple commands (assignments, words as written, redirections ``<`` ``>`` ``>>``
``>|`` ``<>`` ``&>`` ``&>>`` ``N>&M`` ``<<<``), pipelines (``!``, ``time``, ``|&``),
``&&``/``||`` lists, brace groups, subshells, ``(( ))``, ``if``/``elif``/``else``,
``for ... in``, arithmetic ``for``, ``while``/``until``, ``case`` (``;;`` arms), ``[[ ]]``,
and a redirection after a loop or group (``done < file``). Anything else (here-documents,
nested functions, array assignments) returns None: the caller refuses it in one line rather
than print it differently from bash.
"""

from __future__ import annotations

import re

from sandbox.parse.ast import (
    AndOr, ArithCmd, ArithFor, Assign, BraceGroup, Case, CondAndOr, CondBinary, CondExpr, CondNot,
    CondUnary, DBracket, For, FunctionDef, If, Pipeline, Redirect, Script, SimpleCommand, Subshell,
    While,
)

_IND = "    "


class _Unprintable(Exception):
    """A construct this printer does not print as bash would."""


def render(func: FunctionDef) -> str | None:
    """``declare -f NAME``'s text (no final newline), or None when not covered."""
    body = func.body
    try:
        if isinstance(body, Subshell):  # `f() ( ... )`: printed in braces
            inner = _IND + _command(body, 1)
        elif not isinstance(body, BraceGroup) or body.redirects:
            return None
        else:
            inner = _list(body.body, 1, last_semicolon=False)
    except _Unprintable:
        return None
    return f"{func.name} () \n{{ \n{inner}\n}}"


def command_text(current: object) -> str:
    """``$BASH_COMMAND``: the running simple command as bash prints it (words as written,
    ``2> /dev/null``), ``(( expr ))``, or a ``[[ ]]`` (given with the text it is in)."""
    if current is None:
        return ""
    if isinstance(current, SimpleCommand):
        try:
            return _command(current, 0)
        except _Unprintable:
            pieces = [f"{a.name}{'+' if a.append else ''}=" + (a.value.text if a.array is None
                                                              else "(...)")
                      for a in current.assigns]
            pieces += [w.text for w in current.words]
            pieces += [f"{'' if r.fd is None else r.fd}{r.op} {r.target.text if r.target else ''}"
                       .rstrip() for r in current.redirects]
            return " ".join(p for p in pieces if p)
    cmd, source = current  # type: ignore[misc]
    if isinstance(cmd, ArithCmd):
        return f"(({cmd.expr.text}))"
    text = source[cmd.pos:] if isinstance(source, str) else ""
    m = _DBRACKET_END.search(text)
    if not text.startswith("[[") or m is None:
        return "[[ ]]"
    # the words one space apart (bash prints the parsed condition; quotes stay as written)
    words = [w.group(0) for w in _COND_WORD.finditer(text[2:m.start()])]
    return "[[ " + " ".join(words) + " ]]"


#: The ``]]`` that ends a ``[[ ]]`` command.
_DBRACKET_END = re.compile(r"\s\]\](?=[\s;&|)]|$)")
#: One word of a ``[[ ]]`` condition as written (its quotes and escapes kept).
_COND_WORD = re.compile(r"""(?:[^\s'"\\]|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+""", re.S)


def _list(script: Script, level: int, last_semicolon: bool) -> str:
    """Each and-or list on its own line at ``level``; ``;`` after each (after the last too
    when ``last_semicolon``: the body of an ``if`` or a loop)."""
    if not script.items:
        raise _Unprintable
    lines = [_IND * level + _andor(item, level) for item in script.items]
    text = ";\n".join(lines)
    return text + ";" if last_semicolon else text


def _inline(script: Script, level: int) -> str:
    """A condition (``if COND; then``): a second list goes on the next line, as bash
    prints it."""
    if not script.items:
        raise _Unprintable
    return f";\n{_IND * level}".join(_andor(item, level) for item in script.items)


def _andor(node: AndOr, level: int) -> str:
    if node.background:
        raise _Unprintable
    out = _pipeline(node.first, level)
    for op, pipe in node.rest:
        out += f" {op} " + _pipeline(pipe, level)
    return out


def _pipeline(node: Pipeline, level: int) -> str:
    # `a |& b` is printed as `a 2>&1 | b`; `time` (`-p`) before `!`, as bash prints them
    text = " | ".join(_command(c, level) + (" 2>&1" if err else "")
                      for c, err in zip(node.commands, list(node.stderr_pipes) + [False]))
    text = "! " + text if node.negate else text
    if node.timed is not None:
        text = ("time -p " if node.timed == "p" else "time ") + text
    return text


def _command(cmd: object, level: int) -> str:
    if isinstance(cmd, SimpleCommand):
        pieces = [_assign(a) for a in cmd.assigns] + [w.text for w in cmd.words]
        pieces += [_redirect(r) for r in cmd.redirects]
        if not pieces or any(not p for p in pieces):
            raise _Unprintable
        return " ".join(pieces)
    ind = _IND * level
    if isinstance(cmd, BraceGroup):
        text = "{ \n" + _list(cmd.body, level + 1, False) + "\n" + ind + "}"
    elif isinstance(cmd, If):
        text = _if(cmd.clauses, cmd.else_body, level)
    elif isinstance(cmd, For):
        if cmd.words is None:
            raise _Unprintable
        words = " ".join(w.text for w in cmd.words)
        text = (f"for {cmd.var} in {words};\n{ind}do\n" + _list(cmd.body, level + 1, True)
                + f"\n{ind}done")
    elif isinstance(cmd, While):
        keyword = "until" if cmd.until else "while"
        text = (f"{keyword} {_inline(cmd.cond, level)}; do\n"
                + _list(cmd.body, level + 1, True) + f"\n{ind}done")
    elif isinstance(cmd, Case):
        text = _case(cmd, level)
    elif isinstance(cmd, Subshell):  # its lines at the subshell's own level, as bash's
        text = f"( {_inline(cmd.body, level)} )"
    elif isinstance(cmd, ArithCmd):
        text = f"(({cmd.expr.text}))"
    elif isinstance(cmd, DBracket):
        text = f"[[ {_cond(cmd.expr)} ]]"
    elif isinstance(cmd, ArithFor):
        # each section without its leading blanks, an empty one as 1 (print_arith_for_command)
        init, cond, step = (w.text.lstrip(" \t\n") or "1" for w in (cmd.init, cmd.cond, cmd.step))
        text = (f"for (({init}; {cond}; {step}))\n{ind}do\n" + _list(cmd.body, level + 1, True)
                + f"\n{ind}done")
    else:
        raise _Unprintable
    redirects = getattr(cmd, "redirects", [])
    if redirects:
        text += " " + " ".join(_redirect(r) for r in redirects)
    return text


def _cond(e: CondExpr) -> str:
    """A ``[[ ]]`` condition as bash's print_cond_node writes it: words as written, one blank
    between, ``[[ word ]]`` as ``-n word``, each ``( )`` written kept."""
    if isinstance(e, CondNot):
        text = "! " + _cond(e.expr)
    elif isinstance(e, CondAndOr):
        text = f"{_cond(e.left)} {e.op} {_cond(e.right)}"
    elif isinstance(e, CondUnary):
        text = f"{e.op} {e.operand.text}"
    elif isinstance(e, CondBinary):
        text = f"{e.left.text} {e.op} {e.right.text}"
    else:
        text = f"-n {e.word.text}"
    for _ in range(e.paren):
        text = f"( {text} )"
    return text


def _if(clauses: list, else_body: Script | None, level: int) -> str:  # type: ignore[type-arg]
    ind = _IND * level
    cond, body = clauses[0]
    text = f"if {_inline(cond, level)}; then\n" + _list(body, level + 1, True) + "\n"
    if len(clauses) > 1:  # bash prints `elif` as an `if` inside the `else`
        text += (f"{ind}else\n{_IND * (level + 1)}" + _if(clauses[1:], else_body, level + 1)
                 + ";\n")
    elif else_body is not None:
        text += f"{ind}else\n" + _list(else_body, level + 1, True) + "\n"
    return text + f"{ind}fi"


def _case(cmd: Case, level: int) -> str:
    ind = _IND * level
    out = [f"case {cmd.word.text} in "]
    for arm in cmd.arms:
        if arm.term != ";;" or not arm.body.items:
            raise _Unprintable
        out.append(_IND * (level + 1) + " | ".join(p.text for p in arm.patterns) + ")")
        out.append(_list(arm.body, level + 2, False))
        out.append(_IND * (level + 1) + ";;")
    out.append(ind + "esac")
    return "\n".join(out)


def _assign(a: Assign) -> str:
    if a.array is not None or a.index is not None:
        raise _Unprintable
    return f"{a.name}{'+=' if a.append else '='}{a.value.text}"


def _redirect(r: Redirect) -> str:
    if r.heredoc is not None or r.varname is not None or r.target is None:
        raise _Unprintable
    op, target = r.op, r.target.text
    if op in (">&", "<&"):
        if not (target.isdigit() or target == "-"):
            raise _Unprintable
        fd = r.fd if r.fd is not None else (1 if op == ">&" else 0)
        return f"{fd}{op}{target}"
    if op in ("&>", "&>>"):
        if r.fd is not None:
            raise _Unprintable
        return f"{op} {target}"
    if op == "<>":  # bash writes its descriptor even when it is 0
        return f"{0 if r.fd is None else r.fd}{op} {target}"
    if op not in (">", ">>", "<", "<<<", ">|"):
        raise _Unprintable
    default = 0 if op in ("<", "<<<") else 1
    return f"{'' if r.fd is None or r.fd == default else r.fd}{op} {target}"
