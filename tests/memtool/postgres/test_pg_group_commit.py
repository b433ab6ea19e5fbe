"""Group commit between the threads of one process (``_Combiner``): appends that arrive
while another is in flight go out together, in one transaction, and each caller still gets
its own outcome."""

from __future__ import annotations

import json
import threading
import time

from sandbox.fs.base import FSError


def _spy_batches(monkeypatch):
    from memtool.stores.postgres import PostgresStore

    sizes: list[int] = []
    original = PostgresStore._append_many

    def spy(self, entry, batch):
        sizes.append(len(batch))
        return original(self, entry, batch)

    monkeypatch.setattr(PostgresStore, "_append_many", spy)
    return sizes


def _run_threads(targets) -> None:
    threads = [threading.Thread(target=t) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
        assert not t.is_alive(), "a thread hung"


def test_threads_appending_at_once_are_combined_and_all_land_in_order(pgserver_module, monkeypatch):
    from memtool.memory import Memory

    sizes = _spy_batches(monkeypatch)
    store = pgserver_module.fresh_store()
    other = store.scoped(store.namespace + "-other")  # another namespace: its own combiner
    mem = Memory(store=store, scope="user:1", secrets=False)
    problems: list[str] = []

    def writer(w: int) -> None:
        try:
            for i in range(120):
                if w % 4 == 3:
                    other.append_bytes("log", b"%d:%d\n" % (w, i))
                else:
                    mem.record("user", f"{w}:{i}")
        except Exception as e:  # noqa: BLE001 - reported below
            problems.append(repr(e))

    _run_threads([lambda w=w: writer(w) for w in range(16)])
    assert not problems, problems[:3]
    seen: dict[str, int] = {}
    for t in mem.recent(10_000):
        w, i = t["content"].split(":")
        assert int(i) == seen.get(w, -1) + 1, (w, i)  # each thread's turns in its order
        seen[w] = int(i)
    assert len(seen) == 12 and set(seen.values()) == {119}
    lines = other.read_bytes("log").splitlines()
    assert len(lines) == 4 * 120 and len(set(lines)) == 4 * 120
    assert sizes and max(sizes) > 1, "no two appends were ever combined"
    assert sum(sizes) <= 16 * 120


def test_a_combined_batch_sends_each_ineligible_append_down_the_exclusive_path(pgserver_module,
                                                                              monkeypatch):
    """Files missing, or not ending with a newline, inside a combined batch: those appends
    are created or fixed by their own callers; the others are applied in the batch."""
    sizes = _spy_batches(monkeypatch)
    store = pgserver_module.fresh_store()
    store.write_bytes("no-newline", b"x")
    barrier = threading.Barrier(12)

    def writer(w: int) -> None:
        barrier.wait()
        for i in range(40):
            name = ("new-%d" % (w % 3)) if i % 2 else ("no-newline" if w % 2 else "log")
            store.append_line(name, json.dumps([w, i]).encode() + b"\n")

    _run_threads([lambda w=w: writer(w) for w in range(12)])
    total = 0
    for name in ("log", "no-newline", "new-0", "new-1", "new-2"):
        data = store.read_bytes(name)
        lines = data.split(b"\n")
        assert lines[-1] == b""
        body = lines[:-1]
        if name == "no-newline":
            assert body[0] == b"x"
            body = body[1:]
        assert all(json.loads(line) for line in body)
        total += len(body)
    assert total == 12 * 40
    assert sizes and max(sizes) > 1


def test_a_failed_batch_fails_each_of_its_appends_whole(pgserver_module, pg_server):
    """Connections killed while threads append: every call either succeeds (its line is
    there exactly once) or reports the retry message (its line is there at most once);
    no thread hangs, and the next appends succeed."""
    import psycopg

    store = pgserver_module.fresh_store()
    store.write_bytes("log", b"")
    outcomes: dict[bytes, str] = {}
    stop = threading.Event()

    def writer(w: int) -> None:
        for i in range(150):
            line = b"%d:%d\n" % (w, i)
            try:
                store.append_bytes("log", line)
                outcomes[line] = "ok"
            except FSError as e:
                assert "retry" in str(e), str(e)
                outcomes[line] = "failed"

    def killer() -> None:
        with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
            for _ in range(5):
                time.sleep(0.05)
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                              "pid <> pg_backend_pid() AND backend_type = 'client backend'")
        stop.set()

    _run_threads([lambda w=w: writer(w) for w in range(8)] + [killer])
    assert "failed" in outcomes.values(), "no kill hit the burst (the test proved nothing)"
    lines = store.read_bytes("log").splitlines(keepends=True)
    assert len(lines) == len(set(lines))  # nothing applied twice
    for line, outcome in outcomes.items():
        if outcome == "ok":
            assert line in lines
    assert set(lines) <= set(outcomes)
    store.append_bytes("log", b"after\n")
    assert store.read_bytes("log").endswith(b"after\n")


def test_append_connections_are_capped_at_the_pool_size(pgserver_module, pg_dsn):
    """Each appending thread keeps a connection of its own, but never more than the pool
    size of them per process; threads beyond that borrow pooled connections."""
    import os

    from memtool.stores import postgres as pgmod

    pgmod.close_all_pools()  # a pool of our own size
    store = pgserver_module.fresh_store(pool_size=2)
    store.write_bytes("log", b"")
    barrier = threading.Barrier(6)
    entry = pgmod._pools[(pg_dsn, os.getpid())]
    seen: list[int] = []

    def writer(w: int) -> None:
        barrier.wait()
        for i in range(60):
            store.append_bytes(f"f{w}", b"%d\n" % i)  # one file each: no combining
            seen.append(len(entry._appenders))

    _run_threads([lambda w=w: writer(w) for w in range(6)])
    assert max(seen) == 2  # used, and capped
    for w in range(6):
        assert store.read_bytes(f"f{w}") == b"".join(b"%d\n" % i for i in range(60))
    pgmod.close_all_pools()


def test_forked_children_append_on_connections_of_their_own(pgserver_module):
    """Processes forked after the store was used open their own pool and append connections:
    two children appending at once through the connections they inherited would mix their
    messages on one session (replies read by the wrong process, calls that hang), and the
    parent's own session must stay usable."""
    import os

    n = 300  # appends per child, at the same time
    store = pgserver_module.fresh_store()
    store.append_bytes("log", b"parent 0\n")  # the parent's pool and append connection exist
    children = []
    for c in range(2):
        pid = os.fork()
        if pid == 0:  # a child: report by exit status, never run the parent's cleanup
            code = 1
            try:
                for i in range(n):
                    store.append_bytes("log", b"child%d %d\n" % (c, i))
                code = 0
            finally:
                os._exit(code)
        children.append(pid)
    deadline = time.monotonic() + 60
    codes = {}
    while len(codes) < 2 and time.monotonic() < deadline:
        for pid in children:
            if pid not in codes:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    codes[pid] = os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    for pid in children:
        if pid not in codes:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    assert len(codes) == 2, "a child's append hung"
    assert set(codes.values()) == {0}
    store.append_bytes("log", b"parent 1\n")  # the parent's session is still good
    lines = store.read_bytes("log").splitlines()
    assert [x for x in lines if x.startswith(b"parent")] == [b"parent 0", b"parent 1"]
    for c in range(2):
        assert [x for x in lines if x.startswith(b"child%d " % c)] == \
            [b"child%d %d" % (c, i) for i in range(n)]
