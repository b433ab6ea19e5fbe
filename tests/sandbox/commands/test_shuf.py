"""shuf: differential tests against GNU coreutils 9.1; with --random-source the output must be
GNU's byte for byte (same random bytes, same consumption), without it a permutation."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

RNG = random.Random(5)
RS = bytes(RNG.randrange(256) for _ in range(600))
LINES = b"".join(b"%d\n" % i for i in range(1, 40))
FILES = {"rs": RS, "rs2": RS[:2], "rs1": RS[:1], "f": LINES, "nt": b"a\nb\nc", "em": b""}

ARGS = [
    "--random-source=rs", "-i 1-5 --random-source=rs", "-r -n 3 -i 1-5 --random-source=rs", "--random-source=rs2",
    "-r -n 5 -e a b --random-source=rs2", "-r -n 50 -e a b c --random-source=rs1", "-r -e", "-r -n 0 -e", "-i 5-3",
    "-i 3-3", "-i 4-3", "-i x", "-i 1-", "-i -3", "-i 1-99999999999999999999999", "-i 7", "-i 1-2-3", "-n x -e a", "-n -1 -e a", "-e a -i 1-2", "a b", "-i 1-2 a",
    "--random-source=rs --random-source=rs2 -e a", "-i 1-3 -i 1-4", "-o x -o y -e a", "-n 3 --random-source=rs",
    "-n 3 --random-source=rs f", "-n 39 --random-source=rs", "-n 40 --random-source=rs", "-n 38 --random-source=rs",
    "-n 1 --random-source=rs", "-n 0 --random-source=rs", "-e -n 2 a b c d e --random-source=rs",
    "-z -e a b c --random-source=rs", "-o out -e a b c --random-source=rs", "--random-source=nonexist -e a",
    "nonexist", "-i 0-18446744073709551615", "-i 1-1000000 -n 3 --random-source=rs", "--random-source=rs nt",
    "--random-source=rs em", "-n 2 -n 1 --random-source=rs f", "-r -n 4 --random-source=rs nt",
    "-r -n 4 --random-source=rs em", "--input-range=10-20 --head-count=4 --random-source=rs",
    "--echo --repeat --head-count=3 --random-source=rs x y", "-x", "--foo", "-i 1-300 --random-source=rs1",
    "-n 3 -z --random-source=rs",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"shuf {args}", stdin=LINES, files=FILES)


def test_generated_with_random_source() -> None:
    def make(rng: random.Random):
        source = bytes(rng.randrange(256) for _ in range(rng.choice([3, 20, 200, 1500])))
        files = {"rs": source, "in": tcs.gen_text(rng, 40)}
        argv = ["shuf", "--random-source=rs"]
        roll = rng.random()
        if roll < 0.25:
            lo = rng.randint(0, 1000)
            argv += ["-i", f"{lo}-{lo + rng.randint(-1, 300)}"]
        elif roll < 0.45:
            argv += ["-e"] + [rng.choice(["a", "b", "c d", "é", ""]) for _ in range(rng.randint(0, 8))]
        if rng.random() < 0.5:
            argv[2:2] = ["-n", str(rng.randint(0, 50))]
        if rng.random() < 0.2:
            argv.insert(2, "-r")
            if "-n" not in argv:
                argv[2:2] = ["-n", str(rng.randint(0, 50))]
        if rng.random() < 0.1:
            argv.insert(2, "-z")
        stdin = b""
        if roll >= 0.45:
            if rng.random() < 0.5:
                argv.append("in")
            else:
                stdin = files["in"]
        return argv, stdin, files

    tcs.sweep(make, seed=144)


@pytest.mark.parametrize("args", [["-e", "a", "b", "c", "d"], ["-i", "3-40"], ["f"], ["-n", "5", "f"]])
def test_without_random_source_is_a_permutation(args: list[str]) -> None:
    code, out, err = run_command(["shuf", *args], files={"f": LINES})
    assert code == 0 and err == b""
    if args[0] == "-e":
        expected = sorted(a.encode() + b"\n" for a in args[1:])
    elif args[0] == "-i":
        expected = sorted(b"%d\n" % i for i in range(3, 41))
    else:
        expected = sorted(LINES.splitlines(keepends=True))
    got = sorted(out.splitlines(keepends=True))
    if "-n" in args:
        assert len(got) == 5 and set(got) <= set(expected) and len(set(got)) == 5
    else:
        assert got == expected


def test_repeat_without_count_is_bounded() -> None:
    from sandbox.limits import Limits

    with pytest.raises(Exception):
        run_command(["shuf", "-r", "-o", "big", "-e", "x"], limits=Limits(seconds=2, string_length=1 << 16))
