"""pr: differential tests against GNU coreutils 9.1's pr (stdout, stderr, exit status) on files
whose mtimes are set (headers show them), generated and hand-written command lines.

Headers of standard input and of ``-m`` show the current time: those cases pass ``-D`` with a
format without conversions so the comparison does not depend on the clock."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fs  # noqa: E402

from sandbox import Limits, Policy, Sandbox  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402

pytestmark = pytest.mark.skipif(fs.gnu_available("pr") is not None, reason=str(fs.gnu_available("pr")))

MTIME = 1614834367  # 2021-03-04 05:06:07 UTC
FIXED_DATE = ["-D", "DATE"]


def text(n: int, width: int = 20) -> bytes:
    return b"".join(b"line %d %s\n" % (i, b"x" * (i * 7 % width)) for i in range(1, n + 1))


SPECIAL = [
    b"", b"\n", b"one", b"a\tb\tc\n\tlead\n", b"ff\fafter\n\f\fx\n", b"\fstart\n", b"back\bspace\b\b\bx\n",
    b"crlf\r\nlines\r\n", b"bad \xff\xfe utf8 \xc3\n", "caf\u00e9 \u65e5\u672c\n".encode(), b"ctrl \x01\x1b\x7f\n",
    b"x" * 200 + b"\n", text(150), text(30, 60), b"nul\x00byte\n",
]


def content(rng: random.Random) -> bytes:
    if rng.random() < 0.4:
        return rng.choice(SPECIAL)
    data = fs.random_content(rng)
    if rng.random() < 0.2:
        data = data.replace(b"\n", b"\n\f", rng.randint(1, 3))
    if rng.random() < 0.2:
        data += b"\t".join([b"t"] * rng.randint(1, 9)) + b"\n"
    return data


OPTION_CHOICES = [
    ["-t"], ["-T"], ["-2"], ["-3"], ["-a"], ["-n"], ["-n:3"], ["-d"], ["-l", "20"], ["-l15"], ["-l", "8"],
    ["-w", "40"], ["-W", "30"], ["-o", "4"], ["-s"], ["-s:"], ["-S", " | "], ["-S"], ["-J"], ["-h", "Title"],
    ["-h", ""], ["-N", "7"], ["-e"], ["-e:4"], ["-i"], ["-i.6"], ["-v"], ["-c"], ["-f"], ["-F"], ["+2"],
    ["--pages=2:3"], ["--columns=4"], ["-r"], ["--across"], ["--double-space"], ["--length=30"],
    ["--number-lines"], ["--indent=2"], ["--omit-header"], ["--width=50"], ["--page-width=60"],
]


def gen_case(rng: random.Random) -> tuple[list[str], fs.Tree, bytes]:
    opts: list[str] = []
    for _ in range(rng.randint(0, 4)):
        opts += rng.choice(OPTION_CHOICES)
    tree: fs.Tree = {"a": (content(rng), MTIME), "b": (content(rng), MTIME + 86400 * 40)}
    kind = rng.random()
    if kind < 0.15:
        return ["pr", *FIXED_DATE, *opts, "-"], tree, content(rng)
    if kind < 0.3 and "-a" not in opts and "--across" not in opts and not any(o[1:].isdigit() for o in opts):
        return ["pr", *FIXED_DATE, "-m", *[o for o in opts if o != "--columns=4"], "a", "b"], tree, b""
    files = ["a"] if rng.random() < 0.6 else ["a", "b"]
    return ["pr", *opts, *files], tree, b""


def test_generated() -> None:
    rng = random.Random(1966)
    fs.check_all([gen_case(rng) for _ in range(160)])


@pytest.mark.parametrize("args", [
    "a", "-t a", "-T a", "-2 a", "-3 -t a", "-a -3 a", "-12 a", "-1 -2 a", "-3 -a -2 a", "--columns=2 -5 a",
    "-5 --columns=2 a", "-n a", "-n -2 a", "-n: a", "-n:3 a", "-nx10 a", "-n5 a", "-n0 a", "-n:x a", "-N -3 -n a",
    "-d a", "-d -2 a", "-l 1 a", "-l 10 a", "-l 11 a", "-l 0 a", "-l x a", "-w 10 -3 a", "-w 1 -3 a", "-W 5 a",
    "-W 0 a", "-o 0 a", "-o -1 a", "-o 5 -2 a", "-s -2 a", "-s: -2 a", "-S: -2 a", "-S -2 a", "-J -3 a",
    "-J -S: -3 a", "-w 30 -s -3 a", "-W 30 -s -3 a", "-h 'Custom  header' a", "-h '' a", "-h x -2 a b",
    "-D %s a", "-D '%A %d' a", "-e a", "-e5 a", "-e:3 a", "-ex a", "-i a", "-i4 a", "-i: a", "-v a", "-c a",
    "-f a", "-F -l 20 a", "+2 a", "+2:3 a", "+3:2 a", "+0 a", "+x a", "+99 a", "--pages=2 a", "--pages=x a",
    "--pages=3:1 a", "+2 --pages=3 a", "--pages=3 +2 a", "-- +2 a", "a b", "a nonexist b", "-r a nonexist",
    "nonexist", "d", "a d", "-m a b", "-m -2 a b", "-m -a a b", "-a -m a b", "-3 -a -n a", "-x a", "--bogus a",
    "-l", "--help", "--version", "-w x a", "--columns=0 a", "-0 a", "-N x -n a", "-t -n -d -o 3 -2 a",
    "-T -3 -a a", "+ a", "+2:x a", "+2:3x a", "+99999999999999999999999 a", "+-1 a", "--pages= a", "--pages=2:x a",
    "--pages=3x a", "--pages=99999999999999999999999 a", "+2x a", "--pages=0 a", "+1:1 a", "'+ 2' a", "-2 -t -l 12 a", "--sep-string=XY -3 a", "--separator=. -3 a", "-3 -s a", "-i -3 a",
])
def test_command_lines(args: str) -> None:
    argv = ["pr", *shlex.split(args)]
    tree: fs.Tree = {"a": (text(130, 70) + b"tab\there\n\fpage\n", MTIME), "b": (SPECIAL[3] + text(70), MTIME),
                     "d": None}
    if "--help" in argv or "--version" in argv:
        ref = subprocess.run(argv, capture_output=True, env=fs.ENV).stdout
        code, out, _ = run_command(argv)
        assert code == 0 and out and ref.startswith(out)
        return
    if "-m" in argv:
        argv[1:1] = FIXED_DATE
    fs.check_all([(argv, tree)])


@pytest.mark.parametrize("data", SPECIAL, ids=lambda d: repr(d[:16]))
@pytest.mark.parametrize("opts", [[], ["-t"], ["-3", "-t"], ["-2", "-n", "-l", "15"], ["-a", "-2", "-T"], ["-d", "-l", "12"]])
def test_inputs(data: bytes, opts: list[str]) -> None:
    fs.check_all([(["pr", *opts, "f"], {"f": (data, MTIME)}), (["pr", *FIXED_DATE, *opts], {}, data)])


def test_mtime_in_header() -> None:
    cases = [(["pr", "-l", "12", name], {name: (b"x\n", mtime)})
             for name, mtime in [("f", 0), ("g", 1e9 + 0.7), ("long name here", MTIME), ("\u65e5\u672c", MTIME)]]
    fs.check_all(cases)


def test_huge_input_is_bounded() -> None:
    box = Sandbox({}, policy=Policy(allow=frozenset({"pr", "yes"})), limits=Limits(seconds=1))
    result = box.run("yes | pr -3 > /dev/null")
    assert result.exit_code in (124, 125) and b"Traceback" not in result.stderr
