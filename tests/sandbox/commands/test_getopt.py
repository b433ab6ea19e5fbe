"""Differential tests of ``getopt`` against util-linux 2.38.1's: generated optstrings, long
option lists and parameter lists (clusters, attached and separate arguments, abbreviations,
ambiguities, ``--``, quotes and shell-special characters), getopt's own options and errors."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402
import text_cmds_support as tcs  # noqa: E402

LONGS = ["foo", "foobar", "bar", "baz", "verbose", "version", "file", "f", "x-y", "quiet"]
WORDS = ["x", "y z", "it's", "a'b'c", "", "-", "--", "!bang", "tab\there", "new\nline",
         "$HOME", "*", "é", "back\\slash", '"dq"', "-1", "--=x", "---", "-W", "-Wfoo"]


def _optstring(rng: random.Random) -> str:
    out = rng.choice(["", "", "", "+", "-", ":", "+:", "-:"])
    for ch in rng.sample("abcdefvWqx", rng.randint(1, 6)):
        out += ch + rng.choice(["", "", ":", "::"] + ([";"] if ch == "W" else []))
    return out


def _longopts(rng: random.Random) -> str:
    names = rng.sample(LONGS, rng.randint(1, 5))
    return rng.choice([",", ", ", " "]).join(n + rng.choice(["", "", ":", "::"]) for n in names)


def _param(rng: random.Random, short: str, longs: list[str]) -> str:
    r = rng.random()
    if r < 0.3 and short:
        letters = [c for c in short if c.isalpha()]
        return "-" + "".join(rng.choice(letters + ["z"]) for _ in range(rng.randint(1, 3))) + \
            rng.choice(["", "", "val"])
    if r < 0.55 and longs:
        name = rng.choice(longs + ["nope"])
        name = name[: rng.randint(1, len(name))] if rng.random() < 0.4 else name
        dash = "-" if rng.random() < 0.15 else "--"
        return dash + name + rng.choice(["", "", "=v", "=", "=it's"])
    return rng.choice(WORDS)


def _case(rng: random.Random) -> tuple[list[str], dict[str, str]]:
    short = _optstring(rng)
    longs_text = _longopts(rng) if rng.random() < 0.7 else ""
    longs = [w.rstrip(":") for w in longs_text.replace(",", " ").split()]
    own: list[str] = []
    for _ in range(rng.randint(0, 3)):
        own += rng.choice([["-q"], ["-Q"], ["-u"], ["-a"], ["--alternative"], ["-s", "tcsh"],
                           ["-s", "sh"], ["--shell=csh"], ["-n", "prog"], ["--name", "my prog"],
                           ["--unq"], ["-qu"]])
    if rng.random() < 0.03:
        own.append(rng.choice(["-T", "-V", "-h", "-x", "--bogus", "-s", "--shell=fish"]))
    params = [_param(rng, short, longs) for _ in range(rng.randint(0, 7))]
    form = rng.random()
    if form < 0.1:
        argv = ["getopt", short.lstrip("-+") or "a"] + params
    elif form < 0.25:
        argv = ["getopt"] + own + (["-l", longs_text] if longs_text else []) + ["--", short] + params
    else:
        argv = ["getopt"] + own + ["-o", short] + (["--longoptions", longs_text] if longs_text else []) \
            + ["--"] + params
    env = {"POSIXLY_CORRECT": "1"} if rng.random() < 0.1 else {}
    return argv, env


def test_generated() -> None:
    rng = random.Random(6301)
    for _ in range(tcs.CASES * 4):
        argv, env = _case(rng)
        gts.compare(argv, env=env)


@pytest.mark.parametrize("args", [
    [], ["-h"], ["--help"], ["-V"], ["--version"], ["-T"], ["--test"], ["-x"], ["--bogus"],
    ["-o"], ["-s", "fish", "-o", "a"], ["-l", "::", "--", "x"], ["-l", ":"], ["-l", "a,,b::", "--", "--b"],
    ["-o", "a", "--", "-z", "x"], ["-o", "ab:c::", "-l", "foo,bar:,baz::", "--", "-a", "-b", "x",
                                    "--foo", "--bar=y", "-c", "--baz", "z", "it's"],
    ["-s", "tcsh", "-o", "a", "--", "a b", "c!d", "e\nf", "g\th"], ["ab:", "-a", "-b", "x", "y"],
    ["-ab:", "-a", "-b", "x"], ["+ab", "x", "-a"], ["-o", "+a", "--", "x", "-a"],
    ["-o", "-a", "--", "x", "-a", "y"], ["-o", ":a:", "--", "-a"], ["-o", "a:", "--", "-a"],
    ["-o", "a", "-l", "foo,foobar", "--", "--fo"], ["-o", "a", "-l", "foo,foobar:", "--", "--fo"],
    ["-o", "a", "-l", "foo,foobar:", "--", "--fo=x"], ["-a", "-o", "a", "-l", "foo,foobar", "--", "-fo"],
    ["-a", "-o", "f", "-l", "foo", "--", "-f", "-fo", "-fx"], ["-o", "W;", "-l", "foo:", "--", "-W", "foo=1"],
    ["-o", "W;", "-l", "foo", "--", "-Wfoo", "-W"], ["-o", "a", "-l", "foo", "--", "--foo=x"],
    ["-o", "a", "-l", "foo:", "--", "--foo"], ["-n", "NAME", "-o", "a", "--", "-z", "--zz"],
    ["-q", "-o", "a", "--", "-z", "x"], ["-Q", "-o", "a", "--", "-a", "x"], ["-u", "-o", "a:", "--", "-a", "x y"],
    ["-o", "a", "-o", "b", "--", "-a", "-b"], ["-o", "a", "x", "-a"], ["--", "a", "-a"],
    ["-o", "?", "--", "-?"], ["-o", "a", "--", "-", "--", "-a"], ["-l", "foo", "-o", "", "--", "--=x"],
])
def test_command_lines(args: list[str]) -> None:
    gts.compare(["getopt"] + args)


def test_environment() -> None:
    gts.compare(["getopt", "-o", "a", "--", "x", "-a"], env={"POSIXLY_CORRECT": "1"})
    gts.compare(["getopt", "-o", "a", "--", "x", "-a"], env={"GETOPT_COMPATIBLE": "1"})
    gts.compare(["getopt"], env={"GETOPT_COMPATIBLE": "1"})
