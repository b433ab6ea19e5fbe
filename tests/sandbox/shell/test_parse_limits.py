"""Parsing is bounded like running: a malformed script ends within the time limit with one
line naming the error and its line as bash does, exit status 2 (issue: `'''${'h)` hung the
tool for ever inside the bashlex fallback, which is no longer on the run path)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from sandbox import Limits, Sandbox

ROOT = Path(__file__).resolve().parents[3]

#: Scripts as a truncated or mis-escaped model output leaves them; bash's message for each
#: must be ours, word for word, with the same line number.
MALFORMED = [
    "'''${'h)",
    "echo 'abc",
    'echo "abc',
    "echo $(",
    "if true; then",
    "echo )",
    "for x in; do",
    "echo ${x",
    "f() {",
    "echo `a",
    "x=$((1+",
    "{ echo",
    "echo 1\necho 'abc\n\ndef",
    "echo 1\nif true; then\n\necho",
    "echo 1\necho $(\n\n",
    "echo 1\n\necho )\n",
    "while true; do echo; done; done",
    "echo a |",
    "echo a && ; echo b",
    "(( 1 +",
]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_the_nine_character_script_ends_within_the_limit() -> None:
    """In a child process (a hang must fail the test, not the suite; memory capped)."""
    code = ("from sandbox import Sandbox, Limits\n"
            "import tempfile, sys\n"
            "sb = Sandbox(mounts={'/': tempfile.mkdtemp()}, limits=Limits(seconds=2))\n"
            "r = sb.run(sys.argv[1])\n"
            "sys.stdout.write(f'{r.exit_code}|{r.stderr.decode()}')\n")
    proc = subprocess.run([sys.executable, "-c", code, "'''${'h)"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, preexec_fn=_limit_memory,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout == ("2|bash: -c: line 1: syntax error near unexpected token `)'\n"
                           "bash: -c: line 1: `'''${'h)'\n"), proc


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("script", MALFORMED)
def test_syntax_errors_say_what_bash_says(script: str, tmp_path: Path) -> None:
    ref = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert ref.stderr.startswith("bash: -c: "), ref.stderr
    r = Sandbox(mounts={"/": tmp_path}).run(script)
    # the complete lines before the one that does not parse run first, as in bash
    assert (r.exit_code, r.stdout.decode()) == (ref.returncode, ref.stdout), (script, r)
    assert r.stderr.decode() == ref.stderr, script


def test_parsing_is_charged_to_the_time_limit(tmp_path: Path) -> None:
    """A script that is not cached yet, with no time left, stops in the parser."""
    script = f"echo {uuid.uuid4().hex}; " * 200
    r = Sandbox(mounts={"/": tmp_path}, limits=Limits(seconds=0)).run(script)
    assert r.exit_code == 124 and b"time limit" in r.stderr and r.stdout == b"", r
    assert Sandbox(mounts={"/": tmp_path}).run(script).exit_code == 0
