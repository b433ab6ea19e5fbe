"""Differential tests of tree's information options against tree 2.1 (from the
file-management corpus): ``-p -u -g -s -h --si -D --timefmt --du -C --prune``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.sandbox.commands import files_support as fsup


def _tree_version() -> str | None:
    path = shutil.which("tree")
    if path is None:
        return "reference tool 'tree' is not installed"
    out = subprocess.run([path, "--version"], capture_output=True).stdout
    return None if out.startswith(b"tree v2.") else "reference tool 'tree' is not tree 2.x"


SKIP = _tree_version()
needs_tree = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
#: Two times: one recent (hours ago, shown with the time) and one old (shown with the year).
OLD = 1577836800  # 2020-01-01
MEMORY: fsup.Tree = {
    "m/core.md": b"# Core\n" * 70,
    "m/notes.md": (b"- 2026-09-01: note\n" * 200, OLD),
    "m/conversations.jsonl": b'{"role": "user"}\n' * 600,
    "m/archive": None,
    "m/archive/2026": None,
    "m/archive/2026/a.md": (b"hi\n", OLD),
    "m/archive/empty": None,
    "m/run.sh": b"#!/bin/sh\n",
    "m/.hidden": b"h\n",
}
OWNER = re.compile(rb'\broot(?= |\]|")')


def _owner(out: bytes) -> bytes:
    """tree's owner and group columns: the host's name becomes the jail's ``user``."""
    return OWNER.sub(b"user", out)


FLAGS = [["-p"], ["-s"], ["-h"], ["--si"], ["-D"], ["-u"], ["-g"], ["-ug"], ["-psD"], ["-pugshD"],
         ["--du"], ["--du", "-h"], ["--du", "-s"], ["--du", "--si"], ["-d", "--du"], ["-L", "1", "--du"],
         ["-a", "-h"], ["-hD", "-L", "1", "--timefmt", "%F"], ["--timefmt=%Y"], ["-C"], ["-C", "-F"],
         ["-C", "-n"], ["--prune"], ["--prune", "-P", "a*"], ["--prune", "-I", "a*"], ["--prune", "-d"],
         ["-s", "archive"], ["-D", "-L", "1", "archive"], ["-h", "--noreport"], ["--du", "-f", "-i"],
         ["-sh", "--dirsfirst"], ["-p", "-L", "1", ".", "archive"],
         ["--charset", "ascii"], ["--charset=ascii", "-L", "1"], ["--charset", "utf8"], ["--sort=mtime"],
         ["--sort", "size"], ["--sort=version", "-r"], ["--sort=bogus"], ["--sort"],
         ["-v"], ["-U", "-L", "1", "--noreport"], ["-Q", "-f", "-L", "1", "archive"], ["-Q", "-F"],
         ["--filelimit", "1"], ["--filelimit=3", "-L", "2"], ["--filelimit", "2", "archive"],
         ["--filelimit", "x"], ["-J"], ["-J", "-L", "1", "-s"], ["-J", "-p", "-D", "-h", "archive"], ["-J", "-d"],
         ["-J", "--noreport", "-L", "1"], ["-J", "-s", "-u", "--du"], ["-J", "-a", "-g", "--si"],
         ["-J", ".", "archive"], ["-J", "archive/empty", "archive", "archive/empty"], ["-x", "-l"], ["-N"]]


@needs_tree
def test_information_options() -> None:
    tree = dict(MEMORY)
    cases = [(["tree", *flags], tree, b"", _owner, "m") for flags in FLAGS]
    failures = []
    for argv, t, stdin, norm, cwd in cases:
        report = _compare_with_exec(argv, t, norm, cwd)
        if report:
            failures.append(report)
    assert not failures, f"{len(failures)}/{len(cases)} differ:\n\n" + "\n\n".join(failures[:5])


def _compare_with_exec(argv: list[str], tree: fsup.Tree, norm, cwd: str) -> str | None:
    """``fsup.compare`` with ``m/run.sh`` made executable on both sides (the support module
    builds every file 0644)."""
    build = fsup.build

    def build_exec(root, spec):  # type: ignore[no-untyped-def]
        build(root, spec)
        path = root / "m" / "run.sh"
        path.chmod(0o755)
        os.utime(path, (fsup.BASE_MTIME, fsup.BASE_MTIME))
        os.utime(root / "m", (fsup.BASE_MTIME, fsup.BASE_MTIME))

    fsup.build = build_exec
    try:
        return fsup.compare(argv, tree, b"", norm, cwd)
    finally:
        fsup.build = build


@needs_tree
def test_colour_needs_term() -> None:
    """With ``TERM`` set, ``-C`` colours by LS_COLORS or tree's defaults (``files_support``
    runs GNU without TERM, so this test runs both sides itself, with it)."""
    from sandbox.commands.testing import run_command
    from sandbox.fs.local import LocalDir
    from sandbox.fs.vfs import VirtualFS
    failures = []
    for extra in ({"TERM": "xterm"}, {"TERM": "dumb", "LS_COLORS": "di=01;31:ex=35"}):
        for flags in (["-C"], ["-C", "-F", "-a"], ["-C", "-n"], ["-C", "-s", "-L", "1"]):
            argv = ["tree", *flags]
            with tempfile.TemporaryDirectory() as d:
                root = Path(d)
                fsup.build(root, MEMORY)
                (root / "m" / "run.sh").chmod(0o755)
                ref = subprocess.run(argv, cwd=root / "m", env={**fsup.ENV, **extra}, capture_output=True)
                ours = run_command(argv, fs=VirtualFS({fsup.MOUNT: LocalDir(root)}), cwd=fsup.MOUNT + "/m",
                                   env=dict(extra))
            if (ref.returncode, _owner(ref.stdout), ref.stderr) != ours:
                failures.append(f"{extra} {argv}: GNU {ref.stdout!r}\n  ours {ours[1]!r}")
    assert not failures, "\n\n".join(failures[:3])


@needs_tree
@pytest.mark.parametrize("script", [
    "tree -o out.txt && cat out.txt", "tree -o dir/x.txt -L 1; cat dir/x.txt",
    "tree -o nosuch/x.txt; echo rc=$?", "tree -J -o j.txt; cat j.txt", "tree -o; echo rc=$?",
    "tree -ao out.txt dir; cat out.txt",
])
def test_output_file(script: str) -> None:
    from tests.sandbox.shell.shell_difftools import check
    check(script)
