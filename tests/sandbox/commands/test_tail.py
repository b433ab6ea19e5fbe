"""tail: unit tests and differential tests against GNU tail."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import files_support as fsup  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.fs.base import FSError  # noqa: E402
from sandbox.fs.local import LocalDir  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402

SKIP = fsup.gnu_available("tail")
needs_gnu = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


def test_last_lines_and_from_start() -> None:
    files = {"a": b"1\n2\n3\n"}
    assert run_command(["tail", "-n", "2", "a"], files=files) == (0, b"2\n3\n", b"")
    assert run_command(["tail", "-n", "+2", "a"], files=files) == (0, b"2\n3\n", b"")
    assert run_command(["tail", "-c", "3", "a"], files=files) == (0, b"\n3\n", b"")


def test_follow_is_refused() -> None:
    code, out, err = run_command(["tail", "-f", "a"], files={"a": b"x\n"})
    assert code == 1 and b"not supported" in err and out == b""


def test_reads_only_the_end_of_a_big_file(tmp_path: Path) -> None:
    """tail -n 3 on a seekable file reads a few blocks from the end, not the whole file."""
    big = tmp_path / "big"
    with open(big, "wb") as f:
        for i in range(200_000):
            f.write(b"line %d\n" % i)
    read_bytes = []

    class CountingDir(LocalDir):
        def open_read(self, path):
            inner = super().open_read(path)
            real_read = inner.read

            class Wrapper(io.BufferedReader):
                pass

            def counted(n=-1):
                data = real_read(n)
                read_bytes.append(len(data))
                return data

            inner.read = counted  # type: ignore[method-assign]
            return inner

    try:
        fs = VirtualFS({"/": CountingDir(tmp_path)})
    except FSError:
        pytest.skip("tmp dir not usable")
    code, out, _ = run_command(["tail", "-n", "3", "big"], fs=fs)
    assert (code, out) == (0, b"line 199997\nline 199998\nline 199999\n")
    assert sum(read_bytes) < 200_000 < big.stat().st_size


COUNTS = ["0", "1", "2", "3", "7", "100", "+0", "+1", "+2", "+5", "+100", "-3", "1k", "1b", "2K", "1KiB", "1kB",
          " 2", "k", "x", "", "1x", "+x", "0x10", "010", "99999999999999999999999", "+99999999999999999999999",
          "1Q", "1Y", "1bB", "--1", "++1"]


@needs_gnu
def test_counts_and_suffixes() -> None:
    tree = {"f": b"".join(b"line %d\n" % i for i in range(3000)), "g": b"a\nb"}
    cases = []
    for n in COUNTS:
        cases.append((["tail", "-n", n, "f", "g"], tree))
        cases.append((["tail", "-c", n, "g", "f"], tree))
    fsup.check_all(cases)


@needs_gnu
def test_obsolete_and_option_forms() -> None:
    tree = {"f": b"".join(b"%d\n" % i for i in range(5000)), "e": b"", "-x": b"dash\n"}
    forms = [["-3"], ["-3c"], ["-3l"], ["-1b"], ["+3"], ["+3c"], ["+c"], ["-l"], ["-b"], ["-c"], ["+"], ["-"],
             ["-3q"], ["-3x"], ["-1bc"], ["-0"], ["+0"], ["-99999999999999999999999"], ["-n", "3", "-5"],
             ["-q"], ["-v"], ["-qv"], ["--lines=4"], ["--bytes=+10"], ["--li", "2"], ["--quiet"], ["--verbose"],
             ["-n"], ["--bogus"], ["-y"], ["-n", "1", "-c", "3"], ["-c", "3", "-n", "1"], ["-z", "-n", "1"],
             ["-z", "-n", "+2"], ["-s", "1"], ["--retry", "-n1"]]
    cases = []
    for form in forms:
        cases.append((["tail"] + form + ["f"], tree))
        cases.append((["tail"] + form, tree, b"in1\nin2\n"))
        cases.append((["tail"] + form + ["-x"], tree))
        cases.append((["tail"] + form + ["f", "e", "-", "missing", "."], tree, b"in1\nin2\n"))
    fsup.check_all(cases)


@needs_gnu
@pytest.mark.parametrize("seed", range(8))
def test_random(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(30):
        tree = fsup.random_files(rng, rng.randint(1, 3))
        opts = []
        for _ in range(rng.randint(0, 3)):
            kind = rng.choice(["-n", "-c", "-q", "-v", "-z"])
            if kind in ("-n", "-c"):
                opts += [kind, rng.choice(["", "+", "-"]) + str(rng.choice([0, 1, 2, 5, 10, 50, 1000, 70001]))]
            else:
                opts.append(kind)
        operands = rng.sample(sorted(tree) + ["-"], rng.randint(0, len(tree)))
        cases.append((["tail"] + opts + operands, tree, fsup.random_content(rng)))
    fsup.check_all(cases)


def _pipe_input(rng: random.Random) -> bytes:
    """Lines of very different lengths (some longer than a 64 KiB block), NUL bytes, with
    or without a final newline."""
    kind = rng.random()
    if kind < 0.3:
        parts = [b"x" * rng.choice([0, 1, 5, 70_000, 140_000]) for _ in range(rng.randrange(1, 6))]
    else:
        parts = [bytes(rng.choice(b"ab \0") for _ in range(rng.randrange(0, 60)))
                 for _ in range(rng.randrange(0, 4000))]
    data = b"\n".join(parts)
    if rng.random() < 0.6:
        data += b"\n"
    return data


@needs_gnu
@pytest.mark.parametrize("seed", range(40))
def test_last_lines_of_a_pipe_match_gnu(seed: int, tmp_path: Path) -> None:
    """tail -n / -z -n reading a pipe (not seekable: it keeps blocks, not records), through
    the sandbox shell, against GNU tail reading the same bytes from a pipe."""
    import subprocess

    from sandbox.api import Sandbox

    rng = random.Random(seed)
    data = _pipe_input(rng)
    (tmp_path / "in").write_bytes(data)
    lines = data.count(b"\n")
    for _ in range(4):
        count = rng.choice([0, 1, 2, 3, 10, lines, lines + 1, rng.randrange(lines + 2)])
        flags = ["-z"] if rng.random() < 0.2 else []
        argv = ["tail", *flags, "-n", str(count)]
        gnu = subprocess.run(argv, input=data, capture_output=True, env={"LC_ALL": "C.UTF-8"})
        ours = Sandbox({"/m": str(tmp_path)}, cwd="/m").run(f"cat in | {' '.join(argv)}")
        assert (ours.exit_code, ours.stdout) == (gnu.returncode, gnu.stdout), \
            f"seed {seed}: cat in | {' '.join(argv)}"
