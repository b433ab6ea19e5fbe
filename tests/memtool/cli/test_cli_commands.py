"""Every memtool command through the CLI entry point (in process, output captured)."""

from __future__ import annotations

import json
import os

import pytest

from memtool.cli import main, notes_recent_first, parse_since, tool_failed


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_init_creates_and_is_idempotent(tmp_path, capsys):
    target = tmp_path / "new"
    code, out, err = cli(capsys, "init", str(target))
    assert code == 0 and err == ""
    assert out == f"{target}: created core.md, notes.md, conversations.jsonl\n"
    assert sorted(p.name for p in target.iterdir()) == ["conversations.jsonl", "core.md", "notes.md"]
    code, out, _ = cli(capsys, "init", "--path", str(target))
    assert code == 0 and out == f"{target}: created nothing (all files exist)\n"


def test_init_scope(tmp_path, capsys):
    code, out, _ = cli(capsys, "init", str(tmp_path / "m"), "--scope", "user:42")
    assert code == 0 and "scope user:42" in out
    assert len(list((tmp_path / "m").rglob("core.md"))) == 1
    code, _, err = cli(capsys, "init", str(tmp_path / "m"), "--scope", "undefined")
    assert code == 1 and err.startswith("memtool init: ") and err.count("\n") == 1


def test_show_plain(memdir, capsys):
    code, out, err = cli(capsys, "show", "--path", str(memdir), "-n", "2", "--notes", "2")
    assert code == 0, err
    core = (memdir / "core.md").read_text()
    assert out.startswith(f"== core.md ({len(core)}/4000 chars) ==\n{core}")
    notes = out.split("== notes.md")[1]
    assert notes.index("2026-09-04") < notes.index("2026-09-03")  # most recent first
    assert "3 older not shown" in out
    turns = [json.loads(line) for line in (memdir / "conversations.jsonl").read_text().splitlines()][-2:]
    for t in turns:
        assert f"[{t['timestamp']}] {t['role']}: {t['content']}\n" in out


def test_show_json(memdir, capsys):
    code, out, _ = cli(capsys, "show", "--path", str(memdir), "--json", "-n", "3")
    data = json.loads(out)
    assert code == 0
    assert data["core"]["text"] == (memdir / "core.md").read_text()
    assert data["core"]["budget"] == 4000 and data["core"]["chars"] == len(data["core"]["text"])
    lines = (memdir / "conversations.jsonl").read_text().splitlines()
    assert data["turns"] == [json.loads(line) for line in lines[-3:]]
    assert data["notes"][0].startswith("- 2026-09-04")


