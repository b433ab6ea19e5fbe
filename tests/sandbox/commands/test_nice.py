"""Differential tests of ``nice`` against GNU coreutils 9.1 (through the whole sandbox): the
printed niceness, adjustments in every form (``-n N``, ``--adjustment``, the obsolete ``-N``),
clamping, GNU's messages and exit statuses; lowering the niceness is compared with GNU run as
an unprivileged user (the sandbox's user is not privileged); the guard checks the command."""

from __future__ import annotations

import os
import random
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from exec_support import ENV, check_all, missing  # noqa: E402

from sandbox import Limits, Policy  # noqa: E402
from sandbox import commands as registry  # noqa: E402
from sandbox.api import Sandbox  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402

pytestmark = pytest.mark.skipif(missing("nice") is not None, reason=str(missing("nice")))

HAND = [
    "nice", "nice; echo $?", "nice nice", "nice -n 5 nice", "nice -n5 nice", "nice -5 nice",
    "nice -+5 nice", "nice -n +3 nice", "nice --adjustment=7 nice",
    "nice --adj 7 nice", "nice --a=7 nice", "nice -n 0 nice", "nice -n 19 nice",
    "nice -n 20 nice", "nice -n 99999999999999999999999 nice", "nice -n ' 5' nice",
    "nice -n '5 ' nice; echo $?", "nice -n 5x nice; echo $?", "nice -n '' nice; echo $?",
    "nice -n x nice; echo $?", "nice -n 1.5 nice; echo $?", "nice -n; echo $?",
    "nice -n 5; echo $?", "nice -5; echo $?", "nice -x; echo $?", "nice --bogus; echo $?",
    "nice --help=x; echo $?", "nice --adjustment; echo $?", "nice -- nice", "nice -n 3 -- nice",
    "nice -5 -n 2 nice", "nice -n 2 -5 nice", "nice -n 4 nice -n 4 nice", "nice nice nice",
    "nice -n 15 nice -n 15 nice", "nice -n 3 echo a b c", "nice cat f1", "echo in | nice cat", "nice false; echo $?",
    "nice -n 2 env nice", "nice --help", "nice --version", "nice --vers",
    "nice -n 5 --help | head -1", "nice -n -0 nice",
    "nice -n 5 printf '%s\\n' x", "nice -ni nice; echo $?",
]


@pytest.mark.parametrize("script", HAND)
def test_hand_written(script: str) -> None:
    check_all([(script, {"f1": b"one\n"})])


def test_generated() -> None:
    """Random adjustments in random forms, nested up to three deep."""
    rng = random.Random(515)
    forms = [lambda n: ["-n", n], lambda n: ["-n" + n], lambda n: ["--adjustment=" + n],
             lambda n: ["-" + n.lstrip("+")] if n[:1] not in "-" else ["-" + n]]
    cases = []
    for _ in range(int(os.environ.get("NICE_CASES", "60"))):
        words: list[str] = []
        for _ in range(rng.randint(1, 3)):
            words.append("nice")
            if rng.random() < 0.8:
                n = rng.choice(["0", "1", "5", "10", "19", "25", "+4", "007", "40", "123456"])
                words += rng.choice(forms)(n)
        words += rng.choice([["nice"], ["echo", "x"], ["cat", "f1"], []])
        cases.append((shlex.join(words) + "; echo $?", {"f1": b"one\n"}))
    check_all(cases)


_SETPRIV = shutil.which("setpriv")


@pytest.mark.skipif(_SETPRIV is None or os.geteuid() != 0,
                    reason="needs setpriv and root to run GNU nice as an unprivileged user")
@pytest.mark.parametrize("script", [
    "nice -n -5 nice; echo $?", "nice --5 nice", "nice -n 5 nice -n -2 nice",
    "nice -n -100 echo x; echo $?", "nice -n 3 nice -n 0 nice", "nice -n -0 nice",
    "nice -n 19 nice -n -19 nice",
])
def test_lowering_is_refused_as_for_an_unprivileged_user(script: str, tmp_path: Path) -> None:
    ref = subprocess.run([_SETPRIV, "--reuid=65534", "--regid=65534", "--clear-groups",
                          "bash", "-c", script], capture_output=True, env=ENV, cwd="/",
                         timeout=30)
    sb = Sandbox({"/w": MemoryFS({})}, cwd="/w", policy=Policy(allow=registry.names()),
                 limits=Limits(seconds=10), env={"LC_ALL": "C.UTF-8", "TZ": "UTC"})
    r = sb.run(script)
    assert (r.exit_code, r.stdout, r.stderr) == (ref.returncode, ref.stdout, ref.stderr)


@pytest.mark.parametrize("script,why", [
    ("nice bash -c 'rm f'", "never runs"),
    ("nice -n 5 sh", "never runs"),
    ("nice python3 -c 1", "not an allowed command"),
    ("x=rm; nice $x f", "named at run time"),
    ("nice -n 3 nice env sh", "never runs"),
    ("nice rm f", "read-only"),
    ("nice -5 touch g", "read-only"),
])
def test_guard_checks_the_wrapped_command(script: str, why: str) -> None:
    check_refused(script, why, frozenset({"nice", "env", "rm", "touch", "echo"}))


def check_refused(script: str, why: str, allow: frozenset) -> None:
    """The guard refuses ``script`` with ``why`` before anything runs (the files of a memory
    mount stay as they were; ``echo ran > g`` before it never ran); ``why == "read-only"``
    runs it under a read-only policy."""
    fs = MemoryFS({"f": b"x"})
    sb = Sandbox({"/w": fs}, cwd="/w",
                 policy=Policy(allow=allow, read_only=why == "read-only"), limits=Limits(seconds=5))
    r = sb.run("echo ran > /w/g; " + script if why != "read-only" else script)
    assert r.exit_code in (1, 126), r
    assert why in r.stderr.decode(), r.stderr
    assert fs.listdir("") == ["f"] and fs.read_bytes("f") == b"x"
