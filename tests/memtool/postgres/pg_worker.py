"""Worker process of the PostgreSQL concurrency and fault tests (run as a script).

    python pg_worker.py '{"task": "mixed", "dsn": ..., "schema": ..., ...}'

Prints one JSON object per line on stdout: {"ok": ...} or {"error": message} per operation
(the fault tests need to know which calls failed and with what message), then {"done": true}.
It never prints a traceback for an expected failure: an unexpected one fails the test.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
import zlib

sys.path.insert(0, os.environ.get("MEMTOOL_REPO", os.getcwd()))

from sandbox.fs.base import FSError  # noqa: E402
from memtool.stores.postgres import PostgresStore  # noqa: E402

NOTES_HEADER_SLOTS = 20


def make_line(worker: int, i: int, rng: random.Random, max_len: int) -> bytes:
    """A self-checking JSON line: worker, index, random padding and its CRC."""
    pad = "".join(rng.choice("abcdefghij \u00e9\u4e2d") for _ in range(rng.randrange(max_len)))
    body = {"w": worker, "i": i, "pad": pad}
    text = json.dumps(body, ensure_ascii=False, sort_keys=True)
    body["crc"] = zlib.crc32(text.encode())
    return (json.dumps(body, ensure_ascii=False, sort_keys=True) + "\n").encode()


def check_line(line: bytes) -> dict | None:
    """The parsed line if it is whole and its CRC matches, else None."""
    try:
        obj = json.loads(line)
        crc = obj.pop("crc")
        text = json.dumps(obj, ensure_ascii=False, sort_keys=True)
        return obj if zlib.crc32(text.encode()) == crc else None
    except (ValueError, KeyError, AttributeError):
        return None


def increment_slot(store, slot: int) -> None:
    """One read-modify-write ``str_replace`` of ``slot-N: count`` under the store's lock."""
    with store.lock("notes.md"):
        text = store.read_bytes("notes.md").decode()
        match = re.search(rf"^slot-{slot}: (\d+)$", text, re.M)
        if match is None:
            raise RuntimeError(f"slot {slot} missing")
        new = text[: match.start()] + f"slot-{slot}: {int(match.group(1)) + 1}" + text[match.end():]
        store.write_bytes("notes.md", new.encode())


def increment_slot_tool(mem, slot: int) -> str | None:
    """The same edit the way a model does it: view, then ``str_replace`` (retried when
    another worker changed the line between the two calls)."""
    for _ in range(500):
        view = mem.call("memory", {"command": "view", "path": "/memories/notes.md"})
        match = re.search(rf"slot-{slot}: (\d+)\n", view)
        if match is None:
            return f"slot missing in view: {view[:200]}"
        old = f"slot-{slot}: {match.group(1)}\n"
        new = f"slot-{slot}: {int(match.group(1)) + 1}\n"
        result = mem.call("memory", {"command": "str_replace", "path": "/memories/notes.md",
                                     "old_str": old, "new_str": new})
        if "has been edited" in result or "edited" in result.lower():
            return None
        if "did not appear verbatim" in result or "No replacement" in result:
            continue
        return result
    return "too many retries"


def out(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main() -> int:
    args = json.loads(sys.argv[1])
    store = PostgresStore(args["dsn"], namespace=args.get("namespace", "default"),
                          schema=args["schema"], pool_size=2)
    rng = random.Random(args["seed"])
    task = args["task"]
    worker = args["worker"]
    if task == "mixed":  # appends to conversations.jsonl and notes.md, slot edits on notes.md
        mem = None
        if args.get("via") == "memory":
            from memtool.memory import Memory

            mem = Memory(store=store, scope=args["scope"], secrets=False)
        edits = list(args["edits"])
        ops = ["append"] * args["appends"] + ["edit"] * len(edits)
        rng.shuffle(ops)
        i = 0
        for op in ops:
            if op == "append":
                line = make_line(worker, i, rng, args["max_len"])
                if mem is not None:
                    mem.record("user", line.decode().rstrip("\n"))
                    if i % 10 == 0:
                        result = mem.bash(f"echo 'note w{worker} i{i}' >> notes.md")
                        if "[exit code" in result or "rror" in result:
                            out({"error": result})
                else:
                    store.append_bytes("conversations.jsonl", line)
                    if i % 10 == 0:
                        store.append_bytes("notes.md", f"note w{worker} i{i}\n".encode())
                i += 1
            else:
                slot = edits.pop()
                if mem is not None:
                    problem = increment_slot_tool(mem, slot)
                    if problem:
                        out({"error": problem})
                else:
                    increment_slot(store, slot)
        out({"done": True})
        return 0
    if task == "burst":  # appends until told to stop; report each outcome (fault tests)
        failed_last = False
        for i in range(args["appends"]):
            line = make_line(worker, i, rng, args["max_len"])
            try:
                if args.get("overwrite") and i % 40 == 0:
                    # A large multi-chunk overwrite: must land whole or not at all.
                    blob = (f"gen w{worker} i{i} ".encode() * 200_000)[:2_500_000]
                    store.write_bytes(f"big-{worker}", blob)
                    out({"ok": i, "big": True})
                else:
                    store.append_bytes("conversations.jsonl", line)
                    out({"ok": i})
            except FSError as e:
                out({"error": str(e), "errno": e.errno, "i": i})
                failed_last = True
            else:
                failed_last = False
        # A burst whose last call met the fault appends again (as a caller retrying would)
        # until one succeeds, so the test can see that the store recovered.
        i = args["appends"]
        while failed_last and i < args["appends"] + 40:
            time.sleep(0.25)
            try:
                store.append_bytes("conversations.jsonl", make_line(worker, i, rng, args["max_len"]))
                out({"ok": i})
                failed_last = False
            except FSError as e:
                out({"error": str(e), "errno": e.errno, "i": i})
            i += 1
        out({"done": True})
        return 0
    if task == "scopes":  # isolation: write marked files in several scopes, one thread each
        import threading

        from memtool.memory import Memory

        problems: list[str] = []

        def write_scope(scope: str, marker: str) -> None:
            try:
                mem = Memory(store=store, scope=scope, secrets=False)
                mem.record("user", f"my marker is {marker}")
                r1 = mem.call("memory", {"command": "create", "path": "/memories/topic/private.md",
                                         "file_text": f"{marker}\n"})
                r2 = mem.bash(f"echo '- {marker}' >> core.md && echo '{marker}' > topic/b.txt")
                r3 = mem.call("memory", {"command": "update", "path": "/memories/notes.md",
                                         "content": f"{marker} note\n", "mode": "append"})
                for r in (r1, r2, r3):
                    if "rror" in r or "[exit code" in r:
                        problems.append(f"{scope}: {r}")
            except Exception as e:  # noqa: BLE001 - reported to the test
                problems.append(f"{scope}: {type(e).__name__}: {e}")

        threads = [threading.Thread(target=write_scope, args=(sc, mk))
                   for sc, mk in zip(args["scopes"], args["markers"])]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for p in problems:
            out({"error": p})
        out({"done": True})
        return 0
    raise SystemExit(f"unknown task {task}")


if __name__ == "__main__":
    sys.exit(main())
