"""Sandbox rules for jq: runaway programs end with a limit error (in any thread, in bounded
memory), modules are refused, env/$ENV/input_filename/halt_error/stderr stay inside the
sandbox, errors are one line with jq's exit statuses, and no input makes a Python traceback.
"""

from __future__ import annotations

import random
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from jq_gen import gen_program  # noqa: E402

from sandbox.commands.testing import run_command  # noqa: E402
from sandbox.errors import LimitExceeded  # noqa: E402
from sandbox.limits import Limits  # noqa: E402

FAST = Limits(seconds=1.0)
RUNAWAY = [
    "repeat(1)",
    "[range(1e9)]",
    "def f: f; f",
    "def f: 1 + f; f",
    '[limit(1e9; repeat("x"))] | add',
    "last(range(1e9))",
    "reduce range(1e9) as $x (0; . + 1)",
    "until(false; .)",
    "[recurse(. + 1)]",
    '"x" * 100000000',
    "[range(1e5)] as $a | [$a[] | $a | tojson] | length",
    'def f: [f]; f',
    "[while(true; .)]",
    '"abc" | [.,.] | until(length > 1e9; . + .)',
]


@pytest.mark.parametrize("program", RUNAWAY)
def test_runaway_programs_end_with_a_limit_error(program: str) -> None:
    """Each runaway program raises ``LimitExceeded`` (time, size or recursion)."""
    with pytest.raises(LimitExceeded):
        run_command(["jq", "-n", program], limits=FAST)


def test_limit_errors_in_a_thread_and_bounded_memory() -> None:
    """The same limits hold off the main thread; memory stays bounded while they trip."""
    errors: list[BaseException] = []

    def work() -> None:
        for program in ("repeat(1)", "[range(1e9)]", "def f: f; f", '[limit(1e9; repeat("x"))] | add'):
            try:
                run_command(["jq", "-n", program], limits=Limits(seconds=1.0, string_length=1 << 20))
            except LimitExceeded as e:
                errors.append(e)

    tracemalloc.start()
    t = threading.Thread(target=work)
    t.start()
    t.join(60)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert not t.is_alive()
    assert len(errors) == 4, errors
    assert peak < 400 << 20, f"peak traced memory {peak >> 20} MiB"


@pytest.mark.parametrize(
    "argv",
    [
        ["jq", "-n", 'import "a" as a; a::f'],
        ["jq", "-n", 'include "a"; .'],
        ["jq", "-n", "modulemeta"],
        ["jq", "-n", "get_search_list"],
        ["jq", "-n", 'import "data" as $d; $d'],
    ],
)
def test_modules_are_refused(argv: list[str]) -> None:
    """Module features are a compile error (exit 3) that says why."""
    code, out, err = run_command(argv)
    assert code == 3 and out == b""
    assert b"modules are not available in this sandbox" in err
    assert err.count(b"\n") == 2  # the message and jq's "1 compile error" line


def test_library_path_option_is_refused() -> None:
    """``-L`` is a usage error (exit 2)."""
    code, out, err = run_command(["jq", "-L", "/lib", "-n", "1"])
    assert code == 2 and out == b"" and b"modules are not available" in err


def test_env_shows_only_the_sandbox_environment() -> None:
    """``env`` and ``$ENV`` are the sandbox's variables, never the host's."""
    code, out, err = run_command(["jq", "-nc", "env, $ENV, $ENV.PATH"], env={"A": "1"})
    assert (code, out, err) == (0, b'{"A":"1"}\n{"A":"1"}\nnull\n', b"")


def test_input_filename_is_the_virtual_path() -> None:
    """``input_filename`` names the operand as typed, inside the sandbox."""
    files = {"d/x.json": b"1\n", "y.json": b"2\n"}
    code, out, _ = run_command(["jq", "input_filename", "d/x.json", "/y.json"], files=files)
    assert (code, out) == (0, b'"d/x.json"\n"/y.json"\n')


def test_halt_error_and_stderr_write_to_the_sandbox_stderr() -> None:
    """``halt_error`` prints its string raw and exits with its status; ``stderr`` writes JSON."""
    assert run_command(["jq", "-n", '"bye\\n" | halt_error(3)']) == (3, b"", b"bye\n")
    assert run_command(["jq", "-n", '{"a":1} | halt_error']) == (5, b"", b'{"a":1}\n')
    assert run_command(["jq", "-n", '"x" | stderr | empty']) == (0, b"", b'"x"')
    assert run_command(["jq", "-n", "1 | debug | empty"]) == (0, b"", b'["DEBUG:",1]\n')
    assert run_command(["jq", "-n", "halt"]) == (0, b"", b"")
    assert run_command(["jq", "-n", "null | halt_error(1)"]) == (1, b"", b"")


