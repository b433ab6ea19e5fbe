"""Export a whole memory with its history to a tar archive, and import it again.

The archive (gzip-compressed when the name ends in ``.gz``/``.tgz``) holds::

    manifest.json                 {"format": "memtool-export", "version": 1, ...}
    files/<path>                  every file of the store, with its modification time
    versions/log.jsonl            the version log, line for line
    versions/objects/<sha256>     every content the log refers to

Import writes into an *empty* store (a new or empty directory, an empty in-memory store):
only regular files with clean relative paths are taken (no ``..``, no absolute names, no
links, nothing under ``.memtool``), each content is checked against its hash, and the log is
copied as it is, so ``history()`` after an import is the history before the export.
"""

from __future__ import annotations

import errno
import io
import json
import tarfile
import time
import zlib
from typing import Iterator

from sandbox.fs.base import FileSystem, FSError

from memtool.history.log import VersionLog, content_hash

FORMAT = "memtool-export"
FORMAT_VERSION = 1
#: The largest member an import accepts.
MAX_MEMBER_BYTES = 64 << 20


class ArchiveError(ValueError):
    """The archive cannot be written or read (one line for the user)."""


def walk_files(store: FileSystem, top: str = "") -> Iterator[str]:
    """Every regular file of ``store`` below ``top``, sorted."""
    try:
        names = sorted(store.listdir(top))
    except FSError:
        return
    for name in names:
        path = f"{top}/{name}" if top else name
        try:
            st = store.stat(path)
        except FSError:
            continue
        if st.is_dir:
            yield from walk_files(store, path)
        else:
            yield path


def _add(tar: tarfile.TarFile, name: str, data: bytes, mtime: float | None = None) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(mtime if mtime is not None else time.time())
    info.mode = 0o600
    tar.addfile(info, io.BytesIO(data))


def _mode(path: str, write: bool) -> str:
    gz = path.endswith((".gz", ".tgz"))
    return ("w:gz" if gz else "w") if write else "r:*"


def export_archive(store: FileSystem, log: VersionLog | None, out: str) -> dict[str, int]:
    """Write ``store``'s files and ``log`` to the tar ``out``; returns counts."""
    files = list(walk_files(store))
    lines = log.raw_lines() if log is not None else []
    blobs = list(dict.fromkeys(log.blob_names())) if log is not None else []  # stored order
    manifest = {"format": FORMAT, "version": FORMAT_VERSION, "created": time.time(),
                "files": len(files), "versions": len(lines), "contents": len(blobs)}
    try:
        with tarfile.open(out, _mode(out, True)) as tar:
            _add(tar, "manifest.json", json.dumps(manifest, indent=1).encode())
            for path in files:
                st = store.stat(path)
                _add(tar, f"files/{path}", store.read_bytes(path), st.mtime)
            _add(tar, "versions/log.jsonl", b"".join(lines))
            for digest in blobs:
                try:
                    _add(tar, f"versions/objects/{digest}", log.get_blob(digest))  # type: ignore[union-attr]
                except KeyError:
                    continue  # damaged: not exported (its versions still list the hash)
    except OSError as e:
        raise ArchiveError(f"{out}: {e.strerror or e}") from None
    return {"files": len(files), "versions": len(lines), "contents": len(blobs)}


def _clean(name: str) -> str | None:
    """``name`` as a store path, or None if it is not a clean relative path."""
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts) \
            or "\x00" in name or parts[0] == ".memtool":
        return None
    return name


def _ensure_parents(store: FileSystem, path: str) -> None:
    parts = path.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        try:
            store.mkdir("/".join(parts[:i]))
        except FSError as e:
            if e.errno != errno.EEXIST:
                raise


def import_archive(store: FileSystem, log: VersionLog | None, src: str) -> dict[str, int]:
    """Read the tar ``src`` into the empty ``store`` and ``log``; returns counts."""
    if list(walk_files(store)):
        raise ArchiveError("the target memory is not empty; import into a new directory")
    if log is not None and log.entries():
        raise ArchiveError("the target memory already has a history; import into a new directory")
    counts = {"files": 0, "versions": 0, "contents": 0, "skipped": 0}
    try:
        tar = tarfile.open(src, _mode(src, False))
    except (OSError, tarfile.TarError) as e:
        raise ArchiveError(f"{src}: not a memtool export ({getattr(e, 'strerror', None) or e})") from None
    log_lines: list[bytes] = []
    try:
        _read_members(tar, store, log, src, counts, log_lines)
    except (tarfile.TarError, EOFError, zlib.error) as e:
        raise ArchiveError(f"{src}: damaged archive ({e})") from None
    finally:
        tar.close()
    if log is not None and log_lines:
        counts["versions"] = log.import_lines(log_lines)
    return counts


def _read_members(tar: tarfile.TarFile, store: FileSystem, log: VersionLog | None, src: str,
                  counts: dict[str, int], log_lines: list[bytes]) -> None:
    """Read every member of ``tar`` into ``store`` and ``log`` (see ``import_archive``)."""
    manifest = None
    for member in tar:
        if manifest is None and member.name != "manifest.json":
            raise ArchiveError(f"{src}: not a memtool export (no manifest first)")
        if not member.isfile() or member.size > MAX_MEMBER_BYTES:
            counts["skipped"] += 1
            continue
        f = tar.extractfile(member)
        data = f.read() if f is not None else b""
        name = member.name
        if name == "manifest.json" and manifest is None:
            try:
                manifest = json.loads(data)
            except ValueError:
                manifest = None
            if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
                raise ArchiveError(f"{src}: not a memtool export (bad manifest)")
        elif name.startswith("files/") and _clean(name[6:]):
            path = name[6:]
            _ensure_parents(store, path)
            store.write_bytes(path, data)
            try:
                store.set_mtime(path, float(member.mtime))
            except FSError:
                pass
            counts["files"] += 1
        elif name == "versions/log.jsonl":
            log_lines[:] = data.splitlines(keepends=True)
        elif name.startswith("versions/objects/") and log is not None:
            digest = name[len("versions/objects/"):]
            if content_hash(data) != digest:
                counts["skipped"] += 1
                continue
            log.put_blob(data)
            counts["contents"] += 1
        else:
            counts["skipped"] += 1
    if manifest is None:
        raise ArchiveError(f"{src}: not a memtool export (empty archive)")
