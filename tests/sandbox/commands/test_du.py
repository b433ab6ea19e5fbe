"""du: differential tests against GNU coreutils 9.1 on mounted host trees (ext4: a file takes
ceil(size/4096) blocks of 4 KiB, directories 4 KiB, as our formula says).

GNU lists a directory's entries in the host's directory order (ext4 hash order); ours are in
name order, so multi-line outputs are compared as sorted lines (a documented deviation), with
status and stderr exact. Single-line outputs (-s, -d 0, files) are compared exactly.
"""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402
import paths_support as ps  # noqa: E402

TREE: fs.Tree = {"d/e": None, "d/f": b"x", "big": b"\0" * 70000, "empty": b"", "s/t/u/v": b"y" * 5000,
                 "s/t/w": b"z" * 4096, "s/t/x": b"q" * 4097, "sp ace/é": b"1" * 10000, "zero": None}

HAND = [
    "", "d/", "-a d//", "-s -d 1 .", "-sh .", "-b", "--apparent-size -a", "-m", "-c d big", "-h -a", "nope",
    "-d 0 d", "-0 d", "-sb d d", "-a big", "-d x", "-d -1", "--max-depth=99999999999999999999999 d", "-h -b d",
    "-b -h d", "-k -b d", "-m -k d", "-hm d", "-a -s d", "-x d", "-- d/f", "d/f/", "''", "-s . d", "-a s",
    "-a -d 1 s", "-d 2 s", "-c -s s d big", "-ac s", "-ab s", "-ah s", "--apparent-size -s s", "-k s", "-sm big",
    "-sh big", "zero empty", "-a 'sp ace'", "-s s/t/u/v s/t/../t", "-S d", "--bogus", "-c nope d", "--total --null d",
    "--all --bytes --max-depth=1 s", "--summarize --human-readable s", "s/t/../..", "./d", "-ab ./s/",
    "--max-depth 1 .", "-d1 -b", "-c", "-c -b empty", "-B x d", "--block-size=x d", "-B 1Q d", "-B 0 d",
    "-B K d", "-B 1M d", "-B KB d", "--si d", "--si -b d", "-B 1 d", "-B 2 -b d", "-hB 1K d", "-Bh d",
    "-B human-readable d", "-B si big", "-sB 1 big", "-aB 512 s", "--block-size=1KiB s", "-B 99999999999999999999999 d", "-Bs d", "-B hum d",
    "-a --exclude=f", "-a --exclude='d/*'", "-a --exclude=d .", "--exclude=big -a d", "-s --exclude=e d",
    "--exclude='*' .", "-a --exclude='./d' .", "-a --exclude='*/e'", "-a --exclude='*.txt' --exclude=u s",
    "-a --exclude='[st]' .", "-ab --exclude='s/t/?' s", "--exclude= -a d", "-a --exclude='sp*' .",
    # dereferencing (no links in the jail) and --count-links
    "-L d", "--dereference -a s", "-H d", "-D -s s", "--dereference-args d", "-P d", "--no-dereference -s .",
    "-LHDP d", "-sL s d", "-l d", "-l . d", "--count-links -s . d s", "-lc d d", "-lsc s s/t", "-la s s/t/w",
    "-l -x d", "--one-file-system -s .", "-lLa --exclude=u s", "--count-link d", "--deref d",
    # -t/--threshold (the corpus's ``du -b --threshold=1000 *``): bytes before scaling, the total kept
    "-b --threshold=1000 big empty s", "-a -t 4K s", "-ab -t -4097 s", "-ac -t 1M .", "-t 1KB -ab s", "-t 1KiB -ab s",
    "-t 0 empty", "-t -0 d", "-t x d", "-t '' d", "-t 5Q d", "-t 99999999999999999999 d", "--thr=1kx d",
    "-t 0x1000 -ab s", "-t 010 -ab d", "-t k -ab d", "--inodes -t 2 -a s", "-sh -t 10k s", "-t -5Q d",
]


def _sorted(data: bytes) -> bytes:
    sep = b"\0" if b"\0" in data else b"\n"
    return sep.join(sorted(data.split(sep)))


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    argv = ["du", *shlex.split(args)]
    ref, ours = fs.run_pair(argv, TREE)
    assert (ref[0], _sorted(ref[1]), ref[2]) == (ours[0], _sorted(ours[1]), ours[2]), fs.reproduce(argv, TREE, b"")
    if ref[1].count(b"\n") + ref[1].count(b"\0") <= 1:
        assert ref[1] == ours[1]


def test_generated() -> None:
    rng = random.Random("du")
    for _ in range(60):
        tree = ps.random_tree(rng)
        flags = rng.sample(["-a", "-b", "-h", "-m", "-c", "--apparent-size", "-d 1", "-d 0", "-k", "-0"], rng.randint(0, 3))
        names = rng.sample(list(tree) + ["."], min(len(tree) + 1, rng.randint(1, 3)))
        argv = ["du", *shlex.split(" ".join(flags)), *names]
        ref, ours = fs.run_pair(argv, tree)
        assert (ref[0], _sorted(ref[1]), ref[2]) == (ours[0], _sorted(ours[1]), ours[2]), fs.reproduce(argv, tree, b"")
