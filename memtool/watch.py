"""Watch a memory store and report every change as the file, its kind and a unified diff.

``Watcher(store).changes()`` yields ``Change`` objects. On a local directory it wakes on
watchdog file events (and rescans every ``interval`` seconds as a safety net); on a store
without file events (PostgreSQL, in-memory) it polls ``stat`` versions every ``interval``.
A change is found by comparing each file's ``FileStat.version`` with the last scan, so events
that watchdog coalesces or drops are still seen. A file that only grew by appending (the
conversation log) is shown as its new lines; other text files as a unified diff; files over
``max_diff_bytes`` or not UTF-8 as their size change. Hidden names (``.x``), editor backups
(``x~``) and swap files are ignored.
"""

from __future__ import annotations

import difflib
import threading
import time
from dataclasses import dataclass, field
from typing import Iterator

from sandbox.fs.base import FileSystem, FSError

#: Files larger than this are reported by size only.
MAX_DIFF_BYTES = 1 << 20


@dataclass(frozen=True)
class Change:
    """One change: ``kind`` is created, modified or deleted; ``diff`` the lines to show."""

    kind: str
    path: str
    diff: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Seen:
    version: object
    size: int
    data: bytes | None


def _ignored(name: str) -> bool:
    return name.startswith(".") or name.endswith(("~", ".swp", ".swx", ".tmp"))


def snapshot(store: FileSystem, max_diff_bytes: int = MAX_DIFF_BYTES) -> dict[str, _Seen]:
    """Every regular file of ``store`` with its version, size and (small enough) content."""
    seen: dict[str, _Seen] = {}
    stack = [""]
    while stack:
        directory = stack.pop()
        try:
            names = store.listdir(directory)
        except FSError:
            continue
        for name in names:
            if _ignored(name):
                continue
            path = f"{directory}/{name}" if directory else name
            try:
                st = store.stat(path)
            except FSError:
                continue
            if st.is_dir:
                stack.append(path)
                continue
            data: bytes | None = None
            if st.size <= max_diff_bytes:
                try:
                    data = store.read_bytes(path)
                except FSError:
                    continue
            seen[path] = _Seen(st.version if st.version is not None else (st.mtime, st.size),
                               st.size, data)
    return seen


def describe(path: str, old: _Seen | None, new: _Seen | None) -> Change:
    """The ``Change`` from ``old`` to ``new`` (either may be None: created / deleted)."""
    if old is None and new is not None:
        return Change("created", path, _diff_lines(path, b"", new.data, 0, new.size))
    if new is None and old is not None:
        return Change("deleted", path, _diff_lines(path, old.data, b"", old.size, 0))
    assert old is not None and new is not None
    return Change("modified", path, _diff_lines(path, old.data, new.data, old.size, new.size))


def _decode(data: bytes | None) -> str | None:
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _diff_lines(path: str, old: bytes | None, new: bytes | None, old_size: int, new_size: int) -> list[str]:
    old_text, new_text = _decode(old), _decode(new)
    if old_text is None or new_text is None:
        return [f"(binary or large file: {old_size} -> {new_size} bytes)"]
    if new_text.startswith(old_text):  # created, or appended to (the conversation log)
        added = new_text[len(old_text):]
        return ["+" + line for line in added.splitlines()] or ["(no visible change)"]
    if not new_text:  # deleted or emptied
        return ["-" + line for line in old_text.splitlines()]
    diff = list(difflib.unified_diff(old_text.splitlines(), new_text.splitlines(),
                                     fromfile=f"a/{path}", tofile=f"b/{path}", lineterm="", n=2))
    return diff or ["(content unchanged; file rewritten)"]


class Watcher:
    """Reports the changes of one store; see the module docstring."""

    def __init__(self, store: FileSystem, *, local_root: str | None = None, poll: bool = False,
                 interval: float = 0.5, max_diff_bytes: int = MAX_DIFF_BYTES):
        self.store = store
        self.local_root = local_root
        self.interval = max(interval, 0.05)
        self.max_diff_bytes = max_diff_bytes
        self._wake = threading.Event()
        self._observer = None
        if local_root is not None and not poll:
            self._observer = self._start_observer(local_root)
        self.mode = "file events" if self._observer is not None else f"polling every {self.interval:g}s"
        self._last = snapshot(store, max_diff_bytes)

    def _start_observer(self, root: str):  # type: ignore[no-untyped-def]
        try:
            from watchdog.events import FileSystemEventHandler
            from watchdog.observers import Observer
        except ImportError:
            return None
        wake = self._wake

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event) -> None:  # type: ignore[no-untyped-def]
                wake.set()

        observer = Observer()
        try:
            observer.schedule(_Handler(), root, recursive=True)
            observer.daemon = True
            observer.start()
        except (OSError, RuntimeError):
            return None
        return observer

    def scan(self) -> list[Change]:
        """Compare the store with the last scan; return the changes, in path order."""
        current = snapshot(self.store, self.max_diff_bytes)
        changes = []
        for path in sorted(set(self._last) | set(current)):
            old, new = self._last.get(path), current.get(path)
            if old is not None and new is not None and old.version == new.version and old.data == new.data:
                continue
            changes.append(describe(path, old, new))
        self._last = current
        return changes

    def changes(self, count: int = 0, timeout: float = 0) -> Iterator[Change]:
        """Yield changes as they happen; stop after ``count`` changes or ``timeout`` seconds
        (0: never)."""
        deadline = time.monotonic() + timeout if timeout > 0 else None
        emitted = 0
        try:
            while True:
                wait = self.interval
                if deadline is not None:
                    wait = min(wait, max(deadline - time.monotonic(), 0))
                if self._wake.wait(wait):
                    time.sleep(0.05)  # let a burst of events (write + rename) settle
                    self._wake.clear()
                for change in self.scan():
                    yield change
                    emitted += 1
                    if count and emitted >= count:
                        return
                if deadline is not None and time.monotonic() >= deadline:
                    return
        finally:
            self.close()

    def close(self) -> None:
        """Stop the file-event observer, if any."""
        if self._observer is not None:
            self._observer.stop()
            self._observer = None
