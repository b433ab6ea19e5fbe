"""A command name that no command of the sandbox has runs as bash runs a missing program:
``bash: NAME: command not found``, status 127, and the script goes on (under ``xargs``,
``find -exec``, ``timeout``, ``env``, ``nice``: the runner's own "No such file or directory",
127). It is not refused before the run (nothing can run, so there is nothing to refuse). Names the sandbox has but the
policy does not allow, shells, forbidden builtins and paths are still refused by the guard.

Each script runs under real bash (with a PATH where the made-up names exist nowhere) and under
the sandbox; stdout, status, files and stderr (without bash's ``line N:``) must agree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sandbox import Policy
from sandbox.api import Sandbox
from sandbox.fs.memory import MemoryFS
from sandbox.guard import check
from sandbox.parse import parse

sys.path.insert(0, str(Path(__file__).parent))
from shell_difftools import check as check_same  # noqa: E402

SCRIPTS = [
    "nosuch_zq; echo $?",
    "nosuch_zq ; [ $? -ne 0 ] && echo yes",
    "nosuch_zq a b c 2>/dev/null || echo fallback",
    "nosuch_zq >out.txt; echo $?; cat out.txt",
    "x=$(nosuch_zq 2>/dev/null); echo \"[$x] $?\"",
    "if nosuch_zq; then echo ran; else echo \"missing $?\"; fi",
    "set -e; echo before; nosuch_zq; echo after",
    "nosuch_zq | wc -l; echo ${PIPESTATUS[@]}",
    "NOSUCH=1 nosuch_zq; echo $?",
    "'' ; echo $?",
    "/usr/bin/nosuch_zq -x; echo $?",
    "/bin/nosuch_zq 2>/dev/null || echo gone",
    # under a command that runs another, the runner fails to find it, as GNU's does
    "echo a | xargs nosuch_zq; echo $?",
    "echo a b | xargs -n1 -r nosuch_zq x; echo $?",
    "timeout 5 nosuch_zq; echo $?",
    "find . -maxdepth 1 -name a.txt -exec nosuch_zq {} +; echo $?",
    "find . -maxdepth 1 -name a.txt -exec nosuch_zq {} \\; ; echo $?",
    "env nosuch_zq; echo $?",
    "env -i A=1 nosuch_zq x; echo $?",
    "nice nosuch_zq; echo $?",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_missing_command_runs_as_bash_runs_it(script: str) -> None:
    check_same(script)


def test_missing_command_in_a_function() -> None:
    # bash -c names itself "environment" in this one message; stdout and status must agree
    check_same('f() { nosuch_zq "$@"; }; f 1 2; echo $?', stderr=False)


def _violations(script: str, allow: frozenset[str]) -> list[str]:
    return check(script, parse(script), Policy(allow=allow))[0]


@pytest.mark.parametrize("script,needle", [
    ("sh -c 'echo hi'", "`sh` is not an allowed command"),
    ("bash -c 'echo hi'", "`bash` is not an allowed command"),
    ("eval echo hi", "`eval` is not allowed"),
    ("./script.sh", "`./script.sh` is not an allowed command"),
    ("/opt/tools/python3 -c 1", "is not an allowed command"),
    ("rm -rf notes", "`rm` is not an allowed command"),
    ("python3 -c 'print(1)'", "`python3` is not an allowed command"),
    ("ls; curl -s http://example.com | head", "`curl` is not an allowed command"),
    ("echo a | xargs sh -c 'echo $0'", "`xargs` would run `sh`, which the sandbox never runs"),
    ("echo a | xargs rm", "`xargs` would run `rm`, which is not an allowed command"),
    ("find . -exec ./x {} +", "which the sandbox never runs"),
])
def test_what_the_sandbox_has_or_never_runs_is_still_refused(script: str, needle: str) -> None:
    v = _violations(script, frozenset({"echo", "xargs", "find", "cat", "ls", "head", "timeout",
                                       "env"}))
    assert any(needle in m for m in v), v


def test_nothing_runs_and_nothing_is_written_for_a_missing_command() -> None:
    fs = MemoryFS()
    sb = Sandbox({"/m": fs}, cwd="/m", policy=Policy(read_only=True))
    r = sb.run("nosuch_zq > /m/x; mytool -o /m/y; echo $?")
    assert r.stdout == b""  # the redirection is a write: refused under read-only, first
    assert r.exit_code == 126 and b"read-only" in r.stderr
    r = sb.run("nosuch_zq -o /m/y; mytool | cat; echo $?")
    assert (r.stdout, r.exit_code) == (b"0\n", 0)
    assert r.stderr == (b"bash: line 1: nosuch_zq: command not found\n"
                        b"bash: line 1: mytool: command not found\n")
    assert fs.listdir("") == []
