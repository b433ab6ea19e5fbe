"""cut: unit tests and differential tests against GNU coreutils."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands import cut  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402


def test_fields_with_delimiter() -> None:
    assert run_command(["cut", "-d:", "-f2,3"], stdin=b"a:b:c:d\nno\n") == (0, b"b:c\nno\n", b"")


def test_list_parsing_merges_overlaps_only() -> None:
    assert cut.parse_list("5-,1-2,3-4,2", positions=True) == [(1, 2), (3, 4), (5, cut.END)]


def test_bad_list() -> None:
    code, _, err = run_command(["cut", "-f", "3-1"])
    assert code == 1 and err.startswith(b"cut: invalid decreasing range\n")


TEXT = (b"abc:def:ghi\nxyz\n\n:lead\ntrail:\na\tb\tc\n1:2:3:4:5:6:7:8:9:10\n"
        b"\xc3\xa9t\xc3\xa9:\xff:x\r\n" + b"long:" * 3000 + b"\nno newline:at end")

ARGS = [
    "-b 1", "-b 1-3", "-b 2-", "-b -2", "-b 1,3,5", "-b 1-2,3-4", "-b 1-3,2-5", "-b 3,1-2",
    "-c 1", "-c 2-4", "-b 5-", "-b 100-", "-b 1-2,4- --output-delimiter=:", "-c 1-2,3- --output-delimiter=:",
    "-b 2,4 --complement", "-b 2,4 --complement --output-delimiter=+", "-b 1- --complement",
    "-f 1", "-f 2", "-d : -f 1", "-d : -f 2", "-d : -f 2-", "-d : -f -2", "-d : -f 1,3",
    "-d : -f 3,1", "-d : -f 1-2,4-", "-d : -f 2 -s", "-d : -s -f 1", "-d : -f 2 --complement",
    "-d : -f 1,3 --complement --output-delimiter=+", "-d : -f 1 --output-delimiter=::",
    "-d : -f 1- --output-delimiter=", "-d '' -f 1", "-d x -f 1", "-d a -f 2", "-f 1 -z",
    "-d : -f 2 -z", "-f 1,2 --output-delimiter=X", "-d : -f 9999999999", "-d ' ' -f 1", "-b 1 -n",
    "-f 0", "-b 0", "-f -", "-b -", "-f 3-1", "-c 3-1", "-f x", "-b x", "-f ''", "-f 99999999999999999999",
    "-b 99999999999999999999", "-f 1,,2", "-f 1-2-3", "-b 1-2-3", "", "-f 1 -b 1", "-d : -b 1",
    "-s -b 1", "-d ab -f 1", "-f '1 3'", "-f 2-x", "-b -x", "-f 1-3x", "-f 0-3", "-f 1-0", "-f ,1",
    "-f 1,", "-d é -f 1", "-f 1 -x", "--foo", "-d", "-f 1 missing", "-f 1 - missing -",
    "--fields=2 --delimiter=:", "--bytes=1-3", "--characters=2", "--only-delimited -d: -f1",
    "--zero-terminated -f1", "--compl -b 1", "-d: -f 18446744073709551614",
    "-d: -f 18446744073709551615",
    # bounds past sys.maxsize (the C slices take them as the end of the line)
    "-b 2-18446744073709551614", "-b 1-9223372036854775807", "-b 9223372036854775806-",
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: str) -> None:
    import shlex

    gts.compare(["cut", *shlex.split(args)], stdin=TEXT)


def test_matches_gnu_files() -> None:
    files = {"a": b"1:2\n3:4", "b": b"x:y:z\n"}
    gts.compare(["cut", "-d:", "-f2", "a", "b", "-", "b"], stdin=b"s:t\n", files=files)


def test_matches_gnu_generated() -> None:
    rng = random.Random(9)
    for _ in range(150):
        data = gts.gen_input(rng)
        items = []
        for _ in range(rng.randint(1, 3)):
            lo = rng.randint(1, 6)
            form = rng.choice(["N", "N-", "-M", "N-M"])
            hi = lo + rng.randint(0, 4)
            items.append({"N": f"{lo}", "N-": f"{lo}-", "-M": f"-{hi}", "N-M": f"{lo}-{hi}"}[form])
        spec = ",".join(items)
        if rng.random() < 0.5:
            args = ["-f", spec, "-d", rng.choice([":", ",", " ", "\t", "x"])]
            if rng.random() < 0.3:
                args.append("-s")
        else:
            args = [rng.choice(["-b", "-c"]), spec]
        if rng.random() < 0.3:
            args.append("--complement")
        if rng.random() < 0.3:
            args.append("--output-delimiter=" + rng.choice(["|", "", "--"]))
        gts.compare(["cut", *args], stdin=data)


@pytest.mark.parametrize("argv", [["cut", "-f1", "dd"], ["cut", "-b1", "f", "dd", "f"]], ids=repr)
def test_matches_gnu_on_directories(argv: list[str]) -> None:
    gts.compare(argv, files={"f": b"x y\n"}, dirs=["dd"])


NEWLINE_INPUTS = [b"a:b\n", b"a\nb\nc\n", b"a\nb\nc", b"", b"\n", b"\n\n", b"a\n\nb\n", b"abc",
                  b"x\n\n\n", b"\xff\n\xc3\xa9\r\n"]
NEWLINE_ARGS = ["-f 1", "-f 2", "-f 2-3", "-f 1,3", "-f 3-", "-f 1-", "-s -f 1", "-s -f 2",
                "--complement -f 2", "-s --complement -f 1", "--output-delimiter=: -f 1-",
                "--output-delimiter=: -f 2,3"]


@pytest.mark.parametrize("args", NEWLINE_ARGS, ids=repr)
@pytest.mark.parametrize("data", NEWLINE_INPUTS, ids=repr)
def test_newline_as_the_delimiter_matches_gnu(args: str, data: bytes) -> None:
    """``-d $'\\n'``: GNU reads the whole input as one record whose fields are its lines."""
    import shlex

    gts.compare(["cut", "-d", "\n", *shlex.split(args)], stdin=data)


@pytest.mark.parametrize("data", [b"a\0b\0", b"a\0", b"ab", b"a\0b"], ids=repr)
def test_nul_as_the_delimiter_with_z_matches_gnu(data: bytes) -> None:
    gts.compare(["cut", "-z", "-d", "", "-f", "2"], stdin=data)


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
def test_single_field_batches_match_gnu_at_block_sizes(block: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``cut -fN`` splits a batch of lines at a time: lines without the delimiter (printed
    whole, or dropped by -s), missing fields, CRLF, NUL, invalid UTF-8, no final newline."""
    from sandbox.commands import _textutil

    monkeypatch.setattr(_textutil, "CHUNK", block)
    rng = random.Random(43)
    pieces = [b"a", b"", b"bc", b"\xff", b"x\r", b"\0", b"\xc3\xa9", b" "]
    for _ in range(60):
        delim = rng.choice([b"\t", b":", b" "])
        lines = [delim.join(rng.choice(pieces) for _ in range(rng.randint(0, 5)))
                 for _ in range(rng.randint(0, 12))]
        data = b"\n".join(lines) + (b"\n" if rng.random() < 0.7 else b"")
        args = [f"-f{rng.randint(1, 6)}"] + (["-s"] if rng.random() < 0.3 else [])
        if delim != b"\t":
            args.append("-d" + delim.decode())
        gts.compare(["cut", *args], stdin=data)
