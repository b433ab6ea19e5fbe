"""which: against debianutils' which run with a PATH of one directory holding an executable
for each allowed command (its output path mapped to the virtual ``/usr/bin``)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile

import pytest

from sandbox.commands.testing import run_command
from sandbox.policy import Policy

ALLOWED = frozenset({"grep", "ls", "cat", "which", "rm", "nosuchcommand"})
POLICY = Policy(allow=ALLOWED)


def reference(args: list[str]) -> tuple[int, bytes, bytes]:
    """Run the real which with PATH = a bin directory of the commands ours would find."""
    which = shutil.which("which")
    if which is None:
        pytest.skip("reference tool 'which' is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        bindir = os.path.join(tmp, "usr", "bin")
        os.makedirs(bindir)
        for name in ALLOWED - {"nosuchcommand"}:  # allowed but not a command: not found
            path = os.path.join(bindir, name)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(path, 0o755)
        args = [tmp + a if a.startswith("/usr/bin/") else a for a in args]
        proc = subprocess.run(["/bin/sh", which, *args], capture_output=True, timeout=30,
                              env={"PATH": bindir, "LC_ALL": "C.UTF-8"})
        out = proc.stdout.replace(tmp.encode(), b"").replace(which.encode(), b"/usr/bin/which")
        return proc.returncode, out, proc.stderr


def check(args: list[str]) -> None:
    """Ours and the reference agree."""
    assert run_command(["which", *args], policy=POLICY) == reference(args), args


HAND = [[], ["ls"], ["-a", "ls"], ["ls", "nope"], ["nope"], ["-a", "ls", "grep", "x"], ["--", "ls"],
        ["-x", "ls"], ["-ax"], ["ls", "-a"], ["/usr/bin/ls"], ["/usr/bin/sed"], ["/usr/bin/"], ["/usr/bin/ls/"], ["./ls"], [""], ["nosuchcommand"],
        ["sed"], ["-"], ["-aa", "cat"], ["--", "-a"]]


@pytest.mark.parametrize("args", HAND)
def test_hand_written(args: list[str]) -> None:
    check(args)


def test_generated() -> None:
    rng = random.Random(3)
    words = ["ls", "grep", "cat", "rm", "which", "sed", "nope", "-a", "--", "x/y", "/usr/bin/grep", "/usr/bin/nope", "nosuchcommand", "-b", ""]
    for _ in range(60):
        check([rng.choice(words) for _ in range(rng.randint(0, 4))])


def test_default_policy_knows_its_commands() -> None:
    code, out, _ = run_command(["which", "grep", "python3", "bash"])
    assert (code, out) == (1, b"/usr/bin/grep\n")


def test_sees_commands_the_embedder_registered() -> None:
    """``Sandbox(commands=...)``: an allowed embedder command is found like any other; one the
    policy does not allow is not."""
    from sandbox.api import Sandbox
    from sandbox.fs.memory import MemoryFS

    def hello(ctx) -> int:  # type: ignore[no-untyped-def]
        ctx.stdout.write(b"hi\n")
        return 0

    sb = Sandbox({"/": MemoryFS({})}, commands={"hello": hello, "secret": hello},
                 policy=Policy(allow=frozenset({"which", "hello", "cat"})))
    r = sb.run("which hello cat; echo $?; which secret; echo $?; which -a hello")
    assert r.stdout == b"/usr/bin/hello\n/usr/bin/cat\n0\n1\n/usr/bin/hello\n", r
