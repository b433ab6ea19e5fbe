"""Group commit of one process's appends to one file (``_Combiner``)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from memtool.stores.postgres.pool import _PoolEntry
    from memtool.stores.postgres.store import PostgresStore


class _AppendTarget:
    """A file appended to by one store: its path's bytes, its lock key as text (a libpq
    parameter), and the key of its combiner in the pool entry."""

    __slots__ = ("raw", "key", "combiner_key")

    def __init__(self, raw: bytes, key: bytes, combiner_key: tuple):
        self.raw = raw
        self.key = key
        self.combiner_key = combiner_key


class _AppendRequest:
    """One fast-path append waiting in a ``_Combiner``."""

    __slots__ = ("target", "data", "done", "seq", "error", "lead")

    def __init__(self, target: _AppendTarget, data: bytes):
        self.target = target
        self.data = data
        self.done = threading.Event()
        self.seq: int | None = None
        self.error: BaseException | None = None
        self.lead = False


class _Combiner:
    """Group commit for the threads of one process: the fast-path appends to one file that
    arrive while another is in flight wait, and the next leader sends them all in one
    transaction: one commit and one WAL flush instead of one each (and one connection instead
    of one each). A lone append goes out at once, exactly as without the combiner.
    Each waiting thread gets its own result (its ``seq``, or ``None`` for the exclusive
    path) or the batch's exception: the batch is one transaction, so every append in it is
    applied whole or not at all."""

    __slots__ = ("lock", "queue", "busy")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queue: list[_AppendRequest] = []
        self.busy = False

    def append(self, store: "PostgresStore", entry: "_PoolEntry", target: _AppendTarget,
               data: bytes) -> int | None:
        """Append ``data`` to ``target`` (in a batch when others are waiting) through
        ``entry``'s connections; the ``seq`` it took, or ``None`` when the exclusive path
        must do it."""
        lock = self.lock
        with lock:
            if self.busy:
                req: _AppendRequest | None = _AppendRequest(target, data)
                self.queue.append(req)
            else:
                self.busy = True
                req = None
        if req is None:
            # The common case, kept short: nobody was waiting (the queue fills only while
            # busy), so this append goes out alone.
            try:
                return store._append_fast(entry, target, data)
            finally:
                self._hand_over([])
        req.done.wait()
        if not req.lead:
            if req.error is not None:
                raise req.error
            return req.seq
        with lock:  # the lead was handed to us: send what queued up meanwhile, with ours
            batch = [req] + self.queue
            self.queue = []
        try:
            try:
                if len(batch) == 1:
                    seqs = [store._append_fast(entry, target, data)]
                else:
                    seqs = store._append_many(entry, batch)
            except BaseException as e:  # noqa: BLE001 - handed to every waiting thread
                for r in batch:
                    r.error = e
            else:
                for r, seq in zip(batch, seqs):
                    r.seq = seq
        finally:
            self._hand_over(batch[1:])
        if req.error is not None:
            raise req.error
        return req.seq

    def _hand_over(self, finished: "list[_AppendRequest]") -> None:
        """Give the lead to the first thread that queued meanwhile (or become idle), then
        wake the threads whose appends were sent in the batch."""
        with self.lock:
            if self.queue:
                nxt = self.queue.pop(0)
                nxt.lead = True
                nxt.done.set()
            else:
                self.busy = False
        for r in finished:
            r.done.set()
