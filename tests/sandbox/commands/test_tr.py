"""tr: unit tests and differential tests against GNU coreutils."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402


def test_upper_case() -> None:
    assert run_command(["tr", "a-z", "A-Z"], stdin=b"hi\n") == (0, b"HI\n", b"")


def test_delete_and_squeeze() -> None:
    assert run_command(["tr", "-ds", "0-9", " "], stdin=b"a1  2 b\n") == (0, b"a b\n", b"")


def test_misaligned_classes() -> None:
    code, out, err = run_command(["tr", "a-z", "[:upper:]"])
    assert (code, err) == (1, b"tr: misaligned [:upper:] and/or [:lower:] construct\n")


TEXT = (b"Hello World 123\tabc-xyz\n\n  spaced   out  \r\n\x00\x01\x7f\xff\xc3\xa9\xe2\x82\xac "
        b"aaabbbccc [brackets] {braces} back\\slash ~!@#$%^&*()_+ \nZZZzzz999\x0b\x0c end")

ARGS = [
    ["a-z", "[:upper:]"], ["[:lower:]", "[:upper:]"], ["[:upper:]", "[:lower:]"], ["a-z", "A-Z"],
    ["[:upper:][:lower:]", "[:lower:][:upper:]"], ["lo", "[:upper:]"], ["[:lower:]", "x"],
    ["-c", "a-z", "xy"], ["-c", "a-z\\n", "_"], ["[a*3]", "x"], ["abc", "[x*]"], ["abc", "[x*]yz"],
    ["abcdef", "x[y*2]z"], ["abc", "[x*0]"], ["a", "[x*09]"], ["a", "[x*010]"], ["-d", "a", "b"],
    ["a"], [], ["-ds", "l"], ["-s"], ["a", "b", "c"], ["z-a", "x"], ["[:foo:]", "x"], ["[=ab=]", "x"],
    ["[==]", "x"], ["[::]", "x"], ["a", "[=b=]"], ["a", "[:digit:]"], ["-d", "[:digit:][:space:]"],
    ["-s", "[:alpha:]"], ["-cs", "[:alpha:]", "\\n"], ["l", ""], ["-t", "lo", "x"], ["a-c", "x-"],
    ["\\", "x"], ["a\\", "x"], ["\\101", "x"], ["\\400", "x"], ["\\777", "y"], ["[:upper:]", "[:upper:]"],
    ["-c", "[:upper:]", "x"], ["-c", "[:upper:]", "[:lower:]"], ["[a-c]", "x"], ["[:alpha", "x"],
    ["[a*]", "x"], ["-d", "\\n-\\r"], ["-c", "[:lower:]", "xy"], ["[:lower:]", "[:upper:]x"],
    ["[:lower:]x", "[:upper:]"], ["ab", "[:upper:]"], ["[:upper:]", "ab[:lower:]"], ["-c", "a", "[:upper:]"],
    ["-ct", "a", "xy"], ["-c", "a", "xy"], ["a", "[x*3][y*]"], ["a", "[x*][y*]"], ["-d", "[x*]", "a"],
    ["-s", "a", "[x*]"], ["-t", "a-z", "A"], ["-d", "-s", "ab"], ["-C", "a", "x"], ["[=a=]", "x"],
    ["a-[:alpha:]", "x"], ["[\\n*3]", "x"], ["\\-a", "x"], ["a\\-c", "x"], ["\\8", "x"], ["\\1234", "x"],
    ["-t", "", "x"], ["", "x"], ["", ""], ["-d", ""], ["a", "[:upper:][:lower:]"], ["[:digit:]", "[x*]"],
    ["-c", "[:digit:]", "[x*]"], ["[:digit:][:upper:]", "[x*][:lower:]"], ["-s", " "], ["-s", "a-z"],
    ["-d", "[:punct:]"], ["-d", "[:cntrl:]"], ["-dc", "[:print:]"], ["-dc", "[:graph:]\\n"],
    ["-d", "[:xdigit:]"], ["-d", "[:alnum:]"], ["-d", "[:blank:]"], ["-s", "\\000-\\377"],
    ["\\200-\\377", "X"], ["-d", "\\303\\251"], ["[:space:]", "[\\n*]"], ["-x"], ["--foo", "a"],
    ["--delete", "a"], ["--squeeze-repeats", "l"], ["--complement", "--delete", "a-z"],
    ["--truncate-set1", "abc", "x"], ["--", "-a", "b"], ["-t", "a-z"], ["-cd", "a", "b"],
    ["-ds", "a", "b", "c"], ["[:*3]", "x"], ["[=*]", "x"], ["[:upper:*2]", "x"], ["a]", "x"],
    ["[a-z]", "[A-Z]"], ["a-a", "b"], ["[x*5]abc", "123"], ["abc", "[x*2]"], ["abc", "[x*1000000]"], ["a", "-d"], ["-t", "z\\n-", "-\\0"],
]


@pytest.mark.parametrize("args", ARGS, ids=repr)
def test_matches_gnu(args: list[str]) -> None:
    gts.compare(["tr", *args], stdin=TEXT)


def test_matches_gnu_generated() -> None:
    rng = random.Random(17)
    atoms = ["a", "b", "z", "A-Z", "a-f", "0-9", "[:lower:]", "[:upper:]", "[:digit:]", "[:space:]",
             "[:punct:]", "[:alpha:]", "\\n", "\\t", "\\\\", "\\0", "\\377", "[x*2]", "[=e=]", " ", "-",
             "[y*]", "\\303", "l", "o", ".", "*", "[", "]"]
    for _ in range(250):
        s1 = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 3)))
        s2 = "".join(rng.choice(atoms) for _ in range(rng.randint(0, 3)))
        flags = "".join(rng.sample("cdst", rng.randint(0, 2)))
        args = ([f"-{flags}"] if flags else []) + [s1] + ([s2] if rng.random() < 0.7 else [])
        gts.compare(["tr", *args], stdin=gts.gen_input(rng))


def test_squeeze_runs_across_chunk_edges() -> None:
    from sandbox.commands._textutil import CHUNK

    data = b"a" * (CHUNK + 10) + b"b\n"
    assert run_command(["tr", "-s", "a"], stdin=data) == (0, b"ab\n", b"")
    assert run_command(["tr", "-s", "a-z"], stdin=data) == (0, b"ab\n", b"")


def test_huge_repeat_is_refused_cleanly() -> None:
    from sandbox.errors import LimitExceeded

    with pytest.raises(LimitExceeded):
        run_command(["tr", "[a*99999999999]", "x"], stdin=b"a\n")
