"""csplit: differential tests against GNU coreutils 9.1's csplit: stdout (sizes), stderr, exit
status and the files left in the directory, on generated and hand-written inputs."""

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

pytestmark = pytest.mark.skipif(fs.gnu_available("csplit") is not None,
                                reason=str(fs.gnu_available("csplit")))


def check(cases: list[tuple]) -> None:
    """Compare every (argv, tree[, stdin]) case with GNU."""
    fs.check_all(cases)


def numbered(n: int, eol: bytes = b"\n", final: bool = True) -> bytes:
    body = eol.join(b"line %d" % i for i in range(1, n + 1))
    return body + (eol if final and n else b"")


TEXTS = [
    numbered(20), numbered(20, b"\r\n"), numbered(7, final=False), b"", b"\n", b"\n\n\n",
    b"a\nb\na\nb\na\n", b"x" * 70000 + b"\nmatch\n" + b"y" * 9000, b"bad \xff\xfe\nmatch \xc3\n\x80\nend",
    b"nul\x00here\nmatch\x00\nend\n", b"caf\xc3\xa9\nna\xc3\xafve\nmatch\n",
]

PATTERN_WORDS = ["/line 1/", "/5/", "/^line 1$/", "%line 2%", "/a/", "/match/", "/b/+1", "/a/-1",
                 "%a%+2", "/line/", "/^$/", "/nomatch/", "/line 3/-2", "/./", "/\\(a\\)\\1/", "/[0-9]\\{2\\}/",
                 "/\r$/", "/é/", "%^%", "/line [135]/"]


def gen_patterns(rng: random.Random) -> list[str]:
    out: list[str] = []
    last = 0
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.4:
            last += rng.randint(0 if rng.random() < 0.1 else 1, 6)
            out.append(str(max(last, 1)))
        else:
            out.append(rng.choice(PATTERN_WORDS))
        if rng.random() < 0.35:
            out.append(rng.choice(["{*}", "{1}", "{2}", "{0}", "{5}"]))
    return out


def gen_options(rng: random.Random) -> list[str]:
    opts: list[str] = []
    for _ in range(rng.randint(0, 3)):
        opts.extend(rng.choice([["-s"], ["-q"], ["-k"], ["-z"], ["--suppress-matched"], ["-n", "3"], ["-n1"],
                                ["-f", "part"], ["-b", "%03d.txt"], ["-b", "%x"], ["--prefix=p-"], ["--elide-empty-files"],
                                ["--keep-files"], ["-n", "0"], ["-b", "_%#o_"]]))
    return opts


def test_generated() -> None:
    rng = random.Random(4321)
    cases = []
    for _ in range(200):
        text = rng.choice(TEXTS) if rng.random() < 0.4 else fs.random_content(rng)
        if rng.random() < 0.5:
            lines = text.split(b"\n")
            for _ in range(rng.randint(1, 4)):
                lines.insert(rng.randint(0, len(lines)), rng.choice([b"a", b"b", b"match", b"line 5", b""]))
            text = b"\n".join(lines)
        argv = ["csplit", *gen_options(rng)]
        if rng.random() < 0.2:
            cases.append((argv + ["-", *gen_patterns(rng)], {}, text))
        else:
            cases.append((argv + ["in", *gen_patterns(rng)], {"in": text}))
    check(cases)


