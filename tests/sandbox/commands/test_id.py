"""id: against GNU coreutils 9.1's ``id`` run for ``root`` (uid 0, one group), its names and
numbers mapped to the sandbox's ``user``/1000; options, combinations, messages, statuses."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import gnu_text_support as gts  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402

ZERO = re.compile(rb"(?<![0-9])0(?![0-9])")


def check(args: list[str]) -> None:
    """Ours on ``args`` equals GNU's on the same arguments for root, mapped."""
    gts.need("id")
    ref_args = ["root" if a == "user" else "0" if a == "1000" else a for a in args]
    opts_end = ref_args.index("--") if "--" in ref_args else len(ref_args)
    has_user = any(not a.startswith("-") for a in ref_args[:opts_end]) or opts_end < len(ref_args) - 1
    if not has_user:
        ref_args = ref_args + ([] if "--" in ref_args else ["--"]) + ["root"]
    ref = subprocess.run(["id", *ref_args], capture_output=True, env=gts.REF_ENV, timeout=30)
    out = ZERO.sub(b"1000", ref.stdout.replace(b"root", b"user"))
    err = ref.stderr.replace(b"root", b"user").replace(b"\xe2\x80\x980\xe2\x80\x99", "‘1000’".encode())
    assert run_command(["id", *args]) == (ref.returncode, out, err), args


HAND = [[], ["-u"], ["-g"], ["-G"], ["-un"], ["-gn"], ["-Gn"], ["-ur"], ["-Gz"], ["-unz"], ["-n"], ["-r"],
        ["-z"], ["-ug"], ["-uG"], ["-a"], ["-au"], ["user"], ["1000"], ["nosuch"], ["-u", "nosuch", "user"],
        ["--user"], ["--group", "--name"], ["--groups", "--zero"], ["--real", "-u"], ["-x"], ["--nope"],
        ["--us"], ["-u", "--", "user"], ["user", "user"], ["-Gn", "user", "nosuch", "1000"]]


@pytest.mark.parametrize("args", HAND)
def test_hand_written(args: list[str]) -> None:
    check(args)


def test_generated() -> None:
    rng = random.Random(5)
    opts = ["-u", "-g", "-G", "-n", "-r", "-z", "-a", "--name", "--user", "-q"]
    for _ in range(60):
        args = rng.sample(opts, rng.randint(0, 3))
        if rng.random() < 0.5:
            args += rng.sample(["user", "1000", "nosuch", "user"], rng.randint(1, 2))
        check(args)


def test_context_needs_selinux() -> None:
    assert run_command(["id", "-Z"]) == (1, b"", b"id: --context (-Z) works only on an SELinux-enabled kernel\n")


def test_never_the_host_user() -> None:
    import getpass
    me = getpass.getuser()
    for argv in (["id"], ["id", "-un"], ["whoami"], ["id", "-Gn"]):
        out = run_command(argv)[1]
        assert me == "user" or me.encode() not in out, argv
    assert run_command(["id", "-u"])[1] == b"1000\n"


@pytest.mark.parametrize("args", [["root"], ["0"], ["-un", "0"], ["-g", "root"], ["-Gn", "root"],
                                  ["-u", "root", "nosuchuser_zq"]])
def test_root_is_in_the_virtual_user_database(args: list[str]) -> None:
    """root (uid 0) exists as on every system: ``id root`` prints what GNU's prints for it."""
    gts.need("id")
    ref = subprocess.run(["id", *args], capture_output=True, env=gts.REF_ENV, timeout=30)
    assert run_command(["id", *args]) == (ref.returncode, ref.stdout, ref.stderr), args
