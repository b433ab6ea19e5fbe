"""Putting results in place as GNU patch does (util.c's ``move_file``, ``create_backup`` and
patch.c's deferred deletions): ``.orig`` backups made once per file per run, missing parent
directories created, deleted files removed at the end with their emptied directories.

Files are tracked by name where GNU tracks inodes: a file this run wrote is CREATED (not
backed up again, its ``.rej`` appended to), one due for deletion is DELETE_LATER (looks
missing to later file patches until it is written again)."""

from __future__ import annotations

import errno
from typing import Callable

from sandbox.commands.base import CommandContext
from sandbox.commands.patch.names import quotearg
from sandbox.commands.patch.options import Fatal
from sandbox.fs.base import FSError

CREATED, DELETE_LATER, OVERWRITTEN = "created", "delete-later", "overwritten"


def as_str(name: bytes) -> str:
    """A patch's file name as the file API takes it."""
    return name.decode("utf-8", "surrogateescape")


def split_lines(data: bytes) -> list[bytes]:
    """The lines of a text, each with its newline (only LF ends a line; the last may lack it)."""
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


class Files:
    """The files this run has touched, and the operations that touch them."""

    def __init__(self, ctx: CommandContext, say: Callable[[str], None], verbose: bool):
        self.ctx = ctx
        self.say = say
        self.verbose = verbose
        self.state: dict[str, str] = {}
        self.to_delete: list[tuple[str, bool]] = []

    # -- queries ----------------------------------------------------------------------------

    def exists(self, name: str) -> bool:
        """Is there a regular file of that name?"""
        try:
            return self.ctx.stat(name).is_file
        except FSError:
            return False

    def deleted_later(self, name: bytes) -> bool:
        """Is the file due for deletion at the end of this run?"""
        return self.state.get(self._key(as_str(name))) == DELETE_LATER

    def _key(self, name: str) -> str:
        try:
            return self.ctx.path(name)
        except FSError:
            return name

    # -- writing ----------------------------------------------------------------------------

    def makedirs(self, name: str) -> None:
        """Create the missing directories above ``name`` (errors are left to the write)."""
        parts = name.split("/")[:-1]
        path = ""
        for part in parts:
            path = path + part if not path or path.endswith("/") else path + "/" + part
            if part in ("", ".", ".."):
                if not path:
                    path = "/"
                continue
            try:
                if not self.ctx.exists(path):
                    self.ctx.mkdir(path)
            except FSError:
                return

    def write(self, name: str, data: bytes, what: str = "create") -> None:
        """Write a file, creating its directories if needed."""
        try:
            self.ctx.write_bytes(name, data)
            return
        except FSError as err:
            if err.errno != errno.ENOENT:
                raise Fatal(f"Can't {what} file {quotearg(name)} : {err.strerror}") from None
        self.makedirs(name)
        try:
            self.ctx.write_bytes(name, data)
        except FSError as err:
            raise Fatal(f"Can't {what} file {quotearg(name)} : {err.strerror}") from None

    def create_backup(self, name: str, leave_original: bool) -> None:
        """``NAME.orig`` from the file as it is (empty if there is none), once per run."""
        key = self._key(name)
        exists = self.exists(name)
        if exists and self.state.get(key) == CREATED:
            return
        bak = name + ".orig"
        if not exists:
            try:
                self.ctx.remove(bak)
            except FSError:
                pass
            self.write(bak, b"")
            return
        data = self.ctx.read_bytes(name)
        self.write(bak, data)
        if not leave_original:
            self.ctx.remove(name)

    def backup_copy(self, name: str) -> None:
        """The backup of a file no hunk changed (2.7.6 copies it, even when it is missing:
        the empty ``.orig`` is created, then reading the file fails)."""
        if self.state.get(self._key(name)) == CREATED and self.exists(name):
            return
        bak = name + ".orig"
        self.write(bak, b"")
        try:
            data = self.ctx.read_bytes(name)
        except FSError as err:
            raise Fatal(f"Can't reopen file {quotearg(name)} : {err.strerror}") from None
        self.write(bak, data)

    def move_file(self, data: bytes | None, name: str, backup: bool) -> None:
        """Put ``data`` at ``name`` (None: remove it), backing up what was there first."""
        key = self._key(name)
        existed = self.exists(name)
        if backup:
            self.create_backup(name, False)
        if existed:
            self.state[key] = OVERWRITTEN
        if data is not None:
            self.write(name, data, "rename")
            self.state[key] = CREATED
        elif not backup:
            try:
                self.ctx.remove(name)
            except FSError as err:
                if err.errno != errno.ENOENT:
                    raise Fatal(f"Can't remove file {quotearg(name)} : {err.strerror}") from None

    def append(self, name: str, data: bytes) -> None:
        """Add ``data`` at the end of a file."""
        try:
            self.ctx.append_bytes(name, data)
        except FSError as err:
            raise Fatal(f"Can't reopen file {quotearg(name)} : {err.strerror}") from None

    def delete_later(self, name: str, backup: bool) -> None:
        """Remove the file when the whole patch has been read (GNU's ``delete_file_later``)."""
        self.to_delete.append((name, backup))
        self.state[self._key(name)] = DELETE_LATER

    def delete_files(self) -> None:
        """Carry out the deletions still due, and remove the directories they empty."""
        for name, backup in self.to_delete:
            if self.state.get(self._key(name)) != DELETE_LATER:
                continue
            if self.verbose:
                self.say(f"Removing file {quotearg(name)}\n")
            self.move_file(None, name, backup)
            self.removedirs(name)

    def removedirs(self, name: str) -> None:
        """Remove the empty directories above ``name``, deepest first (errors ignored)."""
        i = len(name) - 1
        while i > 0:
            if name[i] == "/" and not (name[i - 1] == "/" or (
                    name[i - 1] == "." and (i == 1 or name[i - 2] == "/" or (
                        name[i - 2] == "." and (i == 2 or name[i - 3] == "/"))))):
                d = name[:i]
                try:
                    self.ctx.rmdir(d)
                    if self.verbose:
                        self.say(f"Removed empty directory {quotearg(d)}\n")
                except FSError:
                    pass
            i -= 1
