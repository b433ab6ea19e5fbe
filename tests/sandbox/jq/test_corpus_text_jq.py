"""jq cases found by the text-tools corpus. Against the jq binary on this machine (jq 1.6 and
1.8 agree here): no program at all is ``.`` (stdin and stdout are never terminals in the
sandbox). Against libjq 1.8: the ``s`` flag does not let ``.`` match a newline (``p`` does), and
global matching goes on one past an empty match, as f_match does; localtime and strflocaltime
follow TZ (libjq run in a process with that TZ)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from sandbox.commands.testing import run_command

JQ_BIN = shutil.which("jq")
ENV = {"LC_ALL": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin"}
CASES = [
    ([], b'{"a":1,"b":[1,2]}\n'), (["-c"], b'{"a":1}\n[1, 2]\n'), (["-r"], b'"x"\n1\n'),
    (["-n"], b""), (["-s"], b"1 2\n"), ([], b""), (["-S"], b'{"b":1,"a":2}'),
    (["--arg", "x", "1"], b"[1]"), (["-e"], b"null"), (["-e"], b"1"),
]


@pytest.mark.skipif(JQ_BIN is None, reason="jq binary not installed (reference for CLI behaviour)")
@pytest.mark.parametrize("argv,stdin", CASES)
def test_no_program_is_dot(argv: list[str], stdin: bytes) -> None:
    ref = subprocess.run([JQ_BIN, *argv], input=stdin, capture_output=True, env=ENV, timeout=30)
    code, out, _err = run_command(["jq", *argv], stdin=stdin)
    assert (code, out) == (ref.returncode, ref.stdout)


# -- regex flags and global matching, against libjq 1.8 (the ``jq`` PyPI module) -------------

REGEX_CASES = [
    ('"x\\ny"', 'test("x.y"; "s")'), ('"x\\ny"', 'test("x.y"; "p")'), ('"x\\ny"', 'test("x.y")'),
    ('"x\\n"', 'test("x$"; "s")'), ('"x\\ny"', 'test("(?s)x.y")'), ('"a\\nb"', 'test("a.b"; "sx")'),
    ('"aaa"', '[match("a*?"; "g").length]'), ('"aaa"', 'gsub("a*?"; "-")'),
    ('"baaa"', '[match("a*?"; "g") | [.offset, .length]]'), ('"aaa"', '[match("a??"; "g").length]'),
    ('"abc"', '[scan("b*?")]'), ('"aXbX"', '[splits("X*?")]'), ('"baaa"', '[match("a*"; "g") | .offset]'),
    ('"ab"', 'gsub(""; "-")'), ('"a b  c"', '[splits(" *")]'), ('"a,b, c"', '[splits(", *")]'),
    ('"héllo wörld"', '[match("\\\\w+"; "g").offset]'), ('"abab"', 'gsub("(?<x>a)"; "<\\(.x)>")'),
    ('"test"', '[splits("")]'), ('"a\\nb\\n"', '[match("$"; "g").offset]'), ('"xay"', 'sub("a*"; "-"; "g")'),
    ('"xay"', '[scan("a*")]'), ('"2026-09-01 and 2026-09-19"', '[scan("\\\\d+")]'),
]


@pytest.mark.parametrize("text,program", REGEX_CASES)
def test_regex_matches_libjq(text: str, program: str) -> None:
    jq = pytest.importorskip("jq", reason="the jq module (libjq bindings, the reference) is not installed")
    import json

    want = jq.compile(program).input_text(text).all()
    code, out, err = run_command(["jq", "-c", program], stdin=text.encode())
    assert code == 0, err
    assert [json.loads(line) for line in out.decode().splitlines()] == want


# -- localtime / strflocaltime follow the run's TZ, against libjq 1.8 in a process with that TZ --

TIME_PROGRAMS = [
    '1788252130|localtime', '1788252130|strflocaltime("%H:%M %Z %z")', '1788252130.5|localtime',
    '1767225600|localtime|mktime', '1788252130|localtime|strftime("%H %Z")',
    '0|strflocaltime("%F %T %Z")', '1788252130|strftime("%H %Z")', '1788252130|gmtime',
    '"2026-09-01T08:42:10Z"|fromdate|strflocaltime("%a %d %b %H:%M")',
]


@pytest.mark.parametrize("tz", ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "EST5EDT"])
def test_local_time_follows_tz_like_libjq(tz: str) -> None:
    pytest.importorskip("jq", reason="the jq module (libjq bindings, the reference) is not installed")
    import json
    import sys as _sys

    script = ("import jq, json, sys\n"
              "for p in json.loads(sys.argv[1]):\n"
              "    print(json.dumps(jq.compile(p).input_value(None).first()))\n")
    ref = subprocess.run([_sys.executable, "-c", script, json.dumps(TIME_PROGRAMS)],
                         capture_output=True, env={**ENV, "TZ": tz}, timeout=60, check=True)
    want = [json.loads(line) for line in ref.stdout.decode().splitlines()]
    got = []
    for program in TIME_PROGRAMS:
        code, out, err = run_command(["jq", "-nc", program], env={"TZ": tz})
        assert code == 0, err
        got.append(json.loads(out))
    assert got == want
