"""memtool history / diff / restore / export / import as real processes, and watch recording
a person's edit as a version."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def _tree(root) -> dict[str, bytes]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames:
            full = os.path.join(dirpath, name)
            out[os.path.relpath(full, root)] = open(full, "rb").read()
    return out


def test_history_diff_restore(memdir, run_cli):
    m = str(memdir)
    r = run_cli("sh", "--path", m, "-c", "sed -i 's/.*/MANGLED/' core.md")
    assert r.returncode == 0, r.stderr
    (memdir / "notes.md").write_text("by hand\n")
    r = run_cli("history", "--path", m, "--json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert rows[0]["actor"] == "person" and rows[0]["path"] == "notes.md"
    sed = next(x for x in rows if x["path"] == "core.md" and x["actor"] == "cli")
    assert "sed -i" in sed["detail"] and sed["kind"] == "modified"
    r = run_cli("history", "--path", m, "--plain", "core.md")
    assert r.stdout.splitlines()[0].split("\t")[0] == f"v{sed['id']}"
    r = run_cli("diff", "--path", m, "core.md")
    assert r.returncode == 0 and "+MANGLED" in r.stdout and r.stdout.startswith("--- a/core.md\t")
    r = run_cli("restore", "--path", m, "--plain", "/memories/core.md", f"v{sed['id'] - 1}")
    assert r.returncode == 0, r.stderr
    assert "MANGLED" not in (memdir / "core.md").read_text()
    assert "undo with: memtool restore" in r.stdout
    r = run_cli("diff", "--path", m, "core.md", str(sed["id"] - 1))
    assert r.stdout == ""
    # the whole memory at a point in time
    r = run_cli("restore", "--path", m, "/", str(sed["id"]))
    assert r.returncode == 0 and "MANGLED" in (memdir / "core.md").read_text()
    for bad in (["restore", "--path", m, "core.md", "v9999"], ["diff", "--path", m, "core.md", "nope"],
                ["restore", "--path", m, "/memories/../x", "1"], ["history", "--path", str(memdir / "none")]):
        r = run_cli(*bad)
        assert r.returncode == 1 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (bad, r.stderr)
        assert r.stderr.startswith(f"memtool {bad[0]}: ")


def test_export_import_round_trip(memdir, run_cli, tmp_path):
    m = str(memdir)
    run_cli("tool", "--path", m, "memory", '{"command": "create", "path": "/memories/a/b.md", "file_text": "x"}')
    run_cli("sh", "--path", m, "-c", "echo more >> a/b.md")
    out = str(tmp_path / "mem.tar.gz")
    r = run_cli("export", "--path", m, out)
    assert r.returncode == 0, r.stderr
    new = str(tmp_path / "copy")
    r = run_cli("import", "--path", new, out)
    assert r.returncode == 0, r.stderr
    assert _tree(new) == _tree(m)  # files and the whole history, byte for byte
    h1 = run_cli("history", "--path", m, "--json").stdout
    h2 = run_cli("history", "--path", new, "--json").stdout
    assert h1 == h2 and h1
    r = run_cli("import", "--path", new, out)
    assert r.returncode == 1 and "not empty" in r.stderr
    (tmp_path / "junk").write_bytes(b"junk")
    r = run_cli("import", "--path", str(tmp_path / "other"), str(tmp_path / "junk"))
    assert r.returncode == 1 and "not a memtool export" in r.stderr


def test_watch_records_a_persons_edit(memdir, run_cli, cli_environ):
    m = str(memdir)
    run_cli("history", "--path", m)  # starts the history
    proc = subprocess.Popen([sys.executable, "-m", "memtool", "watch", "--path", m, "--poll", "--interval", "0.1",
                             "--count", "1", "--timeout", "20", "--plain"], env=cli_environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        proc.stdout.readline()  # "watching ..."
        (memdir / "notes.md").write_text("typed in an editor\n")
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    from memtool.history import LocalVersionLog

    newest = LocalVersionLog(m).entries()[-1]
    assert (newest.actor, newest.path, newest.kind) == ("person", "notes.md", "modified")


def test_prune(memdir, run_cli):
    m = str(memdir)
    for i in range(4):
        run_cli("sh", "--path", m, "-c", f"echo {i} > p.md")
    r = run_cli("prune", "--path", m, "--keep", "1")
    assert r.returncode == 0 and r.stdout.startswith("dropped ")
    rows = run_cli("history", "--path", m, "--json", "p.md").stdout.splitlines()
    assert len(rows) == 1
    for bad in (["prune", "--path", m], ["prune", "--path", m, "--older-than", "soon"],
                ["prune", "--path", m, "--keep", "0"]):
        r = run_cli(*bad)
        assert r.returncode == 1 and r.stderr.startswith("memtool prune: ") and r.stderr.count("\n") == 1
