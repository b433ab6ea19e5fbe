"""The host's directory order (readdir order) where the backend is a host directory.

GNU ``find``, ``du``, ``grep -r`` and ``ls -U`` list a directory in the order the kernel's ``readdir``
returns it (ext4: hash order; tmpfs: newest first), not sorted. ``VirtualFS.listdir`` sorts,
but a backend over a host directory knows that order (``FileSystem.readdir_order``: a
``LocalDir``'s ``os.listdir``, and the memtool stores layered over one): where a path resolves
to such a backend, these helpers put a sorted listing back into it, so the output matches
GNU's on the same host filesystem. Names the backend does not list (mount
points above it) keep their sorted place after the others; other backends keep sorted order.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, TypeVar

from sandbox.fs.base import FSError

T = TypeVar("T")


def directory_rank(fs: Any, vpath: str) -> dict[str, int] | None:
    """{name: position in the host's readdir order} of the directory ``vpath``, or None where
    it has none (not a host directory, ``/dev``, unreadable)."""
    resolve = getattr(fs, "resolve", None)
    if resolve is None or vpath == "/dev":
        return None
    found = resolve(vpath)
    if found is None:
        return None
    order = getattr(found[0], "readdir_order", None)  # (a duck-typed backend may lack it)
    try:
        raw = order(found[1]) if order is not None else None
    except FSError:
        return None
    return None if raw is None else {name: i for i, name in enumerate(raw)}


def in_directory_order(fs: Any, vpath: str, items: Iterable[T],
                       key: Callable[[T], str] = lambda item: item) -> list[T]:  # type: ignore[assignment,return-value]
    """``items`` (a sorted listing of ``vpath``) in the host's readdir order where there is one."""
    items = list(items)
    rank = directory_rank(fs, vpath)
    if rank is None or len(items) < 2:
        return items
    last = len(rank)
    return sorted(items, key=lambda item: rank.get(key(item), last))


def in_inode_order(fs: Any, vpath: str, names: list[str]) -> list[str]:
    """``names`` (a sorted listing of ``vpath``) in ``cp -r``'s order where ``vpath`` is a host
    directory: gnulib's ``savedir`` with ``SAVEDIR_SORT_FASTREAD`` sorts by inode number (a
    ``LocalDir``'s ``FileStat.version`` holds it); names without one keep their place after
    the others. Other backends keep sorted order."""
    resolve = getattr(fs, "resolve", None)
    found = resolve(vpath) if resolve is not None and vpath != "/dev" else None
    stat_many = getattr(found[0], "stat_many", None) if found is not None else None
    if stat_many is None or len(names) < 2:
        return names
    try:
        stats = stat_many(found[1], names)
    except FSError:
        return names
    last = float("inf")

    def inode(name: str) -> float:
        version = getattr(stats.get(name), "version", None)
        return version[2] if isinstance(version, tuple) and len(version) > 2 else last
    return sorted(names, key=inode)
