"""Every fuzz finding, as a regression test: the sandbox must print what bash prints (stdout
and exit status), and never an internal error or a traceback."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox import Limits, Policy, Sandbox
from sandbox.commands import names

#: Scripts the fuzzer (or the issue that asked for it) found raising inside the interpreter.
FINDINGS = [
    'set "" ""; IFS=; echo ${*-minus}',                  # IndexError in set
    'set "${x}"; echo "[$1] $#"',                         # IndexError in set
    "x='a[z-t]b'; echo ${x//$unset}",                     # re.error: reversed range
    "v='[:-$]'; echo \"\" $v",                            # re.error: reversed range
    "echo [[--9]{4}",                                     # re.error from globbing a word
    "case b in [z-a]) echo y;; *) echo n;; esac",
    "case q in [!z-a]) echo y;; esac",
    "case - in [[:alpha:]-9]) echo y;; *) echo n;; esac",
    "break stat~; echo $?",                               # RuntimeError outside a loop
    "break $; echo \"st=$?\"",
    "for i in 1 2; do break x; echo in; done; echo \"st=$?\"",
    "f(){ local;};f|set \"${b}\"; echo $?",
    "test -v 'arr]'; echo $?",                            # ValueError in test -v
    "test -v '[{]'; echo $?",                             # ArithError from a subscript
    "echo \"${a[&]}\"; echo next",                        # ArithError in ${a[...]}
    "declare -r X=1; for X in a; do echo $X; done; echo st=$?",  # ExpansionError escaping
    "printf '%5d|%-3s|%.2f\\n' 3 a 1.5",
    "printf '[%8.2f]\\n' 3.1e314159; echo $?",           # hang: a 10**314159 Fraction
    "printf '[%.3g]\\n' 1.18e4932 1.2e4932 1e-4940 4e-4951 1e-4951 -1e-4960",
    "echo $(<<E)\n$(<<E)",                                # AssertionError: undelimited here-doc
    "shopt -\udc80; echo $?",                             # UnicodeEncodeError in a message
]

#: Findings whose right answer is a limit, not bash's output (bash builds the 2 GB string).
LIMITED = [
    ("printf '%*d' 9999999999999999999 5", 125, b"string length limit"),
    ("printf '%.9999999999999999999d' 5", 125, b"string length limit"),
    ("printf '%9999999999999999999u' 5", 125, b"string length limit"),
]

#: Findings checked only for the invariants (bash's answer differs in a detail we keep).
NO_INTERNAL_ERROR = [
    "declare -A A=([x]=1); ((A[]=2)); echo $?",          # SubscriptError escaping (( ))
    "s[@]=; echo $?",                                    # ArithError from an assignment
]


@pytest.mark.parametrize("script", NO_INTERNAL_ERROR)
def test_finding_has_no_internal_error(script: str, tmp_path: Path) -> None:
    r = Sandbox(mounts={"/": tmp_path}, policy=Policy(allow=frozenset(names()))).run(script)
    assert b"internal error" not in r.stderr and b"Traceback" not in r.stderr, r
    assert r.stderr.startswith(b"bash: "), r


@pytest.mark.parametrize("script,status,message", LIMITED)
def test_finding_ends_at_a_limit(script: str, status: int, message: bytes, tmp_path: Path) -> None:
    r = Sandbox(mounts={"/": tmp_path}, policy=Policy(allow=frozenset(names()))).run(script)
    assert b"internal error" not in r.stderr and b"Traceback" not in r.stderr, r
    assert r.exit_code == status and message in r.stderr, r


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize("script", FINDINGS)
def test_finding_behaves_as_bash(script: str, tmp_path: Path) -> None:
    ref = subprocess.run(["bash", "-c", script], capture_output=True, cwd=tmp_path, timeout=30)
    sb = Sandbox(mounts={"/": tmp_path}, policy=Policy(allow=frozenset(names())),
                 limits=Limits(seconds=5))
    r = sb.run(script)
    assert b"internal error" not in r.stderr and b"Traceback" not in r.stderr, r
    assert (r.stdout, r.exit_code) == (ref.stdout, ref.returncode), (script, r, ref)
