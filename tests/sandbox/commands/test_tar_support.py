"""Shared runner of the tar option tests: GNU tar 1.34 and ours run one after the other in
the same absolute directory (ours mounts it at its host path, so ``-P`` names are the same
on both sides) on identical trees; stdout, stderr, status, the resulting tree and the bytes
of named archives must be equal. ``--totals`` rates (time-dependent) are normalised."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from sandbox.commands.testing import run_command
from sandbox.fs.local import LocalDir
from sandbox.fs.vfs import VirtualFS
from tests.sandbox.commands.files_support import ENV, Tree, build
from tests.sandbox.commands.test_tar import IDENTITY, TAR, snapshot

_RATE = re.compile(rb"(Total bytes (?:read|written): \d+ \([^,]*), [^)]*/s\)")


def normalise(err: bytes) -> bytes:
    """``--totals`` lines with the rate (which depends on the clock) blanked."""
    return _RATE.sub(rb"\1, RATE/s)", err)


def _chown_all(root: Path) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            os.chown(os.path.join(dirpath, name), 1000, 1000)
    os.chown(root, 1000, 1000)


def gnu_archive(tree: Tree, names: list[str], extra: list[str] | None = None) -> bytes:
    """GNU's archive of ``names`` in ``tree`` under the sandbox's identity."""
    with tempfile.TemporaryDirectory() as a:
        build(Path(a), tree)
        return subprocess.run([TAR, "-c", *IDENTITY, *(extra or []), "-f", "-", *names], cwd=a,
                              env=ENV, capture_output=True, check=True).stdout


def run_pair(argv: list[str], tree: Tree, stdin: bytes = b"", create: bool = False,
             archives: tuple[str, ...] = (), chown: bool = False, placeholder: str = "@W@",
             ) -> tuple[tuple, tuple]:
    """(GNU's, ours): (status, stdout, stderr, tree, archive bytes) of one command line.
    ``placeholder`` in an argument or in the tree's file contents is the absolute path of
    the working directory (a callable content is called with that path). ``chown`` gives GNU's files the virtual owner (uid 1000)."""
    results = []
    with tempfile.TemporaryDirectory() as top:
        root = Path(top, "w")
        where = str(root)
        args = [a.replace(placeholder, where) for a in argv[1:]]
        data = stdin.replace(placeholder.encode(), where.encode())
        real: Tree = {}
        for k, v in tree.items():
            if callable(v):  # made from the working directory's path
                v = v(where)
            elif isinstance(v, bytes):
                v = v.replace(placeholder.encode(), where.encode())
            real[k] = v
        for side in ("gnu", "ours"):
            if root.exists():
                shutil.rmtree(root)
            root.mkdir()
            build(root, real)
            if side == "gnu":
                if chown:
                    _chown_all(root)
                extra = IDENTITY if create else []
                ref = subprocess.run(["tar", *args, *extra], executable=TAR, input=data,
                                     capture_output=True, cwd=root, env=ENV, timeout=60)
                code, out, err = ref.returncode, ref.stdout, ref.stderr
            else:
                vfs = VirtualFS({top: LocalDir(top)})
                code, out, err = run_command(["tar", *args], stdin=data, fs=vfs, cwd=where,
                                             env={"TZ": "UTC"})
            snap = snapshot(root)
            kept = tuple(snap.pop(a, (None,))[0] for a in archives)
            results.append((code, out.replace(where.encode(), b"@W@"),
                            normalise(err).replace(where.encode(), b"@W@"), snap, kept))
    return results[0], results[1]


def check_pair(argv: list[str], tree: Tree, **kw: object) -> None:
    """Assert GNU's and our runs are the same (see ``run_pair``)."""
    ref, ours = run_pair(argv, tree, **kw)  # type: ignore[arg-type]
    assert ours[4] == ref[4], f"{argv}: archive bytes differ"
    assert ours[:3] == ref[:3], argv
    assert ours[3] == ref[3], argv
