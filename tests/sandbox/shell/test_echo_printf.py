"""``echo`` and ``printf`` against bash's builtins on many generated, seeded inputs.

Arguments go to bash through argv (``bash -c 'printf "$@"' _ FMT ARGS...``), so no quoting
stands between the generated input and the reference."""

from __future__ import annotations

import functools
import random
import shlex
import shutil
import subprocess

import pytest

from sandbox.commands.testing import run_command

BASH = shutil.which("bash")
ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
pytestmark = pytest.mark.skipif(BASH is None, reason="reference bash not installed")

CONVS = list("sbcdiuxXofeEgGq") + ["F"]
FLAGS = ["", "-", "+", " ", "#", "0", "-0", "+0", "#0"]
WIDTHS = ["", "1", "5", "12", "*"]
PRECS = ["", ".0", ".1", ".3", ".10", ".*", "."]
ARG_POOL = [
    "0", "1", "-1", "42", "-42", "255", "3000000000", "9223372036854775807", "99999999999999999999",
    "-9223372036854775808", "0x1F", "0X1f", "010", "08", "0.5", "3.14159", "-2.5", "1e3", "1e-5",
    "123456789.123", "0.000123", "inf", "-inf", "nan", "abc", "12abc", " 7", "'A", "\"b", "", " ",
    "hello", "a b", "x\ty", "é", "日本", "a\\tb", "c\\nd", "\\0101", "\\x41", "stop\\cend", "%", "%d",
    "it's", "$HOME", "a;b", "~x", "#h", "1.5e308", "2.5", "0.125", "1e100", "-0", "+5", "0x",
    "1,5", "\x01", "back\\\\slash", "\\e", "\\u00e9",
]


_SEP = "\x1e<<SEP-9f2c>>"


@functools.lru_cache(maxsize=None)
def _reference(prog: str, cases: tuple[tuple[str, ...], ...]) -> list[tuple[int, bytes]]:
    """Run every case with bash's builtin in ONE bash process (arguments single-quoted)."""
    lines = []
    for args in cases:
        lines.append(f"{prog} " + " ".join(shlex.quote(a) for a in args))
        lines.append(f"printf '{_SEP}%d{_SEP}' $?")
    p = subprocess.run([BASH, "-c", "\n".join(lines)], env=ENV, capture_output=True, timeout=120)
    out = p.stdout.decode("utf-8", "surrogateescape")
    pieces = out.split(_SEP)
    results = []
    for k in range(len(cases)):
        results.append((int(pieces[2 * k + 1]), pieces[2 * k].encode("utf-8", "surrogateescape")))
    return results


def _gen_format(rng: random.Random) -> str:
    pieces = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.2:
            pieces.append(rng.choice(["lit ", "\\n", "\\t", "%%", "[", "]", "\\101", "\\x42", "é"]))
        conv = rng.choice(CONVS)
        prec = rng.choice(PRECS)
        pieces.append("%" + rng.choice(FLAGS) + rng.choice(WIDTHS) + prec + conv)
        pieces.append(rng.choice(["|", " ", "\\n", ""]))
    return "".join(pieces)


CASES: list[list[str]] = []
_rng = random.Random(20261129)
for _ in range(700):
    fmt = _gen_format(_rng)
    nargs = _rng.randint(0, 4)
    args = [_rng.choice(ARG_POOL) for _ in range(nargs)]
    if "*" in fmt:  # a huge '*' width would make bash print gigabytes
        args = [str(_rng.randint(-3, 12)) if _rng.random() < 0.5 or a.lstrip("-+ ").isdigit()
                and len(a) > 3 or a.startswith(("0x", "0X", "1e", "1.5e")) else a for a in args]
    CASES.append([fmt, *args])
_PRINTF_KEY = tuple(tuple(c) for c in CASES)


def _repro(prog: str, args: list[str]) -> str:
    return f"bash -c '{prog} \"$@\"' _ " + " ".join(shlex.quote(a) for a in args)


@pytest.mark.parametrize("args", CASES, ids=[f"p{i:03d}" for i in range(len(CASES))])
def test_printf_same_as_bash(args: list[str]) -> None:
    ref_code, ref_out = _reference("printf", _PRINTF_KEY)[CASES.index(args)]
    code, out, err = run_command(["printf", *args])
    assert (out, code) == (ref_out, ref_code), (
        f"reproduce: {_repro('printf', args)}\n bash {ref_out!r} {ref_code}\n ours {out!r} {code} {err!r}")


ECHO_POOL = ["-n", "-e", "-E", "-ne", "-en", "-nE", "-x", "--", "-", "-nn", "a", "b c", "",
             "a\\tb", "x\\ny", "\\c", "q\\cr", "\\0101", "\\x41\\x4a", "\\u263a", "\\e", "\\\\",
             "\\q", "-e\\n", "é", "\\a\\b\\f\\v\\r"]
ECHO_CASES: list[list[str]] = []
_rng2 = random.Random(7)
for _ in range(250):
    ECHO_CASES.append([_rng2.choice(ECHO_POOL) for _ in range(_rng2.randint(0, 5))])
_ECHO_KEY = tuple(tuple(c) for c in ECHO_CASES)


@pytest.mark.parametrize("args", ECHO_CASES, ids=[f"e{i:03d}" for i in range(len(ECHO_CASES))])
def test_echo_same_as_bash(args: list[str]) -> None:
    ref_code, ref_out = _reference("echo", _ECHO_KEY)[ECHO_CASES.index(args)]
    code, out, err = run_command(["echo", *args])
    assert (out, code) == (ref_out, ref_code), f"reproduce: {_repro('echo', args)}"


def test_printf_usage_errors() -> None:
    assert run_command(["printf"])[0] == 2
    code, out, err = run_command(["printf", "-z"])
    assert code == 2 and b"invalid option" in err
    code, out, err = run_command(["printf", "%d\n", "abc"])
    assert (code, out) == (1, b"0\n") and b"abc: invalid number" in err
