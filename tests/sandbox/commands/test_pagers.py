"""Differential tests of ``more`` (util-linux 2.38.1) and ``less`` (less 590) with stdout a pipe:
the real tools run on the same files and stdin, in a new session (no controlling terminal, as
in the sandbox), and stdout, stderr, exit status and the files left must match byte for byte."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402
import text_cmds_support as tcs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402

CASES = int(os.environ.get("TEXT_CMDS_CASES", "60"))


def _reference(argv: list[str], stdin: bytes, files: dict[str, bytes], dirs: list[str],
               env: dict[str, str]) -> tuple[int, bytes, bytes, dict[str, bytes]]:
    with tempfile.TemporaryDirectory() as tmp:
        for name in dirs:
            os.makedirs(os.path.join(tmp, name), exist_ok=True)
        for name, data in files.items():
            Path(tmp, name).write_bytes(data)
        proc = subprocess.run(argv, input=stdin, cwd=tmp, env={**gts.REF_ENV, **env},
                              capture_output=True, timeout=60, start_new_session=True)
        left = {n: Path(tmp, n).read_bytes() for n in os.listdir(tmp) if Path(tmp, n).is_file()}
        return proc.returncode, proc.stdout, proc.stderr, left


def compare(argv: list[str], stdin: bytes = b"", files: dict[str, bytes] | None = None,
            dirs: list[str] | None = None, env: dict[str, str] | None = None) -> None:
    """Assert ours equals the real tool on stdout, stderr, status and the files left."""
    gts.need(argv[0])
    files, dirs, env = dict(files or {}), list(dirs or []), dict(env or {})
    ref = _reference(argv, stdin, files, dirs, env)
    vfs = VirtualFS({"/": MemoryFS(dict(files))})
    for name in dirs:
        vfs.mkdir("/" + name)
    ours = run_command(argv, stdin=stdin, fs=vfs, env=env)
    left = {n: vfs.read_bytes("/" + n) for n in vfs.listdir("/")
            if n != "dev" and vfs.stat("/" + n).is_file}
    where = f"{argv!r} stdin={stdin[:200]!r} files={ {k: v[:60] for k, v in files.items()} } env={env}"
    assert ours[1] == ref[1], f"stdout differs\n ours={ours[1][:1500]!r}\n  ref={ref[1][:1500]!r}\n {where}"
    assert ours[2] == ref[2], f"stderr differs\n ours={ours[2]!r}\n  ref={ref[2]!r}\n {where}"
    assert ours[0] == ref[0], f"status {ours[0]} != {ref[0]}\n {where}"
    assert left == ref[3], f"files differ\n {where}"


FILES = {"x": b"a\nb\n", "y": b"one\ntwo", "e": b"", "-": b"dash\n",
         "elf": b"\x7fELF\x02\x01rest\n", "aout": b"\x07\x01xx", "bin": b"\x00" * 8 + b"data\n",
         "esc": b"\x1b[1mbold\x1b[0m\x1b[1mx\x1b[0m\x1b[4mu\x1b[0m\n",
         "utf": "café ünïcode\n".encode()}
DIRS = ["d"]

MORE_WORDS = ["x", "y", "e", "-", "elf", "aout", "bin", "d", "nope", "./x", "-d", "-f", "-l",
              "-c", "-p", "-s", "-u", "-e", "-5", "-0", "-99999", "+3", "+0", "+/a", "+/", "+",
              "-n", "3", "-n3", "-nx", "--lines=4", "--lines", "--li=2", "--silent", "--plain",
              "--squeeze", "--s", "--p", "--bogus", "-z", "-dz", "--", "-V", "--help", "-h",
              "--version", "-32768", "-32769", "+2147483648", "-n 5", "--exit-on-eof", "-sf"]


def _gen_more(rng: random.Random) -> tuple[list[str], bytes, dict[str, bytes] | None]:
    words = [rng.choice(MORE_WORDS) for _ in range(rng.randint(0, 5))]
    if rng.random() < 0.1:
        words = [w for w in words if w not in ("-V", "--help", "-h", "--version")]
    stdin = rng.choice([b"", b"stdin\n", tcs.gen_text(rng, 5)])
    return ["more"] + words, stdin, None


def test_more_generated() -> None:
    rng = random.Random(4101)
    for _ in range(CASES):
        argv, stdin, _ = _gen_more(rng)
        compare(argv, stdin, FILES, DIRS)


@pytest.mark.parametrize("args", [
    [], ["x"], ["x", "y"], ["nope"], ["d"], ["x", "nope", "d", "x"], ["elf", "aout", "bin"],
    ["-n", "x"], ["-n", "-1", "x"], ["-n", ""], ["-n", " 5", "x"], ["-n", "5 "], ["-n", "+5"],
    ["--lines=-5"], ["-n", "-5x"], ["-n", " -x"], ["--lines=-0", "x"], ["-n", "65535"],
    ["-n", "65536"], ["-n", "99999999999999999999"], ["-40000"], ["+99999999999", "x"],
    ["--squeeze=3"], ["-z", "-V"], ["-V", "-z"], ["--help", "-z"], ["-", "x"], ["--", "-z"],
    ["e"], ["e", "x"], ["utf", "esc"],
])
def test_more_cases(args: list[str]) -> None:
    compare(["more"] + args, b"in\n", FILES, DIRS)


@pytest.mark.parametrize("value", ["-z", "-n x", "x y", "-V", "--bogus", "  -s  ", "-5", "+/x",
                                   "-99999", "--lines", ""])
def test_more_env(value: str) -> None:
    compare(["more", "x"], b"in\n", FILES, DIRS, env={"MORE": value})


LESS_WORDS = ["x", "y", "e", "-", "elf", "bin", "esc", "utf", "d", "nope", "./x", "-N", "-S",
              "-R", "-r", "-f", "-i", "-+f", "-b", "5", "-b5", "-bx", "-z", "-z3", "-10", "-x4",
              "-x", "-j.5", "-jx", "-#x", "-#3", "-P", "-Pfoo", "-Pa$bc", "-o", "log", "-olog",
              "-O", "-p", "pat", "-ppat", "-t", "tag", "-T", "-h", "-y", "-k", "-ko", "+G", "+/a",
              "++G", "+", "--", "--bogus", "--buffers=3", "--buffers5", "--bu", "--s", "--QUIT",
              "--quit-at-eof", "--QUIT-AT-EOF", "--force", "--force=1", "--tabs=4", "--window=x",
              "--wheel-lines=x", "--line-num-width=99", "--status-col-width=9", "--mouse",
              "--use-color", "--rscroll=ab", "-V", "--version", "--help", "-?", '-"abc', '-"ab',
              "-~", "-+", "-Q", "-e", "-E", "-F", "-X", "-K", "-s", "-u", "-U", "-w", "-W",
              "--no-keypad", "--incsearch", "--pattern=a", "--prompt", "-\x1b", "-m", "-M"]


def _gen_less(rng: random.Random) -> tuple[list[str], bytes]:
    words = [rng.choice(LESS_WORDS) for _ in range(rng.randint(0, 6))]
    if rng.random() < 0.7:
        words = [w for w in words if w not in ("-V", "--version", "--help", "-?")]
    stdin = rng.choice([b"", b"stdin\n", b"y", b"n\nrest\n", tcs.gen_text(rng, 5)])
    return ["less"] + words, stdin


def test_less_generated() -> None:
    rng = random.Random(4102)
    for _ in range(CASES):
        argv, stdin = _gen_less(rng)
        compare(argv, stdin, FILES, DIRS)


@pytest.mark.parametrize("args,stdin", [
    ([], b"stdin\n"), (["x"], b""), (["x", "x", "./x"], b""), (["x", "nope", "d", "x"], b""),
    (["-"], b"in\n"), (["-", "x", "-"], b"in\n"), (["bin"], b""), (["bin", "x"], b"y"),
    (["bin", "x"], b"n"), (["bin", "-", "x"], b"yes\n"), (["-f", "bin"], b""),
    (["-f", "d", "x"], b""), (["/dev/null", "x"], b""), (["-b"], b""), (["-b", "--", "x"], b""),
    (["-bb", "x"], b""), (["-z", "x"], b"in\n"), (["--", "-x", "x"], b""), (["-V"], b""),
    (["--help", "x"], b""), (["-?"], b""), (["-Q?"], b""), (["+", "x"], b""), (["-+", "x"], b""),
    (["esc"], b""), (["-R", "esc"], b""), (["-r", "esc"], b""), (["utf"], b""),
    (["-o", "log", "x"], b""), (["-Olog", "x"], b""), (["--log-file=l", "x"], b""),
    (["-k", "nope", "x"], b""), (["--lesskey-src=nope", "x"], b""),
])
def test_less_cases(args: list[str], stdin: bytes) -> None:
    compare(["less"] + args, stdin, FILES, DIRS)


@pytest.mark.parametrize("value", ["-b", "-N", "--bogus", "-z x", "-V", "-Pa$b", ""])
def test_less_env(value: str) -> None:
    compare(["less", "x"], b"in\n", FILES, DIRS, env={"LESS": value})


def test_less_binary_threshold() -> None:
    """bin_file's count: more than five binary characters in the first 256 bytes."""
    samples = [b"\0" * 5, b"\0" * 6, b"\x1b" * 6, b"\b\t\f\r\n" * 6 + b"\v",
               "\ue000".encode() * 6, b"\xa0" * 6, b"\x80" * 6, b"\xc3" * 6, b"\xc2\x80" * 6,
               b"x" * 251 + b"\0" * 6, b"x" * 250 + b"\0" * 6, b"\xed\xa0\x80" * 6,
               b"\xc0\x80" * 6, b"\xe0\x80\x80" * 6, b"\xf8\x88\x80\x80\x80" * 6, b"\xfe" * 6]
    for sample in samples:
        compare(["less", "f", "x"], b"n", {"f": sample, "x": b"x\n"})
