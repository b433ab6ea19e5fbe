"""memtool as real processes: every command, `watch` seeing another process's edit, and the
interactive `sh` driven through a pseudo-terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest


def test_every_command_as_a_process(memdir, run_cli, tmp_path):
    p = str(memdir)
    r = run_cli("init", str(tmp_path / "fresh"))
    assert r.returncode == 0 and r.stdout == f"{tmp_path / 'fresh'}: created core.md, notes.md, conversations.jsonl\n"
    r = run_cli("show", "--path", p, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["core"]["text"] == (memdir / "core.md").read_text()
    r = run_cli("show", "--path", p)  # piped: plain text, no escape codes
    assert r.returncode == 0 and r.stdout.startswith("== core.md (") and "\x1b[" not in r.stdout
    r = run_cli("log", "--path", p, "-n", "1", "--json")
    last = json.loads((memdir / "conversations.jsonl").read_text().splitlines()[-1])
    assert r.returncode == 0 and json.loads(r.stdout) == last
    r = run_cli("search", "--path", p, "Priya")
    assert r.returncode == 0 and "Priya" in r.stdout and "\t" in r.stdout
    r = run_cli("tool", "--path", p, "memory", "-", input='{"command": "view", "path": "/memories"}')
    assert r.returncode == 0 and "core.md" in r.stdout and "notes.md" in r.stdout
    r = run_cli("sh", "--path", p, "-c", "wc -l < core.md; cat", input="from stdin\n")
    lines = (memdir / "core.md").read_text().count("\n")
    assert (r.returncode, r.stdout) == (0, f"{lines}\nfrom stdin\n")
    r = run_cli("sh", "--path", p, "-c", "exit 7")
    assert r.returncode == 7
    r = run_cli("doctor", "--path", p)
    assert r.returncode == 0 and "OK" in r.stdout
    r = run_cli("watch", "--path", p, "--timeout", "0.3")
    assert r.returncode == 0 and r.stdout.startswith("watching ")
    r = run_cli("mcp", "--path", p, "--tools", "memory,web")
    assert r.returncode == 1 and r.stderr == "memtool mcp: --tools: unknown tool(s) web; choose from memory, bash\n"
    r = run_cli("show", "--path", p, "--scope", "")
    assert r.returncode == 1 and r.stderr.startswith("memtool show: ") and "Traceback" not in r.stderr
    r = run_cli("demo", "--keep", str(tmp_path / "demo"))
    assert r.returncode == 0 and "conversation 2" in r.stdout.lower()
    r = run_cli("frobnicate")
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_memtool_path_environment(memdir, cli_environ):
    env = dict(cli_environ, MEMTOOL_PATH=str(memdir))
    r = subprocess.run([sys.executable, "-m", "memtool", "sh", "-c", "head -1 core.md"], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.stdout == (memdir / "core.md").read_text().splitlines()[0] + "\n"


@pytest.mark.parametrize("mode", ["events", "poll"])
def test_watch_sees_an_edit_by_another_process(memdir, cli_environ, mode):
    args = [sys.executable, "-m", "memtool", "watch", "--path", str(memdir), "--count", "2", "--timeout", "60"]
    if mode == "poll":
        args += ["--poll", "--interval", "0.1"]
    else:  # no rescan within the test's time: only file events can wake the watcher
        args += ["--interval", "1000"]
    watcher = subprocess.Popen(args, env=cli_environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert watcher.stdout is not None
        first = watcher.stdout.readline()
        assert first.startswith("watching "), first + watcher.stderr.read()
        assert ("(file events)" in first) == (mode == "events"), first
        editor = (
            "import sys, pathlib; root = pathlib.Path(sys.argv[1]);"
            "p = root / 'core.md'; p.write_text(p.read_text().replace('Drinks tea', 'Drinks green tea'));"
        )
        subprocess.run([sys.executable, "-c", editor, str(memdir)], check=True, timeout=30)
        time.sleep(0.6)
        subprocess.run([sys.executable, "-m", "memtool", "tool", "--path", str(memdir), "memory",
                        '{"command": "create", "path": "topics/new.md", "file_text": "fresh file\\n"}'],
                       env=cli_environ, check=True, timeout=60, capture_output=True)
        out, err = watcher.communicate(timeout=60)
    finally:
        if watcher.poll() is None:
            watcher.kill()
            watcher.wait()
    assert watcher.returncode == 0, err
    assert " modified core.md\n" in out
    assert "\n--- a/core.md\n+++ b/core.md\n" in out
    assert "\n-- Drinks tea, not coffee (relevant when booking meeting rooms with catering).\n" \
           "+- Drinks green tea, not coffee (relevant when booking meeting rooms with catering).\n" in out
    assert " created topics/new.md\n+fresh file\n" in out


def test_interactive_sh_through_a_pty(memdir, cli_environ):
    pexpect = pytest.importorskip("pexpect", reason="pexpect drives the pseudo-terminal (pip install pexpect)")
    env = dict(cli_environ, XDG_STATE_HOME=str(memdir.parent / "state"))
    child = pexpect.spawn(sys.executable, ["-m", "memtool", "sh", "--path", str(memdir)], env=env,
                          encoding="utf-8", timeout=30)
    try:
        child.expect(r"Allowed: .*cat.*\r\n")
        child.expect_exact("memtool:/.memory$ ")
        child.sendline("grep -c Dana core.md")
        child.expect_exact("1\r\n")
        child.expect_exact("memtool:/.memory$ ")
        child.send("\x1b[A\r")  # up arrow: the previous line from the history, run again
        child.expect_exact("1\r\n")
        child.expect_exact("memtool:/.memory$ ")
        child.sendline("sh -c 1")
        child.expect("not an allowed command")
        child.expect_exact("memtool:/.memory$ ")
        child.sendline("echo '- from the pty' >> notes.md")
        child.expect_exact("memtool:/.memory$ ")
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert (memdir / "notes.md").read_text().endswith("- from the pty\n")
    history = (memdir.parent / "state" / "memtool" / "sh_history").read_text()
    assert "grep -c Dana core.md" in history  # kept outside the memory, for the next session
    assert not list(memdir.glob("*history*"))


def test_rich_output_on_a_terminal(memdir, cli_environ):
    pexpect = pytest.importorskip("pexpect", reason="pexpect drives the pseudo-terminal (pip install pexpect)")
    env = dict(cli_environ, TERM="xterm-256color", COLUMNS="120")
    env.pop("NO_COLOR", None)
    out = pexpect.run(f"{sys.executable} -m memtool search --path {memdir} Priya", env=env, encoding="utf-8",
                      timeout=60)
    assert "Priya" in out and "\x1b[" in out and "┃" in out  # a rich table, coloured
    plain = pexpect.run(f"{sys.executable} -m memtool search --plain --path {memdir} Priya", env=env,
                        encoding="utf-8", timeout=60)
    assert "\x1b[" not in plain and "\t" in plain