def test_slurpfile_and_rawfile_read_through_the_sandbox() -> None:
    """``--slurpfile``/``--rawfile`` use the virtual filesystem; errors name the operand only."""
    files = {"v.json": b"1 [2]\n", "t.txt": b"hi\n"}
    code, out, _ = run_command(["jq", "-nc", "[$v, $t]", "--slurpfile", "v", "v.json", "--rawfile", "t", "t.txt"], files=files)
    assert (code, out) == (0, b'[[1,[2]],"hi\\n"]\n')
    code, out, err = run_command(["jq", "-n", "$v", "--slurpfile", "v", "missing.json"])
    assert code == 2 and b"missing.json" in err and b"No such file or directory" in err
    assert b"/tmp" not in err and b"/work" not in err


def test_errors_and_exit_statuses() -> None:
    """Runtime errors exit 5 with jq's one-line message; compile errors 3; usage 2."""
    code, out, err = run_command(["jq", ".a"], stdin=b'{"a":1}\n5\n')
    assert (code, out, err) == (5, b"1\n", b'jq: error (at <stdin>:2): Cannot index number with string ("a")\n')
    code, out, err = run_command(["jq", "-n", "error({\"a\":1})"])
    assert (code, err) == (5, b'jq: error (at <unknown>) (not a string): {"a":1}\n')
    code, out, err = run_command(["jq", "-n", "nosuchfn"])
    assert code == 3 and err.startswith(b"jq: error: nosuchfn/0 is not defined")
    code, out, err = run_command(["jq", "-n", ". |"])
    assert code == 3 and b"syntax error" in err
    code, out, err = run_command(["jq", "--frobnicate", "."])
    assert code == 2 and err.startswith(b"jq: Unknown option: --frobnicate\n")
    code, out, err = run_command(["jq"], stdin=b'{"a":1}')  # no program: '.', stdin is no tty
    assert (code, out, err) == (0, b'{\n  "a": 1\n}\n', b"")
    code, out, err = run_command(["jq", ".", "nope.json"])
    assert (code, err) == (2, b"jq: error: Could not open file nope.json: No such file or directory\n")


def test_malformed_jsonl_line_stops_after_earlier_results() -> None:
    """A bad line ends the run (exit 5, as jq 1.7's main.c) after printing the results of the
    lines before it; the message names line and column as jq's parser does."""
    code, out, err = run_command(["jq", "-c", ".a"], stdin=b'{"a":1}\n{"a":2}\nnot json\n{"a":3}\n')
    # jq 1.8 src/jv_parse.c check_literal: a token starting "n" is the literal null only if
    # its second byte is "u" ("nan" is a number), so "not" is an "Invalid numeric literal"
    assert (code, out, err) == (5, b"1\n2\n", b"jq: parse error: Invalid numeric literal at line 3, column 4\n")
    code, out, err = run_command(["jq", "-c", "."], stdin=b'{"a":\n')
    assert code == 5 and b"Unfinished JSON term at EOF" in err


def test_large_output_is_complete_and_in_order() -> None:
    """Output buffering loses nothing past its flush threshold (about 4 MB of output here)."""
    lines = b"".join(b'{"i":%d,"s":"%s"}\n' % (i, b"x" * (i % 50)) for i in range(60000))
    code, out, err = run_command(["jq", "-c", "."], stdin=lines, limits=Limits(output_bytes=1 << 30))
    assert (code, err) == (0, b"")
    assert out == lines
    code, out, _ = run_command(["jq", "-r", ".s"], stdin=lines)
    assert out.count(b"\n") == 60000


def test_multiline_and_multivalue_input() -> None:
    """Values spanning lines, several values on a line, BOM, whitespace-only input."""
    code, out, _ = run_command(["jq", "-c", "."], stdin=b'\xef\xbb\xbf{"a":\n [1,\n2]} 3 "x"\n\n[\n]')
    assert (code, out) == (0, b'{"a":[1,2]}\n3\n"x"\n[]\n')
    assert run_command(["jq", "."], stdin=b"  \n\n") == (0, b"", b"")


def test_no_python_traceback_on_hostile_programs() -> None:
    """Random and garbage programs on random input: only jq errors and limit errors."""
    rng = random.Random(7)
    alphabet = list(".[]{}()|,;:$@\"\\?+-*/%<>=! abcdefxyz0123456789") + ["def ", " as ", "reduce ", "if ", "then ", "end", "try ", "label ", "$__loc__", "..", "//", "?//"]
    for i in range(400):
        if i % 2:
            program = gen_program(rng, 4)
        else:
            program = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 25)))
        stdin = rng.choice([b"null", b'{"a":[1,"x",{"b":null}]}', b"[1,2,3]", b'"str"', b"1 2", b"\xff\xfe", b"[[[[]]]]"])
        try:
            code, out, err = run_command(["jq", "-c", program], stdin=stdin, limits=Limits(seconds=1.0))
        except LimitExceeded:
            continue
        assert code in (0, 1, 2, 3, 4, 5), (program, code, err)
        assert b"Traceback" not in err and err.count(b"\n") <= 3, (program, err)
