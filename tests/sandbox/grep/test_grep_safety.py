"""grep: -P and --color=always, hostile arguments and inputs never give a traceback, and
errors never show a host path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
import grep_support as gs  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.errors import LimitExceeded  # noqa: E402
from sandbox.limits import Limits  # noqa: E402


def test_perl_regexp_runs() -> None:
    """-P runs (sandbox.commands.grep.perl; differential tests in test_grep_perl.py)."""
    assert run_command(["grep", "-nP", "\\d"], stdin=b"a1\nb\n") == (0, b"1:a1\n", b"")
    assert run_command(["grep", "--perl-regexp", "-o", "x\\Ky"], stdin=b"xy\n") == (0, b"y\n", b"")


def test_color_always_colours_auto_never_does() -> None:
    """Output is never a terminal in the sandbox, so --color=auto means never."""
    code, out, err = run_command(["grep", "--color=always", "a"], stdin=b"a\n")
    assert (code, out, err) == (0, b"\33[01;31m\33[Ka\33[m\33[K\n", b"")
    for when in ("auto", "never"):
        assert run_command(["grep", f"--color={when}", "a"], stdin=b"a\n") == (0, b"a\n", b"")


def test_regex_error_matches_gnu_wording() -> None:
    gs.need_grep()
    for pattern in ["\\(", "a\\{1", "[[:nope:]]", "\\1", "[b-a]", "x\\", "a\\{3,1\\}"]:
        case = gs.Case([pattern], {}, b"a\n")
        assert gs.run_ours(case) == gs.run_gnu(case), case.command()


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    code, _, err = run_command(["grep", "-E", "(" * 5000 + "a" + ")" * 5000], stdin=b"a\n")
    assert code == 2 and err == b"grep: Regular expression too big\n"
    code, _, err = run_command(["grep", "-E", "a" + "{1}" * 5000], stdin=b"a\n")
    assert code == 2 and err == b"grep: Regular expression too big\n"


def test_missing_file_message_has_only_the_virtual_name() -> None:
    code, out, err = run_command(["grep", "x", "../../etc/passwd", "/nope/f"], cwd="/")
    assert code == 2
    assert err == (b"grep: ../../etc/passwd: No such file or directory\n"
                   b"grep: /nope/f: No such file or directory\n")


TOKENS = ["-E", "-F", "-G", "-i", "-v", "-w", "-x", "-c", "-l", "-L", "-n", "-h", "-H", "-o",
          "-q", "-s", "-b", "-Z", "-z", "-a", "-I", "-T", "-r", "-m", "-A", "-B", "-C", "-e",
          "-f", "--", "-", "f", "d", "nope", "1", "0", "-1", "x", "a*", "\\(", "[", "(a|b)",
          "\\1", "--include=*.t", "--exclude-dir=d", "--binary-files=text", "--label=L",
          "--group-separator=::", "--no-group-separator", "--context=2", "-5", "--colour",
          "--max-count", "\\<", "a{1,2}", "\x00", "\udcff", "é"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argv=st.lists(st.sampled_from(TOKENS), max_size=8), data=st.binary(max_size=64))
def test_random_command_lines_never_crash(argv: list[str], data: bytes) -> None:
    files = {"f": data, "d/g.t": data + b"\nx\n"}
    try:
        code, out, err = run_command(["grep"] + argv, stdin=data, files=files,
                                     limits=Limits(seconds=5))
    except LimitExceeded:
        return
    assert code in (0, 1, 2)
    for line in err.splitlines():
        assert line.startswith(b"grep: ") or line.startswith(b"Usage: ") or line.startswith(
            b"Try 'grep --help'")


def test_compiled_pattern_cache_takes_each_runs_budget() -> None:
    """grep's compiled patterns are cached across calls; the backtracker's time bound must be
    the current run's, and a cached pattern must still be reported as invalid every time."""
    from sandbox.limits import Budget, Limits
    from sandbox.regex import RegexError, compile_patterns

    first, second = Budget(Limits(seconds=5)), Budget(Limits(seconds=1))
    a = compile_patterns([b"\\(a*\\)*\\1x"], budget=first)
    b = compile_patterns([b"\\(a*\\)*\\1x"], budget=second)
    assert a.budget is first and b.budget is second and a._prog is b._prog
    for _ in range(2):
        with pytest.raises(RegexError):
            compile_patterns([b"a\\{1"])
    assert run_command(["grep", "-c", "\\(a\\)\\1"], stdin=b"aa\nab\n") == (0, b"1\n", b"")
