"""The structured ``memory`` tool: the seed commands and Anthropic's ``memory_20250818`` set.

Every command returns one string for the model. Result and error strings of the Anthropic
commands are those of Anthropic's memory tool documentation, word for word (see ``MESSAGES``);
the seed commands (``update``, ``search``) and the refusals memtool adds (path rules, secrets,
core budget, append-only files, read-only mode, binary or oversized files) follow the same
style: one line saying what was refused, why, and what to do instead. Nothing is read or
written when a path is refused. Read-modify-write commands run under the store's lock, so
concurrent edits from other threads or processes are never lost.
"""

from __future__ import annotations

import errno
import math
import re
from dataclasses import dataclass
from typing import Any, Iterator

from sandbox.fs.base import FileSystem, FSError

from memtool.core import CoreMemory
from memtool.errors import CoreBudgetExceeded, SecretRefused
from memtool.layout import CORE, ensure_dir
from memtool.secrets import SecretScanner
from memtool.tools.paths import PathRefused, ToolPath, resolve, shown
from memtool.tools.schemas import MemoryArgs, WRITE_COMMANDS

#: Anthropic's memory tool strings (docs: "Memory tool", tool type ``memory_20250818``).
MESSAGES = {
    "view_dir": "Here're the files and directories up to 2 levels deep in {path}, excluding hidden items and node_modules:",
    "view_file": "Here's the content of {path} with line numbers:",
    "view_missing": "The path {path} does not exist. Please provide a valid path.",
    "line_limit": "File {path} exceeds maximum line limit of 999,999 lines.",
    "create_ok": "File created successfully at: {path}",
    "create_exists": "Error: File {path} already exists",
    "str_replace_ok": "The memory file has been edited.",
    "str_replace_missing": "Error: The path {path} does not exist. Please provide a valid path.",
    "str_replace_none": "No replacement was performed, old_str `{old_str}` did not appear verbatim in {path}.",
    "str_replace_many": "No replacement was performed. Multiple occurrences of old_str `{old_str}` in lines: {lines}. Please ensure it is unique",
    "insert_ok": "The file {path} has been edited.",
    "insert_missing": "Error: The path {path} does not exist",
    "insert_bad_line": "Error: Invalid `insert_line` parameter: {insert_line}. It should be within the range of lines of the file: [0, {n_lines}]",
    "delete_ok": "Successfully deleted {path}",
    "delete_missing": "Error: The path {path} does not exist",
    "rename_ok": "Successfully renamed {old_path} to {new_path}",
    "rename_missing": "Error: The path {old_path} does not exist",
    "rename_exists": "Error: The destination {new_path} already exists",
}

MAX_LINES = 999_999
SNIPPET_CONTEXT = 4
SEARCH_LINE_CHARS = 300
HIDDEN_DIRS = ("node_modules",)


class ToolFailure(Exception):
    """A command ends with this message for the model (an error string)."""


def human_size(n: int) -> str:
    """Sizes as ``du -h`` prints them: ``512``, ``1.5K``, ``12K``, ``3.4M`` (rounded up)."""
    if n < 1024:
        return str(n)
    for power, unit in enumerate("KMGTPE", 1):
        value = n / 1024**power
        if value < 1024 or unit == "E":
            if value < 10:
                tenths = math.ceil(round(value * 10, 6))
                if tenths < 100:
                    return f"{tenths / 10:.1f}{unit}"
            whole = math.ceil(round(value, 6))
            if whole < 1024 or unit == "E":
                return f"{whole}{unit}"
    return str(n)


def numbered(lines: list[str], first: int) -> str:
    """Lines as ``cat -n`` prints them: the number right-aligned in 6 columns, a tab, the text."""
    return "\n".join(f"{i:6d}\t{line}" for i, line in enumerate(lines, first))


