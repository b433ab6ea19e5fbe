"""Process substitution ``<(cmd)``: the body runs first (in a subshell, output bounded by the
string limit); its output is then readable as ``/dev/fd/N`` by the command whose argument it
was (``diff <(sort a) <(sort b)``, ``while read l; do ...; done < <(cmd)``). Nothing leaves the
sandbox: ``/dev/fd/N`` exists only in the view of the filesystem given to that command."""

from __future__ import annotations

import io
import time
from typing import BinaryIO

from sandbox.fs.base import FileStat

#: The first descriptor number bash gives a process substitution (then 62, 61, ...).
FIRST_FD = 63


class FdView:
    """A filesystem view where ``/dev/fd/N`` are the outputs of process substitutions; every
    other call goes to the real (virtual) filesystem."""

    def __init__(self, fs: object, fds: dict[str, bytes]):
        self._fs = fs
        self._fds = fds

    def __getattr__(self, name: str) -> object:
        return getattr(self._fs, name)

    def open_read(self, path: str) -> BinaryIO:
        """``/dev/fd/N``: the substitution's output; else the real file."""
        data = self._fds.get(path)
        if data is not None:
            return io.BytesIO(data)
        return self._fs.open_read(path)  # type: ignore[attr-defined,no-any-return]

    def read_bytes(self, path: str) -> bytes:
        """Whole content (see ``open_read``)."""
        data = self._fds.get(path)
        return data if data is not None else self._fs.read_bytes(path)  # type: ignore[attr-defined,no-any-return]

    def stat(self, path: str) -> FileStat:
        """A pipe's stat: a file of the output's size."""
        data = self._fds.get(path)
        if data is not None:
            return FileStat("file", len(data), time.time(), 0o600)
        return self._fs.stat(path)  # type: ignore[attr-defined,no-any-return]

    def exists(self, path: str) -> bool:
        """True for the substitutions' descriptors too."""
        return path in self._fds or self._fs.exists(path)  # type: ignore[attr-defined,no-any-return]
