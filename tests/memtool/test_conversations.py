"""Recall memory: record() line format, recent() from the end, malformed lines, secrets."""

from __future__ import annotations

import io
import json
import re
import threading
import warnings
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtool import Memory
from memtool.conversations import MalformedLineWarning
from memtool.stores.memory import MemoryStore

ISO_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def lines(mem: Memory) -> list[bytes]:
    data = mem.store.read_bytes("conversations.jsonl")
    assert data.endswith(b"\n")
    return data.split(b"\n")[:-1]


def test_record_one_line_format(mem):
    turn = mem.record("user", "line one\nline two \u2028 \"quoted\" ünï", session="s1", meta={"k": [1, 2]})
    (raw,) = lines(mem)
    obj = json.loads(raw)
    assert list(obj) == ["role", "content", "timestamp", "session", "meta"]
    assert obj == turn
    assert obj["content"] == "line one\nline two \u2028 \"quoted\" ünï"
    assert ISO_UTC.match(obj["timestamp"])
    ts = datetime.strptime(obj["timestamp"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    assert abs(datetime.now(timezone.utc) - ts) < timedelta(minutes=1)
    assert b"\n" not in raw


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(role=st.text(min_size=1), content=st.text())
def test_plain_text_turns_are_the_bytes_json_dumps_writes(mem, role, content):
    """record() encodes the common turn (text content, no extras) without json.dumps: the
    line must still be exactly what encode_turn (json.dumps) makes of the turn it returns,
    for any text: quotes, control characters, non-ASCII, lone surrogates."""
    from memtool.conversations import encode_turn

    mem.store.write_bytes("conversations.jsonl", b"")
    turn = mem.record(role, content)
    assert mem.store.read_bytes("conversations.jsonl") == encode_turn(turn)
    assert turn["content"] == mem.scanner.redact(content)


def test_record_rejects_reserved_extras_and_bad_role(mem):
    with pytest.raises(ValueError):
        mem.record("user", "x", timestamp="2020")
    with pytest.raises(ValueError):
        mem.record("", "x")
    assert mem.store.read_bytes("conversations.jsonl") == b""


def test_lone_surrogates_still_one_valid_line(mem):
    mem.record("user", "bad \udcff byte")
    (raw,) = lines(mem)
    assert json.loads(raw)["content"] == "bad \udcff byte"


def test_missing_final_newline_is_added_first(mem):
    mem.store.write_bytes("conversations.jsonl", b'{"role": "user", "content": "hand edit"}')
    mem.record("assistant", "after")
    raw = lines(mem)
    assert [json.loads(r)["content"] for r in raw] == ["hand edit", "after"]


def test_recent_order_and_count(mem):
    for i in range(30):
        mem.record("user" if i % 2 == 0 else "assistant", f"turn {i}")
    got = mem.recent(5)
    assert [t["content"] for t in got] == [f"turn {i}" for i in range(25, 30)]
    assert len(mem.recent(100)) == 30
    assert mem.recent(0) == []


def test_recent_skips_malformed_with_warning(mem):
    mem.store.write_bytes("conversations.jsonl", (
        b'{"role": "user", "content": "a"}\n'
        b'this is not json\n'
        b'\n'
        b'[1, 2]\n'
        b'{"role": "assistant", "content": "b"}\n'
        b'{"role": "user", "content": "trunc'
    ))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = mem.recent(10)
    assert [t["content"] for t in got] == ["a", "b"]
    assert sum(issubclass(w.category, MalformedLineWarning) for w in caught) == 3


def test_recent_line_longer_than_a_block(mem):
    big = "x" * 200_000
    mem.record("user", "first")
    mem.record("user", big)
    mem.record("user", "last")
    assert [len(t["content"]) for t in mem.recent(3)] == [5, 200_000, 4]


class CountingStore(MemoryStore):
    """Counts the bytes read through open_read."""

    def __init__(self):
        super().__init__()
        self.read = 0

    def open_read(self, path):
        inner = super().open_read(path)
        store = self

        class Counting(io.BytesIO):
            def read(self, n=-1):
                data = inner.read(n)
                store.read += len(data)
                return data

            def seek(self, pos, whence=0):
                return inner.seek(pos, whence)

        return Counting()


def test_recent_reads_from_the_end_only():
    store = CountingStore()
    mem = Memory(store)
    line = json.dumps({"role": "user", "content": "y" * 300, "timestamp": "2026-01-01T00:00:00Z"}) + "\n"
    store.write_bytes("conversations.jsonl", line.encode() * 30_000)  # about 10 MB
    store.read = 0
    assert len(mem.recent(40)) == 40
    assert store.read < 200_000, store.read


def test_secrets_redacted_in_record(mem):
    turn = mem.record("user", "my key AKIAIOSFODNN7EXAMPLE and password: hunter22!",
                      note="token ghp_" + "a" * 36)
    raw = mem.store.read_bytes("conversations.jsonl").decode()
    assert "AKIAIOSFODNN7EXAMPLE" not in raw and "hunter22" not in raw and "ghp_aaaa" not in raw
    assert turn["content"] == "my key [redacted: AWS access key] and password: [redacted: password assignment]"
    assert turn["note"] == "token [redacted: GitHub token]"


def test_secret_redaction_can_be_turned_off(store):
    mem = Memory(store, secrets=False)
    mem.record("user", "AKIAIOSFODNN7EXAMPLE")
    assert b"AKIAIOSFODNN7EXAMPLE" in mem.store.read_bytes("conversations.jsonl")


def test_many_threads(mem):
    def work(t: int) -> None:
        for i in range(200):
            mem.record("user", f"{t}-{i}-" + "z" * ((t * 997 + i * 131) % 5000))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    raw_lines = lines(mem)
    assert len(raw_lines) == 1600
    seen = {"-".join(json.loads(raw)["content"].split("-")[:2]) for raw in raw_lines}
    assert len(seen) == 1600
