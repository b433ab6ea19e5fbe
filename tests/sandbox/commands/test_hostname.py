"""hostname: the virtual name, the display options, and net-tools' refusals and statuses
(compared with the real hostname where it does not change the host: never with an operand)."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from sandbox.commands.testing import run_command

SAFE = [[], ["-s"], ["-f"], ["--short"], ["--fqdn"], ["--long"], ["-z"], ["--nope"], ["-sz"]]


def check(args: list[str]) -> None:
    """Same status and stderr; stdout maps the host's name to ``sandbox``; usage text only
    compared by its first line (ours is shorter)."""
    if shutil.which("hostname") is None:
        pytest.skip("reference tool 'hostname' is not installed")
    ref = subprocess.run(["hostname", *args], capture_output=True, timeout=30)
    host = subprocess.run(["hostname"], capture_output=True).stdout
    code, out, err = run_command(["hostname", *args])
    assert (code, err) == (ref.returncode, ref.stderr), args
    if ref.stdout.startswith(b"Usage"):
        assert out.splitlines()[:3] == ref.stdout.splitlines()[:3]
    elif ref.stdout.strip() and ref.stdout.strip() in host:
        assert out == b"sandbox\n"
    else:
        assert out == ref.stdout


@pytest.mark.parametrize("args", SAFE)
def test_hand_written(args: list[str]) -> None:
    check(args)


def test_generated() -> None:
    rng = random.Random(4)
    for _ in range(50):
        check(rng.sample(["-s", "-f", "--short", "--long", "-q", "--bogus"], rng.randint(0, 2)))


def test_setting_the_name_is_refused() -> None:
    assert run_command(["hostname", "other"]) == (1, b"", b"hostname: you must be root to change the host name\n")
    assert run_command(["hostname", "-F", "f"])[0] == 1
    assert run_command(["hostname", "a", "b"])[0] == 255


def test_network_options_are_refused_in_one_line() -> None:
    code, out, err = run_command(["hostname", "-I"])
    assert code == 1 and out == b"" and err.count(b"\n") == 1
