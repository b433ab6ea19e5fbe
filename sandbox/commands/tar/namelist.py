"""GNU tar's name list: the operands and name-selection options in command-line order, with
``-T``/``--files-from`` lists (``--null``, ``--verbatim-files-from``, GNU's unquoting and the
options a list may hold) and ``-X``/``--exclude-from``, ``--exclude-vcs`` and
``--exclude-backups`` patterns. ``walk`` yields each operand with the state in force where it
appeared; ``trailing_options`` are those GNU warns "has no effect" about in create mode."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Iterator

from sandbox.commands.tar.buffer import Fatal
from sandbox.commands.tar.cli import (LONG, SELECTION, SHORT, CliError, Element, Exclude,
                                      Operand)
from sandbox.commands.tar.common import Tar
from sandbox.commands.tar.names import quote
from sandbox.fs.base import FSError

#: GNU's ``vcs_file_table`` (``--exclude-vcs``): excluded by name, literally.
VCS_NAMES = ("CVS", ".cvsignore", "RCS", "SCCS", ".svn", ".git", ".gitignore",
             ".gitattributes", ".gitmodules", ".arch-ids", "{arch}", "=RELEASE-ID",
             "=meta-update", "=update", ".bzr", ".bzrignore", ".bzrtags", ".hg", ".hgignore",
             ".hgtags", "_darcs")
#: GNU's ``backup_file_table`` (``--exclude-backups``): wildcard patterns.
BACKUP_PATTERNS = (".#*", "*~", "#*#")

_SIMPLE_ESCAPES = {"\\": "\\", "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
                   "t": "\t", "v": "\v", "?": "\x7f"}


def unquote(text: str) -> str:
    """paxutils ``unquote_string``: C escapes and ``\\ooo`` octal; any other backslash stays."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        i += 1
        nxt = text[i] if i < n else ""
        if nxt in _SIMPLE_ESCAPES and nxt:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 1
        elif nxt and nxt in "01234567":
            value = 0
            for _ in range(3):
                if i < n and text[i] in "01234567":
                    value = value * 8 + int(text[i])
                    i += 1
                else:
                    break
            out.append(bytes([value & 0xFF]).decode("utf-8", "surrogateescape")
                       if value > 0x7F else chr(value))
        else:
            out.append("\\")
            if nxt:
                out.append(nxt)
                i += 1
    return "".join(out)


@dataclass
class State:
    """The selection state at one point of the name list."""

    dirs: list[str] = field(default_factory=list)
    wildcards: bool | None = None
    recursion: bool = True
    excludes: list[Exclude] = field(default_factory=list)
    null: bool = False
    unquote: bool = True
    verbatim: bool = False

    def operand(self, name: str) -> Operand:
        """An operand named ``name`` under this state."""
        return Operand(name, tuple(self.dirs), self.wildcards is True, self.recursion,
                       tuple(self.excludes))


def _read_all(tar: Tar, path: str) -> bytes | None:
    """The bytes of a list file (``-`` is stdin); None for a directory (GNU reads nothing)."""
    ctx = tar.ctx
    if path == "-":
        return ctx.stdin.read()
    try:
        if ctx.stat(path).is_dir:
            return None
        return ctx.read_bytes(path)
    except FSError as err:
        raise Fatal(f"{quote(path, True)}: Cannot stat: {err.strerror}") from None


def read_exclude_file(tar: Tar, path: str) -> list[str]:
    """gnulib ``add_exclude_file`` with ``'\\n'``: one pattern a line, trailing white space
    dropped, blank lines skipped; a file that cannot be read is fatal."""
    ctx = tar.ctx
    try:
        data = ctx.stdin.read() if path == "-" else ctx.read_bytes(path)
    except FSError as err:
        raise Fatal(f"{quote(path, True)}: {err.strerror}") from None
    out: list[str] = []
    for line in data.split(b"\n"):
        line = line.rstrip(b" \t\n\v\f\r")
        if line:
            out.append(line.decode("utf-8", "surrogateescape"))
    return out


def _list_names(data: bytes, null: bool) -> Iterator[tuple[bytes, int, bool]]:
    """GNU ``read_name_from_file``: (name, line number, whether it held a NUL first) for each
    name of a list; empty names are skipped; a NUL in a newline list switches it to NULs."""
    term = 0 if null else 10
    pos = 0
    line = 0
    n = len(data)
    while pos < n:
        line += 1
        end = pos
        zero = False
        while end < n and data[end] != term:
            if data[end] == 0:
                zero = True
                break
            end += 1
        name = data[pos:end]
        pos = end + 1
        if zero:
            term = 0
        if name or zero:
            yield name, line, zero


