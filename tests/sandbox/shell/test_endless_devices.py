"""``/dev/zero``, ``/dev/random`` and ``/dev/urandom``: read as bash reads them, within the
run's allowance of bytes read from endless devices (``Limits.endless_read_bytes``).

Scripts that end in bash (``head -c 16 /dev/urandom``, ``cmp /dev/zero f``, ``shuf
--random-source=/dev/zero``) are compared with bash: stdout, status, files. Scripts that
never end in bash (``sort /dev/zero``, ``cp /dev/zero f``) end here with the limit's one-line
error, with no partial write, before the memory they would take is taken.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import shell_difftools as dt  # noqa: E402

from sandbox import Limits, Policy  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402
from sandbox.fs.vfs import VirtualFS  # noqa: E402
from sandbox.fs.base import FSError  # noqa: E402

needs_bash = pytest.mark.skipif(dt.BASH is None, reason="reference bash not installed")

#: Scripts that end in bash; their output does not depend on which random bytes were read.
ENDING = [
    "head -c 10 /dev/zero | od -c",
    "head -c 100 /dev/urandom | wc -c",
    "head -c 3 < /dev/zero | od -An -tx1",
    "cat /dev/zero | head -c 5 | od -An -tx1",
    "tr -dc 'a-z0-9' < /dev/urandom | head -c 12 | wc -c",
    "od -An -tx1 -N 8 /dev/zero",
    "od -An -tu1 -N 4 /dev/random | wc -w",
    "head -c 64 /dev/urandom | base64 | wc -l",
    "cmp /dev/zero a.txt; echo $?",
    "cmp a.txt /dev/zero; echo $?",
    "head -c 10 /dev/zero > z; cmp z /dev/zero; echo $?; cmp /dev/zero z; echo $?",
    "cmp -n 50 /dev/zero /dev/zero; echo $?",
    "cmp -l -n 3 a.txt /dev/zero; echo $?",
    "shuf -i 1-50 -n 5 --random-source=/dev/zero",
    "printf 'a\\nb\\nc\\n' | shuf --random-source=/dev/zero",
    "shuf -n 3 -i 1-1000 --random-source=/dev/urandom | wc -l",
    "x=$(head -c 6 /dev/urandom | od -An -tu1 | wc -w); echo $x",
    "cat /dev/urandom | sleep 0.1; echo ${PIPESTATUS[@]}",
    "head -c 0 /dev/zero | wc -c",
    "head -c 4 /dev/urandom > r; wc -c < r; rm r",
    "read x < /dev/urandom; echo $?",
    "head -c 2000 /dev/zero | tr '\\0' a | sha1sum",
    "yes | head -c 0; head -c 1 /dev/zero | od -c",
]


@needs_bash
@pytest.mark.parametrize("script", ENDING)
def test_reads_that_end_as_in_bash(script: str) -> None:
    dt.check(script)


#: Scripts that never end in bash (or fill its memory or disk).
ENDLESS = [
    "cat /dev/zero > /dev/null", "tail -n1 /dev/zero", "jq . /dev/zero", "sort /dev/urandom",
    "wc -c < /dev/zero", "mapfile a < /dev/zero", "x=$(< /dev/zero)", "grep -c x /dev/zero",
    "sed q /dev/zero", "awk '{print}' /dev/zero", "cp /dev/zero f.txt", "md5sum /dev/zero",
    "head -n 1 /dev/zero", "tail -c 4 /dev/zero", "cat /dev/zero /dev/zero | wc -c",
    "sort /dev/zero >> f.txt", "cat /dev/urandom | sort | head -c 1", "tac /dev/zero",
]


@pytest.mark.parametrize("script", ENDLESS)
def test_endless_reads_end_at_the_limit(tmp_path: Path, script: str) -> None:
    """The run ends with one line naming the limit; nothing is written; no traceback."""
    (tmp_path / "f.txt").write_text("x\n")
    sb = Sandbox({"/": tmp_path}, policy=Policy(allow=dt.all_commands()),
                 limits=Limits(seconds=10, endless_read_bytes=1 << 20))
    r = sb.run(script)
    assert r.exit_code in (124, 125), (r.exit_code, r.stderr)
    assert b"read limit of 1048576 bytes from /dev/zero and /dev/urandom" in r.stderr, r.stderr
    assert len(r.stderr.splitlines()) <= 2, r.stderr
    assert b"Traceback" not in r.stderr and b"internal error" not in r.stderr
    assert len(r.stdout) <= 1 << 20
    assert (tmp_path / "f.txt").read_text() == "x\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_allowance_is_per_run(tmp_path: Path) -> None:
    """Each run has the whole allowance; one run's reads all count together."""
    sb = Sandbox({"/": tmp_path}, limits=Limits(endless_read_bytes=1000))
    for _ in range(3):
        r = sb.run("head -c 600 /dev/zero | wc -c")
        assert (r.exit_code, r.stdout) == (0, b"600\n"), r.stderr
    r = sb.run("head -c 600 /dev/zero | wc -c; head -c 600 /dev/urandom | wc -c")
    assert r.exit_code == 125 and r.stdout.startswith(b"600\n"), (r.stdout, r.stderr)


def test_a_mount_table_without_a_run_refuses(tmp_path: Path) -> None:
    """Outside a run (no budget attached) the devices are not read at all."""
    vfs = VirtualFS({"/": MemoryFS({})})
    with pytest.raises(FSError, match="endless device"):
        vfs.open_read("/dev/zero")
