"""cp options found by a busybox/toybox probe: -p/--preserve/--no-preserve, --parents, -u, -a,
-d/-P/-L/-H, -x, -Z/--context, against GNU cp 9.1 (stdout, stderr, status, tree and the
modification times of entries that -p keeps)."""

from __future__ import annotations

import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402

SKIP = fsup.gnu_available("cp")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

OLD = 1500000000  # an mtime distinct from BASE_MTIME
TREE: fsup.Tree = {
    "f": b"file", "g": (b"gee", OLD), "new": (b"newer", 1700000000),
    "b": None, "b/c": (None, OLD + 5), "b/c/d": (None, OLD + 9), "b/c/d/file": (b"x", OLD + 1),
    "b/c/e": (b"e", OLD + 2), "a": None, "a/b": b"plain", "t": None, "t/b": None, "t/b/c": None,
    "t/g": (b"old-g", OLD - 100), "t/new": (b"target-new", 1800000000), "z": None,
}


def _times(root: Path) -> dict[str, object]:
    """Each entry's mtime when it is an old (kept) one, else 'now'. A directory at the base
    mtime counts as 'now': ours writes files atomically (a rename into the directory), which
    updates the directory's mtime where GNU's overwrite in place does not."""
    limit = time.time() - 3600
    found: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            m = os.stat(full).st_mtime
            if name in dirnames and m == fsup.BASE_MTIME:
                m = limit
            found[os.path.relpath(full, root)] = round(m, 3) if m < limit else "now"
    return found


def compare(argv: list[str], tree: fsup.Tree = TREE) -> str | None:
    """None when ours matches GNU (output, status, tree contents and kept mtimes)."""
    with tempfile.TemporaryDirectory(prefix="ref") as ref_dir, tempfile.TemporaryDirectory(prefix="our") as our_dir:
        ref_root, our_root = Path(ref_dir), Path(our_dir)
        fsup.build(ref_root, tree)
        fsup.build(our_root, tree)
        ref = subprocess.run(argv, capture_output=True, cwd=ref_root, env=fsup.ENV, timeout=60)
        vfs = VirtualFS({fsup.MOUNT: LocalDir(our_root)})
        code, out, err = run_command(argv, fs=vfs, cwd=fsup.MOUNT)
        ref_out = ref.stdout
        archive = any(a.startswith("-") and not a.startswith("--") and "a" in a for a in argv[1:])
        verbose = "--verbose" in argv or any(a.startswith("-") and not a.startswith("--") and "v" in a for a in argv[1:])
        if fsup._walks_in_directory_order(argv) or (archive and verbose):  # host directory order
            ref_out, out = fsup._sorted_lines(ref_out), fsup._sorted_lines(out)
        a = (ref.returncode, ref_out, ref.stderr, fsup.snapshot(ref_root), _times(ref_root))
        b = (code, out, err, fsup.snapshot(our_root), _times(our_root))
    if a == b:
        return None
    parts = [f"command: {shlex.join(argv)}"]
    for label, x, y in zip(("status", "stdout", "stderr", "tree", "times"), a, b):
        if x != y:
            parts.append(f"{label}: GNU {x!r}\n    ours {y!r}")
    return "\n".join(parts)


def check_all(argvs: list[list[str]], tree: fsup.Tree = TREE) -> None:
    failures = [r for r in (compare(argv, tree) for argv in argvs) if r]
    assert not failures, f"{len(failures)}/{len(argvs)} differ:\n\n" + "\n\n".join(failures[:5])


