"""whoami: the virtual user, and GNU coreutils 9.1's messages (compared with the real whoami,
the user name mapped)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402


def check(args: list[str]) -> None:
    """Same status and stderr as GNU; stdout is our user where GNU prints its own."""
    gts.need("whoami")
    ref = subprocess.run(["whoami", *args], capture_output=True, env=gts.REF_ENV, timeout=30)
    host = subprocess.run(["whoami"], capture_output=True, env=gts.REF_ENV).stdout
    out = b"user\n" if ref.stdout == host else ref.stdout
    code, our_out, our_err = run_command(["whoami", *args])
    if our_out.startswith(b"Usage:"):
        assert ref.stdout.startswith(our_out) and code == ref.returncode
        return
    assert (code, our_out, our_err) == (ref.returncode, out, ref.stderr), args


@pytest.mark.parametrize("args", [[], ["x"], ["-u"], ["--nope"], ["--", "x"], ["--"], ["a", "b"], ["--help"]])
def test_hand_written(args: list[str]) -> None:
    check(args)


def test_generated() -> None:
    rng = random.Random(2)
    for _ in range(50):
        check([rng.choice(["x", "-a", "--", "-", "--he", "--foo", "user", ""]) for _ in range(rng.randint(0, 3))])


def test_is_virtual() -> None:
    assert run_command(["whoami"]) == (0, b"user\n", b"")
