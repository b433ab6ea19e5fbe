"""Memory(approve=...): every write path of both tools asks first; a denied call leaves the
store (files, directories and the version history) byte for byte as it was; an allowed call
ends exactly as the same call without approval; reads never ask."""

from __future__ import annotations

import os

import pytest

from memtool import Memory
from memtool.approval import ApprovalRequest, OverlayStore
from memtool.stores.memory import MemoryStore
from sandbox.policy import DEFAULT_ALLOW

ALLOW = DEFAULT_ALLOW | {"rm", "mv", "cp", "tee", "rmdir"}

SETUP = [
    ("memory", {"command": "create", "path": "/memories/topics/a.md", "file_text": "alpha\nbeta\n"}),
    ("memory", {"command": "create", "path": "/memories/topics/deep/b.md", "file_text": "b\n"}),
]

WRITES = [
    ("memory", {"command": "create", "path": "/memories/new.md", "file_text": "new\n"}),
    ("memory", {"command": "create", "path": "/memories/d1/d2/new.md", "file_text": "nested\n"}),
    ("memory", {"command": "update", "path": "/memories/notes.md", "content": "replaced"}),
    ("memory", {"command": "update", "path": "/memories/notes.md", "content": "more", "mode": "append"}),
    ("memory", {"command": "update", "path": "/memories/fresh.md", "content": "made by update"}),
    ("memory", {"command": "str_replace", "path": "/memories/topics/a.md", "old_str": "beta", "new_str": "B"}),
    ("memory", {"command": "insert", "path": "/memories/core.md", "insert_line": 1, "insert_text": "- tea"}),
    ("memory", {"command": "delete", "path": "/memories/topics/a.md"}),
    ("memory", {"command": "delete", "path": "/memories/topics"}),
    ("memory", {"command": "rename", "old_path": "/memories/notes.md", "new_path": "/memories/old/notes.md"}),
    ("memory", {"command": "rename", "old_path": "/memories/topics", "new_path": "/memories/subjects"}),
    ("bash", {"command": "echo hi > hi.md"}),
    ("bash", {"command": "echo '- likes tea' >> core.md"}),
    ("bash", {"command": "sed -i 's/Core/CORE/' core.md"}),
    ("bash", {"command": "printf 'x\\n' | tee t1.md t2.md"}),
    ("bash", {"command": "touch empty.md"}),
    ("bash", {"command": "mkdir -p a/b/c"}),
    ("bash", {"command": "rm notes.md"}),
    ("bash", {"command": "rm -r topics"}),
    ("bash", {"command": "mv notes.md topics/"}),
    ("bash", {"command": "mv topics subjects"}),
    ("bash", {"command": "cp -r topics copy && cp notes.md n2.md"}),
    ("bash", {"command": "rmdir topics/deep 2>/dev/null; rm topics/deep/b.md && rmdir topics/deep"}),
    ("bash", {"command": "cat core.md > c2.md; sed -n 1p notes.md >> c2.md"}),
]

READS = [
    ("memory", {"command": "view", "path": "/memories"}),
    ("memory", {"command": "view", "path": "/memories/core.md"}),
    ("memory", {"command": "search", "query": "alpha"}),
    ("bash", {"command": "cat core.md; grep -rn alpha .; ls -la topics; wc -l notes.md"}),
    ("bash", {"command": "sed 's/a/b/' topics/a.md | sort | head -1"}),
    ("memory", {"command": "create", "path": "/memories/../x", "file_text": "refused"}),
    ("bash", {"command": "echo x > conversations.jsonl"}),
]


