"""``History``: a memory's versions as the application and the CLI see them.

``entries(path)`` (newest first), ``content_at(path, id)``, ``diff(path, a, b)`` and
``restore(path, id)``. Every version id is also a point in time: the content of a path "at"
version ``v`` is what the file held right after change ``v`` (whichever file ``v`` changed), so
``restore(None, v)`` puts the whole memory back as it was then. A restore is itself a version
(actor ``restore``), so it can be undone by restoring the id before it.
"""

from __future__ import annotations

import difflib
import errno
from dataclasses import dataclass
from datetime import datetime, timezone

from sandbox.fs.base import FSError

from memtool.history.log import Version, VersionLog
from memtool.history.store import VersionedStore, acting, current_actor


class HistoryError(ValueError):
    """A history request that cannot be answered (unknown version, no history...)."""


@dataclass(frozen=True)
class HistoryEntry:
    """One version as shown to a person: ``path`` is relative to the memory (its scope)."""

    id: int
    time: float
    actor: str
    detail: str
    path: str
    kind: str
    summary: str
    before: str | None
    after: str | None
    call: str

    @property
    def when(self) -> str:
        """The time in UTC, ISO 8601 to the second."""
        return datetime.fromtimestamp(self.time, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _lines(data: bytes | None) -> list[str]:
    if data is None:
        return []
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def _is_text(data: bytes | None) -> bool:
    if data is None:
        return True
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def unified(path: str, old: bytes | None, new: bytes | None, a_label: str, b_label: str,
            context: int = 3) -> str:
    """A unified diff of two contents (``None``: absent), headers ``a/PATH`` and ``b/PATH``
    with the labels; binary contents are reported by size."""
    if old == new:
        return ""
    if not (_is_text(old) and _is_text(new)):
        return (f"Binary files a/{path} ({a_label}) and b/{path} ({b_label}) differ "
                f"({len(old or b'')} -> {len(new or b'')} bytes)\n")
    out = []
    for line in difflib.unified_diff(_lines(old), _lines(new), f"a/{path}\t{a_label}",
                                     f"b/{path}\t{b_label}", n=context):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    if not out:  # an empty file created or deleted: headers say so
        what = "empty file created" if old is None else ("empty file deleted" if new is None else "")
        out = [f"--- a/{path}\t{a_label}\n", f"+++ b/{path}\t{b_label}\n", f"({what})\n"]
    return "".join(out)


class History:
    """The versions of one memory (one scope of a store)."""

    def __init__(self, log: VersionLog, store: VersionedStore):
        self.log = log
        self.store = store
        self.prefix = store.prefix

    # -- paths --------------------------------------------------------------------------

    def _full(self, rel: str) -> str:
        return f"{self.prefix}/{rel}" if self.prefix and rel else (self.prefix or rel)

    def _rel(self, full: str) -> str | None:
        if not self.prefix:
            return full
        head = self.prefix + "/"
        return full[len(head):] if full.startswith(head) else None

    def _mine(self) -> list[Version]:
        return [v for v in self.log.entries() if self._rel(v.path) is not None]

    # -- reading --------------------------------------------------------------------------

    def blob(self, digest: str | None) -> bytes | None:
        """The content named ``digest`` (None for None)."""
        if digest is None:
            return None
        try:
            return self.log.get_blob(digest)
        except KeyError:
            raise HistoryError(f"the content {digest[:12]} is missing from the history") from None

    def summary(self, v: Version) -> str:
        """A short description of one change: created/deleted with its size, or +/- lines."""
        if v.before is None:
            data = self.blob(v.after)
            return f"created ({len(data or b'')} bytes, {len(_lines(data))} lines)"
        if v.after is None:
            data = self.blob(v.before)
            return f"deleted ({len(data or b'')} bytes, {len(_lines(data))} lines)"
        old, new = self.blob(v.before), self.blob(v.after)
        if not (_is_text(old) and _is_text(new)):
            return f"modified (binary, {len(old or b'')} -> {len(new or b'')} bytes)"
        plus = minus = 0
        for line in difflib.unified_diff(_lines(old), _lines(new), n=0):
            if line.startswith("+") and not line.startswith("+++"):
                plus += 1
            elif line.startswith("-") and not line.startswith("---"):
                minus += 1
        return f"modified (+{plus} -{minus} lines)"

    def entry(self, v: Version) -> HistoryEntry:
        """A version as a ``HistoryEntry``."""
        return HistoryEntry(v.id, v.time, v.actor, v.detail, self._rel(v.path) or v.path, v.kind,
                            self.summary(v), v.before, v.after, v.call)

    def entries(self, path: str | None = None, limit: int | None = None) -> list[HistoryEntry]:
        """Versions of ``path`` (a file, or everything under a directory; None: all),
        newest first, at most ``limit``. Successive versions of one file made by one tool
        call (a shell redirection empties the file, then writes it) are shown as one entry
        (the newest id, the oldest content before)."""
        merged: list[Version] = []
        where: dict[tuple[str, str], int] = {}
        for v in reversed(self._mine()):
            rel = self._rel(v.path) or ""
            if path and not (rel == path or rel.startswith(path + "/")):
                continue
            at = where.get((v.call, v.path)) if v.call else None
            top = merged[at] if at is not None else None
            if (top is not None and top.before == v.after
                    and not (v.before is None and top.after is None)):
                merged[at] = Version(top.id, top.time, top.actor, top.detail, top.path, v.before,  # type: ignore[index]
                                     top.after, top.call)
                continue
            if limit is not None and len(merged) >= limit:
                break
            where[(v.call, v.path)] = len(merged)
            merged.append(v)
        return [self.entry(v) for v in merged]

    def version(self, version_id: int | str) -> Version:
        """The version with this id (``12`` or ``"v12"``); ``HistoryError`` if unknown."""
        vid = parse_id(version_id)
        v = self.log.get(vid)
        if v is None or self._rel(v.path) is None:
            raise HistoryError(f"no version {vid} in this memory's history (see: memtool history)")
        return v

    def content_at(self, path: str, version_id: int | str) -> bytes | None:
        """What ``path`` held right after version ``version_id`` (None: it did not exist)."""
        point = self.version(version_id).id
        full = self._full(path)
        later: Version | None = None
        found: Version | None = None
        for v in self.log.entries():
            if v.path != full:
                continue
            if v.id <= point:
                found = v
            elif later is None:
                later = v
                break
        if found is not None:
            return self.blob(found.after)
        if later is not None:  # nothing recorded before: the file as the next change found it
            return self.blob(later.before)
        return None

    def paths_at(self, version_id: int | str, under: str = "") -> dict[str, bytes]:
        """Every file (under ``under``) and its content right after version ``version_id``."""
        known = sorted({self._rel(v.path) for v in self._mine()} - {None})  # type: ignore[operator]
        out: dict[str, bytes] = {}
        for rel in known:
            if under and not (rel == under or rel.startswith(under + "/")):
                continue
            data = self.content_at(rel, version_id)
            if data is not None:
                out[rel] = data
        return out

    def current(self, path: str) -> bytes | None:
        """The file's content now (None: absent)."""
        try:
            return self.store.inner.read_bytes(path)
        except FSError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR):
                return None
            raise

    def previous_id(self, path: str) -> int:
        """The id of the point just before the newest change of ``path``."""
        mine = [v for v in self.log.entries() if v.path == self._full(path)]
        if not mine:
            raise HistoryError(f"{path} has no history")
        return mine[-1].id - 1

    def diff(self, path: str, a: int | str | None = None, b: int | str | None = None) -> str:
        """A unified diff of ``path`` between version ``a`` (default: just before its newest
        change) and ``b`` (default: the file now)."""
        a_id = self.previous_id(path) if a is None else self.version(a).id
        old = self.content_at(path, a_id) if a_id > 0 else None
        if b is None:
            new, b_label = self.current(path), "now"
        else:
            new, b_label = self.content_at(path, b), f"v{self.version(b).id}"
        return unified(path, old, new, f"v{a_id}", b_label)

    # -- restoring ------------------------------------------------------------------------

    def restore(self, path: str | None, version_id: int | str) -> list[HistoryEntry]:
        """Put ``path`` (a file, a directory, or None for the whole memory) back as it was
        right after version ``version_id``; the restore is itself recorded (actor
        ``restore``, unless the caller is acting as someone). Returns the new versions."""
        point = self.version(version_id).id
        under = path or ""
        actor = current_actor()
        detail = f"restore {path or '(everything)'} to v{point}"
        name = actor.name if actor.name not in ("app",) else "restore"
        with acting(name, detail if name == "restore" else f"{actor.detail} ({detail})"):
            # Not under the log's lock as a whole: each change takes the store's lock, then
            # the log's (the order every writer uses).
            self.store.scan()
            entries = self.log.entries()
            start = entries[-1].id if entries else 0
            known = sorted({rel for rel in (self._rel(v.path) for v in entries)
                            if rel is not None and (not under or rel == under
                                                    or rel.startswith(under + "/"))})
            if path and not known:
                raise HistoryError(f"{path} has no history")
            for rel in known:
                if self.store._excluded(rel):
                    continue
                target = self.content_at(rel, point)
                now = self.current(rel)
                if target == now:
                    continue
                if target is None:
                    self.store.remove(rel)
                else:
                    self._ensure_parents(rel)
                    self.store.write_bytes(rel, target)
            return [self.entry(v) for v in self.log.entries() if v.id > start]

    def _ensure_parents(self, rel: str) -> None:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            try:
                self.store.mkdir(sub)
            except FSError as e:
                if e.errno != errno.EEXIST:
                    raise


def parse_id(value: int | str) -> int:
    """A version id from ``12``, ``"12"`` or ``"v12"``; ``HistoryError`` otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip()
    if text[:1] in ("v", "V"):
        text = text[1:]
    if not text.isdigit():
        raise HistoryError(f"{str(value)[:40]!r} is not a version id (a number such as 12 or v12)")
    return int(text)