class NameWalker:
    """Walks the elements, reading list files as GNU reaches them."""

    def __init__(self, tar: Tar):
        self.tar = tar
        self.state = State()
        self.lists_read: set[str] = set()
        self.stdin_list = False

    def walk(self, elements: list[Element]) -> Iterator[Operand]:
        """Each operand, in order, with its state."""
        for e in elements:
            if e.key == "":
                name = e.value or ""
                yield self.state.operand(unquote(name) if self.state.unquote else name)
            elif e.key == "T":
                path = e.value or ""
                if path in self.lists_read and path != "-":
                    self.tar.error(f"{quote(path, True)}: file list requested from command line "
                                   "already read from command line")
                    continue
                self.lists_read.add(path)
                if path == "-":
                    if self.stdin_list:
                        raise CliError("Options '-T' and '-T' both want standard input", 2)
                    if self.tar.opts.archive == "-" and self.tar.opts.mode != "c":
                        raise CliError("Options '-f' and '-T' both want standard input", 2)
                    self.stdin_list = True
                yield from self._files_from(path)
            else:
                self.option(e.key, e.value)

    def option(self, key: str, value: str | None) -> None:
        """Apply one selection option to the state."""
        s = self.state
        wild = s.wildcards is not False
        if key == "C":
            s.dirs.append(value or "")
        elif key == "exclude":
            s.excludes.append(Exclude(value or "", wild, s.recursion))
        elif key == "X":
            s.excludes += [Exclude(p, wild, s.recursion)
                           for p in read_exclude_file(self.tar, value or "")]
        elif key == "exclude-vcs":
            s.excludes += [Exclude(name, False, False) for name in VCS_NAMES]
        elif key == "exclude-backups":
            s.excludes += [Exclude(p, True, False) for p in BACKUP_PATTERNS]
        elif key in ("wildcards", "no-wildcards"):
            s.wildcards = key == "wildcards"
        elif key in ("recursion", "no-recursion"):
            s.recursion = key == "recursion"
        elif key in ("null", "no-null"):
            s.null = s.verbatim = key == "null"
        elif key in ("unquote", "no-unquote"):
            s.unquote = key == "unquote"
        elif key in ("verbatim-files-from", "no-verbatim-files-from"):
            s.verbatim = key == "verbatim-files-from"

    def _files_from(self, path: str) -> Iterator[Operand]:
        data = _read_all(self.tar, path)
        if data is None:
            return
        null, verbatim = self.state.null, self.state.verbatim
        warned = False
        for raw, line, zero in _list_names(data, null):
            if zero and not warned:
                self.tar.warn(f"{quote(path, True)}: file name read contains nul character")
                warned = True
            name = raw.decode("utf-8", "surrogateescape")
            if not verbatim:
                if self.state.unquote:
                    name = unquote(name)
                if name.lstrip(" \t\n\v\f\r").startswith("-"):
                    words = _split(name)
                    if words is None:
                        self.tar.error(f"{quote(path, True)}:{line}: unrecognized option")
                        continue
                    try:
                        pieces = _file_options(words)
                    except CliError:
                        self.tar.error(f"{quote(path, True)}:{line}: unrecognized option")
                        continue
                    for key, value in pieces:
                        if key == "T":
                            yield from self._files_from(value or "")
                        elif key == "":
                            yield self.state.operand(value or "")
                        else:
                            self.option(key, value)
                    continue
            yield self.state.operand(name)


def _split(text: str) -> list[str] | None:
    """GNU ``wordsplit`` of an option line (shell-like words), None when it cannot."""
    try:
        return shlex.split(text)
    except ValueError:
        return None


def _file_options(words: list[str]) -> list[tuple[str, str | None]]:
    """The selection options of one line of a list file (argp over ``names_argp``): a word
    that is no option is a name; anything else raises ``CliError``."""
    names = {k: v for k, v in LONG.items() if v[1] in SELECTION}
    out: list[tuple[str, str | None]] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word.startswith("--") and len(word) > 2:
            name, eq, value = word[2:].partition("=")
            matches = [k for k in names if k == name] or [k for k in names if k.startswith(name)]
            if len({names[m] for m in matches}) != 1:
                raise CliError(word)
            takes, key = names[matches[0]]
            if takes:
                if not eq:
                    if i >= len(words):
                        raise CliError(word)
                    value = words[i]
                    i += 1
                out.append((key, value))
            elif eq:
                raise CliError(word)
            else:
                out.append((key, None))
        elif word.startswith("-") and len(word) > 1:
            j = 1
            while j < len(word):
                ch = word[j]
                k = SHORT.find(ch)
                if k < 0 or ch not in "CTX":
                    raise CliError(word)
                j += 1
                if j < len(word):
                    out.append((ch, word[j:]))
                elif i < len(words):
                    out.append((ch, words[i]))
                    i += 1
                else:
                    raise CliError(word)
                break
        else:
            out.append(("", word))
    return out


def trailing_options(elements: list[Element]) -> list[str]:
    """The selection options after the last operand or list (GNU: positional, no effect)."""
    out: list[str] = []
    for e in reversed(elements):
        if e.key in ("", "T"):
            break
        out.append(e.shown)
    return out[::-1]


def expand_all(tar: Tar) -> None:
    """Read the whole name list now (reading modes: GNU gathers the names before it opens
    the archive); set ``tar.opts.operands`` and the run-wide exclusions."""
    walker = NameWalker(tar)
    o = tar.opts
    o.operands = list(walker.walk(o.elements))
    o.excludes = list(walker.state.excludes)
    o.read_dirs = list(walker.state.dirs)
