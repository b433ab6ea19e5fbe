"""jq command-line cases found by the text-tools corpus, against the jq binary on this machine
(jq 1.6 and 1.8 agree here): no program at all is ``.`` (stdin and stdout are never terminals
in the sandbox), with and without output options."""

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
