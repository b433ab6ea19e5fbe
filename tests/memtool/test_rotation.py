"""Rotation (memtool.rotation): old turns move to archive/conversations-YYYY-MM.jsonl, in
order, nothing lost or duplicated (with many processes recording at the same time, and after
a rotation that stopped half-way); recent(), search and the bash tool read through the
archive; ``memtool archive`` and ``Memory(rotation=...)`` run it."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
from collections import Counter

import pytest

from memtool import Memory
from memtool.cli import main as cli_main
from memtool.rotation import Rotation, RotationError, archives, plan, rotate
from memtool.stores.memory import MemoryStore

DAY = 86400.0
NOW = 1_800_000_000.0  # 2027-01-15


def stamp(t: float) -> str:
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(t))


def turns_text(rng: random.Random, n: int, start: float, step: float) -> str:
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.05:
            out.append("not json at all\n")
        elif r < 0.08:
            out.append("\n")
        else:
            out.append(json.dumps({"role": "user", "content": f"turn {i} {rng.random()}",
                                   "timestamp": stamp(start + i * step)}) + "\n")
    return "".join(out)


def whole(store) -> bytes:
    """The archive files (oldest month first) and then the log, concatenated."""
    return b"".join(store.read_bytes(p) for p in archives(store)) + (
        store.read_bytes("conversations.jsonl") if store.exists("conversations.jsonl") else b"")


@pytest.mark.parametrize("seed", range(20))
def test_every_line_ends_up_exactly_once_in_order(seed):
    rng = random.Random(seed)
    store = MemoryStore()
    start = NOW - rng.uniform(10, 400) * DAY
    text = turns_text(rng, rng.randint(0, 300), start, rng.uniform(0.01, 3) * DAY)
    if rng.random() < 0.3:
        text += '{"role": "user", "content": "unterminated", "timestamp": "2020-01-01T00:00:00Z"}'
    store.write_bytes("conversations.jsonl", text.encode())
    older = rng.choice([None, 30 * DAY, 90 * DAY, 0.0])
    max_bytes = rng.choice([None, 0, 500, 5000])
    result = rotate(store, older_than=older, max_bytes=max_bytes, now=NOW)
    # months are monotone here, so archives in name order + log is the original
    assert whole(store) == text.encode()
    log = store.read_bytes("conversations.jsonl").decode()
    moved = text[:len(text) - len(log)]
    assert result.bytes == len(moved) and result.turns == moved.count("\n")
    assert moved == "" or moved.endswith("\n")
    for path in archives(store):
        month = path[-13:-6]  # YYYY-MM
        for line in store.read_bytes(path).decode().splitlines():
            if '"timestamp"' in line:
                assert json.loads(line)["timestamp"][:7] == month
    if older is not None and max_bytes is None:  # only turns older than the cutoff moved
        for line in moved.splitlines():
            if '"timestamp"' in line:
                assert json.loads(line)["timestamp"] < stamp(NOW - older)
    if max_bytes is not None:  # the log fits, unless what is left starts with an undated
        # line (kept with the turn after it) or holds no complete line
        first = log.split("\n", 1)[0]
        assert len(log) <= max_bytes or '"timestamp"' not in first or "\n" not in log


def test_plan_keeps_undated_lines_with_their_turns():
    a = json.dumps({"role": "user", "content": "a", "timestamp": "2026-01-05T00:00:00Z"})
    b = json.dumps({"role": "user", "content": "b", "timestamp": "2026-02-05T00:00:00Z"})
    c = json.dumps({"role": "user", "content": "c", "timestamp": "2027-01-14T00:00:00Z"})
    data = f"junk\n{a}\nnoise\n{b}\ntrailing\n{c}\n".encode()
    groups = plan(data, 30 * DAY, None, NOW)
    assert groups == [(2026, 1, f"junk\n{a}\nnoise\n".encode()), (2026, 2, f"{b}\n".encode())]


def _recorder(root: str, worker: int, n: int) -> None:
    mem = Memory(root, versions=False, gitignore=False)
    for i in range(n):
        mem.record("user", f"w{worker} n{i}")


def _rotator(root: str, rounds: int) -> None:
    mem = Memory(root, versions=False, gitignore=False)
    for _ in range(rounds):
        mem.rotate(older_than=None, max_bytes=2000)


def test_many_processes_record_while_rotating(tmp_path):
    root = str(tmp_path / "m")
    Memory(root, versions=False, gitignore=False)
    # every turn is 'now': rotation by size moves them to this month's archive
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_recorder, args=(root, w, 400)) for w in range(5)]
    procs.append(ctx.Process(target=_rotator, args=(root, 200)))
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    mem = Memory(root, versions=False, gitignore=False)
    mem.rotate(older_than=None, max_bytes=0)
    contents = [json.loads(line)["content"]
                for path in archives(mem.store)
                for line in mem.store.read_bytes(path).decode().splitlines() if line]
    assert Counter(contents) == Counter(f"w{w} n{i}" for w in range(5) for i in range(400))
    for w in range(5):  # each writer's turns stay in its order
        mine = [c for c in contents if c.startswith(f"w{w} ")]
        assert mine == [f"w{w} n{i}" for i in range(400)]
    assert mem.store.read_bytes("conversations.jsonl") == b""


def test_a_rotation_stopped_half_way_is_finished_without_copies(monkeypatch):
    store = MemoryStore()
    rng = random.Random(1)
    text = turns_text(rng, 100, NOW - 200 * DAY, DAY).encode()
    store.write_bytes("conversations.jsonl", text)
    real = store.remove_prefix
    monkeypatch.setattr(store, "remove_prefix", lambda *a: (_ for _ in ()).throw(OSError("crash")))
    with pytest.raises(OSError):
        rotate(store, older_than=30 * DAY, now=NOW)
    assert store.read_bytes("conversations.jsonl") == text  # the log untouched
    monkeypatch.setattr(store, "remove_prefix", real)
    rotate(store, older_than=30 * DAY, now=NOW)
    assert whole(store) == text


def test_a_store_without_remove_prefix_refuses():
    from sandbox.fs.memory import MemoryFS

    with pytest.raises(RotationError):
        rotate(MemoryFS(), older_than=1.0)


def test_recent_search_and_bash_read_through_the_archive(tmp_path):
    mem = Memory(str(tmp_path / "m"), versions=False, gitignore=False)
    lines = [json.dumps({"role": "user", "content": f"old turn {i} about the zeppelin" if i == 3
                         else f"old turn {i}", "timestamp": f"2026-0{1 + i // 4}-0{1 + i % 4}T00:00:00Z"})
             for i in range(8)]
    mem.store.write_bytes("conversations.jsonl", ("\n".join(lines) + "\n").encode())
    mem.record("user", "a new turn")
    result = mem.rotate(older_than=30 * DAY)
    assert result.turns == 8 and result.files == ["archive/conversations-2026-01.jsonl",
                                                  "archive/conversations-2026-02.jsonl"]
    assert [t["content"] for t in mem.recent(3)] == ["old turn 6", "old turn 7", "a new turn"]
    assert len(mem.recent(100)) == 9
    (hit,) = mem.search("zeppelin", k=1)
    assert hit.file == "archive/conversations-2026-01.jsonl" and hit.line == 4
    out = mem.call("bash", {"command": "grep -rc turn /.memory/archive | sort"})
    assert "conversations-2026-01.jsonl:4" in out and "conversations-2026-02.jsonl:4" in out


def test_record_rotates_every_check_every(tmp_path):
    mem = Memory(str(tmp_path / "m"), versions=False, gitignore=False,
                 rotation=Rotation(older_than=None, max_bytes=300, check_every=10))
    for i in range(45):
        mem.record("user", f"turn number {i}")
    assert archives(mem.store)
    # checked on records 1, 11, 21, 31, 41: at most 4 turns (~90 bytes) since the last check
    assert len(mem.store.read_bytes("conversations.jsonl")) <= 300 + 4 * 90
    assert [t["content"] for t in mem.recent(45)] == [f"turn number {i}" for i in range(45)]


def test_scoped_memory_rotates_its_own_log(tmp_path):
    mem = Memory(str(tmp_path / "m"), versions=False, gitignore=False, scope="user:7")
    for i in range(20):
        mem.record("user", f"scoped {i}")
    mem.rotate(max_bytes=0)
    assert archives(mem.store) and mem.store.read_bytes("conversations.jsonl") == b""
    assert not os.path.exists(tmp_path / "m" / "archive")
    assert len(mem.recent(50)) == 20


def test_cli_archive(tmp_path, capsys):
    root = str(tmp_path / "m")
    mem = Memory(root, versions=False, gitignore=False)
    old = json.dumps({"role": "user", "content": "ancient", "timestamp": "2001-01-01T00:00:00Z"})
    mem.store.write_bytes("conversations.jsonl", (old + "\n").encode())
    mem.record("user", "fresh")
    assert cli_main(["archive", "--path", root, "--older-than", "30d", "--plain"]) == 0
    assert "moved 1 turns" in capsys.readouterr().out
    assert cli_main(["archive", "--path", root, "--plain"]) == 0
    assert "nothing to archive" in capsys.readouterr().out
    assert cli_main(["archive", "--path", root, "--older-than", "soon", "--plain"]) == 1
    assert "invalid age" in capsys.readouterr().err
    assert mem.store.read_bytes("archive/conversations-2001-01.jsonl") == (old + "\n").encode()


def test_an_append_waiting_on_the_replaced_log_goes_to_the_new_one(tmp_path):
    """The race rotation must survive, made deterministic: an appender opens the log and
    waits for its lock while the log is replaced; it must write to the new file."""
    import fcntl
    import threading
    import time

    root = tmp_path / "m"
    mem = Memory(str(root), versions=False, gitignore=False)
    mem.record("user", "before")
    path = root / "conversations.jsonl"
    holder = os.open(path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)  # as remove_prefix holds it
    done = threading.Event()
    thread = threading.Thread(target=lambda: (mem.record("user", "waiting"), done.set()))
    thread.start()
    time.sleep(0.3)  # the appender has opened the old file and waits for its lock
    assert not done.is_set()
    mem.store.write_bytes("conversations.jsonl", b"")  # the log replaced (a new inode)
    os.close(holder)
    thread.join(10)
    assert done.is_set()
    assert [t["content"] for t in mem.recent(5)] == ["waiting"]


@pytest.mark.parametrize("store_kind", ["postgres"])
@pytest.mark.parametrize("seed", range(4))
def test_postgres_rotation_moves_every_line_once(store, seed):
    """On PostgreSQL the archive's appends and the log's new start commit in one transaction."""
    rng = random.Random(200 + seed)
    text = turns_text(rng, rng.randint(50, 300), NOW - 200 * DAY, rng.uniform(0.2, 2) * DAY)
    store.write_bytes("conversations.jsonl", text.encode())
    store.append_line("conversations.jsonl", json.dumps(
        {"role": "user", "content": "pending", "timestamp": stamp(NOW)}).encode() + b"\n")
    text += store.read_bytes("conversations.jsonl").decode()[len(text):]
    result = rotate(store, older_than=rng.choice([30 * DAY, 0.0]), max_bytes=rng.choice([None, 3000]),
                    now=NOW)
    assert result.turns > 0
    assert whole(store) == text.encode()
    rest = rotate(store, older_than=None, max_bytes=0, now=NOW)
    assert rest.bytes == len(text.encode()) - result.bytes
    assert store.read_bytes("conversations.jsonl") == b""
    assert sorted(whole(store).splitlines()) == sorted(text.encode().splitlines())


@pytest.mark.parametrize("store_kind", ["postgres"])
def test_postgres_writers_while_rotating(store):
    """Four writers, each with its own store object (pool), record while a fifth rotates:
    every turn once, each writer's in order; search finds rotated turns in the archive."""
    import threading

    from memtool.stores.postgres import PostgresStore

    def other():
        return PostgresStore(store.dsn, schema=store.schema, namespace=store.namespace)

    Memory(store, versions=False)
    errors: list[BaseException] = []
    done = threading.Event()

    def recorder(w: int) -> None:
        try:
            mem = Memory(other(), versions=False)
            for i in range(120):
                mem.record("user", f"w{w} n{i} zeppelin")
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    def rotator() -> None:
        try:
            mem = Memory(other(), versions=False)
            while not done.is_set():
                mem.rotate(older_than=None, max_bytes=1500)
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    writers = [threading.Thread(target=recorder, args=(w,)) for w in range(4)]
    rot = threading.Thread(target=rotator)
    rot.start()
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    done.set()
    rot.join()
    assert not errors
    mem = Memory(store, versions=False)
    mem.rotate(older_than=None, max_bytes=0)
    contents = [json.loads(line)["content"] for path in archives(mem.store)
                for line in mem.store.read_bytes(path).decode().splitlines() if line]
    assert Counter(contents) == Counter(f"w{w} n{i} zeppelin" for w in range(4) for i in range(120))
    for w in range(4):
        assert [c for c in contents if c.startswith(f"w{w} ")] == [f"w{w} n{i} zeppelin" for i in range(120)]
    mem.embedder = None  # BM25's order: the one unit with all three words first
    hits = mem.search("zeppelin w2 n7", k=3)
    assert hits[0].text == "w2 n7 zeppelin" and hits[0].file.startswith("archive/")