HAND = [
    # --preserve / --no-preserve / -p
    ["-p", "g", "copy"], ["--preserve", "g", "copy"], ["--preserve=mode", "g", "copy"],
    ["--preserve=timestamps", "g", "copy"], ["--preserve=ti", "g", "copy"], ["--preserve=mode,mode", "g", "copy"],
    ["--preserve=mode,ownership,timestamps,links,xattr", "g", "copy"], ["--preserve=all", "g", "copy"],
    ["--preserve=foo", "g", "copy"], ["--preserve=mode,bar", "g", "copy"], ["--preserve=", "g", "copy"],
    ["--preserve=mode,,mode", "g", "copy"], ["--preserve=m", "g", "copy"], ["--preserve=context", "g", "copy"],
    ["--preserve=all,context", "g", "copy"], ["--no-preserve=x", "g", "copy"], ["--no-preserve=", "g", "copy"],
    ["--no-preserve=all", "g", "copy"], ["-p", "--no-preserve=timestamps", "g", "copy"],
    ["--no-preserve=timestamps", "-p", "g", "copy"], ["--no-preserve=mode", "g", "copy"],
    ["--no-preserve", "g", "copy"], ["--preserve=context", "--preserve=bad", "g", "copy"],
    ["-pr", "b", "copy"], ["-rp", "b", "t"], ["-a", "b", "copy"], ["-a", "g", "f", "t"], ["-p", "g", "f", "t"],
    ["-p", "g", "f"], ["-pv", "g", "new", "z"], ["-p", "b/c/d/file", "b/c/e", "z"],
    # dereferencing and no-op options
    ["-P", "g", "copy"], ["--no-dereference", "g", "copy"], ["-d", "g", "copy"], ["-L", "g", "copy"],
    ["--dereference", "g", "copy"], ["-H", "g", "copy"], ["-pHLPd", "g", "copy"], ["-rL", "b", "copy"],
    ["-x", "g", "copy"], ["--one-file-system", "-r", "b", "copy"], ["-Z", "g", "copy"], ["--context", "g", "copy"],
    ["--context=x", "g", "copy"], ["-Z", "--preserve=context", "g", "copy"], ["-Z", "-a", "g", "copy"],
    # -u / --update
    ["-u", "g", "t/g"], ["-u", "new", "t/new"], ["-uv", "g", "new", "t"], ["--update", "f", "copy"],
    ["-u", "t/new", "new"], ["-u", "g", "g"], ["-ru", "b", "t"], ["-u", "g", "b"], ["--update=all", "g", "copy"],
    ["-un", "g", "t/g"], ["-up", "t/g", "g"],
    # --parents
    ["--parents", "b/c/d/file", "a"], ["--parents", "b/c/d/file", "z"], ["-v", "--parents", "b/c/d/file", "z/"],
    ["-v", "--parents", "b/c/d/file", "z//"], ["--parents", "f", "nod"], ["--parents", "f", "g"],
    ["-T", "--parents", "f", "z"], ["--parents", "f"], ["--parents"], ["--parents", "-t", "z"],
    ["-v", "--parents", "-t", "z", "f", "b/c/e"], ["--parents", "-t", "nod", "f"], ["--parents", "-t", "g", "f"],
    ["--parents", "-t", "z", "-T", "f", "g"], ["-T", "--parents", "f", "g", "h"], ["--parents", "f", "g", "nod"],
    ["-v", "--parents", "nope/x", "z"], ["-v", "--parents", "f/x", "z"], ["--parents", "b/c/d/", "z"],
    ["-rv", "--parents", "b/c/d/", "z"], ["-rv", "--parents", "b/c", "z"], ["-v", "--parents", "./f", "z"],
    ["-v", "--parents", "b//c/d/file", "z"], ["-v", "--parents", "b/c/./d/file", "z"],
    ["-v", "--parents", "b/c/d/file", "t"], ["-pv", "--parents", "b/c/d/file", "t"],
    ["-pv", "--parents", "b/c/d/file", "z"], ["-p", "--parents", "b/c/e", "b/c/d/file", "z"],
    ["-vp", "--parents", "b/c/d/file", "z2", "z"], ["--parents", "-n", "g", "t"], ["--parents", "-u", "g", "t"],
    ["-rp", "--parents", "b", "z"], ["-ra", "--parents", "b/c", "t"], ["--parents", "b/c/d/file", "a/b/../"],
    ["-v", "--parents", "b/../f", "z"], ["-r", "b", "b/c", "z"], ["-r", "b/c", "b", "z"], ["-rL", "b/c", "b", "z"],
    ["-rH", "b/c", "b", "z"], ["-rLP", "b/c", "b", "z"], ["-r", "f", "./f", "b", "z"], ["g", "g", "z"],
    ["-r", "b/c", "b/c/", "z"], ["-rL", "b/c", "b/c/", "z"], ["--parents", "b/c/e", "f", "a"],
    # -v / -t / -T interplay
    ["-v", "g", "copy"], ["-vt", "z", "g", "f"], ["-T", "g", "copy"], ["-t", "z", "-t", "t", "g"],
]


@needs_gnu
def test_hand_written() -> None:
    check_all([["cp"] + args for args in HAND])


SOURCES = ["f", "g", "new", "b", "b/c", "b/c/d", "b/c/d/file", "b/c/e", "b/c/d/", "./b/c/e", "nope",
           "b/nope/x", "a/b", "t/g"]
TARGETS = ["z", "z/", "t", "a", "nod", "f", "a/b"]
OPTIONS = ["-p", "--preserve", "--preserve=timestamps", "--preserve=mode,links", "--no-preserve=timestamps",
           "--no-preserve=mode", "-a", "-r", "-v", "-u", "-n", "-P", "-L", "-H", "-d", "-x", "-T"]


@needs_gnu
@pytest.mark.parametrize("seed", range(4))
def test_generated_parents_preserve(seed: int) -> None:
    rng = random.Random(seed)
    argvs = []
    for _ in range(20):
        opts = rng.sample(OPTIONS, rng.randint(0, 3))
        if rng.random() < 0.7:
            opts.append("--parents")
        rng.shuffle(opts)
        srcs = rng.sample(SOURCES, rng.randint(1, 3))
        if rng.random() < 0.2:
            argvs.append(["cp"] + opts + ["-t", rng.choice(TARGETS)] + srcs)
        else:
            argvs.append(["cp"] + opts + srcs + [rng.choice(TARGETS)])
    check_all(argvs)


def test_p_keeps_mtime_memory() -> None:
    code, out, err = run_command(["cp", "-p", "a", "b"], files={"a": b"x"})
    assert (code, out, err) == (0, b"", b"")
