"""join: differential tests against GNU coreutils 9.1."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

FILES = {"j1": b"a 1\nb 2\nc 3\n", "j2": b"a x\nc y\nd z\n", "k1": b"  a  1 \nA 2\nb\n\nc:3:\nc 4\n",
         "k2": b"a 5\nB 6\nc 7\nc 8\n", "u": b"c 1\na 2\nb 3\n", "t1": b"a:1:\n:2:x\nb::3\n", "t2": b":e\na:f\nb:g",
         "n1": b"k\x00v\nx\xff 1\n\xc3\xa9 2\n", "n2": b"x\xff z\n\xc3\xa9 w\r\n"}

OPTION_ARGS = [
    "-a 3", "-a x", "-v 0", "-1 0", "-1 x", "-j 0", "-1 99999999999999999999999", "-o 3.1", "-o 1.0", "-o x",
    "-o 1.x", "-o 1", "-o ''", "-o 0.1", "-t ab", "-t a -t b", "-t a -t a", "-t '\\0'", "-1 2 -j 1", "-j 1 -1 1",
    "-o 0,1.1 -o 2.2", "-o '0 1.2\t2.2'", "-o auto", "-o auto -o 1.1", "-e X -o 1.5", "-i -o 0", "--header",
    "-a 1 -a 2", "-v 1 -a 1", "-v 1 -v 2", "-x", "--foo", "-e", "-j1 2", "-j2 1", "-v 2", "-a1 -e E -o auto",
    "--ignore-case", "-z", "-1 +1", "-2 ' 2'",
]


@pytest.mark.parametrize("args", OPTION_ARGS, ids=repr)
def test_options_match_gnu(args: str) -> None:
    tcs.line(f"join {args} j1 j2", files=FILES)


ARGS = [
    "k1 k2", "-i k1 k2", "-a1 -a2 k1 k2", "-t : k1 k2", "-t '' k1 k2", "-a1 -a2 -o auto -e - k1 k2",
    "--header -a1 k1 k2", "--header j1 e", "--header e e", "-o auto --header -a2 e j2", "u j2", "-a1 u j2",
    "--check-order u j2", "--check-order j1 j2", "-a2 j2 u", "--nocheck-order -a1 u j2", "- -", "j1", "",
    "j1 j2 j1", "nonexist j1", "j1 nonexist", "- j2", "j1 -", "-z j1 j2", "-2 2 k2 k1",
    "-o 2.1,1.2,0 -a2 k1 k2", "-e XX -a1 -a2 k1 k2", "-t : t1 t2", "-t : -a1 -a2 -e NA -o auto t1 t2",
    "-t : -1 2 -2 1 t1 t2", "-t : -v1 t1 t2", "n1 n2", "-a1 -a2 n1 n2", "-t ' ' j1 j2", "-j 2 j1 j2",
    "-j1 2 j1 j2", "-j2 j1 j2", "-j1 j1 j2", "-o 1.1 2.2 j1 j2", "-o 1.1 2.2 0 j1 j2", "-o 1.1 -- 2.2 j1 j2",
    "-j1 2 -j2 1 j1 j2", "j1 -j1 2 j2", "-o 0 j1 j2 j1",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"join {args}", stdin=b"a q\nc r\n", files={**FILES, "e": b""})


KEYS = [b"a", b"b", b"B", b"c", b"", b"ab", b"\xc3\xa9", b"10", b"9"]


def _gen_file(rng: random.Random, sep: bytes) -> bytes:
    rows = []
    for _ in range(rng.randint(0, 8)):
        fields = [rng.choice(KEYS)] + [rng.choice([b"x", b"y", b"", b"1", b"zz"]) for _ in range(rng.randint(0, 3))]
        rows.append(fields)
    rows.sort(key=lambda r: r[0])
    if rng.random() < 0.15 and len(rows) > 1:
        rows.reverse()
    lines = [sep.join(r) for r in rows]
    return b"\n".join(lines) + (b"\n" if lines and rng.random() < 0.85 else b"")


def test_generated() -> None:
    def make(rng: random.Random):
        use_tab = rng.random() < 0.4
        sep = b":" if use_tab else rng.choice([b" ", b"  ", b"\t"])
        files = {"f1": _gen_file(rng, sep), "f2": _gen_file(rng, sep)}
        argv = ["join"]
        if use_tab:
            argv += ["-t", ":"]
        for opt in rng.sample(["-a1", "-a2", "-v1", "-v2", "-i", "--header", "--check-order", "--nocheck-order",
                               "-eNA", "-oauto", "-o0,2.2,1.2", "-j2", "-12"], rng.randint(0, 3)):
            argv.append(opt)
        return argv + ["f1", "f2"], b"", files

    tcs.sweep(make, seed=88)
