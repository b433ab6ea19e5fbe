"""Support for the differential tests of readlink, realpath, rmdir, mktemp, stat and du: a
``files_support`` comparison whose reference output has the host's temp directory replaced by
the sandbox mount (``/w``), plus random trees and path operands."""

from __future__ import annotations

import random
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402

_TMP = re.escape(tempfile.gettempdir().encode())


def host_to_jail(data: bytes) -> bytes:
    """The reference output with its temp directory (``/tmp/refXXXX``) shown as ``/w``."""
    return re.sub(_TMP + rb"/ref[A-Za-z0-9_]+", fs.MOUNT.encode(), data)


def check_all(cases: list[tuple], limit: int = 5) -> None:
    """``files_support.check_all`` with the temp directory normalised (cases: argv, tree[, cwd])."""
    failures = []
    for argv, tree, *rest in cases:
        report = fs.compare(argv, tree, b"", host_to_jail, rest[0] if rest else "")
        if report is not None:
            failures.append(report)
    if failures:
        raise AssertionError(f"{len(failures)}/{len(cases)} cases differ from GNU:\n\n" + "\n\n".join(failures[:limit]))


TREE: fs.Tree = {"d": None, "d/e": None, "d/e/g": b"deep", "f": b"file", "d/h": b"", "empty": None,
                 "sp ace": None, "é": b"x"}

COMPONENTS = ["d", "e", "f", "g", "h", "nope", ".", "..", "", "empty", "sp ace", "é", "d/e"]


def stays_inside(cwd: str, name: str) -> bool:
    """True if the relative ``name`` never climbs above the mounted tree from ``cwd``."""
    depth = len([p for p in cwd.split("/") if p])
    for part in name.split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return False
        elif part not in ("", "."):
            depth += 1
    return True


def random_operand(rng: random.Random, cwd: str = "") -> str:
    """A relative name built from existing and missing components, staying inside the tree."""
    while True:
        parts = [rng.choice(COMPONENTS) for _ in range(rng.randint(1, 4))]
        if parts[0] and stays_inside(cwd, "/".join(parts)):
            break
    name = "/".join(parts)
    if rng.random() < 0.2:
        name += "/"
    if rng.random() < 0.1:
        name = "./" + name
    return name


def random_tree(rng: random.Random) -> fs.Tree:
    """A small random tree of directories and files (some empty)."""
    tree: fs.Tree = {}
    dirs = [""]
    for i in range(rng.randint(0, 8)):
        parent = rng.choice(dirs)
        name = (parent + "/" if parent else "") + rng.choice(["a", "b", "c", "sub", "x y", "ü"]) + str(i)
        if rng.random() < 0.5:
            tree[name] = None
            dirs.append(name)
        else:
            tree[name] = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 100, 5000, 70000])))
    return tree
