"""uname: against GNU coreutils 9.1's uname, each host value mapped to the sandbox's virtual
one (the selection, order, ``-a``'s omissions, messages and statuses are GNU's)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands import _identity as ident  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402

OURS = {"-s": ident.KERNEL_NAME, "-n": ident.HOSTNAME, "-r": ident.KERNEL_RELEASE,
        "-v": ident.KERNEL_VERSION, "-m": ident.MACHINE, "-p": ident.PROCESSOR,
        "-i": ident.HARDWARE_PLATFORM, "-o": ident.OPERATING_SYSTEM}


def _host_values() -> dict[str, bytes]:
    return {opt: subprocess.run(["uname", opt], capture_output=True, env=gts.REF_ENV).stdout.rstrip(b"\n")
            for opt in OURS}


def check(args: list[str]) -> None:
    """Ours equals GNU's output with every host field replaced by ours."""
    gts.need("uname")
    host = _host_values()
    if (host["-p"] == b"unknown") != (ident.PROCESSOR == "unknown"):
        pytest.skip("the host's -p is known: -a would differ by design")
    ref = subprocess.run(["uname", *args], capture_output=True, env=gts.REF_ENV, timeout=30)
    out = b" " + ref.stdout.rstrip(b"\n") + b" "
    for opt in sorted(OURS, key=lambda o: -len(host[o])):
        out = out.replace(b" " + host[opt] + b" ", b" \0" + OURS[opt].encode().replace(b" ", b"\1") + b"\0 ")
    out = out.replace(b"\0", b"").replace(b"\1", b" ")[1:-1] + b"\n" if ref.stdout else b""
    assert run_command(["uname", *args]) == (ref.returncode, out, ref.stderr), args


HAND = [[], ["-a"], ["-s"], ["-n"], ["-r"], ["-v"], ["-m"], ["-p"], ["-i"], ["-o"], ["-snrvmpio"], ["-ap"],
        ["--all"], ["--kernel-name", "--nodename"], ["--sysname"], ["--release"], ["--machine", "-o"],
        ["x"], ["-a", "x"], ["-q"], ["--nope"], ["--ker"], ["--"], ["-o", "-s"], ["-pi"]]


@pytest.mark.parametrize("args", HAND)
def test_hand_written(args: list[str]) -> None:
    check(args)


def test_generated() -> None:
    rng = random.Random(11)
    opts = ["-a", "-s", "-n", "-r", "-v", "-m", "-p", "-i", "-o", "--operating-system", "--kernel-release"]
    for _ in range(60):
        args = rng.sample(opts, rng.randint(0, 4))
        if rng.random() < 0.3:
            args = ["-" + "".join(a[1] for a in args if not a.startswith("--"))] if args else args
        check([a for a in args if a != "-"])


def test_never_the_host_values() -> None:
    import os
    import socket
    host = os.uname()
    code, out, _ = run_command(["uname", "-a"])
    for value in (host.nodename, host.release, socket.gethostname()):
        if value and value not in ident.__dict__.values():
            assert value.encode() not in out
    for argv in (["hostname"], ["hostname", "-f"], ["uname", "-n"]):
        assert run_command(argv)[1] == b"sandbox\n"
