"""The ``bash`` tool over the memory directory: result string, policy, memory rules."""

from __future__ import annotations

import json

import pytest

from memtool import Memory
from memtool.tools.bash_tool import format_result, sandbox_available

needs_sandbox = pytest.mark.skipif(not sandbox_available(), reason="the sandbox (sandbox.api) is not installed")


def has_command(name: str) -> bool:
    try:
        from sandbox import commands
    except ImportError:
        return False
    return name in commands.names()


def needs(*names: str):
    missing = [n for n in names if not has_command(n)]
    return pytest.mark.skipif(bool(missing) or not sandbox_available(),
                              reason=f"sandbox command(s) not available yet: {', '.join(missing) or 'sandbox'}")


@pytest.mark.parametrize("out,err,code,expected", [
    (b"hello\n", b"", 0, "hello\n"),
    (b"", b"", 0, "(no output)"),
    (b"", b"", 3, "[exit code 3]"),
    (b"a", b"b", 1, "a\nb\n[exit code 1]"),
    (b"a\n", b"warn\n", 2, "a\nwarn\n[exit code 2]"),
    (b"\xff\xfe", b"", 0, "\ufffd\ufffd"),
])
def test_format_result(out, err, code, expected):
    assert format_result(out, err, code, 1000) == expected


def test_format_result_cut_marker():
    text = format_result(b"x" * 250, b"", 0, 100)
    assert text == "x" * 100 + "\n[output cut: 150 more characters not shown; narrow the command, e.g. with grep, head or tail]"


@needs_sandbox
@needs("cat")
def test_cat_core(mem):
    assert mem.bash("cat /.memory/core.md") == mem.store.read_bytes("core.md").decode()
    assert mem.bash("cat core.md") == mem.store.read_bytes("core.md").decode()  # cwd is /.memory


@needs("echo")
def test_echo_append_reports_core_size(mem):
    before = len(mem.core.text())
    out = mem.bash('echo "- likes tea" >> /.memory/core.md')
    assert out == f"(no output)\n[core.md: {before + 12}/4000 chars]"
    assert mem.core.text().endswith("- likes tea\n")
    assert "- likes tea" in mem.system_prompt()


@needs("echo")
def test_shell_stderr_is_bash_stderr_until_core_is_near_its_budget(store):
    mem = Memory(store, core_budget=100)
    mem.store.write_bytes("core.md", b"# Core\n")
    assert mem.shell("echo '- tea' >> core.md") == ("", "", 0)
    assert mem.shell("echo " + "x" * 81 + " >> core.md") == ("", "[core.md: 95/100 chars]\n", 0)
    out, err, status = mem.shell("echo " + "y" * 10 + " >> core.md")
    assert out == "" and status == 0 and err.startswith("Error: core.md would grow to 106 ")
    assert err.endswith("The change to core.md was undone.\n[core.md: 95/100 chars]\n")
    assert len(mem.core.text()) == 95


@needs("echo")
def test_core_budget_enforced_and_undone(store):
    mem = Memory(store, core_budget=250)
    before = mem.store.read_bytes("core.md")
    out = mem.bash(f"echo '{'y' * 300}' >> /.memory/core.md")
    assert out.startswith("(no output)\nError: core.md would grow to ")
    assert "over its budget of 250" in out and "move detail to notes.md" in out
    assert out.endswith(f"The change to core.md was undone.\n[core.md: {len(before)}/250 chars]")
    assert mem.store.read_bytes("core.md") == before


@needs("sed")
def test_sed_in_place(mem):
    mem.store.write_bytes("core.md", b"- Prefers concise answers\n")
    out = mem.bash("sed -i 's/concise/detailed/' /.memory/core.md")
    assert out == "(no output)\n[core.md: 27/4000 chars]"
    assert mem.store.read_bytes("core.md") == b"- Prefers detailed answers\n"


@needs("grep", "tail", "jq")
def test_conversation_greps(mem):
    mem.record("user", "What about the pricing?")
    mem.record("assistant", "The budget is fixed.")
    mem.record("user", "ok")
    out = mem.bash('grep -niE "pricing|budget" /.memory/conversations.jsonl')
    lines = out.splitlines()
    assert [ln.split(":", 1)[0] for ln in lines] == ["1", "2"]
    assert json.loads(lines[0].split(":", 1)[1])["content"] == "What about the pricing?"
    out = mem.bash("tail -n 40 /.memory/conversations.jsonl | jq -c '.role + \": \" + .content'")
    assert out == '"user: What about the pricing?"\n"assistant: The budget is fixed."\n"user: ok"\n'


@needs("grep")
def test_grep_n_notes(mem):
    mem.store.write_bytes("notes.md", b"a\nbudget line\n")
    assert mem.bash('grep -n "budget" /.memory/notes.md') == "2:budget line\n"


@needs_sandbox
@pytest.mark.parametrize("cmd", ["perl -e 'print 1'", "python3 -c 'print(1)'", "python -V", "curl https://example.com",
                                 "wget x", "bash -c ls", "sh -c ls", "nc -l 1"])
def test_other_programs_get_the_allowed_list(mem, cmd, snapshot):
    before = snapshot(mem.store)
    out = mem.bash(cmd)
    assert out.endswith("[exit code 126]") or "[exit code 126]\nAllowed commands:" in out, out
    assert "allowed" in out.lower()
    for name in ("cat", "grep", "jq", "tail"):
        assert name in out
    assert snapshot(mem.store) == before


@needs_sandbox
@pytest.mark.parametrize("cmd", ["echo x >> /.memory/conversations.jsonl", "echo x > conversations.jsonl"])
def test_conversations_protected(mem, cmd, snapshot):
    mem.record("user", "hi")
    before = snapshot(mem.store)
    out = mem.bash(cmd)
    assert "[exit code" in out and "protected" in out, out
    assert snapshot(mem.store) == before


@needs("echo")
def test_read_only_bash(store, snapshot):
    mem = Memory(store, read_only=True)
    before = snapshot(mem.store)
    out = mem.bash("echo x >> /.memory/notes.md")
    assert "[exit code" in out
    assert snapshot(mem.store) == before


@needs("cat")
def test_output_cut_at_configured_size(store):
    mem = Memory(store, bash_output_chars=50)
    mem.store.write_bytes("notes.md", b"z" * 120)
    assert mem.bash("cat notes.md") == "z" * 50 + "\n[output cut: 70 more characters not shown; narrow the command, e.g. with grep, head or tail]"


@needs_sandbox
def test_no_host_path_in_errors(tmp_path):
    mem = Memory(str(tmp_path / "m"), gitignore=False)
    for cmd in ("cat /etc/passwd", "cat ../../etc/passwd", "cat missing.md", "cd / && cat x"):
        out = mem.bash(cmd)
        assert str(tmp_path) not in out, out


def test_empty_command(mem):
    assert mem.bash("   ") == "Error: `command` is empty; give a shell command such as: cat /.memory/core.md"
