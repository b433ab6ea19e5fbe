"""Unit tests of the AST guard: every rule, positions, and that nothing runs on refusal."""

from __future__ import annotations

import pytest

from sandbox import commands as registry
from sandbox.guard import FORBIDDEN, check, line_col
from sandbox.parse import parse_uncached
from sandbox.policy import DEFAULT_ALLOW, Policy


def violations(script: str, **policy) -> list[str]:
    return check(script, parse_uncached(script), Policy(**policy), "/")[0]


def test_clean_script_passes() -> None:
    assert violations("cat a | head -n 1 > out; echo $x; f() { cat; }; f; cd /; [ -f a ]") == []


def test_not_on_allowlist_with_position() -> None:
    v = violations("echo ok\n  rm -rf /")
    assert len(v) == 1 and v[0].startswith("line 2, col 3:") and "`rm` is not an allowed command" in v[0]


def test_every_violation_is_reported() -> None:
    v = violations("eval x; $1 y; rm z & source f")
    assert len(v) == 5


@pytest.mark.parametrize("name", sorted(set(FORBIDDEN) - {"coproc"}))  # coproc: a parse error
def test_forbidden_builtins(name: str) -> None:
    v = violations(f"{name} x")
    assert len(v) == 1 and f"`{name}` is not allowed" in v[0]


@pytest.mark.parametrize("script", ["read CMD; $CMD x", "$(echo rm) x", "`echo rm` x",
                                    "${X:-cat} a", "C=$(echo rm); \"$C\" x", "c*t x",
                                    "{cat,x}", "x$y z"])
def test_command_name_must_be_literal(script: str) -> None:
    v = violations(script)
    assert len(v) == 1 and "not a literal word" in v[0]


def test_quoted_literal_command_name_is_fine() -> None:
    assert violations("'cat' a; \"echo\" b; e\\cho c") == []


@pytest.mark.parametrize("script", ["echo $(eval x)", "echo \"$(eval x)\"", "cat <<EOF\n$(eval x)\nEOF",
                                    "f() { eval x; }", "echo ${v:-$(eval x)}", "x=$(eval y)",
                                    "for i in $(eval x); do :; done", "echo x > $(eval y)",
                                    "( eval x )", "{ eval x; }", "if eval x; then :; fi",
                                    "while eval x; do :; done", "echo `eval x`"])
def test_walks_everywhere(script: str) -> None:
    v = violations(script)
    assert any("`eval` is not allowed" in m for m in v), v


def test_background_refused() -> None:
    v = violations("echo a & echo b")
    assert len(v) == 1 and "background" in v[0]


def test_read_only_refuses_redirections() -> None:
    for script in ["echo x > f", "echo x >> f", "echo x &> f", "echo x 2> f", "{ echo; } > f",
                   "for i in 1; do echo; done > f", "echo x >| f", "f=a; echo > $f"]:
        v = violations(script, read_only=True)
        assert v and "read-only" in v[0], script
    for script in ["echo x > /dev/null", "echo x 2>&1", "echo x >&2", "cat < f"]:
        assert violations(script, read_only=True) == [], script


@pytest.mark.parametrize("script,cmd", [("mkdir d", "mkdir"), ("touch t", "touch"),
                                        ("echo x | tee f", "tee"), ("sed -i s/a/b/ f", "sed"),
                                        ("rm f", "rm"), ("mv a b", "mv"), ("cp a b", "cp")])
def test_read_only_uses_commands_writes(script: str, cmd: str) -> None:
    if registry.get(cmd) is None:
        pytest.skip(f"{cmd} not registered yet")
    if registry.get(cmd).writes is None:
        pytest.fail(f"{cmd} has no writes(args): the guard can't see what it writes")
    v = violations(script, read_only=True, allow=DEFAULT_ALLOW | {"rm", "mv", "cp", "tee"})
    assert v and "read-only" in v[0]


def test_protected_paths() -> None:
    v = violations("echo x >> /.memory/log.jsonl", protected=frozenset({"/.memory/log.jsonl"}))
    assert v and "protected" in v[0]
    v = violations("cd /; echo x > .memory/../.memory/log.jsonl",
                   protected=frozenset({"/.memory/*.jsonl"}))
    assert v and "protected" in v[0]
    assert violations("echo x > other", protected=frozenset({"/.memory/*.jsonl"})) == []


def test_function_may_not_shadow_builtin() -> None:
    assert violations("cd() { :; }")
    assert violations("f() { :; }; f") == []


def test_approval_callback() -> None:
    calls = []

    def approve(script: str, writes: list[str]) -> bool:
        calls.append(writes)
        return "b" not in writes[0] if writes else True

    tree = parse_uncached("echo x > a; echo y >> /c")
    assert check("echo x > a; echo y >> /c", tree, Policy(approve=approve), "/d")[0] == []
    assert calls == [["/d/a", "/c"]]
    tree = parse_uncached("echo x > b")
    v = check("echo x > b", tree, Policy(approve=approve), "/")[0]
    assert v and "approval" in v[0]


def test_approval_not_asked_when_already_refused() -> None:
    calls = []
    tree = parse_uncached("eval x")
    check("eval x", tree, Policy(approve=lambda s, w: calls.append(1) or True), "/")
    assert calls == []


def test_line_col() -> None:
    assert line_col("ab\ncd", 0) == (1, 1)
    assert line_col("ab\ncd", 4) == (2, 2)
