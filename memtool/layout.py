"""The ``.memory/`` layout, its templates and its bootstrap.

```
.memory/
  core.md               core memory, injected into the system prompt before every model call
  notes.md              archival memory, read and written on demand
  conversations.jsonl   recall memory, one JSON object per turn
```

``bootstrap`` creates what is missing from ``templates/`` and never touches an existing file;
``ensure_gitignored`` keeps a local memory directory out of the enclosing git work tree.
Both are idempotent and safe when two processes run them at once.
"""

from __future__ import annotations

import errno
import fcntl
import os
from functools import lru_cache
from importlib import resources

from sandbox.fs.base import FileSystem, FSError

CORE = "core.md"
NOTES = "notes.md"
CONVERSATIONS = "conversations.jsonl"
FILES: tuple[str, ...] = (CORE, NOTES, CONVERSATIONS)

#: File name of each template in ``templates/``.
TEMPLATE_FILES = {
    CORE: "core.md",
    NOTES: "notes.md",
    "system_prompt": "system_prompt.md",
    "tool_memory": "tool_memory.md",
    "tool_bash": "tool_bash.md",
}


@lru_cache(maxsize=None)
def load_template(name: str) -> str:
    """The text of a template (``core.md``, ``notes.md``, ``system_prompt``, ``tool_memory``,
    ``tool_bash``), read from the package's ``templates/`` directory."""
    filename = TEMPLATE_FILES.get(name, name)
    return (resources.files("memtool") / "templates" / filename).read_text(encoding="utf-8")


def example_dir() -> str:
    """The directory of the bundled example memory (``.memory.example/``)."""
    return str(resources.files("memtool") / "example_memory")


def bootstrap(store: FileSystem) -> list[str]:
    """Create every missing memory file from its template; return the names created.

    An existing file is never read or changed. Each file is created under the store's lock
    after a fresh existence check, so two processes bootstrapping at once create it once.
    """
    created: list[str] = []
    if store.read_only:
        return created
    for name in FILES:
        if store.exists(name):
            continue
        content = b"" if name == CONVERSATIONS else load_template(name).encode("utf-8")
        with store.lock(name):
            if store.exists(name):
                continue
            store.write_bytes(name, content)
            created.append(name)
    return created


def find_git_worktree(directory: str) -> str | None:
    """The root of the git work tree that contains ``directory``, or None."""
    current = os.path.abspath(directory)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _ignore_entry(rel: str) -> tuple[str, set[str]]:
    """The line to add for ``rel`` and the lines that already cover it."""
    if "/" not in rel:
        return f"{rel}/", {rel, f"{rel}/", f"/{rel}", f"/{rel}/", f"{rel}/*", f"/{rel}/*"}
    return f"/{rel}/", {rel, f"{rel}/", f"/{rel}", f"/{rel}/", f"{rel}/*", f"/{rel}/*"}


def ensure_gitignored(directory: str) -> bool:
    """Make sure ``directory`` is listed in the ``.gitignore`` of its git work tree.

    Returns True if a line was added. Does nothing outside a work tree or when the directory
    is the work tree itself. Concurrent callers serialise on an ``flock`` of ``.gitignore``
    and re-read it under the lock, so the line is added once; a missing final newline is
    added before the new line.
    """
    directory = os.path.abspath(directory)
    worktree = find_git_worktree(os.path.dirname(directory))
    if worktree is None:
        return False
    rel = os.path.relpath(directory, worktree).replace(os.sep, "/")
    if rel in (".", "") or rel.startswith(".."):
        return False
    line, covered = _ignore_entry(rel)
    path = os.path.join(worktree, ".gitignore")
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with os.fdopen(os.dup(fd), "rb") as f:
            existing = f.read()
        lines = {ln.strip() for ln in existing.decode("utf-8", "replace").splitlines()}
        if lines & covered:
            return False
        prefix = b"\n" if existing and not existing.endswith(b"\n") else b""
        os.write(fd, prefix + line.encode("utf-8") + b"\n")
        return True
    finally:
        os.close(fd)


def ensure_dir(store: FileSystem, path: str) -> None:
    """Create directory ``path`` (and its parents) in ``store`` unless it exists."""
    parts = [p for p in path.split("/") if p]
    for i in range(1, len(parts) + 1):
        sub = "/".join(parts[:i])
        try:
            store.mkdir(sub)
        except FSError as e:
            if e.errno != errno.EEXIST:
                raise
