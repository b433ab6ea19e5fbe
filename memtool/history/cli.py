"""The history sub-commands of ``memtool``: history, diff, restore, export, import.

``memtool history [PATH]``, ``memtool diff PATH [A [B]]``, ``memtool restore PATH VERSION``
(PATH ``/`` restores the whole memory; VERSION is an id such as ``12``/``v12`` or a time such as
``2026-12-01T10:30`` or ``2h``: the memory as it was then), ``memtool export FILE.tar[.gz]``
``memtool import FILE [--path NEW_DIR]`` and ``memtool prune [--keep N] [--older-than AGE]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime, timezone
from typing import Any

ROOTS = ("/", ".", "/memories", "/memories/", "/.memory", "/.memory/")


def add_cli(subparsers: argparse._SubParsersAction) -> None:
    """Register the history sub-commands."""
    from memtool import cli

    p = cli._add(subparsers, "history", _friendly(cmd_history), help="every change to the memory, newest first",
                 description="List the versions of the memory (or of one file or directory): "
                 "id, time (UTC), who (memory / bash tool with the command, cli, person, "
                 "restore) and what changed.")
    p.add_argument("file", nargs="?", metavar="PATH", help="a file or directory (default: everything)")
    p.add_argument("-n", "--limit", type=int, default=None, metavar="N", help="show the newest N only")
    p.add_argument("--json", action="store_true", help="one JSON object a line")

    p = cli._add(subparsers, "diff", _friendly(cmd_diff), help="what changed in a file between two versions",
                 description="Unified diff of PATH from version A (default: before its newest "
                 "change) to version B (default: the file now).")
    p.add_argument("file", metavar="PATH")
    p.add_argument("a", nargs="?", metavar="A")
    p.add_argument("b", nargs="?", metavar="B")

    p = cli._add(subparsers, "restore", _friendly(cmd_restore), help="put a file (or everything) back as it was",
                 description="Restore PATH (a file, a directory, or / for the whole memory) as it "
                 "was right after VERSION (an id, or a time: 2026-12-01T10:30, 2h, 3d). The "
                 "restore is itself a version, so it can be undone.")
    p.add_argument("file", metavar="PATH")
    p.add_argument("version", metavar="VERSION")

    p = cli._add(subparsers, "export", _friendly(cmd_export), help="the whole memory with its history, as a tar",
                 description="Write every file and the whole version history to FILE (a tar; "
                 "gzip when FILE ends in .gz or .tgz).")
    p.add_argument("out", metavar="FILE")

    p = cli._add(subparsers, "prune", _friendly(cmd_prune), help="drop old versions (retention)",
                 description="Keep at most --keep versions per file and none older than "
                 "--older-than (30d, 12h...); the newest version of every existing file is "
                 "always kept.")
    p.add_argument("--keep", type=int, default=None, metavar="N", help="versions kept per file")
    p.add_argument("--older-than", default=None, metavar="AGE", help="drop versions older than AGE (e.g. 90d)")

    p = cli._add(subparsers, "import", _friendly(cmd_import), help="a memory exported with memtool export",
                 description="Read an export into a new or empty memory directory (--path).")
    p.add_argument("src", metavar="FILE")


def _friendly(fn: Any) -> Any:
    """``fn`` with history errors (unknown version, no history) as one-line CLI errors."""

    def run(args: argparse.Namespace) -> int:
        from memtool.cli import CliError
        from memtool.history import HistoryError

        try:
            return fn(args)
        except HistoryError as e:
            raise CliError(str(e)) from None

    run.__doc__ = fn.__doc__
    return run


def _open(args: argparse.Namespace) -> Any:
    from memtool import cli

    return cli.open_memory(args)


def _ts(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _path_arg(value: str | None) -> str | None:
    if value is None or value in ROOTS:
        return None
    return value


def cmd_history(args: argparse.Namespace) -> int:
    """Print the versions, newest first."""
    from memtool import cli

    mem = _open(args)
    entries = mem.history(_path_arg(args.file), limit=args.limit)
    if args.json:
        for e in entries:
            sys.stdout.write(json.dumps({"id": e.id, "time": e.when, "actor": e.actor, "detail": e.detail,
                                         "path": e.path, "kind": e.kind, "summary": e.summary,
                                         "before": e.before, "after": e.after}, ensure_ascii=False) + "\n")
        return 0
    out = cli.Output(args.plain)
    if not entries:
        out.line("no versions yet", style="dim")
        return 0
    rows = [(f"v{e.id}", _ts(e.time), e.actor, e.path, e.summary, _short(e.detail)) for e in entries]
    out.table(["ID", "WHEN (UTC)", "WHO", "PATH", "CHANGE", "COMMAND"], rows)
    return 0


def point(mem: Any, value: str) -> int:
    """A version id from an id (``12``, ``v12``) or a time (ISO, or ``30m``/``2h``/``3d`` ago):
    for a time, the newest version made at or before it."""
    from memtool.cli import CliError, parse_since
    from memtool.history import HistoryError, parse_id

    try:
        return parse_id(value)
    except HistoryError:
        pass
    try:
        when = parse_since(value).timestamp()
    except (ValueError, CliError):
        raise CliError(f"{value!r} is neither a version id (12, v12) nor a time (2026-12-01T10:30, 2h)") from None
    best = 0
    for v in mem.versions.entries() if mem.versions is not None else []:
        if v.time <= when:
            best = v.id
    if not best:
        raise CliError(f"no version at or before {value}")
    return best


def cmd_diff(args: argparse.Namespace) -> int:
    """Print a unified diff."""
    mem = _open(args)
    a = point(mem, args.a) if args.a is not None else None
    b = point(mem, args.b) if args.b is not None else None
    sys.stdout.write(mem.diff(args.file, a, b))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Restore and say what changed."""
    from memtool import cli
    from memtool.history import acting

    mem = _open(args)
    vid = point(mem, args.version)
    with acting("cli", f"memtool restore {args.file} {args.version}"):
        made = mem.restore(_path_arg(args.file), vid)
    out = cli.Output(args.plain)
    if not made:
        out.line(f"{args.file} is already as it was at v{vid}; nothing changed")
        return 0
    for e in made:
        out.line(f"v{e.id} {e.path}: {e.summary}")
    out.line(f"restored to v{vid}; undo with: memtool restore {args.file} v{made[0].id - 1}", style="dim")
    return 0


