"""The order recursive commands walk a host directory in, against GNU on the same filesystem:
``rm -r`` and ``gzip -r`` take the kernel's readdir order (fts / readdir), ``cp -r`` gnulib's
``savedir`` order, which sorts by inode number; it shows in ``-v`` output. The directories
are made by the script itself, so both sides build them alike. cp's order is checked against
the host's inode numbers of the very directory it copies: two directories get different
inode numbers whenever another process frees or takes one meanwhile."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

_TREE = ("mkdir -p d/sub/deep; touch -d 2026-01-02 d/b d/a d/c d/zz d/m d/sub/q d/sub/p d/sub/deep/r "
         "d/Z\n")

SCRIPTS = [
    _TREE + "rm -rv d",
    _TREE + "rm -rfv d > log; cat log",
    _TREE + "gzip -rv d 2>&1 | sed 's/ *[0-9.]*%//'; ls -U d | wc -l",
    _TREE + "rm -rv d/sub; rm -rv d",
    "mkdir d; for i in $(seq 40); do touch d/f$i; done; rm -rv d | tail -2",
]


@needs_bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_recursive_walks_in_gnus_order(script: str) -> None:
    dt.check(script, stderr=True)


def test_cp_r_copies_in_inode_order(tmp_path: Path) -> None:
    from sandbox import Policy
    from sandbox.api import Sandbox
    from sandbox.fs.local import LocalDir

    src = tmp_path / "d"
    src.mkdir()
    for name in ("b", "a", "c", "zz", "m", "Z", "k"):
        (src / name).write_bytes(b"x")
    (src / "sub").mkdir()
    by_inode = sorted(os.listdir(src), key=lambda n: os.stat(src / n).st_ino)
    sb = Sandbox({"/w": LocalDir(tmp_path)}, cwd="/w", policy=Policy(allow=dt.all_commands()))
    r = sb.run("cp -rv d e")
    assert r.exit_code == 0, r.stderr
    want = "".join(f"'d/{n}' -> 'e/{n}'\n" for n in by_inode)
    assert r.stdout.decode() == "'d' -> 'e'\n" + want
