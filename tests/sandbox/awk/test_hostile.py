"""Hostile awk programs: each is refused or stopped by a limit with its message, never a
traceback; plus mutated programs that must never crash the implementation."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from awk_gen import gen_case  # noqa: E402

from sandbox.api import Sandbox  # noqa: E402
from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.errors import LimitExceeded  # noqa: E402
from sandbox.fs.memory import MemoryFS  # noqa: E402
from sandbox.limits import Limits  # noqa: E402
from sandbox.policy import DEFAULT_ALLOW, Policy  # noqa: E402

ALLOW = DEFAULT_ALLOW | {"awk"}


def box(read_only: bool = False, seconds: float = 2.0, **limits) -> Sandbox:
    fs = MemoryFS({"notes.md": b"2026-01-01: a\n2026-01-02: b\n", "core.md": b"x\nx\ny\n"})
    return Sandbox({"/mem": fs}, cwd="/mem",
                   policy=Policy(allow=ALLOW, read_only=read_only,
                                 protected=frozenset({"/mem/conversations.jsonl"})),
                   limits=Limits(seconds=seconds, **limits))


def run(script: str, **kw):
    r = box(**kw).run(script)
    assert "Traceback" not in r.stderr.decode("utf-8", "replace")
    return r


def test_infinite_loop_stops_at_time_limit() -> None:
    r = run("awk 'BEGIN { while (1) {} }'", seconds=1.0)
    assert r.exit_code != 0 and b"time limit" in r.stderr


def test_infinite_loop_with_output_stops() -> None:
    r = run("awk 'BEGIN { while (1) print \"y\" }'", seconds=1.0)
    assert r.exit_code != 0 and (b"output limit" in r.stderr or b"time limit" in r.stderr)


def test_for_ever_and_do_while() -> None:
    assert b"time limit" in run("awk 'BEGIN { for (;;) x++ }'", seconds=0.5).stderr
    assert b"time limit" in run("awk 'BEGIN { do x++; while (1) }'", seconds=0.5).stderr


def test_deep_recursion_is_bounded() -> None:
    r = run("awk 'function f(n) { return f(n + 1) } BEGIN { f(1) }'")
    assert r.exit_code != 0 and b"nesting" in r.stderr


def test_huge_array_is_bounded() -> None:
    r = run("awk 'BEGIN { while (1) a[i++] = i }'", seconds=20.0, string_length=1 << 20)
    assert r.exit_code != 0 and (b"arrays hold more than" in r.stderr or b"time limit" in r.stderr)


def test_huge_string_is_bounded() -> None:
    r = run("awk 'BEGIN { s = \"x\"; while (1) s = s s }'")
    assert r.exit_code != 0 and b"string length limit" in r.stderr


def test_huge_sprintf_and_nf() -> None:
    r = run("awk 'BEGIN { x = sprintf(\"%999999999d\", 1) }'")
    assert r.exit_code != 0
    r = run("awk 'BEGIN { NF = 99999999999 }'")
    assert r.exit_code != 0


def test_catastrophic_regex_is_linear() -> None:
    r = run("awk 'BEGIN { s = sprintf(\"%40s\", \"\"); gsub(/ /, \"a\", s); "
            "print (s ~ /^(a+)+$/), (s ~ /(a|aa)*c/), match(s \"b\", /(a*)*b/) }'")
    assert r.exit_code == 0 and r.stdout == b"1 0 1\n"


def test_system_rm_is_refused() -> None:
    r = run("awk 'BEGIN { system(\"rm -rf /\") }'")
    assert r.exit_code == 2 and b"refused to run `rm -rf /'" in r.stderr
    assert b"not an allowed command" in r.stderr


def test_dynamic_command_is_refused() -> None:
    r = run("awk 'BEGIN { c = \"ec\" \"ho hi\"; system(c) }'")
    assert r.exit_code == 2 and b"string literal" in r.stderr


def test_allowed_command_runs_in_the_sandbox() -> None:
    r = run("awk 'BEGIN { \"echo HELLO\" | getline; print; system(\"echo sys\"); "
            "print \"b\\na\" | \"sort\"; close(\"sort\"); print \"end\" }'")
    assert r.exit_code == 0 and r.stdout == b"HELLO\nsys\na\nb\nend\n"


def test_write_outside_the_jail_fails() -> None:
    r = run("awk 'BEGIN { print \"x\" > \"/etc/passwd\" }'")
    assert r.exit_code == 2 and b"cannot redirect to `/etc/passwd'" in r.stderr


def test_write_to_protected_file_fails() -> None:
    r = run("awk 'BEGIN { f = \"conversations.jsonl\"; print \"x\" > f }'")
    assert r.exit_code == 2 and b"cannot redirect" in r.stderr


def test_read_only_refuses_literal_redirection_before_running() -> None:
    r = run("awk 'BEGIN { print \"ran\"; print \"x\" > \"out.txt\" }'", read_only=True)
    assert r.exit_code == 126 and b"read-only" in r.stderr and r.stdout == b""


def test_read_only_refuses_dynamic_redirection_at_run_time() -> None:
    r = run("awk 'BEGIN { f = \"out\" \".txt\"; print \"x\" > f }'", read_only=True)
    assert r.exit_code == 2 and b"Read-only file system" in r.stderr


def test_getline_from_an_endless_device() -> None:
    """A record from /dev/zero never ends (gawk grows until memory runs out): a limit ends it."""
    r = run("awk 'BEGIN { while ((getline l < \"/dev/zero\") > 0) n++; print n + 0 }'")
    assert r.exit_code == 125 and r.stdout == b"" and b"limit" in r.stderr, r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_one_liners_in_the_sandbox() -> None:
    r = run("awk -F': ' '/^2026-/{print $1}' notes.md")
    assert r.stdout == b"2026-01-01\n2026-01-02\n"
    r = run("awk '!seen[$0]++' core.md > /tmp/x 2>/dev/null; awk '!seen[$0]++' core.md > dedup.md "
            "&& cat dedup.md")
    assert r.stdout == b"x\ny\n"


def _mutate(rng: random.Random, prog: str) -> str:
    chars = list(prog)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        pos = rng.randrange(len(chars) + 1)
        if op < 0.4 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif op < 0.8:
            chars.insert(pos, rng.choice("(){}[];,$/\\\"'!=<>|&^*+-?:~\n\t0aZ#%@"))
        elif chars:
            i = min(pos, len(chars) - 1)
            j = rng.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


@pytest.mark.parametrize("shard", range(6))
def test_mutated_programs_never_crash(shard: int) -> None:
    rng = random.Random(1000 + shard)
    limits = Limits(seconds=0.5, output_bytes=1 << 16, string_length=1 << 20)
    for k in range(500):
        args, data = gen_case(shard * 500 + k)
        args = args[:-1] + [_mutate(rng, args[-1])]
        try:
            code, out, err = run_command(["awk", *args], stdin=data, limits=limits)
        except LimitExceeded:
            continue
        assert b"Traceback" not in err and b"internal error" not in err, (args, err)


@pytest.mark.parametrize("option", ["-c", "--traditional", "-P", "--posix", "-L", "--lint=fatal",
                                    "-t", "-M", "-N", "-d", "-dvars.out", "-D", "-o", "-p",
                                    "--profile=prof.out", "-C", "-g", "-I", "-S", "--sandbox"])
def test_options_not_built_are_refused_not_ignored(option: str) -> None:
    """gawk options whose effect is not built are refused in one line (status 2, nothing
    run, no file written), never silently ignored."""
    code, out, err = run_command(["awk", option, "BEGIN { print 1 }"], stdin=b"",
                                 fs=None)
    assert code == 2 and out == b""
    assert err.count(b"\n") == 1 and b"is not supported in the sandbox" in err


@pytest.mark.parametrize("option", ["-O", "--optimize", "-s", "-r"])
def test_options_without_effect_here_are_accepted(option: str) -> None:
    """-O/-s (optimisation) and -r (intervals are on anyway) print what gawk does."""
    sys.path.insert(0, str(Path(__file__).parent))
    from awk_support import compare, need_gawk

    need_gawk()
    compare([option, "{ print $1 + 1 }"], stdin=b"1\n2\n")