@pytest.mark.parametrize("args", [
    "in 3", "in 3 {*}", "in 3 {2}", "in 5 5", "in 5 3", "in 0", "in 21", "in 20", "in 20 21", "in 10 {1}",
    "in /line 1/ {*}", "in %line 1% {*}", "in /5/ {2}", "in /5/+2 /9/-3", "in /line 9/-20", "in /x/", "-k in /x/",
    "in /line 1/-5", "in %line 1%-1", "in /line 3/ /line 3/", "in /line 1", "in '/a/x'", "in '/a/ 1'", "in /a/+",
    "in '{2}'", "in 2 '{x}'", "in 2 '{3'", "in 2 '{ 3}'", "in 2 '{*}x'", "in 2 '{}'", "in ' +2'", "in -- -3",
    "in 2 {1} {1}", "in /[/", "in '/\\(/'", "in '/a\\{1/'", "--suppress-matched in /line 5/ {*}",
    "--suppress-matched in 5 {*}", "--suppress-matched in 5", "--suppress-matched in 20", "--suppress-matched in /line 20/",
    "--suppress-matched in %line 3%", "--suppress-matched in /line 1/-1", "-z in /line/ {*}", "-z in 1 2 3",
    "-s in 5", "-q in 5", "--quiet in 5", "--silent in 5", "-f out in 5", "-f sub/out in 5", "--prefix=p in 5",
    "-n 1 in 2 {*}", "-n 5 in 5", "-n 0 in 5", "-n x in 5", "-n -1 in 5", "-n 99999999999 in 5", "-n '' in 5",
    "-n ' 3' in 5", "--digits=4 in 5", "-b %03d in 5", "-b %x.txt in 2 {*}", "-b %X in 2 {*}", "-b %#o in 2 {*}",
    "-b %#x in 2 {*}", "-b %-4d| in 3", "-b %.3u in 3", "-b %5.2i in 3", "-b %%%d%% in 3", "-b % in 3",
    "-b a in 3", "-b %d%d in 3", "-b %l in 3", "-b \"%'x\" in 3", "-b %#d in 3", "-b %+d in 3", "-b \"%'d\" in 3",
    "-b %s in 3", "-b %05d in 3", "-b %-05d in 3", "-b %08.3x in 3", "--suffix-format=%d in 3", "in", "",
    "nonexist 3", "d 3", "in 3 --foo", "-n x --foo in 3", "--foo -n x in 3", "-n x --help", "--version --foo", "-x in 3", "--help", "--version", "-k in 30", "-k in 5 {9}",
])
def test_command_lines(args: str) -> None:
    argv = ["csplit", *shlex.split(args)]
    ref_run = subprocess.run(argv, capture_output=True, env=fs.ENV, stdin=subprocess.DEVNULL)
    if ("--help" in argv or "--version" in argv) and ref_run.returncode == 0:
        ref = ref_run.stdout
        code, out, _ = run_command(argv)
        assert code == 0 and out and ref.startswith(out)
        return
    check([(argv, {"in": numbered(20), "d": None})])


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: repr(t[:20]))
@pytest.mark.parametrize("patterns", [["/match/"], ["2", "/a/", "{*}"], ["%b%", "{*}"], ["/^$/", "{*}"], ["3", "{*}"]])
def test_inputs(text: bytes, patterns: list[str]) -> None:
    check([(["csplit", "in", *patterns], {"in": text}), (["csplit", "-", *patterns], {}, text),
           (["csplit", "-z", "--suppress-matched", "in", *patterns], {"in": text})])


def test_empty_input_messages() -> None:
    check([(["csplit", "e", "1"], {"e": b""}), (["csplit", "e", "/x/"], {"e": b""}),
           (["csplit", "-k", "e", "1", "1"], {"e": b""}), (["csplit", "e", "%x%"], {"e": b""}),
           (["csplit", "e", "/x/", "{*}"], {"e": b""})])


def test_read_only_policy_refuses_before_running(tmp_path: Path) -> None:
    (tmp_path / "in").write_bytes(numbered(5))
    box = Sandbox({"/": tmp_path}, policy=Policy(allow=frozenset({"csplit"}), read_only=True),
                  limits=Limits(seconds=5))
    result = box.run("csplit in 2")
    assert result.exit_code == 126 and b"xx00" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_writes_declares_first_file() -> None:
    from sandbox.commands.csplit import writes
    assert writes(["in", "3"]) == ["xx00"]
    assert writes(["-f", "p", "-n", "4", "in", "3"]) == ["p0000"]
    assert writes(["-b", "%03x.t", "in", "3"]) == ["xx000.t"]


def test_infinite_input_is_bounded() -> None:
    box = Sandbox({}, policy=Policy(allow=frozenset({"csplit", "yes"})), limits=Limits(seconds=1))
    result = box.run("cd /tmp && yes | csplit - 5")
    assert result.exit_code in (124, 125)
    assert result.stderr.count(b"\n") == 1 and b"Traceback" not in result.stderr