def split_lines(text: str) -> list[str]:
    """A file's lines; a final newline does not start an extra empty line."""
    if text == "":
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def join_lines(lines: list[str], final_newline: bool) -> str:
    """The inverse of ``split_lines``."""
    if not lines:
        return ""
    return "\n".join(lines) + ("\n" if final_newline else "")


@dataclass
class MemoryToolConfig:
    """Options of the structured tool."""

    read_only: bool = False
    append_only: frozenset[str] = frozenset({"conversations.jsonl"})
    max_file_bytes: int = 1 << 20
    max_depth: int = 6
    display_prefix: str = "/memories"
    search_limit: int = 20


class MemoryTool:
    """Runs ``memory`` tool commands against one store."""

    def __init__(self, store: FileSystem, core: CoreMemory, scanner: SecretScanner,
                 config: MemoryToolConfig | None = None, ranker: Any = None):
        self.store = store
        self.core = core
        self.scanner = scanner
        self.config = config or MemoryToolConfig()
        #: ``ranker()`` gives the memory's recall index (``Memory._ranker``: kept beside the
        #: files, or in the database on PostgreSQL) or None; without one, search reads the files.
        self.ranker = ranker

    # -- entry point ----------------------------------------------------------------------

    def run(self, args: MemoryArgs) -> str:
        """Execute one command; always returns the model-facing string."""
        if self.config.read_only and args.command in WRITE_COMMANDS:
            return (f"Error: memory is read-only here; `{args.command}` is not available. "
                    f"Use view or search.")
        handler = getattr(self, f"_cmd_{args.command}")
        try:
            return handler(args)
        except ToolFailure as e:
            return str(e)
        except PathRefused as e:
            return f"Error: The path {shown(e.path)} is not allowed: {e.reason}."
        except SecretRefused as e:
            return f"Error: {e}. Nothing was written."
        except CoreBudgetExceeded as e:
            return f"Error: {e}. Nothing was written."
        except FSError as e:
            if e.errno == errno.ELOOP:
                return f"Error: The path {shown(e.path)} is not allowed: it leads through a symbolic link."
            return f"Error: `{args.command}` failed: {e.strerror}. Nothing more was done."

    # -- helpers --------------------------------------------------------------------------

    def _path(self, raw: str | None, field: str, command: str) -> ToolPath:
        if raw is None:
            raise ToolFailure(f"Error: `{command}` needs `{field}`.")
        return resolve(raw, max_depth=self.config.max_depth,
                       display_prefix=self.config.display_prefix)

    def _need(self, value: object, field: str, command: str) -> None:
        if value is None:
            raise ToolFailure(f"Error: `{command}` needs `{field}`.")

    def _writable(self, p: ToolPath, command: str) -> None:
        if p.is_root:
            raise ToolFailure(f"Error: `{command}` cannot be used on the memory root {p.display}.")
        if p.rel in self.config.append_only:
            why = ("the application records every turn there, and "
                   if p.rel == "conversations.jsonl" else "")
            raise ToolFailure(
                f"Error: {p.display} is append-only: {why}`{command}` cannot change it. "
                f"Read it with view or search."
            )

    def _stat(self, p: ToolPath):
        """FileStat or None if missing; symbolic links and odd files are refused."""
        try:
            return self.store.stat(p.rel)
        except FSError as e:
            if e.errno == errno.ELOOP:
                raise PathRefused(p.display, "it is a symbolic link") from None
            if e.errno in (errno.ENOENT, errno.ENOTDIR):
                return None
            if e.errno in (errno.EACCES, errno.EPERM):
                raise PathRefused(p.display, "it is not a regular file or directory") from None
            raise ToolFailure(f"Error: cannot access {p.display}: {e.strerror}") from None

    def _read_text(self, p: ToolPath, size: int) -> str:
        if size > self.config.max_file_bytes:
            raise ToolFailure(
                f"Error: File {p.display} is {size} bytes, over the {self.config.max_file_bytes}-byte "
                f"limit for memory files; use search, or the bash tool's grep/head/tail."
            )
        try:
            data = self.store.read_bytes(p.rel)
        except FSError as e:
            if e.errno == errno.ELOOP:
                raise PathRefused(p.display, "it is a symbolic link") from None
            if e.errno in (errno.EACCES, errno.EPERM):
                raise PathRefused(p.display, "it is hard-linked or not a regular file") from None
            raise ToolFailure(f"Error: cannot read {p.display}: {e.strerror}") from None
        if len(data) > self.config.max_file_bytes:
            raise ToolFailure(
                f"Error: File {p.display} is {len(data)} bytes, over the "
                f"{self.config.max_file_bytes}-byte limit for memory files."
            )
        if b"\x00" in data:
            raise ToolFailure(f"Error: File {p.display} is a binary file; memory files must be UTF-8 text.")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolFailure(
                f"Error: File {p.display} is not valid UTF-8 text; memory files must be UTF-8 text."
            ) from None

    def _check_new_text(self, p: ToolPath, text: str, current: str | None) -> None:
        if "\x00" in text:
            raise ToolFailure("Error: the text contains a NUL byte; memory files must be text.")
        if len(text.encode("utf-8", "surrogatepass")) > self.config.max_file_bytes:
            raise ToolFailure(
                f"Error: the new content of {p.display} would exceed the "
                f"{self.config.max_file_bytes}-byte limit for memory files; nothing was written."
            )
        if p.rel == CORE:
            self.core.check_budget(text, current)

    def _ensure_parent(self, p: ToolPath) -> None:
        parent = p.rel.rpartition("/")[0]
        if not parent:
            return
        try:
            ensure_dir(self.store, parent)
        except FSError as e:
            if e.errno == errno.ELOOP:
                raise PathRefused(p.display, "it leads through a symbolic link") from None
            if e.errno in (errno.ENOTDIR, errno.EEXIST):
                raise ToolFailure(f"Error: cannot write {p.display}: a parent of it is a file.") from None
            raise ToolFailure(f"Error: cannot write {p.display}: {e.strerror}") from None

    def _write(self, p: ToolPath, text: str) -> None:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise ToolFailure("Error: the text is not valid Unicode (lone surrogate); nothing was written.") from None
        parent = p.rel.rpartition("/")[0]
        try:
            if parent:
                ensure_dir(self.store, parent)
            self.store.write_bytes(p.rel, data)
        except FSError as e:
            if e.errno == errno.ELOOP:
                raise PathRefused(p.display, "it leads through a symbolic link") from None
            if e.errno == errno.ENOTDIR:
                raise ToolFailure(f"Error: cannot write {p.display}: a parent of it is a file.") from None
            if e.errno in (errno.EPERM, errno.EACCES):
                raise PathRefused(p.display, "it is hard-linked or not a regular file") from None
            raise ToolFailure(f"Error: cannot write {p.display}: {e.strerror}") from None

    def _append(self, p: ToolPath, text: str) -> None:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise ToolFailure("Error: the text is not valid Unicode (lone surrogate); nothing was written.") from None
        try:
            self.store.append_bytes(p.rel, data)
        except FSError as e:
            if e.errno == errno.ELOOP:
                raise PathRefused(p.display, "it is a symbolic link") from None
            if e.errno in (errno.EPERM, errno.EACCES):
                raise PathRefused(p.display, "it is hard-linked or not a regular file") from None
            raise ToolFailure(f"Error: cannot write {p.display}: {e.strerror}") from None

    def _core_note(self, p: ToolPath, text: str | None) -> str:
        if p.rel != CORE:
            return ""
        chars = len(text) if text is not None else self.core.chars()
        return "\n" + self.core.report(chars)

    # -- view -----------------------------------------------------------------------------

    def _cmd_view(self, a: MemoryArgs) -> str:
        p = self._path(a.path if a.path is not None else "/memories", "path", "view")
        st = self._stat(p)
        if st is None:
            return MESSAGES["view_missing"].format(path=p.display)
        if st.is_dir:
            if a.view_range is not None:
                return "Error: The `view_range` parameter is not allowed when `path` points to a directory."
            return self._listing(p)
        text = self._read_text(p, st.size)
        lines = split_lines(text)
        if len(lines) > MAX_LINES:
            return MESSAGES["line_limit"].format(path=p.display)
        first = 1
        if a.view_range is not None:
            vr = a.view_range
            n = len(lines)
            if len(vr) != 2:
                return "Error: Invalid `view_range`: it should be a list of two integers [start, end]."
            start, end = vr
            if end == -1:
                end = n
            if not (1 <= start <= max(n, 1)) or end < start or end > n:
                return (f"Error: Invalid `view_range` parameter: {list(vr)}. It should be [start, end] "
                        f"with 1 <= start <= end <= {n}, or end -1 for the last line.")
            lines = lines[start - 1:end]
            first = start
        return MESSAGES["view_file"].format(path=p.display) + "\n" + numbered(lines, first)

    def _walk_size(self, rel: str, budget: list[int]) -> int:
        total = 0
        try:
            names = self.store.listdir(rel)
        except FSError:
            return 0
        for name in names:
            budget[0] -= 1
            if budget[0] < 0:
                break
            child = f"{rel}/{name}" if rel else name
            try:
                st = self.store.stat(child)
            except FSError:
                continue
            total += self._walk_size(child, budget) if st.is_dir else st.size
        return total

    def _listing(self, p: ToolPath) -> str:
        rows: list[tuple[str, int]] = []
        budget = [20_000]

        def visit(rel: str, display: str, depth: int) -> int:
            total = 0
            try:
                names = sorted(self.store.listdir(rel))
            except FSError:
                return 0
            for name in names:
                child = f"{rel}/{name}" if rel else name
                try:
                    st = self.store.stat(child)
                except FSError:
                    continue
                hidden = name.startswith(".") or name in HIDDEN_DIRS
                if st.is_dir:
                    size = (visit(child, f"{display}/{name}", depth + 1) if depth < 2 and not hidden
                            else self._walk_size(child, budget))
                else:
                    size = st.size
                total += size
                if not hidden:
                    rows.append((f"{display}/{name}", size))
            return total

        total = visit(p.rel, p.display, 1)
        rows.sort()
        lines = [MESSAGES["view_dir"].format(path=p.display), f"{human_size(total)}\t{p.display}"]
        lines += [f"{human_size(size)}\t{path}" for path, size in rows]
        return "\n".join(lines)

    # -- create / update ------------------------------------------------------------------

    def _cmd_create(self, a: MemoryArgs) -> str:
        p = self._path(a.path, "path", "create")
        text = a.file_text if a.file_text is not None else a.content
        if text is None:
            raise ToolFailure("Error: `create` needs `file_text` (or `content`).")
        self._writable(p, "create")
        self.scanner.check(text)
        self._check_new_text(p, text, "")
        self._ensure_parent(p)
        with self.store.lock(p.rel):
            st = self._stat(p)
            if st is not None:
                if st.is_dir:
                    return f"Error: {p.display} is a directory"
                return MESSAGES["create_exists"].format(path=p.display)
            self._check_new_text(p, text, "")
            self._write(p, text)
        return MESSAGES["create_ok"].format(path=p.display) + self._core_note(p, text)

    def _cmd_update(self, a: MemoryArgs) -> str:
        p = self._path(a.path, "path", "update")
        text = a.content if a.content is not None else a.file_text
        if text is None:
            raise ToolFailure("Error: `update` needs `content`.")
        mode = a.mode or "overwrite"
        self._writable(p, "update")
        self.scanner.check(text)
        self._ensure_parent(p)
        with self.store.lock(p.rel):
            st = self._stat(p)
            if st is not None and st.is_dir:
                return f"Error: {p.display} is a directory; give a file path."
            current = self._read_text(p, st.size) if st is not None else ""
            if mode == "append":
                sep = "\n" if current and not current.endswith("\n") else ""
                addition = text if text.endswith("\n") or not text else text + "\n"
                new = current + sep + addition
            else:
                new = text
            self._check_new_text(p, new, current)
            if mode == "append" and st is not None:
                self._append(p, sep + addition)  # under the lock: the file is still `current`
            else:
                self._write(p, new)
        verb = "Created" if st is None else ("Appended to" if mode == "append" else "Overwrote")
        return f"{verb} {p.display} ({len(new)} characters)." + self._core_note(p, new)

    # -- search ---------------------------------------------------------------------------

    def _cmd_search(self, a: MemoryArgs) -> str:
        if a.query is None:
            raise ToolFailure("Error: `search` needs `query` (a few words).")
        terms: list[str] = []
        for t in re.split(r"[\s,]+", a.query):
            t = t.strip("\"'").casefold()
            if t and t not in terms:
                terms.append(t)
        if not terms:
            raise ToolFailure("Error: `query` is empty; give one or more words to look for.")
        p = self._path(a.path if a.path is not None else "/memories", "path", "search")
        st = self._stat(p)
        if st is None:
            return MESSAGES["view_missing"].format(path=p.display)
        from memtool.recall.search import search

        # Ranked units (memtool.recall): BM25 over stems, phrase bonus, newest first on ties;
        # each hit is shown as its best-matching line.
        limit = max(1, self.config.search_limit)
        index = self.ranker() if self.ranker is not None else None
        if index is not None:
            result = index.search(a.query, k=limit, paths=[p.rel])
        else:
            result = search(self.store, a.query, k=limit, paths=[p.rel])
        if not result.total:
            return f"No matches for {', '.join(terms)} in {p.display}."
        out = []
        for hit in result.hits:
            line = hit.raw
            if len(line) > SEARCH_LINE_CHARS:
                line = line[:SEARCH_LINE_CHARS] + "…"
            out.append(f"{hit.file}:{hit.line}:{line}")
        if result.total > len(out):
            out.append(f"... {result.total - len(out)} more matching lines not shown; use more specific words or a path.")
        return "\n".join(out)

    # -- Anthropic editing commands -------------------------------------------------------

    def _cmd_str_replace(self, a: MemoryArgs) -> str:
        p = self._path(a.path, "path", "str_replace")
        self._need(a.old_str, "old_str", "str_replace")
        new_str = a.new_str if a.new_str is not None else ""
        old_str = a.old_str or ""
        if old_str == "":
            return "Error: `old_str` is empty; give the exact text to replace."
        self._writable(p, "str_replace")
        self.scanner.check(new_str)
        if self._stat(p) is None:
            return MESSAGES["str_replace_missing"].format(path=p.display)
        with self.store.lock(p.rel):
            st = self._stat(p)
            if st is None or st.is_dir:
                return MESSAGES["str_replace_missing"].format(path=p.display)
            text = self._read_text(p, st.size)
            starts = []
            i = text.find(old_str)
            while i != -1:
                starts.append(i)
                i = text.find(old_str, i + 1)
            if not starts:
                return MESSAGES["str_replace_none"].format(old_str=old_str, path=p.display)
            if len(starts) > 1:
                lines: list[int] = []
                for s in starts:
                    ln = text.count("\n", 0, s) + 1
                    if ln not in lines:
                        lines.append(ln)
                return MESSAGES["str_replace_many"].format(
                    old_str=old_str, lines=", ".join(map(str, lines)))
            at = starts[0]
            new = text[:at] + new_str + text[at + len(old_str):]
            self._check_new_text(p, new, text)
            self._write(p, new)
        all_lines = split_lines(new) or [""]
        line = new.count("\n", 0, at) + 1
        first = max(1, line - SNIPPET_CONTEXT)
        last = min(len(all_lines), line + new_str.count("\n") + SNIPPET_CONTEXT)
        snippet = numbered(all_lines[first - 1:last], first)
        return MESSAGES["str_replace_ok"] + "\n" + snippet + self._core_note(p, new)

    def _cmd_insert(self, a: MemoryArgs) -> str:
        p = self._path(a.path, "path", "insert")
        self._need(a.insert_line, "insert_line", "insert")
        self._need(a.insert_text, "insert_text", "insert")
        insert_text = a.insert_text or ""
        self._writable(p, "insert")
        self.scanner.check(insert_text)
        if self._stat(p) is None:
            return MESSAGES["insert_missing"].format(path=p.display)
        with self.store.lock(p.rel):
            st = self._stat(p)
            if st is None or st.is_dir:
                return MESSAGES["insert_missing"].format(path=p.display)
            text = self._read_text(p, st.size)
            lines = split_lines(text)
            n = len(lines)
            k = a.insert_line
            if k is None or not (0 <= k <= n):
                return MESSAGES["insert_bad_line"].format(insert_line=k, n_lines=n)
            added = split_lines(insert_text) or [""]
            new = join_lines(lines[:k] + added + lines[k:], text.endswith("\n") or text == "")
            self._check_new_text(p, new, text)
            self._write(p, new)
        return MESSAGES["insert_ok"].format(path=p.display) + self._core_note(p, new)

    def _remove_tree(self, rel: str) -> None:
        for name in self.store.listdir(rel):
            child = f"{rel}/{name}"
            if self.store.stat(child).is_dir:
                self._remove_tree(child)
            else:
                self.store.remove(child)
        self.store.rmdir(rel)

    def _cmd_delete(self, a: MemoryArgs) -> str:
        p = self._path(a.path, "path", "delete")
        self._writable(p, "delete")
        if self._stat(p) is None:
            return MESSAGES["delete_missing"].format(path=p.display)
        with self.store.lock(p.rel):
            st = self._stat(p)
            if st is None:
                return MESSAGES["delete_missing"].format(path=p.display)
            try:
                if st.is_dir:
                    for inner in self._iter_all(p.rel):
                        if inner in self.config.append_only:
                            raise ToolFailure(f"Error: {p.display} holds an append-only file; nothing was deleted.")
                    self._remove_tree(p.rel)
                else:
                    self.store.remove(p.rel)
            except FSError as e:
                raise ToolFailure(f"Error: cannot delete {p.display}: {e.strerror}") from None
        return MESSAGES["delete_ok"].format(path=p.display) + self._core_note(p, "")

    def _iter_all(self, rel: str) -> Iterator[str]:
        for name in self.store.listdir(rel):
            child = f"{rel}/{name}"
            yield child
            try:
                if self.store.stat(child).is_dir:
                    yield from self._iter_all(child)
            except FSError:
                continue

    def _cmd_rename(self, a: MemoryArgs) -> str:
        old = self._path(a.old_path, "old_path", "rename")
        new = self._path(a.new_path, "new_path", "rename")
        self._writable(old, "rename")
        self._writable(new, "rename")
        if new.rel == old.rel or new.rel.startswith(old.rel + "/"):
            return f"Error: cannot move {old.display} into itself."
        if self._stat(old) is None:
            return MESSAGES["rename_missing"].format(old_path=old.display)
        with self.store.lock(old.rel):
            st = self._stat(old)
            if st is None:
                return MESSAGES["rename_missing"].format(old_path=old.display)
            if self._stat(new) is not None:
                return MESSAGES["rename_exists"].format(new_path=new.display)
            if new.rel == CORE and st.is_file:
                self._check_new_text(new, self._read_text(old, st.size), None)
            self._ensure_parent(new)
            try:
                self.store.rename(old.rel, new.rel)
            except FSError as e:
                raise ToolFailure(f"Error: cannot rename {old.display}: {e.strerror}") from None
        note = self._core_note(old, "") or self._core_note(new, None)
        return MESSAGES["rename_ok"].format(old_path=old.display, new_path=new.display) + note
