"""Move a memory between stores: a local ``.memory/`` into PostgreSQL and back, losing nothing.

    memtool init --dsn postgresql://db/agents [--namespace NS]     # create the tables
    memtool migrate .memory postgresql://db/agents [--namespace NS]  # local -> PostgreSQL
    memtool migrate postgresql://db/agents .memory [--namespace NS]  # PostgreSQL -> local

``copy_tree`` works between any two stores: every directory and every file, byte for byte
(file names are arbitrary bytes; nothing is decoded or re-encoded), with modification times
kept; then it reads both trees again and compares them, so a finished migration is a
verified one. A round trip is byte-identical. The destination must be empty unless
``overwrite=True`` (then files with the same path are replaced; nothing else is deleted).
Scopes travel as they are stored: the ``scopes/`` sub-directories of a memory are copied
with the rest.

CLI wiring (``memtool/cli.py``): call ``add_cli(subparsers)``; it registers ``migrate`` and
an ``init`` handler for ``--dsn`` (``init_dsn``) that ``cli.py`` can call from its own
``init`` when ``--dsn`` is given.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import os
import sys
from dataclasses import dataclass, field
from typing import Iterator

from sandbox.fs.base import FileSystem, FSError

#: Arguments that name a PostgreSQL database rather than a directory.
DSN_PREFIXES = ("postgresql://", "postgres://")


@dataclass
class CopyReport:
    """What ``copy_tree`` did: counts, bytes, and the problems it found (empty when verified)."""

    directories: int = 0
    files: int = 0
    bytes: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the destination was verified equal to the source."""
        return not self.mismatches

    def summary(self) -> str:
        """One line for a person."""
        state = "verified identical" if self.ok else f"{len(self.mismatches)} MISMATCHES"
        return (f"copied {self.files} files ({self.bytes} bytes) and {self.directories} "
                f"directories; {state}")


def walk(store: FileSystem, top: str = "") -> Iterator[tuple[str, bool]]:
    """Every (path, is_dir) below ``top`` of ``store``, parents before children, sorted."""
    for name in sorted(store.listdir(top), key=lambda n: n.encode("utf-8", "surrogateescape")):
        path = f"{top}/{name}" if top else name
        st = store.stat(path)
        yield path, st.is_dir
        if st.is_dir:
            yield from walk(store, path)


def _digest(store: FileSystem, path: str) -> tuple[int, str]:
    h = hashlib.sha256()
    size = 0
    with store.open_read(path) as f:
        while True:
            block = f.read(1 << 20)
            if not block:
                break
            size += len(block)
            h.update(block)
    return size, h.hexdigest()


def tree_digest(store: FileSystem) -> dict[str, tuple[int, str] | None]:
    """{path: (size, sha256) for a file, None for a directory} of a whole store."""
    return {p: (None if d else _digest(store, p)) for p, d in walk(store)}


def copy_tree(src: FileSystem, dst: FileSystem, *, overwrite: bool = False) -> CopyReport:
    """Copy every directory and file of ``src`` into ``dst``, then verify (see module doc).

    Refuses (``FSError`` ``ENOTEMPTY``) a non-empty destination unless ``overwrite``.
    """
    if not overwrite and dst.listdir(""):
        raise FSError(errno.ENOTEMPTY, "", "Directory not empty (the destination already "
                      "holds a memory; pass --overwrite to replace files with the same names)")
    report = CopyReport()
    for path, is_dir in walk(src):
        if is_dir:
            try:
                dst.mkdir(path)
            except FSError as e:
                if e.errno != errno.EEXIST or not dst.stat(path).is_dir:
                    raise
            report.directories += 1
            continue
        data = src.read_bytes(path)
        dst.write_bytes(path, data)
        try:
            dst.set_mtime(path, src.stat(path).mtime)
        except FSError:
            pass
        report.files += 1
        report.bytes += len(data)
    want = tree_digest(src)
    got = tree_digest(dst)
    for path, digest in want.items():
        if got.get(path, "missing") != digest:
            report.mismatches.append(path)
    if not overwrite:
        report.mismatches.extend(p for p in got if p not in want)
    return report


# -- command line ------------------------------------------------------------------------------

def _is_dsn(target: str) -> bool:
    return target.startswith(DSN_PREFIXES) or target == "$MEMTOOL_DSN" or (
        "=" in target and "host" in target and not os.path.exists(target))


