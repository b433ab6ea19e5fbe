"""install: differential tests against GNU coreutils 9.1 (stdout, stderr, status, the tree)."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402

REASON = fs.gnu_available("install")
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

TREE: fs.Tree = {"a": b"A\n", "b": b"B\n", "c": b"same\n", "same": b"same\n", "d": None,
                 "d/a": b"old\n", "e": None, "b~": b"old backup\n", "sp ace": b"s\n"}

LINES = [
    "", "a", "a b", "-v a n", "-v a b", "-v a b c d", "a b nn", "a b c", "-d -v x/y z", "-d d",
    "-d -v d/g/../h", "-d a", "-d a/x", "-d ''", "-D -v a p/q/r", "-D a a/x", "-D -v a d/e/f/",
    "-v a nd/", "-v -t d a b", "-D -v -t n/m a", "-t nope a", "-t a b", "-t d -T a", "-T a d",
    "-T -v a h", "-T a b c", "-v d e", "nope e", "'' b", "a ''", "-v a a", "-v a b/",
    "-b -v a b", "-bv --suffix=.bak a b", "-v --backup=numbered a b", "--backup=bogus a b",
    "--backup=simple -v a b", "-S .x -v a b", "-v -D a b", "-c -v a m", "-vC a b", "-vC a new",
    "-C -p a b", "-p -v a i", "-m x a b", "-m '' a b", "-m 644 -v a m1", "-m u+x,g=r a m2",
    "-m 7777 a m3", "-m 17777 a m4", "-m +8 a m5", "-m u=7 a m6", "-m =755 a m7",
    "-m a+rwxXst a m8", "-m u+x, a m9", "-m ,u+x a m9", "-m g=u a m10", "-m u+,o= a m11",
    "-m ugo a m12", "-m - a m13", "-d -t d x", "--foo", "-z", "--help", "--version",
    "-v 'sp ace' d", "--verbose --directory q/r", "--target-directory=e a b", "-Dv a e/f",
    "-D -t a b", "-Dv -t d/new a b", "-d -v a/", "-d -v q/", "-bv -D a d/a", "-v -b -t d a",
    "-Tv a d/a", "-vt d d", "-v a b d/a e", "-C a c", "-vC c same", "-p a d",
]


@pytest.mark.parametrize("args", LINES, ids=repr)
def test_lines(args: str) -> None:
    report = fs.compare(["install", *shlex.split(args)], TREE)
    assert report is None, report


MODES = ["644", "0755", "u+x", "go-w", "a=r,u+w", "+x", "=", "u=g", "o+t", "7", "07777", "8",
         "u+q", "uu+x", "a-", "u+x,,g+x", "+rw+x", "u-x=r", "0644x", "rwx", "g+s,o=rX", "+077"]


@pytest.mark.parametrize("mode", MODES)
def test_modes(mode: str) -> None:
    report = fs.compare(["install", "-m", mode, "a", "m"], TREE)
    assert report is None, report


def test_generated() -> None:
    """Random trees and random install command lines."""
    rng = random.Random(7)
    cases = []
    for _ in range(150):
        tree = fs.random_files(rng, rng.randint(1, 3))
        if rng.random() < 0.5:
            tree["dir"] = None
        names = list(tree) + ["new", "dir/x", "deep/er/f", "dir/"]
        argv = ["install"]
        for flag in ("-v", "-b", "-D", "-C", "-p", "-T"):
            if rng.random() < 0.25:
                argv.append(flag)
        if rng.random() < 0.2:
            argv = ["install", "-d", "-v"] + [rng.choice(["n1", "n2/n3", "dir", "f0", "f0/x"])]
        else:
            argv += [rng.choice(names) for _ in range(rng.randint(1, 3))]
        cases.append((argv, tree))
    fs.check_all(cases)


@pytest.mark.parametrize("seed", [20, 21])
def test_generated_option_mix(seed: int) -> None:
    """150 command lines per seed mixing -v -b -D -C -p -T -t -d --backup -S and operands."""
    rng = random.Random(seed)
    cases = []
    for _ in range(150):
        tree = fs.random_files(rng, rng.randint(1, 3))
        if rng.random() < 0.5:
            tree["dir"] = None
        if rng.random() < 0.3:
            tree["dir/f0"] = b"x"
        names = list(tree) + ["new", "dir/x", "deep/er/f", "dir/", "f0~", "-"]
        argv = ["install"]
        for flag in ("-v", "-b", "-D", "-C", "-p", "-T", "-t", "-d", "--backup=numbered", "-S.k"):
            if rng.random() < 0.15:
                argv.append(flag)
                if flag == "-t":
                    argv.append(rng.choice(names))
        argv += [rng.choice(names) for _ in range(rng.randint(0, 3))]
        cases.append((argv, tree))
    fs.check_all(cases)