def test_show_does_not_create_anything(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, _ = cli(capsys, "show", "--path", str(empty))
    assert code == 0 and "(0/4000 chars)" in out
    assert list(empty.iterdir()) == []


def test_missing_directory_is_an_error(tmp_path, capsys):
    for command in ("show", "log", "doctor", "sh", "tool", "search", "watch"):
        extra = {"sh": ["-c", "ls"], "tool": ["memory", "{}"], "search": ["x"]}.get(command, [])
        code, out, err = cli(capsys, command, "--path", str(tmp_path / "nope"), *extra)
        assert code == 1, command
        assert err == f"memtool {command}: {tmp_path / 'nope'}: no memory directory here; " \
                      f"create one with: memtool init {tmp_path / 'nope'}\n"
        assert not (tmp_path / "nope").exists()


def test_log_filters(memdir, capsys):
    turns = [json.loads(line) for line in (memdir / "conversations.jsonl").read_text().splitlines()]
    code, out, _ = cli(capsys, "log", "--path", str(memdir), "--json", "-n", "0")
    assert code == 0 and [json.loads(x) for x in out.splitlines()] == turns
    code, out, _ = cli(capsys, "log", "--path", str(memdir), "--json", "-n", "4", "--role", "user")
    assert [json.loads(x) for x in out.splitlines()] == [t for t in turns if t["role"] == "user"][-4:]
    code, out, _ = cli(capsys, "log", "--path", str(memdir), "--json", "-n", "0", "--grep", "PRICING", "-i")
    assert [json.loads(x) for x in out.splitlines()] == [t for t in turns if "pricing" in t["content"].lower()]
    code, out, _ = cli(capsys, "log", "--path", str(memdir), "--json", "-n", "0", "--since", "2026-09-03")
    assert [json.loads(x) for x in out.splitlines()] == [t for t in turns if t["timestamp"] >= "2026-09-03"]
    code, out, _ = cli(capsys, "log", "--path", str(memdir), "--plain", "-n", "1")
    assert out == f"[{turns[-1]['timestamp']}] {turns[-1]['role']}: {turns[-1]['content']}\n"


def test_log_errors_and_malformed_lines(memdir, capsys):
    code, _, err = cli(capsys, "log", "--path", str(memdir), "--grep", "(")
    assert code == 1 and err.startswith("memtool log: --grep: invalid regular expression")
    code, _, err = cli(capsys, "log", "--path", str(memdir), "--since", "last tuesday")
    assert code == 1 and err.startswith("memtool log: --since: cannot read")
    with open(memdir / "conversations.jsonl", "a") as f:
        f.write("{not json\n")
    code, out, err = cli(capsys, "log", "--path", str(memdir), "-n", "1")
    assert code == 0 and "skipped 1 malformed line" in err


def test_parse_since_relative():
    from datetime import datetime, timezone

    now = datetime(2026, 9, 10, 15, 30, tzinfo=timezone.utc)
    assert parse_since("2d", now) == datetime(2026, 9, 8, 15, 30, tzinfo=timezone.utc)
    assert parse_since("yesterday", now) == datetime(2026, 9, 9, tzinfo=timezone.utc)
    assert parse_since("2026-09-01T10:00:00+02:00", now).hour == 10


def test_search_table(memdir, capsys):
    code, out, _ = cli(capsys, "search", "--path", str(memdir), "--plain", "Nordlicht")
    assert code == 0
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows and all(len(r) == 3 for r in rows)
    from memtool import Memory

    expected = Memory(str(memdir)).call("memory", {"command": "search", "query": "Nordlicht"})
    assert ["\t".join(r) for r in rows] == [
        "{}\t{}\t{}".format(*line.split(":", 2)) for line in expected.splitlines()]
    for file, number, text in rows:
        content = (memdir / file).read_text().splitlines()
        assert text.rstrip("…") in content[int(number) - 1] and "nordlicht" in text.lower()
    code, out, _ = cli(capsys, "search", "--path", str(memdir), "zzzqqq")
    assert code == 1


def test_tool_memory_and_bash(memdir, capsys):
    code, out, _ = cli(capsys, "tool", "--path", str(memdir), "memory",
                       '{"command": "create", "path": "/memories/t.md", "file_text": "hello"}')
    assert (code, out) == (0, "File created successfully at: /memories/t.md\n")
    code, out, _ = cli(capsys, "tool", "--path", str(memdir), "memory", '{"command": "view", "path": "nope.md"}')
    assert code == 1 and out == "The path /memories/nope.md does not exist. Please provide a valid path.\n"
    code, out, _ = cli(capsys, "tool", "--path", str(memdir), "bash", '{"command": "cat t.md"}')
    assert (code, out) == (0, "hello\n")
    code, out, _ = cli(capsys, "tool", "--path", str(memdir), "bash", '{"command": "grep -q zzz t.md"}')
    assert code == 1 and out.endswith("[exit code 1]\n")
    code, out, _ = cli(capsys, "tool", "--path", str(memdir), "bash", "not json")
    assert code == 1 and out.startswith("Error: the arguments are not valid JSON")
    code, out, _ = cli(capsys, "tool", "--path", str(memdir), "--read-only", "memory",
                       '{"command": "delete", "path": "t.md"}')
    assert code == 1 and out.startswith("Error: memory is read-only")
    assert (memdir / "t.md").exists()


def test_tool_failed_statuses():
    assert tool_failed("bash", "x\n[exit code 3]") == 3
    assert tool_failed("bash", "ok\n[core.md: 10/4000 chars]") == 0
    assert tool_failed("memory", "Successfully deleted /memories/x") == 0
    assert tool_failed("memory", "No replacement was performed, old_str `a` did not appear verbatim in /m.") == 1


def test_sh_command(memdir, capsys):
    code, out, err = cli(capsys, "sh", "--path", str(memdir), "-c", "grep -c Dana core.md; pwd")
    assert code == 0 and out == "1\n/.memory\n" and err == ""
    code, out, err = cli(capsys, "sh", "--path", str(memdir), "-c", "perl -e 1")
    assert code == 126 and out == "" and "perl" in err
    code, out, err = cli(capsys, "sh", "--path", str(memdir), "-c", "echo x >> conversations.jsonl")
    assert code != 0 and (memdir / "conversations.jsonl").read_text().count("\nx\n") == 0
    code, _, err = cli(capsys, "sh", "--path", str(memdir), "-c", "echo '- likes tea' >> core.md")
    assert code == 0 and err == ""  # stderr as bash prints it: far from the budget, no size line
    fill = "x" * (3700 - len((memdir / "core.md").read_text()))
    code, _, err = cli(capsys, "sh", "--path", str(memdir), "-c", f"echo {fill} >> core.md")
    assert code == 0 and err == "[core.md: 3701/4000 chars]\n"
    code, _, err = cli(capsys, "sh", "--path", str(memdir), "-c", f"echo {'y' * 400} >> core.md")
    assert code == 1 and err.startswith("Error: core.md would grow to ")
    assert err.endswith("The change to core.md was undone.\n[core.md: 3701/4000 chars]\n")
    code, _, err = cli(capsys, "sh", "--path", str(memdir), "--read-only", "-c", "touch new.md")
    assert code != 0 and not (memdir / "new.md").exists()
    code, _, err = cli(capsys, "sh", "--path", str(memdir), "-c", "echo AKIAIOSFODNN7EXAMPLE >> notes.md")
    assert code == 126 and "AWS" in err and "AKIAIOSFODNN7EXAMPLE" not in err


def test_sh_uses_the_model_policy_and_limits(memdir):
    """`memtool sh` runs the very sandbox the bash tool gives the model."""
    from memtool import Memory
    from memtool.cli import MemoryShell

    mem = Memory(str(memdir))
    shell = MemoryShell(mem)
    assert shell.sandbox is mem.bash_tool.sandbox()
    assert shell.sandbox.policy == mem.bash_tool.policy()


def test_sh_core_budget_is_enforced(memdir, capsys):
    code, _, err = cli(capsys, "sh", "--path", str(memdir), "-c", "seq 1 2000 >> core.md")
    assert code == 1 and "undone" in err
    assert "2000" not in (memdir / "core.md").read_text()


def test_doctor(memdir, capsys):
    code, out, _ = cli(capsys, "doctor", "--path", str(memdir))
    assert code == 0 and "ERROR" not in out and "WARNING" not in out
    with open(memdir / "conversations.jsonl", "a") as f:
        f.write("{broken\n\n[1,2]\n")
    with open(memdir / "notes.md", "a") as f:
        f.write("- token ghp_" + "a" * 36 + "\n")
    os.chmod(memdir / "core.md", 0o644)
    (memdir / "core.md").write_text("x" * 4100)
    code, out, _ = cli(capsys, "doctor", "--path", str(memdir), "--json")
    findings = json.loads(out)
    assert code == 1
    messages = [f["message"] for f in findings if f["level"] != "ok"]
    n = len((memdir / "conversations.jsonl").read_text().splitlines())
    assert f"conversations.jsonl: 2 line(s) are not a JSON object: line {n - 2}, {n}" in messages
    assert "core.md: 4100/4000 chars, over the budget" in messages
    assert any(m.startswith("secret found: notes.md: GitHub") for m in messages)
    assert not any("ghp_" in m for m in messages)
    assert any(m.startswith("readable by others: core.md (644)") for m in messages)


def test_doctor_missing_files(tmp_path, capsys):
    (tmp_path / "m").mkdir()
    code, out, _ = cli(capsys, "doctor", "--path", str(tmp_path / "m"), "--plain")
    assert code == 1 and "missing: core.md, notes.md, conversations.jsonl" in out
    assert list((tmp_path / "m").iterdir()) == []


def test_notes_recent_first():
    text = "# Notes\nintro\n\n- 2026-01-02: b\n  more b\n- 2026-01-03: c\n- undated\n- 2026-01-01: a\n"
    assert notes_recent_first(text) == ["- 2026-01-03: c", "- 2026-01-02: b\n  more b", "- 2026-01-01: a",
                                        "- undated"]


def test_watch_in_process(memdir, capsys):
    import threading
    import time

    def edit() -> None:
        time.sleep(0.5)
        with open(memdir / "notes.md", "a") as f:
            f.write("- 2026-09-05: a new note\n")

    t = threading.Thread(target=edit)
    t.start()
    code, out, _ = cli(capsys, "watch", "--path", str(memdir), "--count", "1", "--timeout", "30", "--poll",
                       "--interval", "0.1")
    t.join()
    assert code == 0
    assert "modified notes.md\n+- 2026-09-05: a new note\n" in out


def test_no_command_prints_help(capsys):
    code, out, _ = cli(capsys)
    assert code == 2 and "init" in out and "doctor" in out


@pytest.mark.parametrize("command", ["init", "show", "sh", "search", "log", "watch", "tool", "mcp", "doctor"])
def test_path_scope_plain_everywhere(command):
    from memtool.cli import build_parser

    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    options = {o for a in sub._actions for o in a.option_strings}
    assert {"--path", "--scope", "--plain"} <= options


def test_demo_through_the_cli(tmp_path, capsys):
    code, out, _ = cli(capsys, "demo", "--keep", str(tmp_path / "demo"))
    assert code == 0 and "conversation 2" in out.lower()
    assert (tmp_path / "demo").exists()


def test_hostile_arguments_never_raise(memdir, capsys):
    """Arbitrary --since values, tool arguments and scopes end in a status, never a traceback."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from memtool.cli import CliError

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.text(max_size=40))
    def since(value: str) -> None:
        try:
            parse_since(value)
        except CliError:
            pass

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(["memory", "bash"]), st.text(max_size=60), st.text(max_size=12))
    def tool(name: str, raw: str, scope: str) -> None:
        try:
            code = main(["tool", "--path", str(memdir), "--read-only", f"--scope={scope}", "--", name, raw])
        except SystemExit as e:  # argparse's own usage error (exit 2), e.g. for a scope it can't read
            code = int(e.code or 0)
            assert code == 2
        _, err = capsys.readouterr()
        assert code >= 0
        assert "Traceback" not in err and str(memdir) not in err.replace(f"--path {memdir}", "")

    since()
    tool()


def test_control_characters_are_visible_on_a_terminal():
    import io

    from memtool.cli import Output, visible

    assert visible("a\x1b[2Jb\tc\nd\x07\x9bz\x7f") == "a^[[2Jb\tc\nd^G\\x9bz^?"

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for plain in (True, False):
        term = Terminal()
        out = Output(plain, stream=term)
        out.line("evil \x1b]0;title\x07 text")
        out.raw("raw \x1b[31m\n")
        out.table(["a"], [["cell \x1b[5m"]])
        assert "\x1b]" not in term.getvalue() and "\x1b[31m" not in term.getvalue()
        assert "^[]0;title^G" in term.getvalue()
    piped = io.StringIO()
    Output(True, stream=piped).raw("keep \x1b[31m exact")
    assert piped.getvalue() == "keep \x1b[31m exact"