def open_target(target: str, namespace: str, schema: str) -> FileSystem:
    """A store for a CLI argument: a DSN (``postgresql://...``, ``key=value`` libpq string, or
    ``-`` for ``$MEMTOOL_DSN``) opens a ``PostgresStore``; anything else is a directory."""
    if target == "-" or _is_dsn(target):
        from memtool.stores.postgres import PostgresStore

        return PostgresStore(None if target in ("-", "$MEMTOOL_DSN") else target,
                             namespace=namespace, schema=schema)
    from memtool.stores.local import LocalStore

    return LocalStore(target)


def init_dsn(dsn: str | None, namespace: str = "default", schema: str = "memtool",
             bootstrap: bool = True, scope: str | None = None) -> str:
    """Create (or upgrade) the tables, and the memory files of ``namespace`` (of ``scope`` in
    it, if given) from the templates (existing files are never touched). Returns a line for
    a person."""
    from memtool.stores.postgres import PostgresStore

    store = PostgresStore(dsn, namespace=namespace, schema=schema)
    version = store.init_schema()
    created: list[str] = []
    if bootstrap:
        from memtool.memory import Memory

        created = Memory(store=store, scope=scope).created if scope else \
            Memory(store=store).created
    made = f"; created {', '.join(created)}" if created else "; all files exist"
    where = f"namespace {namespace!r}" + (f", scope {scope!r}" if scope else "")
    return f"PostgreSQL store ready (schema {schema!r} version {version}, {where}){made}"


def add_cli(subparsers: "argparse._SubParsersAction") -> None:
    """Register ``memtool migrate`` on an argparse sub-parser set (handler in ``func``)."""
    p = subparsers.add_parser(
        "migrate",
        help="copy a memory between a local directory and PostgreSQL (verified, byte-identical)",
        description="Copy every file of SRC into DST, byte for byte, then verify. SRC and DST "
        "are each a directory or a PostgreSQL DSN (postgresql://..., or - for $MEMTOOL_DSN).",
    )
    p.add_argument("src", help="directory or DSN to copy from")
    p.add_argument("dst", help="directory or DSN to copy to (must be empty unless --overwrite)")
    p.add_argument("--namespace", default="default", help="PostgreSQL namespace (default: default)")
    p.add_argument("--schema", default="memtool", help="PostgreSQL schema (default: memtool)")
    p.add_argument("--overwrite", action="store_true", help="replace files that already exist in DST")
    p.set_defaults(func=cmd_migrate)


def add_init_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--dsn``, ``--namespace`` and ``--schema`` to ``memtool init``."""
    parser.add_argument("--dsn", default=None,
                        help="initialise a PostgreSQL store instead of a directory "
                        "(- for $MEMTOOL_DSN)")
    parser.add_argument("--namespace", default="default", help="PostgreSQL namespace")
    parser.add_argument("--schema", default="memtool", help="PostgreSQL schema")


def cmd_init_dsn(args: argparse.Namespace) -> int:
    """``memtool init --dsn DSN``: create the tables and the namespace's files."""
    try:
        print(init_dsn(None if args.dsn == "-" else args.dsn, args.namespace, args.schema,
                       scope=getattr(args, "scope", None)))
    except (FSError, ValueError, RuntimeError) as e:
        print(f"memtool init: {e}", file=sys.stderr)
        return 1
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """``memtool migrate SRC DST``: copy and verify; exit 1 on any problem."""
    try:
        if not _is_dsn(args.src) and args.src != "-" and not os.path.isdir(args.src):
            print(f"memtool migrate: {args.src}: No such directory", file=sys.stderr)
            return 1
        src = open_target(args.src, args.namespace, args.schema)
        dst = open_target(args.dst, args.namespace, args.schema)
        report = copy_tree(src, dst, overwrite=args.overwrite)
    except (FSError, ValueError, RuntimeError) as e:
        print(f"memtool migrate: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - one line, never a traceback
        print(f"memtool migrate: unexpected {type(e).__name__}; nothing was deleted, the copy "
              f"may be partial: fix the cause and run again with --overwrite", file=sys.stderr)
        return 1
    print(report.summary())
    for path in report.mismatches:
        print(f"memtool migrate: {path}: differs after copy", file=sys.stderr)
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    """``python -m memtool.migrate SRC DST`` (the same as ``memtool migrate``)."""
    parser = argparse.ArgumentParser(prog="memtool")
    sub = parser.add_subparsers(dest="command", required=True)
    add_cli(sub)
    init = sub.add_parser("init", help="create the PostgreSQL tables")
    add_init_arguments(init)
    init.set_defaults(func=cmd_init_dsn)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