def _seconds(value: str) -> float:
    import re

    from memtool.cli import CliError

    m = re.fullmatch(r"\s*(\d+)\s*([smhdw])\s*", value or "")
    if not m:
        raise CliError(f"--older-than: cannot read {value!r}; use an age such as 90d, 12h or 30m")
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[m.group(2)]


def cmd_prune(args: argparse.Namespace) -> int:
    """Apply a retention rule now."""
    from memtool import cli
    from memtool.history import Retention

    if args.keep is None and args.older_than is None:
        raise cli.CliError("give --keep N and/or --older-than AGE")
    if args.keep is not None and args.keep < 1:
        raise cli.CliError("--keep must be at least 1")
    rule = Retention(count=args.keep, age=_seconds(args.older_than) if args.older_than else None)
    mem = _open(args)
    mem.notice_edits()
    if mem.versions is None:
        raise cli.CliError("this memory keeps no versions")
    dropped = mem.versions.prune(rule)
    cli.Output(args.plain).line(f"dropped {dropped} versions; {len(mem.versions.entries())} kept")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write the archive."""
    from memtool import cli
    from memtool.history.archive import ArchiveError, export_archive

    mem = _open(args)
    mem.notice_edits()
    try:
        counts = export_archive(mem.base_store, mem.versions, args.out)
    except ArchiveError as e:
        raise cli.CliError(str(e)) from None
    cli.Output(args.plain).line(f"exported {counts['files']} files, {counts['versions']} versions "
                                f"to {args.out}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Read an archive into a new or empty directory."""
    from memtool import cli
    from memtool.history import local_log
    from memtool.history.archive import ArchiveError, import_archive
    from memtool.stores.local import LocalStore

    path = cli.memory_path(args)
    if os.path.exists(path) and (not os.path.isdir(path) or os.listdir(path)):
        raise cli.CliError(f"{path}: not empty; import into a new directory (--path NEW_DIR)")
    store = LocalStore(path)
    try:
        counts = import_archive(store, local_log(store.path), args.src)
    except ArchiveError as e:
        raise cli.CliError(str(e)) from None
    cli.Output(args.plain).line(f"imported {counts['files']} files, {counts['versions']} versions into {path}")
    return 0
