"""truncate: differential tests against GNU coreutils 9.1 on mounted host trees (status,
stderr and the resulting files), every size form, and the write limit."""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.errors import LimitExceeded  # noqa: E402

TREE: fs.Tree = {"f": b"0123456789" * 10, "g": b"abc", "empty": b"", "d": None, "nul": b"\0x\0\xff" * 7}

HAND = [
    "f", "-s x f", "-s 5 -r f f", "-o f", "-s 1 -o f", "-o -s 2 f", "-o -s +1 f", "-s /0 f", "-s %0 f",
    "-s ' +5' f", "-s '+ 5' f", "-s 1KB f", "-s 1KiB f", "-s 1Kb f", "-s --5 f", "-s 99999999999999999999 f",
    "-s 1 d", "-s 1 nope/x", "-c -s 1 nope", "-c -s 1 nope/x", "-s 1", "-r nope f", "-s +1 -r g f", "-s -1 -r g f",
    "-r g f", "-r g new", "-s 0 f", "-s 50 f", "-s 200 f", "-s +7 f g", "-s -7 f g", "-s -500 f", "-s '<50' f g",
    "-s '>50' f g", "-s /7 f g", "-s %7 f g", "-s %64 empty", "-s /64 empty", "-s K f", "-s k f", "-s 1k new",
    "-s 2M new", "-s 1m new", "-s '<-5' f", "-s '/+5' f", "-s '> 5' f", "-s '%  +5' f", "-s 1.5 f", "-s '' f",
    "-s 5 f/", "-s 5 nope/", "-s 5 -c d", "-s 5 new1 new2", "-c -s 5 f nope", "-s 1Q f", "-s 1P f", "-s 1Z f",
    "-s 1KD f", "-s 10c f", "-s 3 nul", "-x f", "--bogus", "--size=3 f", "--reference=g f", "--no-create -s 1 nope",
    "--io-blocks -s 0 f", "-s 9223372036854775807 f", "-s -9223372036854775808 f", "-s 9223372036854775808 f",
    "-s +9223372036854775807 g", "-s %9223372036854775807 g",
]


@pytest.mark.parametrize("args", HAND, ids=repr)
def test_hand_written(args: str) -> None:
    fs.check_all([(["truncate", *shlex.split(args)], TREE)])


def test_generated() -> None:
    rng = random.Random("truncate")
    cases = []
    for _ in range(80):
        tree = {f"f{i}": bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))) for i in range(rng.randint(1, 3))}
        size = rng.choice(["", "+", "-", "<", ">", "/", "%"]) + str(rng.randint(0, 400)) + rng.choice(["", "", "", "K", "KB", "c"])
        if size.lstrip("/%").startswith("0") and size[:1] in "/%":
            size = size[0] + "3"
        flags = ["-s", size] + (["-c"] if rng.random() < 0.2 else [])
        names = list(tree) + (["new"] if rng.random() < 0.3 else [])
        cases.append((["truncate", *flags, *names], tree))
    fs.check_all(cases)


def test_huge_extension_hits_write_limit() -> None:
    with pytest.raises(LimitExceeded):
        run_command(["truncate", "-s", "1G", "f"], files={"f": b""})


def test_read_only_guard_refuses_every_writer() -> None:
    """The guard sees the declared writes of truncate, mktemp, rmdir and xxd's output file and
    refuses them under a read-only policy before anything runs; readers still run."""
    import os
    import tempfile

    from sandbox import Policy, Sandbox

    with tempfile.TemporaryDirectory() as d:
        Path(d, "f").write_bytes(b"x")
        os.mkdir(Path(d, "e"))
        sb = Sandbox(mounts={"/w": d}, cwd="/w", policy=Policy(
            allow={"truncate", "mktemp", "rmdir", "xxd", "md5sum"}, read_only=True))
        for script in ("truncate -s 0 f", "mktemp -p /w", "rmdir e", "xxd f out", "xxd -r f f"):
            result = sb.run(script)
            assert result.exit_code == 126 and b"read-only" in result.stderr, (script, result)
        assert sb.run("md5sum f").exit_code == 0 and sb.run("xxd f").exit_code == 0
        assert sorted(os.listdir(d)) == ["e", "f"] and Path(d, "f").read_bytes() == b"x"
