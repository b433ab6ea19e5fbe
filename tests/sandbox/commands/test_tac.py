"""tac: differential tests against GNU coreutils 9.1."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import text_cmds_support as tcs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

TEXT = b"a1b22c\naXXXbXXXXc\n\nmiddle\r\n\xff\x00z\nlast"

ARGS = [
    "", "-b", "-s XX", "-b -s XX", "-s X", "-s ''", "-b -s ''", "-r -s ''", "-s 2", "-s '\n\n'",
    "-r -s '[0-9]*'", "-r -s '[0-9]+'", "-r -s 'a*'", "-r -s 'c$'", "-r -s '^a'", "-r -s '\\(1\\|2\\)'",
    "-r -s 'b{1}'", "-r -s 'X\\|2'", "-b -r -s '[0-9]'", "-r -s '.'", "-r -s 'X?'", "-r", "-rb",
    "--before", "--regex --separator=2", "--sep=X", "--foo", "-x", "-s", "nonexist", "- nonexist -",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    tcs.line(f"tac {args}", stdin=TEXT)


def test_files_and_empty() -> None:
    files = {"a": b"1\n2\n", "b": b"no newline", "e": b""}
    tcs.line("tac a b e - a", stdin=b"x\ny\n", files=files)
    tcs.line("tac e", files=files)


def test_directory_is_gnus_read_error() -> None:
    tcs.compare(["tac", "d", "a"], files={"a": b"1\n2\n"}, dirs=["d"])


def test_generated() -> None:
    seps = ["\n", "a", ":", " ", "\t", "ab", "aa", "\r\n", "1"]
    regexes = ["[0-9]", "[ :]+", "a\\|b", "x*", "\\(ab\\)+", "e$", "^a"]

    def make(rng: random.Random):
        data = tcs.gen_text(rng)
        argv = ["tac"]
        if rng.random() < 0.4:
            argv.append("-b")
        roll = rng.random()
        if roll < 0.3:
            argv += ["-s", rng.choice(seps)]
        elif roll < 0.45:
            argv += ["-r", "-s", rng.choice(regexes)]
        if rng.random() < 0.3:
            return argv + ["f", "-"], data[: len(data) // 2], {"f": data}
        return argv, data, None

    tcs.sweep(make, seed=15)


def test_large_input_is_exact() -> None:
    data = b"".join(b"line %d\n" % i for i in range(100000))
    code, out, _ = run_command(["tac"], stdin=data)
    assert code == 0 and out == b"".join(reversed(data.splitlines(keepends=True)))
