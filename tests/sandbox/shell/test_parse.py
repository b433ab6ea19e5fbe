"""Unit tests of the front end: AST shapes, here-documents, unsupported syntax, fuzzing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.errors import UnsupportedSyntax
from sandbox.parse import parse, parse_uncached
from sandbox.parse.ast import (
    DQ, AndOr, BraceGroup, CmdSub, For, FunctionDef, If, Lit, Param, Pipeline, Quoted, Script,
    SimpleCommand, Subshell, While,
)


def first_cmd(text: str):
    return parse_uncached(text).items[0].first.commands[0]


def test_simple_command_words_assigns_redirects() -> None:
    cmd = first_cmd("a=1 b=$x echo \"hi $v\" >f 2>&1 <<<x")
    assert isinstance(cmd, SimpleCommand)
    assert [a.name for a in cmd.assigns] == ["a", "b"]
    assert [w.text for w in cmd.words] == ["echo", '"hi $v"']
    assert [(r.op, r.fd) for r in cmd.redirects] == [(">", None), (">&", 2), ("<<<", None)]
    assert isinstance(cmd.words[1].parts[0], DQ)


def test_lists_and_pipelines() -> None:
    tree = parse_uncached("a | b && c || d; e\nf")
    assert len(tree.items) == 3
    andor = tree.items[0]
    assert isinstance(andor, AndOr) and [op for op, _ in andor.rest] == ["&&", "||"]
    assert len(andor.first.commands) == 2
    neg = parse_uncached("! a | b").items[0].first
    assert isinstance(neg, Pipeline) and neg.negate


def test_compound_commands() -> None:
    assert isinstance(first_cmd("{ a; b; }"), BraceGroup)
    assert isinstance(first_cmd("(a; b) > x"), Subshell)
    node = first_cmd("if a; then b; elif c; then d; else e; fi")
    assert isinstance(node, If) and len(node.clauses) == 2 and node.else_body is not None
    loop = first_cmd("for x in 1 2; do echo $x; done")
    assert isinstance(loop, For) and loop.var == "x" and len(loop.words) == 2
    assert first_cmd("for x; do :; done").words is None
    assert isinstance(first_cmd("while a; do b; done"), While)
    assert first_cmd("until a; do b; done").until
    f = first_cmd("f() { echo; }")
    assert isinstance(f, FunctionDef) and f.name == "f"
    assert isinstance(first_cmd("function g { :; }"), FunctionDef)


def test_expansions_are_typed() -> None:
    w = first_cmd("echo ${v//a/b} `ls` $(echo $(ls)) ${#v} $1 $@").words
    p = w[1].parts[0]
    assert isinstance(p, Param) and p.op == "//" and p.arg.text == "a" and p.repl.text == "b"
    assert isinstance(w[2].parts[0], CmdSub) and isinstance(w[3].parts[0], CmdSub)
    assert w[4].parts[0].op == "#len"
    assert w[5].parts[0].name == "1" and w[6].parts[0].name == "@"
    sub = first_cmd("echo ${PIPESTATUS[1]}").words[1].parts[0]
    assert sub.name == "PIPESTATUS" and sub.index.text == "1"


def test_quotes() -> None:
    w = first_cmd("echo 'a $b' $'x\\ty' a\\ b").words
    assert w[1].parts == [Quoted("a $b")]
    assert w[2].parts == [Quoted("x\ty")]
    assert w[3].parts == [Lit("a"), Quoted(" "), Lit("b")]


def test_heredocs() -> None:
    cmd = first_cmd("cat <<'EOF' | wc\nhi $x\nEOF\necho z")
    r = cmd.redirects[0]
    assert r.heredoc_quoted and r.heredoc.text == "hi $x\n"
    cmd = first_cmd("cat <<-EOF\n\thi $x\n\tEOF\n")
    r = cmd.redirects[0]
    assert not r.heredoc_quoted and any(isinstance(p, Param) for p in r.heredoc.parts)
    tree = parse_uncached("cat <<A; cat <<B\none\nA\ntwo\nB\necho end")
    bodies = [i.first.commands[0].redirects[0].heredoc.text for i in tree.items[:2]]
    assert bodies == ["one\n", "two\n"]
    assert len(tree.items) == 3


@pytest.mark.parametrize("text,needle", [
    ("coproc cat", "coproc"),
    ("select x in a; do :; done", "select"),
])
def test_unsupported_syntax_one_line(text: str, needle: str) -> None:
    with pytest.raises(UnsupportedSyntax) as info:
        parse_uncached(text)
    msg = str(info.value)
    assert needle in msg and "\n" not in msg


@pytest.mark.parametrize("text,token", [
    ("fi", "fi"), ("if true; then; fi", ";"), ("echo a |", ""), ("a && ", ""), (")", ")"),
    ("echo 'unterminated", ""), ('echo "x', ""),
    ("{ echo a", ""), ("while true; do :;", ""), ("f() echo", ""), ("echo $(echo", ""),
])
def test_syntax_errors(text: str, token: str) -> None:
    with pytest.raises(UnsupportedSyntax) as info:
        parse_uncached(text)
    assert "\n" not in str(info.value)
    if token:
        assert f"`{token}'" in str(info.value)


def test_cache_returns_same_tree() -> None:
    assert parse("echo cached") is parse("echo cached")
    assert isinstance(parse("echo cached"), Script)


def test_deep_nesting_refused() -> None:
    with pytest.raises(UnsupportedSyntax, match="nested too deeply"):
        parse_uncached("{ " * 500 + "echo" + "; }" * 500)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab $'\"\\`(){}[]<>|&;#=*?~!-\n\t{}0123456789:/%+@")),
               max_size=40))
def test_fuzz_never_crashes(text: str) -> None:
    try:
        tree = parse_uncached(text)
    except UnsupportedSyntax as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(tree, Script)
