"""``VersionedStore``: a store whose every change becomes a version in a ``VersionLog``.

It wraps the store both tools (and the CLI) write through. Each change runs under the store's
lock of the file: the content before is read, the change is applied, then, under the log's
exclusive lock, both contents are stored and the version is appended; if the version cannot
be appended the change is undone and the caller gets an error, so no change is ever applied
without its version (on PostgreSQL the change and its version are one transaction).
Changes made behind its back (a person in an editor, another program) are found by
``scan()``, by content hash, and recorded with the actor ``person``; a change through the
store also records such an edit first if it finds one on the file it is about to change.

Who made a change comes from ``acting(actor, detail)``, a context that the tools and the CLI
enter around each call (default actor: ``app``). Excluded paths (the append-only conversation
log, versioned as a whole file only when removed or renamed) pass straight through.
"""

from __future__ import annotations

import errno
import re
import secrets
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import BinaryIO, Callable, Iterator

from sandbox.fs.base import FileStat, FileSystem, FSError

from memtool.history.log import PendingVersion, VersionLog, content_hash


@dataclass(frozen=True)
class Actor:
    """Who is changing memory now: ``name`` (memory, bash, cli, person, restore, app),
    ``detail`` (the command or the arguments) and ``call`` (one id per tool call)."""

    name: str
    detail: str = ""
    call: str = ""


_ACTOR: ContextVar[Actor] = ContextVar("memtool_actor", default=Actor("app"))


def current_actor() -> Actor:
    """The actor of the changes made now."""
    return _ACTOR.get()


@contextmanager
def acting(name: str, detail: str = "") -> Iterator[Actor]:
    """Attribute every change made inside to ``name`` with ``detail`` (one call id)."""
    actor = Actor(name, detail[:2000], secrets.token_hex(6))
    token = _ACTOR.set(actor)
    try:
        yield actor
    finally:
        _ACTOR.reset(token)


#: The store-root entry holding the version log (``memtool.history.log.HIDDEN_DIR``).
_RESERVED = ".memtool"

#: The temporary files of atomic writes in flight (``LocalDir``), never versions.
_TEMP = re.compile(r"^\.[0-9a-f]{16}\.tmp$")


def lock_order(path: str) -> tuple[str, str]:
    """The order in which a caller takes the locks of several paths (directory, then name):
    all callers agree on it, so none waits on another (a local store's lock is the
    directory's)."""
    head, _, name = path.rpartition("/")
    return head, name


def _join(prefix: str, path: str) -> str:
    return f"{prefix}/{path}" if prefix and path else (prefix or path)


