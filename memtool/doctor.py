"""``memtool doctor``: check a memory and say what to fix.

``diagnose(mem, local_root)`` returns ``Finding``s (level ``ok``, ``warning`` or ``error``,
a one-line message and advice): the three files present, ``conversations.jsonl`` valid line
by line (the numbers of bad lines), core.md against its budget, private permissions and no
symbolic links (local directories), text files UTF-8, and no secrets in any file (the kind
and the line, never the secret).
"""

from __future__ import annotations

import os
import stat
from dataclasses import asdict, dataclass
from typing import Any

from sandbox.fs.base import FileSystem, FSError

from memtool.conversations import parse_turn
from memtool.layout import CONVERSATIONS, CORE, FILES

#: Line numbers listed in one finding before "and N more".
MAX_LINES_SHOWN = 20
#: Files larger than this are not scanned for secrets (reported instead).
MAX_SCAN_BYTES = 64 << 20


@dataclass(frozen=True)
class Finding:
    """One result of a check."""

    level: str  # ok, warning, error
    message: str
    advice: str = ""

    def as_dict(self) -> dict[str, str]:
        """The finding as a JSON-ready dict."""
        return asdict(self)


def _numbers(lines: list[int]) -> str:
    shown = ", ".join(str(n) for n in lines[:MAX_LINES_SHOWN])
    return shown + (f" and {len(lines) - MAX_LINES_SHOWN} more" if len(lines) > MAX_LINES_SHOWN else "")


def _walk(store: FileSystem, top: str = "") -> list[str]:
    files: list[str] = []
    stack = [top]
    while stack:
        directory = stack.pop()
        try:
            names = sorted(store.listdir(directory))
        except FSError:
            continue
        for name in names:
            path = f"{directory}/{name}" if directory else name
            try:
                st = store.stat(path)
            except FSError:
                continue
            (stack.append if st.is_dir else files.append)(path)
    return sorted(files)


def check_files(store: FileSystem) -> list[Finding]:
    """The three memory files exist."""
    missing = [name for name in FILES if not store.exists(name)]
    if missing:
        return [Finding("error", f"missing: {', '.join(missing)}",
                        "run `memtool init` (it creates missing files and never touches existing ones)")]
    return [Finding("ok", f"files present: {', '.join(FILES)}")]


def check_conversations(store: FileSystem) -> list[Finding]:
    """Every non-blank line of conversations.jsonl is a JSON object with role and content."""
    try:
        f = store.open_read(CONVERSATIONS)
    except FSError:
        return []
    bad: list[int] = []
    incomplete: list[int] = []
    count = 0
    last = b""
    with f:
        for number, raw in enumerate(f, 1):
            last = raw
            if not raw.strip():
                continue
            count += 1
            obj = parse_turn(raw)
            if obj is None:
                bad.append(number)
            elif "role" not in obj or "content" not in obj:
                incomplete.append(number)
    out: list[Finding] = []
    if bad:
        out.append(Finding("error", f"{CONVERSATIONS}: {len(bad)} line(s) are not a JSON object: "
                           f"line {_numbers(bad)}",
                           "fix or delete those lines in an editor; readers skip them meanwhile"))
    if incomplete:
        out.append(Finding("warning", f"{CONVERSATIONS}: {len(incomplete)} turn(s) lack role or "
                           f"content: line {_numbers(incomplete)}", "add the missing fields"))
    if last and not last.endswith(b"\n"):
        out.append(Finding("warning", f"{CONVERSATIONS}: no newline at the end of the file",
                           "harmless: the next record() adds it"))
    if not out:
        out.append(Finding("ok", f"{CONVERSATIONS}: {count} turns, every line valid"))
    return out


def check_core(mem: Any) -> list[Finding]:
    """core.md against its budget."""
    chars = mem.core.chars()
    budget = mem.core.budget
    if chars > budget:
        return [Finding("error", f"{CORE}: {chars}/{budget} chars, over the budget",
                        "move detail to notes.md; the tools refuse to grow core.md until it fits")]
    if chars > budget * 0.9:
        return [Finding("warning", f"{CORE}: {chars}/{budget} chars, nearly full",
                        "move older detail to notes.md")]
    return [Finding("ok", f"{CORE}: {chars}/{budget} chars")]


def check_text_and_secrets(mem: Any, files: list[str]) -> list[Finding]:
    """Every file is UTF-8 text and holds no secret."""
    out: list[Finding] = []
    secrets: list[str] = []
    for path in files:
        try:
            size = mem.store.stat(path).size
            if size > MAX_SCAN_BYTES:
                out.append(Finding("warning", f"{path}: {size} bytes, too large to scan for secrets",
                                   "move old content out of the memory"))
                continue
            data = mem.store.read_bytes(path)
        except FSError as e:
            out.append(Finding("warning", f"{path}: cannot be read ({e})", "check the file"))
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            out.append(Finding("warning", f"{path}: not UTF-8 text; the memory tool refuses it",
                               "convert it to UTF-8 or remove it"))
            continue
        kinds: dict[str, list[int]] = {}
        for found in mem.scanner.find(text):
            kinds.setdefault(found.kind, []).append(text.count("\n", 0, found.start) + 1)
        for kind, lines in kinds.items():
            secrets.append(f"{path}: {kind} on line {_numbers(lines)}")
    for s in secrets:
        out.append(Finding("error", f"secret found: {s}",
                           "remove it from the file and rotate the credential"))
    if not secrets and mem.scanner.enabled:
        out.append(Finding("ok", f"no secrets found in {len(files)} file(s)"))
    return out


def check_local(root: str) -> list[Finding]:
    """Private permissions (0700 directories, 0600 files) and no symbolic links."""
    loose: list[str] = []
    links: list[str] = []
    for directory, dirnames, filenames in os.walk(root):
        for name in [*dirnames, *filenames, ""]:
            full = os.path.join(directory, name) if name else directory
            rel = os.path.relpath(full, root)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                links.append(rel)
            elif st.st_mode & 0o077:
                loose.append(f"{rel} ({stat.S_IMODE(st.st_mode):o})")
    out: list[Finding] = []
    if loose:
        out.append(Finding("warning", f"readable by others: {', '.join(loose[:MAX_LINES_SHOWN])}"
                           + (f" and {len(loose) - MAX_LINES_SHOWN} more" if len(loose) > MAX_LINES_SHOWN else ""),
                           "chmod -R go-rwx on the memory directory"))
    if links:
        out.append(Finding("warning", f"symbolic links (the tools refuse them): {', '.join(links[:MAX_LINES_SHOWN])}",
                           "replace each link by a regular file"))
    if not out:
        out.append(Finding("ok", "permissions private, no symbolic links"))
    return out


def diagnose(mem: Any, local_root: str | None = None) -> list[Finding]:
    """Every check over ``mem`` (and its host directory when local)."""
    findings = check_files(mem.store)
    findings += check_conversations(mem.store)
    findings += check_core(mem)
    findings += check_text_and_secrets(mem, _walk(mem.store))
    if local_root is not None:
        findings += check_local(local_root)
    return findings
