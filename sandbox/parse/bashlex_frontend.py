"""The bashlex front end: bashlex's tree converted to our AST (``sandbox.parse.ast``).

bashlex gives the structure (lists, pipelines, compound commands, functions, redirections,
here-documents); the inside of every word (quotes, expansions, nested substitutions) is read
by the same word scanner as the hand-written parser, so both paths yield identical words.
bashlex's ``ParsingError`` and ``NotImplementedError`` become ``UnsupportedSyntax`` with one
line naming what is unsupported and an alternative.

Known bashlex defects (why it is not the primary path, see ``sandbox.parse``): it rejects
here-documents with a quoted delimiter (``<<'EOF'``), and it costs several hundred
microseconds per command where the hand-written parser costs tens.
"""

from __future__ import annotations

from typing import Any

from sandbox.errors import UnsupportedSyntax
from sandbox.parse.ast import (
    AndOr, Assign, BraceGroup, Command, For, FunctionDef, If, Lit, Pipeline, Redirect, Script,
    SimpleCommand, Subshell, While, Word,
)
from sandbox.parse.parser import _NAME_RE, Parser, _parse_heredoc_body, unsupported

_SEPARATORS = {";", "&", "\n"}


class _Converter:
    def __init__(self, src: str):
        self.src = src

    # -- words ----------------------------------------------------------------------------

    def word(self, node: Any) -> Word:
        start, end = node.pos
        p = Parser(self.src[start:end], start)
        w = p.parse_word()
        if p.i != p.n:  # pragma: no cover - bashlex and the scanner disagree on the span
            raise UnsupportedSyntax(f"cannot read the word `{self.src[start:end]}`")
        return w

    def assign(self, node: Any) -> Assign:
        start, end = node.pos
        text = self.src[start:end]
        name, _, _ = text.partition("=")
        append = name.endswith("+")
        name = name.rstrip("+")
        vstart = start + len(name) + (2 if append else 1)
        p = Parser(self.src[vstart:end], vstart)
        value = p.parse_word(assignment=True)
        return Assign(name, value, append, start)

    def redirect(self, node: Any) -> Redirect:
        op = node.type
        fd = node.input if isinstance(node.input, int) else None
        out = node.output
        if isinstance(out, int):
            target = Word([Lit(str(out))], node.pos[0], str(out))
        else:
            target = self.word(out)
        red = Redirect(op, fd, target, node.pos[0])
        if op in ("<<", "<<-"):
            value = node.heredoc.value
            cut = value.rfind("\n")
            body = value[: cut + 1] if cut >= 0 else ""
            red.heredoc_quoted = target.is_quoted()
            red.heredoc = _parse_heredoc_body(body, node.heredoc.pos[0])
        return red

    # -- structure ------------------------------------------------------------------------

    def script(self, nodes: list[Any], pos: int = 0) -> Script:
        items: list[AndOr] = []
        for node in nodes:
            items.extend(self.andors(node))
        return Script(items, pos)

    def andors(self, node: Any) -> list[AndOr]:
        if node.kind != "list":
            return [AndOr(self.pipeline(node), [], False, node.pos[0])]
        out: list[AndOr] = []
        current: AndOr | None = None
        pending_op: str | None = None
        for part in node.parts:
            if part.kind == "operator":
                if part.op in ("&&", "||"):
                    pending_op = part.op
                elif part.op in _SEPARATORS:
                    if current is not None and part.op == "&":
                        current.background = True
                    current = None
                continue
            pipe = self.pipeline(part)
            if current is not None and pending_op:
                current.rest.append((pending_op, pipe))
            else:
                current = AndOr(pipe, [], False, part.pos[0])
                out.append(current)
            pending_op = None
        return out

    def pipeline(self, node: Any) -> Pipeline:
        if node.kind != "pipeline":
            return Pipeline([self.command(node)], False, [], node.pos[0])
        negate = False
        cmds: list[Command] = []
        err: list[bool] = []
        for part in node.parts:
            if part.kind == "reservedword" and part.word == "!":
                negate = not negate
            elif part.kind == "pipe":
                err.append(part.pipe == "|&")
            else:
                cmds.append(self.command(part))
        return Pipeline(cmds, negate, err, node.pos[0])

    def command(self, node: Any) -> Command:
        kind = node.kind
        if kind == "command":
            assigns, words, redirects = [], [], []
            for part in node.parts:
                if part.kind == "assignment" and not words:
                    assigns.append(self.assign(part))
                elif part.kind in ("word", "assignment"):
                    words.append(self.word(part))
                elif part.kind == "redirect":
                    redirects.append(self.redirect(part))
            return SimpleCommand(assigns, words, redirects, node.pos[0])
        if kind == "function":
            name = next(p for p in node.parts if p.kind == "word")
            body = [p for p in node.parts if p.kind not in ("word", "reservedword")][0]
            body_cmd = self.command(body)
            if isinstance(body_cmd, (SimpleCommand, FunctionDef)):
                raise UnsupportedSyntax("a function body must be a compound command")
            return FunctionDef(self.src[name.pos[0]:name.pos[1]], body_cmd, node.pos[0])
        if kind == "compound":
            redirects = [self.redirect(r) for r in getattr(node, "redirects", [])]
            inner = node.list
            first = inner[0]
            if first.kind == "reservedword" and first.word in ("{", "("):
                body = self.script([p for p in inner[1:-1]], first.pos[1])
                if first.word == "{":
                    return BraceGroup(body, redirects, node.pos[0])
                return Subshell(body, redirects, node.pos[0])
            cmd = self.command(first)
            cmd.redirects = redirects  # type: ignore[union-attr]
            return cmd
        if kind == "if":
            return self.if_(node)
        if kind == "for":
            return self.for_(node)
        if kind in ("while", "until"):
            segs = self.segments(node.parts)
            return While(segs["while" if kind == "while" else "until"], segs["do"],
                         kind == "until", [], node.pos[0])
        raise UnsupportedSyntax(f"unsupported construct ({kind})")

    def segments(self, parts: list[Any]) -> dict[str, Script]:
        """Bodies between reserved words, keyed by the reserved word before them."""
        out: dict[str, Script] = {}
        key = None
        nodes: list[Any] = []
        for part in parts:
            if part.kind == "reservedword":
                if key is not None:
                    out[key] = self.script(nodes)
                key, nodes = part.word, []
            else:
                nodes.append(part)
        return out

    def if_(self, node: Any) -> If:
        clauses: list[tuple[Script, Script]] = []
        else_body = None
        key = None
        nodes: list[Any] = []
        cond: Script | None = None
        for part in node.parts:
            if part.kind != "reservedword":
                nodes.append(part)
                continue
            body = self.script(nodes)
            if key in ("if", "elif"):
                cond = body
            elif key == "then":
                assert cond is not None
                clauses.append((cond, body))
            elif key == "else":
                else_body = body
            key, nodes = part.word, []
        return If(clauses, else_body, [], node.pos[0])

    def for_(self, node: Any) -> For:
        parts = node.parts
        var = self.src[parts[1].pos[0]:parts[1].pos[1]]
        if not _NAME_RE.fullmatch(var):
            raise UnsupportedSyntax(f"`{var}': not a valid identifier")
        words: list[Word] | None = None
        i = 2
        if parts[i].kind == "reservedword" and parts[i].word == "in":
            words = []
            i += 1
            while parts[i].kind == "word":
                words.append(self.word(parts[i]))
                i += 1
        while parts[i].kind == "reservedword" and parts[i].word != "do":
            i += 1
        body_nodes = [p for p in parts[i + 1:] if p.kind != "reservedword"]
        return For(var, words, self.script(body_nodes), [], node.pos[0])


def parse_with_bashlex(src: str) -> Script:
    """Parse ``src`` with bashlex and convert it; ``UnsupportedSyntax`` for anything else."""
    import bashlex
    from bashlex.errors import ParsingError
    try:
        trees = bashlex.parse(src)
    except NotImplementedError as exc:
        text = str(exc)
        if "arithmetic" in text:
            raise unsupported("arith") from None
        if "pattern" in text or "case" in text:
            raise unsupported("case") from None
        if "coproc" in text:
            raise unsupported("coproc") from None
        raise UnsupportedSyntax(f"unsupported syntax ({text.splitlines()[0][:80]})") from None
    except ParsingError as exc:
        if "[[" in src:
            raise unsupported("dbracket") from None
        raise UnsupportedSyntax(f"syntax error: {str(exc).splitlines()[0][:120]}") from None
    except (RecursionError, IndexError, AttributeError, TypeError, ValueError, AssertionError):
        raise UnsupportedSyntax("the script could not be parsed") from None
    try:
        return _Converter(src).script(trees)
    except UnsupportedSyntax:
        raise
    except (RecursionError, IndexError, AttributeError, TypeError, ValueError, AssertionError,
            StopIteration, KeyError):
        raise UnsupportedSyntax("the script could not be parsed") from None