class VersionedStore(FileSystem):
    """``inner`` with every change recorded in ``log`` (see the module docstring).

    ``prefix``: where ``inner``'s root lies in the log's namespace (a scope's directory).
    ``excluded``: paths (relative to ``inner``) whose writes and appends are not versioned.
    """

    def __init__(self, inner: FileSystem, log: VersionLog, *, prefix: str = "",
                 excluded: frozenset[str] = frozenset({"conversations.jsonl"})):
        self.inner = inner
        self.log = log
        self.prefix = prefix
        self.excluded = excluded
        self.read_only = inner.read_only
        self._seen: dict[str, tuple[object, str]] = {}
        if callable(getattr(inner, "append_line", None)):
            self.append_line = inner.append_line  # the conversation log's fast path

    def __repr__(self) -> str:
        return f"VersionedStore({self.inner!r})"

    # -- reads pass through -----------------------------------------------------------------

    def _hidden(self, path: str, change: bool = False) -> None:
        """The log's own entry (``.memtool`` at the store's root) does not exist for the tools;
        changing anything there is refused."""
        if not self.prefix and (path == _RESERVED or path.startswith(_RESERVED + "/")):
            if change:
                raise FSError(errno.EACCES, path, "Permission denied (reserved for memtool's version history)")
            raise FSError(errno.ENOENT, path)

    def stat(self, path: str) -> FileStat:
        """Stat ``path``."""
        self._hidden(path)
        return self.inner.stat(path)

    def open_read(self, path: str) -> BinaryIO:
        """Open ``path`` for reading."""
        self._hidden(path)
        return self.inner.open_read(path)

    def read_bytes(self, path: str) -> bytes:
        """The content of ``path``."""
        self._hidden(path)
        return self.inner.read_bytes(path)

    def listdir(self, path: str) -> list[str]:
        """Names in a directory (never the log's own entry)."""
        self._hidden(path)
        names = self.inner.listdir(path)
        if not path and not self.prefix and _RESERVED in names:
            names = [n for n in names if n != _RESERVED]
        return names

    def readdir_order(self, path: str) -> list[str] | None:
        """The inner store's readdir order (never the log's own entry)."""
        self._hidden(path)
        names = self.inner.readdir_order(path)
        if names is not None and not path and not self.prefix and _RESERVED in names:
            names = [n for n in names if n != _RESERVED]
        return names

    def mkdir(self, path: str) -> None:
        """Create a directory (directories are not versioned)."""
        self._hidden(path, change=True)
        self.inner.mkdir(path)

    def rmdir(self, path: str) -> None:
        """Remove an empty directory (directories are not versioned)."""
        self._hidden(path)
        self.inner.rmdir(path)

    def set_mtime(self, path: str, mtime: float) -> None:
        """Set a modification time (not a change of content)."""
        self._hidden(path)
        self.inner.set_mtime(path, mtime)

    @contextmanager
    def lock(self, path: str) -> Iterator[None]:
        """The inner store's lock."""
        self._hidden(path)
        with self.inner.lock(path):
            yield

    # -- helpers ----------------------------------------------------------------------------

    def _excluded(self, path: str) -> bool:
        """True for an append-only log (matched by name at any depth: scopes have their own)."""
        return path in self.excluded or path.rpartition("/")[2] in self.excluded

    def _read_or_none(self, path: str) -> bytes | None:
        try:
            return self.inner.read_bytes(path)
        except FSError as e:
            if e.errno in (errno.ENOENT, errno.ENOTDIR):
                return None
            raise

    def _remember(self, path: str, digest: str | None) -> None:
        if digest is None:
            self._seen.pop(path, None)
            return
        try:
            self._seen[path] = (self.inner.stat(path).version, digest)
        except FSError:
            self._seen.pop(path, None)

    def _pending(self, path: str, before: str | None, after: str | None,
                 actor: Actor | None = None) -> PendingVersion:
        who = actor or current_actor()
        return PendingVersion(_join(self.prefix, path), before, after, who.name, who.detail, who.call)

    def _unrecorded_edit(self, path: str, before: str | None) -> list[PendingVersion]:
        """A person's edit of ``path`` not yet in the log (what the file holds differs from
        its newest version), as a version to append first."""
        known = self.log.state(_join(self.prefix, path))
        if known == before:
            return []
        return [self._pending(path, known, before, Actor("person", "edited outside the tools"))]

    def _commit(self, path: str, pending: "list[PendingVersion] | Callable[[], list[PendingVersion]]",
                undo: Callable[[], None]) -> None:
        """Append ``pending`` (or what the callable returns, computed under the log's lock)
        to the log; if that fails, ``undo()`` the change and refuse it."""
        try:
            with self.log.locked():
                self.log.append(pending() if callable(pending) else pending)
        except Exception as e:
            undo()
            if isinstance(e, OSError) and not isinstance(e, FSError):  # the log's directory, a full disk
                raise FSError(errno.EIO, path, "the version history cannot be written, "
                                               "so nothing was changed") from None
            raise FSError(errno.EIO, path, "the change could not be recorded as a version, "
                                           "so it was undone") from None

    def _apply_file_change(self, path: str, new: bytes | None, apply: Callable[[], None]) -> None:
        """Record ``path`` going from its current content to ``new`` around ``apply()``.

        Lock order: the store's lock of ``path`` for the whole change, then the log's only to
        store the contents and append the version (as short as it can be: on PostgreSQL the
        log's lock is held until the change commits), so two processes never wait on each
        other and writers of different files wait for each other only that long."""
        with self._log_guard(path), self.inner.lock(path):
            old = self._read_or_none(path)
            old_hash = content_hash(old) if old is not None else None
            new_hash = content_hash(new) if new is not None else None
            apply()

            def record() -> list[PendingVersion]:
                for data in (old, new):
                    if data is not None:
                        self.log.put_blob(data)
                pending = self._unrecorded_edit(path, old_hash)
                if old_hash != new_hash:
                    pending.append(self._pending(path, old_hash, new_hash))
                return pending

            def undo() -> None:
                if old is None:
                    try:
                        self.inner.remove(path)
                    except FSError:
                        pass
                else:
                    self.inner.write_bytes(path, old)

            self._commit(path, record, undo)
            self._remember(path, new_hash)

    @contextmanager
    def _locks(self, *paths: str) -> Iterator[None]:
        """The store's locks of ``paths`` (in sorted order, so two callers never wait on each
        other), taken before the log's as every change does."""
        with ExitStack() as stack:
            for p in sorted(set(paths), key=lock_order):
                stack.enter_context(self.inner.lock(p))
            yield

    @contextmanager
    def _log_guard(self, path: str) -> Iterator[None]:
        """The log's own failures (its directory unwritable, a disk full) as the store's
        error for ``path``: the change is refused, never half made."""
        try:
            yield
        except FSError:
            raise
        except OSError:
            raise FSError(errno.EIO, path,  # EIO: not the file's own permissions
                          "the version history cannot be written, so nothing was changed") from None

    # -- changes ----------------------------------------------------------------------------

    def write_bytes(self, path: str, data: bytes) -> None:
        """Replace ``path`` with ``data``, recording the version."""
        self._hidden(path, change=True)
        if self._excluded(path):
            self.inner.write_bytes(path, data)
            return
        self._apply_file_change(path, bytes(data), lambda: self.inner.write_bytes(path, data))

    def append_bytes(self, path: str, data: bytes) -> None:
        """Append to ``path``, recording the version (not for excluded logs)."""
        self._hidden(path, change=True)
        if self._excluded(path):
            self.inner.append_bytes(path, data)
            return
        with self._log_guard(path), self.inner.lock(path):
            old = self._read_or_none(path)
            new = (old or b"") + bytes(data)
            self._apply_file_change(path, new, lambda: self.inner.append_bytes(path, data))

    def remove(self, path: str) -> None:
        """Remove a file, recording its deletion."""
        self._hidden(path)
        self._apply_file_change(path, None, lambda: self.inner.remove(path))

    def _files_under(self, path: str) -> list[str]:
        """Every file at or below ``path`` (relative paths of ``inner``)."""
        try:
            st = self.inner.stat(path)
        except FSError:
            return []
        if not st.is_dir:
            return [path]
        out: list[str] = []
        stack = [path]
        while stack:
            d = stack.pop()
            try:
                names = self.inner.listdir(d)
            except FSError:
                continue
            for name in names:
                child = _join(d, name)
                if not self.prefix and child == _RESERVED:
                    continue  # the log itself
                try:
                    if self.inner.stat(child).is_dir:
                        stack.append(child)
                    elif not _TEMP.match(name):
                        out.append(child)
                except FSError:
                    continue
        return sorted(out)

    def rename(self, src: str, dst: str) -> None:
        """Move ``src`` to ``dst``, recording every file that leaves or arrives."""
        self._hidden(src)
        self._hidden(dst, change=True)
        with self._log_guard(src), self._locks(src, dst), self.log.locked():
            moved = self._files_under(src)
            contents: dict[str, bytes] = {}
            for f in moved:
                data = self._read_or_none(f)
                if data is not None:
                    contents[f] = data
            replaced = self._read_or_none(dst) if len(moved) == 1 and moved[0] == src else None
            hashes = {f: self.log.put_blob(d) for f, d in contents.items()}
            replaced_hash = self.log.put_blob(replaced) if replaced is not None else None
            self.inner.rename(src, dst)
            pending: list[PendingVersion] = []
            for f, h in hashes.items():
                pending += self._unrecorded_edit(f, h)
                target = dst + f[len(src):]
                if target == dst:
                    pending += self._unrecorded_edit(dst, replaced_hash)
                pending.append(self._pending(f, h, None))
                pending.append(self._pending(target, replaced_hash if target == dst else None, h))

            def undo() -> None:
                self.inner.rename(dst, src)
                if replaced is not None:
                    self.inner.write_bytes(dst, replaced)

            self._commit(src, pending, undo)
            for f, h in hashes.items():
                self._remember(f, None)
                self._remember(dst + f[len(src):], h)

    # -- changes made behind the store's back -----------------------------------------------

    def scan(self, actor: Actor | None = None) -> list:
        """Record every file whose content differs from its newest version (a person's
        edit, creation or deletion), by content hash; returns the new versions.

        The files are compared without holding the log; each one found changed is then read
        again and recorded under its own lock and then the log's (the order every change
        takes), so a scan never waits on the log while holding it (on PostgreSQL, reading a
        file with unsealed appends takes the file's lock)."""
        who = actor or Actor("person", "edited outside the tools")
        with self.log.locked():
            known = self.log.tracked(self.prefix)  # caught up with every process
        head = self.prefix + "/" if self.prefix else ""
        suspects: list[str] = []
        present: set[str] = set()
        for rel in self._files_under(""):
            if self._excluded(rel):
                continue
            full = _join(self.prefix, rel)
            present.add(full)
            try:
                version = self.inner.stat(rel).version
            except FSError:
                continue
            seen = self._seen.get(rel)
            if seen is not None and seen[0] == version and version is not None:
                digest = seen[1]
            else:
                try:
                    data = self._read_or_none(rel)
                except FSError:
                    continue  # a link or special file: no content to keep (the tools refuse it)
                if data is None:
                    continue
                digest = content_hash(data)
                self._seen[rel] = (version, digest)
            if known.get(full) != digest:
                suspects.append(rel)
        for full in known:
            rel = full[len(head):]
            if full not in present and not self._excluded(rel):
                suspects.append(rel)
        made: list = []
        for rel in sorted(set(suspects)):
            made += self._record_edit(rel, who)
        return made

    def _record_edit(self, rel: str, who: Actor) -> list:
        """Record ``rel``'s current content (or its absence) if it differs from its newest
        version, under the file's lock and the log's."""
        full = _join(self.prefix, rel)
        with self.inner.lock(rel):
            try:
                data = self._read_or_none(rel)
            except FSError:
                return []
            digest = content_hash(data) if data is not None else None
            with self.log.locked():
                known = self.log.state(full)
                if known == digest:
                    return []
                if data is not None:
                    self.log.put_blob(data)
                made = self.log.append([PendingVersion(full, known, digest, who.name, who.detail, who.call)])
            self._remember(rel, digest)
            return made
