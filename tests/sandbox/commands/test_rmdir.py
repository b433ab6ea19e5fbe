"""rmdir: differential tests against GNU coreutils 9.1 on mounted host trees (stdout, stderr,
status and the resulting tree), plus the read-only policy."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402
import paths_support as ps  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.policy import Policy  # noqa: E402

TREE: fs.Tree = {"d": None, "d/e": None, "x/y/z": None, "x/y/f": b"", "f": b"file", "empty": None,
                 "a/b/c": None, "sp ace": None, "q": None}

HAND = [
    "d", "-v d", "-p -v d/e/", "-pv x/y/z", "-p x/y/z", "--ignore-fail-on-non-empty -p x/y/z",
    "--ignore-fail-on-non-empty -pv a/b/c", "-pv a/b/c", "-p a//b//c//", ".", "..", "f", "f/", "nope/", "''",
    "a/.", "q/.", "q/..", "-p q//", "empty empty", "-v empty nope f", "--ignore-fail-on-non-empty d x",
    "", "-x", "--bogus", "--parents --verbose a/b/c", "nope/x", "f/x", "d/e/..", "-p nope/../q", "'sp ace'",
    "-p ./a/b/c", "-pv a/b/c/.", "-p a/b/../b/c", "--ignore d",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    ps.check_all([(["rmdir", *shlex.split(args)], TREE)])


def test_generated() -> None:
    rng = random.Random("rmdir")
    cases = []
    for _ in range(80):
        tree = ps.random_tree(rng)
        names = [n for n, v in tree.items() if v is None] + list(tree)[:2] + ["nope"]
        picked = [rng.choice(names) + rng.choice(["", "/", "//"]) for _ in range(rng.randint(1, 3))]
        flags = rng.choice([[], ["-p"], ["-v"], ["-pv"], ["--ignore-fail-on-non-empty"], ["-p", "--ignore-fail-on-non-empty"]])
        cases.append((["rmdir", *flags, *picked], tree))
    ps.check_all(cases)


def test_read_only_policy_refuses() -> None:
    code, out, err = run_command(["rmdir", "d"], files={"d/x": b""}, policy=Policy(read_only=True))
    assert code == 1 and b"rmdir: failed to remove 'd': Read-only file system" in err