def snapshot(root) -> dict[str, bytes | None]:
    """Every file (content) and directory (None) under ``root``, the history included."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            out[os.path.relpath(os.path.join(dirpath, d), root) + "/"] = None
        for f in filenames:
            if f == "lock":
                continue
            full = os.path.join(dirpath, f)
            out[os.path.relpath(full, root)] = open(full, "rb").read()
    return out


def make(tmp_path, name: str, approve=None) -> Memory:
    m = Memory(str(tmp_path / name), allow=ALLOW, approve=None, gitignore=False)
    for tool, args in SETUP:
        assert not m.call(tool, args).startswith("Error"), args
    m.record("user", "hello")
    m.notice_edits()
    m.approve = approve
    return m


def _id(call) -> str:
    return f"{call[0]}-{call[1].get('command')}-{WRITES.index(call)}"


@pytest.mark.parametrize("call", WRITES, ids=_id)
@pytest.mark.parametrize("answer", [False, "not now: ask Dana first"])
def test_denied_write_changes_nothing(tmp_path, call, answer):
    asked: list[ApprovalRequest] = []

    def approve(req: ApprovalRequest):
        asked.append(req)
        return answer

    m = make(tmp_path, "mem", approve)
    before = snapshot(tmp_path / "mem")
    out = m.call(*call)
    assert snapshot(tmp_path / "mem") == before, out
    assert out.startswith("Error: this change was not approved: ")
    if isinstance(answer, str):
        assert answer in out
    [req] = asked
    assert req.tool == call[0] and req.paths
    assert req.arguments == call[1]
    if call[0] == "bash":
        assert req.command == call[1]["command"]
    if req.changes:
        assert req.diff.startswith("--- a/")


@pytest.mark.parametrize("call", WRITES, ids=_id)
def test_allowed_write_matches_the_call_without_approval(tmp_path, call):
    asked = []
    approved = make(tmp_path, "approved", lambda req: asked.append(req) or True)
    plain = make(tmp_path, "plain")
    out_a = approved.call(*call)
    out_p = plain.call(*call)
    assert out_a == out_p
    assert len(asked) == 1

    def files(root):
        return {k: v for k, v in snapshot(root).items()
                if not k.startswith(".memtool") and k != "conversations.jsonl"}

    assert files(tmp_path / "approved") == files(tmp_path / "plain")
    kinds_a = [(e.actor, e.path, e.kind) for e in approved.history(limit=8)]
    kinds_p = [(e.actor, e.path, e.kind) for e in plain.history(limit=8)]
    assert sorted(kinds_a) == sorted(kinds_p)  # every change is a version either way


@pytest.mark.parametrize("call", READS)
def test_reads_and_refusals_never_ask(tmp_path, call):
    def approve(req):
        raise AssertionError("asked for a read")

    m = make(tmp_path, "mem", approve)
    plain = make(tmp_path, "plain")
    assert m.call(*call).replace("/approved", "") == plain.call(*call)


def test_a_failing_callback_denies(tmp_path):
    def approve(req):
        raise RuntimeError("boom")

    m = make(tmp_path, "mem", approve)
    before = snapshot(tmp_path / "mem")
    out = m.call("bash", {"command": "echo x > y.md"})
    assert "not approved: the approval check failed (RuntimeError)" in out
    assert snapshot(tmp_path / "mem") == before


def test_a_file_changed_while_waiting_is_not_overwritten(tmp_path):
    def approve(req):
        (tmp_path / "mem" / "notes.md").write_text("typed meanwhile\n")
        return True

    m = make(tmp_path, "mem", approve)
    out = m.call("memory", {"command": "update", "path": "/memories/notes.md", "content": "model"})
    assert "changed while this call waited for approval" in out
    assert (tmp_path / "mem" / "notes.md").read_text() == "typed meanwhile\n"


def test_approval_on_the_in_memory_store():
    store = MemoryStore()
    m = Memory(store, allow=ALLOW, approve=lambda req: False)
    before = {p: store.read_bytes(p) for p in ("core.md", "notes.md")}
    assert "not approved" in m.call("bash", {"command": "rm core.md"})
    assert {p: store.read_bytes(p) for p in before} == before
    m.approve = lambda req: True
    m.call("bash", {"command": "rm core.md"})
    assert not store.exists("core.md")


def test_bash_without_the_bash_tool_offered_still_asks(tmp_path):
    m = Memory(str(tmp_path / "mem"), tools=("memory",), approve=lambda req: "no", gitignore=False)
    assert "not approved: no" in m.bash("echo x >> notes.md")


def test_overlay_view():
    base = MemoryStore({"a/x.md": "x", "b.md": "b"})
    o = OverlayStore(base)
    o.rename("a", "c")
    o.mkdir("d")
    o.write_bytes("d/e.md", b"e")
    o.remove("b.md")
    assert sorted(o.listdir("")) == ["c", "d"] and o.read_bytes("c/x.md") == b"x"
    assert not o.exists("a") and base.exists("a/x.md")
    assert [(c.path, c.kind) for c in o.changes()] == [("a/x.md", "deleted"), ("c/x.md", "created"),
                                                       ("d/e.md", "created"), ("b.md", "deleted")]


# -- a bash call's writes applied atomically (``approval.run_atomically``) ----------------------

def _racing(mem: Memory, command: str, races: int):
    """A dry run of ``command`` after which another writer appends a line to notes.md (the
    first ``races`` times), as a concurrent process would between the call's read and its
    apply; returns the dry-run function and the lines appended."""
    appended: list[str] = []

    def dry_run():  # type: ignore[no-untyped-def]
        got = mem._dry_run("bash", {"command": command}, ("bash",))
        if len(appended) < races:
            line = f"racer {len(appended)}\n"
            mem.tool_store.append_bytes("notes.md", line.encode())
            appended.append(line)
        return got

    return dry_run, appended


@pytest.mark.parametrize("races", [1, 2, 5])
def test_a_racing_append_is_never_lost(tmp_path, races):
    from memtool.approval import run_atomically

    mem = Memory(str(tmp_path / "mem"), gitignore=False)
    dry_run, appended = _racing(mem, "sed -i 's/^# Notes/# NOTES/' notes.md", races)
    out = run_atomically(dry_run, mem.tool_store)
    text = (tmp_path / "mem" / "notes.md").read_text()
    assert "exit code" not in out and text.startswith("# NOTES")
    assert all(line in text for line in appended) and len(appended) == races
    sed = [v for v in mem.versions.entries() if v.path == "notes.md"][-1]
    assert mem.versions.get_blob(sed.after).decode() == text  # the sed's version is the file


def test_a_file_that_never_stops_changing_gives_up_cleanly(tmp_path):
    from memtool.approval import ATTEMPTS, run_atomically

    mem = Memory(str(tmp_path / "mem"), gitignore=False)
    dry_run, appended = _racing(mem, "sed -i 's/^# Notes/# NOTES/' notes.md", 10 ** 6)
    out = run_atomically(dry_run, mem.tool_store, lambda message: f"Error: {message}")
    assert out.startswith("Error: notes.md: kept changing") and len(appended) == ATTEMPTS
    text = (tmp_path / "mem" / "notes.md").read_text()
    assert text.startswith("# Notes") and all(line in text for line in appended)
